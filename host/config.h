// Run-time settings, parsed once from the environment by the table in runtime/config_keys.h.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace gio {

struct config {
  // One member per key, same name as the environment variable.
#define GIO_CFG_MEMBER_U64(name) uint64_t name = 0;
#define GIO_CFG_MEMBER_STR(name) std::string name;
#define GIO_CFG_MEMBER_BOOL(name) bool name = false;
#define GIO_CFG_MEMBER(name, type, def, help) GIO_CFG_MEMBER_##type(name)
#include "runtime/config_keys.h"
  GIO_CONFIG_KEYS(GIO_CFG_MEMBER)
#undef GIO_CFG_MEMBER
#undef GIO_CFG_MEMBER_U64
#undef GIO_CFG_MEMBER_STR
#undef GIO_CFG_MEMBER_BOOL
};

// What the launcher told this process in its own variables, for GIO_BOOTSTRAP=auto (read here:
// config.cpp is the only place GIO reads its environment).
struct launch_env {
  bool ompi = false;   // OMPI_COMM_WORLD_SIZE: Open MPI's mpirun started it
  bool mpich = false;  // PMI_RANK and PMI_SIZE: MPICH's Hydra (mpiexec) started it
  bool pmix = false;   // PMIX_NAMESPACE and PMIX_RANK: a PMIx server serves it (srun, prterun, mpirun)
};
launch_env launch_env_load();

// Reads every key (environment value or default); a malformed value is a fatal error naming the key.
config config_load();
// Prints every key with its value, default and help (gio-info).
void config_print(const config& c, FILE* out);
// Parses "64M", "1G", "4096" ... ; returns false on garbage or overflow.
bool config_parse_size(const char* s, uint64_t* out);

}  // namespace gio
