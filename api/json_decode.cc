#include "api/json_decode.h"

#include <cstddef>
#include <cstring>
#include <string>

#include "api/json_decode_internal.h"
#include "rapidjson/error/en.h"

namespace ksched::api {

namespace {

using json_internal::DecodeContext;
using json_internal::JsonValue;
using json_internal::PathScope;

template <typename T>
struct KindTraits;

// KindTraits<T>: the kind's name, its list's name, and its reader json_internal::Read<T>.
#define KSCHED_KIND_TRAITS(T)                                                    \
  template <>                                                                    \
  struct KindTraits<T> {                                                         \
    static constexpr std::string_view kKind = #T;                                \
    static constexpr std::string_view kListKind = #T "List";                     \
    static absl::Status Read(const JsonValue& v, DecodeContext& ctx, T& out) {   \
      return json_internal::Read##T(v, ctx, out);                                \
    }                                                                            \
  };
KSCHED_KIND_TRAITS(Pod)
KSCHED_KIND_TRAITS(Node)
KSCHED_KIND_TRAITS(PodDisruptionBudget)
KSCHED_KIND_TRAITS(Service)
KSCHED_KIND_TRAITS(ReplicationController)
KSCHED_KIND_TRAITS(ReplicaSet)
KSCHED_KIND_TRAITS(StatefulSet)
KSCHED_KIND_TRAITS(Namespace)
KSCHED_KIND_TRAITS(PersistentVolumeClaim)
KSCHED_KIND_TRAITS(PersistentVolume)
KSCHED_KIND_TRAITS(StorageClass)
KSCHED_KIND_TRAITS(CSINode)
KSCHED_KIND_TRAITS(VolumeAttachment)
KSCHED_KIND_TRAITS(CSIDriver)
KSCHED_KIND_TRAITS(CSIStorageCapacity)
KSCHED_KIND_TRAITS(ResourceSlice)
KSCHED_KIND_TRAITS(DeviceClass)
KSCHED_KIND_TRAITS(ResourceClaim)
#undef KSCHED_KIND_TRAITS

constexpr std::string_view kStatusKind = "Status";

constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag;

absl::Status ParseError(const rapidjson::Document& document) {
  std::string message = "invalid JSON at offset ";
  message.append(std::to_string(document.GetErrorOffset()));
  message.append(": ");
  message.append(rapidjson::GetParseError_En(document.GetParseError()));
  return absl::InvalidArgumentError(message);
}

// A raw NUL byte is never valid JSON, but RapidJSON takes it for the end of the input.
absl::Status CheckNoNul(std::string_view text) {
  const void* nul = std::memchr(text.data(), '\0', text.size());
  if (nul == nullptr) return absl::OkStatus();
  const auto offset = static_cast<const char*>(nul) - text.data();
  return absl::InvalidArgumentError("invalid JSON at offset " + std::to_string(offset) +
                                    ": NUL byte");
}

// The first kPoolBufferSize bytes of a parsed document live on the stack, which covers most single
// objects without a heap chunk.
constexpr std::size_t kPoolBufferSize = 8192;

// Parses `text` (copying) or `*buffer` (in situ) and decodes the root with `decode`.
template <typename R, typename F>
absl::StatusOr<R> ParseAndDecode(std::string_view text, std::string* buffer, F&& decode) {
  alignas(std::max_align_t) char pool[kPoolBufferSize];
  rapidjson::MemoryPoolAllocator<> allocator(pool, sizeof pool);
  rapidjson::Document document(&allocator);
  absl::Status status = CheckNoNul(text);
  if (!status.ok()) return status;
  if (buffer != nullptr) {
    document.ParseInsitu<kParseFlags>(buffer->data());
  } else {
    document.Parse<kParseFlags>(text.data(), text.size());
  }
  if (document.HasParseError()) return ParseError(document);
  return decode(static_cast<const rapidjson::Value&>(document));
}

template <typename T>
absl::StatusOr<T> DecodeObject(const rapidjson::Value& json) {
  DecodeContext ctx;
  absl::Status status = json_internal::CheckKind(json, ctx, KindTraits<T>::kKind);
  if (!status.ok()) return status;
  T object;
  status = KindTraits<T>::Read(json, ctx, object);
  if (!status.ok()) return status;
  return object;
}

absl::Status ReadListMeta(const JsonValue& v, DecodeContext& ctx, ListMeta& out) {
  return json_internal::ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "resourceVersion") {
      return json_internal::ReadString(value, ctx, out.resource_version);
    }
    if (name == "continue") return json_internal::ReadString(value, ctx, out.continue_token);
    if (name == "remainingItemCount") {
      return json_internal::ReadOptionalInt64(value, ctx, out.remaining_item_count);
    }
    return absl::OkStatus();
  });
}

