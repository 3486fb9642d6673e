/* The C API from a C11 program: libgio's C symbols and the _Generic names, a few routines of every
 * family, checked at 2 and 4 PEs over every transport. Its own harness (GoogleTest is C++): the
 * first failed check prints where and what, and the PE exits 1. Symmetric memory is read through
 * the API (a get from this PE), never by a load, so the program is right on GPU heaps too. */
#include <complex.h>
#include <float.h>
#include <mpp/shmem.h> /* the deprecated header directory, still required */
#include <shmem.h>
#include <shmemg.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int me, npes;
#define CHECK(cond)                                                                                   \
  do {                                                                                                \
    if (!(cond)) {                                                                                    \
      fprintf(stderr, "PE %d: %s:%d: check failed: %s\n", me, __FILE__, __LINE__, #cond);            \
      exit(1);                                                                                        \
    }                                                                                                 \
  } while (0)

static void rma(void) {
  const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
  long* l = shmem_malloc(4 * sizeof(long));
  double* d = shmem_malloc(4 * sizeof(double));
  short* s = shmem_malloc(4 * sizeof(short));
  int* i2 = shmem_calloc(2, sizeof(int));
  unsigned char* bytes = shmem_malloc(16);
  long ls[4], lg[4];
  double ds[4], dg[4];
  short ss[4], sg[4];
  unsigned char bs[16], bg[16];
  for (int k = 0; k < 4; ++k) {
    ls[k] = me * 100 + k;
    ds[k] = me + 0.25 * k;
    ss[k] = (short)(me * 10 + k);
  }
  for (int k = 0; k < 16; ++k) bs[k] = (unsigned char)(me + k);
  shmem_long_put(l, ls, 4, next);                        /* typed */
  shmem_put(d, ds, 4, next);                             /* generic */
  shmem_ctx_short_put_nbi(SHMEM_CTX_DEFAULT, s, ss, 4, next); /* ctx, nbi */
  shmem_putmem(bytes, bs, 8, next);
  shmem_put64(bytes + 8, bs + 8, 1, next);               /* sized */
  shmem_int_p(&i2[0], me + 7, next);
  shmem_p(&i2[1], me + 8, next);
  shmem_quiet();
  shmem_barrier_all();
  shmem_get(lg, l, 4, me);
  shmem_double_get(dg, d, 4, me);
  shmem_get_nbi(sg, s, 4, me);
  shmem_getmem(bg, bytes, 16, me);
  shmem_quiet();
  for (int k = 0; k < 4; ++k) {
    CHECK(lg[k] == prev * 100 + k);
    CHECK(dg[k] == prev + 0.25 * k);
    CHECK(sg[k] == prev * 10 + k);
  }
  for (int k = 0; k < 16; ++k) CHECK(bg[k] == (unsigned char)(prev + k));
  CHECK(shmem_int_g(&i2[0], me) == prev + 7);
  CHECK(shmem_g(&i2[1], me) == prev + 8);
  shmem_ctx_long_get(SHMEM_CTX_DEFAULT, lg, l, 4, next); /* next holds my values */
  CHECK(lg[3] == me * 100 + 3);
  CHECK(shmem_ptr(l, me) == (void*)l);
  CHECK(shmem_addr_accessible(l, next));
  shmem_barrier_all();
  shmem_free(bytes);
  shmem_free(i2);
  shmem_free(s);
  shmem_free(d);
  shmem_free(l);
}

static void amo(void) {
  long* ctr = shmem_calloc(1, sizeof(long));
  unsigned int* bits = shmem_calloc(1, sizeof(unsigned int));
  double* dv = shmem_calloc(1, sizeof(double));
  int* old13 = shmem_calloc(1, sizeof(int));
  long* cs = shmem_calloc(1, sizeof(long));
  shmem_long_atomic_add(ctr, me + 1, 0);
  shmem_atomic_fetch_add(ctr, 1L, 0);                    /* generic */
  shmem_atomic_or(bits, 1u << me, 0);                    /* generic bitwise */
  shmem_int_fadd(old13, 2, 0);                           /* 1.3 names */
  shmem_int_inc(old13, 0);
  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(0, &ctx) == 0);
  shmem_atomic_inc(ctx, ctr, 0);                         /* generic ctx form */
  shmem_ctx_quiet(ctx);
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
  const long sum = (long)npes * (npes + 1) / 2 + 2L * npes;
  CHECK(shmem_long_atomic_fetch(ctr, 0) == sum);
  CHECK(shmem_atomic_fetch(bits, 0) == (1u << npes) - 1);
  CHECK(shmem_int_fetch(old13, 0) == 3 * npes);
  CHECK(shmem_long_fetch(ctr, 0) == sum);
  shmem_barrier_all();
  /* Every PE tries to swap 0 -> me + 1 on PE 0: exactly one wins, and the word holds its value. */
  const long was = shmem_atomic_compare_swap(cs, 0L, (long)me + 1, 0);
  const long was13 = shmem_long_cswap(cs, 1000L, 1L, 0); /* never matches */
  CHECK(was13 != 1000);
  shmem_barrier_all();
  const long winner = shmem_atomic_fetch(cs, 0);
  CHECK(winner >= 1 && winner <= npes);
  CHECK((was == 0) == (winner == me + 1));
  shmem_barrier_all();
  if (me == 0) {
    shmem_atomic_set(dv, 2.5, npes - 1);
    CHECK(shmem_double_swap(dv, 3.5, npes - 1) == 2.5);  /* 1.3 swap */
    CHECK(shmem_ctx_double_atomic_fetch(SHMEM_CTX_DEFAULT, dv, npes - 1) == 3.5);
    CHECK(shmem_uint_atomic_fetch_xor(bits, 1u, 0) == (1u << npes) - 1);
    CHECK(shmem_atomic_fetch_and(bits, 1u, 0) == (((1u << npes) - 1) ^ 1u));
  }
  shmem_barrier_all();
  shmem_free(cs);
  shmem_free(old13);
  shmem_free(dv);
  shmem_free(bits);
  shmem_free(ctr);
}

