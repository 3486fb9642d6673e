// cuda and hip platforms: the heap is device memory exported with CUDA/HIP IPC; peers on the same
// node map it into their own address space, so kernels reach it with plain loads and stores. A
// dmabuf of it lets a NIC register it without a peer-memory kernel module.
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}: the #if branches below
#include <cstring>

#include "host/driver/driver_probe.h"
#include "host/platform/gpu_runtime.h"
#if defined(GIO_PLATFORM_CUDA)
#include <cuda.h>  // driver API types only; the entry point comes through the runtime (no -lcuda)
#endif

namespace gio {
namespace gpu {
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

int heap_dmabuf_fd(int device, void* base, size_t bytes, uint64_t* offset, std::string* how) {
  *offset = 0;
#if defined(GIO_PLATFORM_CUDA) && CUDART_VERSION >= 12000
  (void)device;
  // cuMemGetHandleForAddressRange wants page-aligned ranges (cudaMalloc's base is; the size is
  // GIO_SYMMETRIC_SIZE).
  if ((uintptr_t)base % 4096 || bytes % 4096) return *how = "the heap is not page-aligned", -1;
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
    return *how = "the CUDA driver has no cuMemGetHandleForAddressRange", -1;
  }
  int fd = -1;
  if (((get_handle_t)fn)(&fd, (CUdeviceptr)(uintptr_t)base, bytes, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0) != CUDA_SUCCESS)
    return *how = "cuMemGetHandleForAddressRange(DMA_BUF_FD) failed", -1;
  *how = "dma-buf from the CUDA driver";
  return fd;
#elif defined(GIO_PLATFORM_HIP)
  // HIP 5.2 exports no dma-buf for hipMalloc'd memory, and a stock 6.1 KFD has no export ioctl.
  // The KFD patch (driver-patches/amdgpu) adds one; it is asked for only when its probe answers.
  (void)bytes;
  drv::sys_ops sys;
  const drv::caps c = drv::probe(sys);
  drv::export_result x;
  if (!drv::export_vram(sys, c, pci_bdf(device), base, &x, how)) return -1;
  *offset = x.offset;
  *how = "dma-buf from " + x.how;
  return x.fd;
#else
  (void)device, (void)base, (void)bytes;
  *how = "CUDA before 12 exports no dma-buf";
  return -1;
#endif
}

}  // namespace gpu
}  // namespace gio
