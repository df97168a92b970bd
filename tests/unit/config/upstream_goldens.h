// Outputs of upstream kube-scheduler v1.34.4's own code (cmd/kube-scheduler/app/options
// LoadConfigFromFile, the v1 YAML encoder used by --write-config-to, and json.Marshal of the
// internal configuration as /configz serves it) for the inputs below, captured with a small Go
// program built against k8s.io/kubernetes v1.34.4. The tests compare this project's output with
// them byte for byte.
#pragma once

#include <string_view>

namespace ksched::config::testing {

inline constexpr std::string_view kEmptyInput = R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
)golden";

inline constexpr std::string_view kEmptyYaml = R"golden(apiVersion: kubescheduler.config.k8s.io/v1
clientConnection:
  acceptContentTypes: ""
  burst: 100
  contentType: application/vnd.kubernetes.protobuf
  kubeconfig: ""
  qps: 50
enableContentionProfiling: true
enableProfiling: true
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  resourceLock: leases
  resourceName: kube-scheduler
  resourceNamespace: kube-system
  retryPeriod: 2s
parallelism: 16
percentageOfNodesToScore: 0
podInitialBackoffSeconds: 1
podMaxBackoffSeconds: 10
profiles:
- pluginConfig:
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesAbsolute: 100
      minCandidateNodesPercentage: 10
    name: DefaultPreemption
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      filterTimeout: 10s
      kind: DynamicResourcesArgs
    name: DynamicResources
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      hardPodAffinityWeight: 1
      ignorePreferredTermsOfExistingPods: false
      kind: InterPodAffinityArgs
    name: InterPodAffinity
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeAffinityArgs
    name: NodeAffinity
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesBalancedAllocationArgs
      resources:
      - name: cpu
        weight: 1
      - name: memory
        weight: 1
    name: NodeResourcesBalancedAllocation
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesFitArgs
      scoringStrategy:
        resources:
        - name: cpu
          weight: 1
        - name: memory
          weight: 1
        type: LeastAllocated
    name: NodeResourcesFit
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      defaultingType: System
      kind: PodTopologySpreadArgs
    name: PodTopologySpread
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      bindTimeoutSeconds: 600
      kind: VolumeBindingArgs
    name: VolumeBinding
  plugins:
    bind: {}
    filter: {}
    multiPoint:
      enabled:
      - name: SchedulingGates
        weight: 0
      - name: PrioritySort
        weight: 0
      - name: NodeUnschedulable
        weight: 0
      - name: NodeName
        weight: 0
      - name: TaintToleration
        weight: 3
      - name: NodeAffinity
        weight: 2
      - name: NodePorts
        weight: 0
      - name: NodeResourcesFit
        weight: 1
      - name: VolumeRestrictions
        weight: 0
      - name: NodeVolumeLimits
        weight: 0
      - name: VolumeBinding
        weight: 0
      - name: VolumeZone
        weight: 0
      - name: PodTopologySpread
        weight: 2
      - name: InterPodAffinity
        weight: 2
      - name: DynamicResources
        weight: 0
      - name: DefaultPreemption
        weight: 0
      - name: NodeResourcesBalancedAllocation
        weight: 1
      - name: ImageLocality
        weight: 1
      - name: DefaultBinder
        weight: 0
    permit: {}
    postBind: {}
    postFilter: {}
    preBind: {}
    preEnqueue: {}
    preFilter: {}
    preScore: {}
    queueSort: {}
    reserve: {}
    score: {}
  schedulerName: default-scheduler
)golden";

