// Reflector against a scripted transport serving list pages (Send) and watch streams
// (OpenLineStream): list+watch order, pagination and expired continue tokens, bookmarks advancing
// the resourceVersion, ERROR 410 -> relist with synthesized deltas, other ERROR events -> back off
// and relist (429: back off and rewatch), skipped lines, rewatch after a transport failure, Stop()
// while a watch blocks; namespaced kinds (pods, PodDisruptionBudgets) keyed by namespace/name.
#include "client/reflector.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <string>
#include <thread>
#include <vector>

#include "client/informer_observer.h"
#include "client/rest_client.h"
#include "client/transport.h"

namespace {

using ksched::api::Node;
using ksched::api::Pod;
using ksched::api::PodDisruptionBudget;
using ksched::client::HttpRequest;
using ksched::client::HttpResponse;
using ksched::client::LineStream;
using ksched::client::Reflector;
using ksched::client::ReflectorHandler;
using ksched::client::ReflectorOptions;
using ksched::client::RestClient;
using ksched::client::RestClientOptions;
using ksched::client::StreamItem;
using ksched::client::Transport;
using std::chrono::milliseconds;

// A watch stream: its items, then a clean end, a failure, or (kBlock) waiting for Cancel().
struct ScriptedStream {
  enum class End { kClean, kFail, kBlock };
  int status = 200;
  std::vector<StreamItem> items;
  End end = End::kBlock;
  std::string body;  // for non-2xx
};

class FakeLineStream : public LineStream {
 public:
  explicit FakeLineStream(ScriptedStream script) : script_(std::move(script)) {}
  int status() const override { return script_.status; }
  absl::StatusOr<std::optional<StreamItem>> Next() override {
    std::unique_lock<std::mutex> lock(mu_);
    if (cancelled_) return absl::CancelledError("cancelled");
    if (next_ < script_.items.size()) return std::optional<StreamItem>(script_.items[next_++]);
    switch (script_.end) {
      case ScriptedStream::End::kClean:
        return std::optional<StreamItem>();
      case ScriptedStream::End::kFail:
        return absl::UnavailableError("connection reset");
      case ScriptedStream::End::kBlock:
        break;
    }
    cv_.wait(lock, [this] { return cancelled_; });
    return absl::CancelledError("cancelled");
  }
  absl::StatusOr<std::string> ReadAll() override { return script_.body; }
  void Cancel() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      cancelled_ = true;
    }
    cv_.notify_all();
  }

 private:
  ScriptedStream script_;
  std::size_t next_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  bool cancelled_ = false;
};

class StreamFake : public Transport {
 public:
  StreamFake& ListResponse(int status, std::string body) {
    std::lock_guard<std::mutex> lock(mu_);
    HttpResponse response;
    response.status = status;
    response.body = std::move(body);
    lists_.push_back(std::move(response));
    return *this;
  }
  StreamFake& WatchStream(ScriptedStream stream) {
    std::lock_guard<std::mutex> lock(mu_);
    watches_.push_back(std::move(stream));
    return *this;
  }

  void Send(HttpRequest request, Callback done) override { SendAfter({}, std::move(request), std::move(done)); }
  void SendAfter(std::chrono::steady_clock::duration, HttpRequest request, Callback done) override {
    absl::StatusOr<HttpResponse> result = absl::InternalError("unscripted list");
    {
      std::lock_guard<std::mutex> lock(mu_);
      list_targets_.push_back(request.target);
      list_times_.push_back(std::chrono::steady_clock::now());
      if (!lists_.empty()) {
        result = std::move(lists_.front());
        lists_.pop_front();
      }
    }
    done(std::move(result));
  }
  // An unscripted watch blocks until cancelled.
  absl::StatusOr<std::unique_ptr<LineStream>> OpenLineStream(HttpRequest request) override {
    ScriptedStream script;
    {
      std::lock_guard<std::mutex> lock(mu_);
      watch_targets_.push_back(request.target);
      watch_times_.push_back(std::chrono::steady_clock::now());
      if (!watches_.empty()) {
        script = std::move(watches_.front());
        watches_.pop_front();
      }
    }
    return std::unique_ptr<LineStream>(std::make_unique<FakeLineStream>(std::move(script)));
  }
  const std::string& server() const override { return server_; }

