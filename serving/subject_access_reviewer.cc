#include "serving/subject_access_reviewer.h"

#include <utility>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "api/outside_json.h"
#include "client/http_types.h"

namespace ksched::serving {
namespace {

constexpr char kSubjectAccessReviewsPath[] = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void WriteString(JsonWriter& writer, std::string_view text) {
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

// The spec object, fields in the order of Go's SubjectAccessReviewSpec (omitempty as there).
void WriteSpec(JsonWriter& writer, const UserInfo& user, std::string_view verb, std::string_view path) {
  writer.StartObject();
  writer.Key("nonResourceAttributes");
  writer.StartObject();
  writer.Key("path");
  WriteString(writer, path);
  writer.Key("verb");
  WriteString(writer, verb);
  writer.EndObject();
  if (!user.name.empty()) {
    writer.Key("user");
    WriteString(writer, user.name);
  }
  if (!user.groups.empty()) {
    writer.Key("groups");
    writer.StartArray();
    for (const std::string& group : user.groups) WriteString(writer, group);
    writer.EndArray();
  }
  if (!user.extra.empty()) {
    writer.Key("extra");
    writer.StartObject();
    for (const auto& [key, values] : user.extra) {
      WriteString(writer, key);  // a Key is a String in RapidJSON's writer
      writer.StartArray();
      for (const std::string& value : values) WriteString(writer, value);
      writer.EndArray();
    }
    writer.EndObject();
  }
  if (!user.uid.empty()) {
    writer.Key("uid");
    WriteString(writer, user.uid);
  }
  writer.EndObject();
}

}  // namespace

std::string SubjectAccessReviewSpecJson(const UserInfo& user, std::string_view verb, std::string_view path) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteSpec(writer, user, verb, path);
  return std::string(buffer.GetString(), buffer.GetSize());
}

absl::StatusOr<AccessReviewResult> ParseSubjectAccessReviewResponse(std::string_view json) {
  rapidjson::Document doc;
  if (!api::ParseOutsideJson(json, doc).ok() || !doc.IsObject()) {
    return absl::InternalError("SubjectAccessReview response is not a JSON object");
  }
  AccessReviewResult result;
  auto status = doc.FindMember("status");
  if (status == doc.MemberEnd() || !status->value.IsObject()) return result;  // no opinion
  const auto& s = status->value;
  if (auto it = s.FindMember("allowed"); it != s.MemberEnd() && it->value.IsBool()) {
    result.allowed = it->value.GetBool();
  }
  if (auto it = s.FindMember("denied"); it != s.MemberEnd() && it->value.IsBool()) {
    result.denied = it->value.GetBool();
  }
  if (auto it = s.FindMember("reason"); it != s.MemberEnd() && it->value.IsString()) {
    result.reason = it->value.GetString();
  }
  if (auto it = s.FindMember("evaluationError"); it != s.MemberEnd() && it->value.IsString()) {
    result.evaluation_error = it->value.GetString();
  }
  return result;
}

RestSubjectAccessReviewer::RestSubjectAccessReviewer(std::shared_ptr<client::RestClient> client,
                                                     WebhookBackoff backoff,
                                                     std::chrono::milliseconds timeout, ReviewRequestObserver observer)
    : client_(std::move(client)), backoff_(backoff), timeout_(timeout), observer_(std::move(observer)) {}

absl::StatusOr<AccessReviewResult> RestSubjectAccessReviewer::Review(const UserInfo& user, std::string_view verb,
                                                                     std::string_view path) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  writer.Key("apiVersion");
  writer.String("authorization.k8s.io/v1");
  writer.Key("kind");
  writer.String("SubjectAccessReview");
  writer.Key("spec");
  WriteSpec(writer, user, verb, path);
  writer.EndObject();

  client::HttpRequest request;
  request.method = client::HttpMethod::kPost;
  request.target = kSubjectAccessReviewsPath;
  request.body.assign(buffer.GetString(), buffer.GetSize());
  request.content_type = "application/json";
  request.timeout = timeout_;
  absl::StatusOr<client::HttpResponse> response;
  const absl::Status status = CallWithBackoff(backoff_, [&] {
    response = SendReviewRequest(*client_, request, observer_);
    return response.status();
  });
  if (!status.ok()) return status;
  return ParseSubjectAccessReviewResponse(response->body);
}

}  // namespace ksched::serving
