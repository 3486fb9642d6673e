// The OpenSHMEM 1.5 type tables, X(name, type), used to generate the typed routines once.
#pragma once
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
#include <complex>
#else
#include <complex.h>
#endif

// Handles: a context is a pointer to its descriptor (runtime/contract.h); a team is pointer-sized
// too, as bindings that keep handles in a void* (shmem4py) and other OpenSHMEM libraries have it,
// and carries its slot in the team table plus one (runtime/team.h: gio_team_slot), so that a
// zeroed handle is SHMEM_TEAM_INVALID. The same types in C and C++, on the host and in kernels.
#ifdef __cplusplus
extern "C" {
#endif
struct gio_ctx_v1;
typedef struct gio_ctx_v1* shmem_ctx_t;
struct gio_team_handle;  // never defined: a handle is never dereferenced
typedef struct gio_team_handle* shmem_team_t;
typedef struct {
  int num_contexts;
} shmem_team_config_t;
// 1.6 communication sessions (shmem_ctx_session_start): hints only.
typedef struct {
  size_t total_ops;
} shmem_ctx_session_config_t;
#ifdef __cplusplus
}
#endif

#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)0)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)(uintptr_t)-1)  // what a failed create stores; using it is an error
#define SHMEM_CTX_SERIALIZED 1
#define SHMEM_CTX_PRIVATE 2
#define SHMEM_CTX_NOSTORE 4
// GPU Auxiliary Specification (shmemg.h): a context for GPU-centric routines, used in kernels only.
#define SHMEM_DEVICE_CTX (1L << 16)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_TEAM_WORLD ((shmem_team_t)(uintptr_t)1)   // slot 0
#define SHMEM_TEAM_SHARED ((shmem_team_t)(uintptr_t)2)  // slot 1: the PEs of this node (GIO_NODE_PER_PE=1: this PE)
// GPU Auxiliary Specification (shmemg.h): the predefined device teams, atomicity domains of their
// own. DEVICE_TEAM_WORLD has every PE (each has a GPU); DEVICE_TEAM_SHARED the PEs whose GPU heaps
// are mutually load/store reachable (shmem_ptr is non-null between every pair).
#define SHMEM_DEVICE_TEAM_WORLD ((shmem_team_t)(uintptr_t)3)   // slot 2
#define SHMEM_DEVICE_TEAM_SHARED ((shmem_team_t)(uintptr_t)4)  // slot 3
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)
#define SHMEM_CTX_SESSION_BATCH (1L << 0)      // shmem_ctx_session_start option
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)  // shmem_ctx_session_config_t mask: total_ops is set

// The complex reduction types: std::complex in C++, C's _Complex in C (the same layout).
#ifdef __cplusplus
#define GIO_COMPLEXD std::complex<double>
#define GIO_COMPLEXF std::complex<float>
#else
#define GIO_COMPLEXD double _Complex
#define GIO_COMPLEXF float _Complex
#endif

// Standard RMA types that kernels may move too.
#define GIO_RMA_TYPES(X)                                                                        \
  X(float, float) X(double, double) X(char, char) X(schar, signed char) X(short, short)         \
  X(int, int) X(long, long) X(longlong, long long) X(uchar, unsigned char)                      \
  X(ushort, unsigned short) X(uint, unsigned int) X(ulong, unsigned long)                       \
  X(ulonglong, unsigned long long) X(int8, int8_t) X(int16, int16_t) X(int32, int32_t)          \
  X(int64, int64_t) X(uint8, uint8_t) X(uint16, uint16_t) X(uint32, uint32_t)                   \
  X(uint64, uint64_t) X(size, size_t) X(ptrdiff, ptrdiff_t)
// ... and the one whose routines are host code only (GIO_HOST_INLINE): no GPU has long double (nvcc makes it
// double in device code, which is not the host's value), so there is no device form to dispatch to.
#define GIO_RMA_HOST_TYPES(X) X(longdouble, long double)

// Standard AMO types (fetch_add, compare_swap, inc, ...).
#define GIO_AMO_STD_TYPES(X)                                                                    \
  X(int, int) X(long, long) X(longlong, long long) X(uint, unsigned int) X(ulong, unsigned long) \
  X(ulonglong, unsigned long long) X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t)      \
  X(uint64, uint64_t) X(size, size_t) X(ptrdiff, ptrdiff_t)

