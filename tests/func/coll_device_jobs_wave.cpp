// test_coll_device's jobs at wave scope (coll_device_jobs.h says why a file per scope).
#include "coll_device_jobs.h"

namespace colljobs {

// The representative types (DT_IS_SUB), as at work-group scope.
#define MOVE_WAVE(NAME, T) DT_IF_SUB(NAME, MOVE_CASE(NAME, T, shmemx_, _wave))
#define RED_WAVE(OP, NAME, T) DT_IF_SUB(NAME, RED_CASE(OP, NAME, T, shmemx_, _wave))
template <>
__device__ int call<WAVE>(shmem_team_t team, const job& j) {
  COLLJOBS_CALL_BODY(shmemx_team_sync_wave(team), RED_WAVE, MOVE_WAVE, shmemx_, _wave)
}

COLLJOBS_LAUNCHER(WAVE)

}  // namespace colljobs
