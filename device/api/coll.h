// Teams and collectives (OpenSHMEM 1.5 sections 9.4 and 9.9), host API. The deprecated active-set
// forms of 1.4 (PE_start, logPE_stride, PE_size, pSync) are here too: every OSU OpenSHMEM
// benchmark still calls them. Kernels cannot call these yet (no device collectives).
//
// A team handle is an index into the team table each PE keeps in its symmetric heap
// (runtime/team.h), so a kernel can later find a team's state from the handle alone.
#pragma once
#include <complex>

#include "device/api/dispatch.h"
#include "device/api/types.h"

typedef int shmem_team_t;
#define SHMEM_TEAM_INVALID ((shmem_team_t)-1)
#define SHMEM_TEAM_WORLD ((shmem_team_t)0)
#define SHMEM_TEAM_SHARED ((shmem_team_t)1)  // the PEs of this node (GIO_NODE_PER_PE=1: this PE)

typedef struct {
  int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

// pSync/pWrk of the active-set routines. GIO keeps its dissemination counters and a collect's
// count in pSync (so it must be symmetric and SHMEM_SYNC_VALUE everywhere before first use; GIO
// restores it before returning) and uses no pWrk. One size for every routine, with room to grow.
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_SYNC_SIZE 16
#define SHMEM_BCAST_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_BARRIER_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_COLLECT_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALL_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 1
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

extern "C" {
// Team management.
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config,
                        long xaxis_mask, shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config,
                        long yaxis_mask, shmem_team_t* yaxis_team);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team);
int shmem_team_sync(shmem_team_t team);

// Team collectives: 0 on success.
int shmem_broadcastmem(shmem_team_t team, void* dest, const void* source, size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void* dest, const void* source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void* dest, const void* source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void* dest, const void* source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems);
#define GIO_DECL_TEAM_MOVE(NAME, T)                                                                   \
  int shmem_##NAME##_broadcast(shmem_team_t team, T* dest, const T* source, size_t nelems, int PE_root); \
  int shmem_##NAME##_collect(shmem_team_t team, T* dest, const T* source, size_t nelems);             \
  int shmem_##NAME##_fcollect(shmem_team_t team, T* dest, const T* source, size_t nelems);            \
  int shmem_##NAME##_alltoall(shmem_team_t team, T* dest, const T* source, size_t nelems);            \
  int shmem_##NAME##_alltoalls(shmem_team_t team, T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, \
                               size_t nelems);
GIO_RMA_TYPES(GIO_DECL_TEAM_MOVE)
#undef GIO_DECL_TEAM_MOVE

// In place when dest == source; otherwise the two must not overlap.
#define GIO_DECL_REDUCE(OP, NAME, T) \
  int shmem_##NAME##_##OP##_reduce(shmem_team_t team, T* dest, const T* source, size_t nreduce);
GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_DECL_REDUCE)
#undef GIO_DECL_REDUCE

// Active-set forms (deprecated in 1.5). The PEs PE_start + i * 2^logPE_stride, i < PE_size, call
// them together with the same pSync.
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long* pSync);
void shmem_broadcast32(void* dest, const void* source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
void shmem_broadcast64(void* dest, const void* source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
void shmem_collect32(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                     long* pSync);
void shmem_collect64(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                     long* pSync);
void shmem_fcollect32(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long* pSync);
void shmem_fcollect64(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long* pSync);
void shmem_alltoall32(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long* pSync);
void shmem_alltoall64(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long* pSync);
void shmem_alltoalls32(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
void shmem_alltoalls64(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
#define GIO_DECL_TO_ALL(OP, NAME, T)                                                                 \
  void shmem_##NAME##_##OP##_to_all(T* dest, const T* source, int nreduce, int PE_start, int logPE_stride, \
                                    int PE_size, T* pWrk, long* pSync);
GIO_TO_ALL_OPS(GIO_REDUCE_EACH, GIO_DECL_TO_ALL)
#undef GIO_DECL_TO_ALL

// shmem_sync has a team form (1.5) and an active-set form (1.4); C linkage allows one of them.
void gio_host_sync_active_set(int PE_start, int logPE_stride, int PE_size, long* pSync);
}

inline int shmem_sync(shmem_team_t team) { return shmem_team_sync(team); }
inline void shmem_sync(int PE_start, int logPE_stride, int PE_size, long* pSync) {
  gio_host_sync_active_set(PE_start, logPE_stride, PE_size, pSync);
}
