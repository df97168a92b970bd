// RestClient against the real kube-apiserver: the error mapping of real Status responses
// (conflict, already exists, not found, preconditions), patches, paginated lists, selectors,
// pod binding and status patches, and a watch.
#include "client/rest_client.h"

#include <catch2/catch.hpp>
#include <memory>
#include <set>
#include <string>

#include "api/json_decode.h"
#include "client/api_error.h"
#include "client/http_transport.h"
#include "client/resource_path.h"
#include "controlplane_env.h"
#include "rapidjson/pointer.h"

using ksched::client::DeleteOptions;
using ksched::client::HttpTransport;
using ksched::client::ListOptions;
using ksched::client::PatchType;
using ksched::client::ReasonOf;
using ksched::client::ResourcePath;
using ksched::client::RestClient;
using ksched::client::RestClientOptions;
using ksched::testing::ControlPlane;

namespace {

constexpr char kNamespace[] = "rest-client-test";

std::shared_ptr<RestClient> Client() {
  static std::shared_ptr<RestClient> client = [] {
    const ksched::client::RestConfig config = ControlPlane::Get().AdminCertConfig();
    auto transport = HttpTransport::Create(config);
    if (!transport.ok()) throw std::runtime_error(transport.status().ToString());
    auto made = std::make_shared<RestClient>(std::shared_ptr<HttpTransport>(std::move(*transport)),
                                             RestClientOptions::FromConfig(config));
    auto ns = made->Create(ResourcePath().Resource("namespaces").String(),
                           std::string(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")") +
                               kNamespace + R"("}})");
    if (!ns.ok() && ns.status().code() != absl::StatusCode::kAlreadyExists) {
      throw std::runtime_error(ns.status().ToString());
    }
    return made;
  }();
  return client;
}

std::string ConfigMaps() { return ResourcePath().Namespace(kNamespace).Resource("configmaps").String(); }
std::string ConfigMap(const std::string& name) {
  return ResourcePath().Namespace(kNamespace).Resource("configmaps").Name(name).String();
}
std::string Pods() { return ResourcePath().Namespace(kNamespace).Resource("pods").String(); }
std::string Pod(const std::string& name) {
  return ResourcePath().Namespace(kNamespace).Resource("pods").Name(name).String();
}

std::string ConfigMapJson(const std::string& name, const std::string& labels = "{}",
                          const std::string& rv = "") {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"(","labels":)" + labels +
         (rv.empty() ? "" : R"(,"resourceVersion":")" + rv + "\"") + R"(},"data":{"k":"v"}})";
}

// The string at a JSON pointer ("/metadata/resourceVersion"); "" when absent.
std::string At(const std::string& json, const char* pointer) {
  rapidjson::Document document;
  if (!ksched::api::ParseJson(json, document).ok()) return "";
  const rapidjson::Value* value = rapidjson::Pointer(pointer).Get(document);
  if (value == nullptr || !value->IsString()) return "";
  return std::string(value->GetString(), value->GetStringLength());
}

std::string MustOk(const absl::StatusOr<std::string>& result) {
  INFO(result.status().ToString());
  REQUIRE(result.ok());
  return *result;
}

}  // namespace

TEST_CASE("create, get, update with a stale resourceVersion is a Conflict", "[rest]") {
  auto client = Client();
  const std::string created = MustOk(client->Create(ConfigMaps(), ConfigMapJson("cm-conflict")));
  const std::string rv = At(created, "/metadata/resourceVersion");
  REQUIRE_FALSE(rv.empty());
  const std::string got = MustOk(client->Get(ConfigMap("cm-conflict")));
  CHECK(At(got, "/metadata/name") == "cm-conflict");
  const std::string updated = MustOk(client->Update(ConfigMap("cm-conflict"), ConfigMapJson("cm-conflict", R"({"v":"2"})", rv)));
  CHECK(At(updated, "/metadata/labels/v") == "2");
  auto stale = client->Update(ConfigMap("cm-conflict"), ConfigMapJson("cm-conflict", R"({"v":"3"})", rv));
  REQUIRE_FALSE(stale.ok());
  INFO(stale.status().ToString());
  CHECK(stale.status().code() == absl::StatusCode::kAborted);
  CHECK(ReasonOf(stale.status()) == "Conflict");
  CHECK(ksched::client::HttpStatusOf(stale.status()) == 409);
  const std::string message(stale.status().message());
  CHECK(message.find("PUT " + client->server() + ConfigMap("cm-conflict")) == 0);
  CHECK(message.find("the object has been modified") != std::string::npos);
}