static void signals_and_waits(void) {
  const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
  uint64_t* sig = shmem_calloc(1, sizeof(uint64_t));
  int* data = shmem_calloc(4, sizeof(int));
  long* flags = shmem_calloc((size_t)npes, sizeof(long));
  int src[4] = {me, me + 1, me + 2, me + 3}, got[4];
  shmem_put_signal(data, src, 4, sig, 5, SHMEM_SIGNAL_SET, next); /* generic */
  CHECK(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 5) == 5);      /* a host wait on a peer's put */
  shmem_int_get(got, data, 4, me);
  for (int k = 0; k < 4; ++k) CHECK(got[k] == prev + k);
  shmem_barrier_all();
  shmem_ctx_putmem_signal_nbi(SHMEM_CTX_DEFAULT, data, src, sizeof src, sig, 2, SHMEM_SIGNAL_ADD, next);
  shmem_quiet();
  shmem_uint64_wait_until(sig, SHMEM_CMP_GE, 7);
  CHECK(shmem_signal_fetch(sig) == 7);
  /* Every PE sets its flag on every PE to me + 1; each waits for the others' (own flag excluded). */
  int* status = calloc((size_t)npes, sizeof(int));
  long* want = calloc((size_t)npes, sizeof(long));
  status[me] = 1;
  for (int p = 0; p < npes; ++p) want[p] = p + 1;
  for (int p = 0; p < npes; ++p)
    if (p != me) shmem_long_atomic_set(&flags[me], me + 1, p);
  shmem_wait_until_all(flags, (size_t)npes, status, SHMEM_CMP_GT, 0L);         /* generic */
  shmem_long_wait_until_all_vector(flags, (size_t)npes, status, SHMEM_CMP_EQ, want);
  CHECK(shmem_test(&flags[prev], SHMEM_CMP_EQ, (long)prev + 1) == 1);
  CHECK(shmem_long_test_all_vector(flags, (size_t)npes, status, SHMEM_CMP_EQ, want) == 1);
  size_t idx[8];
  CHECK(shmem_long_wait_until_some(flags, (size_t)npes, idx, status, SHMEM_CMP_NE, 0) == (size_t)npes - 1);
  /* _any serves every ready index in turn, though all stay ready. */
  int seen[8] = {0};
  for (int k = 0; k < npes - 1; ++k) {
    size_t i = shmem_long_wait_until_any(flags, (size_t)npes, status, SHMEM_CMP_NE, 0);
    CHECK(i < (size_t)npes && i != (size_t)me && !seen[i]);
    seen[i] = 1;
  }
  CHECK(shmem_long_test_any(flags, (size_t)npes, status, SHMEM_CMP_EQ, 12345) == SIZE_MAX);
  status[me] = 0;
  CHECK(shmem_long_test_some_vector(flags, (size_t)npes, idx, status, SHMEM_CMP_EQ, want) == (size_t)npes - 1);
  free(want);
  free(status);
  shmem_barrier_all();
  shmem_free(flags);
  shmem_free(data);
  shmem_free(sig);
}

