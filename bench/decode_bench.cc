// ksched_decode_bench: throughput of the api layer's JSON decoders, and the heap a decoded object
// holds once cached (issue #3). `make bench-decode` builds and runs it.
//
//   ksched_decode_bench [--pods N] [--nodes N] [--runs R] [--json FILE] [--only TEXT]
//
// Input: objects as kube-apiserver v1.34.4 serves them (compact JSON; list items without kind and
// apiVersion, watch objects with them), generated in memory from templates captured byte for byte
// from the real API server of tests/controlplane (see the templates below); per object the name,
// uid, resourceVersion, timestamps, node, IPs and ids vary. Datasets: N pods of scheduler_perf's
// pod-default.yaml as scheduler_perf runs it ("perf pods"), N pods of the same template in a full
// cluster ("cluster pods"), and N nodes.
//
// Throughput, one thread, best (and median) of R runs by std::chrono::steady_clock, with the
// thread's CPU time alongside (less disturbed on a shared machine):
//   - the whole list as one document with api::DecodeListInSitu (what client/reflector.cc uses),
//     RapidJSON's DOM parse of it alone, api::DecodeList (copying), and the same list in pages of
//     500 (the reflector's page size) decoded in situ one after the other;
//   - N watch-event lines {"type":"ADDED","object":{...}} with api::DecodeWatchEventInSitu.
// Each run gets a fresh copy of its input (in-situ parsing consumes it), made outside the timed
// region; results are destroyed outside it too. MB = 10^6 bytes of JSON.
//
// Bytes held: glibc mallinfo2() heap in use (uordblks + hblkhd: allocated chunks including malloc's
// headers, plus mmapped blocks) before and after decoding N objects into a std::vector<T>, and into
// the std::map<std::string, T> keyed "namespace/name" that client/reflector.h keeps, divided by N.
// The JSON buffer is allocated before the first reading and freed after the second, so it cancels
// out; the parser's own memory is freed by then.
//
// Every decode is checked (status, object count, spot fields of every object); any failure aborts.
#include <malloc.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "api/json_decode.h"
#include "api/node.h"
#include "api/object_list.h"
#include "api/pod.h"
#include "api/watch_event.h"
#include "rapidjson/document.h"

namespace {

using ksched::api::Node;
using ksched::api::Pod;
namespace api = ksched::api;
using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------------------------------------
// Templates: objects read back from kube-apiserver v1.34.4 (GET .../pods, GET /api/v1/nodes/<name>)
// with the per-object values replaced by $VARIABLE$ placeholders. The API server wrote everything
// but the kubelet's and controller-manager's parts, which no process runs here to write: those were
// written through the API as those components write them (kubectl patch of status with field
// manager "kubelet", of podCIDR and the ttl annotation with "kube-controller-manager"), with
// values typical of a kubelet on containerd; the server added their managedFields entries.

// scheduler_perf's pod-default.yaml (pause, requests = limits = 100m / 500Mi, containerPort 80)
// created with kubectl and bound by the scheduler; no kubelet runs, as in scheduler_perf, so it
// stays Pending with the PodScheduled condition. A PodList item.
constexpr std::string_view kPerfPodTemplate =
    R"j({"metadata":{"name":"$NAME$","generateName":"pod-","namespace":"namespace-1",)j"
    R"j("uid":"$UID$","resourceVersion":"$RV$","generation":1,"creationTimestamp":"$CREATED$",)j"
    R"j("managedFields":[{"manager":"kubectl-create","operation":"Update",)j"
    R"j("apiVersion":"v1","time":"$CREATED$","fieldsType":"FieldsV1",)j"
    R"j("fieldsV1":{"f:metadata":{"f:generateName":{}},"f:spec":{"f:containers":{"k:{\"name\":)j"
    R"j(\"pause\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},)j"
    R"j("f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},)j"
    R"j("f:containerPort":{},"f:protocol":{}}},"f:resources":{".":{},)j"
    R"j("f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},)j"
    R"j("f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":)j"
    R"j({}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},)j"
    R"j("f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}]},)j"
    R"j("spec":{"containers":[{"name":"pause","image":"registry.k8s.io/pause:3.10",)j"
    R"j("ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{"limits":{"cpu":"100m",)j"
    R"j("memory":"500Mi"},"requests":{"cpu":"100m","memory":"500Mi"}},)j"
    R"j("terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",)j"
    R"j("imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always",)j"
    R"j("terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",)j"
    R"j("nodeName":"$NODE$","securityContext":{},"schedulerName":"default-scheduler",)j"
    R"j("tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists",)j"
    R"j("effect":"NoExecute","tolerationSeconds":300},{"key":"node.kubernetes.io/unreachable",)j"
    R"j("operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],)j"
    R"j("priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},)j"
    R"j("status":{"phase":"Pending","conditions":[{"type":"PodScheduled",)j"
    R"j("status":"True","lastProbeTime":null,"lastTransitionTime":"$SCHEDULED$"}],)j"
    R"j("qosClass":"Guaranteed"}})j";

