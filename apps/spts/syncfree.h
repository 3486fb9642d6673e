// The synchronization-free solve (Liu et al., Euro-Par 2016, in the CSR "pull" form of
// CapelliniSpTRSV): no barrier between levels. A row waits only for the components it depends
// on, and work-groups take their rows from an atomic counter in launch order, so a row's
// dependencies (lower rows) always belong to work-groups that already run: progress never depends
// on the order in which the GPU schedules work-groups.
//
// Every component lives in one 64-bit word, xw[row], that holds kPending until the component is
// solved and its value's bits after. The value is its own ready flag: a reader needs no fence
// between a flag and the data (there is no separate data), only a single-copy-atomic 8-byte load,
// and a solved row publishes itself with one store. The word array spans all n rows on every PE:
// a component another PE solved arrives in the same slot, so local and remote dependencies are
// read the same way.
//
// Distributed (gio): when a component is solved, it leaves at once, from the solving thread, for
// each PE that owns a row depending on it (send_mask), by one of two exchanges:
//  signal: shmem_signal_set(&xw[row], value bits, pe) -- the value itself is the signal, so one
//          remote single-copy-atomic write per (component, PE) and nothing to drain;
//  queue:  the components a wave solved in one step, per destination PE, as (row, bits) entries
//          in one putmem_signal into that PE's receive queue for this source; the batch's length
//          is its signal, at the batch's first slot. Waiting waves on the owner drain the queues
//          into xw.
#pragma once
#include <shmem.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace spts {

constexpr uint64_t kPending = ~0ull;    // no solved value has these bits (see to_word)
constexpr int kMaxBlock = 256;          // threads per work-group (the kernels' launch bounds)
constexpr int kMaxWave = 64;            // lanes per wave, at most (AMD)
constexpr int kPollBatch = 4;           // thread kernel: dependency words loaded together, at most

enum xchg_kind { XCHG_NONE = 0, XCHG_SIGNAL = 1, XCHG_QUEUE = 2, XCHG_ATOMIC = 3, XCHG_STORE = 4 };

struct queue_entry {
  uint64_t row;
  uint64_t word;
};

template <typename T>
struct syncfree_args {
  const int32_t* row_ptr;        // this PE's rows, rebased (nloc + 1)
  const int32_t* col;            // global columns; the diagonal last in each row
  const T* val;
  const T* b;                    // this PE's rows
  uint64_t* xw;                  // n words (symmetric heap for gio)
  const uint32_t* send_mask;     // per local row: the PEs that need it (gio)
  unsigned* next_chunk;          // the work counter
  const int32_t* order;          // this PE's rows by level (or null: natural order)
  const int32_t* chunk_start;    // tiles: nchunks + 1 chunk boundaries (or null: blockDim rows a chunk)
  unsigned nchunks;
  int32_t row0, nloc;
  int me, npes;
  unsigned long long timeout_ns;
  unsigned backoff_ns;           // longest sleep between polls of a dependency (0: poll flat out)
  int inject_row;                // local row whose value is perturbed (tests), or -1
  int chunk_shared;              // thread kernel: a chunk's own rows through shared memory (--chunk-deps)
  int poll_batch;                // thread kernel: dependency words loaded together (1..kPollBatch)
  // exchange::store: every PE's xw as this PE maps it (shmem_ptr; this PE's own entry unused)
  uint64_t* const* peer_xw;
  // exchange::queue
  queue_entry* recv;             // symmetric: this PE's receive area, one region per source
  uint64_t* recv_hdr;            // symmetric, parallel to recv: a batch's length at its first slot
  const long long* recv_end;     // per source: one past its region
  unsigned long long* recv_head; // per source: the next batch to drain (an index into recv)
  const long long* send_off;     // per destination: this PE's region in its area
  unsigned long long* send_next; // per destination: slots reserved so far
};

// The bits of a solved value. A NaN (a broken input) becomes the canonical quiet NaN so that it
// can never read as kPending: the check then reports it instead of the solve hanging.
template <typename T>
GIO_HOST_DEVICE_INLINE uint64_t to_word(T v) {
  if (v != v) return sizeof(T) == 8 ? 0x7ff8000000000000ull : 0x7fc00000ull;
  uint64_t w = 0;
  memcpy(&w, &v, sizeof v);
  return w;
}
template <typename T>
GIO_HOST_DEVICE_INLINE T from_word(uint64_t w) {
  T v;
  memcpy(&v, &w, sizeof v);
  return v;
}

