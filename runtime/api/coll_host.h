// libgio's host halves of the team routines and collectives that kernels can call too (the public
// names dispatch to these in host code). Declared once for the C++ API (coll.h) and libgio's C
// symbols (host/capi/capi.h); shmem_team_t comes from whichever of the two includes it.
#pragma once
#include <stddef.h>

#include "runtime/api/types.h"

extern "C" {
int gio_host_team_my_pe(shmem_team_t team);
int gio_host_team_n_pes(shmem_team_t team);
int gio_host_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int gio_host_team_sync(shmem_team_t team);
int gio_host_broadcastmem(shmem_team_t team, void* dest, const void* source, size_t nelems, int PE_root);
int gio_host_collectmem(shmem_team_t team, void* dest, const void* source, size_t nelems);
int gio_host_fcollectmem(shmem_team_t team, void* dest, const void* source, size_t nelems);
int gio_host_alltoallmem(shmem_team_t team, void* dest, const void* source, size_t nelems);
int gio_host_alltoallsmem(shmem_team_t team, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
                          size_t nelems);
#define GIO_DECL_TEAM_MOVE(NAME, T)                                                                      \
  int gio_host_##NAME##_broadcast(shmem_team_t team, T* dest, const T* source, size_t nelems, int PE_root); \
  int gio_host_##NAME##_collect(shmem_team_t team, T* dest, const T* source, size_t nelems);             \
  int gio_host_##NAME##_fcollect(shmem_team_t team, T* dest, const T* source, size_t nelems);            \
  int gio_host_##NAME##_alltoall(shmem_team_t team, T* dest, const T* source, size_t nelems);            \
  int gio_host_##NAME##_alltoalls(shmem_team_t team, T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, \
                                  size_t nelems);
GIO_RMA_TYPES(GIO_DECL_TEAM_MOVE)
GIO_RMA_HOST_TYPES(GIO_DECL_TEAM_MOVE)
#undef GIO_DECL_TEAM_MOVE
#define GIO_DECL_REDUCE(OP, NAME, T) \
  int gio_host_##NAME##_##OP##_reduce(shmem_team_t team, T* dest, const T* source, size_t nreduce);
GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_DECL_REDUCE)
#undef GIO_DECL_REDUCE
#define GIO_DECL_SCAN(OP, NAME, T)                                                                    \
  int gio_host_##NAME##_##OP##_inscan(shmem_team_t team, T* dest, const T* source, size_t nelems);   \
  int gio_host_##NAME##_##OP##_exscan(shmem_team_t team, T* dest, const T* source, size_t nelems);
GIO_SCAN_OPS(GIO_REDUCE_EACH, GIO_DECL_SCAN)
#undef GIO_DECL_SCAN
}