  std::vector<std::string> list_targets() const {
    std::lock_guard<std::mutex> lock(mu_);
    return list_targets_;
  }
  std::vector<std::string> watch_targets() const {
    std::lock_guard<std::mutex> lock(mu_);
    return watch_targets_;
  }
  // When each list page was requested / each watch opened.
  std::vector<std::chrono::steady_clock::time_point> list_times() const {
    std::lock_guard<std::mutex> lock(mu_);
    return list_times_;
  }
  std::vector<std::chrono::steady_clock::time_point> watch_times() const {
    std::lock_guard<std::mutex> lock(mu_);
    return watch_times_;
  }

 private:
  const std::string server_ = "https://fake:6443";
  mutable std::mutex mu_;
  std::deque<HttpResponse> lists_;
  std::deque<ScriptedStream> watches_;
  std::vector<std::string> list_targets_;
  std::vector<std::string> watch_targets_;
  std::vector<std::chrono::steady_clock::time_point> list_times_;
  std::vector<std::chrono::steady_clock::time_point> watch_times_;
};

// Records deltas as "add a rv", "update a rv->rv", "delete a rv".
template <typename T>
class Recorder : public ReflectorHandler<T> {
 public:
  void OnAdd(const T& object) override { Push("add " + Name(object) + " " + object.metadata.resource_version); }
  void OnUpdate(const T& old, const T& now) override {
    Push("update " + Name(now) + " " + old.metadata.resource_version + "->" + now.metadata.resource_version);
  }
  void OnDelete(const T& last) override { Push("delete " + Name(last) + " " + last.metadata.resource_version); }

  // Waits for at least n deltas (up to 5 s) and returns them all.
  std::vector<std::string> WaitFor(std::size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(5), [&] { return deltas_.size() >= n; });
    return deltas_;
  }

 private:
  static std::string Name(const T& object) {
    return object.metadata.namespace_.empty() ? object.metadata.name
                                              : object.metadata.namespace_ + "/" + object.metadata.name;
  }
  void Push(std::string delta) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      deltas_.push_back(std::move(delta));
    }
    cv_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> deltas_;
};

std::string NodeJson(const std::string& name, const std::string& rv) {
  return R"({"metadata":{"name":")" + name + R"(","resourceVersion":")" + rv + R"("}})";
}

std::string NodeList(const std::vector<std::string>& nodes, const std::string& rv, const std::string& cont = "") {
  std::string items;
  for (const auto& node : nodes) items += (items.empty() ? "" : ",") + node;
  return R"({"kind":"NodeList","metadata":{"resourceVersion":")" + rv + R"(","continue":")" + cont +
         R"("},"items":[)" + items + "]}";
}

StreamItem Line(std::string line) { return StreamItem{std::move(line), 0}; }
StreamItem Event(const std::string& type, const std::string& object) {
  return Line(R"({"type":")" + type + R"(","object":)" + object + "}");
}
StreamItem Bookmark(const std::string& rv) {
  return Event("BOOKMARK", R"({"kind":"Node","metadata":{"resourceVersion":")" + rv + R"("}})");
}
StreamItem Gone() {
  return Event("ERROR", R"({"kind":"Status","status":"Failure","reason":"Expired","code":410,"message":"too old"})");
}
// What kube-apiserver sends when a watch starts exactly at an etcd compaction.
StreamItem InternalError() {
  return Event("ERROR", R"({"kind":"Status","status":"Failure","reason":"InternalError","code":500,)"
                        R"("message":"etcd event received with PrevKv=nil"})");
}
StreamItem TooManyRequests() {
  return Event("ERROR", R"({"kind":"Status","status":"Failure","reason":"TooManyRequests","code":429,)"
                        R"("message":"too many requests"})");
}

ScriptedStream Stream(std::vector<StreamItem> items, ScriptedStream::End end = ScriptedStream::End::kBlock) {
  ScriptedStream stream;
  stream.items = std::move(items);
  stream.end = end;
  return stream;
}

RestClientOptions NoThrottle() {
  RestClientOptions options;
  options.qps = -1;
  options.max_retries = 0;
  return options;
}

ReflectorOptions NodeOptions() {
  ReflectorOptions options;
  options.path = "/api/v1/nodes";
  options.backoff_initial = milliseconds(1);
  options.backoff_cap = milliseconds(5);
  options.seed = 7;
  return options;
}

