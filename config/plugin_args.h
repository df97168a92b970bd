// Plugin args codecs: for each in-tree plugin that has an args kind ("<Plugin>Args" in
// kubescheduler.config.k8s.io), how its pluginConfig args are decoded (strictly, upstream's v1
// defaults applied), validated at configuration time, and written back.
//
// Typed (the args type exists beside the plugin): NodeResourcesFit,
// NodeResourcesBalancedAllocation, NodeAffinity, InterPodAffinity, PodTopologySpread. Their
// PluginConfig carries `args`.
//
// Generic, until their plugins' args types exist: DefaultPreemption, VolumeBinding,
// DynamicResources. Their PluginConfig carries `raw`: the args in v1 shape with upstream's
// defaults filled in under kube-scheduler v1.37.2's default feature gates (config/feature_gates.h):
// minCandidateNodesPercentage 10 / minCandidateNodesAbsolute 100; bindTimeoutSeconds 600 and
// shape [{0,10},{100,0}] (StorageCapacityScoring); filterTimeout 10s (DRASchedulerFilterTimeout)
// and bindingTimeout 10m (DRADeviceBindingConditions and DRAResourceClaimDeviceStatus).
// Top-level fields are checked strictly and by type, shape points too. Their values are validated
// as upstream does under the same gates (shape points sorted and in range; bindingTimeout at least
// 1s; a field whose gate is off forbidden). Moving one of them to typed args is a new codec in
// plugin_args.cc.
//
// Upstream quirks kept: NodeResourcesFit args are not validated at configuration time (upstream's
// table keys that validator by "NodeResourcesFitArgs", which never matches a plugin name; the
// plugin's factory validates them). Validation error paths start at the given path
// ("profiles[0].pluginConfig[1].args").
//
// Thread-safety: the codecs are immutable singletons.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field_errors.h"
#include "config/feature_gates.h"
#include "config/kube_scheduler_configuration.h"
#include "config/strict_decoder.h"
#include "config/value.h"

namespace ksched::config {

class PluginArgsCodec {
 public:
  virtual ~PluginArgsCodec() = default;

  // "<Plugin>Args".
  virtual std::string_view kind() const = 0;
  // Decodes `args` (null: none written) into config.args or config.raw, defaults applied.
  // Errors go to `decoder` (the args object is its root).
  // `gates` decide the gated defaults (VolumeBindingArgs.shape, DynamicResourcesArgs' timeouts).
  virtual void Decode(const Value& args, StrictDecoder& decoder, PluginConfig& config,
                      const ConfigFeatureGates& gates) const = 0;
  // Upstream's configuration-time validation; one message per error.
  virtual void Validate(const PluginConfig& config, const api::FieldPath& path,
                        std::vector<std::string>& errors, const ConfigFeatureGates& gates) const = 0;
  // The v1 wire form, without apiVersion and kind.
  virtual Value ToV1(const PluginConfig& config) const = 0;
  // The internal type as Go's encoding/json renders it (Go field names), for /configz.
  virtual Value ToInternal(const PluginConfig& config) const = 0;
};

// nullptr when `plugin` has no args kind (an out-of-tree plugin, or one without args).
const PluginArgsCodec* FindPluginArgsCodec(std::string_view plugin);

// Every kind name the codecs know ("DefaultPreemptionArgs", ...), to recognise a wrong `kind`.
bool IsKnownArgsKind(std::string_view kind);

}  // namespace ksched::config
