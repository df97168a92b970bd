// DomainCounts: the sums it keeps across Refreshes equal a count made anew after every change to
// the nodes (pods added and removed, topology labels moved, taints, nodes without the key), both
// when the snapshot records what its last update changed and when several updates came between
// two Refreshes, in PreFilter's mode and in PreScore's (hostname left out; with and without every
// key required); only changed nodes are counted again; a pod that counts differently, another
// mode, or a changed node list, starts over.
#include "plugins/pod_topology_spread/domain_counts.h"

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "api/json_decode.h"
#include "framework/node_info.h"
#include "framework/parallelizer.h"
#include "framework/pod_info.h"
#include "framework/snapshot.h"
#include "plugins/pod_topology_spread/constraints.h"
#include "plugins/pod_topology_spread/match_count_memo.h"

namespace {

namespace api = ksched::api;
namespace framework = ksched::framework;
using ksched::plugins::pod_topology_spread::CompileConstraints;
using ksched::plugins::pod_topology_spread::DomainCountMode;
using ksched::plugins::pod_topology_spread::DomainCounts;
using ksched::plugins::pod_topology_spread::MatchCountMemo;
using ksched::plugins::pod_topology_spread::SpreadConstraint;

using Sums = std::map<std::string, int>;

// `zone` empty: no zone label. `tainted`: a NoSchedule taint.
std::shared_ptr<const api::Node> MakeNode(int index, const std::string& zone, bool tainted) {
  const std::string name = "node-" + std::to_string(index);
  std::string json = R"({"metadata":{"name":")" + name +
                     R"(","labels":{"kubernetes.io/hostname":")" + name + R"(")";
  if (!zone.empty()) json += R"(,"topology.kubernetes.io/zone":")" + zone + R"(")";
  json += R"(,"disk":")" + std::string(index % 2 == 0 ? "ssd" : "hdd") + R"("}},"spec":{)";
  if (tainted) json += R"("taints":[{"key":"dedicated","value":"x","effect":"NoSchedule"}])";
  json += "}}";
  absl::StatusOr<api::Node> node = api::DecodeNode(json);
  REQUIRE(node.ok());
  return std::make_shared<const api::Node>(*std::move(node));
}

std::shared_ptr<api::Pod> MakePod(const std::string& name, const std::string& ns,
                                  const std::string& app, const std::string& extra_spec = "") {
  const std::string json = R"({"metadata":{"name":")" + name + R"(","namespace":")" + ns +
                           R"(","uid":")" + name + R"(","labels":{"app":")" + app +
                           R"("}},"spec":{)" + extra_spec +
                           R"("containers":[{"name":"c","image":"pause"}]}})";
  absl::StatusOr<api::Pod> pod = api::DecodePod(json);
  REQUIRE(pod.ok());
  return std::make_shared<api::Pod>(*std::move(pod));
}

// The pod being scheduled: spreads app=web over zones (DoNotSchedule) and hostnames, with the
// given node inclusion policies and pod spec extras.
std::shared_ptr<api::Pod> Incoming(const std::string& name, const std::string& taints_policy = "",
                                   const std::string& extra_spec = "") {
  // Appended piece by piece: GCC 12 reports a false -Wrestrict on chains of `literal + string`.
  std::string policy;
  if (!taints_policy.empty()) {
    policy += R"(,"nodeTaintsPolicy":")";
    policy += taints_policy;
    policy += '"';
  }
  std::string spec = R"("topologySpreadConstraints":[)";
  for (const char* key : {"topology.kubernetes.io/zone", "kubernetes.io/hostname"}) {
    if (spec.back() == '}') spec += ',';
    spec += R"({"maxSkew":1,"topologyKey":")";
    spec += key;
    spec += R"(","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"}})";
    spec += policy;
    spec += '}';
  }
  spec += "],";
  spec += extra_spec;
  return MakePod(name, "default", "web", spec);
}

std::vector<SpreadConstraint> HardConstraints(const api::Pod& pod) {
  absl::StatusOr<std::vector<SpreadConstraint>> cs =
      CompileConstraints(pod.spec.topology_spread_constraints, pod.metadata.labels,
                         api::kDoNotSchedule);
  REQUIRE(cs.ok());
  return *std::move(cs);
}

Sums Exported(const DomainCounts& counts, std::size_t j) {
  absl::flat_hash_map<std::string, int> out;
  counts.Export(j, out);
  return Sums(out.begin(), out.end());
}