static void teams_and_collectives(void) {
  long* lsrc = shmem_malloc(2 * sizeof(long));
  long* ldst = shmem_malloc(2 * sizeof(long));
  double complex* zsrc = shmem_malloc(sizeof(double complex));
  double complex* zdst = shmem_malloc(sizeof(double complex));
  int* bsrc = shmem_malloc(4 * sizeof(int));
  int* bdst = shmem_malloc(4 * sizeof(int));
  double* dsrc = shmem_malloc(sizeof(double));
  double* ddst = shmem_malloc(sizeof(double));
  long* psync = shmem_malloc(SHMEM_SYNC_SIZE * sizeof(long));
  long init[2] = {me, 1};
  int b[4] = {me * 4, me * 4 + 1, me * 4 + 2, me * 4 + 3};
  double complex z = me + 1.0 * I;
  double dv = me + 0.5;
  shmem_long_put(lsrc, init, 2, me);
  shmem_putmem(zsrc, &z, sizeof z, me);
  shmem_int_put(bsrc, b, 4, me);
  shmem_double_put(dsrc, &dv, 1, me);
  for (int k = 0; k < SHMEM_SYNC_SIZE; ++k) shmem_long_p(&psync[k], SHMEM_SYNC_VALUE, me);
  shmem_barrier_all();

  /* Even-numbered PEs: a team of ceil(n / 2). */
  shmem_team_t evens = SHMEM_TEAM_INVALID;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens) == 0);
  CHECK((evens != SHMEM_TEAM_INVALID) == (me % 2 == 0));
  if (evens != SHMEM_TEAM_INVALID) {
    const int tn = shmem_team_n_pes(evens);
    CHECK(shmem_team_my_pe(evens) == me / 2);
    CHECK(shmem_team_translate_pe(evens, tn - 1, SHMEM_TEAM_WORLD) == 2 * (tn - 1));
    CHECK(shmem_long_sum_reduce(evens, ldst, lsrc, 2) == 0);
    long got[2];
    shmem_long_get(got, ldst, 2, me);
    CHECK(got[0] == 2L * tn * (tn - 1) / 2 && got[1] == tn);
    CHECK(shmem_broadcast(evens, bdst, bsrc, 4, tn - 1) == 0);        /* generic: root team PE tn-1 */
    int bb[4];
    shmem_int_get(bb, bdst, 4, me);
    for (int k = 0; k < 4; ++k) CHECK(bb[k] == 2 * (tn - 1) * 4 + k);
    CHECK(shmem_sync(evens) == 0);
    shmem_team_destroy(evens);
  }
  CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, 1) == 0);       /* generic */
  CHECK(shmem_double_g(ddst, me) == npes * (npes - 1) / 2.0 + 0.5 * npes);
  CHECK(shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, zdst, zsrc, 1) == 0);
  double complex zr;
  shmem_getmem(&zr, zdst, sizeof zr, me);
  CHECK(creal(zr) == npes * (npes - 1) / 2.0 && cimag(zr) == npes);
  /* The stream form from C, on the default stream (0); shmem_barrier_all completes this PE's
     device work, so the result is in place after it. It runs in kernels: its buffers come from
     the GPU heap. */
  double complex* gzsrc = shmemg_malloc(sizeof(double complex));
  double complex* gzdst = shmemg_calloc(1, sizeof(double complex));
  shmem_putmem(gzsrc, &z, sizeof z, me);
  shmem_barrier_all();
  CHECK(shmemx_complexd_sum_reduce_on_stream(SHMEM_TEAM_WORLD, gzdst, gzsrc, 1, (gio_stream_t)0) == 0);
  shmem_barrier_all();
  shmem_getmem(&zr, gzdst, sizeof zr, me);
  CHECK(creal(zr) == npes * (npes - 1) / 2.0 && cimag(zr) == npes);
  shmemg_free(gzdst);
  shmemg_free(gzsrc);
  CHECK(shmem_max_reduce(SHMEM_TEAM_WORLD, ldst, lsrc, 1) == 0);
  CHECK(shmem_long_g(ldst, me) == npes - 1);
  shmem_sync(0, 0, npes, psync);                                      /* 1.4 active set */
  CHECK(shmem_team_sync(SHMEM_TEAM_WORLD) == 0);
  shmem_barrier_all();
  shmem_free(psync);
  shmem_free(ddst);
  shmem_free(dsrc);
  shmem_free(bdst);
  shmem_free(bsrc);
  shmem_free(zdst);
  shmem_free(zsrc);
  shmem_free(ldst);
  shmem_free(lsrc);
}

