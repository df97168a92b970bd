// Reflector against a real etcd compaction: the watch it resumes from has been compacted away, the
// API server answers 410 Gone, and the reflector must relist and deliver the gap as deltas.
//
// Why this test runs its own control plane: with kube-apiserver's watch cache on (the default, and
// the shared control plane's setting) a watch from an old resourceVersion is served from the
// cache's in-memory event window and never reaches etcd, so an etcd compaction alone cannot cause
// a 410 (the window replays the gap instead). So the test starts a control plane of its own
// (tests/controlplane/start.sh), restarts its kube-apiserver with `--watch-cache-sizes=nodes#0`
// (watch cache off for nodes only; restart-apiserver.sh reuses the recorded command line), and
// stops it with stop.sh at the end. Node watches then go straight to etcd, and a watch from a
// compacted revision gets etcd's ErrCompacted, which kube-apiserver turns into an ERROR event
// {code 410, reason Expired, "The resourceVersion for the provided watch is too old."} (the watch
// cache's own 410 says "too old resource version: X (Y)" instead; the test requires the etcd one).
//
// Scenario (deterministic):
//   1. 30 nodes carrying a label unique to this test; a Node reflector (label-selected) syncs.
//   2. A network partition between the reflector and the API server, made by a Transport
//      decorator (GatedTransport): the open watch stream fails as a reset connection would, and
//      every new watch request is held before it reaches the server. The reflector backs off and
//      tries to rewatch from its last resourceVersion R; the test waits until that rewatch is held.
//   3. Through another client, changes the reflector cannot see: 10 creates, 10 deletes,
//      10 relabels (still selected), 5 unlabels (leave the selection), 5 create-then-delete.
//   4. etcd is compacted (physically) at its current revision C > R + 1 through etcd's v3 gRPC
//      gateway on 127.0.0.1 (POST /v3/kv/range for the revision, POST /v3/kv/compaction).
//   5. The partition heals: the held rewatch from R reaches etcd through kube-apiserver and gets
//      the 410 (seen on the wire by the decorator), the reflector relists.
// Checks: exactly one 410 (the etcd message), ReflectorStats.gone == 1 and relists == 1 (none
// before the heal), the store equals a fresh LIST (names and resourceVersions), and the handler
// received exactly the gap as deltas: 10 adds, 10 updates, 15 deletes (10 deleted + 5 unlabelled),
// nothing for the 5 transient nodes.
//
// A second case covers the boundary where the rewatch starts exactly at the compacted revision:
// kube-apiserver then answers with a 500 ERROR event (PrevKv=nil), not a 410, on every rewatch;
// the reflector must relist (see that case's comment).
#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unistd.h>
#include <vector>

#include "api/json_decode.h"
#include "client/http_transport.h"
#include "client/reflector.h"
#include "client/resource_path.h"
#include "client/rest_client.h"
#include "controlplane_env.h"
#include "rapidjson/document.h"

#ifndef KSCHED_SOURCE_DIR
#error "KSCHED_SOURCE_DIR must be defined (tests/integration/CMakeLists.txt)"
#endif

using ksched::api::Node;
using ksched::client::HttpMethod;
using ksched::client::HttpRequest;
using ksched::client::HttpResponse;
using ksched::client::HttpTransport;
using ksched::client::LineStream;
using ksched::client::ListOptions;
using ksched::client::PatchType;
using ksched::client::Reflector;
using ksched::client::ReflectorHandler;
using ksched::client::ReflectorOptions;
using ksched::client::ResourcePath;
using ksched::client::RestClient;
using ksched::client::RestClientOptions;
using ksched::client::RestConfig;
using ksched::client::StreamItem;
using ksched::client::Transport;
using ksched::testing::ControlPlane;
using ksched::testing::ReadFile;

namespace {

constexpr char kLabel[] = "etcd-compaction-test";
constexpr char kEtcdExpiredMessage[] = "The resourceVersion for the provided watch is too old.";
constexpr int kInitial = 30;

std::string NodeName(int i) { return "compaction-node-" + std::to_string(i); }
std::string NodePath(int i) { return ResourcePath().Resource("nodes").Name(NodeName(i)).String(); }
std::string NodeBody(int i) {
  return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + NodeName(i) + R"(","labels":{")" + kLabel +
         R"(":"yes"}}})";
}
std::set<std::string> Names(int from, int to) {
  std::set<std::string> out;
  for (int i = from; i < to; ++i) out.insert(NodeName(i));
  return out;
}
std::string Joined(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += " " + name;
  return out;
}