inline constexpr std::string_view kEmptyConfigz = R"golden({"componentconfig":{"apiVersion":"kubescheduler.config.k8s.io/v1","Parallelism":16,"LeaderElection":{"LeaderElect":true,"LeaseDuration":"15s","RenewDeadline":"10s","RetryPeriod":"2s","ResourceLock":"leases","ResourceName":"kube-scheduler","ResourceNamespace":"kube-system"},"ClientConnection":{"Kubeconfig":"","AcceptContentTypes":"","ContentType":"application/vnd.kubernetes.protobuf","QPS":50,"Burst":100},"EnableProfiling":true,"EnableContentionProfiling":true,"PercentageOfNodesToScore":0,"PodInitialBackoffSeconds":1,"PodMaxBackoffSeconds":10,"Profiles":[{"SchedulerName":"default-scheduler","PercentageOfNodesToScore":null,"Plugins":{"PreEnqueue":{"Enabled":null,"Disabled":null},"QueueSort":{"Enabled":null,"Disabled":null},"PreFilter":{"Enabled":null,"Disabled":null},"Filter":{"Enabled":null,"Disabled":null},"PostFilter":{"Enabled":null,"Disabled":null},"PreScore":{"Enabled":null,"Disabled":null},"Score":{"Enabled":null,"Disabled":null},"Reserve":{"Enabled":null,"Disabled":null},"Permit":{"Enabled":null,"Disabled":null},"PreBind":{"Enabled":null,"Disabled":null},"Bind":{"Enabled":null,"Disabled":null},"PostBind":{"Enabled":null,"Disabled":null},"MultiPoint":{"Enabled":[{"Name":"SchedulingGates","Weight":0},{"Name":"PrioritySort","Weight":0},{"Name":"NodeUnschedulable","Weight":0},{"Name":"NodeName","Weight":0},{"Name":"TaintToleration","Weight":3},{"Name":"NodeAffinity","Weight":2},{"Name":"NodePorts","Weight":0},{"Name":"NodeResourcesFit","Weight":1},{"Name":"VolumeRestrictions","Weight":0},{"Name":"NodeVolumeLimits","Weight":0},{"Name":"VolumeBinding","Weight":0},{"Name":"VolumeZone","Weight":0},{"Name":"PodTopologySpread","Weight":2},{"Name":"InterPodAffinity","Weight":2},{"Name":"DynamicResources","Weight":0},{"Name":"DefaultPreemption","Weight":0},{"Name":"NodeResourcesBalancedAllocation","Weight":1},{"Name":"ImageLocality","Weight":1},{"Name":"DefaultBinder","Weight":0}],"Disabled":null}},"PluginConfig":[{"Name":"DefaultPreemption","Args":{"MinCandidateNodesPercentage":10,"MinCandidateNodesAbsolute":100}},{"Name":"DynamicResources","Args":{"FilterTimeout":"10s"}},{"Name":"InterPodAffinity","Args":{"HardPodAffinityWeight":1,"IgnorePreferredTermsOfExistingPods":false}},{"Name":"NodeAffinity","Args":{"AddedAffinity":null}},{"Name":"NodeResourcesBalancedAllocation","Args":{"Resources":[{"Name":"cpu","Weight":1},{"Name":"memory","Weight":1}]}},{"Name":"NodeResourcesFit","Args":{"IgnoredResources":null,"IgnoredResourceGroups":null,"ScoringStrategy":{"Type":"LeastAllocated","Resources":[{"Name":"cpu","Weight":1},{"Name":"memory","Weight":1}],"RequestedToCapacityRatio":null}}},{"Name":"PodTopologySpread","Args":{"DefaultConstraints":null,"DefaultingType":"System"}},{"Name":"VolumeBinding","Args":{"BindTimeoutSeconds":600,"Shape":null}}]}],"Extenders":null,"DelayCacheUntilActive":false}})golden";

inline constexpr std::string_view kOutOfTreeInput = R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  qps: 5.5
  kubeconfig: "yes"
leaderElection:
  leaderElect: false
  leaseDuration: 1m30s
  renewDeadline: 1h0m0.5s
  retryPeriod: 1500ms
extenders:
- urlPrefix: "http://127.0.0.1:8888/"
  filterVerb: filter
  prioritizeVerb: prioritize
  weight: 1
  enableHTTPS: true
  httpTimeout: 30s
  tlsConfig:
    insecure: true
    certData: aGVsbG8=
  managedResources:
  - name: example.com/foo
    ignoredByScheduler: true
profiles:
- schedulerName: custom-scheduler
  plugins:
    score:
      enabled:
      - name: "cputraffic"
        weight: 3
      - name: "memorytraffic"
        weight: 4
      disabled:
      - name: "*"
    multiPoint:
      enabled:
      - name: NodeAffinity
        weight: 5
      - name: Foo
      disabled:
      - name: ImageLocality
  pluginConfig:
  - name: "networktraffic"
    args:
      ip: "http://172.19.32.140:9090"
      devicename: "eth0"
      timerange: 60
      z: [1, "2", true, null, 1.5, {b: 1, a: 2}]
      "on": yes
  - name: Empty
  - name: Null
    args:
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - key: foo
              operator: In
              values: ["bar"]
        preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 2
          preference:
            matchFields:
            - key: metadata.name
              operator: NotIn
              values: ["x"]
)golden";

inline constexpr std::string_view kOutOfTreeYaml = R"golden(apiVersion: kubescheduler.config.k8s.io/v1
clientConnection:
  acceptContentTypes: ""
  burst: 100
  contentType: application/vnd.kubernetes.protobuf
  kubeconfig: "yes"
  qps: 5.5
