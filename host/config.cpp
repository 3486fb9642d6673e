// The only place GIO reads its environment.
#include "host/config.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "host/log.h"

namespace gio {

bool config_parse_size(const char* s, uint64_t* out) {
  if (!s || !*s) return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || s[0] == '-') return false;
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
  *out = v * mul;
  return true;
}

namespace {
const char* value_of(const char* name, const char* def) {
  const char* v = getenv(name);
  return (v && *v) ? v : def;
}
void parse_u64(const char* name, const char* v, uint64_t* out) {
  if (!config_parse_size(v, out))
    fatal(GIO_ERR_ARG, "shmem_init", "environment variable %s=\"%s\" is not a number (K/M/G suffixes allowed)",
          name, v);
}
void parse_bool(const char* name, const char* v, bool* out) {
  if (!strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on"))
    *out = true;
  else if (!strcmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off"))
    *out = false;
  else
    fatal(GIO_ERR_ARG, "shmem_init", "environment variable %s=\"%s\" is not a boolean", name, v);
}
}  // namespace

config config_load() {
  config c;
  const char* v;
// "auto" leaves a size at 0, which its user resolves (GIO_SYMMETRIC_SIZE: per platform).
#define GIO_CFG_PARSE_U64(name) \
  if (strcmp(v, "auto")) parse_u64(#name, v, &c.name);
#define GIO_CFG_PARSE_STR(name) c.name = v;
#define GIO_CFG_PARSE_BOOL(name) parse_bool(#name, v, &c.name);
#define GIO_CFG_PARSE(name, type, def, help) \
  v = value_of(#name, def);                  \
  GIO_CFG_PARSE_##type(name)
  GIO_CONFIG_KEYS(GIO_CFG_PARSE)
#undef GIO_CFG_PARSE
#undef GIO_CFG_PARSE_U64
#undef GIO_CFG_PARSE_STR
#undef GIO_CFG_PARSE_BOOL
  if (c.GIO_TRANSPORT != "auto" && c.GIO_TRANSPORT != "p2p" && c.GIO_TRANSPORT != "gda" && c.GIO_TRANSPORT != "proxy")
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_TRANSPORT=\"%s\" is not a known transport (auto, p2p, gda, proxy)",
          c.GIO_TRANSPORT.c_str());
#define GIO_CFG_REMOVED(name, why) \
  if ((v = getenv(#name)) && *v) info(0, "%s=\"%s\" is no longer a setting: %s", #name, v, why);
  GIO_CONFIG_REMOVED_KEYS(GIO_CFG_REMOVED)
#undef GIO_CFG_REMOVED
  if (c.GIO_BOOTSTRAP != "auto" && c.GIO_BOOTSTRAP != "mpi" && c.GIO_BOOTSTRAP != "pmix")
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_BOOTSTRAP=\"%s\" is not one of auto, mpi, pmix", c.GIO_BOOTSTRAP.c_str());
  if (c.GIO_GDA_NIC != "auto" && c.GIO_GDA_NIC != "softnic")
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_GDA_NIC=\"%s\" is not one of auto, softnic", c.GIO_GDA_NIC.c_str());
  if (c.GIO_GDA_SQ_SLOTS < 16 || c.GIO_GDA_SQ_SLOTS > 32768 || (c.GIO_GDA_SQ_SLOTS & (c.GIO_GDA_SQ_SLOTS - 1)))
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_GDA_SQ_SLOTS=%llu is not a power of two in [16, 32768]",
          (unsigned long long)c.GIO_GDA_SQ_SLOTS);
  const uint64_t bb = c.GIO_GDA_BOUNCE_BYTES;
  if (bb && (bb < 64 || bb > (1ull << 30) || (bb & (bb - 1))))
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_GDA_BOUNCE_BYTES=%llu is neither 0 nor a power of two in [64, 1G]",
          (unsigned long long)bb);
  if (c.GIO_PROXY_SLOTS < 16 || c.GIO_PROXY_SLOTS > 32768 || (c.GIO_PROXY_SLOTS & (c.GIO_PROXY_SLOTS - 1)))
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_PROXY_SLOTS=%llu is not a power of two in [16, 32768]",
          (unsigned long long)c.GIO_PROXY_SLOTS);
  if (c.GIO_PROXY_STAGING != "auto" && c.GIO_PROXY_STAGING != "always")
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_PROXY_STAGING=\"%s\" is not one of auto, always", c.GIO_PROXY_STAGING.c_str());
  if (c.GIO_PROXY_CHUNK < 4096 || c.GIO_PROXY_CHUNK > (64ull << 20))
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_PROXY_CHUNK=%llu is outside [4K, 64M]", (unsigned long long)c.GIO_PROXY_CHUNK);
  if (c.GIO_PROXY_DEPTH < 1 || c.GIO_PROXY_DEPTH > 16)
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_PROXY_DEPTH=%llu is outside [1, 16]", (unsigned long long)c.GIO_PROXY_DEPTH);
  const uint64_t pb = c.GIO_PROXY_BOUNCE_BYTES;
  if (pb && (pb < 64 || pb > (1ull << 30) || (pb & (pb - 1))))
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_PROXY_BOUNCE_BYTES=%llu is neither 0 nor a power of two in [64, 1G]",
          (unsigned long long)pb);
  if (c.GIO_COLL_WORK_GROUPS > 65535)  // a grid's x dimension on every platform; 0 is auto
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_COLL_WORK_GROUPS=%llu is outside [1, 65535] (or auto)",
          (unsigned long long)c.GIO_COLL_WORK_GROUPS);
  if (c.GIO_COLL_REDUCE != "auto" && c.GIO_COLL_REDUCE != "pull" && c.GIO_COLL_REDUCE != "push")
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_COLL_REDUCE=\"%s\" is not one of auto, pull, push", c.GIO_COLL_REDUCE.c_str());
  if (c.GIO_NUM_CONTEXTS < 1 || c.GIO_NUM_CONTEXTS > 511)
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_NUM_CONTEXTS=%llu is outside [1, 511]",
          (unsigned long long)c.GIO_NUM_CONTEXTS);
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
#define GIO_CFG_SHOW(name, type, def, help)                                               \
  fprintf(out, "  %-22s = %-10s (default %s)\n      %s\n", #name, value_of(#name, def), def, help);
  GIO_CONFIG_KEYS(GIO_CFG_SHOW)
#undef GIO_CFG_SHOW
}

}  // namespace gio
