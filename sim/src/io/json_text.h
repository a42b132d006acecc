// What the JSON readers (scenes, sweeps) share: a value as the text --set takes, and
// nlohmann's messages without their tag.
#pragma once

#include <string>

namespace sloshlab {

// A parameter's value as --set takes it: "0.5", "true", "flip". Json is nlohmann::json or
// nlohmann::ordered_json.
template <class Json>
std::string jsonValueText(const Json& v) {
  if (v.is_string()) return v.template get<std::string>();
  if (v.is_boolean()) return v.template get<bool>() ? "true" : "false";
  return v.dump();
}

// nlohmann's messages open with a tag: "[json.exception.parse_error.101] parse error ...".
inline std::string withoutJsonTag(const std::string& what) {
  const auto pos = what.find("] ");
  return pos == std::string::npos ? what : what.substr(pos + 2);
}

}  // namespace sloshlab