enableContentionProfiling: true
enableProfiling: true
extenders:
- enableHTTPS: true
  filterVerb: filter
  httpTimeout: 30s
  managedResources:
  - ignoredByScheduler: true
    name: example.com/foo
  prioritizeVerb: prioritize
  tlsConfig:
    certData: aGVsbG8=
    insecure: true
  urlPrefix: http://127.0.0.1:8888/
  weight: 1
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: false
  leaseDuration: 1m30s
  renewDeadline: 1h0m0.5s
  resourceLock: leases
  resourceName: kube-scheduler
  resourceNamespace: kube-system
  retryPeriod: 1.5s
parallelism: 16
percentageOfNodesToScore: 0
podInitialBackoffSeconds: 1
podMaxBackoffSeconds: 10
profiles:
- pluginConfig:
  - args:
      devicename: eth0
      ip: http://172.19.32.140:9090
      "on": true
      timerange: 60
      z:
      - 1
      - "2"
      - true
      - null
      - 1.5
      - a: 2
        b: 1
    name: networktraffic
  - args: null
    name: Empty
  - args: null
    name: ""
  - args:
      addedAffinity:
        preferredDuringSchedulingIgnoredDuringExecution:
        - preference:
            matchFields:
            - key: metadata.name
              operator: NotIn
              values:
              - x
          weight: 2
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - key: foo
              operator: In
              values:
              - bar
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeAffinityArgs
    name: NodeAffinity
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesAbsolute: 100
      minCandidateNodesPercentage: 10
    name: DefaultPreemption
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      filterTimeout: 10s
      kind: DynamicResourcesArgs
    name: DynamicResources
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      hardPodAffinityWeight: 1
      ignorePreferredTermsOfExistingPods: false
      kind: InterPodAffinityArgs
    name: InterPodAffinity
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesBalancedAllocationArgs
      resources:
      - name: cpu
        weight: 1
      - name: memory
        weight: 1
    name: NodeResourcesBalancedAllocation
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesFitArgs
      scoringStrategy:
        resources:
        - name: cpu
          weight: 1
        - name: memory
          weight: 1
        type: LeastAllocated
    name: NodeResourcesFit
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      defaultingType: System
      kind: PodTopologySpreadArgs
    name: PodTopologySpread
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      bindTimeoutSeconds: 600
      kind: VolumeBindingArgs
    name: VolumeBinding
  plugins:
    bind: {}
    filter: {}
    multiPoint:
      disabled:
      - name: ImageLocality
        weight: 0
      enabled:
      - name: SchedulingGates
        weight: 0
      - name: PrioritySort
        weight: 0
      - name: NodeUnschedulable
        weight: 0
      - name: NodeName
        weight: 0
      - name: TaintToleration
        weight: 3
      - name: NodeAffinity
        weight: 5
      - name: NodePorts
        weight: 0
      - name: NodeResourcesFit
        weight: 1
      - name: VolumeRestrictions
        weight: 0
      - name: NodeVolumeLimits
        weight: 0
      - name: VolumeBinding
        weight: 0
      - name: VolumeZone
        weight: 0
      - name: PodTopologySpread
        weight: 2
      - name: InterPodAffinity
        weight: 2
      - name: DynamicResources
        weight: 0
      - name: DefaultPreemption
        weight: 0
      - name: NodeResourcesBalancedAllocation
        weight: 1
      - name: DefaultBinder
        weight: 0
      - name: Foo
        weight: 0
    permit: {}
    postBind: {}
    postFilter: {}
    preBind: {}
    preEnqueue: {}
    preFilter: {}
    preScore: {}
    queueSort: {}
    reserve: {}
    score:
      disabled:
      - name: '*'
        weight: 0
      enabled:
      - name: cputraffic
        weight: 3
      - name: memorytraffic
        weight: 4
  schedulerName: custom-scheduler
)golden";

