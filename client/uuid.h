// NewRandomUuid: a random (version 4, RFC 4122 variant) UUID in its canonical lower-case text form,
// "xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx", as google/uuid's uuid.New() makes it (which is what
// k8s.io/apimachinery's uuid.NewUUID() returns). Randomness: std::random_device.
//
// Thread-safety: safe from any thread.
#pragma once

#include <string>

namespace ksched::client {

std::string NewRandomUuid();

}  // namespace ksched::client
