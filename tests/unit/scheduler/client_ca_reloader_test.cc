// ClientCaReloader with a bundle read from a variable: the CAs follow it every interval; a read or
// a bundle that fails keeps the CAs in use.
#include "scheduler/client_ca_reloader.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "../serving/test_pki.h"

namespace ksched::scheduler {
namespace {

using serving::testing::TestCa;

TEST_CASE("ClientCaReloader follows the bundle and keeps the CAs when a read fails") {
  const TestCa first("first-ca");
  const TestCa second("second-ca");
  absl::StatusOr<std::unique_ptr<serving::ClientCertificateAuthenticator>> made =
      serving::ClientCertificateAuthenticator::Create(first.pem(), "client-ca-bundle::test");
  REQUIRE(made.ok());
  std::shared_ptr<serving::ClientCertificateAuthenticator> authenticator = *std::move(made);
  const std::string by_first = first.Issue({"one", {}}).cert_der;
  const std::string by_second = second.Issue({"two", {}}).cert_der;

  std::mutex mu;
  absl::StatusOr<std::string> bundle = first.pem();
  auto read = [&] {
    std::lock_guard lock(mu);
    return bundle;
  };
  auto set = [&](absl::StatusOr<std::string> next) {
    std::lock_guard lock(mu);
    bundle = std::move(next);
  };
  ClientCaReloader reloader(authenticator, read, std::chrono::milliseconds(10));
  auto eventually = [](auto condition) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!condition()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
  };

  set(absl::UnavailableError("the API server is down"));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // several failed reads
  CHECK(authenticator->Authenticate({by_first}).ok());

  set(second.pem());
  CHECK(eventually([&] { return authenticator->Authenticate({by_second}).ok(); }));
  CHECK_FALSE(authenticator->Authenticate({by_first}).ok());

  set(std::string("not a bundle"));
  absl::StatusOr<bool> once = reloader.ReloadOnce();
  CHECK_FALSE(once.ok());
  CHECK(authenticator->Authenticate({by_second}).ok());
}

}  // namespace
}  // namespace ksched::scheduler