// Polls `done` for up to 5 s.
template <typename Predicate>
bool WaitUntil(Predicate done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return done();
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("reflector lists, then watches from the list's resourceVersion, in event order", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1"), NodeJson("b", "2")}, "10"));
  fake->WatchStream(Stream({Event("ADDED", NodeJson("c", "11")), Event("MODIFIED", NodeJson("a", "12")),
                            Event("DELETED", NodeJson("b", "13"))}));
  auto recorder = std::make_shared<Recorder<Node>>();
  ReflectorOptions options = NodeOptions();
  options.label_selector = "role=worker";
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), options, recorder);
  CHECK_FALSE(reflector.HasSynced());
  reflector.Start();
  REQUIRE(reflector.WaitForSync(milliseconds(5000)));
  const auto deltas = recorder->WaitFor(5);
  CHECK(deltas == std::vector<std::string>{"add a 1", "add b 2", "add c 11", "update a 1->12", "delete b 13"});
  reflector.Stop();

  const auto lists = fake->list_targets();
  REQUIRE(lists.size() == 1);
  CHECK(lists[0] == "/api/v1/nodes?labelSelector=role%3Dworker&limit=500");
  const auto watches = fake->watch_targets();
  REQUIRE(watches.size() == 1);
  CHECK(Contains(watches[0], "allowWatchBookmarks=true"));
  CHECK(Contains(watches[0], "labelSelector=role%3Dworker"));
  CHECK(Contains(watches[0], "resourceVersion=10"));
  CHECK(Contains(watches[0], "watch=1"));
  const auto at = watches[0].find("timeoutSeconds=");
  REQUIRE(at != std::string::npos);
  const int timeout = std::stoi(watches[0].substr(at + 15));
  CHECK(timeout >= 300);
  CHECK(timeout <= 600);

  CHECK(reflector.size() == 2);
  REQUIRE(reflector.Get("a").has_value());
  CHECK(reflector.Get("a")->metadata.resource_version == "12");
  CHECK_FALSE(reflector.Get("b").has_value());
  CHECK(reflector.last_resource_version() == "13");
  CHECK(reflector.stats().events == 3);
}

// Keeps the pointers the reflector hands out through the *Shared calls.
class SharedKeeper : public ReflectorHandler<Node> {
 public:
  using Shared = std::shared_ptr<const Node>;
  void OnAddShared(const Shared& object) override { Push({"add", nullptr, object}); }
  void OnUpdateShared(const Shared& old, const Shared& now) override { Push({"update", old, now}); }
  void OnDeleteShared(const Shared& last) override { Push({"delete", nullptr, last}); }
  struct Call {
    std::string what;
    Shared old;
    Shared now;
  };
  std::vector<Call> WaitFor(std::size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(5), [&] { return calls_.size() >= n; });
    return calls_;
  }

 private:
  void Push(Call call) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      calls_.push_back(std::move(call));
    }
    cv_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Call> calls_;
};

TEST_CASE("the handler shares the stored objects: an update hands back the pointer the add gave",
          "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1")}, "10"));
  fake->ListResponse(200, NodeList({NodeJson("b", "5")}, "20"));  // the relist after the 410
  fake->WatchStream(Stream({Event("MODIFIED", NodeJson("a", "11")), Event("ADDED", NodeJson("b", "12")),
                            Event("MODIFIED", NodeJson("b", "13")), Gone()}));
  auto keeper = std::make_shared<SharedKeeper>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), keeper);
  reflector.Start();
  // list: add a; watch: update a, add b, update b; relist: update b 13->5, delete a.
  const std::vector<SharedKeeper::Call> calls = keeper->WaitFor(6);
  reflector.Stop();
  REQUIRE(calls.size() == 6);
  CHECK(calls[0].what == "add");
  CHECK(calls[1].what == "update");
  CHECK(calls[1].old == calls[0].now);  // the very object the add handed out, not a copy
  CHECK(calls[1].now->metadata.resource_version == "11");
  CHECK(calls[0].now->metadata.resource_version == "1");  // stored objects are never modified
  CHECK(calls[2].what == "add");
  CHECK(calls[3].what == "update");
  CHECK(calls[3].old == calls[2].now);
  CHECK(calls[4].what == "update");
  CHECK(calls[4].old == calls[3].now);
  CHECK(calls[4].now->metadata.resource_version == "5");
  CHECK(calls[5].what == "delete");
  CHECK(calls[5].now == calls[1].now);  // the relist's tombstone is the stored object
}

