// The C11 type-generic names of OpenSHMEM 1.5 (shmem_put, shmem_atomic_fetch_add, shmem_wait_until,
// shmem_sum_reduce, ...) through _Generic on the element type, for C programs. A ctx form has one
// argument more than its plain form, so the argument count picks it. Only distinct C types can be
// listed in a _Generic: the fixed-width types (int32_t, size_t, ...) are typedefs of these and
// select the routine of their underlying type. C++ has the same names as templates (rma_generic.h,
// coll_generic.h).
#pragma once

// P and S wrap the type's name: GIO_CG_RMA(shmem_, _put) -> int: shmem_int_put, ...
#define GIO_CG_RMA(P, S)                                                                                      \
  float: P##float##S, double: P##double##S, char: P##char##S, signed char: P##schar##S, short: P##short##S,  \
  int: P##int##S, long: P##long##S, long long: P##longlong##S, unsigned char: P##uchar##S,                   \
  unsigned short: P##ushort##S, unsigned int: P##uint##S, unsigned long: P##ulong##S,                        \
  unsigned long long: P##ulonglong##S, long double: P##longdouble##S
#define GIO_CG_AMO_STD(P, S)                                                                                  \
  int: P##int##S, long: P##long##S, long long: P##longlong##S, unsigned int: P##uint##S,                     \
  unsigned long: P##ulong##S, unsigned long long: P##ulonglong##S
#define GIO_CG_AMO_EXT(P, S) GIO_CG_AMO_STD(P, S), float: P##float##S, double: P##double##S
// Bitwise: unsigned int, unsigned long, unsigned long long, int32_t, int64_t (uint32_t and uint64_t
// are unsigned int and unsigned long here).
#define GIO_CG_AMO_BIT(P, S)                                                                                  \
  unsigned int: P##uint##S, unsigned long: P##ulong##S, unsigned long long: P##ulonglong##S,                 \
  int32_t: P##int32##S, int64_t: P##int64##S
#define GIO_CG_WAIT(P, S)                                                                                     \
  short: P##short##S, int: P##int##S, long: P##long##S, long long: P##longlong##S,                           \
  unsigned short: P##ushort##S, unsigned int: P##uint##S, unsigned long: P##ulong##S,                        \
  unsigned long long: P##ulonglong##S
#define GIO_CG_REDUCE_BIT(P, S)                                                                               \
  unsigned char: P##uchar##S, unsigned short: P##ushort##S, unsigned int: P##uint##S,                        \
  unsigned long: P##ulong##S, unsigned long long: P##ulonglong##S, signed char: P##int8##S,                  \
  short: P##int16##S, int: P##int32##S, long: P##int64##S
#define GIO_CG_REDUCE_MINMAX(P, S)                                                                            \
  char: P##char##S, signed char: P##schar##S, short: P##short##S, int: P##int##S, long: P##long##S,          \
  long long: P##longlong##S, unsigned char: P##uchar##S, unsigned short: P##ushort##S,                       \
  unsigned int: P##uint##S, unsigned long: P##ulong##S, unsigned long long: P##ulonglong##S,                 \
  float: P##float##S, double: P##double##S, long double: P##longdouble##S
#define GIO_CG_REDUCE_ARITH(P, S)                                                                             \
  GIO_CG_REDUCE_MINMAX(P, S), double _Complex: P##complexd##S, float _Complex: P##complexf##S

// Picks by the pointed-to type of X (qualifiers dropped: _Generic's operand undergoes lvalue conversion).
#define GIO_CG(TABLE, S, X) _Generic(*(X), TABLE(shmem_, S))
#define GIO_CG_CTX(TABLE, S, X) _Generic(*(X), TABLE(shmem_ctx_, S))
// NAME(...) -> GIO_CG_<NAME>_<argument count>(...)
#define GIO_CG_BY_COUNT(NAME, ...) GIO_C_CAT(GIO_C_CAT(NAME, _), GIO_C_NARGS(__VA_ARGS__))(__VA_ARGS__)

