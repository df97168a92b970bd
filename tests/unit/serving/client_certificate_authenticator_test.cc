// ClientCertificateAuthenticator with certificates made by a throwaway CA: who a verified
// certificate is, what refuses one, what gives no opinion; and RequestAuthenticator's union of the
// certificate and the bearer token (upstream's x509 and token authenticators, failing on error).
#include "serving/client_certificate_authenticator.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "fake_reviewers.h"
#include "serving/request_authenticator.h"
#include "test_pki.h"

namespace ksched::serving {
namespace {

using testing::IssuedCertificate;
using testing::LeafSpec;
using testing::TestCa;

std::unique_ptr<ClientCertificateAuthenticator> For(const TestCa& ca, std::vector<double>* observed = nullptr) {
  ClientCertificateAuthenticator::ExpirationObserver observer;
  if (observed != nullptr) observer = [observed](double seconds) { observed->push_back(seconds); };
  absl::StatusOr<std::unique_ptr<ClientCertificateAuthenticator>> made =
      ClientCertificateAuthenticator::Create(ca.pem(), "--client-ca-file test", observer);
  REQUIRE(made.ok());
  return *std::move(made);
}

TEST_CASE("a certificate the CA signed is the user of its CommonName in the groups of its Organizations") {
  const TestCa ca("test-ca");
  std::vector<double> observed;
  const auto authenticator = For(ca, &observed);
  const IssuedCertificate admin = ca.Issue({"jane", {"system:masters", "ops"}});
  absl::StatusOr<std::optional<UserInfo>> user = authenticator->Authenticate({admin.cert_der});
  REQUIRE(user.ok());
  REQUIRE(user->has_value());
  CHECK((*user)->name == "jane");
  CHECK((*user)->groups == std::vector<std::string>{"system:masters", "ops"});
  REQUIRE((*user)->extra.count(kCredentialIdExtra) == 1);
  CHECK_THAT((*user)->extra.at(kCredentialIdExtra).at(0), Catch::StartsWith("X509SHA256="));
  CHECK((*user)->extra.at(kCredentialIdExtra).at(0).size() == std::string("X509SHA256=").size() + 64);
  // The remaining lifetime was observed: a day less the seconds the test took.
  REQUIRE(observed.size() == 1);
  CHECK(observed[0] <= 86400);
  CHECK(observed[0] > 86400 - 60);
}

TEST_CASE("the uid of the 1.3.6.1.4.1.57683.2 subject attribute, as upstream's parseUIDFromCert") {
  const TestCa ca("test-ca");
  const auto authenticator = For(ca);
  LeafSpec one{"jane", {}};
  one.uids = {"uid-1234"};
  absl::StatusOr<std::optional<UserInfo>> user = authenticator->Authenticate({ca.Issue(one).cert_der});
  REQUIRE(user.ok());
  REQUIRE(user->has_value());
  CHECK((*user)->uid == "uid-1234");
  LeafSpec two{"jane", {}};
  two.uids = {"a", "b"};
  absl::StatusOr<std::optional<UserInfo>> several = authenticator->Authenticate({ca.Issue(two).cert_der});
  REQUIRE_FALSE(several.ok());
  CHECK(std::string(several.status().message()) == "expected 1 UID, but found multiple: [a b]");
  LeafSpec none{"jane", {}};
  absl::StatusOr<std::optional<UserInfo>> without = authenticator->Authenticate({ca.Issue(none).cert_der});
  REQUIRE(without.ok());
  CHECK((*without)->uid.empty());
}

TEST_CASE("no certificate, or one without a CommonName: no opinion") {
  const TestCa ca("test-ca");
  const auto authenticator = For(ca);
  absl::StatusOr<std::optional<UserInfo>> none = authenticator->Authenticate({});
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());
  absl::StatusOr<std::optional<UserInfo>> nameless = authenticator->Authenticate({ca.Issue({"", {"system:masters"}}).cert_der});
  REQUIRE(nameless.ok());
  CHECK_FALSE(nameless->has_value());
}

TEST_CASE("certificates that fail verification are refused with upstream's reasons") {
  const TestCa ca("test-ca");
  const TestCa other("other-ca");
  std::vector<double> observed;
  const auto authenticator = For(ca, &observed);
  struct Case {
    const char* name;
    IssuedCertificate certificate;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"another CA's", other.Issue({"mallory", {"system:masters"}}), "x509: certificate signed by unknown authority"},
      {"expired", ca.Issue({"late", {}, -7200, -3600}), "x509: certificate has expired or is not yet valid"},
      {"not yet valid", ca.Issue({"early", {}, 3600, 7200}), "x509: certificate has expired or is not yet valid"},
      {"for servers only", ca.Issue({"server", {}, -60, 86400, "serverAuth"}),
       "x509: certificate specifies an incompatible key usage"},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      absl::StatusOr<std::optional<UserInfo>> user = authenticator->Authenticate({c.certificate.cert_der});
      REQUIRE_FALSE(user.ok());
      const std::string message(user.status().message());
      CHECK_THAT(message, Catch::StartsWith("verifying certificate SN="));
      CHECK_THAT(message, Catch::Contains(", SKID=") && Catch::Contains(", AKID="));
      CHECK_THAT(message, Catch::EndsWith(std::string("failed: ") + c.reason));
      CHECK(observed.size() == 1);  // observed before verification, as upstream
    }
  }
  SECTION("no extended key usage: any use, as Go's verifier allows") {
    absl::StatusOr<std::optional<UserInfo>> user =
        authenticator->Authenticate({ca.Issue({"plain", {}, -60, 86400, nullptr}).cert_der});
    REQUIRE(user.ok());
    CHECK(user->has_value());
  }
}