TEST_CASE("a handler overriding only the reference calls still receives every delta", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1")}, "10"));
  fake->WatchStream(Stream({Event("MODIFIED", NodeJson("a", "11")), Event("DELETED", NodeJson("a", "12"))}));
  auto recorder = std::make_shared<Recorder<Node>>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), recorder);
  reflector.Start();
  CHECK(recorder->WaitFor(3) == std::vector<std::string>{"add a 1", "update a 1->11", "delete a 12"});
  reflector.Stop();
}

TEST_CASE("reflector follows continue tokens and restarts the list on an expired token", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1")}, "10", "tok1"))
      .ListResponse(410, R"({"kind":"Status","status":"Failure","reason":"Expired","code":410})")
      .ListResponse(200, NodeList({NodeJson("a", "1")}, "20", "tok2"))
      .ListResponse(200, NodeList({NodeJson("b", "2")}, "20"));
  auto recorder = std::make_shared<Recorder<Node>>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), recorder);
  reflector.Start();
  REQUIRE(reflector.WaitForSync(milliseconds(5000)));
  CHECK(recorder->WaitFor(2) == std::vector<std::string>{"add a 1", "add b 2"});
  for (int i = 0; i < 500 && fake->watch_targets().empty(); ++i) std::this_thread::sleep_for(milliseconds(10));
  reflector.Stop();
  const auto lists = fake->list_targets();
  REQUIRE(lists.size() == 4);
  CHECK(lists[0] == "/api/v1/nodes?limit=500");
  CHECK(lists[1] == "/api/v1/nodes?continue=tok1&limit=500");
  CHECK(lists[2] == "/api/v1/nodes?limit=500");
  CHECK(lists[3] == "/api/v1/nodes?continue=tok2&limit=500");
  CHECK(reflector.last_resource_version() == "20");
  REQUIRE(fake->watch_targets().size() == 1);
  CHECK(Contains(fake->watch_targets()[0], "resourceVersion=20"));
}

TEST_CASE("a refused list keeps the reflector unsynced and names why, the next good list clears it",
          "[reflector]") {
  constexpr std::string_view kForbidden =
      R"({"kind":"Status","status":"Failure","message":"nodes is forbidden: User \"sched\" cannot list )"
      R"(resource \"nodes\" in API group \"\" at the cluster scope","reason":"Forbidden","code":403})";
  SECTION("refused: not synced, the server's message kept") {
    auto fake = std::make_shared<StreamFake>();
    fake->ListResponse(403, std::string(kForbidden));
    ReflectorOptions options = NodeOptions();
    options.backoff_initial = milliseconds(60'000);  // no second list while the test looks
    options.backoff_cap = milliseconds(60'000);
    Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), options, nullptr);
    CHECK(reflector.last_list_error().ok());
    reflector.Start();
    REQUIRE(WaitUntil([&] { return !reflector.last_list_error().ok(); }));
    CHECK_FALSE(reflector.HasSynced());
    const absl::Status error = reflector.last_list_error();
    CHECK(error.code() == absl::StatusCode::kPermissionDenied);
    CHECK(Contains(std::string(error.message()), "HTTP 403 Forbidden"));
    CHECK(Contains(std::string(error.message()), "nodes is forbidden: User \"sched\" cannot list resource"));
    reflector.Stop();  // wakes the backoff sleep
  }
  SECTION("refused, then allowed: synced, no error left") {
    auto fake = std::make_shared<StreamFake>();
    fake->ListResponse(403, std::string(kForbidden)).ListResponse(200, NodeList({NodeJson("a", "1")}, "10"));
    Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), nullptr);
    reflector.Start();
    REQUIRE(reflector.WaitForSync(milliseconds(5000)));
    CHECK(reflector.last_list_error().ok());
    CHECK(fake->list_targets().size() == 2);
    reflector.Stop();
  }
}

TEST_CASE("a bookmark advances the resourceVersion the next watch starts from", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1")}, "10"));
  fake->WatchStream(Stream({Event("ADDED", NodeJson("x", "11")), Bookmark("30")}, ScriptedStream::End::kClean));
  auto recorder = std::make_shared<Recorder<Node>>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), recorder);
  reflector.Start();
  REQUIRE(reflector.WaitForSync(milliseconds(5000)));
  CHECK(recorder->WaitFor(2) == std::vector<std::string>{"add a 1", "add x 11"});
  for (int i = 0; i < 500 && fake->watch_targets().size() < 2; ++i) std::this_thread::sleep_for(milliseconds(10));
  reflector.Stop();
  const auto watches = fake->watch_targets();
  REQUIRE(watches.size() == 2);
  CHECK(Contains(watches[0], "resourceVersion=10"));
  CHECK(Contains(watches[1], "resourceVersion=30"));
  CHECK(fake->list_targets().size() == 1);
  CHECK(reflector.stats().rewatches == 1);
  CHECK(reflector.stats().relists == 0);
  CHECK(reflector.stats().events == 2);
}

