// A C++ OpenSHMEM program written with C's complex types, as programs written for other OpenSHMEM
// libraries are (Sandia OpenSHMEM declares its complex routines with `_Complex` in C++ too):
// <complex.h>, `double _Complex` and `float _Complex` operands of the complex reductions, creal and
// cimag on the results. Built by the install check (tests/install/check.sh) with oshc++.
#include <complex.h>
#include <shmem.h>
#include <stdio.h>

static double _Complex zd_dst[4], zd_src[4], zd_wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static float _Complex zf_dst[4], zf_src[4];
static long psync[SHMEM_REDUCE_SYNC_SIZE];

int main() {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  for (long& s : psync) s = SHMEM_SYNC_VALUE;
  for (int i = 0; i < 4; ++i) {
    __real__ zd_src[i] = me + i;
    __imag__ zd_src[i] = 1.0;
    __real__ zf_src[i] = 1.0f;
    __imag__ zf_src[i] = (float)me;
  }
  shmem_barrier_all();
  int ok = shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, zd_dst, zd_src, 4) == 0;
  const double pe_sum = n * (n - 1) / 2.0;
  for (int i = 0; i < 4; ++i) ok = ok && creal(zd_dst[i]) == pe_sum + n * i && cimag(zd_dst[i]) == n;
  ok = ok && shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, zf_dst, zf_src, 4) == 0;
  // The product of (1 + k i) over the PEs k: for 2 PEs (1)(1 + i) = 1 + i.
  float _Complex want = 1.0f;
  for (int k = 0; k < n; ++k) {
    float _Complex z;
    __real__ z = 1.0f;
    __imag__ z = (float)k;
    want *= z;
  }
  for (int i = 0; i < 4; ++i) ok = ok && crealf(zf_dst[i]) == crealf(want) && cimagf(zf_dst[i]) == cimagf(want);
  shmem_complexd_sum_to_all(zd_dst, zd_src, 4, 0, 0, n, zd_wrk, psync);
  for (int i = 0; i < 4; ++i) ok = ok && creal(zd_dst[i]) == pe_sum + n * i;
  printf("hello_complex: PE %d of %d: %s\n", me, n, ok ? "ok" : "WRONG");
  shmem_finalize();
  return ok ? 0 : 1;
}
