// Run-time settings, parsed and checked once from the environment by the table in
// host/config_keys.h.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "host/config_keys.h"

namespace gio {

struct config {
  // One member per key, same name as the environment variable.
#define GIO_CFG_MEMBER_SIZE(name) uint64_t name = 0;
#define GIO_CFG_MEMBER_COUNT(name) uint64_t name = 0;
#define GIO_CFG_MEMBER_STR(name) std::string name;
#define GIO_CFG_MEMBER_ENUM(name) std::string name;
#define GIO_CFG_MEMBER_BOOL(name) bool name = false;
#define GIO_CFG_MEMBER(name, type, def, flags, choices, lo, hi, help) GIO_CFG_MEMBER_##type(name)
  GIO_CONFIG_KEYS(GIO_CFG_MEMBER)
#undef GIO_CFG_MEMBER
#undef GIO_CFG_MEMBER_SIZE
#undef GIO_CFG_MEMBER_COUNT
#undef GIO_CFG_MEMBER_STR
#undef GIO_CFG_MEMBER_ENUM
#undef GIO_CFG_MEMBER_BOOL
};

// One row of the table, as parsing, checking and printing read it.
enum class config_type { SIZE, COUNT, BOOL, ENUM, STR };
struct config_key {
  const char* name;
  config_type type;
  const char* def;
  unsigned flags;       // GIO_CFG_AUTO, GIO_CFG_POW2, GIO_CFG_ZERO
  const char* choices;  // ENUM: "a|b|c"
  uint64_t min, max;    // SIZE, COUNT
  const char* help;
  uint64_t config::*u64 = nullptr;  // where the parsed value goes, by type
  bool config::*boolean = nullptr;
  std::string config::*str = nullptr;
};
const std::vector<config_key>& config_keys();

// What the launcher told this process in its own variables, for GIO_BOOTSTRAP=auto (read here:
// config.cpp is the only place GIO reads its environment).
struct launch_env {
  bool ompi = false;   // OMPI_COMM_WORLD_SIZE: Open MPI's mpirun started it
  bool mpich = false;  // PMI_RANK and PMI_SIZE: MPICH's Hydra (mpiexec) started it
  bool pmix = false;   // PMIX_NAMESPACE and PMIX_RANK: a PMIx server serves it (srun, prterun, mpirun)
};
launch_env launch_env_load();

// Reads every key (environment value or default); a value the table does not allow is a fatal
// error naming the key, the value and what is allowed. Warns (once per process and name) about a
// set GIO_* variable that is no key, naming the closest key.
config config_load();
// Prints every key with its value, default, allowed values and help (gio-info).
void config_print(const config& c, FILE* out);
// Parses "64M", "1G", "4096" ... ; returns false on garbage or overflow.
bool config_parse_size(const char* s, uint64_t* out);
// Checks one value against its key's row: "" when allowed, else the reason, which names the key,
// the value and the allowed values or range ("GIO_PROXY_DEPTH=20 is outside [1, 16]").
std::string config_check(const config_key& k, const char* value);

}  // namespace gio