inline constexpr std::string_view kOutOfTreeConfigz = R"golden({"componentconfig":{"apiVersion":"kubescheduler.config.k8s.io/v1","Parallelism":16,"LeaderElection":{"LeaderElect":false,"LeaseDuration":"1m30s","RenewDeadline":"1h0m0.5s","RetryPeriod":"1.5s","ResourceLock":"leases","ResourceName":"kube-scheduler","ResourceNamespace":"kube-system"},"ClientConnection":{"Kubeconfig":"yes","AcceptContentTypes":"","ContentType":"application/vnd.kubernetes.protobuf","QPS":5.5,"Burst":100},"EnableProfiling":true,"EnableContentionProfiling":true,"PercentageOfNodesToScore":0,"PodInitialBackoffSeconds":1,"PodMaxBackoffSeconds":10,"Profiles":[{"SchedulerName":"custom-scheduler","PercentageOfNodesToScore":null,"Plugins":{"PreEnqueue":{"Enabled":null,"Disabled":null},"QueueSort":{"Enabled":null,"Disabled":null},"PreFilter":{"Enabled":null,"Disabled":null},"Filter":{"Enabled":null,"Disabled":null},"PostFilter":{"Enabled":null,"Disabled":null},"PreScore":{"Enabled":null,"Disabled":null},"Score":{"Enabled":[{"Name":"cputraffic","Weight":3},{"Name":"memorytraffic","Weight":4}],"Disabled":[{"Name":"*","Weight":0}]},"Reserve":{"Enabled":null,"Disabled":null},"Permit":{"Enabled":null,"Disabled":null},"PreBind":{"Enabled":null,"Disabled":null},"Bind":{"Enabled":null,"Disabled":null},"PostBind":{"Enabled":null,"Disabled":null},"MultiPoint":{"Enabled":[{"Name":"SchedulingGates","Weight":0},{"Name":"PrioritySort","Weight":0},{"Name":"NodeUnschedulable","Weight":0},{"Name":"NodeName","Weight":0},{"Name":"TaintToleration","Weight":3},{"Name":"NodeAffinity","Weight":5},{"Name":"NodePorts","Weight":0},{"Name":"NodeResourcesFit","Weight":1},{"Name":"VolumeRestrictions","Weight":0},{"Name":"NodeVolumeLimits","Weight":0},{"Name":"VolumeBinding","Weight":0},{"Name":"VolumeZone","Weight":0},{"Name":"PodTopologySpread","Weight":2},{"Name":"InterPodAffinity","Weight":2},{"Name":"DynamicResources","Weight":0},{"Name":"DefaultPreemption","Weight":0},{"Name":"NodeResourcesBalancedAllocation","Weight":1},{"Name":"DefaultBinder","Weight":0},{"Name":"Foo","Weight":0}],"Disabled":[{"Name":"ImageLocality","Weight":0}]}},"PluginConfig":[{"Name":"networktraffic","Args":{"devicename":"eth0","ip":"http://172.19.32.140:9090","on":true,"timerange":60,"z":[1,"2",true,null,1.5,{"a":2,"b":1}]}},{"Name":"Empty","Args":null},{"Name":"","Args":null},{"Name":"NodeAffinity","Args":{"AddedAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"foo","operator":"In","values":["bar"]}]}]},"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":2,"preference":{"matchFields":[{"key":"metadata.name","operator":"NotIn","values":["x"]}]}}]}}},{"Name":"DefaultPreemption","Args":{"MinCandidateNodesPercentage":10,"MinCandidateNodesAbsolute":100}},{"Name":"DynamicResources","Args":{"FilterTimeout":"10s"}},{"Name":"InterPodAffinity","Args":{"HardPodAffinityWeight":1,"IgnorePreferredTermsOfExistingPods":false}},{"Name":"NodeResourcesBalancedAllocation","Args":{"Resources":[{"Name":"cpu","Weight":1},{"Name":"memory","Weight":1}]}},{"Name":"NodeResourcesFit","Args":{"IgnoredResources":null,"IgnoredResourceGroups":null,"ScoringStrategy":{"Type":"LeastAllocated","Resources":[{"Name":"cpu","Weight":1},{"Name":"memory","Weight":1}],"RequestedToCapacityRatio":null}}},{"Name":"PodTopologySpread","Args":{"DefaultConstraints":null,"DefaultingType":"System"}},{"Name":"VolumeBinding","Args":{"BindTimeoutSeconds":600,"Shape":null}}]}],"Extenders":[{"URLPrefix":"http://127.0.0.1:8888/","FilterVerb":"filter","PreemptVerb":"","PrioritizeVerb":"prioritize","Weight":1,"BindVerb":"","EnableHTTPS":true,"TLSConfig":{"Insecure":true,"ServerName":"","CertFile":"","KeyFile":"","CAFile":"","CertData":"aGVsbG8=","KeyData":null,"CAData":null},"HTTPTimeout":"30s","NodeCacheCapable":false,"ManagedResources":[{"Name":"example.com/foo","IgnoredByScheduler":true}],"Ignorable":false}],"DelayCacheUntilActive":false}})golden";