// Extended AMO types (fetch, set, swap) = standard + float, double.
#define GIO_AMO_EXT_TYPES(X) GIO_AMO_STD_TYPES(X) X(float, float) X(double, double)

// Bitwise AMO types (and, or, xor).
#define GIO_AMO_BIT_TYPES(X)                                                                    \
  X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long)                \
  X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t)

// The OpenSHMEM 1.3 atomic names' types: fadd, finc, cswap, add, inc on these; swap, fetch, set also on float, double.
#define GIO_AMO13_STD_TYPES(X) X(int, int) X(long, long) X(longlong, long long)
#define GIO_AMO13_EXT_TYPES(X) GIO_AMO13_STD_TYPES(X) X(float, float) X(double, double)

// Point-to-point synchronization types (wait_until, test).
#define GIO_WAIT_TYPES(X)                                                                       \
  X(short, short) X(int, int) X(long, long) X(longlong, long long) X(ushort, unsigned short)    \
  X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long)                \
  X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)  \
  X(ptrdiff, ptrdiff_t)

// The wait and test forms of one type: X(NAME, T, RET, form, params, kind, n, indices, status,
// values, vector) for shmem_NAME_<form>. The C++ API (device/api/wait.h) and the C symbols
// (host/capi/) are both generated from it.
#define GIO_WAIT_FORMS(X, NAME, T)                                                                              \
  X(NAME, T, void, wait_until, (T * ivars, int cmp, T value), GIO_WAIT_UNTIL, 1, nullptr, nullptr, &value, false)    \
  X(NAME, T, int, test, (T * ivars, int cmp, T value), GIO_TEST, 1, nullptr, nullptr, &value, false)                 \
  X(NAME, T, void, wait_until_all, (T * ivars, size_t n, const int* status, int cmp, T value), GIO_WAIT_ALL, n,      \
    nullptr, status, &value, false)                                                                          \
  X(NAME, T, size_t, wait_until_any, (T * ivars, size_t n, const int* status, int cmp, T value), GIO_WAIT_ANY, n,    \
    nullptr, status, &value, false)                                                                          \
  X(NAME, T, size_t, wait_until_some, (T * ivars, size_t n, size_t* indices, const int* status, int cmp, T value),   \
    GIO_WAIT_SOME, n, indices, status, &value, false)                                                        \
  X(NAME, T, int, test_all, (T * ivars, size_t n, const int* status, int cmp, T value), GIO_TEST_ALL, n, nullptr,    \
    status, &value, false)                                                                                   \
  X(NAME, T, size_t, test_any, (T * ivars, size_t n, const int* status, int cmp, T value), GIO_TEST_ANY, n, nullptr, \
    status, &value, false)                                                                                   \
  X(NAME, T, size_t, test_some, (T * ivars, size_t n, size_t* indices, const int* status, int cmp, T value),         \
    GIO_TEST_SOME, n, indices, status, &value, false)                                                        \
  X(NAME, T, void, wait_until_all_vector, (T * ivars, size_t n, const int* status, int cmp, T* cmp_values),          \
    GIO_WAIT_ALL, n, nullptr, status, cmp_values, true)                                                      \
  X(NAME, T, size_t, wait_until_any_vector, (T * ivars, size_t n, const int* status, int cmp, T* cmp_values),        \
    GIO_WAIT_ANY, n, nullptr, status, cmp_values, true)                                                      \
  X(NAME, T, size_t, wait_until_some_vector,                                                                          \
    (T * ivars, size_t n, size_t* indices, const int* status, int cmp, T* cmp_values), GIO_WAIT_SOME, n,    \
    indices, status, cmp_values, true)                                                                       \
  X(NAME, T, int, test_all_vector, (T * ivars, size_t n, const int* status, int cmp, T* cmp_values), GIO_TEST_ALL,   \
    n, nullptr, status, cmp_values, true)                                                                    \
  X(NAME, T, size_t, test_any_vector, (T * ivars, size_t n, const int* status, int cmp, T* cmp_values),              \
    GIO_TEST_ANY, n, nullptr, status, cmp_values, true)                                                      \
  X(NAME, T, size_t, test_some_vector, (T * ivars, size_t n, size_t* indices, const int* status, int cmp,            \
                               T* cmp_values),                                                               \
    GIO_TEST_SOME, n, indices, status, cmp_values, true)


// Sized RMA routines: shmem_put{8,16,32,64,128}.
#define GIO_RMA_SIZES(X) X(8, 1) X(16, 2) X(32, 4) X(64, 8) X(128, 16)