TEST_CASE("ERROR 410 relists and synthesizes the deltas the gap hid", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1"), NodeJson("b", "2"), NodeJson("c", "3")}, "10"));
  fake->WatchStream(Stream({Event("ADDED", NodeJson("d", "11")), Bookmark("15"), Gone()}));
  // In the gap: c deleted, b changed, e added; a and d unchanged.
  fake->ListResponse(200,
                     NodeList({NodeJson("a", "1"), NodeJson("b", "18"), NodeJson("d", "11"), NodeJson("e", "19")}, "20"));
  auto recorder = std::make_shared<Recorder<Node>>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), recorder);
  reflector.Start();
  const auto deltas = recorder->WaitFor(7);
  for (int i = 0; i < 500 && fake->watch_targets().size() < 2; ++i) std::this_thread::sleep_for(milliseconds(10));
  reflector.Stop();
  CHECK(deltas == std::vector<std::string>{"add a 1", "add b 2", "add c 3", "add d 11", "update b 2->18",
                                           "add e 19", "delete c 3"});
  CHECK(fake->list_targets().size() == 2);
  const auto watches = fake->watch_targets();
  REQUIRE(watches.size() == 2);
  CHECK(Contains(watches[0], "resourceVersion=10"));
  CHECK(Contains(watches[1], "resourceVersion=20"));
  CHECK(reflector.stats().relists == 1);
  CHECK(reflector.size() == 4);
  CHECK_FALSE(reflector.Get("c").has_value());
}

TEST_CASE("an HTTP 410 on the watch request relists", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1")}, "10"));
  ScriptedStream gone;
  gone.status = 410;
  gone.body = R"({"kind":"Status","status":"Failure","reason":"Expired","code":410})";
  fake->WatchStream(gone);
  fake->ListResponse(200, NodeList({}, "20"));
  auto recorder = std::make_shared<Recorder<Node>>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), recorder);
  reflector.Start();
  CHECK(recorder->WaitFor(2) == std::vector<std::string>{"add a 1", "delete a 1"});
  for (int i = 0; i < 500 && fake->watch_targets().size() < 2; ++i) std::this_thread::sleep_for(milliseconds(10));
  reflector.Stop();
  REQUIRE(fake->watch_targets().size() == 2);
  CHECK(Contains(fake->watch_targets()[1], "resourceVersion=20"));
  CHECK(reflector.stats().relists == 1);
  CHECK(reflector.stats().gone == 1);
}

TEST_CASE("a watch request the server refuses relists: a bad bookmark cannot silence the watch (issue #44)",
          "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1")}, "10"));
  // A hostile server's bookmark with resourceVersion -1; every watch from it is then refused.
  fake->WatchStream(Stream({Bookmark("-1")}, ScriptedStream::End::kClean));
  ScriptedStream refused;
  refused.status = 500;
  refused.body = R"({"kind":"Status","status":"Failure","message":"invalid resource version","code":500})";
  fake->WatchStream(refused);
  fake->ListResponse(200, NodeList({NodeJson("b", "30")}, "30"));
  auto recorder = std::make_shared<Recorder<Node>>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), recorder);
  reflector.Start();
  CHECK(recorder->WaitFor(3) == std::vector<std::string>{"add a 1", "add b 30", "delete a 1"});
  for (int i = 0; i < 500 && fake->watch_targets().size() < 3; ++i) std::this_thread::sleep_for(milliseconds(10));
  reflector.Stop();
  const auto watches = fake->watch_targets();
  REQUIRE(watches.size() == 3);
  CHECK(Contains(watches[1], "resourceVersion=-1"));
  CHECK(Contains(watches[2], "resourceVersion=30"));  // from the relist
  CHECK(reflector.stats().relists == 1);
  CHECK(fake->list_targets().size() == 2);
}