// A snapshot driven the way the scheduler cache drives it: NodeInfos changed in place, each update
// recorded (BeginUpdate / NoteUpdated) and given the next generation.
class TestCluster {
 public:
  explicit TestCluster(int nodes) {
    for (int i = 0; i < nodes; ++i) {
      zones_.push_back(i % 5 == 4 ? "" : "zone-" + std::to_string(i % 3));
      tainted_.push_back(i % 7 == 3);
      names_.push_back("node-" + std::to_string(i));
      snapshot_.GetOrCreate(names_.back())->SetNode(MakeNode(i, zones_.back(), tainted_.back()));
    }
    snapshot_.RebuildLists(names_);
    snapshot_.set_generation(++generation_);
  }

  framework::Snapshot& snapshot() { return snapshot_; }
  const std::vector<framework::NodeInfo*>& nodes() const { return snapshot_.nodes(); }
  int size() const { return static_cast<int>(names_.size()); }

  // Starts an update's record. Two updates between Refreshes leave a record that starts at a
  // generation the reader never saw, so it compares every node.
  void Begin() { snapshot_.BeginUpdate(); }
  void End() { snapshot_.set_generation(++generation_); }

  void AddPod(int node, std::shared_ptr<api::Pod> pod) {
    pod->spec.node_name = names_[node];
    framework::NodeInfo* info = snapshot_.GetMutable(names_[node]);
    info->AddPod(framework::PodInfo::CreateOrDie(std::move(pod)));
    snapshot_.NoteUpdated(info);
  }
  void RemoveFirstPod(int node) {
    framework::NodeInfo* info = snapshot_.GetMutable(names_[node]);
    if (info->pods().empty()) return;
    const std::string uid = info->pods().front()->pod().metadata.uid;
    REQUIRE(info->RemovePod(uid));
    snapshot_.NoteUpdated(info);
  }
  void Relabel(int node, const std::string& zone, bool tainted) {
    zones_[node] = zone;
    tainted_[node] = tainted;
    framework::NodeInfo* info = snapshot_.GetMutable(names_[node]);
    info->SetNode(MakeNode(node, zone, tainted));
    snapshot_.NoteUpdated(info);
  }
  void AddNode() {
    const int index = size();
    names_.push_back("node-" + std::to_string(index));
    zones_.push_back("zone-0");
    tainted_.push_back(false);
    snapshot_.GetOrCreate(names_.back())->SetNode(MakeNode(index, "zone-0", false));
    snapshot_.RebuildLists(names_);
  }

 private:
  framework::Snapshot snapshot_;
  std::vector<std::string> names_;
  std::vector<std::string> zones_;
  std::vector<bool> tainted_;
  std::int64_t generation_ = 0;
};

}  // namespace

TEST_CASE("DomainCounts: sums kept across changes equal sums counted anew",
          "[pod_topology_spread][domain_counts]") {
  // Ignore: tainted nodes count; Honor: they do not, and a toleration on the pod changes that.
  const std::string taints_policy = GENERATE(std::string(""), std::string("Honor"));
  INFO("nodeTaintsPolicy " << (taints_policy.empty() ? "(absent)" : taints_policy));
  // PreFilter's; PreScore's with every key required; PreScore's under system defaulting.
  const DomainCountMode mode = GENERATE(DomainCountMode{true, false}, DomainCountMode{true, true},
                                        DomainCountMode{false, true});
  INFO("require_all_keys " << mode.require_all_keys << ", skip_hostname " << mode.skip_hostname);
  framework::Parallelizer parallelizer(2);
  TestCluster cluster(40);
  DomainCounts kept;
  MatchCountMemo kept_memo;
  std::mt19937 random(12345);
  int serial = 0;
  std::int64_t changes = 0;

  for (int round = 0; round < 300; ++round) {
    const bool batch = random() % 4 == 0;  // two updates before the next Refresh
    for (int update = 0; update < (batch ? 2 : 1); ++update) {
      cluster.Begin();
      const int node = static_cast<int>(random() % static_cast<unsigned>(cluster.size()));
      const unsigned roll = random() % 100;
      const std::string name = "pod-" + std::to_string(serial++);
      if (roll < 45) {
        cluster.AddPod(node, MakePod(name, "default", "web"));
      } else if (roll < 55) {
        cluster.AddPod(node, MakePod(name, "default", "db"));
      } else if (roll < 60) {
        cluster.AddPod(node, MakePod(name, "other", "web"));
      } else if (roll < 85) {
        cluster.RemoveFirstPod(node);
      } else {
        const unsigned zone = random() % 5;
        cluster.Relabel(node, zone == 4 ? "" : "zone-" + std::to_string(zone), random() % 3 == 0);
      }
      ++changes;
      cluster.End();
    }
    // Each incoming pod is a new replica: other name and uid, same spec and labels.
    const std::shared_ptr<api::Pod> pod = Incoming("incoming-" + std::to_string(round), taints_policy);
    const std::vector<SpreadConstraint> cs = HardConstraints(*pod);
    kept.Refresh(*pod, cs, cluster.nodes(), &cluster.snapshot(), kept_memo, parallelizer, mode);

    DomainCounts anew;
    MatchCountMemo anew_memo;
    anew.Refresh(*pod, cs, cluster.nodes(), nullptr, anew_memo, parallelizer, mode);
    INFO("round " << round);
    REQUIRE(Exported(kept, 0) == Exported(anew, 0));
    REQUIRE(Exported(kept, 1) == Exported(anew, 1));
    for (const char* zone : {"zone-0", "zone-1", "zone-2", "zone-3", ""}) {
      REQUIRE(kept.Sum(0, zone) == anew.Sum(0, zone));
    }
    // Without every key required, the nodes lacking a zone label are the domain "".
    if (!mode.require_all_keys) REQUIRE(Exported(anew, 0).contains(""));
    if (mode.skip_hostname) REQUIRE(Exported(kept, 1).empty());
  }
  // One rebuild (the first Refresh); every later one corrected at most the nodes changed.
  CHECK(kept.stats().rebuilds == 1);
  CHECK(kept.stats().updates == 299);
  CHECK(kept.stats().revisited_nodes > 0);
  CHECK(kept.stats().revisited_nodes <= changes);
}

