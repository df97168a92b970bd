// NewRestClient: a RestConfig turned into a ready RestClient (credentials, HTTPS transport, QPS and
// burst), the one way the daemon builds its clients, as client-go's kubernetes.NewForConfig. An
// exec plugin's token and client certificate both reach the transport (Authenticator::Source and
// CertificateSource).
//
// Errors: those of Authenticator::Create (credential files, exec plugin configuration) and
// HttpTransport::Create (server URL, TLS material), naming the field and config.source.
// Thread-safety: the returned client is thread-safe.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "client/rest_client.h"
#include "client/http_transport.h"
#include "client/rest_config.h"

namespace ksched::client {

// `options`: qps, burst and timeout are taken from `config`; the rest from `base`. `transport`:
// the HTTP transport's options (the environment may still switch HTTP/2, see HttpTransport).
absl::StatusOr<std::shared_ptr<RestClient>> NewRestClient(const RestConfig& config,
                                                          RestClientOptions base = {},
                                                          TransportOptions transport = {});

}  // namespace ksched::client
