/* The two heaps from a plain C OpenSHMEM program (docs/heaps.md): the default heap is host memory,
 * so the program stores into shmem_malloc blocks and reads them back with plain loads, and every
 * host routine works on them (RMA, strided, AMOs, signals, waits, locks, collectives, shmem_ptr);
 * the GPU heap's blocks (shmemg_malloc) are reached through the host routines alone (GPU-aware),
 * one heap's data and the other's signal in one call too. Also shmem_init_thread's GPU bits.
 * Run at 2 and 4 PEs over every transport (the default heap moves by CPU between the PEs of a node,
 * by the proxy across nodes). Its own harness: the first failed check names itself, the PE exits 1. */
#include <shmem.h>
#include <shmemg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, npes, next, prev;
#define CHECK(cond)                                                                                   \
  do {                                                                                                \
    if (!(cond)) {                                                                                    \
      fprintf(stderr, "PE %d: %s:%d: check failed: %s\n", me, __FILE__, __LINE__, #cond);            \
      exit(1);                                                                                        \
    }                                                                                                 \
  } while (0)

enum { N = 1000 };

/* Under clang's ThreadSanitizer a second shmem_init of a process stops with SIGSEGV (see
 * test_openshmem16.cpp's ReinitializeAfterTheLastFinalize): that part is left out there. */
#if defined(__SANITIZE_THREAD__)
#define TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#endif

/* Host stores, then every RMA form, each result read by plain loads. */
static void rma_by_loads(void) {
  long* a = shmem_malloc(N * sizeof(long));
  long* b = shmem_malloc(N * sizeof(long));
  long* c = shmem_calloc(N, sizeof(long));
  CHECK(a && b && c);
  for (int i = 0; i < N; ++i) {
    a[i] = me * 100000L + i; /* the store that stops a program whose shmem_malloc is GPU memory */
    b[i] = -1;
    CHECK(c[i] == 0);
  }
  shmem_barrier_all();
  shmem_long_put(b, a, N, next);
  shmem_barrier_all();
  for (int i = 0; i < N; ++i) CHECK(b[i] == prev * 100000L + i);
  long got[N];
  shmem_long_get(got, a, N, next);
  for (int i = 0; i < N; ++i) CHECK(got[i] == next * 100000L + i);
  shmem_long_put_nbi(c, a, N / 2, next);
  shmem_getmem_nbi(got, a + N / 2, (N / 2) * sizeof(long), prev);
  shmem_quiet();
  for (int i = 0; i < N / 2; ++i) CHECK(got[i] == prev * 100000L + N / 2 + i);
  shmem_long_p(&c[N - 1], 4242 + me, next);
  CHECK(shmem_long_g(&a[7], prev) == prev * 100000L + 7);
  shmem_barrier_all();
  for (int i = 0; i < N / 2; ++i) CHECK(c[i] == prev * 100000L + i);
  CHECK(c[N - 1] == 4242 + prev);
  /* Strided: every third element of mine into the next PE's first N/3. */
  memset(c, 0, N * sizeof(long));
  shmem_barrier_all();
  shmem_long_iput(c, a, 1, 3, N / 3, next);
  shmem_long_iget(got, a, 2, 1, 10, prev);
  for (int i = 0; i < 10; ++i) CHECK(got[2 * i] == prev * 100000L + i);
  shmem_barrier_all();
  for (int i = 0; i < N / 3; ++i) CHECK(c[i] == prev * 100000L + 3 * i);
  /* shmem_ptr: a node-local peer's block is loaded and stored directly (the proxy's peers: NULL). */
  long* peer = shmem_ptr(b, next);
  CHECK(shmem_ptr(b, me) == b);
  CHECK(shmem_addr_accessible(b, next));
  shmem_barrier_all();
  if (peer) peer[0] = 777 + me;
  shmem_barrier_all();
  if (shmem_ptr(b, prev)) CHECK(b[0] == 777 + prev);
  shmem_barrier_all();
  shmem_free(c);
  shmem_free(b);
  shmem_free(a);
}

/* AMOs, signals, waits and locks on default-heap words. */
static void amo_signal_wait_lock(void) {
  long* ctr = shmem_calloc(4, sizeof(long));
  uint64_t* sig = shmem_calloc(1, sizeof(uint64_t));
  int* flag = shmem_calloc(1, sizeof(int));
  long* lock = shmem_calloc(1, sizeof(long));
  long* data = shmem_calloc(8, sizeof(long));
  shmem_long_atomic_add(&ctr[0], me + 1, 0);
  (void)shmem_long_atomic_fetch_inc(&ctr[1], 0);
  long fetched = -1;
  shmem_long_atomic_fetch_add_nbi(&fetched, &ctr[2], 10, 0);
  shmem_quiet();
  CHECK(fetched >= 0 && fetched % 10 == 0);
  const long was = shmem_long_atomic_compare_swap(&ctr[3], 0, me + 1, 0);
  shmem_barrier_all();
  if (me == 0) {
    CHECK(ctr[0] == (long)npes * (npes + 1) / 2); /* plain loads of words peers changed atomically */
    CHECK(ctr[1] == npes);
    CHECK(ctr[2] == 10L * npes);
    CHECK(ctr[3] >= 1 && ctr[3] <= npes);
  }
  CHECK((was == 0) == (shmem_long_atomic_fetch(&ctr[3], 0) == me + 1));
  /* Put-with-signal, then a host wait on a peer's signal and a test on a peer's p. */
  long src[8];
  for (int i = 0; i < 8; ++i) src[i] = me * 10 + i;
  shmem_long_put_signal(data, src, 8, sig, 1, SHMEM_SIGNAL_ADD, next);
  CHECK(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1) == 1);
  for (int i = 0; i < 8; ++i) CHECK(data[i] == prev * 10 + i);
  CHECK(shmem_signal_fetch(sig) == 1);
  shmem_int_atomic_set(flag, 5, next);
  shmem_int_wait_until(flag, SHMEM_CMP_EQ, 5);
  CHECK(shmem_int_test(flag, SHMEM_CMP_EQ, 5));
  shmem_barrier_all();
  /* A lock in the default heap guards a read-modify-write of PE 0's word by get and put. */
  for (int k = 0; k < 5; ++k) {
    shmem_set_lock(lock);
    const long v = shmem_long_g(&ctr[1], 0);
    shmem_long_p(&ctr[1], v + 1, 0);
    shmem_quiet();
    shmem_clear_lock(lock);
  }
  shmem_barrier_all();
  if (me == 0) CHECK(ctr[1] == 6L * npes);
  shmem_barrier_all();
  shmem_free(data);
  shmem_free(lock);
  shmem_free(flag);
  shmem_free(sig);
  shmem_free(ctr);
}