// RMA: shmem_put(dest, source, nelems, pe), shmem_put(ctx, dest, source, nelems, pe), ...
#define GIO_CG_put_4(d, s, n, pe) GIO_CG(GIO_CG_RMA, _put, d)(d, s, n, pe)
#define GIO_CG_put_5(c, d, s, n, pe) GIO_CG_CTX(GIO_CG_RMA, _put, d)(c, d, s, n, pe)
#define GIO_CG_put_nbi_4(d, s, n, pe) GIO_CG(GIO_CG_RMA, _put_nbi, d)(d, s, n, pe)
#define GIO_CG_put_nbi_5(c, d, s, n, pe) GIO_CG_CTX(GIO_CG_RMA, _put_nbi, d)(c, d, s, n, pe)
#define GIO_CG_get_4(d, s, n, pe) GIO_CG(GIO_CG_RMA, _get, d)(d, s, n, pe)
#define GIO_CG_get_5(c, d, s, n, pe) GIO_CG_CTX(GIO_CG_RMA, _get, d)(c, d, s, n, pe)
#define GIO_CG_get_nbi_4(d, s, n, pe) GIO_CG(GIO_CG_RMA, _get_nbi, d)(d, s, n, pe)
#define GIO_CG_get_nbi_5(c, d, s, n, pe) GIO_CG_CTX(GIO_CG_RMA, _get_nbi, d)(c, d, s, n, pe)
#define GIO_CG_p_3(d, v, pe) GIO_CG(GIO_CG_RMA, _p, d)(d, v, pe)
#define GIO_CG_p_4(c, d, v, pe) GIO_CG_CTX(GIO_CG_RMA, _p, d)(c, d, v, pe)
#define GIO_CG_g_2(s, pe) GIO_CG(GIO_CG_RMA, _g, s)(s, pe)
#define GIO_CG_g_3(c, s, pe) GIO_CG_CTX(GIO_CG_RMA, _g, s)(c, s, pe)
#define GIO_CG_put_signal_7(d, s, n, sa, sv, so, pe) GIO_CG(GIO_CG_RMA, _put_signal, d)(d, s, n, sa, sv, so, pe)
#define GIO_CG_put_signal_8(c, d, s, n, sa, sv, so, pe) \
  GIO_CG_CTX(GIO_CG_RMA, _put_signal, d)(c, d, s, n, sa, sv, so, pe)
#define GIO_CG_put_signal_nbi_7(d, s, n, sa, sv, so, pe) \
  GIO_CG(GIO_CG_RMA, _put_signal_nbi, d)(d, s, n, sa, sv, so, pe)
#define GIO_CG_put_signal_nbi_8(c, d, s, n, sa, sv, so, pe) \
  GIO_CG_CTX(GIO_CG_RMA, _put_signal_nbi, d)(c, d, s, n, sa, sv, so, pe)
#define shmem_put(...) GIO_CG_BY_COUNT(GIO_CG_put, __VA_ARGS__)
#define shmem_put_nbi(...) GIO_CG_BY_COUNT(GIO_CG_put_nbi, __VA_ARGS__)
#define shmem_get(...) GIO_CG_BY_COUNT(GIO_CG_get, __VA_ARGS__)
#define shmem_get_nbi(...) GIO_CG_BY_COUNT(GIO_CG_get_nbi, __VA_ARGS__)
#define shmem_p(...) GIO_CG_BY_COUNT(GIO_CG_p, __VA_ARGS__)
#define shmem_g(...) GIO_CG_BY_COUNT(GIO_CG_g, __VA_ARGS__)
#define shmem_put_signal(...) GIO_CG_BY_COUNT(GIO_CG_put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) GIO_CG_BY_COUNT(GIO_CG_put_signal_nbi, __VA_ARGS__)

