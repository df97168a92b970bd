#include "serving/http_exchange.h"

namespace ksched::serving {

ServingResponse ServingResponse::Error(int status, std::string message) {
  ServingResponse response;
  response.status = status;
  response.content_type = kTextPlain;
  response.body = std::move(message);
  response.body += '\n';
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

ServingResponse ServingResponse::NotFound() { return Error(404, "404 page not found"); }

}  // namespace ksched::serving