// stdout of a shell command; nullopt when it exited non-zero.
std::optional<std::string> Capture(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  if (::pclose(pipe) != 0) return std::nullopt;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string Script(const char* name) { return std::string("'") + KSCHED_SOURCE_DIR + "/tests/controlplane/" + name + "'"; }

// A control plane of this test's own (start.sh, owned by this process so that a crashed run is
// swept by the next start), stopped by stop.sh in the destructor.
class OwnControlPlane {
 public:
  OwnControlPlane() {
    std::string command = "bash " + Script("start.sh") + " --owner " + std::to_string(::getpid());
    // Reuse the shared run's binary directory when known (start.sh would otherwise ask build.sh).
    if (auto it = ControlPlane::Get().env.find("KSCHED_CP_BIN"); it != ControlPlane::Get().env.end()) {
      command = "KSCHED_CP_BIN='" + it->second + "' " + command;
    }
    std::optional<std::string> dir = Capture(command);
    if (!dir.has_value() || dir->empty()) throw std::runtime_error("start.sh failed: " + command);
    dir_ = *dir;
    std::ifstream in(dir_ + "/env");
    std::string line;
    while (std::getline(in, line)) {
      const auto eq = line.find('=');
      if (eq != std::string::npos) env_[line.substr(0, eq)] = line.substr(eq + 1);
    }
  }
  ~OwnControlPlane() {
    const std::string command = "bash " + Script("stop.sh") + " '" + dir_ + "'";
    if (std::system(command.c_str()) != 0) std::fprintf(stderr, "stop.sh %s failed\n", dir_.c_str());
  }
  OwnControlPlane(const OwnControlPlane&) = delete;
  OwnControlPlane& operator=(const OwnControlPlane&) = delete;

  // Restarts kube-apiserver with `flag` added to its recorded command line.
  bool RestartApiserverWith(const std::string& flag) {
    {
      std::ofstream args(dir_ + "/kube-apiserver.args", std::ios::app | std::ios::binary);
      args << flag << '\0';
      if (!args) return false;
    }
    const std::string command = "bash " + Script("restart-apiserver.sh") + " '" + dir_ + "'";
    return std::system(command.c_str()) == 0;
  }

  std::string operator[](const std::string& key) const {
    auto it = env_.find(key);
    if (it == env_.end()) throw std::runtime_error("own control-plane env has no " + key);
    return it->second;
  }
  const std::string& dir() const { return dir_; }

  RestConfig AdminConfig() const {
    const std::string pki = (*this)["PKI_DIR"];
    RestConfig config;
    config.server = (*this)["APISERVER_URL"];
    config.source = "etcd compaction test control plane (admin certificate)";
    config.tls.ca_pem = ReadFile(pki + "/ca.crt");
    config.tls.ca_source = pki + "/ca.crt";
    config.tls.client_cert_pem = ReadFile(pki + "/admin.crt");
    config.tls.client_key_pem = ReadFile(pki + "/admin.key");
    config.tls.client_cert_source = pki + "/admin.crt";
    config.qps = -1;
    return config;
  }

 private:
  std::string dir_;
  std::map<std::string, std::string> env_;
};

// A Transport decorator that can partition its user from the API server: Partition() fails every
// open line stream (as a reset connection would: kUnavailable) and holds every new OpenLineStream
// until Heal(). Unary calls pass through untouched. Watch ERROR events and non-2xx watch heads
// that pass through are recorded.
class GatedTransport final : public Transport {
 public:
  explicit GatedTransport(std::shared_ptr<Transport> inner) : inner_(std::move(inner)) {}

  void Send(HttpRequest request, Callback done) override { inner_->Send(std::move(request), std::move(done)); }
  void SendAfter(std::chrono::steady_clock::duration delay, HttpRequest request, Callback done) override {
    inner_->SendAfter(delay, std::move(request), std::move(done));
  }
  const std::string& server() const override { return inner_->server(); }

  absl::StatusOr<std::unique_ptr<LineStream>> OpenLineStream(HttpRequest request) override {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (partitioned_) {
        ++held_;
        cv_.notify_all();
        cv_.wait(lock, [this] { return !partitioned_; });
      }
    }
    absl::StatusOr<std::unique_ptr<LineStream>> stream = inner_->OpenLineStream(std::move(request));
    if (!stream.ok()) return stream;
    std::lock_guard<std::mutex> lock(mu_);
    ++opened_;
    if ((*stream)->status() < 200 || (*stream)->status() >= 300) http_errors_.push_back((*stream)->status());
    auto gated = std::make_unique<Stream>(this, std::move(*stream));
    open_.insert(gated.get());
    return std::unique_ptr<LineStream>(std::move(gated));
  }

  void Partition() {
    std::lock_guard<std::mutex> lock(mu_);
    partitioned_ = true;
    for (Stream* stream : open_) stream->Cut();
  }
  void Heal() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      partitioned_ = false;
    }
    cv_.notify_all();
  }
  // Waits until `n` OpenLineStream calls have been held by the partition.
  bool WaitHeld(int n, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, timeout, [&] { return held_ >= n; });
  }

  struct ErrorEvent {
    int code;
    std::string reason, message;
  };
  std::vector<ErrorEvent> error_events() const {
    std::lock_guard<std::mutex> lock(mu_);
    return error_events_;
  }
  std::vector<int> http_errors() const {
    std::lock_guard<std::mutex> lock(mu_);
    return http_errors_;
  }
  int held() const {
    std::lock_guard<std::mutex> lock(mu_);
    return held_;
  }
  int opened() const {
    std::lock_guard<std::mutex> lock(mu_);
    return opened_;
  }

 private:
  class Stream final : public LineStream {
   public:
    Stream(GatedTransport* owner, std::unique_ptr<LineStream> inner) : owner_(owner), inner_(std::move(inner)) {}
    ~Stream() override {
      std::lock_guard<std::mutex> lock(owner_->mu_);
      owner_->open_.erase(this);
    }
    int status() const override { return inner_->status(); }
    absl::StatusOr<std::optional<StreamItem>> Next() override {
      if (cut_) return absl::UnavailableError("test partition: connection reset");
      absl::StatusOr<std::optional<StreamItem>> item = inner_->Next();
      if (cut_) return absl::UnavailableError("test partition: connection reset");
      if (item.ok() && item->has_value() && (*item)->line.find(R"("type":"ERROR")") != std::string::npos) {
        absl::StatusOr<ksched::api::WatchEvent<Node>> event = ksched::api::DecodeWatchEvent<Node>((*item)->line);
        std::lock_guard<std::mutex> lock(owner_->mu_);
        if (event.ok()) {
          owner_->error_events_.push_back({event->error.code, event->error.reason, event->error.message});
        } else {
          owner_->error_events_.push_back({0, "undecodable", (*item)->line});
        }
      }
      return item;
    }
    absl::StatusOr<std::string> ReadAll() override { return inner_->ReadAll(); }
    void Cancel() override { inner_->Cancel(); }
    // Called with owner_->mu_ held.
    void Cut() {
      cut_ = true;
      inner_->Cancel();
    }

   private:
    GatedTransport* owner_;
    std::unique_ptr<LineStream> inner_;
    std::atomic<bool> cut_{false};
  };

  std::shared_ptr<Transport> inner_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool partitioned_ = false;
  int held_ = 0;
  int opened_ = 0;
  std::set<Stream*> open_;
  std::vector<ErrorEvent> error_events_;
  std::vector<int> http_errors_;
};

