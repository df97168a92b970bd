#include "client/new_rest_client.h"

#include "client/authenticator.h"
#include "client/exec_credential.h"
#include "client/http_transport.h"

namespace ksched::client {

absl::StatusOr<std::shared_ptr<RestClient>> NewRestClient(const RestConfig& config,
                                                          RestClientOptions base,
                                                          TransportOptions transport_options) {
  ExecProviderOptions exec_options;
  exec_options.observer = base.exec_observer;
  absl::StatusOr<std::shared_ptr<Authenticator>> authenticator = Authenticator::Create(config, std::move(exec_options));
  if (!authenticator.ok()) return authenticator.status();
  absl::StatusOr<std::unique_ptr<HttpTransport>> transport =
      HttpTransport::Create(config, std::move(transport_options), (*authenticator)->Source(), (*authenticator)->CertificateSource());
  if (!transport.ok()) return transport.status();
  const RestClientOptions from_config = RestClientOptions::FromConfig(config);
  base.qps = from_config.qps;
  base.burst = from_config.burst;
  base.timeout = from_config.timeout;
  base.protobuf_writes = from_config.protobuf_writes;
  base.authenticator = *authenticator;
  return std::make_shared<RestClient>(std::shared_ptr<HttpTransport>(std::move(*transport)),
                                      std::move(base));
}

}  // namespace ksched::client
