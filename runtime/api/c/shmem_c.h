// The OpenSHMEM 1.6 host API for C programs (C11): what <shmem.h> gives a C compiler. The types
// and constants match the C++ API's; the routines are libgio's C-linkage symbols (the table in
// shmem_c_table.h and the routines libgio always exported with C linkage). libgio's own C-API
// files read this header as C++ to check their definitions against it.
#pragma once
#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <complex.h>
#endif

#include "runtime/api/base.h"
#include "runtime/api/c/shmem_c_table.h"

#ifdef __cplusplus
#include <complex>
extern "C" {
#endif

// shmem_ctx_t, shmem_team_t and the SHMEM_CTX_*, SHMEM_TEAM_* constants: runtime/api/types.h.
// SHMEM_CMP_*, SHMEM_SIGNAL_* and the active-set sync constants: runtime/api/base.h.

// Library setup, queries and memory: runtime/api/base.h.

// Teams (creation and destruction).
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config,
                        long xaxis_mask, shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config,
                        long yaxis_mask, shmem_team_t* yaxis_team);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team);

// Active-set collectives (deprecated in 1.5).
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long* pSync);
void gio_host_sync_active_set(int PE_start, int logPE_stride, int PE_size, long* pSync);
#define GIO_C_ACTIVE_SET_MOVE(NAME, BITS)                                                                     \
  void shmem_##NAME##BITS(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride,     \
                          int PE_size, long* pSync);
GIO_C_ACTIVE_SET_MOVE(collect, 32)
GIO_C_ACTIVE_SET_MOVE(collect, 64)
GIO_C_ACTIVE_SET_MOVE(fcollect, 32)
GIO_C_ACTIVE_SET_MOVE(fcollect, 64)
GIO_C_ACTIVE_SET_MOVE(alltoall, 32)
GIO_C_ACTIVE_SET_MOVE(alltoall, 64)
#undef GIO_C_ACTIVE_SET_MOVE
void shmem_broadcast32(void* dest, const void* source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
void shmem_broadcast64(void* dest, const void* source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
void shmem_alltoalls32(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
void shmem_alltoalls64(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
#define GIO_C_DECL_TO_ALL(OP, NAME, T)                                                                        \
  void shmem_##NAME##_##OP##_to_all(T* dest, const T* source, int nreduce, int PE_start, int logPE_stride,   \
                                    int PE_size, T* pWrk, long* pSync);
GIO_TO_ALL_OPS(GIO_REDUCE_EACH, GIO_C_DECL_TO_ALL)
#undef GIO_C_DECL_TO_ALL

// Everything else: the table.
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_C_X(RET, NAME, PARAMS, ...) RET NAME PARAMS;
GIO_C_ALL
GIO_C_FAMILY_LEGACY
#undef GIO_C_X

#ifdef __cplusplus
}
#else
// shmem_sync(team) (1.5) and shmem_sync(PE_start, logPE_stride, PE_size, pSync) (1.4) share a name.
#define GIO_C_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, N, ...) N
#define GIO_C_NARGS(...) GIO_C_NARGS_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define GIO_C_CAT_(a, b) a##b
#define GIO_C_CAT(a, b) GIO_C_CAT_(a, b)
#define GIO_C_SYNC_1 shmem_team_sync
#define GIO_C_SYNC_4 gio_host_sync_active_set
#define shmem_sync(...) GIO_C_CAT(GIO_C_SYNC_, GIO_C_NARGS(__VA_ARGS__))(__VA_ARGS__)
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include "runtime/api/c/shmem_c_generic.h"
#endif
#endif
