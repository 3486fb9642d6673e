// The only place GIO reads its environment: every key of host/config_keys.h is parsed and checked
// here, from the key's row, so a key's type, default, range and help live in one place.
#include "host/config.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

#include "host/config_keys.h"
#include "host/log.h"

extern char** environ;

namespace gio {

bool config_parse_size(const char* s, uint64_t* out) {
  if (!s || !*s) return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || s[0] == '-') return false;
  // A fraction ("1.5G"): OpenSHMEM's SHMEM_SYMMETRIC_SIZE and the GPU draft's
  // SHMEM_DEVICE_SYMMETRIC_SIZE allow one, and the size is at least the product's ceiling.
  uint64_t frac_num = 0, frac_den = 1;
  if (*end == '.') {
    ++end;
    if (*end < '0' || *end > '9') return false;
    for (; *end >= '0' && *end <= '9'; ++end)
      if (frac_den < 1000000000000ull) frac_num = frac_num * 10 + (uint64_t)(*end - '0'), frac_den *= 10;
  }
  uint64_t mul = 1;
  switch (*end) {
    case '\0': break;
    case 'k': case 'K': mul = 1ull << 10; ++end; break;
    case 'm': case 'M': mul = 1ull << 20; ++end; break;
    case 'g': case 'G': mul = 1ull << 30; ++end; break;
    case 't': case 'T': mul = 1ull << 40; ++end; break;
    default: return false;
  }
  if (*end == 'B' || *end == 'b') ++end;
  if (*end != '\0') return false;
  if (v > UINT64_MAX / mul) return false;
  // ceil(frac_num / frac_den * mul), in 128 bits: frac_num < frac_den <= 1e12, mul <= 2^40.
  const unsigned __int128 part = ((unsigned __int128)frac_num * mul + frac_den - 1) / frac_den;
  if (part > UINT64_MAX - v * mul) return false;
  *out = v * mul + (uint64_t)part;
  return true;
}

