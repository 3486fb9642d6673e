// The one-PE analysis on the device (analysis_dev.h): levels by the sync-free scheme of the solve,
// the order by level by a stable radix sort of the levels (sort_dev.h), tiles from the level order.
#include "analysis_dev.h"

#include <algorithm>
#include <string>

#include "hip_check.h"
#include "sort_dev.h"
#include "syncfree.h"

namespace spts {

namespace {

template <typename T>
GIO_HOST_DEVICE_INLINE T ad_min(T x, T y) { return x < y ? x : y; }
template <typename T>
GIO_HOST_DEVICE_INLINE T ad_max(T x, T y) { return x < y ? y : x; }

// A level word's store: the level is its own ready flag (-1 until it is known), so it needs no
// fence, only a store other work-groups' polls see (global) or the work-group's (shared).
GIO_DEVICE_INLINE void store_level(int32_t* p, int32_t v) {
#if defined(GIO_PLATFORM_HOST)
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
#else
  *(volatile int32_t*)p = v;
#endif
}

struct level_args {
  const int32_t* row_ptr;
  const int32_t* col;
  int32_t* lev;             // n words, -1 until the row's level is known
  unsigned* next_chunk;     // the work counter
  int32_t* top;             // the largest level
  int32_t n;
  int32_t inject_row;       // test only: this row publishes one level more (or -1)
  unsigned long long timeout_ns;
  unsigned backoff_ns;      // longest sleep between a gated thread's polls
};

// level[i] = 1 + the largest level of row i's off-diagonal columns (0 for a row without any).
// The sync-free scheme of the solve (syncfree.h) rather than a frontier method: a frontier
// iteration costs a launch and a pass per level, and the natural-order grids have 4,000-8,000
// levels (a banded chain one per row), so the launches alone would cost about what cuSPARSE's
// whole analysis takes; the sync-free kernel is one launch whatever the depth, its critical path
// is one hop per level, and on a shallow input it is a plain pass over L. Work-groups take chunks
// from a counter (a row's dependencies lie in chunks taken already), a lane never blocks on one
// dependency (it takes what is ready and tries again: wave-mates on GPUs without independent
// thread scheduling), up to kPollBatch columns' levels are loaded at once, and a dependency inside
// the work-group's chunk is polled in shared memory.
// Each thread holds K consecutive rows of its chunk and polls them in turn, lowest first. In
// natural order the rows in flight are what bounds a sync-free pass (README.md: on a 2D grid the
// resident rows cover a band of grid rows that waits on rows far behind the wavefront); a row's
// state here is three words, so K rows a thread multiply the rows in flight by K at the same
// occupancy. Consecutive rather than strided: a chain through consecutive rows (a grid line, a
// band) then finishes K rows a pass, each reading the one before from its own thread's store,
// where strided rows would take a hop each. K = 1 is the default (options.h): on H200, float,
// apps/spts/measure_deep.sh prep (docs/performance.md, SpTS preprocessing), K = 2 takes 26 % less
// time on the 2D grids, but K = 2 and 8 take 70-135x longer on grid3d 4M (714 and 1,403 ms
// against 10.5) and K = 8 12x longer on grid3d 16M; the cause is not known (the
// app.spts.single.analysis-rows* tests hold every K to the host's levels).
// A pass that takes nothing is gated: the thread polls only the column its lowest pending row
// stopped at, and polls its other rows again once that one is known. In natural order most
// resident rows wait on rows far behind the wavefront (a 2D grid's line waits on the line before
// it), and a pass of every row's next dependencies (their columns and levels, K rows of up to
// kPollBatch each) from every resident thread would put tens of loads a thread on the memory
// system for every hop of the critical path; gated, a waiting thread costs one load a pass. The
// lowest unfinished row of a chunk depends only on finished rows (or rows of chunks taken before,
// which finish by the same argument), and it is its thread's lowest pending row, whose gate is one
// of its dependencies: the chunk always progresses.
template <int K>
__global__ void __launch_bounds__(kMaxBlock) ad_levels(level_args a) {
  __shared__ int32_t own[kMaxBlock * K];
  __shared__ unsigned chunk;
  __shared__ int32_t wg_top;
  if (threadIdx.x == 0) {
    chunk = atomicAdd(a.next_chunk, 1u);
    wg_top = -1;
  }
  for (int m = 0; m < K; ++m) own[threadIdx.x + m * blockDim.x] = -1;
  __syncthreads();
  const int64_t lo = (int64_t)chunk * blockDim.x * K;
  const uint32_t nslots = lo < a.n ? (uint32_t)ad_min<int64_t>((int64_t)blockDim.x * K, a.n - lo) : 0u;
  int32_t k[K], diag[K], lv[K];
  unsigned pending = 0;  // bit m: row m not finished
#pragma unroll
  for (int m = 0; m < K; ++m) {
    const int64_t i = lo + (int64_t)threadIdx.x * K + m;
    k[m] = diag[m] = lv[m] = 0;
    if (i < a.n) {
      k[m] = a.row_ptr[i];
      diag[m] = a.row_ptr[i + 1] - 1;
      pending |= 1u << m;
    }
  }
  int32_t top = -1, waited_row = -1;
  int32_t gate = -1;  // the column the thread's lowest pending row waits for (-1: not polled yet)
  spin_clock clk;
  const auto poll = [&](int32_t c) -> int32_t {
    const uint32_t s = (uint32_t)(c - lo);
    return s < nslots ? gio::plat::load_polled(&own[s]) : gio::plat::load_polled(&a.lev[c]);
  };
  while (pending) {
    if (gate >= 0 && poll(gate) < 0) {
      clk.tick(0, waited_row, gate, a.timeout_ns, a.backoff_ns);
      continue;
    }
    bool moved = false;
    // Every pending row's next kPollBatch levels are loaded before any is taken: one round trip
    // for the thread's K rows instead of one each.
    int32_t u[K][kPollBatch];
#pragma unroll
    for (int m = 0; m < K; ++m)
#pragma unroll
      for (int j = 0; j < kPollBatch; ++j)
        u[m][j] = ((pending >> m) & 1u) && k[m] + j < diag[m] ? poll(a.col[k[m] + j]) : -1;
#pragma unroll
    for (int m = 0; m < K; ++m) {
      if (!((pending >> m) & 1u)) continue;
      const int32_t i = (int32_t)(lo + (int64_t)threadIdx.x * K + m);
      const int32_t k0 = k[m];
      for (bool first = true; k[m] < diag[m]; first = false) {
        int32_t v[kPollBatch];
#pragma unroll
        for (int j = 0; j < kPollBatch; ++j) {
          v[j] = first ? u[m][j] : -1;
          // A row of this chunk may have finished since the loads above (the one before, in this
          // thread, a moment ago): shared memory is asked again, global memory only in the
          // next pass (or the next batch of a long row).
          if (v[j] < 0 && k[m] + j < diag[m]) {
            const int32_t c = a.col[k[m] + j];
            if (!first || (uint32_t)(c - lo) < nslots) v[j] = poll(c);
          }
        }
        int j = 0;
#pragma unroll
        for (int t = 0; t < kPollBatch; ++t) {
          if (j != t || k[m] + t >= diag[m] || v[t] < 0) continue;
          lv[m] = lv[m] > v[t] + 1 ? lv[m] : v[t] + 1;
          ++j;
        }
        k[m] += j;
        if (j < kPollBatch) break;
      }
      moved = moved || k[m] != k0;
      if (k[m] < diag[m]) continue;
      const int32_t out = lv[m] + (i == a.inject_row ? 1 : 0);
      store_level(&own[i - lo], out);
      store_level(&a.lev[i], out);
      top = top > out ? top : out;
      pending &= ~(1u << m);
      moved = true;
    }
    if (!pending) break;
    // The lowest pending row's column it stopped at (a pending row has k < diag). Unrolled with
    // constant indices: an index into k[] computed at run time would put k[] in local memory.
    int lowest = -1, stopped = 0;
#pragma unroll
    for (int m = K - 1; m >= 0; --m)
      if ((pending >> m) & 1u) lowest = m, stopped = k[m];
    gate = a.col[stopped];
    waited_row = (int32_t)(lo + (int64_t)threadIdx.x * K + lowest);
    if (moved) clk.progress();
    clk.tick(0, waited_row, gate, a.timeout_ns, 0);
  }
  if (top >= 0) atomicMax(&wg_top, top);
  __syncthreads();
  if (threadIdx.x == 0 && wg_top >= 0) atomicMax(a.top, wg_top);
}

// start[v] = the first position of level v in the sorted keys, start[levels] = n. Found at the
// boundaries of the sorted keys rather than by a histogram of atomics: on a shallow input millions
// of rows would add to the same few counters. Levels are consecutive from 0 (a row of level v > 0
// depends on one of level v - 1), but a boundary fills every level up to its key, so a gap (a
// wrong level: --inject-analysis-error) leaves an empty level instead of an unwritten start.
__global__ void ad_level_starts(const int32_t* key, int32_t n, int32_t levels, int32_t* start) {
  for (int64_t k = grid_thread(); k <= n; k += grid_threads()) {
    const int32_t below = k == 0 ? -1 : key[k - 1], here = k == n ? levels : key[k];
    for (int32_t v = below + 1; v <= here; ++v) start[v] = (int32_t)k;
  }
}

// new_of[row[k]] = k: the level order.
__global__ void ad_invert(const int32_t* row, int32_t* new_of, int32_t n) {
  for (int64_t k = grid_thread(); k < n; k += grid_threads()) new_of[row[k]] = (int32_t)k;
}

__global__ void ad_fill(int32_t* v, int64_t m, int32_t x) {
  for (int64_t i = grid_thread(); i < m; i += grid_threads()) v[i] = x;
}

// ---- tiles (renumber.h, tile_order) ----------------------------------------------------------
struct tile_args {
  const int32_t* row_ptr;
  const int32_t* col;
  const int32_t* lev;       // per row
  const int32_t* lo;        // per row: its index in level order
  const int32_t* start;     // levels + 1
  const int32_t* key;       // in level order: the level
  const int32_t* row;       // in level order: the row
  int32_t* asc;             // per band: 1 while every dependency inside the band points to a lower tile
  int32_t* desc;            // per band: ... to a higher tile
  int32_t* new_of;          // per row: the tiled order
  int32_t n, levels, width, depth;
};

// A band loses asc (desc) where a row depends on a row of the same band in a higher (lower) tile.
__global__ void ad_tile_flags(tile_args a) {
  for (int64_t k = grid_thread(); k < a.n; k += grid_threads()) {
    const int32_t i = a.row[k], v = a.key[k], b = v / a.depth, j = (int32_t)(k - a.start[v]) / a.width;
    for (int32_t e = a.row_ptr[i]; e < a.row_ptr[i + 1] - 1; ++e) {
      const int32_t c = a.col[e], vc = a.lev[c];
      if (vc / a.depth != b) continue;
      const int32_t jc = (a.lo[c] - a.start[vc]) / a.width;
      if (jc > j && gio::plat::load_polled(&a.asc[b])) atomicExch(&a.asc[b], 0);
      if (jc < j && gio::plat::load_polled(&a.desc[b])) atomicExch(&a.desc[b], 0);
    }
  }
}

// A tiled band's tiles in ascending (asc) or descending position, each tile's rows by level then
// position; any other band in level order. For a row at position p of level v, in tile j of band
// b (levels l0..l1), what comes before it in the band is: the rows of the tiles before j (asc: the
// positions below j * width of every level; desc: those from (j + 1) * width), then the tile's
// rows of the levels before v, then its own level's positions from j * width up to p.
__global__ void ad_tile_order(tile_args a) {
  for (int64_t k = grid_thread(); k < a.n; k += grid_threads()) {
    const int32_t i = a.row[k], v = a.key[k], b = v / a.depth;
    const bool up = a.asc[b] != 0;
    if (!up && !a.desc[b]) {
      a.new_of[i] = (int32_t)k;
      continue;
    }
    const int32_t p = (int32_t)(k - a.start[v]), j = p / a.width, w0 = j * a.width;
    const int32_t l0 = b * a.depth, l1 = ad_min(a.levels, l0 + a.depth);
    int64_t at = a.start[l0];
    for (int32_t u = l0; u < l1; ++u) {
      const int32_t w = a.start[u + 1] - a.start[u];
      at += up ? ad_min(w, w0) : ad_max(0, w - w0 - a.width);
      if (u < v) at += ad_min(ad_max(0, w - w0), a.width);
    }
    a.new_of[i] = (int32_t)(at + p - w0);
  }
}

template <typename K, typename... Args>
void launch(K kernel, int grid, int block, Args... args) {
  hipLaunchKernelGGL(kernel, dim3(std::max(grid, 1)), dim3(block), 0, 0, args...);
  HIP_CHECK(hipGetLastError());
}

template <typename T>
T* alloc(int64_t count) {
  T* p = nullptr;
  HIP_CHECK(hipMalloc((void**)&p, (size_t)std::max<int64_t>(count, 1) * sizeof(T)));
  return p;
}

// The chunks of the tiled order from the level boundaries and the bands' flags: tile_order's
// groups (a tile of a tiled band, a piece of width * depth rows of a level elsewhere), merged while
// they fit. O(levels + groups * depth) on the host: the boundaries and flags are small (levels + 1
// and bands words), where the per-row work stayed on the device.
void host_chunks(const std::vector<int32_t>& start, const std::vector<int32_t>& asc, const std::vector<int32_t>& desc,
                 int32_t levels, int32_t width, int32_t depth, device_analysis* r) {
  const int32_t cap = width * depth;
  std::vector<int32_t> ends;
  int64_t next = 0;
  const int64_t nb = (levels + (int64_t)depth - 1) / depth;
  r->bands = nb;
  for (int64_t b = 0; b < nb; ++b) {
    const int32_t l0 = (int32_t)(b * depth), l1 = (int32_t)std::min<int64_t>(levels, (b + 1) * depth);
    if (asc[b] || desc[b]) {
      ++r->tiled_bands;
      int32_t wmax = 0;
      for (int32_t v = l0; v < l1; ++v) wmax = std::max(wmax, start[v + 1] - start[v]);
      const int32_t tiles = (wmax + width - 1) / width;
      for (int32_t q = 0; q < tiles; ++q) {
        const int32_t w0 = (asc[b] ? q : tiles - 1 - q) * width;
        for (int32_t v = l0; v < l1; ++v) next += std::min(std::max(0, start[v + 1] - start[v] - w0), width);
        if (ends.empty() ? next > 0 : next != ends.back()) ends.push_back((int32_t)next);
      }
    } else {
      for (int32_t v = l0; v < l1; ++v)
        for (int32_t p = 0; p < start[v + 1] - start[v]; p += cap) {
          next += std::min(cap, start[v + 1] - start[v] - p);
          ends.push_back((int32_t)next);
        }
    }
  }
  const int32_t n = start[levels];
  r->chunks.assign(1, 0);
  int32_t prev = 0;
  for (int32_t e : ends) {
    if (e - r->chunks.back() > cap) r->chunks.push_back(prev);
    prev = e;
  }
  if (r->chunks.back() != n) r->chunks.push_back(n);
}

}  // namespace

namespace {

// Device scratch taken from one allocation: every hipMalloc and hipFree is a driver call (a hipFree
// also waits for the device), where the kernels over these buffers take microseconds.
struct arena_plan {
  int64_t words = 0;
  int64_t take(int64_t count) {  // the offset of count words, 64-word aligned (256 bytes)
    const int64_t at = words;
    words += (std::max<int64_t>(count, 1) + 63) / 64 * 64;
    return at;
  }
};

// One event a phase boundary; the times are read once the last phase is done.
struct phase_clock {
  hipEvent_t ev[6] = {};
  int next = 0;
  phase_clock() {
    for (hipEvent_t& e : ev) HIP_CHECK(hipEventCreate(&e));
  }
  ~phase_clock() {
    for (hipEvent_t& e : ev) HIP_CHECK(hipEventDestroy(e));
  }
  void mark() { HIP_CHECK(hipEventRecord(ev[next++], 0)); }
  double since(int i) const {  // seconds from mark i to mark i + 1
    float ms = 0;
    HIP_CHECK(hipEventElapsedTime(&ms, ev[i], ev[i + 1]));
    return ms * 1e-3;
  }
};

}  // namespace

device_analysis analyze_on_device(const int32_t* row_ptr, const int32_t* col, int32_t n,
                                  const device_analysis_params& prm) {
  device_analysis r;
  const int block = prm.block, grid = prm.grid;
  phase_clock clock;
  clock.mark();
  // Levels are at most n (n + 1 with --inject-analysis-error), so every size is known from n.
  const int64_t max_bands = (n + 1 + (int64_t)prm.depth - 1) / prm.depth + 1;
  arena_plan ap;
  const int64_t o_lev = ap.take(n), o_top = ap.take(1), o_counter = ap.take(1);
  const int64_t o_key[2] = {ap.take(n), ap.take(n)}, o_row[2] = {ap.take(n), ap.take(n)};
  const int64_t o_sort = ap.take(sort_scratch_words(n, block));
  const int64_t o_start = ap.take((int64_t)n + 2);
  const int64_t o_asc = prm.tiles ? ap.take(max_bands) : 0, o_desc = prm.tiles ? ap.take(max_bands) : 0;
  int32_t* base = alloc<int32_t>(ap.words);
  r.arena = base;
  int32_t* lev = base + o_lev;
  int32_t* top = base + o_top;
  unsigned* counter = (unsigned*)(base + o_counter);
  HIP_CHECK(hipMemset(lev, 0xff, (size_t)n * sizeof(int32_t)));
  HIP_CHECK(hipMemset(top, 0xff, sizeof(int32_t)));
  HIP_CHECK(hipMemset(counter, 0, sizeof(unsigned)));
  clock.mark();

  const level_args la{row_ptr,     col, lev, counter, top, n, prm.inject && n > 0 ? n - 1 : -1, prm.timeout_ns,
                      prm.backoff_ns};
  const int64_t per_wg = (int64_t)block * prm.rows_per_thread;
  const int lgrid = (int)((n + per_wg - 1) / per_wg);
  switch (prm.rows_per_thread) {
    case 1: launch(ad_levels<1>, lgrid, block, la); break;
    case 2: launch(ad_levels<2>, lgrid, block, la); break;
    case 4: launch(ad_levels<4>, lgrid, block, la); break;
    default: launch(ad_levels<8>, lgrid, block, la); break;
  }
  int32_t top_h = -1;
  HIP_CHECK(hipMemcpy(&top_h, top, sizeof top_h, hipMemcpyDeviceToHost));
  r.levels = top_h + 1;
  clock.mark();

  // (level, row) pairs sorted by level, stably: the level order.
  int32_t* const key_buf[2] = {base + o_key[0], base + o_key[1]};
  int32_t* const row_buf[2] = {base + o_row[0], base + o_row[1]};
  const sorted_by_level sorted = sort_by_level_dev(lev, n, top_h, block, grid, key_buf, row_buf, base + o_sort);
  const int32_t *key = sorted.key, *row = sorted.row;
  int32_t *spare_key = key_buf[sorted.spare], *spare_row = row_buf[sorted.spare];  // free now
  clock.mark();

  int32_t* start = base + o_start;
  launch(ad_level_starts, grid, block, key, n, r.levels, start);
  int32_t* lo = spare_key;  // level order
  launch(ad_invert, grid, block, row, lo, n);
  r.new_of = lo;
  clock.mark();

  if (prm.tiles && n > 0) {
    const int64_t nb = (r.levels + (int64_t)prm.depth - 1) / prm.depth;
    int32_t *asc = base + o_asc, *desc = base + o_desc;
    launch(ad_fill, grid, block, asc, nb, 1);
    launch(ad_fill, grid, block, desc, nb, 1);
    tile_args ta{row_ptr, col, lev, lo, start, key, row, asc, desc, spare_row, n, r.levels, prm.width, prm.depth};
    launch(ad_tile_flags, grid, block, ta);
    launch(ad_tile_order, grid, block, ta);
    std::vector<int32_t> start_h((size_t)r.levels + 1), asc_h((size_t)nb), desc_h((size_t)nb);
    HIP_CHECK(hipMemcpy(start_h.data(), start, start_h.size() * sizeof(int32_t), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(asc_h.data(), asc, (size_t)nb * sizeof(int32_t), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(desc_h.data(), desc, (size_t)nb * sizeof(int32_t), hipMemcpyDeviceToHost));
    host_chunks(start_h, asc_h, desc_h, r.levels, prm.width, prm.depth, &r);
    r.nchunks = (unsigned)(r.chunks.size() - 1);
    r.chunk_start = upload<int32_t>(r.chunks);
    r.new_of = spare_row;
  }
  clock.mark();
  HIP_CHECK(hipEventSynchronize(clock.ev[5]));
  r.phases.setup_s = clock.since(0);
  r.phases.levels_s = clock.since(1);
  r.phases.sort_s = clock.since(2);
  r.phases.order_s = clock.since(3);
  r.phases.tiles_s = clock.since(4);
  if (prm.keep) r.level_dev = lev;
  return r;
}

void fetch_analysis(device_analysis* r, int32_t n) {
  r->level.resize((size_t)n);
  r->order.resize((size_t)n);
  if (n == 0) return;
  HIP_CHECK(hipMemcpy(r->level.data(), r->level_dev, (size_t)n * sizeof(int32_t), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(r->order.data(), r->new_of, (size_t)n * sizeof(int32_t), hipMemcpyDeviceToHost));
}

void free_analysis(device_analysis* r) {
  HIP_CHECK(hipFree(r->arena));
  r->arena = nullptr;
  r->new_of = r->level_dev = nullptr;
}

}  // namespace spts
