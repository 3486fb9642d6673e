// Proxy transport faults (GIO_TRANSPORT=proxy).
//
// "proxy_peer_exit_put", "proxy_peer_exit_amo": PE 1 exits (_exit, no shmem_finalize) while PE 0's
// kernel keeps doing blocking puts (or fetch-adds) to it. CMake runs these with mpirun told to let
// a process leave without finalize (orte_allowed_exit_without_sync), so the launcher does not stop
// the job for GIO: PE 0 must find the dead peer itself, within GIO_TIMEOUT_MS, and stop naming the
// peer and the operation, instead of hanging in a libfabric wait or in the kernel's.
//
// "proxy_cmd_bad_pe", "proxy_cmd_past_heap": a command the device checks (device/core/check.h)
// would have refused, written straight into PE 0's proxy ring with the posting protocol
// (device/proxy/proxy_post.h), as a torn or stray slot would reach it: the proxy thread's own
// check must stop the job naming the command, instead of moving bytes to a wrong place.
#include <shmem.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "device/proxy/proxy_post.h"

namespace {

constexpr int kArrived = 64;  // puts (or adds) PE 1 sees land before it exits

// PE 0, thread 0: blocking operations to PE 1 until GIO stops the job, or 20 s pass (NO FAULT).
// `box` is symmetric: [0] the put's source on PE 0 and its destination on PE 1, [8] the counter
// the fetch-adds bump.
__global__ void keep_going(int64_t* box, bool amo, int64_t* done) {
  const long long t0 = clock64();
  int64_t i = 0;
  while (clock64() - t0 < 20000000000ll) {
    ++i;
    if (amo) {
      (void)shmem_int64_atomic_fetch_add(box + 8, 1, 1);
    } else {
      box[1] = i;  // the put's source: a heap buffer of 64 bytes, so no inline or bounce path
      shmem_putmem(box, box + 1, 64, 1);
    }
  }
  *done = i;
}

[[noreturn]] void peer_exit(bool amo) {
  shmem_init();
  if (strcmp(shmemx_transport_name(1 - shmem_my_pe()), "proxy") != 0) {
    fprintf(stderr, "fault: proxy_peer_exit needs GIO_TRANSPORT=proxy\n");
    exit(2);
  }
  int64_t* box = (int64_t*)shmem_calloc(32, sizeof(int64_t));
  shmem_barrier_all();
  if (shmem_my_pe() == 1) {
    // Wait until PE 0's operations arrive, so it is in the middle of them when this PE leaves.
    const int64_t* seen = amo ? box + 8 : box;
    for (int ms = 0; ms < 20000; ++ms) {
      int64_t v = 0;
      (void)hipMemcpy(&v, seen, sizeof v, hipMemcpyDeviceToHost);
      if (v >= kArrived) {
        fprintf(stderr, "fault: PE 1 exits without shmem_finalize after %lld %s arrived\n", (long long)v,
                amo ? "fetch-adds" : "puts");
        fflush(stderr);
        _exit(0);
      }
      usleep(1000);
    }
    fprintf(stderr, "fault: PE 1 saw fewer than %d of PE 0's operations in 20 s\n", kArrived);
    _exit(3);
  }
  int64_t* done = nullptr;
  (void)hipMalloc((void**)&done, sizeof *done);
  hipLaunchKernelGGL(keep_going, dim3(1), dim3(1), 0, 0, box, amo, done);
  (void)hipDeviceSynchronize();
  fprintf(stderr, "fault: NO FAULT: PE 0's kernel went on for 20 s after PE 1 exited\n");
  exit(2);
}

// PE 0's default ring 0, one command posted as a kernel would, every field the caller's.
__global__ void post_raw(gio_proxy_cmd_v1 c) {
  gio_proxy_ring_v1* r = gio::dev::proxy::ring(GIO_DSTATE, nullptr);
  gio::dev::proxy::wait_done("fault", r, gio::dev::proxy::post("fault", r, c));
}

[[noreturn]] void raw_command(bool bad_pe) {
  shmem_init();
  if (strcmp(shmemx_transport_name(1 - shmem_my_pe()), "proxy") != 0) {
    fprintf(stderr, "fault: proxy_cmd needs GIO_TRANSPORT=proxy\n");
    exit(2);
  }
  (void)shmem_calloc(1, 4096);
  if (shmem_my_pe() != 0) {
    sleep(60);  // mpirun ends this PE when PE 0 stops the job
    _exit(4);
  }
  gio_proxy_cmd_v1 c{};
  c.op = GIO_PROXY_OP_PUT;
  c.local = GIO_PROXY_LOCAL_INLINE;
  c.value = 0x5eed;
  if (bad_pe) {
    c.pe = shmem_n_pes();
    c.len = 8;
  } else {  // 16 inline bytes, 8 of them past the end of PE 1's heap (GIO_SYMMETRIC_SIZE=4M)
    c.pe = 1;
    c.roff = (4u << 20) - 8;
    c.len = 16;
  }
  hipLaunchKernelGGL(post_raw, dim3(1), dim3(1), 0, 0, c);
  (void)hipDeviceSynchronize();
  fprintf(stderr, "fault: NO FAULT: the proxy completed a command to PE %d, heap offset %llu, %llu bytes\n", c.pe,
          (unsigned long long)c.roff, (unsigned long long)c.len);
  exit(2);
}

}  // namespace

void fault_proxy_peer_exit_put() { peer_exit(false); }
void fault_proxy_peer_exit_amo() { peer_exit(true); }
void fault_proxy_cmd_bad_pe() { raw_command(true); }
void fault_proxy_cmd_past_heap() { raw_command(false); }
