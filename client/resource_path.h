// ResourcePath: the URL path of an API resource, as client-go's Request.Namespace().Resource()
// .Name().SubResource() builds it:
//   core group (group ""):  /api/v1[/namespaces/{namespace}]/{resource}[/{name}[/{subresource}]]
//   named groups:           /apis/{group}/{version}[/namespaces/{namespace}]/{resource}[/...]
// An empty namespace means a cluster-scoped resource (or all namespaces, for a collection); an
// empty name a collection. Every segment is percent-escaped (PathEscape), so a name holding '/'
// cannot reach another path.
//
// Built as client-go's Request builds it:
//   ResourcePath().Namespace("default").Resource("pods").Name("p").SubResource("binding").String()
//     == "/api/v1/namespaces/default/pods/p/binding"
//   ResourcePath("coordination.k8s.io", "v1").Namespace("kube-system").Resource("leases")
//       .Name("kube-scheduler").String()
//     == "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler"
//
// Thread-safety: plain value type; pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace ksched::client {

class ResourcePath {
 public:
  // The core group ("/api/v1"), or a named group and version ("/apis/{group}/{version}").
  ResourcePath() = default;
  ResourcePath(std::string group, std::string version)
      : group_(std::move(group)), version_(std::move(version)) {}

  ResourcePath& Namespace(std::string namespace_name) {  // "" = cluster-scoped / all namespaces
    namespace_ = std::move(namespace_name);
    return *this;
  }
  ResourcePath& Resource(std::string resource) {  // plural, lower case: "pods"
    resource_ = std::move(resource);
    return *this;
  }
  ResourcePath& Name(std::string name) {  // "" = the collection
    name_ = std::move(name);
    return *this;
  }
  ResourcePath& SubResource(std::string subresource) {  // "binding", "status" (only with a name)
    subresource_ = std::move(subresource);
    return *this;
  }

  std::string String() const;

 private:
  std::string group_;  // "" = core
  std::string version_ = "v1";
  std::string namespace_;
  std::string resource_;
  std::string name_;
  std::string subresource_;
};

// Go's url.PathEscape: everything but unreserved characters and "$&+,:;=@" as %XX.
std::string PathEscape(std::string_view segment);
// Go's url.QueryEscape: everything but unreserved characters as %XX, space as '+'.
std::string QueryEscape(std::string_view value);

}  // namespace ksched::client