TEST_CASE("DomainCounts: the sums are upstream's TpValueToMatchNum",
          "[pod_topology_spread][domain_counts]") {
  framework::Parallelizer parallelizer(1);
  // node-0 zone-0, node-1 zone-1, node-2 zone-2, node-3 zone-0 tainted, node-4 without a zone.
  TestCluster cluster(5);
  cluster.Begin();
  cluster.AddPod(0, MakePod("a", "default", "web"));
  cluster.AddPod(0, MakePod("b", "default", "web"));
  cluster.AddPod(1, MakePod("c", "default", "db"));
  cluster.AddPod(3, MakePod("d", "default", "web"));
  cluster.AddPod(4, MakePod("e", "default", "web"));  // no zone label: counts nowhere
  cluster.AddPod(2, MakePod("f", "other", "web"));    // other namespace
  cluster.End();
  DomainCounts counts;
  MatchCountMemo memo;
  std::shared_ptr<api::Pod> pod = Incoming("incoming");
  counts.Refresh(*pod, HardConstraints(*pod), cluster.nodes(), &cluster.snapshot(), memo,
                 parallelizer);
  // A node without every topology key counts for no constraint (node-4 is not a hostname domain).
  CHECK(Exported(counts, 0) == Sums{{"zone-0", 3}, {"zone-1", 0}, {"zone-2", 0}});
  CHECK(Exported(counts, 1) ==
        Sums{{"node-0", 2}, {"node-1", 0}, {"node-2", 0}, {"node-3", 1}});

  // The last node of zone-2 moves to zone-1: zone-2 is no domain any more.
  cluster.Begin();
  cluster.Relabel(2, "zone-1", false);
  cluster.End();
  counts.Refresh(*pod, HardConstraints(*pod), cluster.nodes(), &cluster.snapshot(), memo,
                 parallelizer);
  CHECK(Exported(counts, 0) == Sums{{"zone-0", 3}, {"zone-1", 0}});
  CHECK(counts.stats().rebuilds == 1);
  CHECK(counts.stats().revisited_nodes == 1);

  // nodeTaintsPolicy Honor counts differently: rebuilt, and the tainted node-3 does not count.
  std::shared_ptr<api::Pod> honoring = Incoming("incoming-2", "Honor");
  counts.Refresh(*honoring, HardConstraints(*honoring), cluster.nodes(), &cluster.snapshot(),
                 memo, parallelizer);
  CHECK(counts.stats().rebuilds == 2);
  CHECK(Exported(counts, 0) == Sums{{"zone-0", 2}, {"zone-1", 0}});
  // A toleration of the taint: rebuilt again, node-3 counts.
  std::shared_ptr<api::Pod> tolerating = Incoming(
      "incoming-3", "Honor", R"("tolerations":[{"key":"dedicated","operator":"Exists"}],)");
  counts.Refresh(*tolerating, HardConstraints(*tolerating), cluster.nodes(), &cluster.snapshot(),
                 memo, parallelizer);
  CHECK(counts.stats().rebuilds == 3);
  CHECK(Exported(counts, 0) == Sums{{"zone-0", 3}, {"zone-1", 0}});
  // A nodeSelector (nodeAffinityPolicy Honor by default): only ssd (even) nodes count.
  std::shared_ptr<api::Pod> selecting =
      Incoming("incoming-4", "", R"("nodeSelector":{"disk":"ssd"},)");
  counts.Refresh(*selecting, HardConstraints(*selecting), cluster.nodes(), &cluster.snapshot(),
                 memo, parallelizer);
  CHECK(counts.stats().rebuilds == 4);
  CHECK(Exported(counts, 0) == Sums{{"zone-0", 2}, {"zone-1", 0}});
  CHECK(Exported(counts, 1) == Sums{{"node-0", 2}, {"node-2", 0}});

  // Another replica of the same pod with nothing changed: no rebuild, nothing revisited.
  std::shared_ptr<api::Pod> again = Incoming("incoming-5", "", R"("nodeSelector":{"disk":"ssd"},)");
  counts.Refresh(*again, HardConstraints(*again), cluster.nodes(), &cluster.snapshot(), memo,
                 parallelizer);
  CHECK(counts.stats().rebuilds == 4);
  CHECK(counts.stats().revisited_nodes == 1);

  // A node added changes the list: rebuilt.
  cluster.Begin();
  cluster.AddNode();
  cluster.End();
  counts.Refresh(*again, HardConstraints(*again), cluster.nodes(), &cluster.snapshot(), memo,
                 parallelizer);
  CHECK(counts.stats().rebuilds == 5);
  CHECK(Exported(counts, 1) == Sums{{"node-0", 2}, {"node-2", 0}});  // node-5 is odd: hdd

  // A list that is not the snapshot's own (or a snapshot no cache updated) is counted anew.
  std::vector<framework::NodeInfo*> copy = cluster.nodes();
  counts.Refresh(*again, HardConstraints(*again), copy, &cluster.snapshot(), memo, parallelizer);
  CHECK(counts.stats().rebuilds == 6);
}

