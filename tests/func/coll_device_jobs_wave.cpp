// test_coll_device's jobs at wave scope (coll_device_jobs.h says why a file per scope).
#include "coll_device_jobs.h"

namespace colljobs {

// The representative types (DT_IS_SUB), as at work-group scope.
#define MOVE_WAVE(NAME, T) DT_IF_SUB(NAME, MOVE_CASE(NAME, T, shmemx_, _wave))
#define RED_WAVE(OP, NAME, T) DT_IF_SUB(NAME, RED_CASE(OP, NAME, T, shmemx_, _wave))
template <>
__device__ int call<WAVE>(shmem_team_t team, const job& j) {
  if (j.kind == SYNC) return shmemx_team_sync_wave(team);
  if (j.kind == REDUCE) {
    switch (j.type) { GIO_REDUCE_OPS(GIO_REDUCE_EACH, RED_WAVE) }
    return -99;
  }
  switch (j.type) {
    GIO_RMA_TYPES(MOVE_WAVE)
    MOVE_MEM_CASE(shmemx_, _wave)
  }
  return -99;
}

COLLJOBS_LAUNCHER(WAVE)

}  // namespace colljobs
