// cuda and hip platforms: the heap is device memory exported with CUDA/HIP IPC; peers on the same
// node map it into their own address space, so kernels reach it with plain loads and stores.
// Written with HIP names; on cuda they come from device/platform/cuda_hip_compat.h.
// Compiled by the kernel compiler (nvcc / hipcc): host-initiated atomics run as a one-thread kernel.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>

#include "device/api/host_entry.h"
#include "device/platform/platform.h"  // defines GIO_PLATFORM_*
#include "host/log.h"
#include "host/platform/gpu.h"
#include "host/platform/nic_wait.h"
#include "host/runtime.h"
#if defined(GIO_PLATFORM_CUDA)
#include <cuda.h>  // driver API types only; the entry point comes through the runtime (no -lcuda)
#endif

namespace gio {
namespace gpu {
namespace {
void check(hipError_t e, const char* routine, const char* what) {
  if (e != hipSuccess) fatal(GIO_ERR_PLATFORM, routine, "%s failed: %s", what, hipGetErrorString(e));
}

template <typename U>
__global__ void amo_kernel(U* p, int op, U v, U c, U* out) {
  switch (op) {
    case GIO_AMO_FETCH: *out = atomicOr_system(p, U(0)); break;
    case GIO_AMO_SET:
    case GIO_AMO_SWAP: *out = atomicExch_system(p, v); break;
    case GIO_AMO_CSWAP: *out = atomicCAS_system(p, c, v); break;
    case GIO_AMO_FETCH_ADD: *out = atomicAdd_system(p, v); break;
    case GIO_AMO_FETCH_AND: *out = atomicAnd_system(p, v); break;
    case GIO_AMO_FETCH_OR: *out = atomicOr_system(p, v); break;
    default: *out = atomicXor_system(p, v); break;
  }
  __threadfence_system();
}

// Host API copies and atomics run on streams of their own, never on the legacy default stream:
// that one waits for every running kernel, and a kernel may be waiting for this very operation
// (a host thread signalling it). Each lane is a non-blocking stream with its own pinned result
// word, so host threads (SHMEM_THREAD_MULTIPLE) never read each other's atomic results. A thread
// always takes the lane its id hashes to and holds the lane's lock for one operation.
constexpr int kLanes = 8;
struct host_lane {
  std::mutex m;
  hipStream_t stream = nullptr;
  unsigned long long* result = nullptr;  // pinned; written by the atomic kernel
};
host_lane g_lanes[kLanes];
int g_device = -1;  // this PE's device (select_device)

class lane_guard {
 public:
  explicit lane_guard(const char* routine) {
    // Lane streams belong to this PE's device; a thread the application started may be on another
    // (device 0 until told otherwise). Switch for the operation and give the thread its device back.
    check(hipGetDevice(&user_device_), routine, "hipGetDevice");
    if (user_device_ != g_device) check(hipSetDevice(g_device), routine, "hipSetDevice");
    static thread_local const size_t mine = std::hash<std::thread::id>{}(std::this_thread::get_id()) % kLanes;
    lane_ = &g_lanes[mine];
    lane_->m.lock();
  }
  ~lane_guard() {
    lane_->m.unlock();
    if (user_device_ != g_device) (void)hipSetDevice(user_device_);
  }
  host_lane* operator->() const { return lane_; }