TEST_CASE("create twice is AlreadyExists, get missing is NotFound", "[rest]") {
  auto client = Client();
  MustOk(client->Create(ConfigMaps(), ConfigMapJson("cm-twice")));
  auto again = client->Create(ConfigMaps(), ConfigMapJson("cm-twice"));
  REQUIRE_FALSE(again.ok());
  CHECK(again.status().code() == absl::StatusCode::kAlreadyExists);
  CHECK(ReasonOf(again.status()) == "AlreadyExists");
  auto missing = client->Get(ConfigMap("no-such-configmap"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().code() == absl::StatusCode::kNotFound);
  CHECK(ReasonOf(missing.status()) == "NotFound");
  CHECK(std::string(missing.status().message()).find("\"no-such-configmap\" not found") != std::string::npos);
}

TEST_CASE("merge and strategic merge patches", "[rest]") {
  auto client = Client();
  MustOk(client->Create(ConfigMaps(), ConfigMapJson("cm-patch")));
  const std::string merged =
      MustOk(client->Patch(ConfigMap("cm-patch"), PatchType::kMerge, R"({"data":{"k":null,"m":"merged"}})"));
  CHECK(At(merged, "/data/m") == "merged");
  CHECK(At(merged, "/data/k").empty());
  const std::string strategic = MustOk(
      client->Patch(ConfigMap("cm-patch"), PatchType::kStrategic, R"({"metadata":{"labels":{"s":"yes"}}})"));
  CHECK(At(strategic, "/metadata/labels/s") == "yes");
  CHECK(At(strategic, "/data/m") == "merged");
  const std::string json_patch = MustOk(
      client->Patch(ConfigMap("cm-patch"), PatchType::kJson, R"([{"op":"add","path":"/data/j","value":"jp"}])"));
  CHECK(At(json_patch, "/data/j") == "jp");
}

TEST_CASE("delete with a wrong uid precondition is a Conflict, with the right one succeeds", "[rest]") {
  auto client = Client();
  const std::string created = MustOk(client->Create(ConfigMaps(), ConfigMapJson("cm-delete")));
  DeleteOptions wrong;
  wrong.precondition_uid = std::string("00000000-0000-0000-0000-000000000000");
  auto refused = client->Delete(ConfigMap("cm-delete"), wrong);
  REQUIRE_FALSE(refused.ok());
  INFO(refused.status().ToString());
  CHECK(refused.status().code() == absl::StatusCode::kAborted);
  CHECK(ksched::client::HttpStatusOf(refused.status()) == 409);
  DeleteOptions right;
  right.precondition_uid = At(created, "/metadata/uid");
  right.grace_period_seconds = 0;
  MustOk(client->Delete(ConfigMap("cm-delete"), right));
  CHECK(client->Get(ConfigMap("cm-delete")).status().code() == absl::StatusCode::kNotFound);
}

TEST_CASE("a paginated list of 25 returns each item exactly once; selectors filter", "[rest]") {
  auto client = Client();
  for (int i = 0; i < 25; ++i) {
    MustOk(client->Create(ConfigMaps(), ConfigMapJson("page-" + std::to_string(i),
                                                      R"({"batch":"paging","idx":")" + std::to_string(i) + "\"}")));
  }
  std::multiset<std::string> names;
  ListOptions options;
  options.label_selector = std::string("batch=paging");
  options.limit = 10;
  int pages = 0;
  while (true) {
    const std::string page = MustOk(client->List(ConfigMaps(), options));
    ++pages;
    rapidjson::Document document;
    REQUIRE(ksched::api::ParseJson(page, document).ok());
    const auto& items = document["items"].GetArray();
    CHECK(items.Size() <= 10);
    for (const auto& item : items) names.insert(item["metadata"]["name"].GetString());
    options.continue_token = At(page, "/metadata/continue");
    if (options.continue_token.empty()) break;
  }
  CHECK(pages == 3);
  CHECK(names.size() == 25);
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == 25);

  ListOptions by_label;
  by_label.label_selector = std::string("batch=paging,idx in (3, 4)");
  const std::string labelled = MustOk(client->List(ConfigMaps(), by_label));
  rapidjson::Document document;
  REQUIRE(ksched::api::ParseJson(labelled, document).ok());
  CHECK(document["items"].Size() == 2);

  ListOptions by_field;
  by_field.field_selector = std::string("metadata.name=page-7");
  const std::string fielded = MustOk(client->List(ConfigMaps(), by_field));
  CHECK(At(fielded, "/items/0/metadata/name") == "page-7");
  REQUIRE(ksched::api::ParseJson(fielded, document).ok());
  CHECK(document["items"].Size() == 1);
}