TEST_CASE("DomainCounts: PreScore's sums are upstream's TopologyValueToPodCounts over all nodes",
          "[pod_topology_spread][domain_counts]") {
  framework::Parallelizer parallelizer(1);
  // node-0 zone-0, node-1 zone-1, node-2 zone-2, node-3 zone-0 tainted, node-4 without a zone.
  TestCluster cluster(5);
  cluster.Begin();
  cluster.AddPod(0, MakePod("a", "default", "web"));
  cluster.AddPod(0, MakePod("b", "default", "web"));
  cluster.AddPod(3, MakePod("d", "default", "web"));
  cluster.AddPod(4, MakePod("e", "default", "web"));
  cluster.AddPod(4, MakePod("g", "default", "db"));
  cluster.End();
  std::shared_ptr<api::Pod> pod = Incoming("incoming");
  MatchCountMemo memo;

  // Every key required (the pod's own constraints): node-4 counts nowhere; hostname left to Score.
  DomainCounts own;
  own.Refresh(*pod, HardConstraints(*pod), cluster.nodes(), &cluster.snapshot(), memo, parallelizer,
              DomainCountMode{true, true});
  CHECK(Exported(own, 0) == Sums{{"zone-0", 3}, {"zone-1", 0}, {"zone-2", 0}});
  CHECK(Exported(own, 1).empty());
  CHECK(own.Sum(0, "zone-0") == 3);
  CHECK(own.Sum(0, "") == 0);
  CHECK(own.Sum(0, "zone-9") == 0);
  CHECK(own.Sum(1, "node-0") == 0);

  // System defaulting: node-4's missing zone is the domain "" (upstream reads node.Labels[key]).
  DomainCounts defaulted;
  defaulted.Refresh(*pod, HardConstraints(*pod), cluster.nodes(), &cluster.snapshot(), memo,
                    parallelizer, DomainCountMode{false, true});
  CHECK(Exported(defaulted, 0) == Sums{{"zone-0", 3}, {"zone-1", 0}, {"zone-2", 0}, {"", 1}});
  CHECK(defaulted.Sum(0, "") == 1);

  // The same DomainCounts asked for another mode starts over; back in its mode it updates again.
  defaulted.Refresh(*pod, HardConstraints(*pod), cluster.nodes(), &cluster.snapshot(), memo,
                    parallelizer, DomainCountMode{true, true});
  CHECK(defaulted.stats().rebuilds == 2);
  CHECK(defaulted.Sum(0, "") == 0);
  cluster.Begin();
  cluster.AddPod(2, MakePod("h", "default", "web"));
  cluster.End();
  defaulted.Refresh(*pod, HardConstraints(*pod), cluster.nodes(), &cluster.snapshot(), memo,
                    parallelizer, DomainCountMode{true, true});
  CHECK(defaulted.stats().rebuilds == 2);
  CHECK(defaulted.stats().revisited_nodes == 1);
  CHECK(defaulted.Sum(0, "zone-2") == 1);
}
