// The shape of a strided transfer, shared by the host API (host/strided.cpp) and kernels
// (device/api/strided.h): contiguous blocks of `block` bytes, laid out along up to three strided
// dimensions (innermost first) with a byte stride per dimension on each side. Every strided routine
// (iput/iget, ibput/ibget, the subarray extension) becomes one of these, and the shape is analysed
// once (shape_simplify) before any byte moves: dimensions of one index are dropped, a dimension
// whose blocks touch on both sides is merged into the block, and two dimensions that tile each
// other on both sides become one. A fully contiguous transfer ends with dims == 0: one put.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "runtime/defs.h"

#define GIO_STRIDED_MAX_DIMS 3

struct gio_strided_shape {
  size_t block;  // contiguous bytes per block (> 0 once simplified)
  int dims;      // strided dimensions in use, 0..GIO_STRIDED_MAX_DIMS
  // Per dimension: how many blocks, and the bytes between consecutive ones at the destination and
  // at the source. Dimensions past `dims` hold count 1 and stride 0, so index arithmetic needs no
  // case for them.
  size_t count[GIO_STRIDED_MAX_DIMS];
  ptrdiff_t dstride[GIO_STRIDED_MAX_DIMS];
  ptrdiff_t sstride[GIO_STRIDED_MAX_DIMS];
};

namespace gio {

GIO_HOST_DEVICE_INLINE gio_strided_shape shape_make(size_t block) {
  gio_strided_shape s;
  s.block = block;
  s.dims = 0;
  for (int i = 0; i < GIO_STRIDED_MAX_DIMS; ++i) s.count[i] = 1, s.dstride[i] = 0, s.sstride[i] = 0;
  return s;
}
GIO_HOST_DEVICE_INLINE void shape_push(gio_strided_shape& s, size_t count, ptrdiff_t dstride, ptrdiff_t sstride) {
  s.count[s.dims] = count, s.dstride[s.dims] = dstride, s.sstride[s.dims] = sstride;
  ++s.dims;
}

GIO_HOST_DEVICE_INLINE size_t shape_blocks(const gio_strided_shape& s) {
  return s.count[0] * s.count[1] * s.count[2];
}
GIO_HOST_DEVICE_INLINE bool shape_empty(const gio_strided_shape& s) { return s.block == 0 || shape_blocks(s) == 0; }

// Bytes from the first byte of the first block to one past the last block's end, on the
// destination (dst = true) or source side. Strides are never negative (the routines reject them).
GIO_HOST_DEVICE_INLINE size_t shape_extent(const gio_strided_shape& s, bool dst) {
  size_t e = s.block;
  for (int i = 0; i < s.dims; ++i) e += (s.count[i] - 1) * (size_t)(dst ? s.dstride[i] : s.sstride[i]);
  return e;
}

GIO_HOST_DEVICE_INLINE void shape_drop(gio_strided_shape& s, int i) {
  for (int k = i; k + 1 < GIO_STRIDED_MAX_DIMS; ++k)
    s.count[k] = s.count[k + 1], s.dstride[k] = s.dstride[k + 1], s.sstride[k] = s.sstride[k + 1];
  s.count[GIO_STRIDED_MAX_DIMS - 1] = 1, s.dstride[GIO_STRIDED_MAX_DIMS - 1] = 0,
                                 s.sstride[GIO_STRIDED_MAX_DIMS - 1] = 0;
  --s.dims;
}

// The analysis above. A non-empty shape keeps its bytes and their order: only the description shrinks.
GIO_HOST_DEVICE_INLINE void shape_simplify(gio_strided_shape& s) {
  for (int i = s.dims - 1; i >= 0; --i)
    if (s.count[i] == 1) shape_drop(s, i);
  // Blocks that touch on both sides make one longer block (row-contiguous subarrays, iput of stride 1).
  while (s.dims > 0 && (size_t)s.dstride[0] == s.block && (size_t)s.sstride[0] == s.block) {
    s.block *= s.count[0];
    shape_drop(s, 0);
  }
  // Dimension i+1 steps exactly over all of dimension i on both sides: one dimension.
  for (int i = 0; i + 1 < s.dims;) {
    if (s.dstride[i + 1] == s.dstride[i] * (ptrdiff_t)s.count[i] &&
        s.sstride[i + 1] == s.sstride[i] * (ptrdiff_t)s.count[i]) {
      s.count[i] *= s.count[i + 1];
      shape_drop(s, i + 1);
    } else {
      ++i;
    }
  }
}

// Byte offsets of block `i` (blocks numbered innermost dimension fastest). The divisions are
// 32-bit where the counts allow (a GPU's 64-bit division is a long instruction sequence), and
// absent for one dimension.
GIO_HOST_DEVICE_INLINE void shape_offsets(const gio_strided_shape& s, size_t i, size_t& doff, size_t& soff) {
  size_t i0 = i, i1 = 0, i2 = 0;
  if (s.dims > 1) {
    if ((i >> 32) == 0 && (s.count[0] >> 32) == 0 && (s.count[1] >> 32) == 0) {
      const uint32_t r = (uint32_t)i / (uint32_t)s.count[0];
      i0 = (uint32_t)i - r * (uint32_t)s.count[0];
      i1 = s.dims > 2 ? r % (uint32_t)s.count[1] : r;
      i2 = s.dims > 2 ? r / (uint32_t)s.count[1] : 0;
    } else {
      const size_t r = i / s.count[0];
      i0 = i % s.count[0];
      i1 = s.dims > 2 ? r % s.count[1] : r;
      i2 = s.dims > 2 ? r / s.count[1] : 0;
    }
  }
  doff = i0 * (size_t)s.dstride[0] + i1 * (size_t)s.dstride[1] + i2 * (size_t)s.dstride[2];
  soff = i0 * (size_t)s.sstride[0] + i1 * (size_t)s.sstride[1] + i2 * (size_t)s.sstride[2];
}

}  // namespace gio

