// Symmetric heap and PE queries: malloc/align/calloc/realloc/free give every PE the same layout
// (offsets compared across PEs over MPI), calloc zeroes, realloc keeps contents (shrink, grow in
// place, move), alignment, size 0, a block filling most of the heap; shmem_ptr in host code and in
// kernels, shmem_addr_accessible / shmem_pe_accessible, my_pe / n_pes in kernels, shmem_info_*.
#include "gio_test.h"

#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace giotest;

namespace {
// True when every PE passed the same values.
bool same_on_every_pe(const std::vector<int64_t>& mine) {
  std::vector<int64_t> all(mine.size() * npes());
  MPI_Allgather(mine.data(), (int)mine.size(), MPI_INT64_T, all.data(), (int)mine.size(), MPI_INT64_T,
                MPI_COMM_WORLD);
  for (int pe = 0; pe < npes(); ++pe)
    for (size_t i = 0; i < mine.size(); ++i)
      if (all[pe * mine.size() + i] != mine[i]) return false;
  return true;
}

int64_t diff(const void* a, const void* b) { return (int64_t)((const uint8_t*)a - (const uint8_t*)b); }

std::vector<uint8_t> read_bytes(const void* p, size_t n) {
  std::vector<uint8_t> v(n);
  EXPECT_EQ(hipMemcpy(v.data(), p, n, hipMemcpyDeviceToHost), hipSuccess);
  return v;
}
void write_pattern(void* p, size_t n, unsigned salt) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = pattern(me(), i, salt);
  EXPECT_EQ(hipMemcpy(p, v.data(), n, hipMemcpyHostToDevice), hipSuccess);
}
size_t pattern_errors(const void* p, size_t n, int pe, unsigned salt) {
  std::vector<uint8_t> v = read_bytes(p, n);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += v[i] != pattern(pe, i, salt);
  return bad;
}
}  // namespace

// A mixed sequence of collective calls: every returned block lies at the same distance from the
// first one on every PE, and shmem_align's alignments hold.
TEST(Heap, SameOffsetsOnEveryPE) {
  void* base = shmem_malloc(64);
  ASSERT_NE(base, nullptr);
  std::vector<int64_t> offs;
  void* a = shmem_malloc(100);
  void* b = shmem_align(4096, 1000);
  void* c = shmem_calloc(10, 8);
  offs.insert(offs.end(), {diff(a, base), diff(b, base), diff(c, base)});
  shmem_free(a);
  void* d = shmem_malloc(50);
  b = shmem_realloc(b, 100000);
  void* e = shmem_align(1u << 16, 10);
  c = shmem_realloc(c, 16);
  offs.insert(offs.end(), {diff(d, base), diff(b, base), diff(e, base), diff(c, base)});
  shmem_free(d);
  void* f = shmem_calloc(3, 1000);
  void* g = shmem_realloc(nullptr, 777);  // same as shmem_malloc
  offs.insert(offs.end(), {diff(f, base), diff(g, base)});
  EXPECT_EQ((uintptr_t)e % (1u << 16), 0u);
  EXPECT_EQ(shmem_realloc(g, 0), nullptr);  // frees
  for (void* p : {b, c, e, f}) shmem_free(p);
  void* h = shmem_malloc(5000);
  offs.push_back(diff(h, base));
  shmem_free(h);
  shmem_free(base);
  EXPECT_TRUE(same_on_every_pe(offs)) << "PEs disagree on the heap layout";
}

TEST(Heap, AlignmentHonoured) {
  for (size_t align : {1ul, 8ul, 64ul, 256ul, 1024ul, 4096ul, 65536ul, 1ul << 20, 2ul << 20}) {
    void* pad = shmem_malloc(300);  // so the aligned block does not start at a lucky offset
    void* p = shmem_align(align, 100);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ((uintptr_t)p % align, 0u) << "shmem_align(" << align << ") returned " << p;
    EXPECT_TRUE(same_on_every_pe({diff(p, pad)}));
    shmem_free(p);
    shmem_free(pad);
  }
}

