// Upstream kube-scheduler v1.34.4's verdict on each input below: the error LoadConfigFromFile or
// ValidateKubeSchedulerConfiguration returned (their text), or "" when the file loads and
// validates. Captured with a small Go program built against k8s.io/kubernetes v1.34.4
// (cmd/kube-scheduler/app/options.LoadConfigFromFile, then validation).
#pragma once

#include <string_view>

namespace ksched::config::testing {

struct UpstreamVerdict {
  std::string_view name;
  std::string_view input;
  std::string_view error;
};

inline constexpr UpstreamVerdict kUpstreamVerdicts[] = {
    {"affinity_weight_type",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: InterPodAffinity
    args:
      ignorePreferredTermsOfExistingPods: 1
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin InterPodAffinity: json: cannot unmarshal number into Go struct field InterPodAffinityArgs.ignorePreferredTermsOfExistingPods of type bool)golden"},
    {"apiversion_only_group",
     R"golden(apiVersion: kubescheduler.config.k8s.io
kind: KubeSchedulerConfiguration
)golden",
     R"golden(no kind "KubeSchedulerConfiguration" is registered for version "kubescheduler.config.k8s.io" in scheme "pkg/runtime/scheme.go:110")golden"},
    {"args_apiversion_num",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeAffinity
    args:
      apiVersion: 1
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeAffinity: couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string)golden"},
    {"args_field_type",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      ignoredResources: 5
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeResourcesFit: json: cannot unmarshal number into Go struct field NodeResourcesFitArgs.ignoredResources of type []string)golden"},
    {"args_kind_unknown",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      kind: FooArgs
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin DefaultPreemption: no kind "FooArgs" is registered for version "kubescheduler.config.k8s.io/v1" in scheme "pkg/runtime/scheme.go:110")golden"},
    {"args_list",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args: [1]
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeResourcesFit: couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" })golden"},
    {"argskind",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: InterPodAffinityArgs
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: args for plugin DefaultPreemption were not of type DefaultPreemptionArgs.kubescheduler.config.k8s.io, got InterPodAffinityArgs.kubescheduler.config.k8s.io)golden"},
    {"argsstr",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args: "x"
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeResourcesFit: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" })golden"},
    {"argstypes",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
        resources:
        - name: cpu
          weight: 0
        requestedToCapacityRatio:
          shape:
          - utilization: 0
            score: 10
          - utilization: 100
            score: 0
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - key: "a b"
              operator: Foo
            matchFields:
            - key: metadata.name
              operator: In
              values: ["a", "b"]
        preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 1
          preference:
            matchExpressions:
            - key: x
              operator: Gt
              values: ["a"]
)golden",
     R"golden([profiles[0].pluginConfig[1].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "Foo": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", profiles[0].pluginConfig[1].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values: Invalid value: ["a","b"]: must have one element, profiles[0].pluginConfig[1].args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchExpressions[0].values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer])golden"},
    {"argsver",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      apiVersion: foo/v1
      kind: DefaultPreemptionArgs
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin DefaultPreemption: no kind "DefaultPreemptionArgs" is registered for version "foo/v1" in scheme "pkg/runtime/scheme.go:110")golden"},
    {"argsver2",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      kind: DefaultPreemptionArgs
)golden",
     R"golden()golden"},
    {"argsver3",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      apiVersion: kubescheduler.config.k8s.io/v1beta3
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin DefaultPreemption: no kind "DefaultPreemptionArgs" is registered for version "kubescheduler.config.k8s.io/v1beta3" in scheme "pkg/runtime/scheme.go:110")golden"},
    {"bad_kind",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: Foo
)golden",
     R"golden(no kind "Foo" is registered for version "kubescheduler.config.k8s.io/v1" in scheme "pkg/runtime/scheme.go:110")golden"},
    {"badgroup",
     R"golden(apiVersion: foo/v1
kind: KubeSchedulerConfiguration
)golden",
     R"golden(no kind "KubeSchedulerConfiguration" is registered for version "foo/v1" in scheme "pkg/runtime/scheme.go:110")golden"},
    {"balanced_weights",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesBalancedAllocation
    args:
      resources:
      - name: cpu
        weight: 3
      - name: memory
        weight: 4
)golden",
     R"golden([profiles[0].pluginConfig[0].args.resources[0].weight: Invalid value: 3: must be 1, profiles[0].pluginConfig[0].args.resources[1].weight: Invalid value: 4: must be 1])golden"},
    {"bool_yes",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
enableProfiling: yes
leaderElection:
  leaderElect: off
)golden",
     R"golden()golden"},
    {"contention",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
enableProfiling: false
leaderElection:
  leaderElect: false
  leaseDuration: -1s
  resourceLock: foo
  resourceName: ""
)golden",
     R"golden()golden"},
    {"disabledstr",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    score:
      disabled: "*"
)golden",
     R"golden(json: cannot unmarshal string into Go struct field PluginSet.profiles.plugins.score.disabled of type []v1.Plugin)golden"},
    {"duplicate_key",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 1
parallelism: 2
)golden",
     R"golden(strict decoding error: yaml: unmarshal errors:
  line 4: key "parallelism" already set in map)golden"},
    {"dupsched",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: a
- schedulerName: a
- schedulerName: a
)golden",
     R"golden([profiles[1].schedulerName: Duplicate value: {}, profiles[2].schedulerName: Duplicate value: {}])golden"},
    {"duration_error_wins",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 1.5
leaderElection:
  leaseDuration: abc
)golden",
     R"golden(time: invalid duration "abc")golden"},
    {"duration_number",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
  leaseDuration: 15
)golden",
     R"golden(json: cannot unmarshal number into Go struct field LeaderElectionConfiguration.leaderElection.leaseDuration of type string)golden"},
    {"empty_file",
     R"golden()golden",
     R"golden(Object 'Kind' is missing in '')golden"},
    {"extender_resources",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: a
  managedResources:
  - name: kubernetes.io/foo
  - name: requests.foo/bar
  - name: foo/bar_
  - name: Foo/Bar
  - name: example.com/x
  - name: example.com/x
- urlPrefix: b
  prioritizeVerb: p
)golden",
     R"golden([extenders[0].managedResources[0].name: Invalid value: "kubernetes.io/foo": is an invalid extended resource name, extenders[0].managedResources[1].name: Invalid value: "requests.foo/bar": is an invalid extended resource name, extenders[0].managedResources[2].name: Invalid value: "foo/bar_": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), extenders[0].managedResources[3].name: Invalid value: "Foo/Bar": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), extenders[0].managedResources[5].name: Invalid value: "example.com/x": duplicate extender managed resource name, extenders[1].weight: Invalid value: 0: must have a positive weight applied to it])golden"},
    {"extender_weight",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: a
  weight: x
)golden",
     R"golden(json: cannot unmarshal string into Go struct field Extender.extenders.weight of type int64)golden"},
    {"filter_timeout_bad",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DynamicResources
    args:
      filterTimeout: abc
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin DynamicResources: time: invalid duration "abc")golden"},
    {"filter_timeout_null",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DynamicResources
    args:
      filterTimeout: null
)golden",
     R"golden()golden"},
    {"filter_timeout_number",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DynamicResources
    args:
      filterTimeout: 5
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin DynamicResources: json: cannot unmarshal number into Go struct field DynamicResourcesArgs.filterTimeout of type string)golden"},
    {"fit_not_validated",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        resources:
        - name: cpu
          weight: 200
)golden",
     R"golden()golden"},
    {"http_timeout_null",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: a
  httpTimeout:
)golden",
     R"golden(time: invalid duration "")golden"},
    {"kindnum",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: 5
)golden",
     R"golden(couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string)golden"},
    {"leader_list",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection: []
)golden",
     R"golden(json: cannot unmarshal array into Go struct field KubeSchedulerConfiguration.leaderElection of type v1alpha1.LeaderElectionConfiguration)golden"},
    {"lease_negative",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
  leaseDuration: -1s
  renewDeadline: 0s
  retryPeriod: -2s
)golden",
     R"golden([leaderElection.leaseDuration: Invalid value: "-1s": must be greater than zero, leaderElection.retryPeriod: Invalid value: "-2s": must be greater than zero, leaderElection.leaseDuration: Invalid value: "10s": must be greater than `RenewDeadline`])golden"},
    {"lease_order",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
  leaseDuration: 10s
  renewDeadline: 10s
  retryPeriod: 1m
)golden",
     R"golden(leaderElection.leaseDuration: Invalid value: "10s": must be greater than `RenewDeadline`)golden"},
    {"list",
     R"golden(- a
)golden",
     R"golden(couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" })golden"},
    {"many_invalid",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 0
percentageOfNodesToScore: 101
podInitialBackoffSeconds: 0
podMaxBackoffSeconds: -1
leaderElection:
  leaseDuration: 5s
  renewDeadline: 10s
  resourceLock: endpoints
clientConnection:
  burst: -1
extenders:
- urlPrefix: http://a
  prioritizeVerb: p
  weight: -1
  bindVerb: b
  managedResources:
  - name: example.com/foo
  - name: example.com/foo
  - name: cpu
  - name: "a b"
- urlPrefix: http://b
  bindVerb: c
profiles:
- schedulerName: a
  percentageOfNodesToScore: -1
  plugins:
    queueSort:
      enabled:
      - name: A
      - name: B
    score:
      enabled:
      - name: EBSLimits
    multiPoint:
      enabled:
      - name: CinderLimits
  pluginConfig:
  - name: GCEPDLimits
  - name: X
  - name: X
  - name: NodeResourcesBalancedAllocation
    args:
      resources:
      - name: cpu
        weight: 2
      - name: cpu
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: Foo
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: 0
      minCandidateNodesAbsolute: 0
- schedulerName: a
  plugins:
    queueSort:
      enabled:
      - name: C
- schedulerName: ""
)golden",
     R"golden([clientConnection.burst: Invalid value: -1: must be non-negative, leaderElection.leaseDuration: Invalid value: "10s": must be greater than `RenewDeadline`, leaderElection.resourceLock: Invalid value: "endpoints": resourceLock value must be "leases", parallelism: Invalid value: 0: should be an integer value greater than zero, profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100], profiles[0].plugins.score.enabled[0]: Invalid value: "EBSLimits": was invalid in version "v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1"), profiles[0].pluginConfig[0]: Invalid value: "GCEPDLimits": was invalid in version "v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1"), profiles[0].pluginConfig[2]: Duplicate value: "X", profiles[0].pluginConfig[3].args.resources[0].weight: Invalid value: 2: must be 1, profiles[0].pluginConfig[3].args.resources[1].name: Duplicate value: "cpu", profiles[0].pluginConfig[5].args.minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute, profiles[0].pluginConfig[5].args.minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage, profiles[1].schedulerName: Duplicate value: {}, profiles[2].schedulerName: Required value, profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be enabled, profiles[1].plugins.queueSort: Invalid value: {"Enabled":[{"Name":"C","Weight":0}],"Disabled":null}: must be the same for all profiles, profiles[2].plugins.queueSort: Invalid value: {"Enabled":null,"Disabled":null}: must be the same for all profiles, percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100], podInitialBackoffSeconds: Invalid value: 0: must be greater than 0, podMaxBackoffSeconds: Invalid value: -1: must be greater than or equal to PodInitialBackoffSeconds, extenders[0].weight: Invalid value: -1: must have a positive weight applied to it, extenders[0].managedResources[1].name: Invalid value: "example.com/foo": duplicate extender managed resource name, extenders[0].managedResources[2].name: Invalid value: "cpu": is an invalid extended resource name, extenders[0].managedResources[3].name: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind])golden"},
    {"multidoc",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 3
---
foo: bar
)golden",
     R"golden()golden"},
    {"nafftype",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - key: a
              operator: In
              values: "x"
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeAffinity: json: cannot unmarshal string into Go struct field NodeSelectorRequirement.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.matchExpressions.values of type []string)golden"},
    {"name_true",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: true
)golden",
     R"golden(json: cannot unmarshal bool into Go struct field KubeSchedulerProfile.profiles.schedulerName of type string)golden"},
    {"nametype",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: [a]
)golden",
     R"golden(json: cannot unmarshal array into Go struct field PluginConfig.profiles.pluginConfig.name of type string)golden"},
    {"nested_strict_many",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
bogus: true
profiles:
- schedulerName: a
  pluginConfig:
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 2
      extra: 1
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpression: []
- schedulerName: b
  pluginz: 1
  pluginConfig:
  - name: VolumeBinding
    args:
      bindTimeout: 3
  - name: NodeResourcesBalancedAllocation
    args:
      resources:
      - name: cpu
        Weight: 1
)golden",
     R"golden(strict decoding error: unknown field "bogus", unknown field "profiles[1].pluginz", decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin InterPodAffinity: strict decoding error: unknown field "extra", decoding .profiles[0].pluginConfig[1]: strict decoding error: decoding args for plugin NodeAffinity: strict decoding error: unknown field "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpression", decoding .profiles[1].pluginConfig[0]: strict decoding error: decoding args for plugin VolumeBinding: strict decoding error: unknown field "bindTimeout", decoding .profiles[1].pluginConfig[1]: strict decoding error: decoding args for plugin NodeResourcesBalancedAllocation: strict decoding error: unknown field "resources[0].Weight")golden"},
    {"no_kind",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
)golden",
     R"golden(Object 'Kind' is missing in 'apiVersion: kubescheduler.config.k8s.io/v1
