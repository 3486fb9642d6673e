// Case "no_write": a rejected put must not have written anything before GIO stopped it.
//
// A fault ends the whole job, so no PE could look at memory afterwards. On the host platform
// the symmetric heaps are shared file mappings, so PE 0 forks a child for each bad call: the
// child makes the call (and must die with GIO_EXIT_CODE), while PE 0 itself lives on and then
// reads PE 1's buffer and signal word, which must still hold exactly what PE 1 wrote there.
// A GPU context does not survive fork, so this case exists on the host platform only.
#include <shmem.h>

#include <cstdio>
#include <cstdlib>

#if defined(GIO_PLATFORM_HOST)
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "runtime/status.h"

namespace {

constexpr size_t kBuf = 4096;

enum attempt {
  DEV_PUT_PAST_END,     // size runs past the heap end (a naive copy would fill buf first)
  DEV_SIGNAL_BAD_OP,    // valid data, invalid sig_op: the data must not land either
  DEV_SIGNAL_OUTSIDE,   // valid data, signal word outside the heap
  HOST_PUT_PAST_END,
  HOST_SIGNAL_BAD_OP,
  N_ATTEMPTS,
};
const char* const kNames[] = {"device put past the heap end", "device putmem_signal with sig_op 7",
                              "device putmem_signal to a signal outside the heap",
                              "host put past the heap end", "host putmem_signal with sig_op 7"};

__global__ void bad_call(int which, char* buf, uint64_t* sig, const char* src, uint64_t* priv) {
  switch (which) {
    case DEV_PUT_PAST_END: shmem_putmem_nbi(buf, src, 8u << 20, 1); break;
    case DEV_SIGNAL_BAD_OP: shmem_putmem_signal(buf, src, 64, sig, 1, 7, 1); break;
    case DEV_SIGNAL_OUTSIDE: shmem_putmem_signal(buf, src, 64, priv, 1, SHMEM_SIGNAL_SET, 1); break;
  }
}

uint8_t pattern(int pe, size_t i) { return (uint8_t)((pe + 1) * 37 + i * 11 + 1); }

// Runs in the forked child; returns only if GIO let the call through.
void make_bad_call(int which, char* buf, uint64_t* sig, const char* src, uint64_t* priv) {
  if (which == HOST_PUT_PAST_END) shmem_putmem(buf, src, 8u << 20, 1);
  else if (which == HOST_SIGNAL_BAD_OP) shmem_putmem_signal(buf, src, 64, sig, 1, 7, 1);
  else {
    hipLaunchKernelGGL(bad_call, dim3(1), dim3(1), 0, 0, which, buf, sig, src, priv);
    (void)hipDeviceSynchronize();
  }
}

// PE 0: how many bytes of PE 1's buffer (and whether its signal) differ from what PE 1 put
// there; then puts that back, so the next attempt is judged on its own.
int count_changes(char* buf, uint64_t* sig) {
  std::vector<uint8_t> now(kBuf), want(kBuf);
  shmem_getmem(now.data(), buf, kBuf, 1);
  int changed = 0;
  for (size_t i = 0; i < kBuf; ++i) changed += now[i] != (want[i] = pattern(1, i));
  changed += shmem_uint64_atomic_swap(sig, 0, 1) != 0;
  shmem_putmem(buf, want.data(), kBuf, 1);
  return changed;
}

}  // namespace

void fault_no_write() {
  shmem_init();
  const int me = shmem_my_pe();
  char* buf = (char*)shmem_malloc(kBuf);
  uint64_t* sig = (uint64_t*)shmem_calloc(1, sizeof(uint64_t));
  std::vector<uint8_t> mine(kBuf), ee(kBuf, 0xEE);
  for (size_t i = 0; i < kBuf; ++i) mine[i] = pattern(me, i);
  (void)hipMemcpy(buf, mine.data(), kBuf, hipMemcpyHostToDevice);
  char* src = nullptr;
  uint64_t* priv = nullptr;
  (void)hipMalloc(&src, kBuf);
  (void)hipMalloc(&priv, sizeof(uint64_t));
  (void)hipMemcpy(src, ee.data(), kBuf, hipMemcpyHostToDevice);
  shmem_barrier_all();

  int failures = 0;
  if (me == 0) {
    // PE 0 has launched no kernel yet, so each child starts the emulator's worker threads itself
    // instead of inheriting a pool whose threads fork did not copy.
    for (int a = 0; a < N_ATTEMPTS; ++a) {
      fflush(stdout);
      fflush(stderr);
      pid_t child = fork();
      if (child == 0) {
        make_bad_call(a, buf, sig, src, priv);
        fprintf(stderr, "fault: no_write: %s was not rejected\n", kNames[a]);
        _exit(0);
      }
      int status = 0;
      if (child < 0 || waitpid(child, &status, 0) != child) {
        perror("fault: no_write: fork/waitpid");
        _exit(5);
      }
      const bool aborted = WIFEXITED(status) && WEXITSTATUS(status) == GIO_EXIT_CODE;
      const int changed = count_changes(buf, sig);
      if (!aborted || changed) {
        fprintf(stderr, "fault: no_write: %s: child status %#x (want exit %d), %d bytes of PE 1 changed\n",
                kNames[a], status, GIO_EXIT_CODE, changed);
        ++failures;
      }
    }
    if (!failures)
      fprintf(stderr, "fault: no_write: %d rejected calls aborted with exit %d and left PE 1's memory unchanged\n",
              (int)N_ATTEMPTS, GIO_EXIT_CODE);
  }
  shmem_barrier_all();
  shmem_finalize();
  exit(failures ? 1 : 0);
}

#else

void fault_no_write() {
  fprintf(stderr, "fault: no_write needs the host platform (a GPU context does not survive fork)\n");
  exit(77);
}

#endif
