// Prefix sums and the stable sort of the rows by level on the device (sort_dev.h).
#include "sort_dev.h"

#include <algorithm>

#include "hip_check.h"
#include "syncfree.h"

namespace spts {

namespace {

template <typename T>
GIO_HOST_DEVICE_INLINE T ad_min(T x, T y) { return x < y ? x : y; }

// ---- exclusive prefix sum -----------------------------------------------------------------
constexpr int kScanItems = 8;  // elements per thread of a scan tile

// The exclusive prefix of x over the work-group (Hillis-Steele in shared memory); *total gets the
// sum of every thread's x.
GIO_DEVICE_INLINE int32_t wg_exclusive(int32_t x, int32_t* total) {
  __shared__ int32_t sh[kMaxBlock];
  const unsigned t = threadIdx.x;
  sh[t] = x;
  __syncthreads();
  for (unsigned off = 1; off < blockDim.x; off *= 2) {
    const int32_t y = t >= off ? sh[t - off] : 0;
    __syncthreads();
    sh[t] += y;
    __syncthreads();
  }
  const int32_t incl = sh[t];
  *total = sh[blockDim.x - 1];
  __syncthreads();  // sh is reused by the next call
  return incl - x;
}

// sums[b] = the sum of tile b (blockDim * kScanItems elements).
__global__ void ad_scan_reduce(const int32_t* v, int64_t m, int32_t* sums) {
  const int64_t at = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * kScanItems;
  int32_t s = 0;
  for (int j = 0; j < kScanItems; ++j)
    if (at + j < m) s += v[at + j];
  int32_t total = 0;
  wg_exclusive(s, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// Tile b scanned in place, starting from offsets[b] (0 without offsets).
__global__ void ad_scan_tiles(int32_t* v, int64_t m, const int32_t* offsets) {
  const int64_t at = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * kScanItems;
  int32_t x[kScanItems], s = 0;
  for (int j = 0; j < kScanItems; ++j) {
    x[j] = at + j < m ? v[at + j] : 0;
    s += x[j];
  }
  int32_t total = 0;
  int32_t run = wg_exclusive(s, &total) + (offsets ? offsets[blockIdx.x] : 0);
  for (int j = 0; j < kScanItems; ++j)
    if (at + j < m) {
      v[at + j] = run;
      run += x[j];
    }
}

// ---- the stable sort of the rows by level ---------------------------------------------------
// An LSD radix sort of (level, row) by the level, kRadixBits a pass, a tile of kSortItems entries
// a thread a work-group. Each thread owns kSortItems consecutive entries of its tile and counts
// their digits in its own column of shared counters; the counters scanned digit-major (digit by
// digit, threads in order within a digit) give each entry its place in the tile, ascending entry
// order within a digit: stable without ranking lanes against each other. The tiles' digit counts,
// digit-major across tiles and scanned, are where each tile's entries of a digit go. Stability is
// what keeps the host's order (ascending original row within a level): tiles rely on a row's
// position in its level being its place on the wavefront.
// Every global access is coalesced (the tile goes through shared memory both ways); a pass reads
// the keys twice and the rows once and writes both once, and the counts are kDigits words a tile.
constexpr int kRadixBits = 5, kDigits = 1 << kRadixBits, kSortItems = 8;
constexpr int kSortTile = kMaxBlock * kSortItems;
// The counters, digit-major, with a word of padding every 32: a thread's own column (one word per
// digit, the threads of a wave on consecutive words) and a thread's segment of the scan (kDigits
// consecutive words) both fall on distinct banks.
GIO_DEVICE_INLINE int cpad(int e) { return e + (e >> 5); }
constexpr int kCountWords = kDigits * kMaxBlock + kDigits * kMaxBlock / 32;
constexpr int kSortShared = kCountWords > 2 * kSortTile ? kCountWords : 2 * kSortTile;

__global__ void ad_iota(int32_t* v, int32_t n) {
  for (int64_t i = grid_thread(); i < n; i += grid_threads()) v[i] = (int32_t)i;
}

// A tile's entries ranked: k, v the thread's entries (key, row), pos their places in the tile
// (sorted by the digit at shift, stably), dstart[d] the first place of digit d and dstart[kDigits]
// the tile's length. area: kSortShared words of shared memory. val null: the row is the entry's
// index (the first pass reads the levels kernel's output: no copy, no pass writing the indices).
GIO_DEVICE_INLINE void tile_rank(const int32_t* key, const int32_t* val, int32_t n, int shift, int32_t* area,
                                 int32_t* dstart, int32_t (&k)[kSortItems], int32_t (&v)[kSortItems],
                                 int32_t (&pos)[kSortItems]) {
  const int b = (int)blockDim.x, t = (int)threadIdx.x, tile = b * kSortItems;
  const int64_t base = (int64_t)blockIdx.x * tile;
  const int len = (int)ad_min<int64_t>(tile, n - base);
  for (int e = t; e < len; e += b) {
    area[e] = key[base + e];
    area[tile + e] = val ? val[base + e] : (int32_t)(base + e);
  }
  __syncthreads();
  for (int j = 0; j < kSortItems; ++j) {
    const int e = t * kSortItems + j;
    k[j] = e < len ? area[e] : 0;
    v[j] = e < len ? area[tile + e] : 0;
  }
  __syncthreads();
  for (int w = t; w < cpad(kDigits * b); w += b) area[w] = 0;
  __syncthreads();
  for (int j = 0; j < kSortItems; ++j)
    if (t * kSortItems + j < len) ++area[cpad(((k[j] >> shift) & (kDigits - 1)) * b + t)];
  __syncthreads();
  int32_t sum = 0;
  for (int e = t * kDigits; e < (t + 1) * kDigits; ++e) sum += area[cpad(e)];
  int32_t total = 0;
  int32_t run = wg_exclusive(sum, &total);
  for (int e = t * kDigits; e < (t + 1) * kDigits; ++e) {
    const int32_t c = area[cpad(e)];
    area[cpad(e)] = run;
    run += c;
  }
  __syncthreads();
  if (t < kDigits) dstart[t] = area[cpad(t * b)];
  if (t == 0) dstart[kDigits] = len;
  __syncthreads();  // dstart is read before thread 0 moves its counters on
  for (int j = 0; j < kSortItems; ++j)
    pos[j] = t * kSortItems + j < len ? area[cpad(((k[j] >> shift) & (kDigits - 1)) * b + t)]++ : -1;
}

// One kernel for both halves of a pass (one shared area, where two kernels would take one each:
// the host platform keeps every kernel's shared memory per thread). offsets null: counts[d * tiles
// + tile] = the tile's entries of digit d. Else the tile's entries go to their sorted places,
// offsets being the scanned counts.
__global__ void ad_sort_pass(const int32_t* key, const int32_t* val, int32_t n, int shift, int32_t* counts,
                             const int32_t* offsets, int32_t* key_out, int32_t* val_out) {
  __shared__ int32_t area[kSortShared];
  __shared__ int32_t dstart[kDigits + 1];
  __shared__ int32_t to[kDigits];
  int32_t k[kSortItems], v[kSortItems], pos[kSortItems];
  tile_rank(key, val, n, shift, area, dstart, k, v, pos);
  const int t = (int)threadIdx.x, b = (int)blockDim.x, tile = b * kSortItems;
  if (!offsets) {
    if (t < kDigits) counts[(int64_t)t * gridDim.x + blockIdx.x] = dstart[t + 1] - dstart[t];
    return;
  }
  if (t < kDigits) to[t] = offsets[(int64_t)t * gridDim.x + blockIdx.x];
  __syncthreads();  // every counter read: the area takes the sorted tile
  for (int j = 0; j < kSortItems; ++j)
    if (pos[j] >= 0) {
      area[pos[j]] = k[j];
      area[tile + pos[j]] = v[j];
    }
  __syncthreads();
  for (int p = t; p < dstart[kDigits]; p += b) {
    const int32_t kk = area[p], d = (kk >> shift) & (kDigits - 1), at = to[d] + p - dstart[d];
    key_out[at] = kk;
    val_out[at] = area[tile + p];
  }
}

template <typename K, typename... Args>
void launch(K kernel, int grid, int block, Args... args) {
  hipLaunchKernelGGL(kernel, dim3(std::max(grid, 1)), dim3(block), 0, 0, args...);
  HIP_CHECK(hipGetLastError());
}

int64_t sort_tiles(int32_t n, int block) {
  const int64_t tile = (int64_t)block * kSortItems;
  return (n + tile - 1) / tile;
}

int32_t* alloc_words(int64_t count) {
  int32_t* p = nullptr;
  HIP_CHECK(hipMalloc((void**)&p, (size_t)std::max<int64_t>(count, 1) * sizeof(int32_t)));
  return p;
}

}  // namespace

int64_t scan_scratch_words(int64_t m, int block) {
  const int64_t tile = (int64_t)block * kScanItems;
  int64_t words = 0;
  for (int64_t tiles = (m + tile - 1) / tile; tiles > 1; tiles = (tiles + tile - 1) / tile) words += tiles;
  return words;
}

void scan_exclusive_dev(int32_t* v, int64_t m, int block, int32_t* scratch) {
  if (m <= 0) return;
  const int64_t tile = (int64_t)block * kScanItems, tiles = (m + tile - 1) / tile;
  if (tiles == 1) {
    launch(ad_scan_tiles, 1, block, v, m, (const int32_t*)nullptr);
    return;
  }
  int32_t* sums = scratch ? scratch : alloc_words(scan_scratch_words(m, block));
  launch(ad_scan_reduce, (int)tiles, block, (const int32_t*)v, m, sums);
  scan_exclusive_dev(sums, tiles, block, sums + tiles);
  launch(ad_scan_tiles, (int)tiles, block, v, m, (const int32_t*)sums);
  if (!scratch) HIP_CHECK(hipFree(sums));
}

int64_t sort_scratch_words(int32_t n, int block) {
  const int64_t counts = sort_tiles(n, block) * kDigits;
  return counts + scan_scratch_words(counts, block);
}

sorted_by_level sort_by_level_dev(const int32_t* lev, int32_t n, int32_t top, int block, int grid,
                                  int32_t* const key_buf[2], int32_t* const row_buf[2], int32_t* scratch) {
  const int64_t tiles = sort_tiles(n, block), counts = tiles * kDigits;
  const int32_t* key = lev;
  const int32_t* row = nullptr;  // the identity until the first pass
  int pass = 0;                  // pass p writes buffer pair p % 2
  for (int shift = 0; (top >> shift) > 0; shift += kRadixBits, ++pass) {
    int32_t *key_out = key_buf[pass % 2], *row_out = row_buf[pass % 2];
    launch(ad_sort_pass, (int)tiles, block, key, row, n, shift, scratch, (const int32_t*)nullptr, (int32_t*)nullptr,
           (int32_t*)nullptr);
    scan_exclusive_dev(scratch, counts, block, scratch + counts);
    launch(ad_sort_pass, (int)tiles, block, key, row, n, shift, (int32_t*)nullptr, (const int32_t*)scratch, key_out,
           row_out);
    key = key_out;
    row = row_out;
  }
  if (!row) {  // one level (or none): the order is L's
    launch(ad_iota, grid, block, row_buf[1], n);
    row = row_buf[1];
  }
  // The last pass (pass - 1) wrote pair (pass - 1) % 2; with no pass only row_buf[1] is taken.
  return sorted_by_level{key, row, pass % 2};
}

}  // namespace spts
