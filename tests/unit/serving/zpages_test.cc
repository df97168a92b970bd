// /flagz and /statusz: the table of upstream's flagz_test.go / statusz_test.go (apiserver v0.37.2)
// for content negotiation, plus the exact documents and text forms.
#include "serving/zpages.h"

#include <catch2/catch.hpp>

#include "serving/zpage_encoding.h"

namespace ksched::serving {
namespace {

ServingRequest Get(std::string accept, std::string user_agent = "", std::string query = "") {
  ServingRequest request;
  request.method = "GET";
  request.path = "/flagz";
  request.accept = std::move(accept);
  request.user_agent = std::move(user_agent);
  request.query = std::move(query);
  return request;
}

std::string Header(const std::string& page) {
  return "\nkube-scheduler " + page +
         "\nWarning: This endpoint is not meant to be machine parseable, has no formatting compatibility guarantees "
         "and is for debugging purposes only.\n";
}

const std::map<std::string, std::string> kFlags = {{"v", "2"}, {"authorization-always-allow-paths", "[/healthz,/readyz,/livez]"},
                                                   {"config", ""}};

TEST_CASE("flagz negotiation as upstream's table", "[serving][zpages]") {
  struct Case {
    const char* name;
    const char* accept;
    int status;
    const char* content_type;
  };
  const Case cases[] = {
      {"text/plain", "text/plain", 200, "text/plain; charset=utf-8"},
      {"json v1beta1", "application/json;v=v1beta1;g=config.k8s.io;as=Flagz", 200,
       "application/json;g=config.k8s.io;v=v1beta1;as=Flagz"},
      {"json v1alpha1 (deprecated)", "application/json;v=v1alpha1;g=config.k8s.io;as=Flagz", 200,
       "application/json;g=config.k8s.io;v=v1alpha1;as=Flagz"},
      {"yaml v1beta1", "application/yaml;v=v1beta1;g=config.k8s.io;as=Flagz", 200,
       "application/yaml;g=config.k8s.io;v=v1beta1;as=Flagz"},
      {"cbor (CBORServingAndStorage is off)", "application/cbor;v=v1beta1;g=config.k8s.io;as=Flagz", 406,
       "application/json"},
      {"no accept header", "", 200, "text/plain; charset=utf-8"},
      {"blank accept header", "  ", 200, "text/plain; charset=utf-8"},
      {"wildcard", "*/*", 200, "text/plain; charset=utf-8"},
      {"bad version then wildcard", "application/json;v=foo;g=config.k8s.io;as=Flagz,*/*", 200,
       "text/plain; charset=utf-8"},
      {"application/xml", "application/xml", 406, "application/json"},
      {"application/json without params", "application/json", 406, "application/json"},
      {"application/json with missing params", "application/json;v=v1beta1;g=config.k8s.io", 406, "application/json"},
      {"the other kind", "application/json;v=v1beta1;g=config.k8s.io;as=Statusz", 406, "application/json"},
      {"q prefers text", "application/json;v=v1beta1;g=config.k8s.io;as=Flagz;q=0.5,text/plain", 200,
       "text/plain; charset=utf-8"},
  };
  const Handler handler = FlagzHandler("kube-scheduler", kFlags);
  for (const Case& c : cases) {
    INFO(c.name);
    const ServingResponse response = handler(Get(c.accept));
    CHECK(response.status == c.status);
    CHECK(response.content_type == c.content_type);
    const bool warned = !response.headers.empty() && response.headers[0].first == "Warning";
    CHECK(warned == (std::string_view(c.accept).find("v1alpha1") != std::string_view::npos));
  }
}

TEST_CASE("flagz documents: JSON, indented JSON for curl, YAML and text", "[serving][zpages]") {
  const Handler handler = FlagzHandler("kube-scheduler", kFlags);
  const std::string accept = "application/json;v=v1beta1;g=config.k8s.io;as=Flagz";
  CHECK(handler(Get(accept)).body ==
        "{\"kind\":\"Flagz\",\"apiVersion\":\"config.k8s.io/v1beta1\",\"metadata\":{\"name\":\"kube-scheduler\"},"
        "\"flags\":{\"authorization-always-allow-paths\":\"[/healthz,/readyz,/livez]\",\"config\":\"\",\"v\":\"2\"}}\n");
  CHECK(handler(Get(accept, "curl/8.14.1")).body ==
        "{\n  \"kind\": \"Flagz\",\n  \"apiVersion\": \"config.k8s.io/v1beta1\",\n  \"metadata\": {\n    \"name\": "
        "\"kube-scheduler\"\n  },\n  \"flags\": {\n    \"authorization-always-allow-paths\": \"[/healthz,/readyz,/livez]\",\n"
        "    \"config\": \"\",\n    \"v\": \"2\"\n  }\n}");
  CHECK(handler(Get(accept, "", "pretty=true")).body == handler(Get(accept, "curl/8.14.1")).body);
  CHECK(handler(Get(accept, "curl/8.14.1", "pretty=false")).body.ends_with("}}\n"));
  CHECK(handler(Get("application/yaml;v=v1beta1;g=config.k8s.io;as=Flagz")).body ==
        "apiVersion: config.k8s.io/v1beta1\nflags:\n  authorization-always-allow-paths: '[/healthz,/readyz,/livez]'\n"
        "  config: \"\"\n  v: \"2\"\nkind: Flagz\nmetadata:\n  name: kube-scheduler\n");
  const std::string text = handler(Get("")).body;
  REQUIRE(text.starts_with(Header("flagz")));
  const std::string lines = text.substr(Header("flagz").size());
  // One separator for every line, and the same one on every request (cached).
  bool matched = false;
  for (const char* separator : {":", ": ", "=", " "}) {
    const std::string s(separator);
    if (lines == "authorization-always-allow-paths" + s + "[/healthz,/readyz,/livez]\nconfig" + s + "\nv" + s + "2\n") {
      matched = true;
    }
  }
  CHECK(matched);
  for (int i = 0; i < 10; ++i) CHECK(handler(Get("")).body == text);
}

TEST_CASE("z-pages answer 406 with a Status, negotiated without the kind restriction", "[serving][zpages]") {
  const std::string message =
      "only the following media types are accepted: application/json, application/yaml, text/plain";
  ServingResponse response = ZpageNotAcceptable(Get("application/json"));
  CHECK(response.status == 406);
  CHECK(response.content_type == "application/json");
  CHECK(response.body == "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"" +
                             message + "\",\"reason\":\"NotAcceptable\",\"code\":406}\n");
  response = ZpageNotAcceptable(Get("application/xml"));  // nothing acceptable at all: raw indented JSON
  CHECK(response.content_type == "application/json");
  CHECK(response.body == "{\n  \"kind\": \"Status\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {},\n  \"status\": "
                         "\"Failure\",\n  \"message\": \"" + message + "\",\n  \"reason\": \"NotAcceptable\",\n  \"code\": 406\n}");
  response = ZpageNotAcceptable(Get("application/yaml"));
  CHECK(response.content_type == "application/yaml");
  // goyaml.v2 folds the long single-quoted message past column 80.
  CHECK(response.body ==
        "apiVersion: v1\ncode: 406\nkind: Status\nmessage: 'only the following media types are accepted: "
        "application/json, application/yaml,\n  text/plain'\nmetadata: {}\nreason: NotAcceptable\nstatus: Failure\n");
}

TEST_CASE("statusz: documents and text", "[serving][zpages]") {
  StatuszInfo info;
  info.start_time_seconds = 1796623200;  // 2026-12-07T06:00:00Z
  info.binary_version = "1.37.2";
  info.emulation_version = "1.37";
  info.listed_paths = {"/configz", "/debug/flags/", "/debug/flags/v", "/flagz", "/healthz", "/healthz/leaderElection",
                       "/livez", "/metrics", "/metrics/resources", "/metrics/slis", "/readyz", "/readyz/shutdown"};
  const Handler handler = StatuszHandler("kube-scheduler", info, [] { return std::int64_t{1796623200 + 3725}; });
  ServingRequest request = Get("application/json;v=v1beta1;g=config.k8s.io;as=Statusz");
  ServingResponse response = handler(request);
  CHECK(response.status == 200);
  CHECK(response.content_type == "application/json;g=config.k8s.io;v=v1beta1;as=Statusz");
  CHECK(response.body ==
        "{\"kind\":\"Statusz\",\"apiVersion\":\"config.k8s.io/v1beta1\",\"metadata\":{\"name\":\"kube-scheduler\"},"
        "\"startTime\":\"2026-12-07T06:00:00Z\",\"uptimeSeconds\":3725,\"goVersion\":\"\",\"binaryVersion\":\"1.37.2\","
        "\"emulationVersion\":\"1.37\",\"paths\":[\"/configz\",\"/debug\",\"/flagz\",\"/healthz\",\"/livez\",\"/metrics\","
        "\"/readyz\"]}\n");
  response = handler(Get("application/yaml;v=v1beta1;g=config.k8s.io;as=Statusz"));
  CHECK(response.body ==
        "apiVersion: config.k8s.io/v1beta1\nbinaryVersion: 1.37.2\nemulationVersion: \"1.37\"\ngoVersion: \"\"\n"
        "kind: Statusz\nmetadata:\n  name: kube-scheduler\npaths:\n- /configz\n- /debug\n- /flagz\n- /healthz\n- /livez\n"
        "- /metrics\n- /readyz\nstartTime: \"2026-12-07T06:00:00Z\"\nuptimeSeconds: 3725\n");
  CHECK(handler(Get("application/json;v=v1beta1;g=config.k8s.io;as=Flagz")).status == 406);
  const std::string text = handler(Get("*/*")).body;
  REQUIRE(text.starts_with(Header("statusz")));
  bool matched = false;
  for (const char* separator : {":", ": ", "=", " "}) {
    const std::string s(separator);
    // time.UnixDate in the local zone: the test's zone is whatever TZ says; compare the rest.
    const std::string rest = "\nUp" + s + " 1 hr 02 min 05 sec\nGo version" + s + " \nBinary version" + s +
                             " 1.37.2\nEmulation version" + s + " 1.37\nPaths" + s +
                             " /configz /debug /flagz /healthz /livez /metrics /readyz\n";
    if (text.find("\nStarted" + s + " ") == Header("statusz").size() && text.ends_with(rest)) matched = true;
  }
  CHECK(matched);
}

TEST_CASE("AggregateZpagePaths keeps first segments and drops the API's", "[serving][zpages]") {
  CHECK(AggregateZpagePaths({"/apis/x", "/api", "/openapi/v2", "/.well-known/a", "/openid", "/", "", "/a/b", "/a", "/b/"}) ==
        std::vector<std::string>{"/a", "/b"});
}

TEST_CASE("Go JSON string escaping", "[serving][zpages]") {
  CHECK(GoJsonQuote("a<b>&\"\\\n\t\x01") == "\"a\\u003cb\\u003e\\u0026\\\"\\\\\\n\\t\\u0001\"");
}

}  // namespace
}  // namespace ksched::serving
