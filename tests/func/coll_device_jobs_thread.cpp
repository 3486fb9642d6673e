// test_coll_device's jobs at thread scope (coll_device_jobs.h says why a file per scope).
#include "coll_device_jobs.h"

namespace colljobs {

// Thread scope: every RMA type and every reduction.
#define MOVE_THREAD(NAME, T) MOVE_CASE(NAME, T, shmem_, )
#define RED_THREAD(OP, NAME, T) DT_UNLESS_LD(NAME, RED_CASE(OP, NAME, T, shmem_, ))
template <>
__device__ int call<THREAD>(shmem_team_t team, const job& j) {
  COLLJOBS_CALL_BODY(j.root ? shmem_sync(team) : shmem_team_sync(team), RED_THREAD, MOVE_THREAD, shmem_, )
}

COLLJOBS_LAUNCHER(THREAD)

}  // namespace colljobs