// Heals the partition on every way out of the test, so that Reflector::Stop never waits for a
// held watch.
struct HealOnExit {
  GatedTransport& gate;
  ~HealOnExit() { gate.Heal(); }
};

class Recorder : public ReflectorHandler<Node> {
 public:
  void OnAdd(const Node& node) override { Record([&] { added.insert(node.metadata.name); }); }
  void OnUpdate(const Node&, const Node& now) override { Record([&] { updated.insert(now.metadata.name); }); }
  void OnDelete(const Node& last) override { Record([&] { deleted.insert(last.metadata.name); }); }

  void Clear() {
    std::lock_guard<std::mutex> lock(mu);
    added.clear();
    updated.clear();
    deleted.clear();
    calls = 0;
  }
  template <typename Pred>
  bool WaitUntil(Pred pred, std::chrono::seconds timeout) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, timeout, pred);
  }

  std::mutex mu;
  std::condition_variable cv;
  std::set<std::string> added, updated, deleted;
  int calls = 0;

 private:
  template <typename F>
  void Record(F f) {
    {
      std::lock_guard<std::mutex> lock(mu);
      f();
      ++calls;
    }
    cv.notify_all();
  }
};

std::shared_ptr<HttpTransport> MakeTransport(const RestConfig& config) {
  auto transport = HttpTransport::Create(config);
  if (!transport.ok()) throw std::runtime_error(transport.status().ToString());
  return std::shared_ptr<HttpTransport>(std::move(*transport));
}

