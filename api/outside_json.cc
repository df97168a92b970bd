#include "api/outside_json.h"

namespace ksched::api {

bool ExceedsJsonNestingDepth(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '{':
      case '[':
        if (++depth > max_depth) return true;
        break;
      case '}':
      case ']':
        if (depth > 0) --depth;  // unbalanced input is the parser's to report
        break;
      default:
        break;
    }
  }
  return false;
}

}  // namespace ksched::api