GIO_DEVICE_NOINLINE void wait_timeout(int me, int32_t row, int32_t col, unsigned long long waited_ns) {
  printf("spts: PE %d row %d waited %.1f s for component %d (GIO_TIMEOUT-like bound --timeout)\n", me,
         (int)row, (double)waited_ns * 1e-9, (int)col);
  gio::dev::die(GIO_ERR_TIMEOUT);
}

// A grid-stride loop's first index and stride.
GIO_DEVICE_INLINE int64_t grid_thread() { return (int64_t)blockIdx.x * blockDim.x + threadIdx.x; }
GIO_DEVICE_INLINE int64_t grid_threads() { return (int64_t)gridDim.x * blockDim.x; }

// Sleeps about ns nanoseconds. Waiting threads that poll flat out load the memory system the
// critical path's stores and loads go through: on a deep matrix most resident rows wait for rows
// far ahead of them.
GIO_DEVICE_INLINE void nap(unsigned ns) {
#if defined(GIO_PLATFORM_CUDA)
  __nanosleep(ns);
#elif defined(GIO_PLATFORM_HIP)
  for (unsigned t = 0; t < ns; t += 64) __builtin_amdgcn_s_sleep(1);  // 64 clocks a unit, ~1-2 GHz
#else
  (void)ns;  // the emulator's relax() yields instead
#endif
}

// A bounded spin with backoff: relax() lets the host emulator run the other work-groups; a thread
// whose dependency stays unsolved sleeps longer each poll (from 32 ns, doubling, up to
// backoff_ns), and starts again at the shortest once it makes progress.
struct spin_clock {
  unsigned spins = 0, miss = 0;
  uint64_t t0 = 0;
  GIO_DEVICE_INLINE void progress() { miss = 0; }
  GIO_DEVICE_INLINE void tick(int me, int32_t row, int32_t col, unsigned long long timeout_ns, unsigned backoff_ns) {
    gio::plat::relax();
    if (backoff_ns) {
      const unsigned ns = 32u << (miss < 10 ? miss : 10);
      nap(ns < backoff_ns ? ns : backoff_ns);
      ++miss;
    }
    if ((++spins & 255u) != 0) return;
    const uint64_t now = gio::plat::clock_ns();
    if (t0 == 0) t0 = now;
    else if (now - t0 > timeout_ns) wait_timeout(me, row, col, now - t0);
  }
};

// The GIO calls are kept out of line (GIO_DEVICE_NOINLINE): inlined, the transport's code would take the
// solve loop's registers (the queue kernel went from 40-odd to 255 registers with spills).
GIO_DEVICE_NOINLINE void signal_out(uint64_t* word_addr, uint64_t word, uint32_t dests) {
  for (; dests; dests &= dests - 1) shmem_signal_set(word_addr, word, (int)gio::plat::wave_lowest(dests));
}
GIO_DEVICE_NOINLINE void atomic_out(uint64_t* word_addr, uint64_t word, uint32_t dests) {
  for (; dests; dests &= dests - 1)
    shmem_uint64_atomic_set(word_addr, word, (int)gio::plat::wave_lowest(dests));
}
GIO_DEVICE_NOINLINE void queue_out(queue_entry* at, const queue_entry* src, unsigned count, uint64_t* sig, int pe) {
  shmem_putmem_signal(at, src, count * sizeof(queue_entry), sig, count, SHMEM_SIGNAL_SET, pe);
}

// exchange::queue, owner side: take one complete batch from some source's queue and publish its
// components. Any waiting wave may drain; a compare-and-swap on the source's head decides which.
template <typename T>
GIO_DEVICE_NOINLINE void drain_one(const syncfree_args<T>& a) {
  for (int s = 1; s < a.npes; ++s) {
    const int p = (a.me + s) % a.npes;
    const unsigned long long h = gio::plat::atomic_load_acquire(&a.recv_head[p]);
    if ((long long)h >= a.recv_end[p]) continue;
    // The signal (the batch's length) is written after the batch's entries are visible.
    const uint64_t k = gio::plat::atomic_load_acquire(&a.recv_hdr[h]);
    if (k == 0) continue;
    if (gio::plat::atomic_cas(&a.recv_head[p], h, h + k) != h) continue;
    for (uint64_t e = h; e < h + k; ++e)
      gio::plat::store_relaxed_system((unsigned long long*)&a.xw[a.recv[e].row], a.recv[e].word);
    return;
  }
}