inline constexpr std::string_view kQuotingInput = R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: Q
    args:
      s: ["", " a", "a ", "*", "&a", "!a", "-", "- a", "-a", "a: b", "a:b", "a #b", "a#b", "#a", "10", "1.5", "1e3", "0x1F", "0o17", "017", "true", "y", "Y", "n", "NO", "off", "null", "~", "1:20", "@a", "`a", "%a", "a\nb", "'a'", "\"a\"", "[a]", "{a}", ",a", "?a", "? a", "|a", ">a", "a,b", "é", ".inf", "-.inf", ".nan", "2001-12-14", "=", "<<", "a\tb", "1_000", "+1", ".5", "5.", "-", "a'b", "tab\t", "\u00e9t\u00e9"]
      f: [0.1, 1e21, 1e20, 1e-7, 100000000000000000000000, -0.0, 3.0, 12345678.9, .5, 1_000]
      i: [9223372036854775807, 9223372036854775808, -9223372036854775808, 0777, 0x10, 0b11, +5]
)golden";

inline constexpr std::string_view kQuotingYaml = R"golden(apiVersion: kubescheduler.config.k8s.io/v1
clientConnection:
  acceptContentTypes: ""
  burst: 100
  contentType: application/vnd.kubernetes.protobuf
  kubeconfig: ""
  qps: 50
enableContentionProfiling: true
enableProfiling: true
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  resourceLock: leases
  resourceName: kube-scheduler
  resourceNamespace: kube-system
  retryPeriod: 2s
parallelism: 16
percentageOfNodesToScore: 0
podInitialBackoffSeconds: 1
podMaxBackoffSeconds: 10
profiles:
- pluginConfig:
  - args:
      f:
      - 0.1
      - 1e+21
      - 1e+20
      - 1e-07
      - 1e+23
      - 0
      - 3
      - 1.23456789e+07
      - 0.5
      - 1000
      i:
      - 9223372036854775807
      - 9223372036854775808
      - -9223372036854775808
      - 511
      - 16
      - 3
      - 5
      s:
      - ""
      - ' a'
      - 'a '
      - '*'
      - '&a'
      - '!a'
      - '-'
      - '- a'
      - -a
      - 'a: b'
      - a:b
      - 'a #b'
      - a#b
      - '#a'
      - "10"
      - "1.5"
      - "1e3"
      - "0x1F"
      - "0o17"
      - "017"
      - "true"
      - "y"
      - "Y"
      - "n"
      - "NO"
      - "off"
      - "null"
      - "~"
      - "1:20"
      - '@a'
      - '`a'
      - '%a'
      - |-
        a
        b
      - '''a'''
      - '"a"'
      - '[a]'
      - '{a}'
      - ',a'
      - ?a
      - '? a'
      - '|a'
      - '>a'
      - a,b
      - é
      - ".inf"
      - "-.inf"
      - ".nan"
      - "2001-12-14"
      - =
      - <<
      - "a\tb"
      - "1_000"
      - "+1"
      - ".5"
      - "5."
      - '-'
      - a'b
      - "tab\t"
      - été
    name: Q
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesAbsolute: 100
      minCandidateNodesPercentage: 10
    name: DefaultPreemption
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      filterTimeout: 10s
      kind: DynamicResourcesArgs
    name: DynamicResources
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      hardPodAffinityWeight: 1
      ignorePreferredTermsOfExistingPods: false
      kind: InterPodAffinityArgs
    name: InterPodAffinity
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeAffinityArgs
    name: NodeAffinity
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesBalancedAllocationArgs
      resources:
      - name: cpu
        weight: 1
      - name: memory
        weight: 1
    name: NodeResourcesBalancedAllocation
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesFitArgs
      scoringStrategy:
        resources:
        - name: cpu
          weight: 1
        - name: memory
          weight: 1
        type: LeastAllocated
    name: NodeResourcesFit
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      defaultingType: System
      kind: PodTopologySpreadArgs
    name: PodTopologySpread
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      bindTimeoutSeconds: 600
      kind: VolumeBindingArgs
    name: VolumeBinding
  plugins:
    bind: {}
    filter: {}
    multiPoint:
      enabled:
      - name: SchedulingGates
        weight: 0
      - name: PrioritySort
        weight: 0
      - name: NodeUnschedulable
        weight: 0
      - name: NodeName
        weight: 0
      - name: TaintToleration
        weight: 3
      - name: NodeAffinity
        weight: 2
      - name: NodePorts
        weight: 0
      - name: NodeResourcesFit
        weight: 1
      - name: VolumeRestrictions
        weight: 0
      - name: NodeVolumeLimits
        weight: 0
      - name: VolumeBinding
        weight: 0
      - name: VolumeZone
        weight: 0
      - name: PodTopologySpread
        weight: 2
      - name: InterPodAffinity
        weight: 2
      - name: DynamicResources
        weight: 0
      - name: DefaultPreemption
        weight: 0
      - name: NodeResourcesBalancedAllocation
        weight: 1
      - name: ImageLocality
        weight: 1
      - name: DefaultBinder
        weight: 0
    permit: {}
    postBind: {}
    postFilter: {}
    preBind: {}
    preEnqueue: {}
    preFilter: {}
    preScore: {}
    queueSort: {}
    reserve: {}
    score: {}
  schedulerName: default-scheduler
)golden";