const std::vector<config_key>& config_keys() {
  static const std::vector<config_key> keys = [] {
    std::vector<config_key> v;
#define GIO_CFG_DEST_SIZE(k, name) k.u64 = &config::name;
#define GIO_CFG_DEST_COUNT(k, name) k.u64 = &config::name;
#define GIO_CFG_DEST_BOOL(k, name) k.boolean = &config::name;
#define GIO_CFG_DEST_ENUM(k, name) k.str = &config::name;
#define GIO_CFG_DEST_STR(k, name) k.str = &config::name;
#define GIO_CFG_ROW(name, type, def, flags, choices, lo, hi, help)                     \
  {                                                                                    \
    config_key k{#name, config_type::type, def, flags, choices, lo, hi, help};        \
    GIO_CFG_DEST_##type(k, name) v.push_back(k);                                       \
  }
    GIO_CONFIG_KEYS(GIO_CFG_ROW)
#undef GIO_CFG_ROW
#undef GIO_CFG_DEST_SIZE
#undef GIO_CFG_DEST_COUNT
#undef GIO_CFG_DEST_BOOL
#undef GIO_CFG_DEST_ENUM
#undef GIO_CFG_DEST_STR
    return v;
  }();
  return keys;
}

namespace {

const char* value_of(const config_key& k) {
  const char* v = getenv(k.name);
  return (v && *v) ? v : k.def;
}

// Sizes with their suffix when exact (4K, 64M, 1G), counts as plain numbers.
std::string bound(const config_key& k, uint64_t v) {
  static const char* suffix[] = {"", "K", "M", "G", "T"};
  int s = 0;
  if (k.type == config_type::SIZE)
    while (s < 4 && v >= 1024 && v % 1024 == 0) v /= 1024, ++s;
  return std::to_string(v) + suffix[s];
}

std::string range(const config_key& k) {
  return "[" + bound(k, k.min) + ", " + (k.max == GIO_CFG_NO_MAX ? std::string("no limit") : bound(k, k.max)) + "]";
}

bool boolean(const char* v, bool* out) {
  for (const char* t : {"1", "true", "yes", "on"})
    if (!strcasecmp(v, t)) return *out = true, true;
  for (const char* f : {"0", "false", "no", "off"})
    if (!strcasecmp(v, f)) return *out = false, true;
  return false;
}

std::string choices_listed(const config_key& k) {
  std::string s = k.choices;
  std::string out;
  for (char c : s) out += c == '|' ? std::string(", ") : std::string(1, c);
  return out;
}

bool is_choice(const config_key& k, const char* v) {
  const std::string all = std::string("|") + k.choices + "|";
  return !strchr(v, '|') && all.find(std::string("|") + v + "|") != std::string::npos;
}

// Number of single-character edits between a and b: the closest key to a misspelled variable.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

bool known_name(const std::string& n) {
  for (const config_key& k : config_keys())
    if (n == k.name) return true;
#define GIO_CFG_KNOWN(name, why) \
  if (n == #name) return true;
  GIO_CONFIG_REMOVED_KEYS(GIO_CFG_KNOWN)
  GIO_CONFIG_TOOL_VARIABLES(GIO_CFG_KNOWN)
#undef GIO_CFG_KNOWN
  return false;
}

// A set GIO_* variable that is no key is most often a misspelled one (GIO_TIMOUT_MS), which would
// otherwise leave the default in force without a word. Each name is reported once per process.
void warn_unknown() {
  static std::mutex lock;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> g(lock);
  for (char** e = environ; e && *e; ++e) {
    const char* eq = strchr(*e, '=');
    if (strncmp(*e, "GIO_", 4) || !eq) continue;
    const std::string name(*e, eq - *e);
    if (known_name(name) || !warned.insert(name).second) continue;
    std::string best;
    size_t best_d = 4;  // more edits than this is a different word, not a typo
    for (const config_key& k : config_keys()) {
      const size_t d = edit_distance(name, k.name);
      if (d < best_d) best_d = d, best = k.name;
    }
    info(0, "%s=\"%s\" is not a GIO setting and is ignored%s%s%s (gio-info lists every setting)", name.c_str(),
         eq + 1, best.empty() ? "" : " (did you mean ", best.c_str(), best.empty() ? "" : "?)");
  }
}

}  // namespace

std::string config_check(const config_key& k, const char* v) {
  const std::string key = std::string(k.name) + "=";
  const std::string quoted = key + "\"" + v + "\"";
  switch (k.type) {
    case config_type::STR: return "";
    case config_type::BOOL: {
      bool b;
      return boolean(v, &b) ? "" : quoted + " is not a boolean (1/0, true/false, yes/no, on/off)";
    }
    case config_type::ENUM:
      return is_choice(k, v) ? "" : quoted + " is not one of " + choices_listed(k);
    case config_type::SIZE:
    case config_type::COUNT: break;
  }
  const bool is_auto = (k.flags & GIO_CFG_AUTO) != 0;
  const std::string or_auto = is_auto ? " (or auto)" : "";
  if (is_auto && !strcmp(v, "auto")) return "";
  uint64_t n = 0;
  if (!config_parse_size(v, &n)) {
    const char* p = v;
    while (*p == ' ' || *p == '\t') ++p;
    if (*p == '-' && p[1] >= '0' && p[1] <= '9')
      return quoted + " is negative; allowed: " + range(k) + or_auto;
    return quoted + " is not a number (K/M/G suffixes allowed); allowed: " + range(k) + or_auto;
  }
  const std::string val = key + std::to_string(n);
  if (n == 0 && (is_auto || (k.flags & GIO_CFG_ZERO))) return "";
  const bool in_range = n >= k.min && n <= k.max;
  const bool pow2 = (n & (n - 1)) == 0;
  if (k.flags & GIO_CFG_POW2) {
    if (in_range && pow2) return "";
    return val + ((k.flags & GIO_CFG_ZERO) ? " is neither 0 nor a power of two in " : " is not a power of two in ") +
           range(k) + or_auto;
  }
  if (in_range) return "";
  if (k.max == GIO_CFG_NO_MAX)
    return val + " is below the minimum, " + std::to_string(k.min) + " (" + bound(k, k.min) + ")" + or_auto;
  return val + " is outside " + range(k) + or_auto;
}

config config_load() {
  config c;
  warn_unknown();  // first: a misspelled key may explain the error below
  for (const config_key& k : config_keys()) {
    const char* v = value_of(k);
    const std::string bad = config_check(k, v);
    if (!bad.empty()) fatal(GIO_ERR_ARG, "shmem_init", "environment variable %s", bad.c_str());
    if (k.u64) {
      uint64_t n = 0;  // "auto" stays 0, which the key's user resolves
      if (strcmp(v, "auto")) config_parse_size(v, &n);
      c.*k.u64 = n;
    } else if (k.boolean) {
      boolean(v, &(c.*k.boolean));
    } else {
      c.*k.str = v;
    }
  }
#define GIO_CFG_REMOVED(name, why) \
  if (const char* v = getenv(#name); v && *v) info(0, "%s=\"%s\" is no longer a setting: %s", #name, v, why);
  GIO_CONFIG_REMOVED_KEYS(GIO_CFG_REMOVED)
#undef GIO_CFG_REMOVED
  return c;
}

launch_env launch_env_load() {
  auto set = [](const char* name) {
    const char* v = getenv(name);
    return v && *v;
  };
  launch_env e;
  e.ompi = set("OMPI_COMM_WORLD_SIZE");
  e.mpich = set("PMI_RANK") && set("PMI_SIZE");
  e.pmix = set("PMIX_NAMESPACE") && set("PMIX_RANK");
  return e;
}

void config_print(const config& c, FILE* out) {
  (void)c;
  for (const config_key& k : config_keys()) {
    std::string allowed;
    if (k.type == config_type::ENUM) allowed = "; one of " + choices_listed(k);
    else if (k.type == config_type::BOOL) allowed = "; 1 or 0";
    else if (k.type == config_type::SIZE || k.type == config_type::COUNT) {
      allowed = std::string("; ") + ((k.flags & GIO_CFG_POW2) ? "a power of two in " : "") + range(k);
      if (k.flags & GIO_CFG_ZERO) allowed += " or 0";
      if (k.flags & GIO_CFG_AUTO) allowed += " or auto";
    }
    fprintf(out, "  %-24s = %-10s (default %s%s)\n      %s\n", k.name, value_of(k), k.def, allowed.c_str(), k.help);
  }
}

}  // namespace gio
