// test_coll_device's jobs at work-group scope (coll_device_jobs.h says why a file per scope).
#include "coll_device_jobs.h"

namespace colljobs {

// The representative types (DT_IS_SUB), as at wave scope.
#define MOVE_WG(NAME, T) DT_IF_SUB(NAME, MOVE_CASE(NAME, T, shmemx_, _wg))
#define RED_WG(OP, NAME, T) DT_IF_SUB(NAME, RED_CASE(OP, NAME, T, shmemx_, _wg))
template <>
__device__ int call<WG>(shmem_team_t team, const job& j) {
  COLLJOBS_CALL_BODY(shmemx_team_sync_wg(team), RED_WG, MOVE_WG, shmemx_, _wg)
}

COLLJOBS_LAUNCHER(WG)

}  // namespace colljobs