// Atomics: (dest, ..., pe), or (ctx, dest, ..., pe).
#define shmem_atomic_fetch(...) GIO_CG_BY_COUNT(GIO_CG_fetch, __VA_ARGS__)
#define GIO_CG_fetch_2(s, pe) GIO_CG(GIO_CG_AMO_EXT, _atomic_fetch, s)(s, pe)
#define GIO_CG_fetch_3(c, s, pe) GIO_CG_CTX(GIO_CG_AMO_EXT, _atomic_fetch, s)(c, s, pe)
#define shmem_atomic_set(...) GIO_CG_BY_COUNT(GIO_CG_set, __VA_ARGS__)
#define GIO_CG_set_3(d, v, pe) GIO_CG(GIO_CG_AMO_EXT, _atomic_set, d)(d, v, pe)
#define GIO_CG_set_4(c, d, v, pe) GIO_CG_CTX(GIO_CG_AMO_EXT, _atomic_set, d)(c, d, v, pe)
#define shmem_atomic_swap(...) GIO_CG_BY_COUNT(GIO_CG_swap, __VA_ARGS__)
#define GIO_CG_swap_3(d, v, pe) GIO_CG(GIO_CG_AMO_EXT, _atomic_swap, d)(d, v, pe)
#define GIO_CG_swap_4(c, d, v, pe) GIO_CG_CTX(GIO_CG_AMO_EXT, _atomic_swap, d)(c, d, v, pe)
#define shmem_atomic_compare_swap(...) GIO_CG_BY_COUNT(GIO_CG_cswap, __VA_ARGS__)
#define GIO_CG_cswap_4(d, c0, v, pe) GIO_CG(GIO_CG_AMO_STD, _atomic_compare_swap, d)(d, c0, v, pe)
#define GIO_CG_cswap_5(c, d, c0, v, pe) GIO_CG_CTX(GIO_CG_AMO_STD, _atomic_compare_swap, d)(c, d, c0, v, pe)
#define shmem_atomic_fetch_inc(...) GIO_CG_BY_COUNT(GIO_CG_finc, __VA_ARGS__)
#define GIO_CG_finc_2(d, pe) GIO_CG(GIO_CG_AMO_STD, _atomic_fetch_inc, d)(d, pe)
#define GIO_CG_finc_3(c, d, pe) GIO_CG_CTX(GIO_CG_AMO_STD, _atomic_fetch_inc, d)(c, d, pe)
#define shmem_atomic_inc(...) GIO_CG_BY_COUNT(GIO_CG_inc, __VA_ARGS__)
#define GIO_CG_inc_2(d, pe) GIO_CG(GIO_CG_AMO_STD, _atomic_inc, d)(d, pe)
#define GIO_CG_inc_3(c, d, pe) GIO_CG_CTX(GIO_CG_AMO_STD, _atomic_inc, d)(c, d, pe)
// The value-taking ones share a shape: (dest, value, pe) or (ctx, dest, value, pe).
#define GIO_CG_V3(TABLE, S, d, v, pe) GIO_CG(TABLE, S, d)(d, v, pe)
#define GIO_CG_V4(TABLE, S, c, d, v, pe) GIO_CG_CTX(TABLE, S, d)(c, d, v, pe)
#define GIO_CG_fadd_3(d, v, pe) GIO_CG_V3(GIO_CG_AMO_STD, _atomic_fetch_add, d, v, pe)
#define GIO_CG_fadd_4(c, d, v, pe) GIO_CG_V4(GIO_CG_AMO_STD, _atomic_fetch_add, c, d, v, pe)
#define GIO_CG_add_3(d, v, pe) GIO_CG_V3(GIO_CG_AMO_STD, _atomic_add, d, v, pe)
#define GIO_CG_add_4(c, d, v, pe) GIO_CG_V4(GIO_CG_AMO_STD, _atomic_add, c, d, v, pe)
#define GIO_CG_fand_3(d, v, pe) GIO_CG_V3(GIO_CG_AMO_BIT, _atomic_fetch_and, d, v, pe)
#define GIO_CG_fand_4(c, d, v, pe) GIO_CG_V4(GIO_CG_AMO_BIT, _atomic_fetch_and, c, d, v, pe)
#define GIO_CG_and_3(d, v, pe) GIO_CG_V3(GIO_CG_AMO_BIT, _atomic_and, d, v, pe)
#define GIO_CG_and_4(c, d, v, pe) GIO_CG_V4(GIO_CG_AMO_BIT, _atomic_and, c, d, v, pe)
#define GIO_CG_for_3(d, v, pe) GIO_CG_V3(GIO_CG_AMO_BIT, _atomic_fetch_or, d, v, pe)
#define GIO_CG_for_4(c, d, v, pe) GIO_CG_V4(GIO_CG_AMO_BIT, _atomic_fetch_or, c, d, v, pe)
#define GIO_CG_or_3(d, v, pe) GIO_CG_V3(GIO_CG_AMO_BIT, _atomic_or, d, v, pe)
#define GIO_CG_or_4(c, d, v, pe) GIO_CG_V4(GIO_CG_AMO_BIT, _atomic_or, c, d, v, pe)
#define GIO_CG_fxor_3(d, v, pe) GIO_CG_V3(GIO_CG_AMO_BIT, _atomic_fetch_xor, d, v, pe)
#define GIO_CG_fxor_4(c, d, v, pe) GIO_CG_V4(GIO_CG_AMO_BIT, _atomic_fetch_xor, c, d, v, pe)
#define GIO_CG_xor_3(d, v, pe) GIO_CG_V3(GIO_CG_AMO_BIT, _atomic_xor, d, v, pe)
#define GIO_CG_xor_4(c, d, v, pe) GIO_CG_V4(GIO_CG_AMO_BIT, _atomic_xor, c, d, v, pe)
#define shmem_atomic_fetch_add(...) GIO_CG_BY_COUNT(GIO_CG_fadd, __VA_ARGS__)
#define shmem_atomic_add(...) GIO_CG_BY_COUNT(GIO_CG_add, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) GIO_CG_BY_COUNT(GIO_CG_fand, __VA_ARGS__)
#define shmem_atomic_and(...) GIO_CG_BY_COUNT(GIO_CG_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) GIO_CG_BY_COUNT(GIO_CG_for, __VA_ARGS__)
#define shmem_atomic_or(...) GIO_CG_BY_COUNT(GIO_CG_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) GIO_CG_BY_COUNT(GIO_CG_fxor, __VA_ARGS__)
#define shmem_atomic_xor(...) GIO_CG_BY_COUNT(GIO_CG_xor, __VA_ARGS__)
// The 1.3 generic names, deprecated since 1.4 and still required by the spec (no ctx forms).
#define shmem_fetch(source, pe) shmem_atomic_fetch(source, pe)
#define shmem_set(dest, value, pe) shmem_atomic_set(dest, value, pe)
#define shmem_swap(dest, value, pe) shmem_atomic_swap(dest, value, pe)
#define shmem_cswap(dest, cond, value, pe) shmem_atomic_compare_swap(dest, cond, value, pe)
#define shmem_finc(dest, pe) shmem_atomic_fetch_inc(dest, pe)
#define shmem_inc(dest, pe) shmem_atomic_inc(dest, pe)
#define shmem_fadd(dest, value, pe) shmem_atomic_fetch_add(dest, value, pe)
#define shmem_add(dest, value, pe) shmem_atomic_add(dest, value, pe)