/* Team handles are pointer-sized, as bindings that hold every handle in a void* (shmem4py) store
 * them: an 8-byte store into one leaves what follows it alone and gives back a team that works.
 * The predefined handles are constants: they initialize static data. */
static const shmem_team_t predefined[3] = {SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED, SHMEM_TEAM_INVALID};
static void team_handles(void) {
  CHECK(sizeof(shmem_team_t) == sizeof(void*));
  CHECK(sizeof(shmem_ctx_t) == sizeof(void*));
  CHECK(shmem_team_n_pes(predefined[0]) == npes && shmem_team_my_pe(predefined[0]) == me);
  CHECK(shmem_team_n_pes(predefined[1]) >= 1);
  CHECK(shmem_team_n_pes(predefined[2]) == -1);
  shmem_team_t odds = SHMEM_TEAM_INVALID;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odds) == 0);
  struct {
    shmem_team_t team;
    unsigned guard; /* what follows the handle in the binding's memory */
  } box = {SHMEM_TEAM_INVALID, 0x5a5a5a5au};
  const uint64_t word = (uint64_t)(uintptr_t)odds; /* the binding's copy of the handle */
  memcpy(&box.team, &word, 8);
  CHECK(box.guard == 0x5a5a5a5au);
  CHECK(box.team == odds);
  CHECK((odds != SHMEM_TEAM_INVALID) == (me % 2 == 1));
  if (me % 2 == 1) {
    CHECK(shmem_team_n_pes(box.team) == npes / 2);
    CHECK(shmem_team_my_pe(box.team) == me / 2);
    CHECK(shmem_team_sync(box.team) == 0);
  }
  shmem_team_destroy(odds);
}

/* Locks, non-blocking atomics, shmem_team_ptr and the names older than 1.4, on the program's
 * globals as old C programs keep them (a static lock and counter: symmetric data objects). */