TEST_CASE("a CA bundle without certificates, or with a broken one, is refused at Create") {
  absl::StatusOr<std::unique_ptr<ClientCertificateAuthenticator>> empty =
      ClientCertificateAuthenticator::Create("not a certificate\n", "--client-ca-file /x");
  REQUIRE_FALSE(empty.ok());
  CHECK(std::string(empty.status().message()) == "error loading CA bundle for \"--client-ca-file /x\": data does not contain any valid RSA or ECDSA certificates");
  const TestCa ca("test-ca");
  std::string broken = ca.pem();
  broken.replace(broken.find("MII") + 10, 8, "!!!!!!!!");
  CHECK_FALSE(ClientCertificateAuthenticator::Create(broken, "--client-ca-file /x").ok());
  absl::StatusOr<std::unique_ptr<ClientCertificateAuthenticator>> two =
      ClientCertificateAuthenticator::Create(ca.pem() + TestCa("second").pem(), "bundle");
  REQUIRE(two.ok());
  CHECK((*two)->ca_subjects_der().size() == 2);
}

TEST_CASE("RequestAuthenticator: the certificate first, then the token, failing on error") {
  const TestCa ca("test-ca");
  const TestCa other("other-ca");
  auto reviewer = std::make_shared<testing::FakeTokenReviewer>();
  reviewer->results["good-token"] = TokenReviewResult{true, UserInfo{"token-user", "", {"g"}, {}}, {}};
  RequestAuthenticatorOptions options;
  options.client_certificates = For(ca);
  RequestAuthenticator authenticator(reviewer, options);
  const std::string good = ca.Issue({"jane", {"ops"}}).cert_der;
  const std::string rogue = other.Issue({"mallory", {"system:masters"}}).cert_der;

  absl::StatusOr<UserInfo> by_certificate = authenticator.Authenticate("Bearer good-token", {good});
  REQUIRE(by_certificate.ok());
  CHECK(by_certificate->name == "jane");
  CHECK(by_certificate->groups == std::vector<std::string>{"ops", kAuthenticatedGroup});

  absl::StatusOr<UserInfo> rogue_alone = authenticator.Authenticate("", {rogue});
  REQUIRE_FALSE(rogue_alone.ok());
  CHECK_THAT(std::string(rogue_alone.status().message()), Catch::StartsWith("verifying certificate SN="));

  absl::StatusOr<UserInfo> rogue_with_token = authenticator.Authenticate("Bearer good-token", {rogue});
  REQUIRE(rogue_with_token.ok());
  CHECK(rogue_with_token->name == "token-user");

  absl::StatusOr<UserInfo> rogue_with_bad_token = authenticator.Authenticate("Bearer bad-token", {rogue});
  REQUIRE_FALSE(rogue_with_bad_token.ok());
  CHECK_THAT(std::string(rogue_with_bad_token.status().message()), Catch::StartsWith("[verifying certificate SN="));
  CHECK_THAT(std::string(rogue_with_bad_token.status().message()), Catch::EndsWith(", invalid bearer token]"));

  absl::StatusOr<UserInfo> nothing = authenticator.Authenticate("", {});
  REQUIRE(nothing.ok());
  CHECK(*nothing == UserInfo::Anonymous());

  // Without a TokenReviewer (no --authentication-kubeconfig) certificates still authenticate.
  RequestAuthenticator certificates_only(nullptr, options);
  absl::StatusOr<UserInfo> alone = certificates_only.Authenticate("Bearer good-token", {good});
  REQUIRE(alone.ok());
  CHECK(alone->name == "jane");
  CHECK_FALSE(certificates_only.Authenticate("", {rogue}).ok());
}

}  // namespace
}  // namespace ksched::serving

namespace ksched::serving {
namespace {

TEST_CASE("Reload swaps the CAs, and a bundle that does not load keeps those in use") {
  const testing::TestCa first("first-ca");
  const testing::TestCa second("second-ca");
  absl::StatusOr<std::unique_ptr<ClientCertificateAuthenticator>> made =
      ClientCertificateAuthenticator::Create(first.pem(), "client-ca-bundle::test");
  REQUIRE(made.ok());
  ClientCertificateAuthenticator& authenticator = **made;
  const std::string by_first = first.Issue({"one", {}}).cert_der;
  const std::string by_second = second.Issue({"two", {}}).cert_der;
  CHECK(authenticator.Authenticate({by_first}).ok());
  CHECK_FALSE(authenticator.Authenticate({by_second}).ok());

  absl::StatusOr<bool> same = authenticator.Reload(first.pem());
  REQUIRE(same.ok());
  CHECK_FALSE(*same);

  absl::StatusOr<bool> bad = authenticator.Reload("garbage");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(std::string(bad.status().message()), Catch::StartsWith("error loading CA bundle for \"client-ca-bundle::test\""));
  CHECK(authenticator.Authenticate({by_first}).ok());

  absl::StatusOr<bool> changed = authenticator.Reload(second.pem());
  REQUIRE(changed.ok());
  CHECK(*changed);
  CHECK_FALSE(authenticator.Authenticate({by_first}).ok());
  CHECK(authenticator.Authenticate({by_second}).ok());
}

}  // namespace
}  // namespace ksched::serving