// Team-based reductions, by operation (OpenSHMEM 1.5, "Reduction Types, Names, and Supporting
// Operations for Team-Based Reductions"): bitwise on the unsigned and fixed-width types; max/min
// on every integer and real type; sum/prod also on the complex types. These tables take the
// operation along, X(OP, name, type), so GIO_REDUCE_OPS can pair each operation with its table.
#define GIO_REDUCE_BIT_TYPES(X, OP)                                                             \
  X(OP, uchar, unsigned char) X(OP, ushort, unsigned short) X(OP, uint, unsigned int)           \
  X(OP, ulong, unsigned long) X(OP, ulonglong, unsigned long long) X(OP, int8, int8_t)          \
  X(OP, int16, int16_t) X(OP, int32, int32_t) X(OP, int64, int64_t) X(OP, uint8, uint8_t)       \
  X(OP, uint16, uint16_t) X(OP, uint32, uint32_t) X(OP, uint64, uint64_t) X(OP, size, size_t)
#define GIO_REDUCE_MINMAX_TYPES(X, OP)                                                          \
  X(OP, char, char) X(OP, schar, signed char) X(OP, short, short) X(OP, int, int)               \
  X(OP, long, long) X(OP, longlong, long long) X(OP, ptrdiff, ptrdiff_t)                        \
  GIO_REDUCE_BIT_TYPES(X, OP) X(OP, float, float) X(OP, double, double)                         \
  X(OP, longdouble, long double)
#define GIO_REDUCE_ARITH_TYPES(X, OP)                                                           \
  GIO_REDUCE_MINMAX_TYPES(X, OP) X(OP, complexd, GIO_COMPLEXD)                          \
  X(OP, complexf, GIO_COMPLEXF)

// Active-set reductions (shmem_TYPE_OP_to_all, deprecated in 1.5): the same operations on fewer types.
#define GIO_TO_ALL_BIT_TYPES(X, OP) X(OP, short, short) X(OP, int, int) X(OP, long, long) X(OP, longlong, long long)
#define GIO_TO_ALL_MINMAX_TYPES(X, OP) \
  GIO_TO_ALL_BIT_TYPES(X, OP) X(OP, float, float) X(OP, double, double) X(OP, longdouble, long double)
#define GIO_TO_ALL_ARITH_TYPES(X, OP)                                                           \
  GIO_TO_ALL_MINMAX_TYPES(X, OP) X(OP, complexd, GIO_COMPLEXD)                          \
  X(OP, complexf, GIO_COMPLEXF)

// The seven operations with their type tables: GIO_REDUCE_OPS(X, Y) expands Y(op, name, type) for
// every operation and type, through X(op, TABLE) (see GIO_REDUCE_EACH).
#define GIO_REDUCE_OPS(X, Y)                                                                    \
  X(and, GIO_REDUCE_BIT_TYPES, Y) X(or, GIO_REDUCE_BIT_TYPES, Y) X(xor, GIO_REDUCE_BIT_TYPES, Y) \
  X(max, GIO_REDUCE_MINMAX_TYPES, Y) X(min, GIO_REDUCE_MINMAX_TYPES, Y)                         \
  X(sum, GIO_REDUCE_ARITH_TYPES, Y) X(prod, GIO_REDUCE_ARITH_TYPES, Y)
// Team-based scans (OpenSHMEM 1.6, shmem_TYPE_sum_inscan / _exscan): sum over the sum reduction's
// types. GIO_SCAN_OPS(GIO_REDUCE_EACH, Y) expands Y(sum, name, type).
#define GIO_SCAN_OPS(X, Y) X(sum, GIO_REDUCE_ARITH_TYPES, Y)
#define GIO_TO_ALL_OPS(X, Y)                                                                    \
  X(and, GIO_TO_ALL_BIT_TYPES, Y) X(or, GIO_TO_ALL_BIT_TYPES, Y) X(xor, GIO_TO_ALL_BIT_TYPES, Y) \
  X(max, GIO_TO_ALL_MINMAX_TYPES, Y) X(min, GIO_TO_ALL_MINMAX_TYPES, Y)                         \
  X(sum, GIO_TO_ALL_ARITH_TYPES, Y) X(prod, GIO_TO_ALL_ARITH_TYPES, Y)
#define GIO_REDUCE_EACH(OP, TABLE, Y) TABLE(Y, OP)
