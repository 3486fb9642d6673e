// Stream-ordered collectives, as NVSHMEM's nvshmemx_*_on_stream: host routines (C linkage, C and
// C++) that enqueue a collective on a GPU stream and return at once. It runs after the work
// enqueued on the stream before it, and its result is complete when the stream reaches it. Every
// member of the team calls it, each on a stream of its own. Arguments are checked at the call,
// with the routine, the PE and the value in the message. Only the stream's order is promised:
// the host may touch dest and source again once the stream has passed the collective.
//
// The stream is the platform's: a cudaStream_t (cuda), a hipStream_t (hip, and the host
// platform's emulated streams), nullptr for the default stream. gio_stream_t names the same type
// in C, where the platform headers may be absent. Algorithms: device/coll/stream_launch.cpp.
#pragma once
#include <stddef.h>

#include "gio_config.h"
#include "runtime/api/types.h"

#if defined(GIO_PLATFORM_CUDA)
typedef struct CUstream_st* gio_stream_t;
#elif defined(GIO_PLATFORM_HIP)
typedef struct ihipStream_t* gio_stream_t;
#else
typedef struct gio_host_stream* gio_stream_t;
#endif

// long double has no GPU form: its reductions have no stream form (GIO_STREAM_IS_LD(NAME) is 1 for
// longdouble, else 0).
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_STREAM_LD_PROBE_longdouble ~, 1
#define GIO_STREAM_SECOND_(a, b, ...) b
#define GIO_STREAM_SECOND(...) GIO_STREAM_SECOND_(__VA_ARGS__)
#define GIO_STREAM_IS_LD(NAME) GIO_STREAM_SECOND(GIO_STREAM_LD_PROBE_##NAME, 0, ~)
#define GIO_STREAM_CAT_(a, b) a##b
#define GIO_STREAM_CAT(a, b) GIO_STREAM_CAT_(a, b)

// The reductions with a stream form: GIO_STREAM_REDUCE_TABLE expands GIO_STREAM_REDUCE_ITEM(OP,
// NAME, T), which the includer defines, for every entry of the reduce table but long double.
#define GIO_STREAM_REDUCE_1(OP, NAME, T)
#define GIO_STREAM_REDUCE_0(OP, NAME, T) GIO_STREAM_REDUCE_ITEM(OP, NAME, T)
#define GIO_STREAM_REDUCE_EACH(OP, NAME, T) GIO_STREAM_CAT(GIO_STREAM_REDUCE_, GIO_STREAM_IS_LD(NAME))(OP, NAME, T)
#define GIO_STREAM_REDUCE_TABLE GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_STREAM_REDUCE_EACH)

#ifdef __cplusplus
extern "C" {
#endif
// shmemx_barrier_on_stream: this PE's earlier operations are complete (quiet), then the team
// syncs; team_sync: the sync alone. The _all forms are those of SHMEM_TEAM_WORLD.
int shmemx_barrier_on_stream(shmem_team_t team, gio_stream_t stream);
int shmemx_team_sync_on_stream(shmem_team_t team, gio_stream_t stream);
void shmemx_barrier_all_on_stream(gio_stream_t stream);
void shmemx_sync_all_on_stream(gio_stream_t stream);
int shmemx_broadcastmem_on_stream(shmem_team_t team, void* dest, const void* source, size_t nelems, int PE_root,
                                  gio_stream_t stream);
int shmemx_fcollectmem_on_stream(shmem_team_t team, void* dest, const void* source, size_t nelems,
                                 gio_stream_t stream);
int shmemx_alltoallmem_on_stream(shmem_team_t team, void* dest, const void* source, size_t nelems,
                                 gio_stream_t stream);
#define GIO_STREAM_DECL_MOVE(NAME, T)                                                                      \
  int shmemx_##NAME##_broadcast_on_stream(shmem_team_t team, T* dest, const T* source, size_t nelems,        \
                                          int PE_root, gio_stream_t stream);                                \
  int shmemx_##NAME##_fcollect_on_stream(shmem_team_t team, T* dest, const T* source, size_t nelems,         \
                                         gio_stream_t stream);                                              \
  int shmemx_##NAME##_alltoall_on_stream(shmem_team_t team, T* dest, const T* source, size_t nelems,         \
                                         gio_stream_t stream);
GIO_RMA_TYPES(GIO_STREAM_DECL_MOVE)
#undef GIO_STREAM_DECL_MOVE
#define GIO_STREAM_REDUCE_ITEM(OP, NAME, T)                                                                \
  int shmemx_##NAME##_##OP##_reduce_on_stream(shmem_team_t team, T* dest, const T* source, size_t nreduce,   \
                                              gio_stream_t stream);
GIO_STREAM_REDUCE_TABLE
#undef GIO_STREAM_REDUCE_ITEM
#ifdef __cplusplus
}
#endif
