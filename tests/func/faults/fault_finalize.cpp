// Case "finalize_outstanding": shmem_finalize with operations outstanding. PE 0's kernel posts
// 8 non-blocking 4 MiB puts to PE 1 and ends without shmem_quiet; PE 0 then calls shmem_finalize
// and nothing else. OpenSHMEM's finalize completes every outstanding operation (it implies a
// quiet), and the target's finalize-time barrier cannot end before the source's does, so PE 1
// must hold every byte once its own shmem_finalize returns.
//
// After finalize PE 1's heap is gone, so PE 1 forks a reader first: the child keeps its copy of
// the heap's shared file mapping, waits on a pipe until PE 1's finalize has returned, then checks
// the bytes and reports through its exit status. The host platform's heaps are shared file
// mappings; a GPU's heap is not inherited by fork, so this case exists on the host platform only.
#include <shmem.h>

#include <cstdio>
#include <cstdlib>

#if defined(GIO_PLATFORM_HOST)
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr int kPuts = 8;
constexpr size_t kBytes = 4u << 20;

GIO_HOST_DEVICE_INLINE uint8_t byte_at(size_t i) { return (uint8_t)(i * 7 + i / 4093 + 1) | 1u; }

__global__ void puts_no_quiet(uint8_t* dst, const uint8_t* src) {
  if (threadIdx.x < kPuts)
    shmem_putmem_nbi(dst + threadIdx.x * kBytes, src + threadIdx.x * kBytes, kBytes, 1);
}

// The child's check: how many of the puts landed whole.
int puts_landed(const uint8_t* dst) {
  int whole = 0;
  for (int p = 0; p < kPuts; ++p) {
    bool ok = true;
    for (size_t i = 0; i < kBytes && ok; ++i) ok = dst[p * kBytes + i] == byte_at(p * kBytes + i);
    whole += ok;
  }
  return whole;
}

}  // namespace

void fault_finalize_outstanding() {
  shmem_init();
  uint8_t* dst = (uint8_t*)shmem_calloc(kPuts * kBytes, 1);
  uint8_t* src = (uint8_t*)shmem_malloc(kPuts * kBytes);
  for (size_t i = 0; i < kPuts * kBytes; ++i) src[i] = byte_at(i);  // host platform: host memory
  if (shmem_my_pe() == 0) {
    shmem_barrier_all();
    hipLaunchKernelGGL(puts_no_quiet, dim3(1), dim3(kPuts), 0, 0, dst, src);
    (void)hipDeviceSynchronize();
    shmem_finalize();
    exit(0);
  }
  // PE 1 forks its reader before the barrier, so that it is in shmem_finalize (the tightest case
  // for PE 0's finalize) as soon as PE 0 starts its kernel.
  int go[2];
  if (pipe(go) != 0) {
    perror("fault: finalize_outstanding: pipe");
    exit(5);
  }
  fflush(stderr);
  const pid_t child = fork();
  if (child == 0) {
    close(go[1]);
    char c;
    if (read(go[0], &c, 1) != 1) _exit(100);  // PE 1 died before its finalize returned
    _exit(puts_landed(dst));
  }
  close(go[0]);
  shmem_barrier_all();
  shmem_finalize();
  (void)!write(go[1], "g", 1);
  close(go[1]);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status)) {
    fprintf(stderr, "fault: finalize_outstanding: the reader process failed (status %#x)\n", status);
    exit(5);
  }
  const int landed = WEXITSTATUS(status);
  fprintf(stderr, "fault: finalize_outstanding: after its shmem_finalize PE 1 holds %d of the %d puts of %zu bytes\n",
          landed, kPuts, kBytes);
  exit(landed == kPuts ? 0 : 1);
}

#else

void fault_finalize_outstanding() {
  fprintf(stderr, "fault: finalize_outstanding needs the host platform (a GPU heap does not survive fork)\n");
  exit(77);
}

#endif
