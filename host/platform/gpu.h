// What the host runtime needs from the platform: a device per PE, a heap other PEs can map, copies
// and host-initiated atomics on (possibly peer) heap memory. Implemented once for cuda and hip
// (gpu_device.cpp, gpu_heap.cpp, gpu_host_ops.cpp and gpu_nic.cpp, HIP names) and once for the host platform (gpu_host.cpp, shared files).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

struct gio_strided_shape;

namespace gio {
namespace gpu {

// Opaque, fixed-size token a PE sends its peers so they can map its heap.
struct heap_handle {
  unsigned char bytes[128];
};

const char* platform_name();
int device_count();
// Binds this process to a device by node-local rank; returns its index.
int select_device(int local_rank);
// Makes `device` current for the calling thread (runtime threads such as the softnic: a CUDA/HIP
// thread starts on device 0, whatever its process chose).
void bind_thread(int device);
std::string device_description(int device);
// The GPU heap's size when SHMEM_DEVICE_SYMMETRIC_SIZE and GIO_SYMMETRIC_SIZE are "auto".
uint64_t default_heap_size();
// The default (CPU-attached) heap's size when SHMEM_SYMMETRIC_SIZE is "auto".
uint64_t default_cpu_heap_size();

// Allocates this PE's zeroed heap and the handle peers map it with. `tag` is unique per job.
void* heap_create(size_t bytes, const std::string& tag, int pe, heap_handle* out);
// Maps a peer's heap; returns nullptr (and a reason) when it cannot be mapped.
void* heap_map(const heap_handle& h, size_t bytes, std::string* why);
void heap_unmap(void* mapped, size_t bytes);
// Called once every peer has mapped the heap (host platform: removes the file name).
void heap_published(const heap_handle& h);
void heap_destroy(void* base, size_t bytes);

// Whether host code may load and store p directly (host memory, registered or not); false for
// device memory. The host platform: always.
bool is_host_memory(const void* p);
// Synchronous copy between any host or heap addresses (local or peer-mapped).
// copy and amo are the host API's: safe from any number of threads at once, and they never wait
// for (or behind) running kernels, which may be waiting for them.
void copy(void* dst, const void* src, size_t n, const char* routine);
// The strided copy of `shape` (runtime/api/strided_shape.h, simplified) between the same kinds of
// addresses, with the same promises: 2D copies on a copy engine (cuda/hip), memcpy loops (host).
void copy_strided(void* dst, const void* src, const gio_strided_shape& shape, const char* routine);
// Atomic `op` (gio_amo_op) on `size` bytes at a local or peer-mapped heap address; returns old bits.
uint64_t amo(void* addr, int op, uint64_t value, uint64_t compare, size_t size, const char* routine);
// Queue memory for the gda transport: zeroed, visible to kernels at the returned address and, when
// `host_visible`, to CPU threads (the softnic) at the same address.
void* queue_alloc(size_t bytes, bool host_visible);
void queue_free(void* p, bool host_visible);
// AMD: the HDP memory-coherency flush register of `device` (the paper's PPB), which a kernel
// writes after filling WQEs in GPU memory and before the doorbell record, so a reader across PCIe
// sees them. nullptr where no such register is needed (cuda, host).
uint32_t* nic_flush_register(int device);

// The softnic's copy engine: like copy/amo, but never waits for (or blocks) running kernels,
// because the kernel that posted the WQE is still running and waits for its completion.
void nic_prepare();  // once, from shmem_init, before any kernel can wait on the NIC
void nic_copy(void* dst, const void* src, size_t n);
uint64_t nic_amo(void* addr, int op, uint64_t value, uint64_t compare, size_t size);
// The proxy's staging pipeline (one thread, the proxy's): a copy between GPU memory and pinned host
// memory (queue_alloc(.., true)) that runs on a copy engine while the caller goes on. Tickets
// complete in issue order; nic_copy_done polls one. Host platform: queued, and done by a later
// poll (gpu_host_copy.cpp).
uint64_t nic_copy_start(void* dst, const void* src, size_t n);
bool nic_copy_done(uint64_t ticket);

// Waits for all device work and turns a device-side failure (a trapped kernel) into a fatal error.
void sync(const char* routine);

// The ConnectX backend of gda. map_io_for_device makes a NIC register (the UAR doorbell) storable
// from kernels and returns the address they use, or nullptr and a reason (host platform: the
// address itself); unmap_io_for_device undoes it.
void* map_io_for_device(void* host_addr, size_t bytes, std::string* why);
// Pins host memory this process did not allocate through the platform (a shared mapping) so
// copies between it and GPU memory run on copy engines without blocking the caller; a no-op on
// the host platform. Ranges must not overlap one already registered.
void host_register(void* p, size_t bytes, const char* routine);
void host_unregister(void* p);
// Registers host memory (a default heap's mapping) so kernels load, store and run atomics on it at
// the same address, zero-copy; false, and why, where they cannot (then only host code reaches it).
// host_unregister undoes it. The host platform's kernels are CPU threads: always true there.
bool host_register_mapped(void* p, size_t bytes, std::string* why);
void unmap_io_for_device(void* host_addr);
// A dmabuf file descriptor for this PE's heap, so the NIC can register it without a peer-memory
// kernel module; -1 where the platform cannot export one. The caller closes it. `*offset` is where
// `base` lies in the dma-buf (an export may cover a whole allocation), `*how` which way it came
// (CUDA's driver; AMD: the KFD patch of driver-patches/amdgpu) or why none did.
int heap_dmabuf_fd(int device, void* base, size_t bytes, uint64_t* offset, std::string* how);
// The device's PCI address, "DDDD:BB:SS.F" (function 0); "" on the host platform.
std::string pci_bdf(int device);

}  // namespace gpu
}  // namespace gio