static long g_lock;
static long g_count;
static int g_olds[8];
static void locks_nbi_legacy(void) {
  shmem_barrier_all();
  for (int k = 0; k < 20; ++k) {
    shmem_set_lock(&g_lock);
    long v = shmem_long_g(&g_count, 0);
    shmem_long_p(&g_count, v + 1, 0);
    shmem_clear_lock(&g_lock);
  }
  shmem_barrier_all();
  CHECK(shmem_long_g(&g_count, 0) == 20L * npes);
  if (me == 0) {
    CHECK(shmem_test_lock(&g_lock) == 0); /* free: taken */
    shmem_clear_lock(&g_lock);
  }
  shmem_barrier_all();

  int* ctr = (int*)shmalloc(sizeof(int)); /* the pre-1.4 names */
  CHECK(ctr != NULL && _my_pe() == me && _num_pes() == npes);
  shmem_int_p(ctr, 0, me);
  shmem_barrier_all();
  int fetched = -1;
  shmem_int_atomic_fetch_add_nbi(&fetched, ctr, me + 1, 0);
  shmem_ctx_int_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &g_olds[0], ctr, 0);
  shmem_quiet();
  CHECK(fetched >= 0 && g_olds[0] >= 0);
  shmem_barrier_all();
  CHECK(shmem_int_atomic_fetch(ctr, 0) == npes * (npes + 1) / 2 + npes);
  int was = -1;
  shmem_atomic_compare_swap_nbi(&was, ctr, -5, 1, 0); /* never equal: no swap */
  shmem_quiet();
  CHECK(was == npes * (npes + 1) / 2 + npes);
  shmem_barrier_all();
  if (me == 1 % npes) shmem_int_p(ctr, 42, 0);
  if (me == 0) shmem_int_wait(ctr, npes * (npes + 1) / 2 + npes); /* wait until it changes */
  if (me == 0) CHECK(shmem_int_g(ctr, 0) == 42 || npes == 1);
  shmem_barrier_all();
  CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, ctr, me) == shmem_ptr(ctr, me));
  shmem_udcflush();
  shmem_clear_cache_inv();
  shfree(ctr);
}

/* Strided RMA from C: iput into every other element of the next PE, ibget of blocks back, and a
   2D subarray put (libgio's C symbols of runtime/api/c/shmem_c_table.h). */
static void strided(void) {
  const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
  long* a = (long*)shmem_calloc(64, sizeof(long));
  long src[16];
  for (int k = 0; k < 16; ++k) src[k] = me * 1000 + k;
  shmem_long_iput(a, src, 2, 1, 8, next);                    /* a[2k] = src[k], k < 8 */
  shmem_ctx_iput64(SHMEM_CTX_DEFAULT, a + 32, src, 1, 2, 4, next); /* a[32 + k] = src[2k], k < 4 */
  const ptrdiff_t ds[2] = {1, 8}, ss[2] = {1, 4};
  const size_t counts[2] = {3, 2};
  shmemx_putmem_subarray(a + 48, ds, src, ss, counts, 2, sizeof(long), next); /* 2 rows of 3 */
  shmem_barrier_all();
  long got[64];
  shmem_long_get(got, a, 64, me);
  for (int k = 0; k < 16; ++k) CHECK(got[k] == (k % 2 ? 0 : prev * 1000 + k / 2));
  for (int k = 0; k < 4; ++k) CHECK(got[32 + k] == prev * 1000 + 2 * k);
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 8; ++k) CHECK(got[48 + r * 8 + k] == (k < 3 ? prev * 1000 + r * 4 + k : 0));
  long twice[8] = {0};
  shmem_iget(twice, a, 2, 2, 4, next); /* generic: twice[2k] = next's a[2k], k < 4 (next's a came from me) */
  for (int k = 0; k < 4; ++k) CHECK(twice[2 * k] == me * 1000 + k && twice[2 * k + 1] == 0);
  shmem_barrier_all();
  long back[8] = {0};
  shmem_long_ibget(back, a, 4, 2, 1, 2, next); /* blocks of 1 element: back[0], back[4] = a[0], a[2] */
  CHECK(back[0] == me * 1000 && back[4] == me * 1000 + 1 && back[1] == 0); /* next's a came from me */
  shmem_barrier_all();
  shmem_free(a);
}