// exchange::queue, sender side: the lanes of `m` that have a fresh component send it, one batch
// per destination PE. The leader gathers the batch by shuffles into its own stack buffer: groups
// of one wave can be at this point at once (a divergent wave on GPUs with independent thread
// scheduling, the emulator's gatherings), so no buffer may be shared by the wave's lanes.
template <typename T>
GIO_DEVICE_INLINE void send_queued(const syncfree_args<T>& a, gio::plat::wave_mask m, bool fresh, uint32_t dests,
                         uint64_t row, uint64_t word) {
  using namespace gio::plat;
  if (!wave_ballot(m, fresh && dests != 0)) return;
  queue_entry batch[kMaxWave];
  for (int q = 0; q < a.npes; ++q) {
    const bool want = fresh && ((dests >> q) & 1u);
    const wave_mask wm = wave_ballot(m, want);
    if (!wm) continue;
    const unsigned leader = wave_lowest(wm);
    unsigned count = 0;
    for (wave_mask t = wm; t; t &= t - 1, ++count) {
      const unsigned j = wave_lowest(t);
      const uint64_t r = wave_shfl(m, row, j), w = wave_shfl(m, word, j);
      if (wave_lane() == leader) batch[count] = queue_entry{r, w};
    }
    if (wave_lane() == leader) {
      const long long at = a.send_off[q] + (long long)atomicAdd(&a.send_next[q], (unsigned long long)count);
      queue_out(&a.recv[at], batch, count, &a.recv_hdr[at], q);
    }
  }
}

// Publishes a solved component: locally, then to the PEs that need it (signal exchange).
template <typename T, int X>
GIO_DEVICE_INLINE void publish_signal(const syncfree_args<T>& a, int32_t i, uint64_t word) {
  const int32_t gi = a.row0 + i;
  gio::plat::store_relaxed_system((unsigned long long*)&a.xw[gi], word);
  if (X == XCHG_SIGNAL || X == XCHG_ATOMIC || X == XCHG_STORE) {
    uint32_t d = a.send_mask[i];
    if (d && X == XCHG_SIGNAL) signal_out(&a.xw[gi], word, d);
    if (d && X == XCHG_ATOMIC) atomic_out(&a.xw[gi], word, d);
    // exchange::store: the word straight into each peer's mapped xw, one single-copy-atomic
    // 8-byte store, with no GIO call in the kernel. A call's callee registers count for the
    // kernel: the signal and atomic kernels need 64 registers (4 work-groups of 256 per SM, spills
    // at the cap), the kernel without sends 25 (8 per SM), and the sync-free solve is bound by the
    // rows it keeps in flight.
    for (; X == XCHG_STORE && d; d &= d - 1)
      gio::plat::store_relaxed_system((unsigned long long*)(a.peer_xw[gio::plat::wave_lowest(d)] + gi), word);
  }
}

template <typename T>
GIO_DEVICE_INLINE T finish(const syncfree_args<T>& a, int32_t i, T acc, int32_t diag) {
  T x = (a.b[i] - acc) / a.val[diag];
  if (i == a.inject_row) x = x * (T)1.001 + (T)1e-3;
  return x;
}

// A thread per row. A lane never blocks on one dependency: each pass takes every ready term it
// can, and the lane publishes its row inside the loop. On GPUs without independent thread
// scheduling (AMD) a lane spinning on a wave-mate's row would otherwise wait for a lane that is
// masked off until the spin ends.
// Occupancy: the transport's put path needs 230-odd registers on sm_90 (a called function's
// registers count for its kernel), which would leave one 256-thread work-group per SM. Capping
// the kernels at 64 registers (4 work-groups of 256 per SM) spills inside the send path only,
// which runs once per component sent, not per term.
#define SPTS_BOUNDS __launch_bounds__(kMaxBlock, 4)

// A component word in shared memory: the same value-is-the-flag protocol as xw, between the
// threads of one work-group.
GIO_DEVICE_INLINE uint64_t load_shared_word(const uint64_t* p) { return gio::plat::load_polled(p); }
GIO_DEVICE_INLINE void store_shared_word(uint64_t* p, uint64_t w) {
#if defined(GIO_PLATFORM_HOST)
  __atomic_store_n(p, w, __ATOMIC_RELEASE);
#else
  *(volatile uint64_t*)p = w;
#endif
}

// The rows of one work-group's chunk (consecutive local rows, in natural or level-renumbered
// order) keep their solved words in shared memory too: a dependency on a row of the same chunk is
// polled there, one shared-memory hop instead of a round trip through L2 to another SM. On a chain
// (banded, or the narrow first and last levels of a grid) a chunk's rows then solve at the pace of
// shared memory; rows of other chunks are read from xw as before.
struct chunk_words {
  uint64_t* words;  // one word per thread of the work-group (shared memory)
  int32_t lo;       // local index of the chunk's first row, or -1 (rows taken through `order`)
  int32_t size;     // rows in the chunk (blockDim.x)
};

