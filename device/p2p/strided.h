// Strided transfers over p2p: the lanes load from one side and store straight into the other (the
// peer's mapped heap for a put), so there is nothing to pack: the GPU MPI_Pack kernel's work is done
// by the stores themselves. Specialised, as that kernel is, by block length and word size:
// - blocks large enough to keep every lane of the scope busy: one block after another, each copied
//   by the whole scope (a lone thread hands a large one to the bulk-copy engine, see p2p.h);
// - smaller blocks: each lane copies whole blocks, with the widest word (16, 8, 4, 2 or 1 bytes)
//   that divides both base addresses, the block length and every stride, so no block needs a head
//   or a tail; a block of one word is one load and one store, with a batch of blocks in flight per
//   lane (S::copy_batch), as copy_words keeps a batch of words in flight.
#pragma once
#include "runtime/api/strided_shape.h"
#include "device/p2p/p2p.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
struct word2 {
  typedef unsigned short type;
  static constexpr size_t align = 2;
};
namespace p2p {

// Blocks of exactly one W word: a batch of B blocks' loads in flight before their stores.
template <typename W, unsigned B>
GIO_DEVICE_INLINE void strided_words(uint8_t* d, const uint8_t* s, const gio_strided_shape& sh, size_t n, unsigned lane,
                           unsigned lanes) {
  typedef typename W::type T;
  size_t i = lane;
  for (; i + (size_t)(B - 1) * lanes < n; i += (size_t)B * lanes) {
    T v[B];
    size_t od[B];
    GIO_UNROLL
    for (unsigned k = 0; k < B; ++k) {
      size_t os;
      shape_offsets(sh, i + k * lanes, od[k], os);
      v[k] = *(const T*)(s + os);
    }
    GIO_UNROLL
    for (unsigned k = 0; k < B; ++k) *(T*)(d + od[k]) = v[k];
  }
  for (; i < n; i += lanes) {
    size_t od, os;
    shape_offsets(sh, i, od, os);
    *(T*)(d + od) = *(const T*)(s + os);
  }
}

// Blocks of several W words, one lane each.
template <typename W, unsigned B>
GIO_DEVICE_INLINE void strided_blocks(uint8_t* d, const uint8_t* s, const gio_strided_shape& sh, size_t n, unsigned lane,
                            unsigned lanes) {
  typedef typename W::type T;
  const size_t words = sh.block / W::align;
  for (size_t i = lane; i < n; i += lanes) {
    size_t od, os;
    shape_offsets(sh, i, od, os);
    if (sh.block > 16) {
      copy_words<W, B, true>(d + od, s + os, sh.block, 0, 1);  // aligned: no head, no tail
    } else {
      for (size_t k = 0; k < words; ++k) ((T*)(d + od))[k] = ((const T*)(s + os))[k];
    }
  }
}

template <typename W, unsigned B>
GIO_DEVICE_INLINE void strided_lanes(uint8_t* d, const uint8_t* s, const gio_strided_shape& sh, size_t n, unsigned lane,
                           unsigned lanes) {
  if (sh.block == W::align)
    strided_words<W, B>(d, s, sh, n, lane, lanes);
  else
    strided_blocks<W, B>(d, s, sh, n, lane, lanes);
}

// Copy the (simplified, non-empty) shape from s to d: exactly one of them is in the peer's mapping.
template <typename S>
GIO_DEVICE_INLINE void strided_copy(const gio_device_state_v1& st, uint8_t* d, const uint8_t* s, const gio_strided_shape& sh) {
  if (sh.dims == 0) {
    copy<S>(st, d, s, sh.block);
    return;
  }
  const size_t n = shape_blocks(sh);
  const unsigned lane = S::lane(), lanes = S::lanes();
  // A whole scope per block once every lane gets at least one 16-byte word of it (a lone thread:
  // from 64 bytes, where copy_bytes' batched word loop beats a word-per-block loop).
  if (sh.block >= (lanes == 1 ? 64u : (size_t)lanes * 16u)) {
    for (size_t i = 0; i < n; ++i) {
      size_t od, os;
      shape_offsets(sh, i, od, os);
      copy<S>(st, d + od, s + os, sh.block);
    }
    return;
  }
  uintptr_t a = (uintptr_t)d | (uintptr_t)s | (uintptr_t)sh.block;
  for (int k = 0; k < sh.dims; ++k) a |= (uintptr_t)sh.dstride[k] | (uintptr_t)sh.sstride[k];
  if ((a & 15) == 0)
    strided_lanes<word16, S::copy_batch>(d, s, sh, n, lane, lanes);
  else if ((a & 7) == 0)
    strided_lanes<word8, S::copy_batch>(d, s, sh, n, lane, lanes);
  else if ((a & 3) == 0)
    strided_lanes<word4, S::copy_batch>(d, s, sh, n, lane, lanes);
  else if ((a & 1) == 0)
    strided_lanes<word2, S::copy_batch>(d, s, sh, n, lane, lanes);
  else
    strided_lanes<word1, S::copy_batch>(d, s, sh, n, lane, lanes);
}

}  // namespace p2p
}  // namespace dev
}  // namespace gio
#endif
