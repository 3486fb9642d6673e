// The one-PE level-ordered renumbering's copy on the device (analysis_dev.h or renumber.h gives
// the order): from L as uploaded (values in double) and new_of, the renumbered CSR, and per solve the right-hand side gathered into the
// new order and the solution scattered back. Grid-stride kernels; the row pointers' prefix sum is
// scan_exclusive_dev's (sort_dev.h).
#pragma once
#include <cstdint>

#include "syncfree.h"

namespace spts {

// old_of[new_of[i]] = i; len[nw] = the length of row old_of[nw] (len[n] = 0 for the scan).
__global__ void rn_rows(const int32_t* row_ptr, const int32_t* new_of, int32_t* old_of, int32_t* len, int32_t n) {
  for (int64_t i = grid_thread(); i < n; i += grid_threads()) {
    const int32_t nw = new_of[i];
    old_of[nw] = (int32_t)i;
    len[nw] = row_ptr[i + 1] - row_ptr[i];
  }
  if (grid_thread() == 0) len[n] = 0;
}

// *sum += the off-diagonals of the rows with at least min_len of them (--kernel auto's long rows).
__global__ void rn_long_rows(const int32_t* row_ptr, int32_t n, int32_t min_len, unsigned long long* sum) {
  unsigned long long s = 0;
  for (int64_t i = grid_thread(); i < n; i += grid_threads()) {
    const int32_t r = row_ptr[i + 1] - row_ptr[i] - 1;
    if (r >= min_len) s += (unsigned long long)r;
  }
  if (s) atomicAdd(sum, s);
}

// dst = src converted to T.
template <typename T>
__global__ void rn_convert(const double* src, T* dst, int64_t n) {
  for (int64_t i = grid_thread(); i < n; i += grid_threads()) dst[i] = (T)src[i];
}

// Row nw of the renumbered L: row old_of[nw]'s off-diagonals with their columns renumbered, sorted
// ascending where the row has at most kSortedRow of them (longer rows, power-law hubs, keep L's
// order: the kernels need only the diagonal last), then the diagonal.
constexpr int32_t kSortedRow = 32;
template <typename T>
__global__ void rn_copy(const int32_t* row_ptr, const int32_t* col, const double* val, const int32_t* old_of,
                        const int32_t* new_of, const int32_t* rp_new, int32_t* col_new, T* val_new, int32_t n) {
  for (int64_t nw = grid_thread(); nw < n; nw += grid_threads()) {
    const int32_t old = old_of[nw], s = row_ptr[old], e = row_ptr[old + 1] - 1, m = e - s;
    int32_t* c = col_new + rp_new[nw];
    T* v = val_new + rp_new[nw];
    for (int32_t k = 0; k < m; ++k) {
      const int32_t cc = new_of[col[s + k]];
      const T vv = (T)val[s + k];
      int32_t j = k;
      if (m <= kSortedRow)
        for (; j > 0 && c[j - 1] > cc; --j) c[j] = c[j - 1], v[j] = v[j - 1];
      c[j] = cc;
      v[j] = vv;
    }
    c[m] = (int32_t)nw;
    v[m] = (T)val[e];
  }
}

// b in the new order: dst[nw] = src[old_of[nw]].
template <typename T>
__global__ void rn_gather(const T* src, const int32_t* old_of, T* dst, int32_t n) {
  for (int64_t nw = grid_thread(); nw < n; nw += grid_threads()) dst[nw] = src[old_of[nw]];
}

// x in L's order: x[old_of[nw]] = the solved word of row nw.
template <typename T>
__global__ void rn_scatter(const uint64_t* xw, const int32_t* old_of, T* x, int32_t n) {
  for (int64_t nw = grid_thread(); nw < n; nw += grid_threads()) x[old_of[nw]] = from_word<T>(xw[nw]);
}

}  // namespace spts
