/* The C11 program of the install check (tests/install/check.sh), built with oshcc. Every PE puts its
 * number into the next PE's symmetric word. The heap may be GPU memory, so the host reads and writes
 * it only through the API. */
#include <math.h>
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  int* word = (int*)shmem_malloc(sizeof(int));
  shmem_int_p(word, -1, me);
  shmem_barrier_all();
  shmem_int_p(word, me, (me + 1) % n);
  shmem_barrier_all();
  int ok = shmem_int_g(word, me) == (me + n - 1) % n;
  volatile double nn = (double)n * n; /* libm: the check links with -lm after the source, as make does */
  ok = ok && (int)(sqrt(nn) + 0.5) == n;
  printf("hello_c: PE %d of %d: %s\n", me, n, ok ? "ok" : "WRONG");
  shmem_free(word);
  shmem_finalize();
  return ok ? 0 : 1;
}
