#include "client/object_encoding.h"

#include <utility>

#include "api/protobuf_wire.h"

namespace ksched::client {

absl::Status CheckContentType(std::string_view content_type) {
  std::string_view media_type = content_type.substr(0, content_type.find(';'));
  while (!media_type.empty() && media_type.back() == ' ') media_type.remove_suffix(1);
  if (api::protobuf::IsProtobufContentType(content_type) || media_type == "application/json") {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      "Unsupported value: \"" + std::string(content_type) +
      "\": supported values: \"application/json\", \"application/vnd.kubernetes.protobuf\"");
}

HttpRequest ObjectPostRequest(std::string target, std::string body, bool protobuf) {
  HttpRequest request;
  request.method = HttpMethod::kPost;
  request.target = std::move(target);
  request.body = std::move(body);
  if (protobuf) {
    request.content_type = std::string(api::protobuf::kContentType);
    request.accept = std::string(api::protobuf::kAcceptProtobufFirst);
  } else {
    request.content_type = "application/json";
  }
  return request;
}

}  // namespace ksched::client