// The same template in a full cluster: ServiceAccount admission's kube-api-access volume and
// serviceAccountName, and running, with the kubelet's status and its managedFields entry. A PodList
// item.
constexpr std::string_view kClusterPodTemplate =
    R"j({"metadata":{"name":"$NAME$","generateName":"pod-","namespace":"namespace-1",)j"
    R"j("uid":"$UID$","resourceVersion":"$RV$","generation":1,"creationTimestamp":"$CREATED$",)j"
    R"j("managedFields":[{"manager":"kubectl-create","operation":"Update",)j"
    R"j("apiVersion":"v1","time":"$CREATED$","fieldsType":"FieldsV1",)j"
    R"j("fieldsV1":{"f:metadata":{"f:generateName":{}},"f:spec":{"f:containers":{"k:{\"name\":)j"
    R"j(\"pause\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},)j"
    R"j("f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},)j"
    R"j("f:containerPort":{},"f:protocol":{}}},"f:resources":{".":{},)j"
    R"j("f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},)j"
    R"j("f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":)j"
    R"j({},"f:volumeMounts":{".":{},"k:{\"mountPath\":\"/var/run/secrets/kubernetes.io/service)j"
    R"j(account\"}":{".":{},"f:mountPath":{},"f:name":{},"f:readOnly":{}}}}},)j"
    R"j("f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},)j"
    R"j("f:schedulerName":{},"f:securityContext":{},"f:serviceAccount":{},)j"
    R"j("f:serviceAccountName":{},"f:terminationGracePeriodSeconds":{},)j"
    R"j("f:volumes":{".":{},"k:{\"name\":\"kube-api-access-$VOL$\"}":{".":{},)j"
    R"j("f:name":{},"f:projected":{".":{},"f:defaultMode":{},"f:sources":{}}}}}}},)j"
    R"j({"manager":"kubelet","operation":"Update","apiVersion":"v1",)j"
    R"j("time":"$READY$","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\)j"
    R"j("type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},)j"
    R"j("f:observedGeneration":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{")j"
    R"j(.":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:observedGeneration":{},)j"
    R"j("f:status":{},"f:type":{}},"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},)j"
    R"j("f:lastProbeTime":{},"f:lastTransitionTime":{},"f:observedGeneration":{},)j"
    R"j("f:status":{},"f:type":{}},"k:{\"type\":\"PodScheduled\"}":{"f:lastTransitionTime":{},)j"
    R"j("f:observedGeneration":{}},"k:{\"type\":\"Ready\"}":{".":{},)j"
    R"j("f:lastProbeTime":{},"f:lastTransitionTime":{},"f:observedGeneration":{},)j"
    R"j("f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},)j"
    R"j("f:hostIPs":{},"f:observedGeneration":{},"f:phase":{},"f:podIP":{},)j"
    R"j("f:podIPs":{".":{},"k:{\"ip\":\"$PODIP$\"}":{".":{},"f:ip":{}}},)j"
    R"j("f:startTime":{}}},"subresource":"status"}]},"spec":{"volumes":[{"name":"kube-api-acce)j"
    R"j(ss-$VOL$","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,)j"
    R"j("path":"token"}},{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt",)j"
    R"j("path":"ca.crt"}]}},{"downwardAPI":{"items":[{"path":"namespace",)j"
    R"j("fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],)j"
    R"j("defaultMode":420}}],"containers":[{"name":"pause","image":"registry.k8s.io/pause:3.10)j"
    R"j(","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{"limits":{"cpu":"100m",)j"
    R"j("memory":"500Mi"},"requests":{"cpu":"100m","memory":"500Mi"}},)j"
    R"j("volumeMounts":[{"name":"kube-api-access-$VOL$","readOnly":true,)j"
    R"j("mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],)j"
    R"j("terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",)j"
    R"j("imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always",)j"
    R"j("terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",)j"
    R"j("serviceAccountName":"default","serviceAccount":"default","nodeName":"$NODE$",)j"
    R"j("securityContext":{},"schedulerName":"default-scheduler","tolerations":[{"key":"node.k)j"
    R"j(ubernetes.io/not-ready","operator":"Exists","effect":"NoExecute",)j"
    R"j("tolerationSeconds":300},{"key":"node.kubernetes.io/unreachable",)j"
    R"j("operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],)j"
    R"j("priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},)j"
    R"j("status":{"observedGeneration":1,"phase":"Running","conditions":[{"type":"PodReadyToSt)j"
    R"j(artContainers","observedGeneration":1,"status":"True","lastProbeTime":null,)j"
    R"j("lastTransitionTime":"$READY$"},{"type":"Initialized","observedGeneration":1,)j"
    R"j("status":"True","lastProbeTime":null,"lastTransitionTime":"$SCHEDULED$"},)j"
    R"j({"type":"Ready","observedGeneration":1,"status":"True","lastProbeTime":null,)j"
    R"j("lastTransitionTime":"$READY$"},{"type":"ContainersReady","observedGeneration":1,)j"
    R"j("status":"True","lastProbeTime":null,"lastTransitionTime":"$READY$"},)j"
    R"j({"type":"PodScheduled","observedGeneration":1,"status":"True",)j"
    R"j("lastProbeTime":null,"lastTransitionTime":"$SCHEDULED$"}],"hostIP":"$HOSTIP$",)j"
    R"j("hostIPs":[{"ip":"$HOSTIP$"}],"podIP":"$PODIP$","podIPs":[{"ip":"$PODIP$"}],)j"
    R"j("startTime":"$SCHEDULED$","containerStatuses":[{"name":"pause",)j"
    R"j("state":{"running":{"startedAt":"$READY$"}},"lastState":{},"ready":true,)j"
    R"j("restartCount":0,"image":"registry.k8s.io/pause:3.10","imageID":"registry.k8s.io/pause)j"
    R"j(@sha256:ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a",)j"
    R"j("containerID":"containerd://$CID$","started":true,"allocatedResources":{"cpu":"100m",)j"
    R"j("memory":"500Mi"},"resources":{"limits":{"cpu":"100m","memory":"500Mi"},)j"
    R"j("requests":{"cpu":"100m","memory":"500Mi"}},"volumeMounts":[{"name":"kube-api-access-$)j"
    R"j(VOL$","mountPath":"/var/run/secrets/kubernetes.io/serviceaccount",)j"
    R"j("readOnly":true,"recursiveReadOnly":"Disabled"}],"user":{"linux":{"uid":65535,)j"
    R"j("gid":65535,"supplementalGroups":[65535]}}}],"qosClass":"Guaranteed"}})j";