')golden"},
    {"noapi",
     R"golden(kind: KubeSchedulerConfiguration
)golden",
     R"golden(Object 'apiVersion' is missing in 'kind: KubeSchedulerConfiguration
')golden"},
    {"nodeaffinity_weight_zero",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeAffinity
    args:
      addedAffinity:
        preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 0
          preference:
            matchExpressions:
            - key: a
              operator: Bad
        - weight: 1
          preference: {}
)golden",
     R"golden()golden"},
    {"nulldur",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
  leaseDuration:
)golden",
     R"golden(time: invalid duration "")golden"},
    {"parallelism_range",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 99999999999
)golden",
     R"golden(json: cannot unmarshal number 99999999999 into Go struct field KubeSchedulerConfiguration.parallelism of type int32)golden"},
    {"pending_args_invalid",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: 101
      minCandidateNodesAbsolute: -1
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 101
  - name: VolumeBinding
    args:
      bindTimeoutSeconds: -1
      shape:
      - utilization: 0
        score: 10
  - name: DynamicResources
    args:
      filterTimeout: -1s
)golden",
     R"golden([profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100], profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf), profiles[0].pluginConfig[1].args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100], profiles[0].pluginConfig[2].args.bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value, profiles[0].pluginConfig[2].args.shape: Invalid value: [{"Utilization":0,"Score":10}]: unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring, profiles[0].pluginConfig[3].args.filterTimeout: Invalid value: "-1s": must be zero or positive])golden"},
    {"pending_args_zero",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: 0
      minCandidateNodesAbsolute: 0
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: -1
)golden",
     R"golden([profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute, profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage, profiles[0].pluginConfig[1].args.hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]])golden"},
    {"pluginconfig_dup_named_null",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: Null
  - name: ""
    args: {a: 1}
)golden",
     R"golden(profiles[0].pluginConfig[1]: Duplicate value: "")golden"},
    {"preemption_type",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: x
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin DefaultPreemption: json: cannot unmarshal string into Go struct field DefaultPreemptionArgs.minCandidateNodesPercentage of type int32)golden"},
    {"profempty",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles: []
)golden",
     R"golden()golden"},
    {"profile_percentage",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: a
  percentageOfNodesToScore: 101
)golden",
     R"golden(profiles[0].percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100])golden"},
    {"profiles_string",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles: "x"
)golden",
     R"golden(json: cannot unmarshal string into Go struct field KubeSchedulerConfiguration.profiles of type []v1.KubeSchedulerProfile)golden"},
    {"profnull",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- null
- schedulerName: b
)golden",
     R"golden(profiles[0].schedulerName: Required value)golden"},
    {"profobj",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins: []
)golden",
     R"golden(json: cannot unmarshal array into Go struct field KubeSchedulerProfile.profiles.plugins of type v1.Plugins)golden"},
    {"qps_string",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  qps: fast
)golden",
     R"golden(json: cannot unmarshal string into Go struct field ClientConnectionConfiguration.clientConnection.qps of type float32)golden"},
    {"queue_sort_args",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: a
  plugins:
    queueSort:
      enabled:
      - name: PrioritySort
  pluginConfig:
  - name: PrioritySort
    args:
      b: 1
      a: [x]
- schedulerName: b
  plugins:
    queueSort:
      enabled:
      - name: PrioritySort
  pluginConfig:
  - name: PrioritySort
    args:
      a: 2
)golden",
     R"golden(profiles[1].pluginConfig.args: Invalid value: {"a":2}: queueSort must be the same for all profiles)golden"},
    {"queue_sort_disabled",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: a
  plugins:
    queueSort:
      disabled:
      - name: '*'
      enabled:
      - name: Custom
        weight: 2
- schedulerName: b
)golden",
     R"golden(profiles[1].plugins.queueSort: Invalid value: {"Enabled":null,"Disabled":null}: must be the same for all profiles)golden"},
    {"removed_plugin_filter",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    filter:
      enabled:
      - name: X
      - name: AzureDiskLimits
  pluginConfig:
  - name: CinderLimits
    args:
      foo: 1
)golden",
     R"golden([profiles[0].plugins.filter.enabled[1]: Invalid value: "AzureDiskLimits": was invalid in version "v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1"), profiles[0].pluginConfig[0]: Invalid value: "CinderLimits": was invalid in version "v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")])golden"},
    {"score_disabled_star",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: custom-scheduler
  plugins:
    score:
      enabled:
      - name: cputraffic
        weight: 3
      disabled:
      - name: "*"
  pluginConfig:
  - name: cputraffic
    args:
      ip: http://x
      timerange: 0
)golden",
     R"golden()golden"},
    {"spread_bad_type",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: Sometimes
)golden",
     R"golden(profiles[0].pluginConfig[0].args.defaultingType: Unsupported value: "Sometimes": supported values: "System", "List")golden"},
    {"spread_constraints_type",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: PodTopologySpread
    args:
      defaultConstraints: x
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin PodTopologySpread: json: cannot unmarshal string into Go struct field PodTopologySpreadArgs.defaultConstraints of type []v1.TopologySpreadConstraint)golden"},
    {"spread_invalid",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: System
      defaultConstraints:
      - maxSkew: 0
        topologyKey: ''
        whenUnsatisfiable: Maybe
        labelSelector: {matchLabels: {a: b}}
      - maxSkew: 2
        topologyKey: 'bad key'
        whenUnsatisfiable: ''
      - maxSkew: 1
        topologyKey: zone
        whenUnsatisfiable: DoNotSchedule
      - maxSkew: 1
        topologyKey: zone
        whenUnsatisfiable: DoNotSchedule
)golden",
     R"golden([profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty, profiles[0].pluginConfig[0].args.defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf), profiles[0].pluginConfig[0].args.defaultConstraints[0].topologyKey: Required value: can not be empty, profiles[0].pluginConfig[0].args.defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway", profiles[0].pluginConfig[0].args.defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod, profiles[0].pluginConfig[0].args.defaultConstraints[1].topologyKey: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), profiles[0].pluginConfig[0].args.defaultConstraints[1].whenUnsatisfiable: Required value: can not be empty, profiles[0].pluginConfig[0].args.defaultConstraints[3]: Duplicate value: "{zone, DoNotSchedule}"])golden"},
    {"spread_label_type",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: PodTopologySpread
    args:
      defaultConstraints:
      - maxSkew: 1
        labelSelector: {matchLabels: {a: 1}}
)golden",
     R"golden(decoding .profiles[0].pluginConfig[0]: decoding args for plugin PodTopologySpread: json: cannot unmarshal number into Go struct field LabelSelector.defaultConstraints.labelSelector.matchLabels of type string)golden"},
    {"spread_strict",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: PodTopologySpread
    args:
      defaultConstraints:
      - maxSkew: 1
        topologyKey: zone
        whenUnsatisfiable: DoNotSchedule
        labelSelector: {matchLabel: {a: b}}
        skew: 1
)golden",
     R"golden(strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin PodTopologySpread: strict decoding error: unknown field "defaultConstraints[0].labelSelector.matchLabel", unknown field "defaultConstraints[0].skew")golden"},
    {"strbool",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
enableProfiling: "true"
parallelism: 99999999999
podMaxBackoffSeconds: 1.5
)golden",
     R"golden(json: cannot unmarshal string into Go struct field KubeSchedulerConfiguration.enableProfiling of type bool)golden"},
    {"tls",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: a
  tlsConfig:
    certData: "!!!"
)golden",
     R"golden(illegal base64 data at input byte 0)golden"},
    {"tls_bad_padding",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: a
  tlsConfig:
    caData: aGVsbG8
)golden",
     R"golden(illegal base64 data at input byte 4)golden"},
    {"top_scalar",
     R"golden(5
)golden",
     R"golden(couldn't get version/kind; json parse error: json: cannot unmarshal number into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" })golden"},
    {"unknown_fields",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
foo: 1
profiles:
- schedulerName: a
  pluginz: {}
  pluginConfig:
  - name: NodeResourcesFit
    args:
      bar: 1
      scoringStrategy:
        resources:
        - Name: cpu
  - name: Foo
    args:
      zzz: 1
)golden",
     R"golden(strict decoding error: unknown field "foo", unknown field "profiles[0].pluginz", decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin NodeResourcesFit: strict decoding error: unknown field "bar", unknown field "scoringStrategy.resources[0].Name")golden"},
    {"weight_float",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    score:
      enabled:
      - name: A
        weight: 1.5
)golden",
     R"golden(json: cannot unmarshal number 1.5 into Go struct field Plugin.profiles.plugins.score.enabled.weight of type int32)golden"},
    {"weight_float_integral",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    score:
      enabled:
      - name: A
        weight: 2.0
      - name: B
        weight: 1e1
)golden",
     R"golden()golden"},
    {"weight_string",
     R"golden(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: a
  plugins:
    score:
      enabled:
      - name: X
        weight: "3"
)golden",
     R"golden(json: cannot unmarshal string into Go struct field Plugin.profiles.plugins.score.enabled.weight of type int32)golden"},
};

}  // namespace ksched::config::testing