/* long double through the C symbols and the _Generic names: values 1 + k ulps of long double's 1.0,
   which a double cannot hold (they round to 1.0), so a path through double or one moving fewer bytes
   than the value shows. Compared as values: x86's 80-bit long double leaves 6 bytes of padding. */
static long double ldv(int pe, int k) { return 1.0L + (long double)(pe * 100 + k + 1) * LDBL_EPSILON; }
static void long_double(void) {
  const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
  CHECK((long double)(double)ldv(0, 0) != ldv(0, 0));
  long double* a = shmem_calloc(32, sizeof(long double));
  long double* all = shmem_calloc(2 * (size_t)npes, sizeof(long double));
  long double* mine = shmem_malloc(2 * (size_t)npes * sizeof(long double));
  uint64_t* sig = shmem_calloc(2, sizeof(uint64_t));
  long double src[8], got[32];
  for (int k = 0; k < 8; ++k) src[k] = ldv(me, k);
  for (int k = 0; k < 2 * npes; ++k) {
    long double v = ldv(me, k);
    shmem_longdouble_put(mine + k, &v, 1, me);
  }
  shmem_longdouble_put(a, src, 2, next);                              /* a[0, 1] */
  shmem_ctx_longdouble_put_nbi(SHMEM_CTX_DEFAULT, a + 2, src + 2, 2, next); /* a[2, 3] */
  shmem_put(a + 4, src + 4, 2, next);                                 /* generic: a[4, 5] */
  shmem_longdouble_p(a + 6, src[6], next);
  shmem_p(a + 7, src[7], next);                                       /* generic */
  shmem_longdouble_iput(a + 8, src, 2, 1, 4, next);                   /* a[8 + 2k] = src[k], k < 4 */
  shmem_ibput(a + 16, src, 4, 4, 2, 2, next);                         /* generic: a[16, 17], a[20, 21] */
  shmem_longdouble_put_signal(a + 24, src, 2, sig, 1, SHMEM_SIGNAL_SET, next);
  shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, a + 26, src + 2, 2, sig + 1, 1, SHMEM_SIGNAL_ADD, next); /* generic */
  shmem_quiet();
  CHECK(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1) == 1);
  CHECK(shmem_signal_wait_until(sig + 1, SHMEM_CMP_EQ, 1) == 1);
  shmem_barrier_all();
  shmem_longdouble_get(got, a, 16, me);
  shmem_get_nbi(got + 16, a + 16, 16, me);                            /* generic */
  shmem_quiet();
  for (int k = 0; k < 8; ++k) CHECK(got[k] == ldv(prev, k));
  for (int k = 0; k < 8; ++k) CHECK(got[8 + k] == (k % 2 ? 0.0L : ldv(prev, k / 2)));
  for (int k = 0; k < 8; ++k) CHECK(got[16 + k] == (k % 4 < 2 ? ldv(prev, k % 4 + k / 4 * 4) : 0.0L));
  for (int k = 0; k < 4; ++k) CHECK(got[24 + k] == ldv(prev, k));
  CHECK(shmem_longdouble_g(a + 7, me) == ldv(prev, 7));
  CHECK(shmem_g(SHMEM_CTX_DEFAULT, a + 1, me) == ldv(prev, 1));       /* generic ctx */
  CHECK(shmem_ctx_longdouble_g(SHMEM_CTX_DEFAULT, a, next) == ldv(me, 0));
  long double back[4] = {0};
  shmem_iget(back, a + 8, 1, 2, 4, next);                             /* generic: back[k] = next's a[8 + 2k] */
  for (int k = 0; k < 4; ++k) CHECK(back[k] == ldv(me, k));
  shmem_ctx_longdouble_ibget(SHMEM_CTX_DEFAULT, back, a + 16, 2, 4, 2, 2, next); /* a[16, 17], a[20, 21] */
  CHECK(back[0] == ldv(me, 0) && back[1] == ldv(me, 1) && back[2] == ldv(me, 4) && back[3] == ldv(me, 5));
  shmem_barrier_all();
  /* Collectives: all[2j + e] = PE j's element e; then alltoall's block from j is its mine[2 me + e]. */
  CHECK(shmem_longdouble_fcollect(SHMEM_TEAM_WORLD, all, mine, 2) == 0);
  shmem_longdouble_get(got, all, 2 * npes, me);
  for (int j = 0; j < npes; ++j) CHECK(got[2 * j] == ldv(j, 0) && got[2 * j + 1] == ldv(j, 1));
  shmem_barrier_all(); /* every PE has read `all` before the next collective writes it */
  CHECK(shmem_alltoall(SHMEM_TEAM_WORLD, all, mine, 2) == 0);         /* generic */
  shmem_longdouble_get(got, all, 2 * npes, me);
  for (int j = 0; j < npes; ++j) CHECK(got[2 * j] == ldv(j, 2 * me) && got[2 * j + 1] == ldv(j, 2 * me + 1));
  shmem_barrier_all();
  CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, all, mine, 2, npes - 1) == 0); /* generic */
  shmem_longdouble_get(got, all, 2, me);
  CHECK(got[0] == ldv(npes - 1, 0) && got[1] == ldv(npes - 1, 1));
  shmem_barrier_all();
  CHECK(shmem_longdouble_collect(SHMEM_TEAM_WORLD, all, mine, 1) == 0);
  shmem_longdouble_get(got, all, npes, me);
  for (int j = 0; j < npes; ++j) CHECK(got[j] == ldv(j, 0));
  shmem_barrier_all();
  CHECK(shmem_longdouble_alltoalls(SHMEM_TEAM_WORLD, all, mine, 2, 2, 1) == 0); /* all[2j] = PE j's mine[2 me] */
  shmem_longdouble_get(got, all, 2 * npes, me);
  for (int j = 0; j < npes; ++j) CHECK(got[2 * j] == ldv(j, 2 * me));
  shmem_barrier_all();
  shmem_free(sig);
  shmem_free(mine);
  shmem_free(all);
  shmem_free(a);
}

