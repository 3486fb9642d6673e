// libgio's host entry points. The public shmem_* routines call these when used from host code.
// `routine` is the public name the user called, for error messages.
#pragma once
#include <stddef.h>
#include <stdint.h>

struct gio_ctx_v1;

extern "C" {
void gio_host_putmem(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, size_t n, int pe);
void gio_host_getmem(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, size_t n, int pe);
// Atomic `op` (gio_amo_op) on the `size`-byte (4 or 8) object at `dest` on `pe`; operands and the
// fetched old value travel as bit patterns in the low `size` bytes.
uint64_t gio_host_amo(const char* routine, gio_ctx_v1* ctx, int op, void* dest, uint64_t value,
                      uint64_t compare, size_t size, int pe);
void gio_host_quiet(gio_ctx_v1* ctx);
void gio_host_fence(gio_ctx_v1* ctx);
// shmem_[ctx_]pe_quiet (1.6): quiet for the `npes` PEs of `target_pes` (numbered in ctx's team).
void gio_host_pe_quiet(const char* routine, gio_ctx_v1* ctx, const int* target_pes, size_t npes);
// shmem_ctx_session_start/stop (1.6): hints; `config` is a shmem_ctx_session_config_t.
void gio_host_ctx_session_start(gio_ctx_v1* ctx, long options, const void* config, long config_mask);
void gio_host_ctx_session_stop(gio_ctx_v1* ctx);
void gio_host_barrier_all(void);
void gio_host_sync_all(void);
void gio_host_putmem_signal(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src,
                            size_t n, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe);
uint64_t gio_host_signal_fetch(const uint64_t* sig_addr);
// start_pes (OpenSHMEM 1.2): shmem_init once, and shmem_finalize at exit if the program did not.
void gio_host_start_pes(void);
int gio_host_my_pe(void);
int gio_host_n_pes(void);
void* gio_host_ptr(const void* dest, int pe);
// shmem_ctx_create / shmem_ctx_destroy in host code.
int gio_host_ctx_create(long options, gio_ctx_v1** ctx);
void gio_host_ctx_destroy(gio_ctx_v1* ctx);
// Host waits and tests (shmem_TYPE_wait_until, _test, _all/_any/_some, their _vector forms and
// shmem_signal_wait_until) on `n` integers of `elem` bytes (2, 4 or 8; `is_signed`) at `ivars` in
// this PE's symmetric memory, which kernels and peers write. `values` is one comparison value, or
// one per element when `vector`. Returns: _test and _test_all 1 or 0, _any the index or SIZE_MAX,
// _some the count written to `indices`; a wait_until stores the value it saw in `seen`.
size_t gio_host_wait(const char* routine, int kind, const void* ivars, size_t n, size_t elem, int is_signed,
                     const int* status, int cmp, const void* values, int vector, size_t* indices, void* seen);
// Strided RMA (host/strided.cpp); strides, counts and block sizes in elements of elem_size bytes.
void gio_host_iput(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst,
                   size_t nelems, size_t elem_size, int pe);
void gio_host_iget(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst,
                   size_t nelems, size_t elem_size, int pe);
void gio_host_ibput(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst,
                    size_t bsize, size_t nblocks, size_t elem_size, int pe);
void gio_host_ibget(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst,
                    size_t bsize, size_t nblocks, size_t elem_size, int pe);
void gio_host_put_subarray(const char* routine, gio_ctx_v1* ctx, void* dest, const ptrdiff_t* dst_strides,
                           const void* src, const ptrdiff_t* src_strides, const size_t* counts, int ndims,
                           size_t elem_size, int pe);
void gio_host_get_subarray(const char* routine, gio_ctx_v1* ctx, void* dest, const ptrdiff_t* dst_strides,
                           const void* src, const ptrdiff_t* src_strides, const size_t* counts, int ndims,
                           size_t elem_size, int pe);
}

// What gio_host_wait (and the device's wait dispatch) is asked to do.
enum gio_wait_kind {
  GIO_WAIT_UNTIL = 0,
  GIO_WAIT_ALL,
  GIO_WAIT_ANY,
  GIO_WAIT_SOME,
  GIO_TEST,
  GIO_TEST_ALL,
  GIO_TEST_ANY,
  GIO_TEST_SOME,
};

// Atomic operations understood by the host entry point (and the device dispatch).
enum gio_amo_op {
  GIO_AMO_FETCH = 0,
  GIO_AMO_SET,
  GIO_AMO_SWAP,
  GIO_AMO_CSWAP,
  GIO_AMO_FETCH_ADD,
  GIO_AMO_FETCH_AND,
  GIO_AMO_FETCH_OR,
  GIO_AMO_FETCH_XOR,
};

// Distributed locks (device/api/lock.h, host/lock.cpp): the public routines' host halves.
extern "C" {
void gio_host_set_lock(const char* routine, long* lock);
int gio_host_test_lock(const char* routine, long* lock);  // 0: acquired, 1: held by another
void gio_host_clear_lock(const char* routine, long* lock);
// Non-blocking fetching atomic (device/api/amo_nbi.h, host/amo_nbi.cpp): gio_host_amo's `op` on
// `dest` at `pe`, the old value's low `size` bytes stored to `fetch` (any local memory).
void gio_host_amo_nbi(const char* routine, gio_ctx_v1* ctx, int op, void* fetch, void* dest, uint64_t value,
                      uint64_t compare, size_t size, int pe);
}