TEST_CASE("an ERROR 410 event counts as gone and relists", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1")}, "10"));
  fake->WatchStream(Stream({Gone()}));
  fake->ListResponse(200, NodeList({NodeJson("b", "15")}, "20"));
  auto recorder = std::make_shared<Recorder<Node>>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), recorder);
  reflector.Start();
  CHECK(recorder->WaitFor(3) == std::vector<std::string>{"add a 1", "add b 15", "delete a 1"});
  CHECK(WaitUntil([&] { return fake->watch_targets().size() >= 2; }));
  reflector.Stop();
  const auto stats = reflector.stats();
  CHECK(stats.gone == 1);
  CHECK(stats.relists == 1);
  CHECK(stats.rewatches == 0);
  CHECK(stats.events == 1);
  REQUIRE(fake->list_targets().size() == 2);
  const auto watches = fake->watch_targets();
  REQUIRE(watches.size() == 2);
  CHECK(Contains(watches[1], "resourceVersion=20"));
}

TEST_CASE("a watch ERROR event other than 410 and 429 backs off, then relists, the relist keeps "
          "the backoff growing",
          "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1")}, "10"));
  fake->WatchStream(Stream({Event("ADDED", NodeJson("b", "11")), InternalError()}));
  fake->ListResponse(200, NodeList({NodeJson("a", "1"), NodeJson("b", "11"), NodeJson("c", "12")}, "20"));
  fake->WatchStream(Stream({InternalError()}));
  fake->ListResponse(200, NodeList({NodeJson("a", "1"), NodeJson("b", "11"), NodeJson("c", "12")}, "30"));
  auto recorder = std::make_shared<Recorder<Node>>();
  ReflectorOptions options = NodeOptions();
  // Delays: [100, 200] ms after the first error, then [200, 400] ms (full jitter).
  options.backoff_initial = milliseconds(100);
  options.backoff_cap = milliseconds(200);
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), options, recorder);
  reflector.Start();
  CHECK(recorder->WaitFor(3) == std::vector<std::string>{"add a 1", "add b 11", "add c 12"});
  CHECK(WaitUntil([&] { return fake->watch_targets().size() >= 3; }));
  reflector.Stop();

  const auto lists = fake->list_targets();
  REQUIRE(lists.size() == 3);
  const auto watches = fake->watch_targets();
  REQUIRE(watches.size() == 3);
  CHECK(Contains(watches[0], "resourceVersion=10"));
  CHECK(Contains(watches[1], "resourceVersion=20"));  // from the relist, not from b's 11
  CHECK(Contains(watches[2], "resourceVersion=30"));
  const auto stats = reflector.stats();
  CHECK(stats.relists == 2);
  CHECK(stats.rewatches == 0);
  CHECK(stats.gone == 0);
  CHECK(stats.events == 3);
  // Each relist waited for the backoff after the failed watch (which errored as soon as it
  // opened); the second wait is the doubled one although a list succeeded in between.
  const auto list_times = fake->list_times();
  const auto watch_times = fake->watch_times();
  CHECK(list_times[1] - watch_times[0] >= milliseconds(100));
  CHECK(list_times[2] - watch_times[1] >= milliseconds(200));
}

TEST_CASE("a watch ERROR 429 event backs off and rewatches from the last resourceVersion", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1")}, "10"));
  fake->WatchStream(Stream({Event("ADDED", NodeJson("b", "11")), TooManyRequests()}));
  auto recorder = std::make_shared<Recorder<Node>>();
  ReflectorOptions options = NodeOptions();
  options.backoff_initial = milliseconds(100);
  options.backoff_cap = milliseconds(200);
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), options, recorder);
  reflector.Start();
  CHECK(recorder->WaitFor(2) == std::vector<std::string>{"add a 1", "add b 11"});
  CHECK(WaitUntil([&] { return fake->watch_targets().size() >= 2; }));
  reflector.Stop();
  CHECK(fake->list_targets().size() == 1);
  const auto watches = fake->watch_targets();
  REQUIRE(watches.size() == 2);
  CHECK(Contains(watches[1], "resourceVersion=11"));
  const auto stats = reflector.stats();
  CHECK(stats.rewatches == 1);
  CHECK(stats.relists == 0);
  CHECK(stats.gone == 0);
  const auto watch_times = fake->watch_times();
  CHECK(watch_times[1] - watch_times[0] >= milliseconds(100));
}