template <typename T>
absl::Status ReadItems(const JsonValue& v, DecodeContext& ctx, std::vector<T>& out) {
  if (!v.IsArray()) {
    return ctx.Error("expected an array, got " + std::string(json_internal::JsonTypeName(v)));
  }
  out.clear();
  out.reserve(v.Size());
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    ctx.PushIndex(i);
    PathScope scope(ctx);
    absl::Status status = json_internal::CheckKind(v[i], ctx, KindTraits<T>::kKind);
    if (!status.ok()) return status;
    status = KindTraits<T>::Read(v[i], ctx, out.emplace_back());
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// `name` of `object`, or nullptr when absent or null.
const JsonValue* FindNonNull(const JsonValue& object, const char* name) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}

absl::Status MissingField(DecodeContext& ctx, std::string_view name) {
  ctx.PushField(name);
  PathScope scope(ctx);
  return ctx.Error("required field is missing");
}

}  // namespace

absl::Status ParseJson(std::string_view text, rapidjson::Document& document) {
  absl::Status status = CheckNoNul(text);
  if (!status.ok()) return status;
  document.Parse<kParseFlags>(text.data(), text.size());
  if (document.HasParseError()) return ParseError(document);
  return absl::OkStatus();
}

absl::Status ParseJsonInSitu(std::string& buffer, rapidjson::Document& document) {
  absl::Status status = CheckNoNul(buffer);
  if (!status.ok()) return status;
  document.ParseInsitu<kParseFlags>(buffer.data());
  if (document.HasParseError()) return ParseError(document);
  return absl::OkStatus();
}

absl::StatusOr<Pod> DecodePod(const rapidjson::Value& json) { return DecodeObject<Pod>(json); }
absl::StatusOr<Pod> DecodePod(std::string_view json) {
  return ParseAndDecode<Pod>(json, nullptr, DecodeObject<Pod>);
}
absl::StatusOr<Pod> DecodePodInSitu(std::string& json) {
  return ParseAndDecode<Pod>(json, &json, DecodeObject<Pod>);
}

absl::StatusOr<Node> DecodeNode(const rapidjson::Value& json) {
  return DecodeObject<Node>(json);
}
absl::StatusOr<Node> DecodeNode(std::string_view json) {
  return ParseAndDecode<Node>(json, nullptr, DecodeObject<Node>);
}
absl::StatusOr<Node> DecodeNodeInSitu(std::string& json) {
  return ParseAndDecode<Node>(json, &json, DecodeObject<Node>);
}

absl::StatusOr<PodDisruptionBudget> DecodePodDisruptionBudget(const rapidjson::Value& json) {
  return DecodeObject<PodDisruptionBudget>(json);
}
absl::StatusOr<PodDisruptionBudget> DecodePodDisruptionBudget(std::string_view json) {
  return ParseAndDecode<PodDisruptionBudget>(json, nullptr, DecodeObject<PodDisruptionBudget>);
}
absl::StatusOr<PodDisruptionBudget> DecodePodDisruptionBudgetInSitu(std::string& json) {
  return ParseAndDecode<PodDisruptionBudget>(json, &json, DecodeObject<PodDisruptionBudget>);
}