// node-default.yaml's capacity (cpu 4, memory 32Gi, pods 110) as a kubelet reports it: labels,
// conditions, addresses, nodeInfo, images, the kubelet's and controller-manager's managedFields.
constexpr std::string_view kNodeTemplate =
    R"j({"metadata":{"name":"$NAME$","uid":"$UID$","resourceVersion":"$RV$",)j"
    R"j("creationTimestamp":"$CREATED$","labels":{"beta.kubernetes.io/arch":"amd64",)j"
    R"j("beta.kubernetes.io/os":"linux","kubernetes.io/arch":"amd64",)j"
    R"j("kubernetes.io/hostname":"$NAME$","kubernetes.io/os":"linux",)j"
    R"j("node.kubernetes.io/instance-type":"n2-standard-4","topology.kubernetes.io/region":"us)j"
    R"j(-central1","topology.kubernetes.io/zone":"$ZONE$"},"annotations":{"node.alpha.kubernet)j"
    R"j(es.io/ttl":"0","volumes.kubernetes.io/controller-managed-attach-detach":"true"},)j"
    R"j("managedFields":[{"manager":"kube-controller-manager","operation":"Update",)j"
    R"j("apiVersion":"v1","time":"$CREATED$","fieldsType":"FieldsV1",)j"
    R"j("fieldsV1":{"f:metadata":{"f:annotations":{"f:node.alpha.kubernetes.io/ttl":{}}},)j"
    R"j("f:spec":{"f:podCIDR":{},"f:podCIDRs":{".":{},"v:\"$CIDR$\"":{}}}}},)j"
    R"j({"manager":"kubelet","operation":"Update","apiVersion":"v1",)j"
    R"j("time":"$CREATED$","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{)j"
    R"j(".":{},"f:volumes.kubernetes.io/controller-managed-attach-detach":{}},)j"
    R"j("f:labels":{".":{},"f:beta.kubernetes.io/arch":{},"f:beta.kubernetes.io/os":{},)j"
    R"j("f:kubernetes.io/arch":{},"f:kubernetes.io/hostname":{},"f:kubernetes.io/os":{},)j"
    R"j("f:node.kubernetes.io/instance-type":{},"f:topology.kubernetes.io/region":{},)j"
    R"j("f:topology.kubernetes.io/zone":{}}},"f:spec":{"f:providerID":{}}}},)j"
    R"j({"manager":"kubelet","operation":"Update","apiVersion":"v1",)j"
    R"j("time":"$CREATED$","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:addresses":{".":)j"
    R"j({},"k:{\"type\":\"Hostname\"}":{".":{},"f:address":{},"f:type":{}},)j"
    R"j("k:{\"type\":\"InternalIP\"}":{".":{},"f:address":{},"f:type":{}}},)j"
    R"j("f:allocatable":{".":{},"f:cpu":{},"f:ephemeral-storage":{},)j"
    R"j("f:hugepages-1Gi":{},"f:hugepages-2Mi":{},"f:memory":{},"f:pods":{}},)j"
    R"j("f:capacity":{".":{},"f:cpu":{},"f:ephemeral-storage":{},"f:hugepages-1Gi":{},)j"
    R"j("f:hugepages-2Mi":{},"f:memory":{},"f:pods":{}},"f:conditions":{".":{},)j"
    R"j("k:{\"type\":\"DiskPressure\"}":{".":{},"f:lastHeartbeatTime":{},)j"
    R"j("f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},)j"
    R"j("f:type":{}},"k:{\"type\":\"MemoryPressure\"}":{".":{},"f:lastHeartbeatTime":{},)j"
    R"j("f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},)j"
    R"j("f:type":{}},"k:{\"type\":\"PIDPressure\"}":{".":{},"f:lastHeartbeatTime":{},)j"
    R"j("f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},)j"
    R"j("f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},"f:lastHeartbeatTime":{},)j"
    R"j("f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},)j"
    R"j("f:type":{}}},"f:config":{},"f:daemonEndpoints":{"f:kubeletEndpoint":{"f:Port":{}}},)j"
    R"j("f:features":{".":{},"f:supplementalGroupsPolicy":{}},"f:images":{},)j"
    R"j("f:nodeInfo":{"f:architecture":{},"f:bootID":{},"f:containerRuntimeVersion":{},)j"
    R"j("f:kernelVersion":{},"f:kubeletVersion":{},"f:machineID":{},)j"
    R"j("f:operatingSystem":{},"f:osImage":{},"f:swap":{},"f:systemUUID":{}},)j"
    R"j("f:runtimeHandlers":{}}},"subresource":"status"}]},"spec":{"podCIDR":"$CIDR$",)j"
    R"j("podCIDRs":["$CIDR$"],"providerID":"gce://bench-project/$ZONE$/$NAME$"},)j"
    R"j("status":{"capacity":{"cpu":"4","ephemeral-storage":"101430960Ki",)j"
    R"j("hugepages-1Gi":"0","hugepages-2Mi":"0","memory":"32Gi","pods":"110"},)j"
    R"j("allocatable":{"cpu":"3920m","ephemeral-storage":"93478772582",)j"
    R"j("hugepages-1Gi":"0","hugepages-2Mi":"0","memory":"31952Mi","pods":"110"},)j"
    R"j("conditions":[{"type":"MemoryPressure","status":"False","lastHeartbeatTime":"$HEARTBEA)j"
    R"j(T$","lastTransitionTime":"$CREATED$","reason":"KubeletHasSufficientMemory",)j"
    R"j("message":"kubelet has sufficient memory available"},{"type":"DiskPressure",)j"
    R"j("status":"False","lastHeartbeatTime":"$HEARTBEAT$","lastTransitionTime":"$CREATED$",)j"
    R"j("reason":"KubeletHasNoDiskPressure","message":"kubelet has no disk pressure"},)j"
    R"j({"type":"PIDPressure","status":"False","lastHeartbeatTime":"$HEARTBEAT$",)j"
    R"j("lastTransitionTime":"$CREATED$","reason":"KubeletHasSufficientPID",)j"
    R"j("message":"kubelet has sufficient PID available"},{"type":"Ready",)j"
    R"j("status":"True","lastHeartbeatTime":"$HEARTBEAT$","lastTransitionTime":"$CREATED$",)j"
    R"j("reason":"KubeletReady","message":"kubelet is posting ready status"}],)j"
    R"j("addresses":[{"type":"InternalIP","address":"$IP$"},{"type":"Hostname",)j"
    R"j("address":"$NAME$"}],"daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},)j"
    R"j("nodeInfo":{"machineID":"$MACHINE$","systemUUID":"$SYSUUID$",)j"
    R"j("bootID":"$BOOT$","kernelVersion":"6.1.0-28-cloud-amd64","osImage":"Debian GNU/Linux 1)j"
    R"j(2 (bookworm)","containerRuntimeVersion":"containerd://1.7.24",)j"
    R"j("kubeletVersion":"v1.34.4","kubeProxyVersion":"","operatingSystem":"linux",)j"
    R"j("architecture":"amd64","swap":{}},"images":[{"names":["registry.k8s.io/etcd@sha256:c6a)j"
    R"j(9d11cc5c04b114ccdef39a9265eeef818e3d02f5359be035ae784097fdec5",)j"
    R"j("registry.k8s.io/etcd:3.6.4-0"],"sizeBytes":74311308},{"names":["docker.io/kindest/kin)j"
    R"j(dnetd@sha256:07a4b3fe0077a0ae606cc0a200fc25a28fa64dcc30b8d311b461089969449f9a",)j"
    R"j("docker.io/kindest/kindnetd:v20250512-df8de77b"],"sizeBytes":44375501},)j"
    R"j({"names":["registry.k8s.io/kube-proxy@sha256:913cc83ca0b5588a81d86ce8eedeb3ed1e9c1326e)j"
    R"j(81852a1ea4f622b74ff749a","registry.k8s.io/kube-proxy:v1.34.4"],)j"
    R"j("sizeBytes":27637441},{"names":["registry.k8s.io/coredns/coredns@sha256:e8c262566636e6)j"
    R"j(bc340ece6473b0eed193cad045384401529721ddbe6463d31c","registry.k8s.io/coredns/coredns:v)j"
    R"j(1.12.1"],"sizeBytes":22384805},{"names":["registry.k8s.io/pause@sha256:ee6521f290b2168)j"
    R"j(b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a","registry.k8s.io/pause:3.10"],)j"
    R"j("sizeBytes":320368}],"runtimeHandlers":[{"name":"runc","features":{"recursiveReadOnlyM)j"
    R"j(ounts":true,"userNamespaces":true}},{"name":"","features":{"recursiveReadOnlyMounts":t)j"
    R"j(rue,"userNamespaces":true}}],"features":{"supplementalGroupsPolicy":true}}})j";

constexpr std::string_view kNamespace = "namespace-1";

// ---------------------------------------------------------------------------------------------
// Generation.

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "ksched_decode_bench: FAILED: %s\n", message.c_str());
  std::abort();
}

