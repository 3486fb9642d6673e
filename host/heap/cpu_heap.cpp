// The default symmetric heap: host memory in a shared file per PE (cpu_heap.h).
#include "host/heap/cpu_heap.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "host/bootstrap/bootstrap.h"
#include "host/heap/shm_file.h"
#include "host/log.h"
#include "host/platform/gpu.h"
#include "host/runtime.h"

namespace gio {
namespace {

// shmem_align needs every PE's base at the same offset modulo the alignment, and mmap promises
// only a page: the heap is placed on its size's largest power of two (at least 2 MiB), so every
// alignment it can hold is symmetric. The slack is address space only and is given back.
uint8_t* map_aligned(int fd, uint64_t bytes, const char* path) {
  uint64_t align = 2u << 20;
  while (align <= bytes / 2) align *= 2;
  void* slack = mmap(nullptr, bytes + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (slack == MAP_FAILED)
    fatal(GIO_ERR_NOMEM, "shmem_init", "cannot reserve %llu bytes of address space for the default heap: %s",
          (unsigned long long)bytes, strerror(errno));
  uint8_t* at = (uint8_t*)(((uintptr_t)slack + align - 1) & ~(uintptr_t)(align - 1));
  void* p = mmap(at, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  if (p == MAP_FAILED) fatal(GIO_ERR_PLATFORM, "shmem_init", "cannot map %s: %s", path, strerror(errno));
  if (at > (uint8_t*)slack) munmap(slack, at - (uint8_t*)slack);
  if ((uint8_t*)slack + align > at) munmap(at + bytes, (uint8_t*)slack + align - at);
  return at;
}

}  // namespace

void cpu_heap_create(runtime& r) {
  cpu_heap& h = r.cpu;
  if (r.cfg.GIO_DEFAULT_HEAP == "gpu") return;  // shmem_malloc takes the GPU heap: no default heap
  const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t size = r.cfg.SHMEM_SYMMETRIC_SIZE ? r.cfg.SHMEM_SYMMETRIC_SIZE : gpu::default_cpu_heap_size();
  size = (size + page - 1) / page * page;
  uint64_t lo, hi;
  boot::minmax_u64(size, &lo, &hi, "shmem_init (default heap size)");
  if (lo != hi)
    fatal(GIO_ERR_COLLECTIVE, "shmem_init", "default heap size %llu differs between PEs (from %llu to %llu): set the "
          "same SHMEM_SYMMETRIC_SIZE everywhere", (unsigned long long)size, (unsigned long long)lo,
          (unsigned long long)hi);
  const std::string& dir = r.cfg.GIO_HOST_SHM_DIR;
  shm_file_sweep(dir);
  const std::string path = shm_file_path(dir, "cpuheap");
  if (path.size() + 1 > sizeof h.path)
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_HOST_SHM_DIR path \"%s\" is too long", dir.c_str());
  struct statvfs vfs;
  if (statvfs(dir.c_str(), &vfs) == 0 && (uint64_t)vfs.f_bavail * vfs.f_frsize < size)
    fatal(GIO_ERR_NOMEM, "shmem_init", "GIO_HOST_SHM_DIR %s has %llu bytes free, the default heap needs %llu (lower "
          "SHMEM_SYMMETRIC_SIZE)", dir.c_str(), (unsigned long long)vfs.f_bavail * vfs.f_frsize,
          (unsigned long long)size);
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) fatal(GIO_ERR_PLATFORM, "shmem_init", "cannot create %s: %s", path.c_str(), strerror(errno));
  memcpy(h.path, path.c_str(), path.size() + 1);
  shm_file_hold(h.path);
  if (ftruncate(fd, (off_t)size) != 0)
    fatal(GIO_ERR_PLATFORM, "shmem_init", "cannot size %s to %llu bytes: %s", h.path, (unsigned long long)size,
          strerror(errno));
  h.base = map_aligned(fd, size, h.path);
  close(fd);
  h.size = size;
  h.alloc.reset(new heap_allocator(0, size, GIO_HEAP_MIN_ALIGN));
}

void cpu_heap_connect(runtime& r) {
  cpu_heap& h = r.cpu;
  // Every PE agrees on whether there is a default heap: GIO_DEFAULT_HEAP must be set alike.
  uint64_t lo, hi;
  boot::minmax_u64(h.size ? 1 : 0, &lo, &hi, "shmem_init (default heap)");
  if (lo != hi)
    fatal(GIO_ERR_COLLECTIVE, "shmem_init", "GIO_DEFAULT_HEAP is \"%s\" here and differs on other PEs: set it alike "
          "everywhere", r.cfg.GIO_DEFAULT_HEAP.c_str());
  if (!h.size) return;
  struct entry {
    char path[96];
  } mine{};
  memcpy(mine.path, h.path, sizeof h.path);
  std::vector<entry> all(r.n_pes);
  boot::allgather(&mine, all.data(), sizeof mine, "shmem_init (default heaps)");
  h.peer_mapped.assign(r.n_pes, nullptr);
  for (int pe = 0; pe < r.n_pes; ++pe) {
    if (pe == r.my_pe) {
      h.peer_mapped[pe] = h.base;
      continue;
    }
    // GIO_NODE_PER_PE plays every peer on a node of its own: the network (the proxy) reaches it.
    if (r.cfg.GIO_NODE_PER_PE || boot::node_of(pe) != boot::node_of(r.my_pe)) continue;
    void* p = shm_file_map(all[pe].path, h.size);
    if (p == MAP_FAILED)
      fatal(GIO_ERR_PLATFORM, "shmem_init", "cannot map PE %d's default heap (%s): %s", pe, all[pe].path,
            strerror(errno));
    h.peer_mapped[pe] = (uint8_t*)p;
  }
  boot::barrier("shmem_init (default heaps mapped)");
  shm_file_remove(h.path);  // every peer holds its mapping: nothing stays in GIO_HOST_SHM_DIR
  h.path[0] = 0;
  // Kernels reach the default heap zero-copy: this PE's, and node-local peers' through shmem_ptr.
  h.kernels_reach = true;
  for (uint8_t* m : h.peer_mapped) {
    if (!m) continue;
    std::string why;
    if (gpu::host_register_mapped(m, h.size, &why)) {
      h.registered.push_back(m);
    } else {
      if (h.kernels_reach) info(0, "the default heap is out of kernels' reach: %s", why.c_str());
      h.kernels_reach = false;
    }
  }
  info(1, "default heap: %llu bytes at %p (host memory, %s)", (unsigned long long)h.size, (void*)h.base,
       h.kernels_reach ? "kernels reach it zero-copy" : "host code only");
}

void cpu_heap_destroy(runtime& r) {
  cpu_heap& h = r.cpu;
  for (uint8_t* m : h.registered) gpu::host_unregister(m);
  h.registered.clear();
  for (int pe = 0; pe < (int)h.peer_mapped.size(); ++pe)
    if (h.peer_mapped[pe]) munmap(h.peer_mapped[pe], h.size);
  if (h.base && h.peer_mapped.empty()) munmap(h.base, h.size);
  if (h.path[0]) shm_file_remove(h.path);
  h.path[0] = 0;
  h.peer_mapped.clear();
  h.alloc.reset();
  h.base = nullptr;
  h.size = 0;
  h.kernels_reach = false;
}

bool cpu_heap_offset(const runtime& r, const void* p, size_t n, uint64_t* off) {
  const cpu_heap& h = r.cpu;
  const uint8_t* a = (const uint8_t*)p;
  if (!h.base || a < h.base || a >= h.base + h.size || n > (size_t)(h.base + h.size - a)) return false;
  *off = GIO_SYM_CPU_HEAP | (uint64_t)(a - h.base);
  return true;
}

bool in_cpu_heap(const runtime& r, const void* p) {
  const uint8_t* a = (const uint8_t*)p;
  return r.cpu.base && a >= r.cpu.base && a < r.cpu.base + r.cpu.size;
}

}  // namespace gio