 private:
  host_lane* lane_;
  int user_device_ = -1;
};

void create_lanes(const char* routine) {
  unsigned long long* words = nullptr;
  // One cache line per lane's result word.
  check(hipHostMalloc((void**)&words, kLanes * 64, hipHostMallocDefault), routine, "hipHostMalloc");
  for (int i = 0; i < kLanes; ++i) {
    g_lanes[i].result = words + i * 8;
    check(hipStreamCreateWithFlags(&g_lanes[i].stream, hipStreamNonBlocking), routine, "hipStreamCreateWithFlags");
  }
  // Load the atomic kernels now: under lazy module loading a first launch waits for running
  // kernels, which may be waiting for this atomic.
  hipFuncAttributes attr;
  check(hipFuncGetAttributes(&attr, (const void*)amo_kernel<unsigned int>), routine, "loading the atomic kernel");
  check(hipFuncGetAttributes(&attr, (const void*)amo_kernel<unsigned long long>), routine, "loading the atomic kernel");
}
}  // namespace

#if defined(GIO_PLATFORM_CUDA)
const char* platform_name() { return "cuda"; }
#else
const char* platform_name() { return "hip"; }
#endif

int device_count() {
  int n = 0;
  if (hipGetDeviceCount(&n) != hipSuccess) return 0;
  return n;
}

int select_device(int local_rank) {
#if defined(GIO_PLATFORM_CUDA)
  // Eager module loading unless the user chose otherwise (see giorun: under lazy loading a load
  // waits for running kernels, and the softnic's work is issued while kernels spin on it). Takes
  // effect only if nothing in this process has initialized CUDA yet; giorun sets it for the job.
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
#endif
  int n = device_count();
  if (n <= 0) fatal(GIO_ERR_PLATFORM, "shmem_init", "no GPU is visible to this process");
  int dev = local_rank % n;
  check(hipSetDevice(dev), "shmem_init", "hipSetDevice");
  g_device = dev;
  if (!g_lanes[0].stream) create_lanes("shmem_init");
  return dev;
}

void bind_thread(int device) { check(hipSetDevice(device), "softnic", "hipSetDevice"); }

std::string device_description(int device) {
  hipDeviceProp_t p;
  if (hipGetDeviceProperties(&p, device) != hipSuccess) return "unknown device";
  char buf[512];
  snprintf(buf, sizeof buf, "%s (%d SMs/CUs, %.1f GiB, PCI bus %d)", p.name, p.multiProcessorCount,
           p.totalGlobalMem / double(1ull << 30), p.pciBusID);
  return buf;
}

uint64_t default_heap_size() { return 1ull << 30; }

void* heap_create(size_t bytes, const std::string&, int, heap_handle* out) {
  void* p = nullptr;
  hipError_t e = hipMalloc(&p, bytes);
  if (e != hipSuccess)
    fatal(GIO_ERR_NOMEM, "shmem_init", "cannot allocate a %zu-byte symmetric heap on the GPU (%s); lower GIO_SYMMETRIC_SIZE",
          bytes, hipGetErrorString(e));
  check(hipMemset(p, 0, bytes), "shmem_init", "hipMemset of the heap");
  hipIpcMemHandle_t h;
  check(hipIpcGetMemHandle(&h, p), "shmem_init", "hipIpcGetMemHandle");
  static_assert(sizeof h <= sizeof out->bytes, "IPC handle size");
  memset(out->bytes, 0, sizeof out->bytes);
  memcpy(out->bytes, &h, sizeof h);
  check(hipDeviceSynchronize(), "shmem_init", "hipDeviceSynchronize");
  return p;
}

void* heap_map(const heap_handle& h, size_t, std::string* why) {
  hipIpcMemHandle_t ipc;
  memcpy(&ipc, h.bytes, sizeof ipc);
  void* p = nullptr;
  hipError_t e = hipIpcOpenMemHandle(&p, ipc, hipIpcMemLazyEnablePeerAccess);
  if (e != hipSuccess) {
    *why = std::string("hipIpcOpenMemHandle: ") + hipGetErrorString(e);
    (void)hipGetLastError();
    return nullptr;
  }
  return p;
}

void heap_unmap(void* mapped, size_t) { (void)hipIpcCloseMemHandle(mapped); }
void heap_published(const heap_handle&) {}
void heap_destroy(void* base, size_t) { (void)hipFree(base); }

void copy(void* dst, const void* src, size_t n, const char* routine) {
  lane_guard lane(routine);
  check(hipMemcpyAsync(dst, src, n, hipMemcpyDefault, lane->stream), routine, "hipMemcpyAsync");
  // Host puts promise completion on return (quiet does not wait for them), so wait for the copy.
  check(hipStreamSynchronize(lane->stream), routine, "hipStreamSynchronize");
}

uint64_t amo(void* addr, int op, uint64_t v, uint64_t c, size_t size, const char* routine) {
  lane_guard lane(routine);
  if (size == 4) {
    hipLaunchKernelGGL(amo_kernel<unsigned int>, dim3(1), dim3(1), 0, lane->stream, (unsigned int*)addr, op,
                       (unsigned int)v, (unsigned int)c, (unsigned int*)lane->result);
  } else if (size == 8) {
    hipLaunchKernelGGL(amo_kernel<unsigned long long>, dim3(1), dim3(1), 0, lane->stream, (unsigned long long*)addr,
                       op, (unsigned long long)v, (unsigned long long)c, lane->result);
  } else {
    fatal(GIO_ERR_ARG, routine, "atomic on %zu bytes is not supported", size);
  }
  check(hipGetLastError(), routine, "launching the atomic kernel");
  check(hipStreamSynchronize(lane->stream), routine, "the atomic kernel");
  return size == 4 ? (uint64_t)(*(volatile unsigned int*)lane->result) : (uint64_t)*(volatile unsigned long long*)lane->result;
}

void* queue_alloc(size_t bytes, bool host_visible) {
  void* p = nullptr;
#if defined(GIO_PLATFORM_HIP)
  // AMD: queues the NIC (or the softnic) reads must not sit in the GPU's non-coherent caches:
  // coherent (fine-grained) pinned host memory, or fine-grained device memory.
  const unsigned host_flags = hipHostMallocCoherent;
#else
  const unsigned host_flags = hipHostMallocDefault;
#endif
  if (host_visible) {
    // Pinned, mapped host memory: with unified addressing the kernel uses the same pointer.
    check(hipHostMalloc(&p, bytes, host_flags), "shmem_init", "hipHostMalloc (gda queues)");
    memset(p, 0, bytes);
  } else {
#if defined(GIO_PLATFORM_HIP)
    check(hipExtMallocWithFlags(&p, bytes, hipDeviceMallocFinegrained), "shmem_init",
          "hipExtMallocWithFlags(fine-grained) (gda queues)");
#else
    check(hipMalloc(&p, bytes), "shmem_init", "hipMalloc (gda queues)");
#endif
    check(hipMemset(p, 0, bytes), "shmem_init", "hipMemset (gda queues)");
  }
  return p;
}

uint32_t* nic_flush_register(int device) {
#if defined(GIO_PLATFORM_HIP)
  // The attribute call stores the register's address (a pointer) through its int* argument.
  uint32_t* reg = nullptr;
  check(hipDeviceGetAttribute(reinterpret_cast<int*>(&reg), hipDeviceAttributeHdpMemFlushCntl, device),
        "shmem_init", "hipDeviceGetAttribute(HdpMemFlushCntl)");
  return reg;
#else
  (void)device;
  return nullptr;  // CUDA: the system-scope fence before the doorbell record orders the WQE
#endif
}
void queue_free(void* p, bool host_visible) { host_visible ? (void)hipHostFree(p) : (void)hipFree(p); }

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
// SM (results/probes/copy_under_full_gpu.cu). Copies avoid that (nic_copy); an atomic cannot, so a
// stall is named once instead of looking like a NIC that lost the operation. Other processes on
// the same GPU also delay it: contexts share a GPU in time slices, and theirs may be spinning
// (results/2026-11-22-4xh200-s4/README.md, eight PEs on two GPUs).
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

uint64_t nic_amo(void* addr, int op, uint64_t v, uint64_t c, size_t size) {
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
  return size == 4 ? (uint64_t)(*(volatile unsigned int*)g_nic_result) : (uint64_t)*(volatile unsigned long long*)g_nic_result;
}

void sync(const char* routine) {
  hipError_t e = hipDeviceSynchronize();
  if (e != hipSuccess)
    fatal(GIO_ERR_PLATFORM, routine, "a kernel on this PE failed: %s (see the GIO error printed by the kernel above)",
          hipGetErrorString(e));
}

void* map_io_for_device(void* host_addr, size_t bytes, std::string* why) {
  hipError_t e = hipHostRegister(host_addr, bytes, hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory);
  if (e != hipSuccess) {
    *why = std::string("hipHostRegister(IoMemory) of the NIC doorbell: ") + hipGetErrorString(e);
    (void)hipGetLastError();
    return nullptr;
  }
  void* dev = nullptr;
  e = hipHostGetDevicePointer(&dev, host_addr, 0);
  if (e != hipSuccess) {
    *why = std::string("hipHostGetDevicePointer of the NIC doorbell: ") + hipGetErrorString(e);
    (void)hipHostUnregister(host_addr);
    (void)hipGetLastError();
    return nullptr;
  }
  return dev;
}

void unmap_io_for_device(void* host_addr) { (void)hipHostUnregister(host_addr); }

int heap_dmabuf_fd(void* base, size_t bytes) {
#if defined(GIO_PLATFORM_CUDA) && CUDART_VERSION >= 12000
  // cuMemGetHandleForAddressRange wants page-aligned ranges (cudaMalloc's base is; the size is
  // GIO_SYMMETRIC_SIZE).
  if ((uintptr_t)base % 4096 || bytes % 4096) return -1;
  using get_handle_t = CUresult (*)(void*, CUdeviceptr, size_t, CUmemRangeHandleType, unsigned long long);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  cudaError_t e = cudaGetDriverEntryPointByVersion("cuMemGetHandleForAddressRange", &fn, 12000, cudaEnableDefault, &found);
#else
  cudaError_t e = cudaGetDriverEntryPoint("cuMemGetHandleForAddressRange", &fn, cudaEnableDefault, &found);
#endif
  if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || !fn) {
    (void)cudaGetLastError();
    return -1;
  }
  int fd = -1;
  if (((get_handle_t)fn)(&fd, (CUdeviceptr)(uintptr_t)base, bytes, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0) != CUDA_SUCCESS)
    return -1;
  return fd;
#else
  // HIP (and CUDA before 12) export no dmabuf for the heap here: the NIC then registers it through
  // the peer-memory path (ibv_reg_mr with nvidia_peermem or amdgpu's peer memory).
  (void)base;
  (void)bytes;
  return -1;
#endif
}

}  // namespace gpu
}  // namespace gio