inline constexpr std::string_view kQuotingConfigz = R"golden({"componentconfig":{"apiVersion":"kubescheduler.config.k8s.io/v1","Parallelism":16,"LeaderElection":{"LeaderElect":true,"LeaseDuration":"15s","RenewDeadline":"10s","RetryPeriod":"2s","ResourceLock":"leases","ResourceName":"kube-scheduler","ResourceNamespace":"kube-system"},"ClientConnection":{"Kubeconfig":"","AcceptContentTypes":"","ContentType":"application/vnd.kubernetes.protobuf","QPS":50,"Burst":100},"EnableProfiling":true,"EnableContentionProfiling":true,"PercentageOfNodesToScore":0,"PodInitialBackoffSeconds":1,"PodMaxBackoffSeconds":10,"Profiles":[{"SchedulerName":"default-scheduler","PercentageOfNodesToScore":null,"Plugins":{"PreEnqueue":{"Enabled":null,"Disabled":null},"QueueSort":{"Enabled":null,"Disabled":null},"PreFilter":{"Enabled":null,"Disabled":null},"Filter":{"Enabled":null,"Disabled":null},"PostFilter":{"Enabled":null,"Disabled":null},"PreScore":{"Enabled":null,"Disabled":null},"Score":{"Enabled":null,"Disabled":null},"Reserve":{"Enabled":null,"Disabled":null},"Permit":{"Enabled":null,"Disabled":null},"PreBind":{"Enabled":null,"Disabled":null},"Bind":{"Enabled":null,"Disabled":null},"PostBind":{"Enabled":null,"Disabled":null},"MultiPoint":{"Enabled":[{"Name":"SchedulingGates","Weight":0},{"Name":"PrioritySort","Weight":0},{"Name":"NodeUnschedulable","Weight":0},{"Name":"NodeName","Weight":0},{"Name":"TaintToleration","Weight":3},{"Name":"NodeAffinity","Weight":2},{"Name":"NodePorts","Weight":0},{"Name":"NodeResourcesFit","Weight":1},{"Name":"VolumeRestrictions","Weight":0},{"Name":"NodeVolumeLimits","Weight":0},{"Name":"VolumeBinding","Weight":0},{"Name":"VolumeZone","Weight":0},{"Name":"PodTopologySpread","Weight":2},{"Name":"InterPodAffinity","Weight":2},{"Name":"DynamicResources","Weight":0},{"Name":"DefaultPreemption","Weight":0},{"Name":"NodeResourcesBalancedAllocation","Weight":1},{"Name":"ImageLocality","Weight":1},{"Name":"DefaultBinder","Weight":0}],"Disabled":null}},"PluginConfig":[{"Name":"Q","Args":{"f":[0.1,1e+21,100000000000000000000,1e-7,1e+23,-0,3,12345678.9,0.5,1000],"i":[9223372036854775807,9223372036854775808,-9223372036854775808,511,16,3,5],"s":[""," a","a ","*","\u0026a","!a","-","- a","-a","a: b","a:b","a #b","a#b","#a","10","1.5","1e3","0x1F","0o17","017","true","y","Y","n","NO","off","null","~","1:20","@a","`a","%a","a\nb","'a'","\"a\"","[a]","{a}",",a","?a","? a","|a","\u003ea","a,b","é",".inf","-.inf",".nan","2001-12-14","=","\u003c\u003c","a\tb","1_000","+1",".5","5.","-","a'b","tab\t","été"]}},{"Name":"DefaultPreemption","Args":{"MinCandidateNodesPercentage":10,"MinCandidateNodesAbsolute":100}},{"Name":"DynamicResources","Args":{"FilterTimeout":"10s"}},{"Name":"InterPodAffinity","Args":{"HardPodAffinityWeight":1,"IgnorePreferredTermsOfExistingPods":false}},{"Name":"NodeAffinity","Args":{"AddedAffinity":null}},{"Name":"NodeResourcesBalancedAllocation","Args":{"Resources":[{"Name":"cpu","Weight":1},{"Name":"memory","Weight":1}]}},{"Name":"NodeResourcesFit","Args":{"IgnoredResources":null,"IgnoredResourceGroups":null,"ScoringStrategy":{"Type":"LeastAllocated","Resources":[{"Name":"cpu","Weight":1},{"Name":"memory","Weight":1}],"RequestedToCapacityRatio":null}}},{"Name":"PodTopologySpread","Args":{"DefaultConstraints":null,"DefaultingType":"System"}},{"Name":"VolumeBinding","Args":{"BindTimeoutSeconds":600,"Shape":null}}]}],"Extenders":null,"DelayCacheUntilActive":false}})golden";

