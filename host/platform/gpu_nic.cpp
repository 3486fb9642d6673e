// cuda and hip platforms: the softnic's engine, its copies and atomics, which must never wait for
// (or block) the running kernels that wait for their completion.
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}: the #if branches below
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "host/platform/gpu_runtime.h"
#include "host/platform/nic_wait.h"
#include "host/runtime.h"

namespace gio {
namespace gpu {
namespace {
// The softnic's engine: a non-blocking stream (it must not serialize with the legacy default
// stream, where the kernel waiting for this very completion runs) and a pinned result word. Both
// are made by nic_prepare() during shmem_init: allocating pinned memory later, while a kernel
// spins on a completion, can wait for that kernel and deadlock.
hipStream_t g_nic_stream = nullptr;
unsigned long long* g_nic_result = nullptr;
// Same-device copies go through this pinned buffer (see nic_copy).
constexpr size_t kNicStage = 1u << 20;
uint8_t* g_nic_stage = nullptr;
// The proxy's asynchronous copies: a stream of their own (the softnic's waits for its whole stream)
// and an event after each copy, reused round robin; tickets complete in order, so `g_copy_done`
// counts the completed ones.
constexpr unsigned kCopyEvents = 64;
hipStream_t g_copy_stream = nullptr;
hipEvent_t g_copy_events[kCopyEvents];
uint64_t g_copy_issued = 0, g_copy_done = 0;

// The device holding p, or -1 for host memory.
int device_of(const void* p) {
  hipPointerAttribute_t a;
  if (hipPointerGetAttributes(&a, p) != hipSuccess) {
    (void)hipGetLastError();
    return -1;
  }
#if defined(GIO_PLATFORM_CUDA)
  const bool on_device = a.type == cudaMemoryTypeDevice;
#else
  const bool on_device = a.memoryType == hipMemoryTypeDevice;  // HIP 5.2 names the field so
#endif
  return on_device ? a.device : -1;
}

// Waits for the softnic's stream. What the softnic issues must never need an SM: the kernel that
// is waiting for this very completion may hold all of them. Copies between devices and between
// host and device run on copy engines and finish; a same-device copy and the atomic kernel need an
// SM (apps/bench/probes/copy_under_full_gpu.cu). Copies avoid that (nic_copy), and so do atomic sets
// and fetches (nic_amo); a read-modify-write atomic cannot, so a stall is named once instead of
// looking like a NIC that lost the operation. Other processes on the same GPU also delay it: contexts share a GPU in time slices, and theirs may be spinning
// (seen with eight PEs on two GPUs).
// Bounded by GIO_TIMEOUT_MS like every GIO wait: past it the job stops with what was waited for
// (the kernel waiting on this completion would time out at the same bound).
void nic_wait(const char* what) {
  uint64_t waited = 0;
  const bool done = nic_wait_bounded(
      [&] {
        const hipError_t e = hipStreamQuery(g_nic_stream);
        if (e != hipSuccess && e != hipErrorNotReady) check(e, "softnic", what);
        return e == hipSuccess;
      },
      [&] {
        info(0, "softnic: %s has not finished after 1 s while this GPU's kernels wait on it. Three causes "
                "are known: CUDA lazy module loading (a load waits for the running kernels; run with "
                "CUDA_MODULE_LOADING=EAGER, as giorun does); a GPU whose SMs are all held (atomics run "
                "as a one-thread kernel: leave room for one more work-group, or use GIO_TRANSPORT=p2p); "
                "and other processes spinning on the same GPU, which get it in time slices (run one PE "
                "per GPU)",
             what);
      },
      rt().cfg.GIO_TIMEOUT_MS, &waited);
  if (!done)
    fatal(GIO_ERR_TIMEOUT, "softnic", "waited %llu ms (GIO_TIMEOUT_MS) for %s on the softnic's stream; it never "
          "finished (see the softnic line above for the known causes)", (unsigned long long)waited, what);
}
}  // namespace

void nic_prepare() {
  // Load the atomic kernels now. With lazy module loading (CUDA's default), the first launch of a
  // kernel loads its module, which waits for running kernels: from the softnic, while a kernel
  // spins on this very atomic's completion, that never ends.
  hipFuncAttributes attr;
  check(hipFuncGetAttributes(&attr, (const void*)amo_kernel<unsigned int>), "shmem_init", "loading the atomic kernel");
  check(hipFuncGetAttributes(&attr, (const void*)amo_kernel<unsigned long long>), "shmem_init",
        "loading the atomic kernel");
  if (!g_nic_stream) check(hipStreamCreateWithFlags(&g_nic_stream, hipStreamNonBlocking), "shmem_init", "hipStreamCreateWithFlags");
  if (!g_nic_result)
    check(hipHostMalloc((void**)&g_nic_result, sizeof(unsigned long long), hipHostMallocDefault), "shmem_init", "hipHostMalloc");
  if (!g_nic_stage) check(hipHostMalloc((void**)&g_nic_stage, kNicStage, hipHostMallocDefault), "shmem_init", "hipHostMalloc");
  if (!g_copy_stream) {
    check(hipStreamCreateWithFlags(&g_copy_stream, hipStreamNonBlocking), "shmem_init", "hipStreamCreateWithFlags");
    for (hipEvent_t& e : g_copy_events)
      check(hipEventCreateWithFlags(&e, hipEventDisableTiming), "shmem_init", "hipEventCreateWithFlags");
  }
}

void nic_copy(void* dst, const void* src, size_t n) {
  const int dd = device_of(dst);
  if (dd < 0 || dd != device_of(src)) {  // host<->device or device<->peer: a copy engine
    check(hipMemcpyAsync(dst, src, n, hipMemcpyDefault, g_nic_stream), "softnic", "hipMemcpyAsync");
    char what[128];
    snprintf(what, sizeof what, "a copy of %zu bytes from %p to %p", n, src, dst);
    nic_wait(what);
    return;
  }
  // Within one device the runtime copies with a kernel, which cannot start while the GPU is full:
  // bounce through pinned host memory, two copy-engine hops.
  for (size_t off = 0; off < n; off += kNicStage) {
    const size_t k = n - off < kNicStage ? n - off : kNicStage;
    check(hipMemcpyAsync(g_nic_stage, (const uint8_t*)src + off, k, hipMemcpyDeviceToHost, g_nic_stream), "softnic",
          "hipMemcpyAsync (to the staging buffer)");
    check(hipMemcpyAsync((uint8_t*)dst + off, g_nic_stage, k, hipMemcpyHostToDevice, g_nic_stream), "softnic",
          "hipMemcpyAsync (from the staging buffer)");
    char what[128];
    snprintf(what, sizeof what, "a same-device copy of %zu bytes from %p to %p", k, (const uint8_t*)src + off,
             (uint8_t*)dst + off);
    nic_wait(what);
  }
}

bool nic_copy_done(uint64_t ticket) {
  while (g_copy_done < ticket) {
    const hipError_t e = hipEventQuery(g_copy_events[(g_copy_done + 1) % kCopyEvents]);
    if (e == hipErrorNotReady) return false;
    check(e, "proxy", "hipEventQuery (a staging copy)");
    ++g_copy_done;
  }
  return true;
}

uint64_t nic_copy_start(void* dst, const void* src, size_t n) {
  // Every event in use: the oldest copy frees one. Copy engines finish without any SM, so this
  // wait ends; it is bounded like every wait all the same.
  if (g_copy_issued - g_copy_done == kCopyEvents) {
    uint64_t waited = 0;
    if (!nic_wait_bounded([] { return nic_copy_done(g_copy_done + 1); }, [] {}, rt().cfg.GIO_TIMEOUT_MS, &waited))
      fatal(GIO_ERR_TIMEOUT, "proxy", "a staging copy did not finish in %llu ms (GIO_TIMEOUT_MS)",
            (unsigned long long)waited);
  }
  const int dd = device_of(dst);
  if (dd >= 0 && dd == device_of(src))
    nic_copy(dst, src, n);  // within one device: nic_copy's way, done on return
  else
    check(hipMemcpyAsync(dst, src, n, hipMemcpyDefault, g_copy_stream), "proxy", "hipMemcpyAsync (a staging copy)");
  const uint64_t t = ++g_copy_issued;
  check(hipEventRecord(g_copy_events[t % kCopyEvents], g_copy_stream), "proxy", "hipEventRecord");
  return t;
}

uint64_t nic_amo(void* addr, int op, uint64_t v, uint64_t c, size_t size) {
  // A set is a store and a fetch a load: no read-modify-write, so a copy engine does them and no
  // SM is needed. A kernel at full occupancy (a persistent one, waiting for this very signal) keeps
  // the atomic kernel from ever starting, and signals are SETs in the common case (Jacobi2D's
  // halos and norm). An aligned 4- or 8-byte copy is one transaction on PCIe and NVLink, so it
  // is atomic against device atomics on the word, which L2 serializes with it; the pinned result
  // word is the host side of both. A SET returns nothing (a swap is GIO_AMO_SWAP).
  // A fetch-add of 0 is a fetch: mlx5 has no atomic read, so that is how gda posts one.
  if (op == GIO_AMO_FETCH_ADD && v == 0) op = GIO_AMO_FETCH;
  if ((op == GIO_AMO_SET || op == GIO_AMO_FETCH) && (size == 4 || size == 8) && ((uintptr_t)addr & (size - 1)) == 0) {
    char what[128];
    if (op == GIO_AMO_SET) {
      const uint32_t v32 = (uint32_t)v;
      memcpy(g_nic_result, size == 4 ? (const void*)&v32 : (const void*)&v, size);
      check(hipMemcpyAsync(addr, g_nic_result, size, hipMemcpyDefault, g_nic_stream), "softnic",
            "hipMemcpyAsync (an atomic set)");
      snprintf(what, sizeof what, "an atomic set of %zu bytes at %p (a copy)", size, addr);
      nic_wait(what);
      return 0;
    }
    *g_nic_result = 0;
    check(hipMemcpyAsync(g_nic_result, addr, size, hipMemcpyDefault, g_nic_stream), "softnic",
          "hipMemcpyAsync (an atomic fetch)");
    snprintf(what, sizeof what, "an atomic fetch of %zu bytes at %p (a copy)", size, addr);
    nic_wait(what);
  } else {
    if (size == 4)
      hipLaunchKernelGGL(amo_kernel<unsigned int>, dim3(1), dim3(1), 0, g_nic_stream, (unsigned int*)addr, op,
                         (unsigned int)v, (unsigned int)c, (unsigned int*)g_nic_result);
    else
      hipLaunchKernelGGL(amo_kernel<unsigned long long>, dim3(1), dim3(1), 0, g_nic_stream, (unsigned long long*)addr, op,
                         (unsigned long long)v, (unsigned long long)c, g_nic_result);
    check(hipGetLastError(), "softnic", "launching the atomic kernel");
    char what[128];
    snprintf(what, sizeof what, "the atomic kernel (operation %d on %zu bytes at %p)", op, size, addr);
    nic_wait(what);
  }
  return size == 4 ? (uint64_t)(*(volatile unsigned int*)g_nic_result) : (uint64_t)*(volatile unsigned long long*)g_nic_result;
}

}  // namespace gpu
}  // namespace gio