// Strided: shmem_iput(dest, source, dst, sst, nelems, pe), shmem_ibput(dest, source, dst, sst, bsize,
// nblocks, pe), and the ctx forms (one argument more).
#define GIO_CG_iput_6(d, ...) GIO_CG(GIO_CG_RMA, _iput, d)(d, __VA_ARGS__)
#define GIO_CG_iput_7(c, d, ...) GIO_CG_CTX(GIO_CG_RMA, _iput, d)(c, d, __VA_ARGS__)
#define GIO_CG_iget_6(d, ...) GIO_CG(GIO_CG_RMA, _iget, d)(d, __VA_ARGS__)
#define GIO_CG_iget_7(c, d, ...) GIO_CG_CTX(GIO_CG_RMA, _iget, d)(c, d, __VA_ARGS__)
#define GIO_CG_ibput_7(d, ...) GIO_CG(GIO_CG_RMA, _ibput, d)(d, __VA_ARGS__)
#define GIO_CG_ibput_8(c, d, ...) GIO_CG_CTX(GIO_CG_RMA, _ibput, d)(c, d, __VA_ARGS__)
#define GIO_CG_ibget_7(d, ...) GIO_CG(GIO_CG_RMA, _ibget, d)(d, __VA_ARGS__)
#define GIO_CG_ibget_8(c, d, ...) GIO_CG_CTX(GIO_CG_RMA, _ibget, d)(c, d, __VA_ARGS__)
#define shmem_iput(...) GIO_CG_BY_COUNT(GIO_CG_iput, __VA_ARGS__)
#define shmem_iget(...) GIO_CG_BY_COUNT(GIO_CG_iget, __VA_ARGS__)
#define shmem_ibput(...) GIO_CG_BY_COUNT(GIO_CG_ibput, __VA_ARGS__)
#define shmem_ibget(...) GIO_CG_BY_COUNT(GIO_CG_ibget, __VA_ARGS__)

