#include "framework/features.h"

namespace ksched::framework {
namespace {

Features& Mutable() {
  static Features features;
  return features;
}

}  // namespace

const Features& ProcessFeatures() { return Mutable(); }

void SetProcessFeatures(const Features& features) { Mutable() = features; }

}  // namespace ksched::framework