// POST {etcd}/v3/... with a JSON body through the project's transport (plain HTTP on loopback).
rapidjson::Document EtcdPost(HttpTransport& etcd, const std::string& path, const std::string& body) {
  HttpRequest request;
  request.method = HttpMethod::kPost;
  request.target = path;
  request.body = body;
  request.content_type = "application/json";
  absl::StatusOr<HttpResponse> response = etcd.SendSync(request);
  INFO("POST " << path << " " << body << ": " << response.status().ToString());
  REQUIRE(response.ok());
  INFO("HTTP " << response->status << ": " << response->body);
  REQUIRE(response->status == 200);
  rapidjson::Document document;
  REQUIRE(ksched::api::ParseJson(response->body, document).ok());
  return document;
}

std::int64_t EtcdRevision(HttpTransport& etcd) {
  rapidjson::Document range = EtcdPost(etcd, "/v3/kv/range", R"({"key":"AA=="})");
  REQUIRE(range.HasMember("header"));
  const rapidjson::Value& header = range["header"];
  REQUIRE((header.HasMember("revision") && header["revision"].IsString()));
  return std::stoll(header["revision"].GetString());
}

std::optional<std::map<std::string, std::string>> ListNow(RestClient& client, const std::string& label) {
  ListOptions options;
  options.label_selector = label + "=yes";
  auto body = client.List(ResourcePath().Resource("nodes").String(), options);
  if (!body.ok()) return std::nullopt;
  auto list = ksched::api::DecodeList<Node>(*body);
  if (!list.ok()) return std::nullopt;
  std::map<std::string, std::string> out;
  for (const Node& node : list->items) out[node.metadata.name] = node.metadata.resource_version;
  return out;
}

std::map<std::string, std::string> StoreNow(const Reflector<Node>& reflector) {
  std::map<std::string, std::string> out;
  for (const Node& node : reflector.List()) out[node.metadata.name] = node.metadata.resource_version;
  return out;
}

// The control plane of this file's cases, started on first use with the nodes watch cache off,
// stopped at exit (or swept by the next start.sh if this process dies).
OwnControlPlane& Cp() {
  static OwnControlPlane cp;
  static const bool restarted = [] {
    const auto t0 = std::chrono::steady_clock::now();
    // Watch cache off for nodes: node watches are served by etcd itself (see the file comment).
    const bool ok = cp.RestartApiserverWith("--watch-cache-sizes=nodes#0");
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "[etcd_compaction_test] own control plane %s, kube-apiserver restarted with "
                 "--watch-cache-sizes=nodes#0 in %.1f s\n", cp.dir().c_str(), s);
    return ok;
  }();
  if (!restarted) throw std::runtime_error("restart-apiserver.sh with --watch-cache-sizes=nodes#0 failed");
  return cp;
}

std::shared_ptr<HttpTransport> EtcdTransport(OwnControlPlane& cp) {
  const std::string etcd_url = cp["ETCD_URL"];
  INFO("etcd " << etcd_url);
  REQUIRE(etcd_url.starts_with("http://127.0.0.1:"));  // the gateway is reached on loopback only
  RestConfig etcd_config;
  etcd_config.server = etcd_url;
  etcd_config.source = "etcd v3 gateway of the compaction test";
  return MakeTransport(etcd_config);
}