struct Var {
  std::string_view key;
  std::string value;
};

// Appends `text` with every $KEY$ replaced by its variable.
void Expand(std::string_view text, std::span<const Var> vars, std::string& out) {
  std::size_t pos = 0;
  for (;;) {
    const std::size_t open = text.find('$', pos);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find('$', open + 1);
    if (close == std::string_view::npos) Fail("unterminated template variable");
    out.append(text.substr(pos, open - pos));
    const std::string_view key = text.substr(open + 1, close - open - 1);
    const auto var = std::find_if(vars.begin(), vars.end(),
                                  [&](const Var& v) { return v.key == key; });
    if (var == vars.end()) Fail("no value for template variable " + std::string(key));
    out.append(var->value);
    pos = close + 1;
  }
  out.append(text.substr(pos));
}

// An object as a watch event line: list items carry no kind/apiVersion, watch objects do.
std::string WatchLine(std::string_view item, std::string_view kind) {
  std::string line = R"({"type":"ADDED","object":{"kind":")";
  line.append(kind);
  line.append(R"(","apiVersion":"v1",)");
  line.append(item.substr(1));  // item starts with '{'
  line.push_back('}');
  return line;
}

// A list response: {"kind":"PodList","apiVersion":"v1","metadata":{...},"items":[...]}.
std::string ListDocument(std::string_view kind, std::span<const std::string> items,
                         std::uint64_t resource_version, std::string_view continue_token = {}) {
  std::size_t size = 256;
  for (const std::string& item : items) size += item.size() + 1;
  std::string json;
  json.reserve(size);
  json.append(R"({"kind":")");
  json.append(kind);
  json.append(R"(","apiVersion":"v1","metadata":{"resourceVersion":")");
  json.append(std::to_string(resource_version));
  if (!continue_token.empty()) {
    json.append(R"(","continue":")");
    json.append(continue_token);
    json.append(R"(","remainingItemCount":)");
    json.append(std::to_string(items.size()));  // any count will do
    json.append("}");
  } else {
    json.append(R"("})");
  }
  json.append(R"(,"items":[)");
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) json.push_back(',');
    json.append(items[i]);
  }
  json.append("]}");
  return json;
}

// The pages a paginated LIST returns (client/reflector.h asks for kPageSize items at a time).
constexpr std::size_t kPageSize = 500;

std::vector<std::string> ListPages(std::string_view kind, std::span<const std::string> items,
                                   std::uint64_t resource_version) {
  std::vector<std::string> pages;
  for (std::size_t start = 0; start < items.size(); start += kPageSize) {
    const std::size_t end = std::min(items.size(), start + kPageSize);
    // A continue token is base64 of {"v":"meta.k8s.io/v1","rv":..,"start":".."}: about 90 bytes.
    const std::string token =
        end < items.size() ? "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6" + std::to_string(end) +
                                 "LCJzdGFydCI6Im5hbWVzcGFjZS0xL3BvZC14eHh4eFx1MDAwMCJ9"
                           : std::string();
    pages.push_back(
        ListDocument(kind, items.subspan(start, end - start), resource_version, token));
  }
  return pages;
}

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  std::string Hex(std::size_t digits) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out(digits, '0');
    for (char& c : out) c = kHex[engine_() & 15];
    return out;
  }
  // A version-4 UUID, as the API server assigns.
  std::string Uuid() {
    std::string u = Hex(8) + "-" + Hex(4) + "-4" + Hex(3) + "-";
    u.push_back("89ab"[engine_() & 3]);
    return u + Hex(3) + "-" + Hex(12);
  }

 private:
  std::mt19937_64 engine_;
};

// generateName's 5-character suffix (upstream utilrand.String's alphabet), unique per index: the
// index goes through a bijection of [0, 27^5) so that suffixes look random.
std::string NameSuffix(std::uint64_t index) {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  constexpr std::uint64_t kSpace = 27ULL * 27 * 27 * 27 * 27;
  std::uint64_t v = (index * 7368787ULL + 12345) % kSpace;  // 7368787 is coprime with 27
  std::string out(5, ' ');
  for (char& c : out) {
    c = kAlphabet[v % 27];
    v /= 27;
  }
  return out;
}

std::string NodeName(std::size_t index) { return "scheduler-perf-" + NameSuffix(index + 1000003); }

// RFC 3339, second precision, as metav1.Time.
std::string Timestamp(std::int64_t unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

constexpr std::int64_t kBaseTime = 1795932000;  // 2026-11-30T06:00:00Z

std::string Octets(std::size_t a, std::size_t b, std::size_t c, std::size_t d) {
  return std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c) + "." +
         std::to_string(d);
}

enum class PodShape { kPerf, kCluster };

struct Dataset {
  std::string kind;                 // "Pod" or "Node"
  std::vector<std::string> names;   // metadata.name of each object, in order
  std::vector<std::string> nodes;   // pods: spec.nodeName of each
  std::string list;                 // the list document
  std::vector<std::string> pages;   // the same list in pages of kPageSize items
  std::vector<std::string> events;  // one watch line per object
  std::size_t item_bytes = 0;       // sum of the items' sizes
};