// OpenSHMEM programs ask for 4 MiB and more (huge-page-sized blocks). Every power of two the heap
// can hold works where the platform places the heap itself (host: the base is aligned to the
// heap's largest power of two). On GPUs the heap comes from hipMalloc, aligned to 2 MiB: larger
// alignments work when every PE's base lies at the same offset modulo it, and otherwise stop with a
// message saying so, so this part runs on the host platform only.
TEST(Heap, LargeAlignmentsHonoured) {
#if defined(GIO_PLATFORM_HOST)
  // Up to half of the host platform's default 64 MiB heap (ctest sets no GIO_SYMMETRIC_SIZE).
  for (size_t align : {4ul << 20, 8ul << 20, 16ul << 20, 32ul << 20}) {
    void* pad = shmem_malloc(300);
    void* p = shmem_align(align, 100);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ((uintptr_t)p % align, 0u) << "shmem_align(" << align << ") returned " << p;
    EXPECT_TRUE(same_on_every_pe({diff(p, pad)}));
    shmem_free(p);
    shmem_free(pad);
  }
#else
  GTEST_SKIP() << "alignments above 2 MiB need PEs whose GPU heaps agree modulo the alignment";
#endif
}

TEST(Heap, SizeZeroGivesNull) {
  EXPECT_EQ(shmem_malloc(0), nullptr);
  EXPECT_EQ(shmem_calloc(0, 8), nullptr);
  EXPECT_EQ(shmem_calloc(8, 0), nullptr);
  EXPECT_EQ(shmem_align(64, 0), nullptr);
  shmem_free(nullptr);  // a collective no-op
}

// Dirty a region, free it, and calloc it back (first fit hands out the same bytes): all zero.
TEST(Heap, CallocIsZeroed) {
  for (size_t n : {1ul, 255ul, 4096ul, 100000ul, (3ul << 20) + 17}) {
    void* dirty = shmem_malloc(n);
    ASSERT_EQ(hipMemset(dirty, 0xA5, n), hipSuccess);
    shmem_free(dirty);
    uint8_t* z = (uint8_t*)shmem_calloc(n, 1);
    ASSERT_NE(z, nullptr);
    EXPECT_EQ(z, dirty) << "first fit should reuse the freed block";
    std::vector<uint8_t> v = read_bytes(z, n);
    size_t nonzero = 0;
    for (uint8_t x : v) nonzero += x != 0;
    EXPECT_EQ(nonzero, 0u) << "calloc of " << n << " bytes";
    shmem_free(z);
  }
}

// Shrink in place, grow in place into the freed tail, then grow past a neighbour (a move): the
// contents survive each step, and the block stays symmetric (a peer's put lands in it).
TEST(Heap, ReallocKeepsContents) {
  const unsigned salt = 11;
  uint8_t* p = (uint8_t*)shmem_malloc(3000);
  uint8_t* neighbour = (uint8_t*)shmem_malloc(256);
  write_pattern(p, 3000, salt);
  uint8_t* shrunk = (uint8_t*)shmem_realloc(p, 2048);
  EXPECT_EQ(shrunk, p) << "a shrink stays in place";
  EXPECT_EQ(pattern_errors(shrunk, 2048, me(), salt), 0u) << "after shrink";
  uint8_t* grown = (uint8_t*)shmem_realloc(shrunk, 3072);
  EXPECT_EQ(pattern_errors(grown, 2048, me(), salt), 0u) << "after growing in place";
  if (neighbour >= grown + 3072) EXPECT_EQ(grown, shrunk) << "the freed tail was free to grow into";
  write_pattern(grown, 3072, salt);
  const size_t big = 1u << 20;
  uint8_t* moved = (uint8_t*)shmem_realloc(grown, big);
  ASSERT_NE(moved, nullptr);
  if (neighbour > grown && neighbour < grown + big) EXPECT_NE(moved, grown) << "the neighbour blocks in-place growth";
  EXPECT_EQ(pattern_errors(moved, 3072, me(), salt), 0u) << "after moving";
  EXPECT_TRUE(same_on_every_pe({diff(moved, neighbour), diff(grown, neighbour)}));
  // The moved block is symmetric: write its far end on the next PE.
  std::vector<uint8_t> tail(1000);
  for (size_t i = 0; i < tail.size(); ++i) tail[i] = pattern(me(), i, salt + 1);
  shmem_putmem(moved + big - tail.size(), tail.data(), tail.size(), next_pe());
  shmem_barrier_all();
  EXPECT_EQ(pattern_errors(moved + big - tail.size(), tail.size(), prev_pe(), salt + 1), 0u);
  shmem_free(moved);
  shmem_free(neighbour);
}

