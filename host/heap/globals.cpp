// The program's writable data segment as symmetric memory (globals.h).
//
// Why a remap: within a node, peers must load, store and run CPU atomics on each other's globals
// (the spec's AMOs on a global, contended by every PE, are exact only with real atomics on one
// copy of the word); cross-memory attach (process_vm_writev) copies bytes but has no atomics.
// A segment backed by a shared file is mapped by peers exactly like the host platform's heap, and
// other nodes reach it through the registrations gda and the proxy make of it.
#include "host/heap/globals.h"

#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "runtime/amo_apply.h"
#include "runtime/host_entry.h"
#include "host/bootstrap/bootstrap.h"
#include "host/heap/shm_file.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {
namespace {

struct range {
  uintptr_t lo = 0, hi = 0;
  bool first = true;
};

// The main program's writable PT_LOADs less their RELRO part (read-only after relocation: remapping
// it writable would undo that), page-rounded inwards at the start and outwards at the end (.bss's
// last page belongs to the program; the brk heap starts on a page of its own).
int find_segment(dl_phdr_info* info, size_t, void* arg) {
  range* r = (range*)arg;
  if (!r->first) return 1;
  r->first = false;  // glibc lists the main program first
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO)
      relro_end = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (relro_end > lo) lo = relro_end < hi ? relro_end : hi;
    lo = (lo + page - 1) & ~(page - 1);
    hi = (hi + page - 1) & ~(page - 1);
    if (lo >= hi) continue;
    if (!r->lo || lo < r->lo) r->lo = lo;
    if (hi > r->hi) r->hi = hi;
  }
  return 1;
}

// Writes the segment's non-zero pages into the file (zero pages stay holes: a large .bss costs no
// shared memory until written). Raw reads and a raw system call, not memcpy/write: the sanitizers
// intercept those and would report the reads of their own redzones between globals.
__attribute__((no_sanitize("address", "thread"))) bool page_is_zero(const uint8_t* p, size_t n) {
  const volatile uint64_t* w = (const volatile uint64_t*)p;
  for (size_t i = 0; i < n / 8; ++i)
    if (w[i]) return false;
  return true;
}
bool copy_out(int fd, uint8_t* base, size_t size, std::string* why) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  for (size_t o = 0; o < size; o += page) {
    if (page_is_zero(base + o, page)) continue;
    for (size_t done = 0; done < page;) {
      const long k = syscall(SYS_pwrite64, fd, base + o + done, page - done, (off_t)(o + done));
      if (k <= 0) {
        *why = std::string("writing it to shared memory: ") + strerror(errno);
        return false;
      }
      done += (size_t)k;
    }
  }
  return true;
}

// The remap itself. Raw mmap for the same reason: the sanitizers' interceptors would reset the
// shadow of the range (ASan's poisoned redzones, TSan's history), though its bytes do not change.
// The file keeps its name until every peer has mapped it (segment_connect); until then an abort or
// a SIGTERM removes it, and a PE killed outright leaves a name the next run sweeps (shm_file.h).
bool remap(data_segment& s, const std::string& dir, std::string* why) {
  shm_file_sweep(dir);
  const std::string path = shm_file_path(dir, "globals");
  const int len = snprintf(s.path, sizeof s.path, "%s", path.c_str());
  if (len < 0 || (size_t)len >= sizeof s.path) {
    *why = "GIO_HOST_SHM_DIR \"" + dir + "\" is too long";
    s.path[0] = 0;
    return false;
  }
  const int fd = open(s.path, O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    *why = std::string("cannot create ") + s.path + ": " + strerror(errno);
    s.path[0] = 0;
    return false;
  }
  shm_file_hold(s.path);
  bool ok = ftruncate(fd, (off_t)s.size) == 0;
  if (!ok) *why = std::string("sizing ") + s.path + ": " + strerror(errno);
  ok = ok && copy_out(fd, s.base, s.size, why);
  if (ok) {
    const long p = syscall(SYS_mmap, s.base, s.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    ok = p == (long)(uintptr_t)s.base;
    // A failed MAP_FIXED leaves the range as it was (the kernel checks before it unmaps).
    if (!ok) *why = std::string("mapping ") + s.path + " over it: " + strerror(errno);
  }
  close(fd);
  if (!ok) {
    shm_file_remove(s.path);
    s.path[0] = 0;
  }
  return ok;
}

}  // namespace

void segment_remap(runtime& r) {
  data_segment& s = r.seg;
  range found;
  dl_iterate_phdr(find_segment, &found);
  if (found.hi <= found.lo) {
    s.why = "the program has no writable data segment outside RELRO";
    return;
  }
  s.base = (uint8_t*)found.lo;
  s.size = found.hi - found.lo;
  std::string why;
  if (!remap(s, r.cfg.GIO_HOST_SHM_DIR, &why)) {
    s.why = "its data segment could not be shared (" + why + ")";
    s.size = 0;
  }
}