inline constexpr std::string_view kTypedArgsInput = R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: typed
  pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
        minDomains: 2
        nodeAffinityPolicy: Honor
        nodeTaintsPolicy: Ignore
        matchLabelKeys: [app]
      - maxSkew: 3
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: DoNotSchedule
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 0
      ignorePreferredTermsOfExistingPods: true
  - name: NodeResourcesFit
    args:
      ignoredResources: [example.com/a]
      ignoredResourceGroups: [example.com]
      scoringStrategy:
        type: RequestedToCapacityRatio
        resources:
        - name: cpu
          weight: 2
        - name: example.com/gpu
        requestedToCapacityRatio:
          shape:
          - utilization: 0
            score: 0
          - utilization: 100
            score: 10
  - name: NodeResourcesBalancedAllocation
    args:
      resources: []
  - name: VolumeBinding
    args:
      bindTimeoutSeconds: 30
  - name: DynamicResources
    args:
      filterTimeout: 1m30s
  - name: DefaultPreemption
    args:
      minCandidateNodesAbsolute: 0
)golden";

inline constexpr std::string_view kTypedArgsYaml = R"golden(apiVersion: kubescheduler.config.k8s.io/v1
clientConnection:
  acceptContentTypes: ""
  burst: 100
  contentType: application/vnd.kubernetes.protobuf
  kubeconfig: ""
  qps: 50
enableContentionProfiling: true
enableProfiling: true
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  resourceLock: leases
  resourceName: kube-scheduler
  resourceNamespace: kube-system
  retryPeriod: 2s
parallelism: 16
percentageOfNodesToScore: 0
podInitialBackoffSeconds: 1
podMaxBackoffSeconds: 10
profiles:
- pluginConfig:
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      defaultConstraints:
      - matchLabelKeys:
        - app
        maxSkew: 1
        minDomains: 2
        nodeAffinityPolicy: Honor
        nodeTaintsPolicy: Ignore
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
      - maxSkew: 3
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: DoNotSchedule
      defaultingType: List
      kind: PodTopologySpreadArgs
    name: PodTopologySpread
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      hardPodAffinityWeight: 0
      ignorePreferredTermsOfExistingPods: true
      kind: InterPodAffinityArgs
    name: InterPodAffinity
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      ignoredResourceGroups:
      - example.com
      ignoredResources:
      - example.com/a
      kind: NodeResourcesFitArgs
      scoringStrategy:
        requestedToCapacityRatio:
          shape:
          - score: 0
            utilization: 0
          - score: 10
            utilization: 100
        resources:
        - name: cpu
          weight: 2
        - name: example.com/gpu
          weight: 1
        type: RequestedToCapacityRatio
    name: NodeResourcesFit
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesBalancedAllocationArgs
      resources:
      - name: cpu
        weight: 1
      - name: memory
        weight: 1
    name: NodeResourcesBalancedAllocation
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      bindTimeoutSeconds: 30
      kind: VolumeBindingArgs
    name: VolumeBinding
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      filterTimeout: 1m30s
      kind: DynamicResourcesArgs
    name: DynamicResources
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesAbsolute: 0
      minCandidateNodesPercentage: 10
    name: DefaultPreemption
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeAffinityArgs
    name: NodeAffinity
  plugins:
    bind: {}
    filter: {}
    multiPoint:
      enabled:
      - name: SchedulingGates
        weight: 0
      - name: PrioritySort
        weight: 0
      - name: NodeUnschedulable
        weight: 0
      - name: NodeName
        weight: 0
      - name: TaintToleration
        weight: 3
      - name: NodeAffinity
        weight: 2
      - name: NodePorts
        weight: 0
      - name: NodeResourcesFit
        weight: 1
      - name: VolumeRestrictions
        weight: 0
      - name: NodeVolumeLimits
        weight: 0
      - name: VolumeBinding
        weight: 0
      - name: VolumeZone
        weight: 0
      - name: PodTopologySpread
        weight: 2
      - name: InterPodAffinity
        weight: 2
      - name: DynamicResources
        weight: 0
      - name: DefaultPreemption
        weight: 0
      - name: NodeResourcesBalancedAllocation
        weight: 1
      - name: ImageLocality
        weight: 1
      - name: DefaultBinder
        weight: 0
    permit: {}
    postBind: {}
    postFilter: {}
    preBind: {}
    preEnqueue: {}
    preFilter: {}
    preScore: {}
    queueSort: {}
    reserve: {}
    score: {}
  schedulerName: typed
)golden";