// The heap's end, found with shmem_addr_accessible from inside a block; a block of most of what
// lies past `from` then works end to end and frees cleanly.
TEST(Heap, AllocationFillingMostOfTheHeap) {
  uint8_t* probe = (uint8_t*)shmem_malloc(256);
  size_t lo = 0, hi = size_t(1) << 40;  // accessible at lo, not at hi
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    (shmem_addr_accessible(probe + mid, me()) ? lo : hi) = mid;
  }
  shmem_free(probe);
  const size_t avail = lo + 1;  // bytes from probe to the heap end
  ASSERT_GT(avail, (size_t)(1u << 20)) << "heap is implausibly small";
  const size_t n = avail / 10 * 9 / 256 * 256;
  uint8_t* p = (uint8_t*)shmem_malloc(n);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(shmem_addr_accessible(p + n - 1, me()));
  ASSERT_EQ(hipMemset(p, 0x3C, n), hipSuccess);
  shmem_barrier_all();  // every PE's fill is done before the peers' marks arrive
  const uint8_t mark = (uint8_t)(me() + 1);
  shmem_putmem(p + n - 1, &mark, 1, next_pe());
  shmem_putmem(p, &mark, 1, next_pe());
  shmem_barrier_all();
  EXPECT_EQ(read_bytes(p, 1)[0], (uint8_t)(prev_pe() + 1));
  EXPECT_EQ(read_bytes(p + n - 1, 1)[0], (uint8_t)(prev_pe() + 1));
  EXPECT_EQ(read_bytes(p + n / 2, 1)[0], 0x3C);
  shmem_free(p);
  // Freed: the same space can be taken again.
  void* again = shmem_malloc(n);
  EXPECT_EQ(again, p);
  shmem_free(again);
}

// A request the heap cannot meet returns NULL on every PE (OpenSHMEM's shmem_malloc), and the
// heap stays usable: the same for shmem_align, shmem_calloc and shmem_realloc (whose block stays).
TEST(Heap, ExhaustedReturnsNull) {
  const size_t huge = size_t(1) << 50;
  EXPECT_EQ(shmem_malloc(huge), nullptr);
  EXPECT_EQ(shmem_align(4096, huge), nullptr);
  EXPECT_EQ(shmem_calloc(huge / 8, 8), nullptr);
  EXPECT_EQ(shmem_malloc_with_hints(huge, SHMEM_MALLOC_ATOMICS_REMOTE), nullptr);
  uint8_t* p = (uint8_t*)shmem_malloc(256);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(hipMemset(p, 0x5A, 256), hipSuccess);
  ASSERT_EQ(hipDeviceSynchronize(), hipSuccess);
  EXPECT_EQ(shmem_realloc(p, huge), nullptr);
  EXPECT_EQ(read_bytes(p + 255, 1)[0], 0x5A);
  shmem_free(p);
}

// Hints GIO does not know (another implementation's) are ignored, as the spec allows.
TEST(Heap, UnknownHintsIgnored) {
  void* p = shmem_malloc_with_hints(128, 1L << 20);
  ASSERT_NE(p, nullptr);
  shmem_free(p);
}

// ---- shmem_ptr, accessibility, PE queries in kernels, library info ---------------------------

namespace {
// Direct stores into the next PE's block: through a pointer shmem_ptr gave host code (`host_view`)
// and through one the kernel asks for itself. `direct`: whether the next PE is load/store reachable.
__global__ void direct_store_kernel(uint32_t* host_view, uint32_t* sym, size_t n, bool direct, unsigned* wrong) {
  const int me = shmem_my_pe(), next = (me + 1) % shmem_n_pes();
  uint32_t* dev_view = (uint32_t*)shmem_ptr(sym, next);
  // Out-of-range PEs and non-heap addresses never have a direct pointer.
  if (threadIdx.x == 0 && (shmem_ptr(sym, shmem_n_pes()) != nullptr || shmem_ptr(sym, -1) != nullptr ||
                           shmem_ptr(wrong, me) != nullptr))
    atomicAdd(wrong, 100u);
  if ((dev_view != nullptr) != direct) {
    if (threadIdx.x == 0) atomicAdd(wrong, 1u);
    return;
  }
  if (!direct) return;
  for (size_t i = threadIdx.x; i < n / 2; i += blockDim.x) host_view[i] = (uint32_t)(me * 1000000 + i);
  for (size_t i = n / 2 + threadIdx.x; i < n; i += blockDim.x) dev_view[i] = (uint32_t)(me * 1000000 + i);
}

__global__ void pe_query_kernel(int* out) {
  out[2 * blockIdx.x] = shmem_my_pe();
  out[2 * blockIdx.x + 1] = shmem_n_pes();
}
}  // namespace