void segment_connect(runtime& r) {
  data_segment& s = r.seg;
  uint64_t lo = 0, hi = 0;
  boot::minmax_u64(s.size, &lo, &hi, "shmem_init (data segments)");
  const bool usable = lo == hi && lo != 0;
  if (!usable && s.size && s.why.empty()) {
    char buf[200];
    snprintf(buf, sizeof buf, "the PEs' data segments differ (%llu to %llu bytes): not one program, or a PE could "
             "not share its segment", (unsigned long long)lo, (unsigned long long)hi);
    s.why = buf;
  }
  struct entry {
    uint64_t base;
    char path[96];
  } mine{(uint64_t)(uintptr_t)s.base, {}};
  memcpy(mine.path, s.path, sizeof s.path);
  std::vector<entry> all(r.n_pes);
  boot::allgather(&mine, all.data(), sizeof mine, "shmem_init (data segments)");
  s.peer_mapped.assign(r.n_pes, nullptr);
  s.peer_base.assign(r.n_pes, 0);
  for (int pe = 0; pe < r.n_pes && usable; ++pe) {
    s.peer_base[pe] = all[pe].base;
    if (pe == r.my_pe) {
      s.peer_mapped[pe] = s.base;
      continue;
    }
    if (boot::node_of(pe) != boot::node_of(r.my_pe)) continue;  // the proxy or gda reaches it
    void* p = shm_file_map(all[pe].path, s.size);
    if (p == MAP_FAILED)
      fatal(GIO_ERR_PLATFORM, "shmem_init", "cannot map PE %d's data segment (%s): %s", pe, all[pe].path,
            strerror(errno));
    s.peer_mapped[pe] = (uint8_t*)p;
  }
  boot::barrier("shmem_init (data segments mapped)");
  if (s.path[0]) shm_file_remove(s.path);  // every peer holds its mapping: nothing stays in /dev/shm
  s.path[0] = 0;
  if (!usable) {
    if (s.size && r.my_pe == 0) info(0, "globals are not symmetric: %s", s.why.c_str());
    s.size = 0;
    return;
  }
  info(1, "globals: the program's data segment [%p, %p), %llu bytes, is symmetric", (void*)s.base,
       (void*)(s.base + s.size), (unsigned long long)s.size);
}

void segment_disconnect(runtime& r) {
  data_segment& s = r.seg;
  for (int pe = 0; pe < (int)s.peer_mapped.size(); ++pe)
    if (pe != r.my_pe && s.peer_mapped[pe]) munmap(s.peer_mapped[pe], s.size);
  s.peer_mapped.clear();
  s.peer_base.clear();
}

bool segment_offset(const runtime& r, const void* p, size_t n, uint64_t* off) {
  const data_segment& s = r.seg;
  const uint8_t* a = (const uint8_t*)p;
  if (!s.size || a < s.base || a >= s.base + s.size || n > (size_t)(s.base + s.size - a)) return false;
  *off = GIO_SYM_SEGMENT | (uint64_t)(a - s.base);
  return true;
}

uint8_t* sym_local(const runtime& r, uint64_t off, uint64_t n) {
  if (sym_is_segment(off)) {
    const uint64_t o = off & ~GIO_SYM_SEGMENT;
    return o <= r.seg.size && n <= r.seg.size - o ? r.seg.base + o : nullptr;
  }
  if (sym_is_cpu_heap(off)) {
    const uint64_t o = off & ~GIO_SYM_CPU_HEAP;
    return r.cpu.base && o <= r.cpu.size && n <= r.cpu.size - o ? r.cpu.base + o : nullptr;
  }
  return off <= r.heap_size && n <= r.heap_size - off ? r.heap + off : nullptr;
}

uint8_t* sym_mapped(const runtime& r, uint64_t off, int pe) {
  if (sym_is_cpu_heap(off)) {
    uint8_t* b = pe < (int)r.cpu.peer_mapped.size() ? r.cpu.peer_mapped[pe] : nullptr;
    return b ? b + (off & ~GIO_SYM_CPU_HEAP) : nullptr;
  }
  if (!sym_is_segment(off)) return r.peers[pe].base ? r.peers[pe].base + off : nullptr;
  uint8_t* b = pe < (int)r.seg.peer_mapped.size() ? r.seg.peer_mapped[pe] : nullptr;
  return b ? b + (off & ~GIO_SYM_SEGMENT) : nullptr;
}

uint64_t cpu_amo(void* addr, int op, uint64_t v, uint64_t c, size_t size, const char* routine) {
  if (size == 4) {
    uint32_t old;
    if (amo_apply<cpu_atomics>((uint32_t*)addr, op, (uint32_t)v, (uint32_t)c, old)) return old;
  } else if (size == 8) {
    uint64_t old;
    if (amo_apply<cpu_atomics>((uint64_t*)addr, op, v, c, old)) return old;
  }
  fatal(GIO_ERR_ARG, routine, "atomic operation %d on %zu bytes is not supported", op, size);
}

bool in_host_regions(const runtime& r, const void* p) {
  const uint8_t* a = (const uint8_t*)p;
  for (uint8_t* b : r.seg.peer_mapped)
    if (b && a >= b && a < b + r.seg.size) return true;
  for (uint8_t* b : r.cpu.peer_mapped)
    if (b && a >= b && a < b + r.cpu.size) return true;
  return false;
}

}  // namespace gio
