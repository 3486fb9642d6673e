// Host platform: "device" memory is process memory; a PE's heap is a file in GIO_HOST_SHM_DIR
// (tmpfs) that peers map MAP_SHARED, so loads/stores/atomics from any PE reach it as on a GPU.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "runtime/host_entry.h"
#include "host/heap/shm_file.h"
#include "host/log.h"
#include "host/platform/gpu.h"
#include "runtime/api/strided_shape.h"
#include "host/runtime.h"

namespace gio {
namespace gpu {

const char* platform_name() { return "host"; }
int device_count() { return 1; }
int select_device(int) { return 0; }
void bind_thread(int) {}
std::string device_description(int) {
  return "CPU emulation (" + std::to_string(std::thread::hardware_concurrency()) +
         " cores; each work-group an OS thread, each GPU thread a fiber)";
}
uint64_t default_heap_size() { return 64ull << 20; }

void* heap_create(size_t bytes, const std::string& tag, int, heap_handle* out) {
  const std::string& dir = rt().cfg.GIO_HOST_SHM_DIR;
  // The file keeps its name until every peer has mapped it (heap_published); until then an abort
  // or a SIGTERM removes it, and a PE killed outright leaves a name the next run sweeps (shm_file.h).
  shm_file_sweep(dir);
  std::string path = shm_file_path(dir, "heap", tag);
  if (path.size() + 1 > sizeof out->bytes)
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_HOST_SHM_DIR path \"%s\" is too long", dir.c_str());
  struct statvfs vfs;
  if (statvfs(dir.c_str(), &vfs) == 0 && (uint64_t)vfs.f_bavail * vfs.f_frsize < bytes)
    fatal(GIO_ERR_NOMEM, "shmem_init",
          "GIO_HOST_SHM_DIR %s has %llu bytes free, the symmetric heap needs %llu (lower GIO_SYMMETRIC_SIZE)",
          dir.c_str(), (unsigned long long)vfs.f_bavail * vfs.f_frsize, (unsigned long long)bytes);
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) fatal(GIO_ERR_PLATFORM, "shmem_init", "cannot create %s: %s", path.c_str(), strerror(errno));
  shm_file_hold(path.c_str());
  if (ftruncate(fd, (off_t)bytes) != 0)
    fatal(GIO_ERR_PLATFORM, "shmem_init", "cannot size %s to %zu bytes: %s", path.c_str(), bytes, strerror(errno));
  // shmem_align needs every PE's base at the same offset modulo the alignment; mmap promises only a
  // page. Reserve slack and place the file on the heap size's largest power of two (at least 2 MiB,
  // a GPU allocation's), so every alignment the heap can hold works; the slack is address space
  // only and is given back.
  size_t base_align = 2u << 20;
  while (base_align <= bytes / 2) base_align *= 2;
  void* slack = mmap(nullptr, bytes + base_align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (slack == MAP_FAILED) fatal(GIO_ERR_PLATFORM, "shmem_init", "cannot reserve %zu bytes: %s", bytes, strerror(errno));
  uint8_t* aligned = (uint8_t*)(((uintptr_t)slack + base_align - 1) & ~(uintptr_t)(base_align - 1));
  void* p = mmap(aligned, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) fatal(GIO_ERR_PLATFORM, "shmem_init", "cannot map %s: %s", path.c_str(), strerror(errno));
  if (aligned > (uint8_t*)slack) munmap(slack, aligned - (uint8_t*)slack);
  if ((uint8_t*)slack + base_align > aligned) munmap(aligned + bytes, (uint8_t*)slack + base_align - aligned);
  memset(out->bytes, 0, sizeof out->bytes);
  memcpy(out->bytes, path.c_str(), path.size());
  return p;
}

void* heap_map(const heap_handle& h, size_t bytes, std::string* why) {
  const char* path = (const char*)h.bytes;
  int fd = open(path, O_RDWR);
  if (fd < 0) {
    *why = std::string("open ") + path + ": " + strerror(errno);
    return nullptr;
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) {
    *why = std::string("mmap ") + path + ": " + strerror(errno);
    return nullptr;
  }
  return p;
}

void heap_unmap(void* mapped, size_t bytes) { munmap(mapped, bytes); }
// Every peer holds its own mapping now; dropping the name means nothing is left behind in
// GIO_HOST_SHM_DIR even if the job is killed later.
void heap_published(const heap_handle& h) { shm_file_remove((const char*)h.bytes); }
void heap_destroy(void* base, size_t bytes) { munmap(base, bytes); }

void copy(void* dst, const void* src, size_t n, const char*) { memmove(dst, src, n); }

void copy_strided(void* dst, const void* src, const gio_strided_shape& sh, const char*) {
  const size_t n = shape_blocks(sh);
  for (size_t i = 0; i < n; ++i) {
    size_t od, os;
    shape_offsets(sh, i, od, os);
    memmove((uint8_t*)dst + od, (const uint8_t*)src + os, sh.block);
  }
}

// The host platform's GPU memory is the CPU's: its atomics are the CPU's (globals.cpp).
uint64_t amo(void* addr, int op, uint64_t v, uint64_t c, size_t size, const char* routine) {
  return cpu_amo(addr, op, v, c, size, routine);
}

void sync(const char*) {}

void* queue_alloc(size_t bytes, bool) {
  void* p = nullptr;
  if (posix_memalign(&p, 4096, bytes) != 0) fatal(GIO_ERR_NOMEM, "shmem_init", "cannot allocate %zu bytes of gda queues", bytes);
  memset(p, 0, bytes);
  return p;
}
void queue_free(void* p, bool) { free(p); }
uint32_t* nic_flush_register(int) { return nullptr; }  // CPU threads: the atomic fence suffices
void nic_prepare() {}
// A NIC writes a naturally aligned word whole and after the bytes its queue wrote before it, and
// kernels wait on such words (a signal set, a flag put by shmem_p) with atomic loads while the
// softnic thread writes them. So a small copy (every inline put and signal set) stores word by
// word, atomically and with release order (plain moves on x86): memmove may copy a word in
// pieces, and it gave a waiter's acquire nothing to synchronise with (TSan, test_signal over gda:
// a PE's signal set to itself raced with its own shmem_signal_wait_until). Larger copies are
// bulk data, which the waiter reads after such a word or a CQE.
void nic_copy(void* dst, const void* src, size_t n) {
  constexpr size_t kWordCopyMax = 64;
  const uintptr_t d = (uintptr_t)dst, sa = (uintptr_t)src;
  if (n > kWordCopyMax || (d < sa + n && sa < d + n)) {  // bulk data, or overlapping: memmove's job
    memmove(dst, src, n);
    return;
  }
  const uintptr_t a = d | n;  // the widest unit that divides address and size
  const unsigned char* in = (const unsigned char*)src;
  unsigned char* out = (unsigned char*)dst;
  auto units = [&](auto unit) {
    for (size_t i = 0; i < n; i += sizeof unit) {
      memcpy(&unit, in + i, sizeof unit);  // the source may be unaligned (inline data in a WQE)
      __atomic_store_n((decltype(unit)*)(out + i), unit, __ATOMIC_RELEASE);
    }
  };
  if (a % 8 == 0) units(uint64_t{});
  else if (a % 4 == 0) units(uint32_t{});
  else if (a % 2 == 0) units(uint16_t{});
  else units(uint8_t{});
}
uint64_t nic_amo(void* addr, int op, uint64_t v, uint64_t c, size_t size) { return amo(addr, op, v, c, size, "softnic"); }

// Emulated kernels are CPU threads: they store to the NIC's register where the process mapped it.
void* map_io_for_device(void* host_addr, size_t, std::string*) { return host_addr; }
void unmap_io_for_device(void*) {}
void host_register(void*, size_t, const char*) {}
bool host_register_mapped(void*, size_t, std::string*) { return true; }
bool is_host_memory(const void*) { return true; }
uint64_t default_cpu_heap_size() { return 64ull << 20; }
void host_unregister(void*) {}
int heap_dmabuf_fd(int, void*, size_t, uint64_t*, std::string* how) {
  *how = "the heap is ordinary process memory (ibv_reg_mr)";
  return -1;
}
std::string pci_bdf(int) { return ""; }

}  // namespace gpu
}  // namespace gio