template <typename T, int X>
GIO_DEVICE_INLINE void thread_row(const syncfree_args<T>& a, int32_t i, const chunk_words& cw) {
  bool done = i >= a.nloc;
  int32_t k = done ? 0 : a.row_ptr[i];
  const int32_t diag = done ? 0 : a.row_ptr[i + 1] - 1;
  const uint32_t dests = (X != XCHG_NONE && !done) ? a.send_mask[i] : 0;
  // Loaded before the first poll: once the last dependency arrives, nothing else stands between
  // it and this row's store.
  const T bi = done ? (T)0 : a.b[i], di = done ? (T)1 : a.val[diag];
  // Shared slots are at local row - chunk_base; cw.lo < 0 makes every slot out of range.
  const int32_t chunk_base = a.row0 + (cw.lo < 0 ? 0 : cw.lo);
  // Only the chunk's own rows: the slots of a last, partial chunk past nloc would be another PE's.
  const uint32_t nslots = cw.lo < 0 ? 0u : (uint32_t)(cw.size < a.nloc - cw.lo ? cw.size : a.nloc - cw.lo);
  T acc = 0;
  spin_clock clk;
  int32_t waited_for = -1;
  for (;;) {
    bool fresh = false;
    uint64_t word = 0;
    if (!done) {
      const int32_t k0 = k;
      // kPollBatch terms' words are loaded at once, then taken in order up to the first pending
      // one: when the term this lane waited for arrives, the terms after it (on a grid, most often
      // already solved) come with it instead of one more round trip each.
      while (k < diag) {
        uint64_t u[kPollBatch];
        T v[kPollBatch];
#pragma unroll
        for (int j = 0; j < kPollBatch; ++j) {
          u[j] = kPending;
          if (k + j < diag && j < a.poll_batch) {
            const int32_t c = a.col[k + j];
            v[j] = a.val[k + j];
            const uint32_t s = (uint32_t)(c - chunk_base);
            u[j] = s < nslots ? load_shared_word(&cw.words[s]) : gio::plat::load_polled(&a.xw[c]);
          }
        }
        int j = 0;
#pragma unroll
        for (int t = 0; t < kPollBatch; ++t) {
          if (j != t || k + t >= diag || t >= a.poll_batch || u[t] == kPending) continue;
          acc += v[t] * from_word<T>(u[t]);
          ++j;
        }
        k += j;
        if (j < a.poll_batch) break;
      }
      if (k < diag) waited_for = a.col[k];
      if (k != k0) clk.progress();
      if (k == diag) {
        T xv = (bi - acc) / di;
        if (i == a.inject_row) xv = xv * (T)1.001 + (T)1e-3;
        word = to_word(xv);
        if (nslots) store_shared_word(&cw.words[a.row0 + i - chunk_base], word);
        if (X == XCHG_QUEUE) gio::plat::store_relaxed_system((unsigned long long*)&a.xw[a.row0 + i], word);
        else publish_signal<T, X>(a, i, word);
        done = fresh = true;
      }
    }
    if (X == XCHG_QUEUE) {
      const gio::plat::wave_mask m = gio::plat::wave_active_mask();
      send_queued(a, m, fresh, dests, (uint64_t)(a.row0 + i), word);
      const gio::plat::wave_mask w = gio::plat::wave_ballot(m, !done);
      if (w && gio::plat::wave_lane() == gio::plat::wave_lowest(w)) drain_one(a);
    }
    if (done) return;
    clk.tick(a.me, a.row0 + i, waited_for, a.timeout_ns, a.backoff_ns);
  }
}

