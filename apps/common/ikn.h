// --variant ikn, the paper's IKN baseline (CPU-assisted intra-kernel networking): the gio
// variant's kernels and algorithm unchanged, every peer reached through GIO's proxy transport (the
// kernel posts commands into a ring; a CPU thread per PE drives libfabric). The variant is only a
// transport choice, made with GIO_TRANSPORT before shmem_init reads the configuration.
#pragma once
#include <shmem.h>
#include <shmemx.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gio_app {

// Before shmem_init: sets GIO_TRANSPORT=proxy. A GIO_TRANSPORT the user set to anything else
// would run gio's communication under ikn's name, so that stops the app (false, with a message).
inline bool ikn_select_proxy(const char* prog) {
  const char* t = std::getenv("GIO_TRANSPORT");
  if (t && std::strcmp(t, "proxy") != 0) {
    std::fprintf(stderr, "%s: --variant ikn needs GIO_TRANSPORT=proxy (or unset); it is \"%s\"\n", prog, t);
    return false;
  }
  setenv("GIO_TRANSPORT", "proxy", 1);
  return true;
}

// After shmem_init: every other PE must be reached through the proxy, or the timings are not
// IKN's. A PE that finds one that is not stops the whole job (the others would wait for it in
// the next barrier). One PE has no peers, so nothing to check.
inline void ikn_check_peers(const char* prog) {
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  for (int pe = 0; pe < npes; ++pe) {
    const char* t = shmemx_transport_name(pe);
    if (pe != me && std::strcmp(t, "proxy") != 0) {
      std::fprintf(stderr, "%s: --variant ikn: PE %d reaches PE %d over %s, not the proxy\n", prog, me, pe,
                   t);
      shmem_global_exit(2);
    }
  }
}

}  // namespace gio_app
