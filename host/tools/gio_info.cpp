// gio-info: what GIO sees here — version, platform, device, each transport's view (the proxy's
// provider and staging), heap, the transport chosen per peer and why, every setting.
// Runs as a 1-PE job, or under oshrun (giorun) to show every PE's view and transports (PE 0
// prints the settings).
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}: the #if below
#include "runtime/api/c/shmem_c.h"
#include "runtime/api/shmemx_host.h"

#include <cstdio>
#include <cstring>

#include "host/bootstrap/bootstrap.h"
#include "host/driver/driver_probe.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

int main() {
  shmem_init();
  gio::runtime& r = gio::rt();
  char name[SHMEM_MAX_NAME_LEN];
  shmem_info_get_name(name);
  int major, minor;
  shmem_info_get_version(&major, &minor);
  for (int pe = 0; pe < r.n_pes; ++pe) {
    gio::boot::barrier("gio-info");
    if (pe != r.my_pe) continue;
    if (pe == 0) {
      printf("%s, OpenSHMEM %d.%d, contract v%d.%d\n", name, major, minor, GIO_CONTRACT_MAJOR, GIO_CONTRACT_MINOR);
      printf("platform: %s (%d device(s) visible)\n", gio::gpu::platform_name(), gio::gpu::device_count());
      printf("PEs: %d\n", r.n_pes);
      printf("bootstrap: %s: %s (GIO_BOOTSTRAP=auto|mpi|pmix)\n", gio::boot::name(), gio::boot::why());
      // Each transport's own view: what it uses, or would use if chosen.
      gio::transport_each([&](const gio::transport_ops& t) {
        if (t.describe) t.describe(r, stdout);
      });
      // The kernel side (driver-patches/): what the running drivers offer, asked, never assumed.
      // Only AMD GPUs use it (their flush page and VRAM as dma-bufs for a ConnectX).
#if defined(GIO_PLATFORM_HIP)
      fputs(gio::drv::describe(gio::drv::probe()).c_str(), stdout);
#else
      printf("driver: driver-patches/ serve AMD GPUs (the hip platform); the %s platform uses none\n",
             gio::gpu::platform_name());
#endif
    }
    printf("PE %d: device %d: %s\n", pe, r.device, gio::gpu::device_description(r.device).c_str());
    // The two heaps (docs/heaps.md): where each lies, what allocates from it, what sizes it.
    const char* gpu_memory = strcmp(gio::gpu::platform_name(), "host") == 0 ? "host memory standing for GPU memory"
                                                                           : "GPU memory";
    printf("PE %d: GPU heap %llu bytes (%llu reserved), %s; shmemg_malloc%s allocates from it; %u work-group "
           "contexts\n", pe, (unsigned long long)r.heap_size, (unsigned long long)GIO_HEAP_RESERVED, gpu_memory,
           r.cpu.base ? "" : " and shmem_malloc (GIO_DEFAULT_HEAP=gpu)", (unsigned)r.cfg.GIO_NUM_CONTEXTS);
    // What shmemg_malloc can hand out: the heap less what GIO took at init (its reserved head,
    // the teams' table and collective areas), measured on the allocator itself.
    printf("PE %d: a program can allocate %llu bytes of it (largest block %llu); GIO keeps %llu for its own "
           "tables; SHMEM_DEVICE_SYMMETRIC_SIZE (or GIO_SYMMETRIC_SIZE) sets the GPU heap\n", pe,
           (unsigned long long)r.alloc->bytes_free(), (unsigned long long)r.alloc->largest_free(),
           (unsigned long long)(r.heap_size - r.alloc->bytes_free()));
    if (r.cpu.base) {
      int mapped = 0;
      for (uint8_t* m : r.cpu.peer_mapped) mapped += m != nullptr;
      printf("PE %d: default heap %llu bytes, host memory (a shared file, mapped by %d PE(s) of this node%s); "
             "shmem_malloc allocates from it, %llu bytes free; SHMEM_SYMMETRIC_SIZE sets it\n", pe,
             (unsigned long long)r.cpu.size, mapped,
             r.cpu.kernels_reach ? ", kernels reach it zero-copy" : "; host code only",
             (unsigned long long)r.cpu.alloc->bytes_free());
    } else {
      printf("PE %d: default heap: none, shmem_malloc takes the GPU heap (GIO_DEFAULT_HEAP=gpu)\n", pe);
    }
    // Per peer: the transport, how it reaches the peer, and why the selector chose it.
    for (int q = 0; q < r.n_pes; ++q) printf("PE %d -> PE %d: %s\n", pe, q, r.peers[q].why.c_str());
    gio::transport_each([&](const gio::transport_ops& t) {
      if (t.describe_pe) t.describe_pe(r, stdout);
    });
    fflush(stdout);
  }
  gio::boot::barrier("gio-info");
  if (r.n_pes == 1)
    printf("transports: a 1-PE job has no peer to reach; run it as a program runs, under oshrun (oshrun -n 2 "
           "gio-info), to see how each PE reaches the others and why\n");
  if (r.my_pe == 0) {
    printf("settings (environment, else default):\n");
    gio::config_print(r.cfg, stdout);
  }
  shmem_finalize();
  return 0;
}
