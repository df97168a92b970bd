// UserInfo: the identity a request was authenticated as (k8s.io/apiserver user.Info), and the
// well-known names the authentication chain uses.
//
// Thread-safety: plain value type.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ksched::serving {

inline constexpr char kAnonymousUser[] = "system:anonymous";
inline constexpr char kUnauthenticatedGroup[] = "system:unauthenticated";
inline constexpr char kAuthenticatedGroup[] = "system:authenticated";
inline constexpr char kMastersGroup[] = "system:masters";

struct UserInfo {
  std::string name;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;

  // system:anonymous in group system:unauthenticated: a request without usable credentials.
  static UserInfo Anonymous() { return UserInfo{kAnonymousUser, "", {kUnauthenticatedGroup}, {}}; }

  friend bool operator==(const UserInfo&, const UserInfo&) = default;
};

}  // namespace ksched::serving
