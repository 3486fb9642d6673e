// Command-line pieces the apps share: "--name value" / "--name=value" arguments and checked
// numbers. Errors name the program and the option; the caller prints its usage hint.
#pragma once
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gio_app {

// Walks argv: next() gives each option's name and, for options that take one, its value
// (from "--name=value" or the following argument). Flags (no value) are named by the caller.
struct arg_walker {
  const char* prog;
  int argc;
  char** argv;
  int i = 0;
  std::string name, value;
  bool has_value = false;
  // Advances to the next argument; false at the end.
  bool next() {
    if (++i >= argc) return false;
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    has_value = arg.rfind("--", 0) == 0 && eq != std::string::npos;
    name = has_value ? arg.substr(0, eq) : arg;
    value = has_value ? arg.substr(eq + 1) : std::string();
    return true;
  }
  // The current option's value; false (with a message) when none follows.
  bool take_value() {
    if (has_value) return true;
    if (i + 1 >= argc) {
      std::fprintf(stderr, "%s: %s needs a value (see --help)\n", prog, name.c_str());
      return false;
    }
    value = argv[++i];
    has_value = true;
    return true;
  }
};

inline bool to_int(const char* prog, const char* name, const char* v, int lo, int* out) {
  errno = 0;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  if (errno || end == v || *end || x < lo || x > 1 << 30) {
    std::fprintf(stderr, "%s: %s needs an integer >= %d (got \"%s\")\n", prog, name, lo, v);
    return false;
  }
  *out = (int)x;
  return true;
}
inline bool to_positive(const char* prog, const char* name, const char* v, double* out) {
  char* end = nullptr;
  const double x = std::strtod(v, &end);
  if (end == v || *end || !(x > 0)) {
    std::fprintf(stderr, "%s: %s needs a positive number (got \"%s\")\n", prog, name, v);
    return false;
  }
  *out = x;
  return true;
}

}  // namespace gio_app