/* OpenSHMEM 1.6: scans (typed and _Generic), pe_quiet, sessions, query_initialized, nested init,
   the deprecated comparison and 1.3 generic names, <mpp/shmem.h>. */
static void openshmem16(void) {
  int init = 0;
  shmem_query_initialized(&init);
  CHECK(init == 1);
  shmem_init(); /* nested: its finalize is a barrier */
  long* src = shmem_malloc(4 * sizeof(long));
  long* in = shmem_malloc(4 * sizeof(long));
  long* box = shmem_malloc(4 * sizeof(long));
  double* dsrc = shmem_malloc(2 * sizeof(double));
  double* dex = shmem_malloc(2 * sizeof(double));
  long l[4], got[4];
  double d[2] = {0.5 * (me + 1), 0.5 * (me + 1)}, dgot[2];
  for (int k = 0; k < 4; ++k) l[k] = me + k;
  shmem_long_put(src, l, 4, me);
  shmem_double_put(dsrc, d, 2, me);
  shmem_barrier_all();
  CHECK(shmem_long_sum_inscan(SHMEM_TEAM_WORLD, in, src, 4) == 0);
  shmem_long_get(got, in, 4, me);
  for (int k = 0; k < 4; ++k) CHECK(got[k] == (long)me * (me + 1) / 2 + (long)(me + 1) * k);
  CHECK(shmem_sum_exscan(SHMEM_TEAM_WORLD, dex, dsrc, 2) == 0);
  shmem_double_get(dgot, dex, 2, me);
  for (int k = 0; k < 2; ++k) CHECK(dgot[k] == 0.25 * me * (me + 1));
  CHECK(shmem_sum_inscan(SHMEM_TEAM_WORLD, src, src, 4) == 0); /* in place */
  CHECK(shmem_long_g(&src[3], me) == got[3]);
  const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
  shmem_long_put_nbi(box, src, 4, next);
  shmem_pe_quiet(&next, 1);
  shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, &next, 1);
  shmem_ctx_session_config_t cfg = {8};
  shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
  shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
  shmem_finalize();
  shmem_query_initialized(&init);
  CHECK(init == 1);
  CHECK(shmem_long_g(&box[3], me) == (long)prev * (prev + 1) / 2 + (long)(prev + 1) * 3);
  int* flag = shmem_calloc(1, sizeof(int));
  shmem_int_p(flag, 1, next);
  shmem_int_wait_until(flag, _SHMEM_CMP_EQ, 1);
  CHECK(shmem_int_test(flag, _SHMEM_CMP_NE, 1) == 0);
  shmem_barrier_all();
  /* The 1.3 generic names: on PE 0's word, every PE adds once. */
  long* ctr = shmem_calloc(1, sizeof(long));
  shmem_add(ctr, 2L, 0);
  shmem_inc(ctr, 0);
  (void)shmem_fadd(ctr, 1L, 0);
  (void)shmem_finc(ctr, 0);
  shmem_barrier_all();
  CHECK(shmem_fetch(ctr, 0) == 5L * npes);
  shmem_barrier_all();
  if (me == 0) {
    shmem_set(ctr, 7L, 0);
    CHECK(shmem_swap(ctr, 8L, 0) == 7);
    CHECK(shmem_cswap(ctr, 8L, 9L, 0) == 8);
    CHECK(shmem_fetch(ctr, 0) == 9);
  }
  shmem_barrier_all();
  shmem_free(ctr);
  shmem_free(flag);
  shmem_free(box);
  shmem_free(dex);
  shmem_free(dsrc);
  shmem_free(in);
  shmem_free(src);
}

