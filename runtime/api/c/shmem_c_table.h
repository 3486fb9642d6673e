// The routines libgio exports with C linkage under their OpenSHMEM names, for C programs: one
// entry per routine, GIO_C_X(RET, NAME, PARAMS, BODY...), GIO_C_X being defined by the file that
// expands a family (GIO_C_FAMILY_* at the end). The C header declares `RET NAME PARAMS;` from
// it (shmem_c.h) and libgio defines `RET NAME PARAMS { return BODY; }` (host/capi/), where BODY
// calls libgio's gio_host_* entry points (`__func__` is the routine's name for messages). Adding a
// routine is one entry here. C++ programs keep the inline API of device/api/ (same names, C++
// linkage, so the two never meet at link time).
#pragma once
#include "runtime/api/types.h"

// putmem / getmem (+ _nbi) and their ctx forms
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_C_MEM(OP, FN)                                                                                  \
  GIO_C_X(void, shmem_##OP, (void* dest, const void* source, size_t nelems, int pe),                                \
    FN(__func__, 0, dest, source, nelems, pe))                                                                \
  GIO_C_X(void, shmem_ctx_##OP, (shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe),           \
    FN(__func__, ctx, dest, source, nelems, pe))
#define GIO_C_MEMS                                                                                         \
  GIO_C_MEM(putmem, gio_host_putmem) GIO_C_MEM(putmem_nbi, gio_host_putmem)                             \
  GIO_C_MEM(getmem, gio_host_getmem) GIO_C_MEM(getmem_nbi, gio_host_getmem)

