/* A program written for OpenSHMEM 1.2 and earlier: start_pes, _my_pe, _num_pes, shmalloc, shfree,
 * and no shmem_finalize, which such programs never call (start_pes finalizes at exit). A second
 * start_pes has no effect. Exits non-zero on a wrong value; the job fails if the exit is not clean. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  start_pes(0);
  start_pes(0);
  const int me = _my_pe(), n = _num_pes();
  int* word = (int*)shmalloc(sizeof(int));
  *word = -1;
  shmem_barrier_all();
  shmem_int_p(word, me, (me + 1) % n);
  shmem_barrier_all();
  const int ok = *word == (me + n - 1) % n;
  printf("test_start_pes: PE %d of %d: %s\n", me, n, ok ? "ok" : "WRONG");
  shmem_barrier_all();
  shfree(word);
  return ok ? 0 : 1;
}