absl::StatusOr<ResourceClaim> DecodeResourceClaim(const rapidjson::Value& json) {
  return DecodeObject<ResourceClaim>(json);
}
absl::StatusOr<ResourceClaim> DecodeResourceClaim(std::string_view json) {
  return ParseAndDecode<ResourceClaim>(json, nullptr, DecodeObject<ResourceClaim>);
}

absl::StatusOr<ApiStatus> DecodeApiStatus(const rapidjson::Value& json) {
  DecodeContext ctx;
  absl::Status status = json_internal::CheckKind(json, ctx, kStatusKind);
  if (!status.ok()) return status;
  ApiStatus result;
  status = json_internal::ReadApiStatus(json, ctx, result);
  if (!status.ok()) return status;
  return result;
}
absl::StatusOr<ApiStatus> DecodeApiStatus(std::string_view json) {
  return ParseAndDecode<ApiStatus>(
      json, nullptr, [](const rapidjson::Value& v) { return DecodeApiStatus(v); });
}

template <DecodableObject T>
absl::StatusOr<ObjectList<T>> DecodeList(const rapidjson::Value& json) {
  DecodeContext ctx;
  absl::Status status = json_internal::CheckKind(json, ctx, KindTraits<T>::kListKind);
  if (!status.ok()) return status;
  ObjectList<T> list;
  status = json_internal::ForEachField(json, ctx, [&](std::string_view name,
                                                      const JsonValue& value) {
    if (name == "metadata") return ReadListMeta(value, ctx, list.metadata);
    if (name == "items") return ReadItems(value, ctx, list.items);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return list;
}

template <DecodableObject T>
absl::StatusOr<ObjectList<T>> DecodeList(std::string_view json) {
  return ParseAndDecode<ObjectList<T>>(
      json, nullptr, [](const rapidjson::Value& v) { return DecodeList<T>(v); });
}

template <DecodableObject T>
absl::StatusOr<ObjectList<T>> DecodeListInSitu(std::string& json) {
  return ParseAndDecode<ObjectList<T>>(
      json, &json, [](const rapidjson::Value& v) { return DecodeList<T>(v); });
}

template <DecodableObject T>
absl::StatusOr<WatchEvent<T>> DecodeWatchEvent(const rapidjson::Value& json) {
  DecodeContext ctx;
  if (!json.IsObject()) {
    return ctx.Error("expected an object, got " + std::string(json_internal::JsonTypeName(json)));
  }
  WatchEvent<T> event;

  const JsonValue* type = FindNonNull(json, "type");
  if (type == nullptr) return MissingField(ctx, "type");
  {
    ctx.PushField("type");
    PathScope scope(ctx);
    if (!type->IsString()) {
      return ctx.Error("expected a string, got " +
                       std::string(json_internal::JsonTypeName(*type)));
    }
    const std::string_view name = json_internal::AsStringView(*type);
    if (name == "ADDED") {
      event.type = WatchEventType::kAdded;
    } else if (name == "MODIFIED") {
      event.type = WatchEventType::kModified;
    } else if (name == "DELETED") {
      event.type = WatchEventType::kDeleted;
    } else if (name == "BOOKMARK") {
      event.type = WatchEventType::kBookmark;
    } else if (name == "ERROR") {
      event.type = WatchEventType::kError;
    } else {
      return ctx.Error("invalid watch event type " + GoQuote(name));
    }
  }

  const JsonValue* object = FindNonNull(json, "object");
  if (object == nullptr) return MissingField(ctx, "object");
  ctx.PushField("object");
  PathScope scope(ctx);
  absl::Status status;
  switch (event.type) {
    case WatchEventType::kAdded:
    case WatchEventType::kModified:
    case WatchEventType::kDeleted:
      status = json_internal::CheckKind(*object, ctx, KindTraits<T>::kKind);
      if (status.ok()) status = KindTraits<T>::Read(*object, ctx, event.object);
      break;
    case WatchEventType::kBookmark: {
      // Only metadata matters: {"kind":"Pod","metadata":{"resourceVersion":"..",
      // "annotations":{"k8s.io/initial-events-end":"true"}},...}.
      ObjectMeta metadata;
      status = json_internal::CheckKind(*object, ctx, KindTraits<T>::kKind);
      if (status.ok()) {
        status = json_internal::ForEachField(
            *object, ctx, [&](std::string_view name, const JsonValue& value) {
              if (name == "metadata") return json_internal::ReadObjectMeta(value, ctx, metadata);
              return absl::OkStatus();
            });
      }
      if (status.ok()) {
        event.resource_version = std::move(metadata.resource_version);
        event.initial_events_end =
            metadata.annotations.Get(kInitialEventsEndAnnotation) == std::string_view("true");
      }
      break;
    }
    case WatchEventType::kError:
      status = json_internal::CheckKind(*object, ctx, kStatusKind);
      if (status.ok()) status = json_internal::ReadApiStatus(*object, ctx, event.error);
      break;
  }
  if (!status.ok()) return status;
  return event;
}

template <DecodableObject T>
absl::StatusOr<WatchEvent<T>> DecodeWatchEvent(std::string_view json) {
  return ParseAndDecode<WatchEvent<T>>(
      json, nullptr, [](const rapidjson::Value& v) { return DecodeWatchEvent<T>(v); });
}

template <DecodableObject T>
absl::StatusOr<WatchEvent<T>> DecodeWatchEventInSitu(std::string& json) {
  return ParseAndDecode<WatchEvent<T>>(
      json, &json, [](const rapidjson::Value& v) { return DecodeWatchEvent<T>(v); });
}

#define KSCHED_INSTANTIATE_DECODERS(T)                                                    \
  template absl::StatusOr<ObjectList<T>> DecodeList<T>(const rapidjson::Value&);           \
  template absl::StatusOr<ObjectList<T>> DecodeList<T>(std::string_view);                  \
  template absl::StatusOr<ObjectList<T>> DecodeListInSitu<T>(std::string&);                \
  template absl::StatusOr<WatchEvent<T>> DecodeWatchEvent<T>(const rapidjson::Value&);     \
  template absl::StatusOr<WatchEvent<T>> DecodeWatchEvent<T>(std::string_view);            \
  template absl::StatusOr<WatchEvent<T>> DecodeWatchEventInSitu<T>(std::string&);
KSCHED_INSTANTIATE_DECODERS(Pod)
KSCHED_INSTANTIATE_DECODERS(Node)
KSCHED_INSTANTIATE_DECODERS(PodDisruptionBudget)
KSCHED_INSTANTIATE_DECODERS(Service)
KSCHED_INSTANTIATE_DECODERS(ReplicationController)
KSCHED_INSTANTIATE_DECODERS(ReplicaSet)
KSCHED_INSTANTIATE_DECODERS(StatefulSet)
KSCHED_INSTANTIATE_DECODERS(Namespace)
KSCHED_INSTANTIATE_DECODERS(PersistentVolumeClaim)
KSCHED_INSTANTIATE_DECODERS(PersistentVolume)
KSCHED_INSTANTIATE_DECODERS(StorageClass)
KSCHED_INSTANTIATE_DECODERS(CSINode)
KSCHED_INSTANTIATE_DECODERS(VolumeAttachment)
KSCHED_INSTANTIATE_DECODERS(CSIDriver)
KSCHED_INSTANTIATE_DECODERS(CSIStorageCapacity)
KSCHED_INSTANTIATE_DECODERS(ResourceSlice)
KSCHED_INSTANTIATE_DECODERS(DeviceClass)
KSCHED_INSTANTIATE_DECODERS(ResourceClaim)
#undef KSCHED_INSTANTIATE_DECODERS

}  // namespace ksched::api