/* Collectives on buffers the program filled by stores. */
static void collectives(void) {
  long* src = shmem_malloc(4 * sizeof(long));
  long* dst = shmem_malloc(4 * (size_t)npes * sizeof(long));
  for (int i = 0; i < 4; ++i) src[i] = me + i;
  shmem_barrier_all();
  CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4) == 0);
  for (int i = 0; i < 4; ++i) CHECK(dst[i] == (long)npes * (npes - 1) / 2 + (long)npes * i);
  shmem_barrier_all(); /* every PE has read dst before the next collective writes it */
  CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 4, npes - 1) == 0);
  for (int i = 0; i < 4; ++i) CHECK(dst[i] == npes - 1 + i);
  shmem_barrier_all();
  CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, 4) == 0);
  for (int p = 0; p < npes; ++p)
    for (int i = 0; i < 4; ++i) CHECK(dst[p * 4 + i] == p + i);
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
}

/* The allocation routines on the default heap: align, realloc keeps the bytes, calloc zeroes. */
static void allocation(void) {
  char* a = shmem_align(4096, 100);
  CHECK(a && (uintptr_t)a % 4096 == 0);
  memset(a, 'x', 100);
  a = shmem_realloc(a, 1 << 20);
  CHECK(a);
  for (int i = 0; i < 100; ++i) CHECK(a[i] == 'x');
  shmem_free(a);
  long* h = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE);
  h[0] = 1; /* no GPU hint: the default heap */
  shmem_free(h);
  CHECK(shmem_malloc(0) == NULL);
}

/* GPU-aware: GPU-heap blocks through host routines only (on cuda and hip host code cannot load
 * them), and a put whose data and signal lie in different heaps. */