// Waits until `pred` holds, polling; false after `timeout`.
template <typename Pred>
bool Eventually(Pred pred, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Compares the reflector's store with fresh LISTs until they are equal (or `timeout`), reporting
// the difference through CHECK.
void CheckConvergesToList(RestClient& client, const Reflector<Node>& reflector, const std::string& label,
                          std::size_t want_size, std::chrono::seconds timeout) {
  std::optional<std::map<std::string, std::string>> want;
  std::map<std::string, std::string> got;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool converged = false;
  while (std::chrono::steady_clock::now() < deadline) {
    want = ListNow(client, label);
    got = StoreNow(reflector);
    if (want.has_value() && *want == got) {
      converged = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  REQUIRE(want.has_value());
  std::string phantom, missing, stale;
  for (const auto& [name, node_rv] : got) {
    if (!want->contains(name)) phantom += " " + name;
    else if (want->at(name) != node_rv) stale += " " + name + "(" + node_rv + "!=" + want->at(name) + ")";
  }
  for (const auto& [name, node_rv] : *want) {
    if (!got.contains(name)) missing += " " + name;
  }
  INFO("phantom:" << phantom << "\nmissing:" << missing << "\nstale:" << stale);
  CHECK(converged);
  CHECK(want->size() == want_size);
}

}  // namespace

TEST_CASE("an etcd compaction in a watch gap: the rewatch gets 410 from etcd and the reflector relists the gap",
          "[compaction]") {
  OwnControlPlane& cp = Cp();
  INFO("own control plane " << cp.dir());
  auto etcd = EtcdTransport(cp);
  const RestConfig admin = cp.AdminConfig();
  // The writer: its own transport, outside the partition.
  auto writer = std::make_shared<RestClient>(MakeTransport(admin), RestClientOptions::FromConfig(admin));
  const std::string nodes = ResourcePath().Resource("nodes").String();
  for (int i = 0; i < kInitial; ++i) {
    auto created = writer->Create(nodes, NodeBody(i));
    INFO(created.status().ToString());
    REQUIRE(created.ok());
  }

  auto gate = std::make_shared<GatedTransport>(MakeTransport(admin));
  auto reader = std::make_shared<RestClient>(gate, RestClientOptions::FromConfig(admin));
  auto recorder = std::make_shared<Recorder>();
  ReflectorOptions options;
  options.path = nodes;
  options.label_selector = std::string(kLabel) + "=yes";
  options.backoff_initial = std::chrono::milliseconds(100);
  options.backoff_cap = std::chrono::milliseconds(1'000);
  Reflector<Node> reflector(reader, options, recorder);
  HealOnExit heal{*gate};  // declared after the reflector: heals before the reflector is stopped
  reflector.Start();
  REQUIRE(reflector.WaitForSync(std::chrono::milliseconds(60'000)));
  REQUIRE(reflector.size() == static_cast<std::size_t>(kInitial));
  // The watch is open (the reflector opens it right after the list).
  REQUIRE(Eventually([&] { return gate->opened() >= 1; }, std::chrono::milliseconds(30'000)));

  // --- partition: the open watch fails, the rewatch from the last resourceVersion is held ---
  gate->Partition();
  REQUIRE(gate->WaitHeld(1, std::chrono::milliseconds(30'000)));
  const std::string rv_string = reflector.last_resource_version();
  const std::int64_t rv = std::stoll(rv_string);
  REQUIRE(reflector.stats().relists == 0);
  recorder->Clear();

  // --- the gap: changes the reflector cannot see ---
  for (int i = kInitial; i < kInitial + 10; ++i) {  // 30..39 created
    auto created = writer->Create(nodes, NodeBody(i));
    INFO(created.status().ToString());
    REQUIRE(created.ok());
  }
  for (int i = 0; i < 10; ++i) {  // 0..9 deleted
    auto deleted = writer->Delete(NodePath(i));
    INFO(deleted.status().ToString());
    REQUIRE(deleted.ok());
  }
  for (int i = 10; i < 20; ++i) {  // 10..19 relabelled, still selected
    auto patched = writer->Patch(NodePath(i), PatchType::kMerge, R"({"metadata":{"labels":{"relabelled":"yes"}}})");
    INFO(patched.status().ToString());
    REQUIRE(patched.ok());
  }
  for (int i = 20; i < 25; ++i) {  // 20..24 lose the selected label
    auto patched = writer->Patch(NodePath(i), PatchType::kMerge,
                                 std::string(R"({"metadata":{"labels":{")") + kLabel + R"(":null}}})");
    INFO(patched.status().ToString());
    REQUIRE(patched.ok());
  }
  for (int i = 40; i < 45; ++i) {  // 40..44 live only inside the gap
    auto created = writer->Create(nodes, NodeBody(i));
    INFO(created.status().ToString());
    REQUIRE(created.ok());
    auto deleted = writer->Delete(NodePath(i));
    INFO(deleted.status().ToString());
    REQUIRE(deleted.ok());
  }

  // --- compaction of etcd at its current revision, beyond the reflector's resourceVersion ---
  const std::int64_t revision = EtcdRevision(*etcd);
  INFO("reflector resourceVersion " << rv << ", etcd revision " << revision);
  // A watch from rv starts at rv + 1, which must be below the compacted revision (at rv + 1 itself
  // etcd would still serve the watch).
  REQUIRE(revision > rv + 1);
  (void)EtcdPost(*etcd, "/v3/kv/compaction", R"({"revision":")" + std::to_string(revision) + R"(","physical":true})");
  // The compaction really happened: a range read at the reflector's revision is refused.
  {
    HttpRequest request;
    request.method = HttpMethod::kPost;
    request.target = "/v3/kv/range";
    request.body = R"({"key":"AA==","revision":")" + std::to_string(rv) + "\"}";
    request.content_type = "application/json";
    absl::StatusOr<HttpResponse> old_read = etcd->SendSync(request);
    REQUIRE(old_read.ok());
    INFO("range at the reflector's revision after compaction: HTTP " << old_read->status << " " << old_read->body);
    CHECK(old_read->status != 200);
    CHECK(old_read->body.find("compacted") != std::string::npos);
  }
  CHECK(reflector.stats().relists == 0);
  CHECK(reflector.last_resource_version() == rv_string);  // nothing leaked through the partition

  // --- heal: the held rewatch from rv meets the compaction ---
  const auto heal_time = std::chrono::steady_clock::now();
  gate->Heal();

  const std::set<std::string> want_added = Names(kInitial, kInitial + 10);
  const std::set<std::string> want_updated = Names(10, 20);
  std::set<std::string> want_deleted = Names(0, 10);
  for (const std::string& name : Names(20, 25)) want_deleted.insert(name);
  const bool delivered = recorder->WaitUntil(
      [&] {
        return recorder->added.size() >= want_added.size() && recorder->updated.size() >= want_updated.size() &&
               recorder->deleted.size() >= want_deleted.size();
      },
      std::chrono::seconds(60));
  const double recovery_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - heal_time).count();

  // The store equals a fresh LIST: same names, same resourceVersions.
  CheckConvergesToList(*writer, reflector, kLabel, kInitial + 10 - 10 - 5, std::chrono::seconds(30));

  // The 410 happened, came from etcd's compaction, and made the reflector relist exactly once.
  const auto errors = gate->error_events();
  const auto http_errors = gate->http_errors();
  const auto stats = reflector.stats();
  std::string error_text;
  for (const auto& e : errors) error_text += "\n  ERROR " + std::to_string(e.code) + " " + e.reason + ": " + e.message;
  for (int code : http_errors) error_text += "\n  HTTP " + std::to_string(code);
  INFO("errors seen on the watch:" << error_text);
  INFO("stats: gone=" << stats.gone << " relists=" << stats.relists << " rewatches=" << stats.rewatches
                      << " events=" << stats.events);
  REQUIRE(errors.size() + http_errors.size() >= 1);  // no 410, no test
  REQUIRE(errors.size() == 1);
  CHECK(http_errors.empty());
  CHECK(errors[0].code == 410);
  CHECK(errors[0].reason == "Expired");
  CHECK(errors[0].message == kEtcdExpiredMessage);
  CHECK(stats.gone == 1);
  CHECK(stats.relists == 1);
  CHECK(stats.decode_errors == 0);

  // The gap was delivered as deltas, exactly.
  REQUIRE(delivered);
  {
    std::lock_guard<std::mutex> lock(recorder->mu);
    INFO("added:" << Joined(recorder->added) << "\nupdated:" << Joined(recorder->updated)
                  << "\ndeleted:" << Joined(recorder->deleted));
    CHECK(recorder->added == want_added);
    CHECK(recorder->updated == want_updated);
    CHECK(recorder->deleted == want_deleted);
    CHECK(recorder->calls == 35);  // nothing twice, nothing for the transient nodes 40..44
  }
  for (int i = 10; i < 20; ++i) {
    auto node = reflector.Get(NodeName(i));
    REQUIRE(node.has_value());
    CHECK(node->metadata.labels.Get("relabelled") == std::optional<std::string_view>("yes"));
  }

  WARN("etcd compaction: reflector at resourceVersion " << rv << ", etcd compacted at revision " << revision
                                                        << "; rewatch got ERROR " << errors[0].code << " "
                                                        << errors[0].reason << " \"" << errors[0].message
                                                        << "\"; gone=" << stats.gone << " relists=" << stats.relists
                                                        << "; gap delivered as 10 adds, 10 updates, 15 deletes, "
                                                        << recovery_s << " s after the heal");
  reflector.Stop();
  for (int i = 0; i < kInitial + 10; ++i) (void)writer->Delete(NodePath(i));
}

// The boundary case: the reflector's rewatch starts exactly at the compacted revision C (its
// resourceVersion is C - 1), and the event at C is a node deletion. etcd still serves the watch
// (only revisions below C are gone) but the deleted key's previous value was compacted away, so
// kube-apiserver answers the watch with an ERROR event that is not a 410: code 500 InternalError
// "etcd event received with PrevKv=nil ...", and it answers every rewatch from that resourceVersion
// the same way. A reflector that only backs off and rewatches from the same resourceVersion on a
// non-410 ERROR never recovers; client-go's reflector relists after any watch ERROR event (save
// 429 and, when configured, internal errors for a bounded time). Recovery means the store equals a
// fresh LIST again and the deletion was delivered.
TEST_CASE("a rewatch starting exactly at the compacted revision gets a non-410 ERROR; the reflector relists",
          "[compaction]") {
  OwnControlPlane& cp = Cp();
  INFO("own control plane " << cp.dir());
  auto etcd = EtcdTransport(cp);
  const RestConfig admin = cp.AdminConfig();
  auto writer = std::make_shared<RestClient>(MakeTransport(admin), RestClientOptions::FromConfig(admin));
  const std::string nodes = ResourcePath().Resource("nodes").String();
  constexpr char kEdgeLabel[] = "etcd-compaction-edge-test";
  auto name = [](int i) { return "compaction-edge-node-" + std::to_string(i); };
  auto path = [&](int i) { return ResourcePath().Resource("nodes").Name(name(i)).String(); };
  constexpr int kNodes = 12;  // node 0 is patched each round, nodes 1.. are deleted, one a round
  for (int i = 0; i < kNodes; ++i) {
    auto created = writer->Create(nodes, R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name(i) +
                                             R"(","labels":{")" + kEdgeLabel + R"(":"yes"}}})");
    INFO(created.status().ToString());
    REQUIRE(created.ok());
  }

  auto gate = std::make_shared<GatedTransport>(MakeTransport(admin));
  auto reader = std::make_shared<RestClient>(gate, RestClientOptions::FromConfig(admin));
  auto recorder = std::make_shared<Recorder>();
  ReflectorOptions options;
  options.path = nodes;
  options.label_selector = std::string(kEdgeLabel) + "=yes";
  options.backoff_initial = std::chrono::milliseconds(100);
  options.backoff_cap = std::chrono::milliseconds(1'000);
  Reflector<Node> reflector(reader, options, recorder);
  HealOnExit heal{*gate};
  reflector.Start();
  REQUIRE(reflector.WaitForSync(std::chrono::milliseconds(60'000)));
  REQUIRE(Eventually([&] { return gate->opened() >= 1; }, std::chrono::milliseconds(30'000)));

  // One round: patch node 0 (revision M), wait until the reflector has seen M, partition, delete
  // node `victim` (revision D). The boundary needs D == M + 1 with nothing written after it yet:
  // another etcd write in between or right after (the apiserver's lease, every 10 s) spoils the
  // round, which is then undone (heal, catch up) and retried with the next victim.
  std::int64_t m = 0, d = 0;
  int victim = 0;
  for (int round = 1; round < kNodes && d == 0; ++round) {
    auto patched = writer->Patch(path(0), PatchType::kMerge,
                                 R"({"metadata":{"labels":{"round":")" + std::to_string(round) + R"("}}})");
    INFO(patched.status().ToString());
    REQUIRE(patched.ok());
    auto patched_node = ksched::api::DecodeNode(*patched);
    REQUIRE(patched_node.ok());
    const std::int64_t patched_at = std::stoll(patched_node->metadata.resource_version);
    REQUIRE(Eventually([&] { return std::stoll(reflector.last_resource_version()) >= patched_at; },
                       std::chrono::milliseconds(30'000)));
    const int held_before = gate->held();
    gate->Partition();
    auto deleted = writer->Delete(path(round));
    INFO(deleted.status().ToString());
    REQUIRE(deleted.ok());
    // A node DELETE answers with a Status, not the object: etcd's revision right after it tells
    // whether the deletion was the very next write after what the reflector saw (then it is M + 1).
    const std::int64_t d_round = EtcdRevision(*etcd);
    // Once the rewatch is held, the reflector's resourceVersion M can no longer move.
    REQUIRE(gate->WaitHeld(held_before + 1, std::chrono::milliseconds(30'000)));
    const std::int64_t m_round = std::stoll(reflector.last_resource_version());
    if (d_round == m_round + 1) {
      m = m_round;
      d = d_round;
      victim = round;
      break;
    }
    std::fprintf(stderr, "[etcd_compaction_test] round %d spoilt: reflector at %lld, etcd revision after the delete %lld\n",
                 round, static_cast<long long>(m_round), static_cast<long long>(d_round));
    gate->Heal();
    REQUIRE(Eventually([&] { return !reflector.Get(name(round)).has_value(); }, std::chrono::milliseconds(30'000)));
  }
  REQUIRE(d != 0);
  REQUIRE(reflector.last_resource_version() == std::to_string(m));
  const auto before = reflector.stats();
  recorder->Clear();

  // Compact exactly at D: the rewatch from M starts at D, which etcd still serves.
  (void)EtcdPost(*etcd, "/v3/kv/compaction", R"({"revision":")" + std::to_string(d) + R"(","physical":true})");
  const auto heal_time = std::chrono::steady_clock::now();
  gate->Heal();

  const bool delivered = recorder->WaitUntil([&] { return recorder->deleted.contains(name(victim)); },
                                             std::chrono::seconds(20));
  const double recovery_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - heal_time).count();
  const auto errors = gate->error_events();
  const auto stats = reflector.stats();
  std::string error_text;
  for (const auto& e : errors) error_text += "\n  ERROR " + std::to_string(e.code) + " " + e.reason + ": " + e.message;
  INFO("patch at " << m << ", delete of " << name(victim) << " at " << d << ", compacted at " << d);
  INFO("errors seen on the watch (" << errors.size() << "):" << error_text);
  INFO("stats: gone=" << stats.gone << " relists=" << stats.relists - before.relists
                      << " rewatches=" << stats.rewatches - before.rewatches);
  // The boundary really was hit: the first ERROR is the non-410 one.
  REQUIRE(!errors.empty());
  CHECK(errors[0].code == 500);
  CHECK(errors[0].message.find("PrevKv=nil") != std::string::npos);
  CHECK(delivered);
  CheckConvergesToList(*writer, reflector, kEdgeLabel, kNodes - victim, std::chrono::seconds(10));
  CHECK(stats.relists - before.relists >= 1);
  WARN("compaction boundary: rewatch from " << m << " into compacted revision " << d << " got ERROR "
                                            << errors[0].code << " \"" << errors[0].message.substr(0, 80)
                                            << "...\" " << errors.size() << " time(s); relists "
                                            << stats.relists - before.relists << ", deletion delivered "
                                            << recovery_s << " s after the heal");
  reflector.Stop();
  for (int i = 0; i < kNodes; ++i) (void)writer->Delete(path(i));
}