// Argument checks every strided routine makes, host and device alike (each side prints its own
// error line from this): a destination stride below the block (1 element; ibput: bsize) would
// write two blocks onto one, and negative strides are not supported; a source stride of 0 repeats
// one source block.
enum gio_strided_fault { GIO_STRIDED_OK = 0, GIO_STRIDED_DST_STRIDE, GIO_STRIDED_SRC_STRIDE, GIO_STRIDED_NDIMS };
struct gio_strided_check {
  int fault;        // gio_strided_fault
  int dim;          // the dimension at fault (subarrays), else 0
  long long value;  // the offending argument
  long long bound;  // the least it may be (destination strides)
};

namespace gio {
GIO_HOST_DEVICE_INLINE gio_strided_check strided_check_strides(ptrdiff_t dst, ptrdiff_t sst, int dim, size_t min_dst = 1) {
  if (min_dst < 1) min_dst = 1;
  if (dst < (ptrdiff_t)min_dst) return gio_strided_check{GIO_STRIDED_DST_STRIDE, dim, (long long)dst, (long long)min_dst};
  if (sst < 0) return gio_strided_check{GIO_STRIDED_SRC_STRIDE, dim, (long long)sst, 0};
  return gio_strided_check{GIO_STRIDED_OK, 0, 0, 0};
}
GIO_HOST_DEVICE_INLINE gio_strided_check strided_check_subarray(const ptrdiff_t* dst_strides, const ptrdiff_t* src_strides,
                                                  int ndims) {
  if (ndims < 1 || ndims > GIO_STRIDED_MAX_DIMS) return gio_strided_check{GIO_STRIDED_NDIMS, 0, (long long)ndims, 1};
  for (int i = 0; i < ndims; ++i) {
    gio_strided_check c = strided_check_strides(dst_strides[i], src_strides[i], i);
    if (c.fault) return c;
  }
  return gio_strided_check{GIO_STRIDED_OK, 0, 0, 0};
}
// The shape of a subarray: counts[i] elements along dimension i (0 innermost), strides in elements.
GIO_HOST_DEVICE_INLINE gio_strided_shape shape_subarray(const ptrdiff_t* dst_strides, const ptrdiff_t* src_strides,
                                          const size_t* counts, int ndims, size_t elem) {
  gio_strided_shape s = shape_make(elem);
  for (int i = 0; i < ndims; ++i)
    shape_push(s, counts[i], dst_strides[i] * (ptrdiff_t)elem, src_strides[i] * (ptrdiff_t)elem);
  return s;
}
// iput/iget (bsize 1) and ibput/ibget: nblocks blocks of bsize elements.
GIO_HOST_DEVICE_INLINE gio_strided_shape shape_blocks_of(ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem) {
  gio_strided_shape s = shape_make(bsize * elem);
  shape_push(s, nblocks, dst * (ptrdiff_t)elem, sst * (ptrdiff_t)elem);
  return s;
}
}  // namespace gio
