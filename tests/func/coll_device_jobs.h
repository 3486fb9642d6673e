// The calls test_coll_device's kernels make, by routine, type and scope: the type tables, the job a
// kernel runs, and run_jobs, the kernel that runs a list of jobs at one scope. Each scope's dispatch
// (every routine of every type it covers) is a file of its own, coll_device_jobs_{thread,wave,wg}.cpp,
// so that the three compile at once: in one file, ptxas took ~425 s on one thread of an H200
// machine, the longest step of the cuda build.
#pragma once
#include "gio_test.h"

namespace colljobs {

enum scope_kind { THREAD = 0, WAVE = 1, WG = 2 };

// ---- the type tables --------------------------------------------------------------------------------

// NAME-keyed predicates for the X-macro tables: DT_IS_LD(NAME) is 1 for longdouble (which kernels
// do not have), DT_IS_SUB(NAME) 1 for the types the wave and wg scopes run.
#define DT_CAT(a, b) DT_CAT_(a, b)
#define DT_CAT_(a, b) a##b
#define DT_SECOND(a, b, ...) b
#define DT_PROBE(...) DT_SECOND(__VA_ARGS__, 0, ~)
#define DT_KEEP_0(...) __VA_ARGS__
#define DT_KEEP_1(...)
#define DT_DROP_0(...)
#define DT_DROP_1(...) __VA_ARGS__
#define DT_IS_LD_longdouble ~, 1
#define DT_IS_LD(NAME) DT_PROBE(DT_IS_LD_##NAME)
#define DT_UNLESS_LD(NAME, ...) DT_CAT(DT_KEEP_, DT_IS_LD(NAME))(__VA_ARGS__)
#define DT_IS_SUB_char ~, 1
#define DT_IS_SUB_short ~, 1
#define DT_IS_SUB_int ~, 1
#define DT_IS_SUB_long ~, 1
#define DT_IS_SUB_uchar ~, 1
#define DT_IS_SUB_float ~, 1
#define DT_IS_SUB_double ~, 1
#define DT_IS_SUB_int64 ~, 1
#define DT_IS_SUB_uint64 ~, 1
#define DT_IS_SUB_size ~, 1
#define DT_IS_SUB_complexd ~, 1
#define DT_IS_SUB(NAME) DT_PROBE(DT_IS_SUB_##NAME)
#define DT_IF_SUB(NAME, ...) DT_CAT(DT_DROP_, DT_IS_SUB(NAME))(__VA_ARGS__)

// RMA types by index, TY_MEM for the *mem forms (counts in bytes).
#define TY_ENUM(NAME, T) TY_##NAME,
enum ty_id { GIO_RMA_TYPES(TY_ENUM) TY_MEM, TY_COUNT };
#undef TY_ENUM
#define TY_INFO(NAME, T) {#NAME, sizeof(T), DT_IS_SUB(NAME) == 1},
struct ty_info {
  const char* name;
  size_t size;
  bool sub;
};
const ty_info kTy[TY_COUNT] = {GIO_RMA_TYPES(TY_INFO){"mem", 1, true}};
#undef TY_INFO

// Reductions by index: every (operation, type) of GIO_REDUCE_OPS but long double.
#define RED_ENUM(OP, NAME, T) DT_UNLESS_LD(NAME, R_##OP##_##NAME, )
enum red_id { GIO_REDUCE_OPS(GIO_REDUCE_EACH, RED_ENUM) R_COUNT };
#undef RED_ENUM

enum job_kind { BCAST, COLLECT, FCOLLECT, ALLTOALL, ALLTOALLS, REDUCE, SYNC };
const char* const kKindName[] = {"broadcast", "collect", "fcollect", "alltoall", "alltoalls", "reduce", "sync"};

// One collective call of a kernel: `type` is a ty_id, or a red_id for REDUCE; `n` is nelems or
// nreduce (bytes for TY_MEM).
struct job {
  int kind, type;
  void* d;
  const void* s;
  size_t n;
  int root;
  ptrdiff_t dst, sst;
};

// ---- device dispatch: a case per routine and type (call<S> below) ----------------------------------

#define MOVE_CASE(NAME, T, PRE, SUF)                                                                   \
  case TY_##NAME:                                                                                      \
    switch (j.kind) {                                                                                  \
      case BCAST: return PRE##NAME##_broadcast##SUF(team, (T*)j.d, (const T*)j.s, j.n, j.root);        \
      case COLLECT: return PRE##NAME##_collect##SUF(team, (T*)j.d, (const T*)j.s, j.n);                \
      case FCOLLECT: return PRE##NAME##_fcollect##SUF(team, (T*)j.d, (const T*)j.s, j.n);              \
      case ALLTOALL: return PRE##NAME##_alltoall##SUF(team, (T*)j.d, (const T*)j.s, j.n);              \
      case ALLTOALLS: return PRE##NAME##_alltoalls##SUF(team, (T*)j.d, (const T*)j.s, j.dst, j.sst, j.n); \
    }                                                                                                  \
    return -99;
#define MOVE_MEM_CASE(PRE, SUF)                                                              \
  case TY_MEM:                                                                               \
    switch (j.kind) {                                                                        \
      case BCAST: return PRE##broadcastmem##SUF(team, j.d, j.s, j.n, j.root);                \
      case COLLECT: return PRE##collectmem##SUF(team, j.d, j.s, j.n);                        \
      case FCOLLECT: return PRE##fcollectmem##SUF(team, j.d, j.s, j.n);                      \
      case ALLTOALL: return PRE##alltoallmem##SUF(team, j.d, j.s, j.n);                      \
      case ALLTOALLS: return PRE##alltoallsmem##SUF(team, j.d, j.s, j.dst, j.sst, j.n);      \
    }                                                                                        \
    return -99;
#define RED_CASE(OP, NAME, T, PRE, SUF) \
  case R_##OP##_##NAME: return PRE##NAME##_##OP##_reduce##SUF(team, (T*)j.d, (const T*)j.s, j.n);

// call<S>: one job at scope S, a case per routine and type. Each specialization lives in the
// scope's file, which also instantiates run_jobs<S> there (through launch_jobs<S>).
template <int S>
__device__ int call(shmem_team_t team, const job& j);
// Its body: SYNC_CALL for a sync job, else the case of RED_X (reductions) or MOVE_X (the rest) for
// the job's type; PRE and SUF name the scope's *mem routines.
#define COLLJOBS_CALL_BODY(SYNC_CALL, RED_X, MOVE_X, PRE, SUF) \
  if (j.kind == SYNC) return SYNC_CALL;                        \
  if (j.kind == REDUCE) {                                      \
    switch (j.type) { GIO_REDUCE_OPS(GIO_REDUCE_EACH, RED_X) } \
    return -99;                                                \
  }                                                            \
  switch (j.type) {                                            \
    GIO_RMA_TYPES(MOVE_X)                                      \
    MOVE_MEM_CASE(PRE, SUF)                                    \
  }                                                            \
  return -99;

// Runs the jobs in order; bad[i] counts the calling threads whose job i returned nonzero. The
// caller is the first thread or wave of the work-group, or with `last` its last one (which may be
// a partial wave). Work-group b runs jobs first[b] .. first[b + 1] - 1 on teams[b]: the plans of
// one launch, on different teams, at once.
template <int S>
__global__ void run_jobs(const shmem_team_t* teams, const job* jobs, const int* first, int* bad, bool last) {
  if (S == THREAD && threadIdx.x != (last ? blockDim.x - 1 : 0)) return;
  if (S == WAVE && threadIdx.x / warpSize != (last ? (blockDim.x - 1) / warpSize : 0)) return;
  const shmem_team_t team = teams[blockIdx.x];
  for (int i = first[blockIdx.x]; i < first[blockIdx.x + 1]; ++i) {
    const job j = jobs[i];
    const int r = call<S>(team, j);
    if (r != 0) atomicAdd(bad + i, 1);
  }
}

// Launches run_jobs<S> on `groups` work-groups of `threads` (defined in the scope's file).
template <int S>
void launch_jobs(unsigned groups, unsigned threads, const shmem_team_t* teams, const job* jobs, const int* first,
                 int* bad, bool last);
template <>
void launch_jobs<THREAD>(unsigned groups, unsigned threads, const shmem_team_t* teams, const job* jobs,
                         const int* first, int* bad, bool last);
template <>
void launch_jobs<WAVE>(unsigned groups, unsigned threads, const shmem_team_t* teams, const job* jobs,
                       const int* first, int* bad, bool last);
template <>
void launch_jobs<WG>(unsigned groups, unsigned threads, const shmem_team_t* teams, const job* jobs, const int* first,
                     int* bad, bool last);

#define COLLJOBS_LAUNCHER(S)                                                                                    \
  template <>                                                                                                   \
  void launch_jobs<S>(unsigned groups, unsigned threads, const shmem_team_t* teams, const job* jobs,            \
                      const int* first, int* bad, bool last) {                                                  \
    hipLaunchKernelGGL(run_jobs<S>, dim3(groups), dim3(threads), 0, 0, teams, jobs, first, bad, last);         \
  }

}  // namespace colljobs