inline constexpr std::string_view kTypedArgsConfigz = R"golden({"componentconfig":{"apiVersion":"kubescheduler.config.k8s.io/v1","Parallelism":16,"LeaderElection":{"LeaderElect":true,"LeaseDuration":"15s","RenewDeadline":"10s","RetryPeriod":"2s","ResourceLock":"leases","ResourceName":"kube-scheduler","ResourceNamespace":"kube-system"},"ClientConnection":{"Kubeconfig":"","AcceptContentTypes":"","ContentType":"application/vnd.kubernetes.protobuf","QPS":50,"Burst":100},"EnableProfiling":true,"EnableContentionProfiling":true,"PercentageOfNodesToScore":0,"PodInitialBackoffSeconds":1,"PodMaxBackoffSeconds":10,"Profiles":[{"SchedulerName":"typed","PercentageOfNodesToScore":null,"Plugins":{"PreEnqueue":{"Enabled":null,"Disabled":null},"QueueSort":{"Enabled":null,"Disabled":null},"PreFilter":{"Enabled":null,"Disabled":null},"Filter":{"Enabled":null,"Disabled":null},"PostFilter":{"Enabled":null,"Disabled":null},"PreScore":{"Enabled":null,"Disabled":null},"Score":{"Enabled":null,"Disabled":null},"Reserve":{"Enabled":null,"Disabled":null},"Permit":{"Enabled":null,"Disabled":null},"PreBind":{"Enabled":null,"Disabled":null},"Bind":{"Enabled":null,"Disabled":null},"PostBind":{"Enabled":null,"Disabled":null},"MultiPoint":{"Enabled":[{"Name":"SchedulingGates","Weight":0},{"Name":"PrioritySort","Weight":0},{"Name":"NodeUnschedulable","Weight":0},{"Name":"NodeName","Weight":0},{"Name":"TaintToleration","Weight":3},{"Name":"NodeAffinity","Weight":2},{"Name":"NodePorts","Weight":0},{"Name":"NodeResourcesFit","Weight":1},{"Name":"VolumeRestrictions","Weight":0},{"Name":"NodeVolumeLimits","Weight":0},{"Name":"VolumeBinding","Weight":0},{"Name":"VolumeZone","Weight":0},{"Name":"PodTopologySpread","Weight":2},{"Name":"InterPodAffinity","Weight":2},{"Name":"DynamicResources","Weight":0},{"Name":"DefaultPreemption","Weight":0},{"Name":"NodeResourcesBalancedAllocation","Weight":1},{"Name":"ImageLocality","Weight":1},{"Name":"DefaultBinder","Weight":0}],"Disabled":null}},"PluginConfig":[{"Name":"PodTopologySpread","Args":{"DefaultConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"ScheduleAnyway","minDomains":2,"nodeAffinityPolicy":"Honor","nodeTaintsPolicy":"Ignore","matchLabelKeys":["app"]},{"maxSkew":3,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"DoNotSchedule"}],"DefaultingType":"List"}},{"Name":"InterPodAffinity","Args":{"HardPodAffinityWeight":0,"IgnorePreferredTermsOfExistingPods":true}},{"Name":"NodeResourcesFit","Args":{"IgnoredResources":["example.com/a"],"IgnoredResourceGroups":["example.com"],"ScoringStrategy":{"Type":"RequestedToCapacityRatio","Resources":[{"Name":"cpu","Weight":2},{"Name":"example.com/gpu","Weight":1}],"RequestedToCapacityRatio":{"Shape":[{"Utilization":0,"Score":0},{"Utilization":100,"Score":10}]}}}},{"Name":"NodeResourcesBalancedAllocation","Args":{"Resources":[{"Name":"cpu","Weight":1},{"Name":"memory","Weight":1}]}},{"Name":"VolumeBinding","Args":{"BindTimeoutSeconds":30,"Shape":null}},{"Name":"DynamicResources","Args":{"FilterTimeout":"1m30s"}},{"Name":"DefaultPreemption","Args":{"MinCandidateNodesPercentage":10,"MinCandidateNodesAbsolute":0}},{"Name":"NodeAffinity","Args":{"AddedAffinity":null}}]}],"Extenders":null,"DelayCacheUntilActive":false}})golden";


}  // namespace ksched::config::testing