// Non-blocking fetching atomics: (fetch, dest, ..., pe), or (ctx, fetch, dest, ..., pe); picked by dest.
#define GIO_CG_N(TABLE, S, f, d, ...) GIO_CG(TABLE, S, d)(f, d, __VA_ARGS__)
#define GIO_CG_NC(TABLE, S, c, f, d, ...) GIO_CG_CTX(TABLE, S, d)(c, f, d, __VA_ARGS__)
#define GIO_CG_fetchn_3(f, s, pe) GIO_CG_N(GIO_CG_AMO_EXT, _atomic_fetch_nbi, f, s, pe)
#define GIO_CG_fetchn_4(c, f, s, pe) GIO_CG_NC(GIO_CG_AMO_EXT, _atomic_fetch_nbi, c, f, s, pe)
#define GIO_CG_swapn_4(f, d, v, pe) GIO_CG_N(GIO_CG_AMO_EXT, _atomic_swap_nbi, f, d, v, pe)
#define GIO_CG_swapn_5(c, f, d, v, pe) GIO_CG_NC(GIO_CG_AMO_EXT, _atomic_swap_nbi, c, f, d, v, pe)
#define GIO_CG_cswapn_5(f, d, c0, v, pe) GIO_CG_N(GIO_CG_AMO_STD, _atomic_compare_swap_nbi, f, d, c0, v, pe)
#define GIO_CG_cswapn_6(c, f, d, c0, v, pe) GIO_CG_NC(GIO_CG_AMO_STD, _atomic_compare_swap_nbi, c, f, d, c0, v, pe)
#define GIO_CG_fincn_3(f, d, pe) GIO_CG_N(GIO_CG_AMO_STD, _atomic_fetch_inc_nbi, f, d, pe)
#define GIO_CG_fincn_4(c, f, d, pe) GIO_CG_NC(GIO_CG_AMO_STD, _atomic_fetch_inc_nbi, c, f, d, pe)
#define GIO_CG_faddn_4(f, d, v, pe) GIO_CG_N(GIO_CG_AMO_STD, _atomic_fetch_add_nbi, f, d, v, pe)
#define GIO_CG_faddn_5(c, f, d, v, pe) GIO_CG_NC(GIO_CG_AMO_STD, _atomic_fetch_add_nbi, c, f, d, v, pe)
#define GIO_CG_fandn_4(f, d, v, pe) GIO_CG_N(GIO_CG_AMO_BIT, _atomic_fetch_and_nbi, f, d, v, pe)
#define GIO_CG_fandn_5(c, f, d, v, pe) GIO_CG_NC(GIO_CG_AMO_BIT, _atomic_fetch_and_nbi, c, f, d, v, pe)
#define GIO_CG_forn_4(f, d, v, pe) GIO_CG_N(GIO_CG_AMO_BIT, _atomic_fetch_or_nbi, f, d, v, pe)
#define GIO_CG_forn_5(c, f, d, v, pe) GIO_CG_NC(GIO_CG_AMO_BIT, _atomic_fetch_or_nbi, c, f, d, v, pe)
#define GIO_CG_fxorn_4(f, d, v, pe) GIO_CG_N(GIO_CG_AMO_BIT, _atomic_fetch_xor_nbi, f, d, v, pe)
#define GIO_CG_fxorn_5(c, f, d, v, pe) GIO_CG_NC(GIO_CG_AMO_BIT, _atomic_fetch_xor_nbi, c, f, d, v, pe)
#define shmem_atomic_fetch_nbi(...) GIO_CG_BY_COUNT(GIO_CG_fetchn, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) GIO_CG_BY_COUNT(GIO_CG_swapn, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) GIO_CG_BY_COUNT(GIO_CG_cswapn, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) GIO_CG_BY_COUNT(GIO_CG_fincn, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) GIO_CG_BY_COUNT(GIO_CG_faddn, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) GIO_CG_BY_COUNT(GIO_CG_fandn, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) GIO_CG_BY_COUNT(GIO_CG_forn, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) GIO_CG_BY_COUNT(GIO_CG_fxorn, __VA_ARGS__)

