#include "plugins/helper/taint.h"

namespace ksched::plugins::helper {

bool ToleratesTaint(const api::Toleration& toleration, const api::Taint& taint) noexcept {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) return false;
  if (!toleration.key.empty() && toleration.key != taint.key) return false;
  if (toleration.op.empty() || toleration.op == api::kTolerationOpEqual) {
    return toleration.value == taint.value;
  }
  return toleration.op == api::kTolerationOpExists;
}

bool TolerationsTolerateTaint(std::span<const api::Toleration> tolerations,
                              const api::Taint& taint) noexcept {
  for (const api::Toleration& toleration : tolerations) {
    if (ToleratesTaint(toleration, taint)) return true;
  }
  return false;
}

bool IsDoNotScheduleTaint(const api::Taint& taint) noexcept {
  return taint.effect == api::kTaintEffectNoSchedule || taint.effect == api::kTaintEffectNoExecute;
}

}  // namespace ksched::plugins::helper