// shmem_ptr gives a pointer exactly for the peers reached by loads and stores (p2p: every PE of
// this node); kernels store through it and the owner sees the words. Other transports get NULL.
TEST(Heap, ShmemPtrDirectStores) {
  const size_t n = 10000;
  sym<uint32_t> buf(n);
  const char* forced = getenv("GIO_TRANSPORT");
  for (int pe = 0; pe < npes(); ++pe) {
    const bool p2p = pe == me() || strcmp(shmemx_transport_name(pe), "p2p") == 0;
    if (forced && strcmp(forced, "p2p") == 0) EXPECT_TRUE(p2p) << "GIO_TRANSPORT=p2p, PE " << pe;
    EXPECT_EQ(shmem_ptr(buf.get(), pe) != nullptr, p2p) << "PE " << pe << " over " << shmemx_transport_name(pe);
  }
  EXPECT_EQ(shmem_ptr(buf.get(), npes()), nullptr);
  EXPECT_EQ(shmem_ptr(buf.get(), -1), nullptr);
  int on_stack = 0;
  EXPECT_EQ(shmem_ptr(&on_stack, next_pe()), nullptr);
  // A PE's own heap is always direct (the next PE is this one in a 1-PE job).
  const bool direct = next_pe() == me() || strcmp(shmemx_transport_name(next_pe()), "p2p") == 0;
  dbuf<unsigned> wrong(1);
  shmem_barrier_all();
  hipLaunchKernelGGL(direct_store_kernel, dim3(1), dim3(128), 0, 0, (uint32_t*)shmem_ptr(buf.get(), next_pe()),
                     buf.get(), n, direct, wrong.get());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  EXPECT_EQ(wrong.read()[0], 0u) << "shmem_ptr in a kernel: 1 = wrong for the next PE, 100 = non-null for a bad one";
  // The previous PE stored here only if it reaches this PE directly (same node); with PEs on
  // several nodes the next PE may be direct while the previous is not.
  const bool stored = prev_pe() == me() || strcmp(shmemx_transport_name(prev_pe()), "p2p") == 0;
  if (stored) {
    std::vector<uint32_t> got = buf.read();
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += got[i] != (uint32_t)(prev_pe() * 1000000 + i);
    EXPECT_EQ(bad, 0u) << "words PE " << prev_pe() << " stored directly";
  }
  shmem_barrier_all();
}

TEST(Heap, Accessibility) {
  for (int pe = 0; pe < npes(); ++pe) EXPECT_TRUE(shmem_pe_accessible(pe)) << "PE " << pe;
  EXPECT_FALSE(shmem_pe_accessible(npes()));
  EXPECT_FALSE(shmem_pe_accessible(-1));
  sym<uint64_t> block(16);
  dbuf<uint64_t> private_mem(16);
  int on_stack = 0;
  static int in_data = 0;
  for (int pe = 0; pe < npes(); ++pe) {
    EXPECT_TRUE(shmem_addr_accessible(block.get(), pe)) << "PE " << pe;
    EXPECT_TRUE(shmem_addr_accessible(block.get() + 15, pe)) << "PE " << pe;
    EXPECT_FALSE(shmem_addr_accessible(&on_stack, pe));
    EXPECT_TRUE(shmem_addr_accessible(&in_data, pe)) << "a static variable is symmetric (host/heap/globals.h)";
    EXPECT_FALSE(shmem_addr_accessible(private_mem.get(), pe)) << "hipMalloc'd memory is not symmetric";
  }
  EXPECT_FALSE(shmem_addr_accessible(block.get(), npes()));
  EXPECT_FALSE(shmem_addr_accessible(block.get(), -1));
}

TEST(Heap, PeQueriesInKernels) {
  const unsigned groups = 3;
  dbuf<int> out(2 * groups);
  hipLaunchKernelGGL(pe_query_kernel, dim3(groups), dim3(32), 0, 0, out.get());
  ASSERT_TRUE(synced());
  std::vector<int> v = out.read();
  for (unsigned b = 0; b < groups; ++b) {
    EXPECT_EQ(v[2 * b], me()) << "work-group " << b;
    EXPECT_EQ(v[2 * b + 1], npes()) << "work-group " << b;
  }
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  EXPECT_EQ(npes(), world);
}

TEST(Heap, InfoVersionAndName) {
  int major = 0, minor = 0;
  shmem_info_get_version(&major, &minor);
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 6);
  EXPECT_EQ(major, SHMEM_MAJOR_VERSION);
  EXPECT_EQ(minor, SHMEM_MINOR_VERSION);
  std::string name(SHMEM_MAX_NAME_LEN + 16, '\x7f');
  shmem_info_get_name(&name[0]);
  const size_t len = strnlen(name.c_str(), name.size());
  EXPECT_GT(len, 0u);
  EXPECT_LT(len, (size_t)SHMEM_MAX_NAME_LEN);
  EXPECT_EQ(name.c_str(), std::string(SHMEM_VENDOR_STRING));
}
