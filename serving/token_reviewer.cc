#include "serving/token_reviewer.h"

#include <utility>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "api/outside_json.h"
#include "client/http_types.h"

namespace ksched::serving {
namespace {

constexpr char kTokenReviewsPath[] = "/apis/authentication.k8s.io/v1/tokenreviews";

}  // namespace

std::string TokenReviewRequestJson(std::string_view token) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("apiVersion");
  writer.String("authentication.k8s.io/v1");
  writer.Key("kind");
  writer.String("TokenReview");
  writer.Key("spec");
  writer.StartObject();
  writer.Key("token");
  writer.String(token.data(), static_cast<rapidjson::SizeType>(token.size()));
  writer.EndObject();
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

absl::StatusOr<TokenReviewResult> ParseTokenReviewResponse(std::string_view json) {
  rapidjson::Document doc;
  if (!api::ParseOutsideJson(json, doc).ok() || !doc.IsObject()) {
    return absl::InternalError("TokenReview response is not a JSON object");
  }
  TokenReviewResult result;
  auto status = doc.FindMember("status");
  if (status == doc.MemberEnd() || !status->value.IsObject()) return result;  // not authenticated
  const auto& s = status->value;
  if (auto it = s.FindMember("authenticated"); it != s.MemberEnd() && it->value.IsBool()) {
    result.authenticated = it->value.GetBool();
  }
  if (auto it = s.FindMember("error"); it != s.MemberEnd() && it->value.IsString()) {
    result.error = it->value.GetString();
  }
  if (auto user = s.FindMember("user"); user != s.MemberEnd() && user->value.IsObject()) {
    const auto& u = user->value;
    if (auto it = u.FindMember("username"); it != u.MemberEnd() && it->value.IsString()) {
      result.user.name = it->value.GetString();
    }
    if (auto it = u.FindMember("uid"); it != u.MemberEnd() && it->value.IsString()) {
      result.user.uid = it->value.GetString();
    }
    if (auto it = u.FindMember("groups"); it != u.MemberEnd() && it->value.IsArray()) {
      for (const auto& group : it->value.GetArray()) {
        if (group.IsString()) result.user.groups.emplace_back(group.GetString());
      }
    }
    if (auto it = u.FindMember("extra"); it != u.MemberEnd() && it->value.IsObject()) {
      for (const auto& entry : it->value.GetObject()) {
        std::vector<std::string>& values = result.user.extra[entry.name.GetString()];
        if (!entry.value.IsArray()) continue;
        for (const auto& value : entry.value.GetArray()) {
          if (value.IsString()) values.emplace_back(value.GetString());
        }
      }
    }
  }
  return result;
}

RestTokenReviewer::RestTokenReviewer(std::shared_ptr<client::RestClient> client, WebhookBackoff backoff,
                                     std::chrono::milliseconds timeout, ReviewRequestObserver observer)
    : client_(std::move(client)), backoff_(backoff), timeout_(timeout), observer_(std::move(observer)) {}

absl::StatusOr<TokenReviewResult> RestTokenReviewer::Review(std::string_view token) {
  client::HttpRequest request;
  request.method = client::HttpMethod::kPost;
  request.target = kTokenReviewsPath;
  request.body = TokenReviewRequestJson(token);
  request.content_type = "application/json";
  request.timeout = timeout_;
  absl::StatusOr<client::HttpResponse> response;
  const absl::Status status = CallWithBackoff(backoff_, [&] {
    response = SendReviewRequest(*client_, request, observer_);
    return response.status();
  });
  if (!status.ok()) return status;
  return ParseTokenReviewResponse(response->body);
}

}  // namespace ksched::serving