int main(void) {
  int provided = -1;
  /* GPU support: the stream collective runs in kernels, on GPU-heap buffers. */
  CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE | SHMEM_DEVICE_HOST_INIT | SHMEM_DEVICE_KERNEL_INIT, &provided) == 0);
  me = shmem_my_pe();
  npes = shmem_n_pes();
  CHECK(npes <= 8);
  int major = 0, minor = 0;
  shmem_info_get_version(&major, &minor);
  CHECK(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION);
  shmem_pcontrol(1);
  void* hinted = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE);
  CHECK(hinted != NULL && shmem_addr_accessible(hinted, (me + 1) % npes));
  long* unknown = shmem_malloc_with_hints(sizeof(long), ~1L); /* hints GIO does not know: ignored */
  CHECK(unknown != NULL);
  shmem_long_p(unknown, 5, (me + 1) % npes);
  shmem_barrier_all();
  CHECK(shmem_long_g(unknown, me) == 5);
  shmem_free(unknown);
  CHECK(shmemx_transport_name((me + 1) % npes) != NULL);
  /* nelems 0 moves nothing, whatever the pointers (tests-sos's zero_comm and nop_collectives). */
  shmem_putmem(NULL, NULL, 0, (me + 1) % npes);
  shmem_getmem_nbi(NULL, NULL, 0, (me + 1) % npes);
  shmem_int_put(NULL, NULL, 0, (me + 1) % npes);
  CHECK(shmem_int_broadcast(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0) == 0);
  CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0);
  CHECK(shmem_fcollectmem(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0);
  CHECK(shmem_int_alltoall(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0);
  CHECK(shmemx_int_broadcast_on_stream(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0, (gio_stream_t)0) == 0);
  CHECK(shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, NULL, NULL, 0, (gio_stream_t)0) == 0);
  shmem_quiet();
  rma();
  amo();
  signals_and_waits();
  teams_and_collectives();
  team_handles();
  locks_nbi_legacy();
  strided();
  long_double();
  openshmem16();
  shmem_free(hinted);
  shmem_finalize();
  if (me == 0) printf("test_c_api: every check passed at %d PEs\n", npes);
  return 0;
}
