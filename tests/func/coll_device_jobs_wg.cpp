// test_coll_device's jobs at work-group scope (coll_device_jobs.h says why a file per scope).
#include "coll_device_jobs.h"

namespace colljobs {

// The representative types (DT_IS_SUB), as at wave scope.
#define MOVE_WG(NAME, T) DT_IF_SUB(NAME, MOVE_CASE(NAME, T, shmemx_, _wg))
#define RED_WG(OP, NAME, T) DT_IF_SUB(NAME, RED_CASE(OP, NAME, T, shmemx_, _wg))
template <>
__device__ int call<WG>(shmem_team_t team, const job& j) {
  if (j.kind == SYNC) return shmemx_team_sync_wg(team);
  if (j.kind == REDUCE) {
    switch (j.type) { GIO_REDUCE_OPS(GIO_REDUCE_EACH, RED_WG) }
    return -99;
  }
  switch (j.type) {
    GIO_RMA_TYPES(MOVE_WG)
    MOVE_MEM_CASE(shmemx_, _wg)
  }
  return -99;
}

COLLJOBS_LAUNCHER(WG)

}  // namespace colljobs
