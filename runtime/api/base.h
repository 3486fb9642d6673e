// What C and C++ programs share word for word: the comparison, signal and active-set constants, and
// the setup, query and memory routines, which libgio always exports as C symbols. Included by the
// C++ API (wait.h, signal.h, coll.h, shmem.h) and by the C header (c/shmem_c.h), so the two cannot
// drift apart.
#pragma once
#include <stddef.h>

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "GIO (GPU Initiated OpenSHMEM) 0.1.0, OpenSHMEM 1.6"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

// shmem_malloc_with_hints: how the memory will be used. GIO places every block alike, reachable
// by every transport's atomics and signals, so it ignores these; the GPU draft's
// SHMEM_DEVICE_MALLOC_* (shmemg.h) take the block from the GPU heap; other bits (another
// implementation's hints) are ignored, as the spec allows (GIO_DEBUG=1 says so).
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
// Deprecated since 1.3 and still required (the spec's deprecation table): the same values.
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

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

#ifdef __cplusplus
extern "C" {
#endif
void shmem_init(void);
int shmem_init_thread(int requested, int* provided);
void shmem_query_thread(int* provided);
void shmem_finalize(void);
// 1.6: *initialized is 1 between a shmem_init (or _thread) and its matching last shmem_finalize, else
// 0; callable at any time, before shmem_init and after shmem_finalize too.
void shmem_query_initialized(int* initialized);
void shmem_global_exit(int status);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void* addr, int pe);
void shmem_info_get_version(int* major, int* minor);
void shmem_info_get_name(char* name);
// Collective over all PEs, same arguments everywhere; the same offsets on every PE.
void* shmem_malloc(size_t size);
void* shmem_malloc_with_hints(size_t size, long hints);
void* shmem_calloc(size_t count, size_t size);
void* shmem_align(size_t alignment, size_t size);
void* shmem_realloc(void* ptr, size_t size);
void shmem_free(void* ptr);
void shmem_pcontrol(int level, ...);  // accepted and ignored (GIO has no profiling levels)
#ifdef __cplusplus
}
#endif
