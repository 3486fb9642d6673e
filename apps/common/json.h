// JSON-lines pieces the apps' reports share.
#pragma once
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>

namespace gio_app {

// A JSON string literal: quotes and backslashes escaped, control characters dropped.
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if ((unsigned char)c < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

// A JSON number; null for NaN and infinities, which JSON does not have.
inline std::string json_num(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// Now, as an ISO 8601 UTC timestamp.
inline std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm;
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gio_app
