// ListQuery, DeleteOptionsJson, PatchContentType, BindingJson, ResourcePath and the escapes.
#include "client/request_options.h"

#include <catch2/catch.hpp>

#include "client/resource_path.h"

using ksched::client::BindingJson;
using ksched::client::BindingProtobuf;
using ksched::client::DeleteOptions;
using ksched::client::DeleteOptionsJson;
using ksched::client::ListOptions;
using ksched::client::ListQuery;
using ksched::client::PatchContentType;
using ksched::client::PatchType;
using ksched::client::PathEscape;
using ksched::client::QueryEscape;
using ksched::client::ResourcePath;

TEST_CASE("ListQuery: key order, escaping, watch parameters", "[request]") {
  CHECK(ListQuery({}) == "");
  ListOptions options;
  options.label_selector = "a=b,c notin (x y)";
  options.field_selector = "spec.nodeName!=,status.phase=Pending";
  options.limit = 500;
  options.continue_token = "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ==";
  options.resource_version = "12345";
  options.resource_version_match = "NotOlderThan";
  options.timeout_seconds = 300;
  CHECK(ListQuery(options) ==
        "?continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ%3D%3D"
        "&fieldSelector=spec.nodeName%21%3D%2Cstatus.phase%3DPending"
        "&labelSelector=a%3Db%2Cc+notin+%28x+y%29&limit=500&resourceVersion=12345"
        "&resourceVersionMatch=NotOlderThan&timeoutSeconds=300");
  ListOptions watch;
  watch.resource_version = "7";
  CHECK(ListQuery(watch, true) == "?allowWatchBookmarks=true&resourceVersion=7&watch=1");
}

TEST_CASE("escapes follow Go's url.QueryEscape and url.PathEscape", "[request]") {
  CHECK(QueryEscape("a b/c?d&e=f~g.h_i-j") == "a+b%2Fc%3Fd%26e%3Df~g.h_i-j");
  CHECK(QueryEscape("\xc3\xa9") == "%C3%A9");
  CHECK(PathEscape("a b/c?d:e@f") == "a%20b%2Fc%3Fd:e@f");
}

TEST_CASE("DeleteOptionsJson", "[request]") {
  CHECK(DeleteOptionsJson({}) == "");
  const DeleteOptions options{.grace_period_seconds = 0,
                              .precondition_uid = "u",
                              .precondition_resource_version = "9",
                              .propagation_policy = "Background"};
  CHECK(DeleteOptionsJson(options) ==
        R"({"apiVersion":"v1","kind":"DeleteOptions","gracePeriodSeconds":0,)"
        R"("preconditions":{"uid":"u","resourceVersion":"9"},"propagationPolicy":"Background"})");
}

TEST_CASE("PatchContentType", "[request]") {
  CHECK(PatchContentType(PatchType::kMerge) == "application/merge-patch+json");
  CHECK(PatchContentType(PatchType::kStrategic) == "application/strategic-merge-patch+json");
  CHECK(PatchContentType(PatchType::kJson) == "application/json-patch+json");
}

TEST_CASE("BindingJson: exact text, JSON escaping, uid optional", "[request]") {
  CHECK(BindingJson("kube-system", "coredns-1", "0b6c-11", "node-a") ==
        R"({"apiVersion":"v1","kind":"Binding","metadata":{"name":"coredns-1","namespace":"kube-system",)"
        R"("uid":"0b6c-11"},"target":{"kind":"Node","name":"node-a"}})");
  CHECK(BindingJson("ns", "p\"q", "", "n") ==
        R"({"apiVersion":"v1","kind":"Binding","metadata":{"name":"p\"q","namespace":"ns"},)"
        R"("target":{"kind":"Node","name":"n"}})");
}

TEST_CASE("BindingProtobuf: exact bytes, uid optional", "[request]") {
  auto bytes = [](std::initializer_list<int> values) {
    std::string out;
    for (const int v : values) out.push_back(static_cast<char>(v));
    return out;
  };
  // Binding{metadata(1){name(1) "p", namespace(3) "ns", uid(5) "u"}, target(2){kind(1) "Node",
  // name(3) "n"}} in the envelope k8s\0 + Unknown{typeMeta(1){"v1", "Binding"}, raw(2)}.
  const std::string metadata = bytes({0x0a, 0x01}) + "p" + bytes({0x1a, 0x02}) + "ns" + bytes({0x2a, 0x01}) + "u";
  const std::string target = bytes({0x0a, 0x04}) + "Node" + bytes({0x1a, 0x01}) + "n";
  const std::string raw = bytes({0x0a, 0x0a}) + metadata + bytes({0x12, 0x09}) + target;
  const std::string envelope = std::string("k8s\0", 4) + bytes({0x0a, 0x0d, 0x0a, 0x02}) + "v1" +
                               bytes({0x12, 0x07}) + "Binding" + bytes({0x12, 0x17}) + raw;
  CHECK(BindingProtobuf("ns", "p", "u", "n") == envelope);

  const std::string no_uid = BindingProtobuf("ns", "p", "", "n");
  CHECK(no_uid.size() == envelope.size() - 3);
  CHECK(no_uid.find(bytes({0x2a})) == std::string::npos);
}

TEST_CASE("ResourcePath", "[request]") {
  CHECK(ResourcePath().Namespace("default").Resource("pods").Name("p").SubResource("binding").String() ==
        "/api/v1/namespaces/default/pods/p/binding");
  CHECK(ResourcePath().Resource("nodes").String() == "/api/v1/nodes");
  CHECK(ResourcePath().Resource("nodes").Name("n1").String() == "/api/v1/nodes/n1");
  CHECK(ResourcePath("coordination.k8s.io", "v1").Namespace("kube-system").Resource("leases")
            .Name("kube-scheduler").String() ==
        "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler");
  CHECK(ResourcePath("storage.k8s.io", "v1").Resource("csinodes").String() == "/apis/storage.k8s.io/v1/csinodes");
  CHECK(ResourcePath().Namespace("a/b").Resource("pods").Name("../x").String() ==
        "/api/v1/namespaces/a%2Fb/pods/..%2Fx");
  // A subresource needs a name.
  CHECK(ResourcePath().Resource("pods").SubResource("status").String() == "/api/v1/pods");
}
