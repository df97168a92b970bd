// The Kubernetes authz and authzSelectors libraries (k8s.io/apiserver@v0.34.4
// pkg/cel/library/authz.go) as the DRA environment has them: declared, never callable. Their
// functions are members of the opaque kubernetes.authorization.Authorizer, PathCheck,
// GroupCheck, ResourceCheck and Decision types, and only the `authorizer` variable of admission
// environments yields such a value; DRA declares no such variable. The declarations still count:
// dyn(x).allowed() type-checks (and fails at runtime with "no such overload: allowed(int)"), and
// "x".check("get") is "found no matching overload" rather than an undeclared reference.
#include "plugins/dynamic_resources/cel/functions.h"

namespace ksched::plugins::dynamic_resources::cel {

void RegisterAuthzLibrary(FunctionRegistry& r) {
  // Without implementations: no argument can match at runtime, so calls are "no such overload".
  r.Member("path", "authorizer_path",
           "kubernetes.authorization.Authorizer, string -> kubernetes.authorization.PathCheck");
  r.Member("group", "authorizer_group",
           "kubernetes.authorization.Authorizer, string -> kubernetes.authorization.GroupCheck");
  r.Member("serviceAccount", "authorizer_serviceaccount",
           "kubernetes.authorization.Authorizer, string, string -> kubernetes.authorization.Authorizer");
  r.Member("resource", "groupcheck_resource",
           "kubernetes.authorization.GroupCheck, string -> kubernetes.authorization.ResourceCheck");
  r.Member("subresource", "resourcecheck_subresource",
           "kubernetes.authorization.ResourceCheck, string -> kubernetes.authorization.ResourceCheck");
  r.Member("namespace", "resourcecheck_namespace",
           "kubernetes.authorization.ResourceCheck, string -> kubernetes.authorization.ResourceCheck");
  r.Member("name", "resourcecheck_name",
           "kubernetes.authorization.ResourceCheck, string -> kubernetes.authorization.ResourceCheck");
  r.Member("check", "pathcheck_check",
           "kubernetes.authorization.PathCheck, string -> kubernetes.authorization.Decision");
  r.Member("check", "resourcecheck_check",
           "kubernetes.authorization.ResourceCheck, string -> kubernetes.authorization.Decision");
  r.Member("errored", "decision_errored", "kubernetes.authorization.Decision -> bool");
  r.Member("error", "decision_error", "kubernetes.authorization.Decision -> string");
  r.Member("allowed", "decision_allowed", "kubernetes.authorization.Decision -> bool");
  r.Member("reason", "decision_reason", "kubernetes.authorization.Decision -> string");
  // authzSelectors (AuthorizeWithSelectors, on by default in Kubernetes 1.34).
  r.Member("fieldSelector", "authorizer_fieldselector",
           "kubernetes.authorization.ResourceCheck, string -> kubernetes.authorization.ResourceCheck");
  r.Member("labelSelector", "authorizer_labelselector",
           "kubernetes.authorization.ResourceCheck, string -> kubernetes.authorization.ResourceCheck");
}

}  // namespace ksched::plugins::dynamic_resources::cel
