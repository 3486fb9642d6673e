// test_coll_device's jobs at thread scope (coll_device_jobs.h says why a file per scope).
#include "coll_device_jobs.h"

namespace colljobs {

// Thread scope: every RMA type and every reduction.
#define MOVE_THREAD(NAME, T) MOVE_CASE(NAME, T, shmem_, )
#define RED_THREAD(OP, NAME, T) DT_UNLESS_LD(NAME, RED_CASE(OP, NAME, T, shmem_, ))
template <>
__device__ int call<THREAD>(shmem_team_t team, const job& j) {
  if (j.kind == SYNC) return j.root ? shmem_sync(team) : shmem_team_sync(team);
  if (j.kind == REDUCE) {
    switch (j.type) { GIO_REDUCE_OPS(GIO_REDUCE_EACH, RED_THREAD) }
    return -99;
  }
  switch (j.type) {
    GIO_RMA_TYPES(MOVE_THREAD)
    MOVE_MEM_CASE(shmem_, )
  }
  return -99;
}

COLLJOBS_LAUNCHER(THREAD)

}  // namespace colljobs