// The row a thread (or wave) of this work-group solves: work-groups take chunk ids from a counter
// as they start, so chunks are taken in launch order whatever the order in which the GPU schedules
// work-groups, and a chunk's dependencies lie in chunks taken by work-groups that already run.
// `order` (when set, --rows level) lists the PE's rows by level, a topological order that keeps
// the guarantee above: the rows waiting at once are then the frontier's rather than the rows
// after it in natural order (on a natural-order 2D grid of 4M rows the resident rows cover 135 of
// its 2000 grid rows). Measured on H200 it is slower on every input, 1.5-2.7x
// (apps/spts/tune.sh OUT BUILD rows): a wave's rows are scattered, so each of its polls is 32 loads
// instead of one, and the memory system the critical path uses carries them. The level-ordered
// renumbering (renumber.h, --renumber) gets the frontier without the scatter: the matrix itself is
// renumbered, so a wave's rows and the rows they poll are neighbours in xw.
// *chunk_lo: the local index of the chunk's first row (-1 with `order`).
template <typename T>
GIO_DEVICE_INLINE int32_t take_row(const syncfree_args<T>& a, unsigned units_per_wg, unsigned unit, int32_t* chunk_lo = nullptr,
                         uint64_t* words = nullptr, int32_t* chunk_size = nullptr) {
  __shared__ unsigned chunk;
  if (threadIdx.x == 0) chunk = atomicAdd(a.next_chunk, 1u);
  if (words) words[threadIdx.x] = kPending;
  __syncthreads();
  if (a.chunk_start) {  // tiles (renumber.h): chunks of their own sizes, at most units_per_wg rows
    if (chunk >= a.nchunks) return a.nloc;
    const int32_t c0 = a.chunk_start[chunk], c1 = a.chunk_start[chunk + 1];
    if (chunk_lo) *chunk_lo = c0;
    if (chunk_size) *chunk_size = c1 - c0;
    return (int32_t)unit < c1 - c0 ? c0 + (int32_t)unit : a.nloc;
  }
  const long long idx = (long long)chunk * units_per_wg + unit;
  const long long lo = (long long)chunk * units_per_wg;
  if (chunk_lo) *chunk_lo = a.order ? -1 : (int32_t)(lo < a.nloc ? lo : a.nloc);
  if (idx >= a.nloc) return a.nloc;
  return a.order ? a.order[idx] : (int32_t)idx;
}

template <typename T, int X>
__global__ void SPTS_BOUNDS solve_thread(syncfree_args<T> a) {
  __shared__ uint64_t words[kMaxBlock];
  chunk_words cw{words, -1, (int32_t)blockDim.x};
  const int32_t i = take_row(a, blockDim.x, threadIdx.x, &cw.lo, words, &cw.size);
  if (!a.chunk_shared) cw.lo = -1;
  thread_row<T, X>(a, i, cw);
}

// A wave per row, for long rows: the lanes stride over the row, wait for their own terms, and the
// sum is reduced by shuffles. No lane waits for a wave-mate (every term is another row's).
template <typename T, int X>
GIO_DEVICE_INLINE void warp_row(const syncfree_args<T>& a, int32_t i) {
  const unsigned ws = gio::plat::wave_size(), lane = gio::plat::wave_lane();
  if (i >= a.nloc) return;
  const int32_t diag = a.row_ptr[i + 1] - 1;
  T acc = 0;
  spin_clock clk;
  for (int32_t k = a.row_ptr[i] + (int32_t)lane; k < diag; k += (int32_t)ws) {
    const int32_t c = a.col[k];
    uint64_t u;
    while ((u = gio::plat::load_polled(&a.xw[c])) == kPending) {
      if (X == XCHG_QUEUE) drain_one(a);
      clk.tick(a.me, a.row0 + i, c, a.timeout_ns, a.backoff_ns);
    }
    clk.progress();
    acc += a.val[k] * from_word<T>(u);
  }
  // Every lane of the wave reaches the reduction (the row is the wave's); name them all, since
  // after the divergent loop the active mask need not be the whole wave yet.
  const gio::plat::wave_mask m = ws == 64 ? ~0ull : (1ull << ws) - 1;
  for (unsigned off = ws / 2; off; off /= 2) {
    uint64_t bits = 0;
    memcpy(&bits, &acc, sizeof acc);
    bits = gio::plat::wave_shfl(m, bits, lane ^ off);
    T other;
    memcpy(&other, &bits, sizeof other);
    acc += other;
  }
  if (lane != 0) return;
  const uint64_t word = to_word(finish(a, i, acc, diag));
  publish_signal<T, X == XCHG_QUEUE ? XCHG_NONE : X>(a, i, word);
  if (X == XCHG_QUEUE) {
    const int32_t gi = a.row0 + i;
    for (uint32_t d = a.send_mask[i]; d; d &= d - 1) {
      const int q = (int)gio::plat::wave_lowest(d);
      const long long at = a.send_off[q] + (long long)atomicAdd(&a.send_next[q], 1ull);
      const queue_entry e{(uint64_t)gi, word};  // 16 bytes: over gda it travels inline
      queue_out(&a.recv[at], &e, 1, &a.recv_hdr[at], q);
    }
  }
}

template <typename T, int X>
__global__ void SPTS_BOUNDS solve_warp(syncfree_args<T> a) {
  const unsigned ws = gio::plat::wave_size();
  warp_row<T, X>(a, take_row(a, blockDim.x / ws, threadIdx.x / ws));
}

}  // namespace spts
