/* The C11 program of the install check (tests/install/check.sh): not built until shmem.h serves C
 * (issue 16, the capi branch). Every PE puts its number into the next PE's symmetric word. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  int* word = (int*)shmem_malloc(sizeof(int));
  *word = -1;
  shmem_barrier_all();
  shmem_int_p(word, me, (me + 1) % n);
  shmem_barrier_all();
  int ok = *word == (me + n - 1) % n;
  printf("hello_c: PE %d of %d: %s\n", me, n, ok ? "ok" : "WRONG");
  shmem_free(word);
  shmem_finalize();
  return ok ? 0 : 1;
}
