// Case "cqe_error" (gda): an error completion in the middle of a stream of puts. PE 0's kernel
// posts 8 good puts, one the (software) NIC must refuse, 8 more good ones, then shmem_quiet. The
// refused one is a put GIO itself posts while the queue's remote base is set to an address no
// key covers, so its WQE is GIO's own, only its remote address is bad: the NIC answers it with a
// remote-access error CQE. PE 1 waits until the 8 puts before it have landed in its heap, says so
// and only then lets PE 0 quiet, so both facts show in the output in a fixed order: the puts
// before the bad one landed, and the quiet reports the error CQE (routine, PE, WQE index,
// syndrome) and stops the job with GIO's exit code.
#include <shmem.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "device/gda/gda_post.h"

namespace {

constexpr int kGood = 8;  // good puts before (and after) the bad one

GIO_HOST_DEVICE_INLINE uint64_t word(int i) { return 0xc0de000000000000ull | (uint64_t)(i + 1); }

// sym: [0, 8) words the first puts fill, [8, 16) the later ones, [16] the bad put's target,
// [24] PE 0's go-ahead from PE 1.
__global__ void put_stream(uint64_t* sym, const uint64_t* src) {
  for (int i = 0; i < kGood; ++i) shmem_putmem_nbi(sym + i, src + i, 8, 1);
  gio_gda_queue_v1* q = gio::dev::gda::queue(GIO_DSTATE, nullptr, 1);
  const uint64_t base = q->remote_base;
  q->remote_base = 4096;  // the bad put's WQE then names a remote address outside every key
  shmem_putmem_nbi(sym + 16, src, 8, 1);
  q->remote_base = base;
  for (int i = 0; i < kGood; ++i) shmem_putmem_nbi(sym + kGood + i, src + kGood + i, 8, 1);
  shmem_uint64_wait_until(sym + 24, SHMEM_CMP_EQ, 1);
  shmem_quiet();
}

}  // namespace

void fault_cqe_error() {
  shmem_init();
  if (strcmp(shmemx_transport_name(1 - shmem_my_pe()), "gda") != 0) {
    fprintf(stderr, "fault: cqe_error needs GIO_TRANSPORT=gda\n");
    exit(2);
  }
  uint64_t* sym = (uint64_t*)shmem_calloc(32, sizeof(uint64_t));
  uint64_t* src = (uint64_t*)shmem_malloc(2 * kGood * sizeof(uint64_t));
  uint64_t host_src[2 * kGood];
  for (int i = 0; i < 2 * kGood; ++i) host_src[i] = word(i);
  (void)hipMemcpy(src, host_src, sizeof host_src, hipMemcpyHostToDevice);
  shmem_barrier_all();
  if (shmem_my_pe() == 0) {
    hipLaunchKernelGGL(put_stream, dim3(1), dim3(1), 0, 0, sym, src);
    (void)hipDeviceSynchronize();
    fprintf(stderr, "fault: NO FAULT: PE 0's quiet returned after an error completion\n");
    exit(2);
  }
  // PE 1: the heap is host memory on the host platform and device memory on GPUs; read it the
  // way that works on both.
  const auto t0 = std::chrono::steady_clock::now();
  int landed = 0;
  while (landed < kGood) {
    uint64_t now[kGood];
    (void)hipMemcpy(now, sym, sizeof now, hipMemcpyDeviceToHost);
    landed = 0;
    while (landed < kGood && now[landed] == word(landed)) ++landed;
    if (landed < kGood && std::chrono::steady_clock::now() - t0 > std::chrono::seconds(20)) {
      fprintf(stderr, "fault: cqe_error: after 20 s PE 1 holds only the first %d of the %d puts before the bad one\n",
              landed, kGood);
      exit(3);
    }
    usleep(200);
  }
  fprintf(stderr, "fault: cqe_error: PE 1 holds all %d puts posted before the bad one\n", kGood);
  fflush(stderr);
  shmem_uint64_p(sym + 24, 1, 0);
  shmem_quiet();
  sleep(60);  // mpirun ends this PE when PE 0 stops the job
  fprintf(stderr, "fault: cqe_error: PE 0 never stopped the job\n");
  exit(4);
}