// Point-to-point synchronization (no ctx forms).
#define shmem_wait_until(ivar, cmp, v) GIO_CG(GIO_CG_WAIT, _wait_until, ivar)(ivar, cmp, v)
#define shmem_test(ivar, cmp, v) GIO_CG(GIO_CG_WAIT, _test, ivar)(ivar, cmp, v)
#define GIO_CG_WAITN(S, ivars, ...) GIO_CG(GIO_CG_WAIT, S, ivars)(ivars, __VA_ARGS__)
#define shmem_wait_until_all(ivars, ...) GIO_CG_WAITN(_wait_until_all, ivars, __VA_ARGS__)
#define shmem_wait_until_any(ivars, ...) GIO_CG_WAITN(_wait_until_any, ivars, __VA_ARGS__)
#define shmem_wait_until_some(ivars, ...) GIO_CG_WAITN(_wait_until_some, ivars, __VA_ARGS__)
#define shmem_test_all(ivars, ...) GIO_CG_WAITN(_test_all, ivars, __VA_ARGS__)
#define shmem_test_any(ivars, ...) GIO_CG_WAITN(_test_any, ivars, __VA_ARGS__)
#define shmem_test_some(ivars, ...) GIO_CG_WAITN(_test_some, ivars, __VA_ARGS__)
#define shmem_wait_until_all_vector(ivars, ...) GIO_CG_WAITN(_wait_until_all_vector, ivars, __VA_ARGS__)
#define shmem_wait_until_any_vector(ivars, ...) GIO_CG_WAITN(_wait_until_any_vector, ivars, __VA_ARGS__)
#define shmem_wait_until_some_vector(ivars, ...) GIO_CG_WAITN(_wait_until_some_vector, ivars, __VA_ARGS__)
#define shmem_test_all_vector(ivars, ...) GIO_CG_WAITN(_test_all_vector, ivars, __VA_ARGS__)
#define shmem_test_any_vector(ivars, ...) GIO_CG_WAITN(_test_any_vector, ivars, __VA_ARGS__)
#define shmem_test_some_vector(ivars, ...) GIO_CG_WAITN(_test_some_vector, ivars, __VA_ARGS__)

// Team collectives: by the type of dest.
#define GIO_CG_TEAM(TABLE, S, team, dest, ...) GIO_CG(TABLE, S, dest)(team, dest, __VA_ARGS__)
#define shmem_broadcast(team, dest, ...) GIO_CG_TEAM(GIO_CG_RMA, _broadcast, team, dest, __VA_ARGS__)
#define shmem_collect(team, dest, ...) GIO_CG_TEAM(GIO_CG_RMA, _collect, team, dest, __VA_ARGS__)
#define shmem_fcollect(team, dest, ...) GIO_CG_TEAM(GIO_CG_RMA, _fcollect, team, dest, __VA_ARGS__)
#define shmem_alltoall(team, dest, ...) GIO_CG_TEAM(GIO_CG_RMA, _alltoall, team, dest, __VA_ARGS__)
#define shmem_alltoalls(team, dest, ...) GIO_CG_TEAM(GIO_CG_RMA, _alltoalls, team, dest, __VA_ARGS__)
#define shmem_and_reduce(team, dest, ...) GIO_CG_TEAM(GIO_CG_REDUCE_BIT, _and_reduce, team, dest, __VA_ARGS__)
#define shmem_or_reduce(team, dest, ...) GIO_CG_TEAM(GIO_CG_REDUCE_BIT, _or_reduce, team, dest, __VA_ARGS__)
#define shmem_xor_reduce(team, dest, ...) GIO_CG_TEAM(GIO_CG_REDUCE_BIT, _xor_reduce, team, dest, __VA_ARGS__)
#define shmem_max_reduce(team, dest, ...) GIO_CG_TEAM(GIO_CG_REDUCE_MINMAX, _max_reduce, team, dest, __VA_ARGS__)
#define shmem_min_reduce(team, dest, ...) GIO_CG_TEAM(GIO_CG_REDUCE_MINMAX, _min_reduce, team, dest, __VA_ARGS__)
#define shmem_sum_reduce(team, dest, ...) GIO_CG_TEAM(GIO_CG_REDUCE_ARITH, _sum_reduce, team, dest, __VA_ARGS__)
#define shmem_prod_reduce(team, dest, ...) GIO_CG_TEAM(GIO_CG_REDUCE_ARITH, _prod_reduce, team, dest, __VA_ARGS__)
#define shmem_sum_inscan(team, dest, ...) GIO_CG_TEAM(GIO_CG_REDUCE_ARITH, _sum_inscan, team, dest, __VA_ARGS__)
#define shmem_sum_exscan(team, dest, ...) GIO_CG_TEAM(GIO_CG_REDUCE_ARITH, _sum_exscan, team, dest, __VA_ARGS__)