// shmem_TYPE_{put,get}[_nbi], _p, _g, the ctx forms, and put_signal[_nbi]
#define GIO_C_TYPED_CTX(NAME, T, CTXP)                                                                \
  GIO_C_X(void, shmem_##CTXP##NAME##_put, (GIO_C_CTXARG_##CTXP T* dest, const T* source, size_t nelems, int pe),                    \
    gio_host_putmem(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * sizeof(T), pe))                        \
  GIO_C_X(void, shmem_##CTXP##NAME##_put_nbi, (GIO_C_CTXARG_##CTXP T* dest, const T* source, size_t nelems, int pe),                \
    gio_host_putmem(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * sizeof(T), pe))                        \
  GIO_C_X(void, shmem_##CTXP##NAME##_get, (GIO_C_CTXARG_##CTXP T* dest, const T* source, size_t nelems, int pe),                    \
    gio_host_getmem(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * sizeof(T), pe))                        \
  GIO_C_X(void, shmem_##CTXP##NAME##_get_nbi, (GIO_C_CTXARG_##CTXP T* dest, const T* source, size_t nelems, int pe),                \
    gio_host_getmem(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * sizeof(T), pe))                        \
  GIO_C_X(void, shmem_##CTXP##NAME##_p, (GIO_C_CTXARG_##CTXP T* dest, T value, int pe),                                             \
    gio_host_putmem(__func__, GIO_C_CTX_##CTXP, dest, &value, sizeof(T), pe))                                 \
  GIO_C_X(T, shmem_##CTXP##NAME##_g, (GIO_C_CTXARG_##CTXP const T* source, int pe), gio_c_g<T>(__func__, GIO_C_CTX_##CTXP, source, pe)) \
  GIO_C_X(void, shmem_##CTXP##NAME##_put_signal,                                                                    \
    (GIO_C_CTXARG_##CTXP T* dest, const T* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe),   \
    gio_host_putmem_signal(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * sizeof(T), sig_addr, signal,    \
                           sig_op, pe))                                                                       \
  GIO_C_X(void, shmem_##CTXP##NAME##_put_signal_nbi,                                                                \
    (GIO_C_CTXARG_##CTXP T* dest, const T* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe),   \
    gio_host_putmem_signal(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * sizeof(T), sig_addr, signal,    \
                           sig_op, pe))
// The context argument of a ctx_ form (CTXP ctx_) or none (CTXP empty), and what the body passes.
#define GIO_C_CTX_ 0
#define GIO_C_CTX_ctx_ ctx
#define GIO_C_CTXARG_
#define GIO_C_CTXARG_ctx_ shmem_ctx_t ctx,
#define GIO_C_TYPED(NAME, T) GIO_C_TYPED_CTX(NAME, T, ) GIO_C_TYPED_CTX(NAME, T, ctx_)

// shmem_put{8,16,32,64,128}[_nbi], get..., putSIZE_signal[_nbi], and their ctx forms
#define GIO_C_SIZED_CTX(BITS, BYTES, CTXP)                                                            \
  GIO_C_X(void, shmem_##CTXP##put##BITS, (GIO_C_CTXARG_##CTXP void* dest, const void* source, size_t nelems, int pe),               \
    gio_host_putmem(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * BYTES, pe))                            \
  GIO_C_X(void, shmem_##CTXP##put##BITS##_nbi, (GIO_C_CTXARG_##CTXP void* dest, const void* source, size_t nelems, int pe),         \
    gio_host_putmem(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * BYTES, pe))                            \
  GIO_C_X(void, shmem_##CTXP##get##BITS, (GIO_C_CTXARG_##CTXP void* dest, const void* source, size_t nelems, int pe),               \
    gio_host_getmem(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * BYTES, pe))                            \
  GIO_C_X(void, shmem_##CTXP##get##BITS##_nbi, (GIO_C_CTXARG_##CTXP void* dest, const void* source, size_t nelems, int pe),         \
    gio_host_getmem(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * BYTES, pe))                            \
  GIO_C_X(void, shmem_##CTXP##put##BITS##_signal,                                                                   \
    (GIO_C_CTXARG_##CTXP void* dest, const void* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe), \
    gio_host_putmem_signal(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * BYTES, sig_addr, signal, sig_op, pe)) \
  GIO_C_X(void, shmem_##CTXP##put##BITS##_signal_nbi,                                                               \
    (GIO_C_CTXARG_##CTXP void* dest, const void* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe), \
    gio_host_putmem_signal(__func__, GIO_C_CTX_##CTXP, dest, source, nelems * BYTES, sig_addr, signal, sig_op, pe))
#define GIO_C_SIZED(BITS, BYTES) GIO_C_SIZED_CTX(BITS, BYTES, ) GIO_C_SIZED_CTX(BITS, BYTES, ctx_)

// putmem_signal[_nbi], signals, ordering, barriers, queries, contexts
#define GIO_C_MISC                                                                                         \
  GIO_C_X(void, shmem_putmem_signal,                                                                                \
    (void* dest, const void* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe), \
    gio_host_putmem_signal(__func__, 0, dest, source, nelems, sig_addr, signal, sig_op, pe))                  \
  GIO_C_X(void, shmem_putmem_signal_nbi,                                                                            \
    (void* dest, const void* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe), \
    gio_host_putmem_signal(__func__, 0, dest, source, nelems, sig_addr, signal, sig_op, pe))                  \
  GIO_C_X(void, shmem_ctx_putmem_signal,                                                                            \
    (shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, uint64_t* sig_addr, uint64_t signal,     \
     int sig_op, int pe),                                                                                     \
    gio_host_putmem_signal(__func__, ctx, dest, source, nelems, sig_addr, signal, sig_op, pe))                \
  GIO_C_X(void, shmem_ctx_putmem_signal_nbi,                                                                        \
    (shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, uint64_t* sig_addr, uint64_t signal,     \
     int sig_op, int pe),                                                                                     \
    gio_host_putmem_signal(__func__, ctx, dest, source, nelems, sig_addr, signal, sig_op, pe))                \
  GIO_C_X(uint64_t, shmem_signal_fetch, (const uint64_t* sig_addr), gio_host_signal_fetch(sig_addr))                \
  GIO_C_X(void, shmem_signal_set, (uint64_t* sig_addr, uint64_t signal, int pe),                                    \
    gio_host_putmem_signal(__func__, 0, sig_addr, sig_addr, 0, sig_addr, signal, 0, pe))                      \
  GIO_C_X(void, shmem_signal_add, (uint64_t* sig_addr, uint64_t signal, int pe),                                    \
    gio_host_putmem_signal(__func__, 0, sig_addr, sig_addr, 0, sig_addr, signal, 1, pe))                      \
  GIO_C_X(void, shmem_ctx_signal_set, (shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe),              \
    gio_host_putmem_signal(__func__, ctx, sig_addr, sig_addr, 0, sig_addr, signal, 0, pe))                    \
  GIO_C_X(void, shmem_ctx_signal_add, (shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe),              \
    gio_host_putmem_signal(__func__, ctx, sig_addr, sig_addr, 0, sig_addr, signal, 1, pe))                    \
  GIO_C_X(uint64_t, shmem_signal_wait_until, (uint64_t* sig_addr, int cmp, uint64_t cmp_value),                     \
    gio_c_wait_until<uint64_t>(__func__, sig_addr, cmp, cmp_value))                                           \
  GIO_C_X(void, shmem_quiet, (void), gio_host_quiet(0))                                                             \
  GIO_C_X(void, shmem_fence, (void), gio_host_fence(0))                                                             \
  GIO_C_X(void, shmem_ctx_quiet, (shmem_ctx_t ctx), gio_host_quiet(ctx))                                            \
  GIO_C_X(void, shmem_ctx_fence, (shmem_ctx_t ctx), gio_host_fence(ctx))                                            \
  GIO_C_X(void, shmem_pe_quiet, (const int* target_pes, size_t npes), gio_host_pe_quiet(__func__, 0, target_pes, npes)) \
  GIO_C_X(void, shmem_ctx_pe_quiet, (shmem_ctx_t ctx, const int* target_pes, size_t npes),                          \
    gio_host_pe_quiet(__func__, ctx, target_pes, npes))                                                       \
  GIO_C_X(void, shmem_ctx_session_start,                                                                            \
    (shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t* config, long config_mask),              \
    gio_host_ctx_session_start(ctx, options, config, config_mask))                                            \
  GIO_C_X(void, shmem_ctx_session_stop, (shmem_ctx_t ctx), gio_host_ctx_session_stop(ctx))                          \
  GIO_C_X(void, shmem_barrier_all, (void), gio_host_barrier_all())                                                  \
  GIO_C_X(void, shmem_sync_all, (void), gio_host_sync_all())                                                        \
  GIO_C_X(int, shmem_my_pe, (void), gio_host_my_pe())                                                               \
  GIO_C_X(int, shmem_n_pes, (void), gio_host_n_pes())                                                               \
  GIO_C_X(void*, shmem_ptr, (const void* dest, int pe), gio_host_ptr(dest, pe))                                     \
  GIO_C_X(int, shmem_ctx_create, (long options, shmem_ctx_t* ctx), gio_host_ctx_create(options, ctx))               \
  GIO_C_X(void, shmem_ctx_destroy, (shmem_ctx_t ctx), gio_host_ctx_destroy(ctx))                                    \
  GIO_C_X(int, shmem_team_my_pe, (shmem_team_t team), gio_host_team_my_pe(team))                                    \
  GIO_C_X(int, shmem_team_n_pes, (shmem_team_t team), gio_host_team_n_pes(team))                                    \
  GIO_C_X(int, shmem_team_translate_pe, (shmem_team_t src_team, int src_pe, shmem_team_t dest_team),                \
    gio_host_team_translate_pe(src_team, src_pe, dest_team))                                                  \
  GIO_C_X(int, shmem_team_sync, (shmem_team_t team), gio_host_team_sync(team))                                      \
  GIO_C_X(int, shmem_broadcastmem, (shmem_team_t team, void* dest, const void* source, size_t nelems, int PE_root), \
    gio_host_broadcastmem(team, dest, source, nelems, PE_root))                                               \
  GIO_C_X(int, shmem_collectmem, (shmem_team_t team, void* dest, const void* source, size_t nelems),                \
    gio_host_collectmem(team, dest, source, nelems))                                                          \
  GIO_C_X(int, shmem_fcollectmem, (shmem_team_t team, void* dest, const void* source, size_t nelems),               \
    gio_host_fcollectmem(team, dest, source, nelems))                                                         \
  GIO_C_X(int, shmem_alltoallmem, (shmem_team_t team, void* dest, const void* source, size_t nelems),               \
    gio_host_alltoallmem(team, dest, source, nelems))                                                         \
  GIO_C_X(int, shmem_alltoallsmem,                                                                                  \
    (shmem_team_t team, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems),         \
    gio_host_alltoallsmem(team, dest, source, dst, sst, nelems))                                              \
  GIO_C_X(void*, shmem_team_ptr, (shmem_team_t team, const void* dest, int pe), gio_c_team_ptr(team, dest, pe))

// Atomics: fetch/set/swap on the extended types, the arithmetic ones on the standard types, the
// bitwise ones on their own; each with its ctx form (CTXP ctx_).
#define GIO_C_AMO_EXT_CTX(NAME, T, CTXP)                                                              \
  GIO_C_X(T, shmem_##CTXP##NAME##_atomic_fetch, (GIO_C_CTXARG_##CTXP const T* source, int pe),                                      \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, GIO_AMO_FETCH, (T*)source, 0, 0, pe))                            \
  GIO_C_X(void, shmem_##CTXP##NAME##_atomic_set, (GIO_C_CTXARG_##CTXP T* dest, T value, int pe),                                    \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, GIO_AMO_SET, dest, value, 0, pe))                                \
  GIO_C_X(T, shmem_##CTXP##NAME##_atomic_swap, (GIO_C_CTXARG_##CTXP T* dest, T value, int pe),                                      \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, GIO_AMO_SWAP, dest, value, 0, pe))
#define GIO_C_AMO_STD_CTX(NAME, T, CTXP)                                                              \
  GIO_C_X(T, shmem_##CTXP##NAME##_atomic_compare_swap, (GIO_C_CTXARG_##CTXP T* dest, T cond, T value, int pe),                      \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, GIO_AMO_CSWAP, dest, value, cond, pe))                           \
  GIO_C_X(T, shmem_##CTXP##NAME##_atomic_fetch_inc, (GIO_C_CTXARG_##CTXP T* dest, int pe),                                          \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, GIO_AMO_FETCH_ADD, dest, 1, 0, pe))                              \
  GIO_C_X(void, shmem_##CTXP##NAME##_atomic_inc, (GIO_C_CTXARG_##CTXP T* dest, int pe),                                             \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, GIO_AMO_FETCH_ADD, dest, 1, 0, pe))                              \
  GIO_C_X(T, shmem_##CTXP##NAME##_atomic_fetch_add, (GIO_C_CTXARG_##CTXP T* dest, T value, int pe),                                 \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, GIO_AMO_FETCH_ADD, dest, value, 0, pe))                          \
  GIO_C_X(void, shmem_##CTXP##NAME##_atomic_add, (GIO_C_CTXARG_##CTXP T* dest, T value, int pe),                                    \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, GIO_AMO_FETCH_ADD, dest, value, 0, pe))
#define GIO_C_AMO_BIT1(NAME, T, CTXP, OPN, OP)                                                        \
  GIO_C_X(T, shmem_##CTXP##NAME##_atomic_fetch_##OPN, (GIO_C_CTXARG_##CTXP T* dest, T value, int pe),                               \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, OP, dest, value, 0, pe))                                         \
  GIO_C_X(void, shmem_##CTXP##NAME##_atomic_##OPN, (GIO_C_CTXARG_##CTXP T* dest, T value, int pe),                                  \
    gio_c_amo<T>(__func__, GIO_C_CTX_##CTXP, OP, dest, value, 0, pe))
#define GIO_C_AMO_BIT_CTX(NAME, T, CTXP)                                                              \
  GIO_C_AMO_BIT1(NAME, T, CTXP, and, GIO_AMO_FETCH_AND)                                               \
  GIO_C_AMO_BIT1(NAME, T, CTXP, or, GIO_AMO_FETCH_OR)                                                 \
  GIO_C_AMO_BIT1(NAME, T, CTXP, xor, GIO_AMO_FETCH_XOR)
#define GIO_C_BOTH_CTX(F, NAME, T) F(NAME, T, ) F(NAME, T, ctx_)
#define GIO_C_AMO_EXT(NAME, T) GIO_C_BOTH_CTX(GIO_C_AMO_EXT_CTX, NAME, T)
#define GIO_C_AMO_STD(NAME, T) GIO_C_BOTH_CTX(GIO_C_AMO_STD_CTX, NAME, T)
#define GIO_C_AMO_BIT(NAME, T) GIO_C_BOTH_CTX(GIO_C_AMO_BIT_CTX, NAME, T)

// The OpenSHMEM 1.3 atomic names (deprecated since 1.4) on their 1.3 types.
#define GIO_C_AMO13_STD(NAME, T)                                                                           \
  GIO_C_X(T, shmem_##NAME##_fadd, (T* dest, T value, int pe), gio_c_amo<T>(__func__, 0, GIO_AMO_FETCH_ADD, dest, value, 0, pe)) \
  GIO_C_X(T, shmem_##NAME##_finc, (T* dest, int pe), gio_c_amo<T>(__func__, 0, GIO_AMO_FETCH_ADD, dest, 1, 0, pe))  \
  GIO_C_X(T, shmem_##NAME##_cswap, (T* dest, T cond, T value, int pe),                                              \
    gio_c_amo<T>(__func__, 0, GIO_AMO_CSWAP, dest, value, cond, pe))                                          \
  GIO_C_X(void, shmem_##NAME##_add, (T* dest, T value, int pe),                                                     \
    gio_c_amo<T>(__func__, 0, GIO_AMO_FETCH_ADD, dest, value, 0, pe))                                         \
  GIO_C_X(void, shmem_##NAME##_inc, (T* dest, int pe), gio_c_amo<T>(__func__, 0, GIO_AMO_FETCH_ADD, dest, 1, 0, pe))
#define GIO_C_AMO13_EXT(NAME, T)                                                                           \
  GIO_C_X(T, shmem_##NAME##_swap, (T* dest, T value, int pe), gio_c_amo<T>(__func__, 0, GIO_AMO_SWAP, dest, value, 0, pe)) \
  GIO_C_X(T, shmem_##NAME##_fetch, (const T* source, int pe),                                                       \
    gio_c_amo<T>(__func__, 0, GIO_AMO_FETCH, (T*)source, 0, 0, pe))                                           \
  GIO_C_X(void, shmem_##NAME##_set, (T* dest, T value, int pe), gio_c_amo<T>(__func__, 0, GIO_AMO_SET, dest, value, 0, pe))

// Team collectives: typed data movers and reductions.
#define GIO_C_TEAM_MOVE(NAME, T)                                                                           \
  GIO_C_X(int, shmem_##NAME##_broadcast, (shmem_team_t team, T* dest, const T* source, size_t nelems, int PE_root), \
    gio_host_##NAME##_broadcast(team, dest, source, nelems, PE_root))                                         \
  GIO_C_X(int, shmem_##NAME##_collect, (shmem_team_t team, T* dest, const T* source, size_t nelems),                \
    gio_host_##NAME##_collect(team, dest, source, nelems))                                                    \
  GIO_C_X(int, shmem_##NAME##_fcollect, (shmem_team_t team, T* dest, const T* source, size_t nelems),               \
    gio_host_##NAME##_fcollect(team, dest, source, nelems))                                                   \
  GIO_C_X(int, shmem_##NAME##_alltoall, (shmem_team_t team, T* dest, const T* source, size_t nelems),               \
    gio_host_##NAME##_alltoall(team, dest, source, nelems))                                                   \
  GIO_C_X(int, shmem_##NAME##_alltoalls,                                                                            \
    (shmem_team_t team, T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems),               \
    gio_host_##NAME##_alltoalls(team, dest, source, dst, sst, nelems))
#define GIO_C_REDUCE(OP, NAME, T)                                                                             \
  GIO_C_X(int, shmem_##NAME##_##OP##_reduce, (shmem_team_t team, T* dest, const T* source, size_t nreduce),         \
    gio_host_##NAME##_##OP##_reduce(team, dest, source, nreduce))
#define GIO_C_SCAN(OP, NAME, T)                                                                               \
  GIO_C_X(int, shmem_##NAME##_##OP##_inscan, (shmem_team_t team, T* dest, const T* source, size_t nelems),          \
    gio_host_##NAME##_##OP##_inscan(team, dest, source, nelems))                                              \
  GIO_C_X(int, shmem_##NAME##_##OP##_exscan, (shmem_team_t team, T* dest, const T* source, size_t nelems),          \
    gio_host_##NAME##_##OP##_exscan(team, dest, source, nelems))

// Waits and tests: every form of GIO_WAIT_FORMS (runtime/api/types.h).
#define GIO_C_WAIT_FORM(NAME, T, RET, FORM, PARAMS, KIND, N, IDX, ST, VALS, VEC)                              \
  GIO_C_X(RET, shmem_##NAME##_##FORM, PARAMS,                                                            \
               (RET)gio_c_wait<T>(__func__, KIND, ivars, N, IDX, ST, cmp, VALS, VEC))
#define GIO_C_WAIT(NAME, T) GIO_WAIT_FORMS(GIO_C_WAIT_FORM, NAME, T)

// Distributed locks (device/api/lock.h) and the non-blocking fetching atomics (amo_nbi.h).
#define GIO_C_LOCKS                                                                                        \
  GIO_C_X(void, shmem_set_lock, (long* lock), gio_host_set_lock(__func__, lock))                           \
  GIO_C_X(int, shmem_test_lock, (long* lock), gio_host_test_lock(__func__, lock))                          \
  GIO_C_X(void, shmem_clear_lock, (long* lock), gio_host_clear_lock(__func__, lock))
#define GIO_C_NBI(NAME, T, CTXP, OPN, PARAMS, OP, DEST, VALUE, COND)                                       \
  GIO_C_X(void, shmem_##CTXP##NAME##_atomic_##OPN##_nbi, (GIO_C_CTXARG_##CTXP T* fetch, PARAMS),           \
    gio_c_amo_nbi<T>(__func__, GIO_C_CTX_##CTXP, OP, fetch, (T*)(DEST), VALUE, COND, pe))
#define GIO_C_AMO_NBI_EXT_CTX(NAME, T, CTXP)                                                               \
  GIO_C_NBI(NAME, T, CTXP, fetch, GIO_C_P(const T* source, int pe), GIO_AMO_FETCH, source, 0, 0)           \
  GIO_C_NBI(NAME, T, CTXP, swap, GIO_C_P(T* dest, T value, int pe), GIO_AMO_SWAP, dest, value, 0)
#define GIO_C_AMO_NBI_STD_CTX(NAME, T, CTXP)                                                               \
  GIO_C_NBI(NAME, T, CTXP, compare_swap, GIO_C_P(T* dest, T cond, T value, int pe), GIO_AMO_CSWAP, dest, value, cond) \
  GIO_C_NBI(NAME, T, CTXP, fetch_inc, GIO_C_P(T* dest, int pe), GIO_AMO_FETCH_ADD, dest, 1, 0)             \
  GIO_C_NBI(NAME, T, CTXP, fetch_add, GIO_C_P(T* dest, T value, int pe), GIO_AMO_FETCH_ADD, dest, value, 0)
#define GIO_C_AMO_NBI_BIT_CTX(NAME, T, CTXP)                                                               \
  GIO_C_NBI(NAME, T, CTXP, fetch_and, GIO_C_P(T* dest, T value, int pe), GIO_AMO_FETCH_AND, dest, value, 0) \
  GIO_C_NBI(NAME, T, CTXP, fetch_or, GIO_C_P(T* dest, T value, int pe), GIO_AMO_FETCH_OR, dest, value, 0)   \
  GIO_C_NBI(NAME, T, CTXP, fetch_xor, GIO_C_P(T* dest, T value, int pe), GIO_AMO_FETCH_XOR, dest, value, 0)
// A parameter list passed through one macro argument.
#define GIO_C_P(...) __VA_ARGS__
#define GIO_C_AMO_NBI_EXT(NAME, T) GIO_C_BOTH_CTX(GIO_C_AMO_NBI_EXT_CTX, NAME, T)
#define GIO_C_AMO_NBI_STD(NAME, T) GIO_C_BOTH_CTX(GIO_C_AMO_NBI_STD_CTX, NAME, T)
#define GIO_C_AMO_NBI_BIT(NAME, T) GIO_C_BOTH_CTX(GIO_C_AMO_NBI_BIT_CTX, NAME, T)

// Names older than OpenSHMEM 1.4, kept because old programs (and tests-sos) use them: libgio
// exports them to C and C++ alike (shmem.h declares them in both). The cache routines had effect
// only on machines without coherent caches; the spec keeps them as no-ops, and so does GIO.
#define GIO_C_LEGACY_WAIT(NAME, T)                                                                         \
  GIO_C_X(void, shmem_##NAME##_wait, (T* ivar, T cmp_value),                                               \
    (void)gio_c_wait_until<T>(__func__, ivar, GIO_C_CMP_NE, cmp_value))
#define GIO_C_FAMILY_LEGACY                                                                                \
  GIO_C_X(void, start_pes, (int npes), ((void)npes, gio_host_start_pes()))                                   \
  GIO_C_X(int, _my_pe, (void), gio_host_my_pe())                                                           \
  GIO_C_X(int, _num_pes, (void), gio_host_n_pes())                                                         \
  GIO_C_X(void*, shmalloc, (size_t size), shmem_malloc(size))                                              \
  GIO_C_X(void, shfree, (void* ptr), shmem_free(ptr))                                                      \
  GIO_C_X(void*, shrealloc, (void* ptr, size_t size), shmem_realloc(ptr, size))                            \
  GIO_C_X(void*, shmemalign, (size_t alignment, size_t size), shmem_align(alignment, size))                \
  GIO_C_X(void, shmem_wait, (long* ivar, long cmp_value),                                                  \
    (void)gio_c_wait_until<long>(__func__, ivar, GIO_C_CMP_NE, cmp_value))                                 \
  GIO_C_LEGACY_WAIT(short, short) GIO_C_LEGACY_WAIT(int, int) GIO_C_LEGACY_WAIT(long, long)                \
  GIO_C_LEGACY_WAIT(longlong, long long)                                                                   \
  GIO_C_X(void, shmem_clear_cache_inv, (void), (void)0)                                                    \
  GIO_C_X(void, shmem_set_cache_inv, (void), (void)0)                                                      \
  GIO_C_X(void, shmem_clear_cache_line_inv, (void* dest), (void)dest)                                      \
  GIO_C_X(void, shmem_set_cache_line_inv, (void* dest), (void)dest)                                        \
  GIO_C_X(void, shmem_udcflush, (void), (void)0)                                                           \
  GIO_C_X(void, shmem_udcflush_line, (void* dest), (void)dest)
#define GIO_C_CMP_NE 1 /* SHMEM_CMP_NE */
// shmem_[ctx_]TYPE_{iput,iget,ibput,ibget}, the sized forms, shmemx_[ctx_]{put,get}mem_subarray
// (host/strided.cpp)
#define GIO_C_STRIDED_CTX(NAME, T, CTXP)                                                                   \
  GIO_C_X(void, shmem_##CTXP##NAME##_iput,                                                                  \
    (GIO_C_CTXARG_##CTXP T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),     \
    gio_host_iput(__func__, GIO_C_CTX_##CTXP, dest, source, dst, sst, nelems, sizeof(T), pe))              \
  GIO_C_X(void, shmem_##CTXP##NAME##_iget,                                                                  \
    (GIO_C_CTXARG_##CTXP T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),     \
    gio_host_iget(__func__, GIO_C_CTX_##CTXP, dest, source, dst, sst, nelems, sizeof(T), pe))              \
  GIO_C_X(void, shmem_##CTXP##NAME##_ibput,                                                                 \
    (GIO_C_CTXARG_##CTXP T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
     int pe),                                                                                                \
    gio_host_ibput(__func__, GIO_C_CTX_##CTXP, dest, source, dst, sst, bsize, nblocks, sizeof(T), pe))     \
  GIO_C_X(void, shmem_##CTXP##NAME##_ibget,                                                                 \
    (GIO_C_CTXARG_##CTXP T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
     int pe),                                                                                                \
    gio_host_ibget(__func__, GIO_C_CTX_##CTXP, dest, source, dst, sst, bsize, nblocks, sizeof(T), pe))
#define GIO_C_STRIDED(NAME, T) GIO_C_STRIDED_CTX(NAME, T, ) GIO_C_STRIDED_CTX(NAME, T, ctx_)
#define GIO_C_SIZED_STRIDED_CTX(BITS, BYTES, CTXP)                                                         \
  GIO_C_X(void, shmem_##CTXP##iput##BITS,                                                                   \
    (GIO_C_CTXARG_##CTXP void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
    gio_host_iput(__func__, GIO_C_CTX_##CTXP, dest, source, dst, sst, nelems, BYTES, pe))                  \
  GIO_C_X(void, shmem_##CTXP##iget##BITS,                                                                   \
    (GIO_C_CTXARG_##CTXP void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
    gio_host_iget(__func__, GIO_C_CTX_##CTXP, dest, source, dst, sst, nelems, BYTES, pe))                  \
  GIO_C_X(void, shmem_##CTXP##ibput##BITS,                                                                  \
    (GIO_C_CTXARG_##CTXP void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,         \
     size_t nblocks, int pe),                                                                                \
    gio_host_ibput(__func__, GIO_C_CTX_##CTXP, dest, source, dst, sst, bsize, nblocks, BYTES, pe))         \
  GIO_C_X(void, shmem_##CTXP##ibget##BITS,                                                                  \
    (GIO_C_CTXARG_##CTXP void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,         \
     size_t nblocks, int pe),                                                                                \
    gio_host_ibget(__func__, GIO_C_CTX_##CTXP, dest, source, dst, sst, bsize, nblocks, BYTES, pe))
#define GIO_C_SIZED_STRIDED(BITS, BYTES) GIO_C_SIZED_STRIDED_CTX(BITS, BYTES, ) GIO_C_SIZED_STRIDED_CTX(BITS, BYTES, ctx_)
#define GIO_C_SUBARRAY_CTX(OP, FN, CTXP)                                                                   \
  GIO_C_X(void, shmemx_##CTXP##OP##_subarray,                                                               \
    (GIO_C_CTXARG_##CTXP void* dest, const ptrdiff_t* dst_strides, const void* source,                      \
     const ptrdiff_t* src_strides, const size_t* counts, int ndims, size_t elem_size, int pe),              \
    FN(__func__, GIO_C_CTX_##CTXP, dest, dst_strides, source, src_strides, counts, ndims, elem_size, pe))
#define GIO_C_SUBARRAYS                                                                                    \
  GIO_C_SUBARRAY_CTX(putmem, gio_host_put_subarray, ) GIO_C_SUBARRAY_CTX(putmem, gio_host_put_subarray, ctx_) \
  GIO_C_SUBARRAY_CTX(getmem, gio_host_get_subarray, ) GIO_C_SUBARRAY_CTX(getmem, gio_host_get_subarray, ctx_)

// Everything above, by family (each file of host/capi/ defines one family).
#define GIO_C_FAMILY_RMA                                                                                   \
  GIO_C_MEMS GIO_RMA_TYPES(GIO_C_TYPED) GIO_RMA_HOST_TYPES(GIO_C_TYPED) GIO_RMA_SIZES(GIO_C_SIZED)
#define GIO_C_FAMILY_AMO                                                                                      \
  GIO_AMO_EXT_TYPES(GIO_C_AMO_EXT) GIO_AMO_STD_TYPES(GIO_C_AMO_STD) GIO_AMO_BIT_TYPES(GIO_C_AMO_BIT)          \
  GIO_AMO13_STD_TYPES(GIO_C_AMO13_STD) GIO_AMO13_EXT_TYPES(GIO_C_AMO13_EXT)
#define GIO_C_FAMILY_COLL                                                                                  \
  GIO_C_MISC GIO_RMA_TYPES(GIO_C_TEAM_MOVE) GIO_RMA_HOST_TYPES(GIO_C_TEAM_MOVE)                             \
  GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_C_REDUCE) GIO_SCAN_OPS(GIO_REDUCE_EACH, GIO_C_SCAN)
#define GIO_C_FAMILY_WAIT GIO_WAIT_TYPES(GIO_C_WAIT)
#define GIO_C_FAMILY_LOCK_NBI                                                                              \
  GIO_C_LOCKS GIO_AMO_EXT_TYPES(GIO_C_AMO_NBI_EXT) GIO_AMO_STD_TYPES(GIO_C_AMO_NBI_STD)                     \
  GIO_AMO_BIT_TYPES(GIO_C_AMO_NBI_BIT)
#define GIO_C_FAMILY_STRIDED                                                                               \
  GIO_RMA_TYPES(GIO_C_STRIDED) GIO_RMA_HOST_TYPES(GIO_C_STRIDED) GIO_RMA_SIZES(GIO_C_SIZED_STRIDED) GIO_C_SUBARRAYS
// What only C programs see (C++ has these as inline routines; GIO_C_FAMILY_LEGACY both do).
#define GIO_C_ALL \
  GIO_C_FAMILY_RMA GIO_C_FAMILY_AMO GIO_C_FAMILY_COLL GIO_C_FAMILY_WAIT GIO_C_FAMILY_LOCK_NBI GIO_C_FAMILY_STRIDED