static void gpu_heap_from_host(void) {
  long* g = shmemg_malloc(N * sizeof(long));
  uint64_t* gsig = shmemg_calloc(1, sizeof(uint64_t));
  long* hinted = shmem_malloc_with_hints(N * sizeof(long), SHMEM_DEVICE_MALLOC_KERNEL_INIT);
  long* d = shmem_calloc(N, sizeof(long));
  uint64_t* dsig = shmem_calloc(1, sizeof(uint64_t));
  CHECK(g && gsig && hinted && d && dsig);
  long src[N], got[N];
  for (int i = 0; i < N; ++i) src[i] = me * 7L + i;
  shmem_long_put(g, src, N, next);      /* a local buffer into the GPU heap */
  shmem_long_put(hinted, src, N, next); /* shmem_malloc_with_hints' GPU-heap block */
  shmem_barrier_all();
  shmem_long_get(got, g, N, me);
  for (int i = 0; i < N; ++i) CHECK(got[i] == prev * 7L + i);
  shmem_long_get(got, hinted, N, prev);
  for (int i = 0; i < N; ++i) CHECK(got[i] == (prev + npes - 1) % npes * 7L + i);
  shmem_barrier_all(); /* every PE has read its g before PE 0's word changes */
  shmem_long_atomic_add(&g[0], 1, 0);
  shmem_barrier_all();
  if (me == 0) CHECK(shmem_long_atomic_fetch(&g[0], 0) == (npes - 1) * 7L + npes);
  shmem_barrier_all();
  /* Default-heap data signalled in the GPU heap, and GPU-heap data signalled in the default heap. */
  shmem_long_put_signal(d, src, N, gsig, 1, SHMEM_SIGNAL_SET, next);
  CHECK(shmem_signal_wait_until(gsig, SHMEM_CMP_EQ, 1) == 1);
  for (int i = 0; i < N; ++i) CHECK(d[i] == prev * 7L + i);
  shmem_long_put_signal(g, src, N, dsig, 3, SHMEM_SIGNAL_ADD, next);
  shmem_uint64_wait_until(dsig, SHMEM_CMP_EQ, 3);
  CHECK(*dsig == 3);
  shmem_long_get(got, g, N, me);
  for (int i = 0; i < N; ++i) CHECK(got[i] == prev * 7L + i);
  /* A reduction from the GPU heap into the default heap (once every PE has read its d). */
  shmem_barrier_all();
  CHECK(shmem_long_max_reduce(SHMEM_TEAM_WORLD, d, g, 4) == 0);
  for (int i = 0; i < 4; ++i) CHECK(d[i] == (npes - 1) * 7L + i);
  CHECK(shmem_addr_accessible(g, next));
  shmem_barrier_all();
  shmem_free(dsig);
  shmem_free(d);
  shmem_free(hinted); /* shmem_free takes back the hinted GPU-heap block */
  shmemg_free(gsig);
  shmemg_free(g);
}

int main(void) {
  int provided = -1;
  CHECK(shmem_init_thread(SHMEM_THREAD_SERIALIZED | SHMEM_DEVICE_HOST_INIT, &provided) == 0);
  /* The level asked for (MPI may give more) and exactly the GPU support asked for. */
  CHECK((provided & (SHMEM_DEVICE_HOST_INIT | SHMEM_DEVICE_KERNEL_INIT)) == SHMEM_DEVICE_HOST_INIT);
  CHECK((provided & ~(SHMEM_DEVICE_HOST_INIT | SHMEM_DEVICE_KERNEL_INIT)) >= SHMEM_THREAD_SERIALIZED);
  /* A nested initialization provides what the first did, whatever it asks. */
  int again = -1;
  CHECK(shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT, &again) == 0);
  CHECK(again == provided);
  shmem_finalize();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  next = (me + 1) % npes;
  prev = (me + npes - 1) % npes;
  rma_by_loads();
  amo_signal_wait_lock();
  collectives();
  allocation();
  gpu_heap_from_host();
#if !defined(TEST_TSAN)
  shmem_finalize();
  /* Initialized again, without GPU support: the default heap alone, fresh. */
  CHECK(shmem_init_thread(SHMEM_THREAD_SINGLE, &provided) == 0);
  CHECK((provided & (SHMEM_DEVICE_HOST_INIT | SHMEM_DEVICE_KERNEL_INIT)) == 0);
  rma_by_loads();
#endif
  if (me == 0) printf("test_default_heap: %d PEs passed\n", npes);
  shmem_finalize();
  return 0;
}