TEST_CASE("malformed, undecodable and oversized lines are skipped and counted", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({}, "10"));
  fake->WatchStream(Stream({Line("not json {"), StreamItem{"", 1 << 20},
                            Event("ADDED", R"({"metadata":{"resourceVersion":"11"}})"),  // no name
                            Event("SNAPSHOT", NodeJson("z", "12")), Event("ADDED", NodeJson("ok", "13"))}));
  auto recorder = std::make_shared<Recorder<Node>>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), recorder);
  reflector.Start();
  CHECK(recorder->WaitFor(1) == std::vector<std::string>{"add ok 13"});
  reflector.Stop();
  const auto stats = reflector.stats();
  CHECK(stats.decode_errors == 3);
  CHECK(stats.oversized == 1);
  CHECK(stats.events == 1);
  CHECK(stats.rewatches == 0);
  CHECK(fake->watch_targets().size() == 1);
}

TEST_CASE("a transport failure backs off and rewatches from the last resourceVersion", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({}, "10"));
  fake->WatchStream(Stream({Event("ADDED", NodeJson("a", "11"))}, ScriptedStream::End::kFail));
  auto recorder = std::make_shared<Recorder<Node>>();
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), recorder);
  reflector.Start();
  CHECK(recorder->WaitFor(1) == std::vector<std::string>{"add a 11"});
  for (int i = 0; i < 500 && fake->watch_targets().size() < 2; ++i) std::this_thread::sleep_for(milliseconds(10));
  reflector.Stop();
  const auto watches = fake->watch_targets();
  REQUIRE(watches.size() == 2);
  CHECK(Contains(watches[1], "resourceVersion=11"));
  CHECK(reflector.stats().rewatches == 1);
  CHECK(fake->list_targets().size() == 1);
}

TEST_CASE("a pod reflector keys by namespace/name and sends its field selector", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, R"({"kind":"PodList","metadata":{"resourceVersion":"5"},"items":[)"
                          R"({"metadata":{"name":"p","namespace":"ns1","resourceVersion":"4"}}]})");
  auto recorder = std::make_shared<Recorder<Pod>>();
  ReflectorOptions options = NodeOptions();
  options.path = "/api/v1/pods";
  options.field_selector = "status.phase!=Succeeded,status.phase!=Failed";
  Reflector<Pod> reflector(std::make_shared<RestClient>(fake, NoThrottle()), options, recorder);
  reflector.Start();
  REQUIRE(reflector.WaitForSync(milliseconds(5000)));
  CHECK(recorder->WaitFor(1) == std::vector<std::string>{"add ns1/p 4"});
  reflector.Stop();
  REQUIRE(reflector.Get("ns1/p").has_value());
  REQUIRE(fake->list_targets().size() == 1);
  CHECK(fake->list_targets()[0] ==
        "/api/v1/pods?fieldSelector=status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed&limit=500");
}

TEST_CASE("a PodDisruptionBudget reflector lists and watches policy/v1 in every namespace",
          "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(
      200, R"({"kind":"PodDisruptionBudgetList","apiVersion":"policy/v1","metadata":{"resourceVersion":"7"},"items":[)"
           R"({"metadata":{"name":"web","namespace":"shop","resourceVersion":"5"},"spec":{"selector":{"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":1}},)"
           R"({"metadata":{"name":"web","namespace":"blog","resourceVersion":"6"},"spec":{},"status":{"disruptionsAllowed":0}}]})");
  fake->WatchStream(Stream(
      {Event("MODIFIED", R"({"kind":"PodDisruptionBudget","metadata":{"name":"web","namespace":"shop","resourceVersion":"8"},)"
                         R"("status":{"disruptionsAllowed":0,"disruptedPods":{"web-1":"2025-06-01T10:00:00Z"}}})"),
       Event("DELETED", R"({"kind":"PodDisruptionBudget","metadata":{"name":"web","namespace":"blog","resourceVersion":"9"}})")}));
  auto recorder = std::make_shared<Recorder<PodDisruptionBudget>>();
  ReflectorOptions options = NodeOptions();
  options.path = "/apis/policy/v1/poddisruptionbudgets";
  Reflector<PodDisruptionBudget> reflector(std::make_shared<RestClient>(fake, NoThrottle()), options,
                                           recorder);
  reflector.Start();
  REQUIRE(reflector.WaitForSync(milliseconds(5000)));
  CHECK(recorder->WaitFor(4) ==
        std::vector<std::string>{"add blog/web 6", "add shop/web 5", "update shop/web 5->8", "delete blog/web 9"});
  reflector.Stop();
  REQUIRE(fake->list_targets().size() == 1);
  CHECK(fake->list_targets()[0] == "/apis/policy/v1/poddisruptionbudgets?limit=500");
  REQUIRE_FALSE(fake->watch_targets().empty());
  CHECK(fake->watch_targets()[0].rfind("/apis/policy/v1/poddisruptionbudgets?", 0) == 0);
  CHECK(reflector.size() == 1);
  const std::optional<PodDisruptionBudget> shop = reflector.Get("shop/web");
  REQUIRE(shop.has_value());
  CHECK(shop->status.disruptions_allowed == 0);
  CHECK(shop->status.disrupted_pods == std::vector<std::string>{"web-1"});
  CHECK_FALSE(reflector.Get("blog/web").has_value());
  CHECK(reflector.last_resource_version() == "9");
}