Dataset MakePods(PodShape shape, std::size_t count, std::size_t node_count) {
  Random random(shape == PodShape::kPerf ? 1 : 2);
  Dataset data;
  data.kind = "Pod";
  std::vector<std::string> items;
  items.reserve(count);
  std::vector<Var> vars;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t node = i % node_count;
    const std::size_t slot = i / node_count;
    const std::int64_t created = kBaseTime + static_cast<std::int64_t>(i / 50);
    data.names.push_back("pod-" + NameSuffix(i));
    data.nodes.push_back(NodeName(node));
    vars = {{"NAME", data.names.back()},
            {"UID", random.Uuid()},
            {"RV", std::to_string(10000 + 2 * i)},
            {"CREATED", Timestamp(created)},
            {"SCHEDULED", Timestamp(created + 1)},
            {"READY", Timestamp(created + 3)},
            {"NODE", data.nodes.back()},
            {"VOL", NameSuffix(i * 31 + 7)},
            {"HOSTIP", Octets(10, 128 + node / 62500, node / 250 % 250, node % 250 + 2)},
            {"PODIP", Octets(10, 64 + node / 256, node % 256, slot % 250 + 2)},
            {"CID", random.Hex(64)}};
    std::string item;
    Expand(shape == PodShape::kPerf ? kPerfPodTemplate : kClusterPodTemplate, vars, item);
    data.item_bytes += item.size();
    data.events.push_back(WatchLine(item, "Pod"));
    items.push_back(std::move(item));
  }
  data.list = ListDocument("PodList", items, 10000 + 2 * count);
  data.pages = ListPages("PodList", items, 10000 + 2 * count);
  return data;
}

Dataset MakeNodes(std::size_t count) {
  static constexpr std::string_view kZones[] = {"us-central1-a", "us-central1-b", "us-central1-c"};
  Random random(3);
  Dataset data;
  data.kind = "Node";
  std::vector<std::string> items;
  items.reserve(count);
  std::vector<Var> vars;
  for (std::size_t i = 0; i < count; ++i) {
    const std::int64_t created = kBaseTime - 7200 + static_cast<std::int64_t>(i / 20);
    data.names.push_back(NodeName(i));
    vars = {{"NAME", data.names.back()},
            {"UID", random.Uuid()},
            {"RV", std::to_string(1000 + i)},
            {"CREATED", Timestamp(created)},
            {"HEARTBEAT", Timestamp(kBaseTime + 3000 + static_cast<std::int64_t>(i % 40))},
            {"ZONE", std::string(kZones[i % 3])},
            {"CIDR", Octets(10, 64 + i / 256, i % 256, 0) + "/24"},
            {"IP", Octets(10, 128 + i / 62500, i / 250 % 250, i % 250 + 2)},
            {"MACHINE", random.Hex(32)},
            {"SYSUUID", random.Uuid()},
            {"BOOT", random.Uuid()}};
    std::string item;
    Expand(kNodeTemplate, vars, item);
    data.item_bytes += item.size();
    data.events.push_back(WatchLine(item, "Node"));
    items.push_back(std::move(item));
  }
  data.list = ListDocument("NodeList", items, 1000 + count);
  data.pages = ListPages("NodeList", items, 1000 + count);
  return data;
}

// ---------------------------------------------------------------------------------------------
// Validation: every decoded object must be the one generated, with its resources.

volatile std::uint64_t g_sink = 0;  // keeps results observable

std::int64_t Milli(const api::ResourceList& list, std::string_view name) {
  const api::Quantity* q = list.Get(name);
  return q == nullptr ? -1 : q->MilliValue();
}

void CheckObject(const Pod& pod, const Dataset& data, std::size_t i) {
  if (pod.metadata.name != data.names[i] || pod.metadata.namespace_ != kNamespace ||
      pod.spec.node_name != data.nodes[i] || pod.spec.containers.size() != 1 ||
      pod.status.conditions.empty() || pod.metadata.uid.size() != 36) {
    Fail("pod " + std::to_string(i) + " (" + pod.metadata.name + ") decoded wrongly");
  }
  const api::ResourceRequirements& r = pod.spec.containers[0].resources;
  constexpr std::int64_t k500MiMilli = 500LL * 1024 * 1024 * 1000;
  if (Milli(r.requests, "cpu") != 100 || Milli(r.requests, "memory") != k500MiMilli ||
      Milli(r.limits, "cpu") != 100) {
    Fail("pod " + std::to_string(i) + " resources decoded wrongly");
  }
  g_sink = g_sink + pod.metadata.resource_version.size() + pod.spec.tolerations.size();
}

void CheckObject(const Node& node, const Dataset& data, std::size_t i) {
  if (node.metadata.name != data.names[i] || node.status.images.size() != 5 ||
      node.status.conditions.size() != 4 || node.metadata.labels.size() != 8 ||
      Milli(node.status.capacity, "cpu") != 4000 || Milli(node.status.allocatable, "cpu") != 3920 ||
      Milli(node.status.capacity, "pods") != 110000) {
    Fail("node " + std::to_string(i) + " (" + node.metadata.name + ") decoded wrongly");
  }
  g_sink = g_sink + node.metadata.resource_version.size() + node.status.images[0].names.size();
}

template <typename T>
void CheckItems(const std::vector<T>& items, const Dataset& data) {
  if (items.size() != data.names.size()) {
    Fail("decoded " + std::to_string(items.size()) + " objects, expected " +
         std::to_string(data.names.size()));
  }
  for (std::size_t i = 0; i < items.size(); ++i) CheckObject(items[i], data, i);
}

template <typename T>
void CheckList(const absl::StatusOr<api::ObjectList<T>>& list, const Dataset& data) {
  if (!list.ok()) Fail("list decode: " + std::string(list.status().message()));
  CheckItems(list->items, data);
}

// ---------------------------------------------------------------------------------------------
// Throughput.

struct Throughput {
  std::string name;     // machine name, for --json
  std::string label;    // for the table
  std::size_t objects = 0;
  std::size_t bytes = 0;  // JSON bytes decoded per run
  double best_s = 0;      // wall time (steady_clock), best run
  double median_s = 0;    // wall time, median run
  double best_cpu_s = 0;  // the thread's CPU time, best run

  double MBps() const { return static_cast<double>(bytes) / best_s / 1e6; }
  double CpuMBps() const { return static_cast<double>(bytes) / best_cpu_s / 1e6; }
  double ObjectsPerSecond() const { return static_cast<double>(objects) / best_s; }
};

double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Sample {
  double wall_s;
  double cpu_s;
};

