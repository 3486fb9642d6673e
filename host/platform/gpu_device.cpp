// cuda and hip platforms: the device a PE uses, the gda queue memory, the NIC's doorbell mapping
// and the synchronization that turns a trapped kernel into a fatal error.
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}: the #if branches below
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "host/platform/gpu_runtime.h"

namespace gio {
namespace gpu {
namespace {
int g_device = -1;
}  // namespace

int pe_device() { return g_device; }

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
  host_lanes_create("shmem_init");
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

std::string pci_bdf(int device) {
  hipDeviceProp_t p;
  if (hipGetDeviceProperties(&p, device) != hipSuccess) return "";
  char buf[32];
  snprintf(buf, sizeof buf, "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID, p.pciDeviceID);
  return buf;
}

uint64_t default_heap_size() { return 1ull << 30; }
uint64_t default_cpu_heap_size() { return 256ull << 20; }

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
    // Uncached VRAM (KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED: the GPU maps it MTYPE_UC, upstream since
    // before 6.1, so no driver patch) where this HIP names it; a driver without it refuses the
    // flag, and fine-grained memory, coherent with the NIC as well, serves instead.
#if defined(hipDeviceMallocUncached)
    if (hipExtMallocWithFlags(&p, bytes, hipDeviceMallocUncached) != hipSuccess) {
      (void)hipGetLastError();
      p = nullptr;
    }
#endif
    if (!p)
      check(hipExtMallocWithFlags(&p, bytes, hipDeviceMallocFinegrained), "shmem_init",
            "hipExtMallocWithFlags(fine-grained) (gda queues)");
#else
    check(hipMalloc(&p, bytes), "shmem_init", "hipMalloc (gda queues)");
#endif
    check(hipMemset(p, 0, bytes), "shmem_init", "hipMemset (gda queues)");
    // hipMemset of device memory is asynchronous, on the null stream, and the copies that fill the
    // block next run on the host API's non-blocking streams: unsynchronized, the zeroing could
    // land after them. It did for the proxy's ring descriptors, copied right after this returns.
    check(hipDeviceSynchronize(), "shmem_init", "hipDeviceSynchronize (zeroing queue memory)");
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

void host_register(void* p, size_t bytes, const char* routine) {
  const hipError_t e = hipHostRegister(p, bytes, hipHostRegisterPortable);
  if (e != hipSuccess)
    fatal(GIO_ERR_PLATFORM, routine, "hipHostRegister of %zu bytes at %p: %s", bytes, p, hipGetErrorString(e));
}
void host_unregister(void* p) { (void)hipHostUnregister(p); }

bool is_host_memory(const void* p) {
  hipPointerAttribute_t a;
  if (hipPointerGetAttributes(&a, p) != hipSuccess) {  // memory the runtime never saw: pageable host memory
    (void)hipGetLastError();
    return true;
  }
#if defined(GIO_PLATFORM_CUDA)
  return a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged;
#else
  return a.memoryType != hipMemoryTypeDevice;  // HIP 5.2 names the field so
#endif
}

bool host_register_mapped(void* p, size_t bytes, std::string* why) {
  hipError_t e = hipHostRegister(p, bytes, hipHostRegisterPortable | hipHostRegisterMapped);
  if (e != hipSuccess) {
    *why = std::string("hipHostRegister(mapped): ") + hipGetErrorString(e);
    (void)hipGetLastError();
    return false;
  }
  // Unified addressing gives the device the host's address; a GPU that needs another one would
  // make shmem_ptr's and the program's pointers wrong in kernels, so it is refused instead.
  void* dev = nullptr;
  e = hipHostGetDevicePointer(&dev, p, 0);
  if (e != hipSuccess || dev != p) {
    *why = e != hipSuccess ? std::string("hipHostGetDevicePointer: ") + hipGetErrorString(e)
                           : "the GPU maps it at another address than the host's";
    (void)hipGetLastError();
    (void)hipHostUnregister(p);
    return false;
  }
  return true;
}

}  // namespace gpu
}  // namespace gio
