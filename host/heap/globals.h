// Symmetric global and static variables of the host program: its writable data segment (.data,
// .bss, file and function statics), remapped by shmem_init onto shared memory so that peers on the
// node map it as they map the heap, and registered with gda and the proxy like the heap.
//
// A symmetric offset (what host_sym_offset returns and the host transports carry) names the GPU
// heap (bits 63 and 62 clear: the heap offset), the segment (GIO_SYM_SEGMENT | the offset from the
// segment's base) or the default heap (GIO_SYM_CPU_HEAP | the offset from its base,
// host/heap/cpu_heap.h). PEs run one executable, so a global lies at the same offset from every
// PE's segment base even where PIE and ASLR place the segments at different addresses. The
// segment and the default heap are host memory on every platform; the GPU heap is host memory
// only on the host platform.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#define GIO_SYM_SEGMENT (1ull << 63)
#define GIO_SYM_CPU_HEAP (1ull << 62)
#define GIO_SYM_REGION_MASK (GIO_SYM_SEGMENT | GIO_SYM_CPU_HEAP)

namespace gio {
struct runtime;

struct data_segment {
  uint8_t* base = nullptr;  // page-aligned start in this process
  uint64_t size = 0;        // bytes; 0 when globals are not symmetric (then `why` says why)
  std::string why;
  char path[96] = {};       // its shared-memory file until every peer has mapped it
  std::vector<uint8_t*> peer_mapped;  // [pe] the peer's segment mapped here (this PE's: base); nullptr if not
  std::vector<uint64_t> peer_base;    // [pe] its base in its own process (gda's raddr)
};

// At the very start of shmem_init, before GIO or MPI starts a thread: copies the segment into a
// shared-memory file and maps that over it in place. A segment that cannot be remapped leaves
// globals non-symmetric (size 0, `why`), which only their use as a remote address reports.
void segment_remap(runtime& r);
// After p2p_connect (collective): checks every PE has the same segment size (the same program),
// exchanges bases and maps every same-node peer's segment.
void segment_connect(runtime& r);
// shmem_finalize: unmaps the peers' segments; this PE's stays shared (the program still uses it).
void segment_disconnect(runtime& r);

inline bool sym_is_segment(uint64_t off) { return (off & GIO_SYM_SEGMENT) != 0; }
inline bool sym_is_cpu_heap(uint64_t off) { return (off & GIO_SYM_CPU_HEAP) != 0; }
// Host memory on every platform (a global or a default-heap block): CPU atomics, not the GPU's.
inline bool sym_is_host_memory(uint64_t off) { return (off & GIO_SYM_REGION_MASK) != 0; }
// The symmetric offset of [p, p + n) in this PE's segment, or false if it is not inside.
bool segment_offset(const runtime& r, const void* p, size_t n, uint64_t* off);
// Symmetric offset -> this PE's address of it; nullptr unless [off, off + n) is inside the heap or
// the segment (the checks of a request a peer sent).
uint8_t* sym_local(const runtime& r, uint64_t off, uint64_t n);
// Symmetric offset -> the peer's bytes as mapped here (p2p, the softnic); nullptr if not mapped.
uint8_t* sym_mapped(const runtime& r, uint64_t off, int pe);

// An atomic on host memory (a segment or a default heap is host memory on every platform: the cuda
// and hip atomic kernels cannot reach it); the same operations and results as gpu::amo.
uint64_t cpu_amo(void* addr, int op, uint64_t value, uint64_t compare, size_t size, const char* routine);
// Whether p lies in a segment or a default heap mapped here, this PE's or a peer's (then atomics
// on it are cpu_amo's).
bool in_host_regions(const runtime& r, const void* p);

}  // namespace gio