// Wall time by steady_clock; the thread's CPU time alongside it, which other processes on a shared
// machine disturb less.
class Stopwatch {
 public:
  Stopwatch() : wall_(Clock::now()), cpu_(ThreadCpuSeconds()) {}
  Sample Elapsed() const {
    const Clock::time_point wall = Clock::now();
    const double cpu = ThreadCpuSeconds();
    return {std::chrono::duration<double>(wall - wall_).count(), cpu - cpu_};
  }

 private:
  Clock::time_point wall_;
  double cpu_;
};

Throughput Summarize(std::string name, std::string label, std::size_t objects, std::size_t bytes,
                     const std::vector<Sample>& samples) {
  std::vector<double> wall;
  std::vector<double> cpu;
  for (const Sample& sample : samples) {
    wall.push_back(sample.wall_s);
    cpu.push_back(sample.cpu_s);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return Throughput{std::move(name), std::move(label), objects, bytes, wall.front(),
                    wall[wall.size() / 2], cpu.front()};
}

template <typename T>
Throughput BenchListInSitu(const Dataset& data, int runs, std::string name, std::string label) {
  std::vector<Sample> samples;
  for (int run = 0; run < runs; ++run) {
    std::string buffer(data.list);  // parsing in situ consumes the buffer
    const Stopwatch stopwatch;
    absl::StatusOr<api::ObjectList<T>> list = api::DecodeListInSitu<T>(buffer);
    samples.push_back(stopwatch.Elapsed());
    CheckList(list, data);
  }  // the list is destroyed outside the timed region
  return Summarize(std::move(name), std::move(label), data.names.size(), data.list.size(),
                   samples);
}

template <typename T>
Throughput BenchListCopying(const Dataset& data, int runs, std::string name, std::string label) {
  std::vector<Sample> samples;
  for (int run = 0; run < runs; ++run) {
    const Stopwatch stopwatch;
    absl::StatusOr<api::ObjectList<T>> list = api::DecodeList<T>(std::string_view(data.list));
    samples.push_back(stopwatch.Elapsed());
    CheckList(list, data);
  }
  return Summarize(std::move(name), std::move(label), data.names.size(), data.list.size(),
                   samples);
}

// The reflector's way: pages of kPageSize items, each decoded in situ, the items moved into one
// vector (client/reflector.cc ListAndReplace).
template <typename T>
Throughput BenchPagesInSitu(const Dataset& data, int runs, std::string name, std::string label) {
  std::size_t bytes = 0;
  for (const std::string& page : data.pages) bytes += page.size();
  std::vector<Sample> samples;
  for (int run = 0; run < runs; ++run) {
    std::vector<std::string> pages(data.pages);  // consumed by in-situ parsing
    std::vector<T> items;
    const Stopwatch stopwatch;
    for (std::string& page : pages) {
      absl::StatusOr<api::ObjectList<T>> list = api::DecodeListInSitu<T>(page);
      if (!list.ok()) Fail("page decode: " + std::string(list.status().message()));
      for (T& item : list->items) items.push_back(std::move(item));
    }
    samples.push_back(stopwatch.Elapsed());
    CheckItems(items, data);
  }
  return Summarize(std::move(name), std::move(label), data.names.size(), bytes, samples);
}

// RapidJSON's DOM parse alone (in situ, the decoder's flags), to split parse from decode time.
Throughput BenchParseOnly(const Dataset& data, int runs, std::string name, std::string label) {
  std::vector<Sample> samples;
  for (int run = 0; run < runs; ++run) {
    std::string buffer(data.list);
    rapidjson::Document document;
    const Stopwatch stopwatch;
    const absl::Status status = api::ParseJsonInSitu(buffer, document);
    samples.push_back(stopwatch.Elapsed());
    if (!status.ok()) Fail("parse: " + std::string(status.message()));
    const auto items = document.FindMember("items");
    if (items == document.MemberEnd() || !items->value.IsArray() ||
        items->value.Size() != data.names.size()) {
      Fail("parse: wrong item count");
    }
    g_sink = g_sink + items->value.Size();
  }
  return Summarize(std::move(name), std::move(label), data.names.size(), data.list.size(),
                   samples);
}

template <typename T>
Throughput BenchWatch(const Dataset& data, int runs, std::string name, std::string label) {
  std::size_t bytes = 0;
  for (const std::string& line : data.events) bytes += line.size();
  std::vector<Sample> samples;
  for (int run = 0; run < runs; ++run) {
    std::vector<std::string> lines(data.events);  // consumed by in-situ parsing
    std::vector<api::WatchEvent<T>> events;
    events.reserve(lines.size());
    const Stopwatch stopwatch;
    for (std::string& line : lines) {
      absl::StatusOr<api::WatchEvent<T>> event = api::DecodeWatchEventInSitu<T>(line);
      if (!event.ok()) Fail("watch event decode: " + std::string(event.status().message()));
      events.push_back(std::move(*event));
    }
    samples.push_back(stopwatch.Elapsed());
    std::vector<T> objects;
    objects.reserve(events.size());
    for (api::WatchEvent<T>& event : events) {
      if (event.type != api::WatchEventType::kAdded) Fail("watch event: wrong type");
      objects.push_back(std::move(event.object));
    }
    CheckItems(objects, data);
  }
  return Summarize(std::move(name), std::move(label), data.names.size(), bytes, samples);
}

// ---------------------------------------------------------------------------------------------
// Bytes held.

struct Held {
  std::string name;
  std::string label;
  std::size_t objects = 0;
  std::size_t bytes = 0;

  double PerObject() const { return static_cast<double>(bytes) / static_cast<double>(objects); }
};

std::size_t HeapInUse() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

template <typename T>
std::string Key(const T& object) {  // client::ObjectKey
  if (object.metadata.namespace_.empty()) return object.metadata.name;
  return object.metadata.namespace_ + "/" + object.metadata.name;
}

template <typename T>
Held MeasureHeld(const Dataset& data, bool as_map, std::string name, std::string label) {
  std::string buffer(data.list);  // allocated before `before`, freed after `after`
  std::vector<T> items;
  std::map<std::string, T> store;
  const std::size_t before = HeapInUse();
  {
    absl::StatusOr<api::ObjectList<T>> list = api::DecodeListInSitu<T>(buffer);
    CheckList(list, data);
    items = std::move(list->items);
  }  // the list's metadata and the parser's memory are gone
  if (as_map) {
    for (T& item : items) {
      std::string key = Key(item);
      store.insert_or_assign(std::move(key), std::move(item));
    }
    std::vector<T>().swap(items);
    if (store.size() != data.names.size()) Fail("map holds the wrong number of objects");
  }
  const std::size_t after = HeapInUse();
  g_sink = g_sink + items.size() + store.size();
  if (after < before) Fail("heap shrank while holding objects");
  return Held{std::move(name), std::move(label), data.names.size(), after - before};
}

// ---------------------------------------------------------------------------------------------
// Output.

void PrintThroughput(const std::vector<Throughput>& rows) {
  std::printf("%-48s %7s %7s %8s %8s %10s %8s %8s\n", "decode, single thread, best of runs",
              "objects", "MB", "best ms", "MB/s", "objects/s", "med ms", "CPU MB/s");
  for (const Throughput& t : rows) {
    std::printf("%-48s %7zu %7.1f %8.1f %8.1f %10.0f %8.1f %8.1f\n", t.label.c_str(), t.objects,
                static_cast<double>(t.bytes) / 1e6, t.best_s * 1e3, t.MBps(), t.ObjectsPerSecond(),
                t.median_s * 1e3, t.CpuMBps());
  }
}

void PrintHeld(const std::vector<Held>& rows) {
  std::printf("%-48s %7s %12s %12s\n", "bytes held (mallinfo2 uordblks + hblkhd)", "objects",
              "total", "per object");
  for (const Held& h : rows) {
    std::printf("%-48s %7zu %12zu %12.0f\n", h.label.c_str(), h.objects, h.bytes, h.PerObject());
  }
}

using Facts = std::vector<std::pair<std::string, double>>;

bool WriteJson(const std::string& path, const Facts& facts,
               const std::vector<Throughput>& throughput, const std::vector<Held>& held) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fprintf(f, "{\n");
  for (const auto& [key, value] : facts) std::fprintf(f, "  \"%s\": %.10g,\n", key.c_str(), value);
  std::fprintf(f, "  \"throughput\": [\n");
  for (std::size_t i = 0; i < throughput.size(); ++i) {
    const Throughput& t = throughput[i];
    std::fprintf(f,
                 "    {\"name\": \"%s\", \"objects\": %zu, \"bytes\": %zu, \"best_seconds\": %.6f, "
                 "\"median_seconds\": %.6f, \"best_cpu_seconds\": %.6f, \"mb_per_s\": %.1f, "
                 "\"cpu_mb_per_s\": %.1f, \"objects_per_s\": %.0f}%s\n",
                 t.name.c_str(), t.objects, t.bytes, t.best_s, t.median_s, t.best_cpu_s, t.MBps(),
                 t.CpuMBps(), t.ObjectsPerSecond(), i + 1 < throughput.size() ? "," : "");
  }
  std::fprintf(f, "  ],\n  \"bytes_held\": [\n");
  for (std::size_t i = 0; i < held.size(); ++i) {
    const Held& h = held[i];
    std::fprintf(f,
                 "    {\"name\": \"%s\", \"objects\": %zu, \"bytes\": %zu, "
                 "\"bytes_per_object\": %.1f}%s\n",
                 h.name.c_str(), h.objects, h.bytes, h.PerObject(), i + 1 < held.size() ? "," : "");
  }
  std::fprintf(f, "  ]\n}\n");
  return std::fclose(f) == 0;
}

