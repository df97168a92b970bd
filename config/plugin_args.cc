#include "config/plugin_args.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "api/affinity.h"
#include "api/label_selector.h"
#include "api/node_selector.h"
#include "api/topology_spread.h"
#include "api/go_duration.h"
#include "config/feature_gates.h"
#include "config/value_writer.h"
#include "plugins/inter_pod_affinity/args.h"
#include "plugins/node_affinity/args.h"
#include "plugins/node_resources/args.h"
#include "plugins/pod_topology_spread/args.h"

namespace ksched::config {
namespace {

using plugins::inter_pod_affinity::InterPodAffinityArgs;
using plugins::node_affinity::NodeAffinityArgs;
using plugins::pod_topology_spread::PodTopologySpreadArgs;
using plugins::node_resources::NodeResourcesBalancedAllocationArgs;
using plugins::node_resources::NodeResourcesFitArgs;
using plugins::node_resources::ResourceSpec;
using plugins::node_resources::UtilizationShapePoint;

// apiVersion and kind are inline TypeMeta fields of every args kind; the loader checks them.
bool IsTypeMetaField(std::string_view key) { return key == "apiVersion" || key == "kind"; }

bool TypeMetaField(StrictDecoder& decoder, std::string_view key, const Value& value) {
  if (!IsTypeMetaField(key)) return false;
  std::string ignored;
  decoder.String(value, ignored);
  return true;
}

// Splits an error aggregate ("a" or "[a, b]") whose messages each start with `lead`.
std::vector<std::string> SplitAggregate(std::string_view message, std::string_view lead) {
  std::vector<std::string> parts;
  if (message.size() >= 2 && message.front() == '[' && message.back() == ']' &&
      message.substr(1, lead.size()) == lead) {
    std::string_view inner = message.substr(1, message.size() - 2);
    const std::string separator = ", " + std::string(lead);
    std::size_t start = 0;
    while (true) {
      const std::size_t next = inner.find(separator, start);
      if (next == std::string_view::npos) {
        parts.emplace_back(inner.substr(start));
        break;
      }
      parts.emplace_back(inner.substr(start, next - start));
      start = next + 2;
    }
    return parts;
  }
  parts.emplace_back(message);
  return parts;
}

Value StringList(const std::vector<std::string>& values) {
  Value list = Value::EmptyList();
  for (const std::string& value : values) list.Append(Value::String(value));
  return list;
}

// A nil-able slice as encoding/json writes it: null when empty (the decoder cannot tell an
// empty list from an absent one, and upstream's defaults produce nil).
Value NullableStringList(const std::vector<std::string>& values) {
  return values.empty() ? Value() : StringList(values);
}

void DecodeStringList(StrictDecoder& decoder, const Value& value, std::vector<std::string>& out) {
  if (value.is_null()) return;
  std::vector<std::string> decoded;
  decoder.List(value, "[]string", [&](std::size_t, const Value& element) {
    std::string item;
    decoder.String(element, item);
    decoded.push_back(std::move(item));
  });
  out = std::move(decoded);
}

void DecodeResourceSpecs(StrictDecoder& decoder, const Value& value,
                         std::vector<ResourceSpec>& out) {
  std::vector<ResourceSpec> decoded;
  decoder.List(value, "[]v1.ResourceSpec", [&](std::size_t, const Value& element) {
    ResourceSpec spec;
    decoder.Object(element, "v1.ResourceSpec", "ResourceSpec",
                   [&](std::string_view key, const Value& field) {
                     if (key == "name") return decoder.String(field, spec.name), true;
                     if (key == "weight") return decoder.Int64(field, spec.weight), true;
                     return false;
                   });
    decoded.push_back(std::move(spec));
  });
  out = std::move(decoded);
}

void DecodeShape(StrictDecoder& decoder, const Value& value,
                 std::vector<UtilizationShapePoint>& out) {
  std::vector<UtilizationShapePoint> decoded;
  decoder.List(value, "[]v1.UtilizationShapePoint", [&](std::size_t, const Value& element) {
    UtilizationShapePoint point;
    decoder.Object(element, "v1.UtilizationShapePoint", "UtilizationShapePoint",
                   [&](std::string_view key, const Value& field) {
                     if (key == "utilization") return decoder.Int32(field, point.utilization), true;
                     if (key == "score") return decoder.Int32(field, point.score), true;
                     return false;
                   });
    decoded.push_back(point);
  });
  out = std::move(decoded);
}

Value ResourceSpecsV1(const std::vector<ResourceSpec>& specs) {
  Value list = Value::EmptyList();
  for (const ResourceSpec& spec : specs) {
    Value item;
    item.Set("name", Value::String(spec.name));
    if (spec.weight != 0) item.Set("weight", Value::Int(spec.weight));
    list.Append(std::move(item));
  }
  return list;
}

Value ResourceSpecsInternal(const std::vector<ResourceSpec>& specs) {
  if (specs.empty()) return Value();
  Value list = Value::EmptyList();
  for (const ResourceSpec& spec : specs) {
    Value item;
    item.Set("Name", Value::String(spec.name));
    item.Set("Weight", Value::Int(spec.weight));
    list.Append(std::move(item));
  }
  return list;
}

Value ShapeV1(const std::vector<UtilizationShapePoint>& shape) {
  Value list = Value::EmptyList();
  for (const UtilizationShapePoint& point : shape) {
    Value item;
    item.Set("utilization", Value::Int(point.utilization));
    item.Set("score", Value::Int(point.score));
    list.Append(std::move(item));
  }
  return list;
}

Value ShapeInternal(const std::vector<UtilizationShapePoint>& shape) {
  if (shape.empty()) return Value();
  Value list = Value::EmptyList();
  for (const UtilizationShapePoint& point : shape) {
    Value item;
    item.Set("Utilization", Value::Int(point.utilization));
    item.Set("Score", Value::Int(point.score));
    list.Append(std::move(item));
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// NodeResourcesFit

class NodeResourcesFitCodec final : public PluginArgsCodec {
 public:
  std::string_view kind() const override { return "NodeResourcesFitArgs"; }

  void Decode(const Value& value, StrictDecoder& decoder, PluginConfig& config,
              const ConfigFeatureGates& /*gates*/) const override {
    auto args = std::make_shared<NodeResourcesFitArgs>();
    decoder.Object(value, "v1.NodeResourcesFitArgs", "NodeResourcesFitArgs",
                   [&](std::string_view key, const Value& field) {
                     if (TypeMetaField(decoder, key, field)) return true;
                     if (key == "ignoredResources") {
                       DecodeStringList(decoder, field, args->ignored_resources);
                       return true;
                     }
                     if (key == "ignoredResourceGroups") {
                       DecodeStringList(decoder, field, args->ignored_resource_groups);
                       return true;
                     }
                     if (key == "scoringStrategy") {
                       if (!field.is_null()) DecodeStrategy(decoder, field, *args);
                       return true;
                     }
                     return false;
                   });
    plugins::node_resources::SetDefaults(*args);
    config.args = std::move(args);
  }

  void Validate(const PluginConfig&, const api::FieldPath&,
                std::vector<std::string>&, const ConfigFeatureGates& /*gates*/) const override {}

  Value ToV1(const PluginConfig& config) const override {
    const auto& args = static_cast<const NodeResourcesFitArgs&>(*config.args);
    Value out = Value::EmptyMap();
    if (!args.ignored_resources.empty()) {
      out.Set("ignoredResources", StringList(args.ignored_resources));
    }
    if (!args.ignored_resource_groups.empty()) {
      out.Set("ignoredResourceGroups", StringList(args.ignored_resource_groups));
    }
    Value strategy = Value::EmptyMap();
    const auto& s = args.scoring_strategy;
    if (!s.type.empty()) strategy.Set("type", Value::String(s.type));
    if (!s.resources.empty()) strategy.Set("resources", ResourceSpecsV1(s.resources));
    if (s.requested_to_capacity_ratio.has_value()) {
      Value param = Value::EmptyMap();
      if (!s.requested_to_capacity_ratio->shape.empty()) {
        param.Set("shape", ShapeV1(s.requested_to_capacity_ratio->shape));
      }
      strategy.Set("requestedToCapacityRatio", std::move(param));
    }
    out.Set("scoringStrategy", std::move(strategy));
    return out;
  }

  Value ToInternal(const PluginConfig& config) const override {
    const auto& args = static_cast<const NodeResourcesFitArgs&>(*config.args);
    Value out = Value::EmptyMap();
    out.Set("IgnoredResources", NullableStringList(args.ignored_resources));
    out.Set("IgnoredResourceGroups", NullableStringList(args.ignored_resource_groups));
    const auto& s = args.scoring_strategy;
    Value strategy = Value::EmptyMap();
    strategy.Set("Type", Value::String(s.type));
    strategy.Set("Resources", ResourceSpecsInternal(s.resources));
    Value ratio;
    if (s.requested_to_capacity_ratio.has_value()) {
      ratio.Set("Shape", ShapeInternal(s.requested_to_capacity_ratio->shape));
    }
    strategy.Set("RequestedToCapacityRatio", std::move(ratio));
    out.Set("ScoringStrategy", std::move(strategy));
    return out;
  }

 private:
  // A present scoringStrategy is taken as written: an absent type stays empty (and fails the
  // plugin's validation, as upstream), absent resources are defaulted afterwards.
  static void DecodeStrategy(StrictDecoder& decoder, const Value& value,
                             NodeResourcesFitArgs& args) {
    auto& strategy = args.scoring_strategy;
    strategy.type.clear();
    strategy.resources.clear();
    strategy.requested_to_capacity_ratio.reset();
    decoder.Object(value, "v1.ScoringStrategy", "ScoringStrategy",
                   [&](std::string_view key, const Value& field) {
                     if (key == "type") {
                       decoder.String(field, strategy.type, "v1.ScoringStrategyType");
                       return true;
                     }
                     if (key == "resources") {
                       DecodeResourceSpecs(decoder, field, strategy.resources);
                       return true;
                     }
                     if (key == "requestedToCapacityRatio") {
                       if (field.is_null()) return true;
                       plugins::node_resources::RequestedToCapacityRatioParam param;
                       decoder.Object(field, "v1.RequestedToCapacityRatioParam",
                                      "RequestedToCapacityRatioParam",
                                      [&](std::string_view k, const Value& f) {
                                        if (k != "shape") return false;
                                        DecodeShape(decoder, f, param.shape);
                                        return true;
                                      });
                       strategy.requested_to_capacity_ratio = std::move(param);
                       return true;
                     }
                     return false;
                   });
  }
};

// ---------------------------------------------------------------------------------------------
// NodeResourcesBalancedAllocation

class BalancedAllocationCodec final : public PluginArgsCodec {
 public:
  std::string_view kind() const override { return "NodeResourcesBalancedAllocationArgs"; }

  void Decode(const Value& value, StrictDecoder& decoder, PluginConfig& config,
              const ConfigFeatureGates& /*gates*/) const override {
    auto args = std::make_shared<NodeResourcesBalancedAllocationArgs>();
    decoder.Object(value, "v1.NodeResourcesBalancedAllocationArgs",
                   "NodeResourcesBalancedAllocationArgs",
                   [&](std::string_view key, const Value& field) {
                     if (TypeMetaField(decoder, key, field)) return true;
                     if (key == "resources") {
                       if (!field.is_null()) DecodeResourceSpecs(decoder, field, args->resources);
                       return true;
                     }
                     return false;
                   });
    plugins::node_resources::SetDefaults(*args);
    config.args = std::move(args);
  }

  void Validate(const PluginConfig& config, const api::FieldPath& path,
                std::vector<std::string>& errors, const ConfigFeatureGates& /*gates*/) const override {
    const auto& args = static_cast<const NodeResourcesBalancedAllocationArgs&>(*config.args);
    const absl::Status status = plugins::node_resources::Validate(args);
    if (status.ok()) return;
    // The plugin's messages start at the args ("resources[1].name: ..."): prefix the path.
    for (std::string& message : SplitAggregate(std::string(status.message()), "resources[")) {
      errors.push_back(path.String() + "." + message);
    }
  }

  Value ToV1(const PluginConfig& config) const override {
    const auto& args = static_cast<const NodeResourcesBalancedAllocationArgs&>(*config.args);
    Value out = Value::EmptyMap();
    if (!args.resources.empty()) out.Set("resources", ResourceSpecsV1(args.resources));
    return out;
  }

  Value ToInternal(const PluginConfig& config) const override {
    const auto& args = static_cast<const NodeResourcesBalancedAllocationArgs&>(*config.args);
    Value out = Value::EmptyMap();
    out.Set("Resources", ResourceSpecsInternal(args.resources));
    return out;
  }
};

// ---------------------------------------------------------------------------------------------
// NodeAffinity

void DecodeRequirements(StrictDecoder& decoder, const Value& value,
                        std::vector<api::NodeSelectorRequirement>& out) {
  std::vector<api::NodeSelectorRequirement> decoded;
  decoder.List(value, "[]v1.NodeSelectorRequirement", [&](std::size_t, const Value& element) {
    api::NodeSelectorRequirement requirement;
    decoder.Object(element, "v1.NodeSelectorRequirement", "NodeSelectorRequirement",
                   [&](std::string_view key, const Value& field) {
                     if (key == "key") return decoder.String(field, requirement.key), true;
                     if (key == "operator") {
                       return decoder.String(field, requirement.op, "v1.NodeSelectorOperator"),
                              true;
                     }
                     if (key == "values") {
                       DecodeStringList(decoder, field, requirement.values);
                       return true;
                     }
                     return false;
                   });
    decoded.push_back(std::move(requirement));
  });
  out = std::move(decoded);
}

void DecodeTerm(StrictDecoder& decoder, const Value& value, api::NodeSelectorTerm& term) {
  decoder.Object(value, "v1.NodeSelectorTerm", "NodeSelectorTerm",
                 [&](std::string_view key, const Value& field) {
                   if (key == "matchExpressions") {
                     DecodeRequirements(decoder, field, term.match_expressions);
                     return true;
                   }
                   if (key == "matchFields") {
                     DecodeRequirements(decoder, field, term.match_fields);
                     return true;
                   }
                   return false;
                 });
}

void DecodeNodeAffinity(StrictDecoder& decoder, const Value& value, api::NodeAffinity& affinity) {
  decoder.Object(value, "v1.NodeAffinity", "NodeAffinity", [&](std::string_view key,
                                                              const Value& field) {
    if (key == "requiredDuringSchedulingIgnoredDuringExecution") {
      if (field.is_null()) return true;
      api::NodeSelector selector;
      decoder.Object(field, "v1.NodeSelector", "NodeSelector",
                     [&](std::string_view k, const Value& f) {
                       if (k != "nodeSelectorTerms") return false;
                       decoder.List(f, "[]v1.NodeSelectorTerm", [&](std::size_t, const Value& e) {
                         api::NodeSelectorTerm term;
                         DecodeTerm(decoder, e, term);
                         selector.node_selector_terms.push_back(std::move(term));
                       });
                       return true;
                     });
      affinity.required = std::move(selector);
      return true;
    }
    if (key == "preferredDuringSchedulingIgnoredDuringExecution") {
      decoder.List(field, "[]v1.PreferredSchedulingTerm", [&](std::size_t, const Value& e) {
        api::PreferredSchedulingTerm term;
        decoder.Object(e, "v1.PreferredSchedulingTerm", "PreferredSchedulingTerm",
                       [&](std::string_view k, const Value& f) {
                         if (k == "weight") return decoder.Int32(f, term.weight), true;
                         if (k == "preference") {
                           DecodeTerm(decoder, f, term.preference);
                           return true;
                         }
                         return false;
                       });
        affinity.preferred.push_back(std::move(term));
      });
      return true;
    }
    return false;
  });
}

Value RequirementsJson(const std::vector<api::NodeSelectorRequirement>& requirements) {
  Value list = Value::EmptyList();
  for (const api::NodeSelectorRequirement& r : requirements) {
    Value item;
    item.Set("key", Value::String(r.key));
    item.Set("operator", Value::String(r.op));
    if (!r.values.empty()) item.Set("values", StringList(r.values));
    list.Append(std::move(item));
  }
  return list;
}

Value TermJson(const api::NodeSelectorTerm& term) {
  Value out = Value::EmptyMap();
  if (!term.match_expressions.empty()) {
    out.Set("matchExpressions", RequirementsJson(term.match_expressions));
  }
  if (!term.match_fields.empty()) out.Set("matchFields", RequirementsJson(term.match_fields));
  return out;
}

// core/v1 NodeAffinity as its JSON tags write it (the same in v1 and internal scheduler args).
Value NodeAffinityJson(const api::NodeAffinity& affinity) {
  Value out = Value::EmptyMap();
  if (affinity.required.has_value()) {
    Value terms = Value::EmptyList();
    for (const api::NodeSelectorTerm& term : affinity.required->node_selector_terms) {
      terms.Append(TermJson(term));
    }
    Value selector;
    selector.Set("nodeSelectorTerms", std::move(terms));
    out.Set("requiredDuringSchedulingIgnoredDuringExecution", std::move(selector));
  }
  if (!affinity.preferred.empty()) {
    Value preferred = Value::EmptyList();
    for (const api::PreferredSchedulingTerm& term : affinity.preferred) {
      Value item;
      item.Set("weight", Value::Int(term.weight));
      item.Set("preference", TermJson(term.preference));
      preferred.Append(std::move(item));
    }
    out.Set("preferredDuringSchedulingIgnoredDuringExecution", std::move(preferred));
  }
  return out;
}

class NodeAffinityCodec final : public PluginArgsCodec {
 public:
  std::string_view kind() const override { return "NodeAffinityArgs"; }

  void Decode(const Value& value, StrictDecoder& decoder, PluginConfig& config,
              const ConfigFeatureGates& /*gates*/) const override {
    auto args = std::make_shared<NodeAffinityArgs>();
    decoder.Object(value, "v1.NodeAffinityArgs", "NodeAffinityArgs",
                   [&](std::string_view key, const Value& field) {
                     if (TypeMetaField(decoder, key, field)) return true;
                     if (key == "addedAffinity") {
                       if (field.is_null()) return true;
                       api::NodeAffinity affinity;
                       DecodeNodeAffinity(decoder, field, affinity);
                       args->added_affinity = std::move(affinity);
                       return true;
                     }
                     return false;
                   });
    config.args = std::move(args);
  }

  void Validate(const PluginConfig& config, const api::FieldPath& path,
                std::vector<std::string>& errors, const ConfigFeatureGates& /*gates*/) const override {
    const auto& args = static_cast<const NodeAffinityArgs&>(*config.args);
    const absl::Status status = plugins::node_affinity::ValidateNodeAffinityArgs(path, args);
    if (status.ok()) return;
    for (std::string& message : SplitAggregate(std::string(status.message()), path.String())) {
      errors.push_back(std::move(message));
    }
  }

  Value ToV1(const PluginConfig& config) const override {
    const auto& args = static_cast<const NodeAffinityArgs&>(*config.args);
    Value out = Value::EmptyMap();
    if (args.added_affinity.has_value()) {
      out.Set("addedAffinity", NodeAffinityJson(*args.added_affinity));
    }
    return out;
  }

  Value ToInternal(const PluginConfig& config) const override {
    const auto& args = static_cast<const NodeAffinityArgs&>(*config.args);
    Value out = Value::EmptyMap();
    out.Set("AddedAffinity",
            args.added_affinity.has_value() ? NodeAffinityJson(*args.added_affinity) : Value());
    return out;
  }
};

// ---------------------------------------------------------------------------------------------
// InterPodAffinity

class InterPodAffinityCodec final : public PluginArgsCodec {
 public:
  std::string_view kind() const override { return "InterPodAffinityArgs"; }

  void Decode(const Value& value, StrictDecoder& decoder, PluginConfig& config,
              const ConfigFeatureGates& /*gates*/) const override {
    // Default-constructed: hardPodAffinityWeight 1 unless written (an explicit 0 stays).
    auto args = std::make_shared<InterPodAffinityArgs>();
    decoder.Object(value, "v1.InterPodAffinityArgs", "InterPodAffinityArgs",
                   [&](std::string_view key, const Value& field) {
                     if (TypeMetaField(decoder, key, field)) return true;
                     if (key == "hardPodAffinityWeight") {
                       decoder.Int32(field, args->hard_pod_affinity_weight);
                       return true;
                     }
                     if (key == "ignorePreferredTermsOfExistingPods") {
                       decoder.Bool(field, args->ignore_preferred_terms_of_existing_pods);
                       return true;
                     }
                     return false;
                   });
    config.args = std::move(args);
  }

  void Validate(const PluginConfig& config, const api::FieldPath& path,
                std::vector<std::string>& errors, const ConfigFeatureGates& /*gates*/) const override {
    const auto& args = static_cast<const InterPodAffinityArgs&>(*config.args);
    const absl::Status status =
        plugins::inter_pod_affinity::ValidateInterPodAffinityArgs(path, args);
    if (status.ok()) return;
    for (std::string& message : SplitAggregate(std::string(status.message()), path.String())) {
      errors.push_back(std::move(message));
    }
  }

  Value ToV1(const PluginConfig& config) const override {
    const auto& args = static_cast<const InterPodAffinityArgs&>(*config.args);
    Value out = Value::EmptyMap();
    out.Set("hardPodAffinityWeight", Value::Int(args.hard_pod_affinity_weight));
    out.Set("ignorePreferredTermsOfExistingPods",
            Value::Bool(args.ignore_preferred_terms_of_existing_pods));
    return out;
  }

  Value ToInternal(const PluginConfig& config) const override {
    const auto& args = static_cast<const InterPodAffinityArgs&>(*config.args);
    Value out = Value::EmptyMap();
    out.Set("HardPodAffinityWeight", Value::Int(args.hard_pod_affinity_weight));
    out.Set("IgnorePreferredTermsOfExistingPods",
            Value::Bool(args.ignore_preferred_terms_of_existing_pods));
    return out;
  }
};

// ---------------------------------------------------------------------------------------------
// PodTopologySpread

void DecodeLabelSelector(StrictDecoder& decoder, const Value& value, api::LabelSelector& out) {
  decoder.Object(value, "v1.LabelSelector", "LabelSelector", [&](std::string_view key,
                                                                const Value& field) {
    if (key == "matchLabels") {
      if (field.is_null()) return true;
      if (!field.is_map()) {
        decoder.TypeError(field, "map[string]string");
        return true;
      }
      for (const MapEntry& entry : field.as_map()) {
        std::string label;
        decoder.String(entry.value, label);
        out.match_labels.Set(entry.key, std::move(label));
      }
      return true;
    }
    if (key == "matchExpressions") {
      decoder.List(field, "[]v1.LabelSelectorRequirement", [&](std::size_t, const Value& e) {
        api::LabelSelectorRequirement requirement;
        decoder.Object(e, "v1.LabelSelectorRequirement", "LabelSelectorRequirement",
                       [&](std::string_view k, const Value& f) {
                         if (k == "key") return decoder.String(f, requirement.key), true;
                         if (k == "operator") {
                           return decoder.String(f, requirement.op, "v1.LabelSelectorOperator"),
                                  true;
                         }
                         if (k == "values") {
                           DecodeStringList(decoder, f, requirement.values);
                           return true;
                         }
                         return false;
                       });
        out.match_expressions.push_back(std::move(requirement));
      });
      return true;
    }
    return false;
  });
}

void DecodeConstraint(StrictDecoder& decoder, const Value& value,
                      api::TopologySpreadConstraint& c) {
  decoder.Object(value, "v1.TopologySpreadConstraint", "TopologySpreadConstraint",
                 [&](std::string_view key, const Value& field) {
                   if (key == "maxSkew") return decoder.Int32(field, c.max_skew), true;
                   if (key == "topologyKey") {
                     std::string topology_key;
                     decoder.String(field, topology_key);
                     c.topology_key = topology_key;
                     return true;
                   }
                   if (key == "whenUnsatisfiable") {
                     decoder.String(field, c.when_unsatisfiable,
                                    "v1.UnsatisfiableConstraintAction");
                     return true;
                   }
                   if (key == "labelSelector") {
                     if (field.is_null()) return true;
                     api::LabelSelector selector;
                     DecodeLabelSelector(decoder, field, selector);
                     c.label_selector = std::move(selector);
                     return true;
                   }
                   if (key == "minDomains") {
                     std::int32_t min_domains = 0;
                     if (decoder.Int32(field, min_domains)) c.min_domains = min_domains;
                     return true;
                   }
                   if (key == "nodeAffinityPolicy") {
                     decoder.String(field, c.node_affinity_policy, "v1.NodeInclusionPolicy");
                     return true;
                   }
                   if (key == "nodeTaintsPolicy") {
                     decoder.String(field, c.node_taints_policy, "v1.NodeInclusionPolicy");
                     return true;
                   }
                   if (key == "matchLabelKeys") {
                     DecodeStringList(decoder, field, c.match_label_keys);
                     return true;
                   }
                   return false;
                 });
}

// core/v1 TopologySpreadConstraint as its JSON tags write it.
Value ConstraintJson(const api::TopologySpreadConstraint& c) {
  Value out = Value::EmptyMap();
  out.Set("maxSkew", Value::Int(c.max_skew));
  out.Set("topologyKey", Value::String(c.topology_key));
  out.Set("whenUnsatisfiable", Value::String(c.when_unsatisfiable));
  if (c.label_selector.has_value()) {
    Value selector = Value::EmptyMap();
    if (!c.label_selector->match_labels.empty()) {
      Value labels = Value::EmptyMap();
      for (const auto& [key, label] : c.label_selector->match_labels) {
        labels.Set(key, Value::String(label));
      }
      selector.Set("matchLabels", std::move(labels));
    }
    if (!c.label_selector->match_expressions.empty()) {
      Value expressions = Value::EmptyList();
      for (const api::LabelSelectorRequirement& r : c.label_selector->match_expressions) {
        Value item;
        item.Set("key", Value::String(r.key));
        item.Set("operator", Value::String(r.op));
        if (!r.values.empty()) item.Set("values", StringList(r.values));
        expressions.Append(std::move(item));
      }
      selector.Set("matchExpressions", std::move(expressions));
    }
    out.Set("labelSelector", std::move(selector));
  }
  if (c.min_domains.has_value()) out.Set("minDomains", Value::Int(*c.min_domains));
  if (!c.node_affinity_policy.empty()) {
    out.Set("nodeAffinityPolicy", Value::String(c.node_affinity_policy));
  }
  if (!c.node_taints_policy.empty()) {
    out.Set("nodeTaintsPolicy", Value::String(c.node_taints_policy));
  }
  if (!c.match_label_keys.empty()) out.Set("matchLabelKeys", StringList(c.match_label_keys));
  return out;
}

class PodTopologySpreadCodec final : public PluginArgsCodec {
 public:
  std::string_view kind() const override { return "PodTopologySpreadArgs"; }

  void Decode(const Value& value, StrictDecoder& decoder, PluginConfig& config,
              const ConfigFeatureGates& /*gates*/) const override {
    auto args = std::make_shared<PodTopologySpreadArgs>();
    decoder.Object(value, "v1.PodTopologySpreadArgs", "PodTopologySpreadArgs",
                   [&](std::string_view key, const Value& field) {
                     if (TypeMetaField(decoder, key, field)) return true;
                     if (key == "defaultConstraints") {
                       std::vector<api::TopologySpreadConstraint> constraints;
                       decoder.List(field, "[]v1.TopologySpreadConstraint",
                                    [&](std::size_t, const Value& element) {
                                      api::TopologySpreadConstraint c;
                                      DecodeConstraint(decoder, element, c);
                                      constraints.push_back(std::move(c));
                                    });
                       if (!field.is_null()) args->default_constraints = std::move(constraints);
                       return true;
                     }
                     if (key == "defaultingType") {
                       decoder.String(field, args->defaulting_type,
                                      "v1.PodTopologySpreadConstraintsDefaulting");
                       return true;
                     }
                     return false;
                   });
    plugins::pod_topology_spread::SetDefaults(*args);
    config.args = std::move(args);
  }

  void Validate(const PluginConfig& config, const api::FieldPath& path,
                std::vector<std::string>& errors, const ConfigFeatureGates& /*gates*/) const override {
    const auto& args = static_cast<const PodTopologySpreadArgs&>(*config.args);
    const absl::Status status =
        plugins::pod_topology_spread::ValidatePodTopologySpreadArgs(path, args);
    if (status.ok()) return;
    for (std::string& message : SplitAggregate(std::string(status.message()), path.String())) {
      errors.push_back(std::move(message));
    }
  }

  Value ToV1(const PluginConfig& config) const override {
    const auto& args = static_cast<const PodTopologySpreadArgs&>(*config.args);
    Value out = Value::EmptyMap();
    if (!args.default_constraints.empty()) out.Set("defaultConstraints", Constraints(args));
    if (!args.defaulting_type.empty()) {
      out.Set("defaultingType", Value::String(args.defaulting_type));
    }
    return out;
  }

  Value ToInternal(const PluginConfig& config) const override {
    const auto& args = static_cast<const PodTopologySpreadArgs&>(*config.args);
    Value out = Value::EmptyMap();
    out.Set("DefaultConstraints", args.default_constraints.empty() ? Value() : Constraints(args));
    out.Set("DefaultingType", Value::String(args.defaulting_type));
    return out;
  }

 private:
  static Value Constraints(const PodTopologySpreadArgs& args) {
    Value list = Value::EmptyList();
    for (const api::TopologySpreadConstraint& c : args.default_constraints) {
      list.Append(ConstraintJson(c));
    }
    return list;
  }
};

// ---------------------------------------------------------------------------------------------
// Generic codecs for the args kinds whose types are not compiled in yet.

// kShape: a []UtilizationShapePoint, decoded strictly into {utilization, score} points.
enum class FieldKind { kInt32Pointer, kInt64Pointer, kBool, kString, kDurationPointer, kShape };

struct GenericField {
  std::string_view json_name;
  std::string_view go_name;
  FieldKind kind;
  std::string_view go_type;  // for type errors
  bool omitempty;
  // Applied when absent (for kString: when empty; for kShape: when empty). Null: no default.
  Value default_value;
  // When set, default_value applies only where it returns true (a gated default).
  bool (*defaulted_under)(const ConfigFeatureGates&) = nullptr;
};

// Upstream's configuration-time validation over the defaulted args (v1 field names).
using GenericValidator = void (*)(const Value& args, const api::FieldPath& path,
                                  std::vector<std::string>& errors, const ConfigFeatureGates& gates);

std::int64_t IntField(const Value& args, std::string_view key) {
  const Value* value = args.Find(key);
  return value != nullptr && value->kind() == Value::Kind::kInt ? value->as_int() : 0;
}

std::string InvalidInt(const api::FieldPath& path, std::int64_t value, std::string_view detail) {
  return api::InvalidValueError(path, std::to_string(value), detail);
}

// upstream ValidateDefaultPreemptionArgs.
void ValidateDefaultPreemption(const Value& args, const api::FieldPath& path,
                               std::vector<std::string>& errors, const ConfigFeatureGates& /*gates*/) {
  const api::FieldPath percentage_path = path.Child("minCandidateNodesPercentage");
  const api::FieldPath absolute_path = path.Child("minCandidateNodesAbsolute");
  const std::int64_t percentage = IntField(args, "minCandidateNodesPercentage");
  const std::int64_t absolute = IntField(args, "minCandidateNodesAbsolute");
  if (percentage < 0 || percentage > 100) {
    errors.push_back(InvalidInt(percentage_path, percentage, "not in valid range [0, 100]"));
  }
  if (absolute < 0) {
    errors.push_back(InvalidInt(absolute_path, absolute, "not in valid range [0, inf)"));
  }
  if (percentage == 0 && absolute == 0) {
    errors.push_back(InvalidInt(percentage_path, percentage,
                                "cannot be zero at the same time as minCandidateNodesAbsolute"));
    errors.push_back(InvalidInt(absolute_path, absolute,
                                "cannot be zero at the same time as minCandidateNodesPercentage"));
  }
}

// upstream validateFunctionShape over a decoded shape (v1 field names).
void ValidateShape(const Value& shape, const api::FieldPath& path,
                   std::vector<std::string>& errors) {
  constexpr std::int64_t kMaxScore = plugins::node_resources::kMaxCustomPriorityScore;
  const Value::List& points = shape.as_list();
  if (points.empty()) {
    errors.push_back(path.String() + ": Required value: at least one point must be specified");
    return;
  }
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (IntField(points[i - 1], "utilization") >= IntField(points[i], "utilization")) {
      errors.push_back(InvalidInt(path.Index(i).Child("utilization"),
                                  IntField(points[i], "utilization"),
                                  "values must be sorted in increasing order"));
      break;
    }
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::int64_t utilization = IntField(points[i], "utilization");
    const std::int64_t score = IntField(points[i], "score");
    if (utilization < 0 || utilization > 100) {
      errors.push_back(InvalidInt(path.Index(i).Child("utilization"), utilization,
                                  "not in valid range [0, 100]"));
    }
    if (score < 0 || score > kMaxScore) {
      errors.push_back(InvalidInt(path.Index(i).Child("score"), score,
                                  "not in valid range [0, " + std::to_string(kMaxScore) + "]"));
    }
  }
}

// upstream ValidateVolumeBindingArgs.
void ValidateVolumeBinding(const Value& args, const api::FieldPath& path,
                           std::vector<std::string>& errors, const ConfigFeatureGates& gates) {
  const std::int64_t timeout = IntField(args, "bindTimeoutSeconds");
  if (timeout < 0) {
    errors.push_back(InvalidInt(path.Child("bindTimeoutSeconds"), timeout,
                                "invalid BindTimeoutSeconds, should not be a negative value"));
  }
  const Value* shape = args.Find("shape");
  if (gates.storage_capacity_scoring) {
    ValidateShape(shape != nullptr && shape->is_list() ? *shape : Value::EmptyList(),
                  path.Child("shape"), errors);
    return;
  }
  if (shape == nullptr || shape->is_null()) return;
  // The bad value is the internal []UtilizationShapePoint, rendered with Go field names.
  Value internal = Value::EmptyList();
  for (const Value& point : shape->as_list()) {
    Value item;
    item.Set("Utilization", Value::Int(IntField(point, "utilization")));
    item.Set("Score", Value::Int(IntField(point, "score")));
    internal.Append(std::move(item));
  }
  errors.push_back(api::InvalidValueError(
      path.Child("shape"), ToJson(internal),
      "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring"));
}

// A decoded duration field's value, when it parses.
std::optional<std::chrono::nanoseconds> DurationField(const Value& args, std::string_view key) {
  const Value* value = args.Find(key);
  if (value == nullptr || !value->is_string()) return std::nullopt;
  absl::StatusOr<std::chrono::nanoseconds> parsed = api::ParseGoDuration(value->as_string());
  if (!parsed.ok()) return std::nullopt;
  return *parsed;
}

// upstream ValidateDynamicResourcesArgs.
void ValidateDynamicResources(const Value& args, const api::FieldPath& path,
                              std::vector<std::string>& errors, const ConfigFeatureGates& gates) {
  const std::optional<std::chrono::nanoseconds> filter = DurationField(args, "filterTimeout");
  if (gates.dra_scheduler_filter_timeout) {
    if (filter.has_value() && filter->count() < 0) {
      errors.push_back(api::InvalidValueError(
          path.Child("filterTimeout"), api::JsonQuote(args.Find("filterTimeout")->as_string()),
          "must be zero or positive"));
    }
  } else if (filter.has_value()) {
    errors.push_back(path.Child("filterTimeout").String() +
                     ": Forbidden: DRASchedulingFilterTimeout feature gate is disabled");
  }
  const std::optional<std::chrono::nanoseconds> binding = DurationField(args, "bindingTimeout");
  if (gates.dra_device_binding_conditions && gates.dra_resource_claim_device_status) {
    if (binding.has_value() && *binding < std::chrono::seconds(1)) {
      errors.push_back(api::InvalidValueError(
          path.Child("bindingTimeout"), api::JsonQuote(args.Find("bindingTimeout")->as_string()),
          "must be at least 1 second"));
    }
  } else if (binding.has_value()) {
    errors.push_back(
        path.Child("bindingTimeout").String() +
        ": Forbidden: DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is "
        "disabled");
  }
}

// The default shape of VolumeBindingArgs: [{0, MaxCustomPriorityScore}, {100, 0}].
Value DefaultVolumeBindingShape() {
  Value shape = Value::EmptyList();
  for (const auto& [utilization, score] :
       {std::pair<std::int64_t, std::int64_t>{0, plugins::node_resources::kMaxCustomPriorityScore},
        std::pair<std::int64_t, std::int64_t>{100, 0}}) {
    Value point;
    point.Set("utilization", Value::Int(utilization));
    point.Set("score", Value::Int(score));
    shape.Append(std::move(point));
  }
  return shape;
}

class GenericCodec final : public PluginArgsCodec {
 public:
  GenericCodec(std::string_view kind, std::vector<GenericField> fields,
               GenericValidator validator)
      : kind_(kind), fields_(std::move(fields)), validator_(validator) {}

  std::string_view kind() const override { return kind_; }

  void Decode(const Value& value, StrictDecoder& decoder, PluginConfig& config,
              const ConfigFeatureGates& gates) const override {
    Value decoded = Value::EmptyMap();
    const std::string go_type = "v1." + std::string(kind_);
    decoder.Object(value, go_type, kind_, [&](std::string_view key, const Value& field) {
      if (TypeMetaField(decoder, key, field)) return true;
      for (const GenericField& spec : fields_) {
        if (spec.json_name != key) continue;
        if (std::optional<Value> typed = DecodeField(decoder, spec, field)) {
          decoded.Set(spec.json_name, *std::move(typed));
        }
        return true;
      }
      return false;
    });
    // Defaults, and the fields in declaration order.
    Value ordered = Value::EmptyMap();
    for (const GenericField& spec : fields_) {
      const Value* present = decoded.Find(spec.json_name);
      const bool empty_string = present != nullptr && spec.kind == FieldKind::kString &&
                                present->as_string().empty();
      const bool empty_shape = present != nullptr && spec.kind == FieldKind::kShape &&
                               present->as_list().empty();
      const bool gated_off = spec.defaulted_under != nullptr && !spec.defaulted_under(gates);
      if ((present == nullptr || empty_string || empty_shape) && !spec.default_value.is_null() && !gated_off) {
        ordered.Set(spec.json_name, spec.default_value);
      } else if (present != nullptr) {
        ordered.Set(spec.json_name, *present);
      }
    }
    config.raw = std::move(ordered);
  }

  void Validate(const PluginConfig& config, const api::FieldPath& path,
                std::vector<std::string>& errors, const ConfigFeatureGates& gates) const override {
    if (validator_ != nullptr && config.raw.has_value()) validator_(*config.raw, path, errors, gates);
  }

  Value ToV1(const PluginConfig& config) const override {
    Value out = Value::EmptyMap();
    for (const GenericField& spec : fields_) {
      const Value* present = config.raw.has_value() ? config.raw->Find(spec.json_name) : nullptr;
      const bool empty = present == nullptr || present->is_null() ||
                         (present->is_string() && present->as_string().empty()) ||
                         (present->is_list() && present->as_list().empty());
      if (spec.omitempty && empty) continue;
      out.Set(spec.json_name, present != nullptr ? *present : ZeroValue(spec));
    }
    return out;
  }

  Value ToInternal(const PluginConfig& config) const override {
    Value out = Value::EmptyMap();
    for (const GenericField& spec : fields_) {
      const Value* present = config.raw.has_value() ? config.raw->Find(spec.json_name) : nullptr;
      if (spec.kind == FieldKind::kShape && present != nullptr && present->is_list()) {
        Value internal;  // nil when empty
        for (const Value& point : present->as_list()) {
          Value item;
          item.Set("Utilization", Value::Int(IntField(point, "utilization")));
          item.Set("Score", Value::Int(IntField(point, "score")));
          internal.Append(std::move(item));
        }
        out.Set(spec.go_name, std::move(internal));
        continue;
      }
      out.Set(spec.go_name, present != nullptr ? *present : ZeroValue(spec));
    }
    return out;
  }

 private:
  static Value ZeroValue(const GenericField& spec) {
    switch (spec.kind) {
      case FieldKind::kBool:
        return Value::Bool(false);
      case FieldKind::kString:
        return Value::String("");
      default:
        return Value();  // nil pointer or slice
    }
  }

  static std::optional<Value> DecodeField(StrictDecoder& decoder, const GenericField& spec,
                                          const Value& field) {
    switch (spec.kind) {
      case FieldKind::kInt32Pointer: {
        std::int32_t v = 0;
        if (decoder.Int32(field, v)) return Value::Int(v);
        return std::nullopt;
      }
      case FieldKind::kInt64Pointer: {
        std::int64_t v = 0;
        if (decoder.Int64(field, v)) return Value::Int(v);
        return std::nullopt;
      }
      case FieldKind::kBool: {
        bool v = false;
        if (decoder.Bool(field, v)) return Value::Bool(v);
        return std::nullopt;
      }
      case FieldKind::kString: {
        std::string v;
        if (decoder.String(field, v, spec.go_type)) return Value::String(std::move(v));
        return std::nullopt;
      }
      case FieldKind::kDurationPointer: {
        std::chrono::nanoseconds v{0};
        if (decoder.Duration(field, v, /*nullable=*/true)) {
          return Value::String(api::FormatGoDuration(v));
        }
        return std::nullopt;
      }
      case FieldKind::kShape: {
        if (field.is_null()) return std::nullopt;
        std::vector<UtilizationShapePoint> shape;
        DecodeShape(decoder, field, shape);
        return ShapeV1(shape);
      }
    }
    return std::nullopt;
  }

  std::string_view kind_;
  std::vector<GenericField> fields_;
  GenericValidator validator_;
};

std::vector<std::unique_ptr<PluginArgsCodec>> MakeCodecs() {
  std::vector<std::unique_ptr<PluginArgsCodec>> codecs;
  codecs.push_back(std::make_unique<NodeResourcesFitCodec>());
  codecs.push_back(std::make_unique<BalancedAllocationCodec>());
  codecs.push_back(std::make_unique<NodeAffinityCodec>());
  codecs.push_back(std::make_unique<InterPodAffinityCodec>());
  codecs.push_back(std::make_unique<PodTopologySpreadCodec>());
  codecs.push_back(std::make_unique<GenericCodec>(
      "DefaultPreemptionArgs",
      std::vector<GenericField>{
          {"minCandidateNodesPercentage", "MinCandidateNodesPercentage", FieldKind::kInt32Pointer,
           "int32", true, Value::Int(10)},
          {"minCandidateNodesAbsolute", "MinCandidateNodesAbsolute", FieldKind::kInt32Pointer,
           "int32", true, Value::Int(100)},
      },
      ValidateDefaultPreemption));
  codecs.push_back(std::make_unique<GenericCodec>(
      "VolumeBindingArgs",
      std::vector<GenericField>{
          {"bindTimeoutSeconds", "BindTimeoutSeconds", FieldKind::kInt64Pointer, "int64", true,
           Value::Int(600)},
          // Defaulted only with the StorageCapacityScoring gate (on in v1.37).
          {"shape", "Shape", FieldKind::kShape, "[]v1.UtilizationShapePoint", true,
           DefaultVolumeBindingShape(),
           [](const ConfigFeatureGates& gates) { return gates.storage_capacity_scoring; }},
      },
      ValidateVolumeBinding));
  codecs.push_back(std::make_unique<GenericCodec>(
      "DynamicResourcesArgs",
      std::vector<GenericField>{
          // Defaulted with DRASchedulerFilterTimeout (on in v1.37): 10s.
          {"filterTimeout", "FilterTimeout", FieldKind::kDurationPointer, "string", false,
           Value::String("10s"),
           [](const ConfigFeatureGates& gates) { return gates.dra_scheduler_filter_timeout; }},
          // Defaulted with DRADeviceBindingConditions and DRAResourceClaimDeviceStatus (both on
          // in v1.37): 10m.
          {"bindingTimeout", "BindingTimeout", FieldKind::kDurationPointer, "string", true,
           Value::String("10m0s"),
           [](const ConfigFeatureGates& gates) {
             return gates.dra_device_binding_conditions && gates.dra_resource_claim_device_status;
           }},
      },
      ValidateDynamicResources));
  return codecs;
}

const std::vector<std::unique_ptr<PluginArgsCodec>>& Codecs() {
  static const auto* const codecs =
      new std::vector<std::unique_ptr<PluginArgsCodec>>(MakeCodecs());
  return *codecs;
}

}  // namespace

const PluginArgsCodec* FindPluginArgsCodec(std::string_view plugin) {
  for (const auto& codec : Codecs()) {
    const std::string_view kind = codec->kind();
    if (kind.size() == plugin.size() + 4 && kind.substr(0, plugin.size()) == plugin) {
      return codec.get();
    }
  }
  return nullptr;
}

bool IsKnownArgsKind(std::string_view kind) {
  for (const auto& codec : Codecs()) {
    if (codec->kind() == kind) return true;
  }
  return false;
}

}  // namespace ksched::config