TEST_CASE("Stop ends a blocked watch and is idempotent", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({}, "10"));
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), NodeOptions(), nullptr);
  reflector.Start();
  REQUIRE(reflector.WaitForSync(milliseconds(5000)));
  for (int i = 0; i < 500 && fake->watch_targets().empty(); ++i) std::this_thread::sleep_for(milliseconds(10));
  const auto start = std::chrono::steady_clock::now();
  reflector.Stop();
  reflector.Stop();
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  CHECK(fake->watch_targets().size() == 1);
}

namespace {

// Records what the reflector tells its InformerObserver.
class ObserverRecorder : public ksched::client::InformerObserver {
 public:
  void SetQueuedItems(std::size_t items) override {
    std::lock_guard<std::mutex> lock(mu_);
    queued_.push_back(items);
  }
  void ObserveProcessing(std::chrono::steady_clock::duration elapsed) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (elapsed.count() >= 0) ++processed_;  // (no CHECK off the test's thread)
  }
  void SetStoreResourceVersion(std::string_view resource_version) override {
    std::lock_guard<std::mutex> lock(mu_);
    versions_.emplace_back(resource_version);
  }
  std::vector<std::string> versions() const {
    std::lock_guard<std::mutex> lock(mu_);
    return versions_;
  }
  std::size_t processed() const {
    std::lock_guard<std::mutex> lock(mu_);
    return processed_;
  }
  std::vector<std::size_t> queued() const {
    std::lock_guard<std::mutex> lock(mu_);
    return queued_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::size_t> queued_;
  std::size_t processed_ = 0;
  std::vector<std::string> versions_;
};

}  // namespace

TEST_CASE("the informer observer sees every delivery and the store's resourceVersion", "[reflector]") {
  auto fake = std::make_shared<StreamFake>();
  fake->ListResponse(200, NodeList({NodeJson("a", "1"), NodeJson("b", "2")}, "10"));
  fake->WatchStream(Stream({Event("ADDED", NodeJson("c", "11")), Bookmark("20"), Event("DELETED", NodeJson("b", "21"))}));
  auto recorder = std::make_shared<Recorder<Node>>();
  auto observer = std::make_shared<ObserverRecorder>();
  ReflectorOptions options = NodeOptions();
  options.observer = observer;
  Reflector<Node> reflector(std::make_shared<RestClient>(fake, NoThrottle()), options, recorder);
  reflector.Start();
  REQUIRE(reflector.WaitForSync(milliseconds(5000)));
  CHECK(recorder->WaitFor(4) == std::vector<std::string>{"add a 1", "add b 2", "add c 11", "delete b 21"});
  reflector.Stop();
  // The list's version, then each event's and the bookmark's, in order.
  CHECK(observer->versions() == std::vector<std::string>{"10", "11", "20", "21"});
  CHECK(observer->processed() == 4);  // one per delta delivered
  CHECK(observer->queued() == std::vector<std::size_t>{0, 0, 0, 0});
}

TEST_CASE("informer_store_resource_version keeps the last 15 digits, as client-go's", "[reflector]") {
  using ksched::client::ResourceVersionForMetrics;
  CHECK(ResourceVersionForMetrics("") == std::optional<std::int64_t>(0));
  CHECK(ResourceVersionForMetrics("12345") == std::optional<std::int64_t>(12345));
  CHECK(ResourceVersionForMetrics("1234567890123456789") == std::optional<std::int64_t>(567890123456789));
  CHECK(ResourceVersionForMetrics("+42") == std::optional<std::int64_t>(42));
  CHECK_FALSE(ResourceVersionForMetrics("abc").has_value());
  CHECK_FALSE(ResourceVersionForMetrics("12a").has_value());
  CHECK_FALSE(ResourceVersionForMetrics("+-5").has_value());
}
