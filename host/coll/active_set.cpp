// The 1.4 active sets (PE_start, logPE_stride, PE_size, pSync), deprecated in 1.5 but what every
// OSU OpenSHMEM benchmark calls: a group whose sync counters live in the caller's pSync, and the
// active-set barrier and sync.
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}: the #if branches below
#include <cinttypes>

#include "host/bootstrap/bootstrap.h"
#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

namespace gio {

group active_set_group(runtime& r, const char* routine, int PE_start, int logPE_stride, int PE_size, long* pSync) {
  group g;
  g.routine = routine;
#if defined(GIO_PLATFORM_HOST)
  if (host::in_kernel()) fatal(GIO_ERR_ARG, routine, "called in a kernel: GIO's collectives are host-only for now");
#endif
  char what[128];
  snprintf(what, sizeof what, "active set (PE_start %d, logPE_stride %d, PE_size %d)", PE_start, logPE_stride,
           PE_size);
  g.what = what;
  if (PE_start < 0 || logPE_stride < 0 || logPE_stride > 30 || PE_size < 1 ||
      (int64_t)PE_start + ((int64_t)(PE_size - 1) << logPE_stride) >= r.n_pes)
    fatal(GIO_ERR_ARG, routine, "the %s does not lie within PEs [0, %d)", what, r.n_pes);
  const int stride = 1 << logPE_stride;
  const int off = r.my_pe - PE_start;
  if (off < 0 || off % stride || off / stride >= PE_size)
    fatal(GIO_ERR_ARG, routine, "this PE is not in the %s: only its members may call it", what);
  g.me = off / stride;
  g.members.resize(PE_size);
  for (int i = 0; i < PE_size; ++i) g.members[i] = PE_start + i * stride;
  if (!pSync) fatal(GIO_ERR_ARG, routine, "pSync is a null pointer");
  host_sym_offset(r, routine, pSync, SHMEM_SYNC_SIZE * sizeof(long), r.my_pe);
  if ((uintptr_t)pSync % sizeof(uint64_t))
    fatal(GIO_ERR_ARG, routine, "pSync %p is not %zu-byte aligned", (void*)pSync, sizeof(uint64_t));
  g.sync = (uint64_t*)pSync;
  g.count = g.sync + GIO_TEAM_ROUNDS;
  return g;
}

}  // namespace gio

using namespace gio;

static_assert(sizeof(long) == sizeof(uint64_t), "pSync words are GIO's 64-bit counters");
static_assert(GIO_TEAM_ROUNDS + 1 <= SHMEM_SYNC_SIZE, "pSync holds the counters and a collect's count");

extern "C" void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long* pSync) {
  const char* routine = "shmem_barrier";
  runtime& r = rt_checked(routine);
  group g = active_set_group(r, routine, PE_start, logPE_stride, PE_size, pSync);
  // A barrier completes this PE's updates first, as shmem_barrier_all does: what its kernels
  // wrote, and what they left with the NIC or the proxy.
  gpu::sync(routine);
  transports_drain(r, routine);
  group_sync(r, g);
}

extern "C" void gio_host_sync_active_set(int PE_start, int logPE_stride, int PE_size, long* pSync) {
  runtime& r = rt_checked("shmem_sync");
  group_sync(r, active_set_group(r, "shmem_sync", PE_start, logPE_stride, PE_size, pSync));
}