struct Options {
  std::size_t pods = 20000;
  std::size_t nodes = 5000;
  int runs = 5;
  std::string json_path;
  std::string only;  // run only the measures whose name contains this
};

[[noreturn]] void Usage(int status) {
  std::fprintf(status == 0 ? stdout : stderr,
               "usage: ksched_decode_bench [--pods N] [--nodes N] [--runs R] [--json FILE] "
               "[--only TEXT]\n"
               "  --pods N     pods per pod dataset (default 20000)\n"
               "  --nodes N    nodes (default 5000)\n"
               "  --runs R     timed runs per throughput measure, best reported (default 5)\n"
               "  --json FILE  also write the figures as JSON to FILE\n"
               "  --only TEXT  run only the measures whose name contains TEXT (for profiling),\n"
               "               e.g. pod_perf.list_insitu; names are those of the JSON output\n");
  std::exit(status);
}

template <typename N>
N ParseNumber(std::string_view flag, std::string_view text) {
  N value{};
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size() || value <= 0) {
    std::fprintf(stderr, "ksched_decode_bench: %.*s needs a positive integer, got '%.*s'\n",
                 static_cast<int>(flag.size()), flag.data(), static_cast<int>(text.size()),
                 text.data());
    Usage(2);
  }
  return value;
}

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") Usage(0);
    if (i + 1 >= argc) {
      std::fprintf(stderr, "ksched_decode_bench: unknown or incomplete argument '%s'\n", argv[i]);
      Usage(2);
    }
    const std::string_view value = argv[++i];
    if (arg == "--pods") {
      options.pods = ParseNumber<std::size_t>(arg, value);
    } else if (arg == "--nodes") {
      options.nodes = ParseNumber<std::size_t>(arg, value);
    } else if (arg == "--runs") {
      options.runs = ParseNumber<int>(arg, value);
    } else if (arg == "--json") {
      options.json_path = std::string(value);
    } else if (arg == "--only") {
      options.only = std::string(value);
    } else {
      std::fprintf(stderr, "ksched_decode_bench: unknown argument '%s'\n", argv[i - 1]);
      Usage(2);
    }
  }
  return options;
}

// Runs the measures of one dataset, skipping those --only excludes.
template <typename T>
class Runner {
 public:
  Runner(const Options& options, std::vector<Throughput>& throughput, std::vector<Held>& held)
      : options_(options), throughput_(throughput), held_(held) {}

  bool Wanted(std::string_view id) const {
    if (options_.only.empty()) return true;
    for (const char* suffix : {".list_insitu", ".list_copying", ".pages_insitu",
                               ".list_parse_only", ".watch_insitu", ".vector", ".map"}) {
      if ((std::string(id) + suffix).find(options_.only) != std::string::npos) return true;
    }
    return false;
  }