TEST_CASE("binding a pod to a node sets spec.nodeName; binding again is a Conflict", "[rest]") {
  // Both encodings of the Binding body: JSON and protobuf (clientConnection.contentType's default,
  // whose error Status also comes back as protobuf).
  const bool protobuf = GENERATE(false, true);
  const std::string suffix = protobuf ? "-pb" : "-json";
  auto client = Client();
  RestClientOptions options = RestClientOptions::FromConfig(ControlPlane::Get().AdminCertConfig());
  options.protobuf_writes = protobuf;
  auto transport = HttpTransport::Create(ControlPlane::Get().AdminCertConfig());
  REQUIRE(transport.ok());
  RestClient binder(std::shared_ptr<HttpTransport>(std::move(*transport)), options);
  REQUIRE(binder.WritesProtobuf() == protobuf);

  const absl::StatusOr<std::string> node = client->Create(
      ResourcePath().Resource("nodes").String(),
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"rest-fake-node"}})");
  REQUIRE((node.ok() || node.status().code() == absl::StatusCode::kAlreadyExists));
  const std::string pod = MustOk(client->Create(
      Pods(), R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"bind-me)" + suffix + R"("},)"
              R"("spec":{"schedulerName":"none","containers":[{"name":"c","image":"busybox"}]}})"));
  const std::string uid = At(pod, "/metadata/uid");
  REQUIRE_FALSE(uid.empty());

  const absl::Status bound = binder.CreateBinding(kNamespace, "bind-me" + suffix, uid, "rest-fake-node");
  INFO(bound.ToString());
  REQUIRE(bound.ok());
  CHECK(At(MustOk(client->Get(Pod("bind-me" + suffix))), "/spec/nodeName") == "rest-fake-node");

  const absl::Status again = binder.CreateBinding(kNamespace, "bind-me" + suffix, uid, "rest-fake-node");
  INFO(again.ToString());
  REQUIRE_FALSE(again.ok());
  CHECK(again.code() == absl::StatusCode::kAborted);
  CHECK(ksched::client::HttpStatusOf(again) == 409);
  // The Status body was decoded (protobuf or JSON): its reason and message, not raw bytes.
  CHECK(ksched::client::ReasonOf(again) == "Conflict");
  CHECK(std::string(again.message()).find("is already assigned to node \"rest-fake-node\"") != std::string::npos);

  // A wrong uid is refused too (the Binding's uid is a precondition).
  MustOk(client->Create(Pods(), R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"bind-uid)" + suffix +
                                    R"("},"spec":{"schedulerName":"none","containers":[{"name":"c","image":"busybox"}]}})"));
  const absl::Status wrong_uid = binder.CreateBinding(kNamespace, "bind-uid" + suffix,
                                                      "00000000-0000-0000-0000-000000000000", "rest-fake-node");
  INFO(wrong_uid.ToString());
  CHECK_FALSE(wrong_uid.ok());
  CHECK(ksched::client::HttpStatusOf(wrong_uid) == 409);
  CHECK(std::string(wrong_uid.message()).find("Precondition failed: UID in precondition") != std::string::npos);
}

TEST_CASE("patching pods/{name}/status with a PodScheduled condition", "[rest]") {
  auto client = Client();
  MustOk(client->Create(Pods(), R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"unschedulable"},)"
                                R"("spec":{"schedulerName":"none","containers":[{"name":"c","image":"busybox"}]}})"));
  const std::string status_path =
      ResourcePath().Namespace(kNamespace).Resource("pods").Name("unschedulable").SubResource("status").String();
  const std::string patched = MustOk(client->Patch(
      status_path, PatchType::kStrategic,
      R"({"status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable",)"
      R"("message":"0/1 nodes are available"}]}})"));
  CHECK(At(patched, "/status/conditions/0/type") == "PodScheduled");
  const std::string pod = MustOk(client->Get(Pod("unschedulable")));
  CHECK(At(pod, "/status/conditions/0/reason") == "Unschedulable");
  CHECK(At(pod, "/status/conditions/0/message") == "0/1 nodes are available");
}

TEST_CASE("a watch sees ADDED, MODIFIED and DELETED", "[rest][watch]") {
  auto client = Client();
  const std::string list = MustOk(client->List(ConfigMaps(), ListOptions{}));
  ListOptions options;
  options.resource_version = At(list, "/metadata/resourceVersion");
  options.field_selector = std::string("metadata.name=watched");
  options.timeout_seconds = 60;
  auto stream = client->Watch(ConfigMaps(), options);
  INFO(stream.status().ToString());
  REQUIRE(stream.ok());

  MustOk(client->Create(ConfigMaps(), ConfigMapJson("watched")));
  MustOk(client->Patch(ConfigMap("watched"), PatchType::kMerge, R"({"data":{"k":"v2"}})"));
  MustOk(client->Delete(ConfigMap("watched")));

  std::vector<std::string> types;
  while (types.size() < 3) {
    auto item = (*stream)->Next();
    REQUIRE(item.ok());
    REQUIRE(item->has_value());
    const std::string type = At((*item)->line, "/type");
    if (type == "BOOKMARK") continue;
    CHECK(At((*item)->line, "/object/metadata/name") == "watched");
    types.push_back(type);
  }
  CHECK(types == std::vector<std::string>{"ADDED", "MODIFIED", "DELETED"});
}

TEST_CASE("a watch that the server refuses returns its Status", "[rest][watch]") {
  auto client = Client();
  ListOptions options;
  options.field_selector = std::string("no.such.field=x");
  auto stream = client->Watch(ConfigMaps(), options);
  REQUIRE_FALSE(stream.ok());
  INFO(stream.status().ToString());
  CHECK(stream.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(ksched::client::HttpStatusOf(stream.status()) == 400);
}
