// ScopedProcessFeatures: sets the process's framework::Features for one test and restores the
// previous ones when it goes out of scope. Single-threaded tests only (SetProcessFeatures'
// contract: no other thread reads meanwhile).
#pragma once

#include "framework/features.h"

namespace ksched::framework::testing {

class ScopedProcessFeatures {
 public:
  explicit ScopedProcessFeatures(const Features& features) : saved_(ProcessFeatures()) {
    SetProcessFeatures(features);
  }
  ~ScopedProcessFeatures() { SetProcessFeatures(saved_); }
  ScopedProcessFeatures(const ScopedProcessFeatures&) = delete;
  ScopedProcessFeatures& operator=(const ScopedProcessFeatures&) = delete;

 private:
  Features saved_;
};

}  // namespace ksched::framework::testing