  // `what` names the objects in labels, e.g. "20000 perf pods".
  void Run(const Dataset& data, const std::string& id, const std::string& what) {
    const std::string list = std::string(data.kind) + "List ";
    if (Selected(id + ".list_insitu")) {
      throughput_.push_back(BenchListInSitu<T>(data, options_.runs, id + ".list_insitu",
                                               list + what + ", in situ"));
    }
    if (Selected(id + ".list_parse_only")) {
      throughput_.push_back(BenchParseOnly(data, options_.runs, id + ".list_parse_only",
                                           "  its RapidJSON DOM parse alone, in situ"));
    }
    if (Selected(id + ".list_copying")) {
      throughput_.push_back(BenchListCopying<T>(data, options_.runs, id + ".list_copying",
                                                list + what + ", copying"));
    }
    if (Selected(id + ".pages_insitu")) {
      throughput_.push_back(BenchPagesInSitu<T>(data, options_.runs, id + ".pages_insitu",
                                                "  the same in pages of " +
                                                    std::to_string(kPageSize) + ", in situ"));
    }
    if (Selected(id + ".watch_insitu")) {
      throughput_.push_back(BenchWatch<T>(data, options_.runs, id + ".watch_insitu",
                                          "watch " + what + ", ADDED lines, in situ"));
    }
    if (Selected(id + ".vector")) {
      held_.push_back(MeasureHeld<T>(data, false, id + ".vector",
                                     "std::vector<" + data.kind + ">, " + what));
    }
    if (Selected(id + ".map")) {
      held_.push_back(MeasureHeld<T>(data, true, id + ".map",
                                     "std::map<key, " + data.kind + ">, " + what));
    }
  }

 private:
  bool Selected(const std::string& name) const {
    return options_.only.empty() || name.find(options_.only) != std::string::npos;
  }

  const Options& options_;
  std::vector<Throughput>& throughput_;
  std::vector<Held>& held_;
};

const Throughput* FindThroughput(const std::vector<Throughput>& rows, std::string_view name) {
  for (const Throughput& t : rows) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const Held* FindHeld(const std::vector<Held>& rows, std::string_view name) {
  for (const Held& h : rows) {
    if (h.name == name) return &h;
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  constexpr double kTargetMBps = 150;
  constexpr double kTargetBytesPerPod = 1024;

  std::vector<Throughput> throughput;
  std::vector<Held> held;
  Facts facts = {{"pods", static_cast<double>(options.pods)},
                 {"nodes", static_cast<double>(options.nodes)},
                 {"runs", options.runs}};

  // One dataset at a time, so that the memory figures are taken with one dataset resident.
  Runner<Pod> pod_runner(options, throughput, held);
  for (const PodShape shape : {PodShape::kPerf, PodShape::kCluster}) {
    const std::string id = shape == PodShape::kPerf ? "pod_perf" : "pod_cluster";
    if (!pod_runner.Wanted(id)) continue;
    const Dataset data = MakePods(shape, options.pods, options.nodes);
    const double per_item =
        static_cast<double>(data.item_bytes) / static_cast<double>(options.pods);
    facts.emplace_back(id + "_json_bytes", per_item);
    std::printf("%s: %zu pods, %.0f JSON bytes each, list %.1f MB\n", id.c_str(), options.pods,
                per_item, static_cast<double>(data.list.size()) / 1e6);
    pod_runner.Run(data, id,
                   std::to_string(options.pods) +
                       (shape == PodShape::kPerf ? " perf pods" : " cluster pods"));
  }
  Runner<Node> node_runner(options, throughput, held);
  if (node_runner.Wanted("node")) {
    const Dataset data = MakeNodes(options.nodes);
    const double per_item =
        static_cast<double>(data.item_bytes) / static_cast<double>(options.nodes);
    facts.emplace_back("node_json_bytes", per_item);
    std::printf("node: %zu nodes, %.0f JSON bytes each, list %.1f MB\n", options.nodes, per_item,
                static_cast<double>(data.list.size()) / 1e6);
    node_runner.Run(data, "node", std::to_string(options.nodes) + " nodes");
  }

  std::printf("\n");
  if (!throughput.empty()) {
    PrintThroughput(throughput);
    std::printf("(MB = 10^6 JSON bytes; med = median wall time; CPU MB/s from the thread's CPU "
                "time, best run)\n\n");
  }
  if (!held.empty()) {
    PrintHeld(held);
    std::printf("\n");
  }
  std::printf("sizeof: Pod %zu (ObjectMeta %zu, PodSpec %zu, PodStatus %zu), Container %zu, "
              "Quantity %zu, Node %zu\n",
              sizeof(Pod), sizeof(api::ObjectMeta), sizeof(api::PodSpec), sizeof(api::PodStatus),
              sizeof(api::Container), sizeof(api::Quantity), sizeof(Node));
  facts.emplace_back("sizeof_pod", static_cast<double>(sizeof(Pod)));
  facts.emplace_back("sizeof_node", static_cast<double>(sizeof(Node)));

  const Throughput* pod_list = FindThroughput(throughput, "pod_perf.list_insitu");
  const Held* perf_pod = FindHeld(held, "pod_perf.vector");
  if (pod_list != nullptr || perf_pod != nullptr) std::printf("\ntargets (issue #3):\n");
  if (pod_list != nullptr) {
    // Per core: when other processes share the CPU the wall time inflates, the CPU time much less.
    const char* verdict = pod_list->MBps() >= kTargetMBps      ? "met"
                          : pod_list->CpuMBps() >= kTargetMBps ? "met by CPU time only"
                                                               : "MISSED";
    std::printf("  PodList decode (perf pods, in situ) >= %.0f MB/s: %7.1f MB/s (CPU %.1f)  %s\n",
                kTargetMBps, pod_list->MBps(), pod_list->CpuMBps(), verdict);
    if (pod_list->best_s > 1.5 * pod_list->best_cpu_s) {
      std::printf("    (wall time %.1fx the CPU time: the machine was busy; see the CPU figure)\n",
                  pod_list->best_s / pod_list->best_cpu_s);
    }
  }
  if (perf_pod != nullptr) {
    std::printf("  held per cached perf pod <= %.0f bytes:         %7.0f bytes         %s\n",
                kTargetBytesPerPod, perf_pod->PerObject(),
                perf_pod->PerObject() <= kTargetBytesPerPod ? "met" : "MISSED");
  }

  if (!options.json_path.empty()) {
    facts.emplace_back("target_pod_list_mb_per_s", kTargetMBps);
    facts.emplace_back("target_bytes_per_cached_pod", kTargetBytesPerPod);
    if (!WriteJson(options.json_path, facts, throughput, held)) {
      std::fprintf(stderr, "ksched_decode_bench: cannot write %s\n", options.json_path.c_str());
      return 1;
    }
    std::printf("\nwrote %s\n", options.json_path.c_str());
  }
  return 0;
}
