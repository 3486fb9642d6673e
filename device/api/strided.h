// Strided RMA: shmem_TYPE_iput/iget, shmem_iput{8..128}/iget, the 1.6 block-strided
// shmem_TYPE_ibput/ibget (bsize elements per block), their ctx forms, and GIO's subarray extension
// shmemx_putmem_subarray/getmem_subarray (count and stride per dimension, up to 3), at thread
// scope (host and device) and as cooperative _wg/_wave forms (device).
//
// Every routine describes its transfer as a gio_strided_shape (strided_shape.h), which is analysed
// once: contiguous -> one put or get. Then, per transport:
// - p2p: the lanes store straight into the peer's heap, specialised by block length and word size
//   (device/p2p/strided.h). Nothing is packed: the stores are the pack.
// - gda, proxy: one put (or get) per block, spread over the scope's lanes, each posting _nbi except
//   its last (a blocking call waits for that one: a queue completes in order). The lanes of a wave
//   post each round together, which gda turns into one batch of WQEs with one doorbell. A pack into a
//   staging buffer with one put would need an unpack at the target, where over gda nothing runs
//   (the NIC writes one contiguous range per WQE) and over the proxy only a command the proxy
//   unpacks itself (not built: see README "Strided RMA").
#pragma once
#include "device/dispatch/dispatch.h"
#include "runtime/api/strided_shape.h"
#include "runtime/api/types.h"
#include "device/p2p/strided.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

[[noreturn]] GIO_DEVICE_NOINLINE void fail_strided(const char* rt, gio_strided_check c, int pe) {
  if (c.fault == GIO_STRIDED_DST_STRIDE)
    GIO_DEV_FATAL(rt, "destination stride %lld (dimension %d, for PE %d) is below %lld", c.value, c.dim, pe,
                  c.bound);
  if (c.fault == GIO_STRIDED_SRC_STRIDE)
    GIO_DEV_FATAL(rt, "source stride %lld (dimension %d, for PE %d) is negative", c.value, c.dim, pe);
  GIO_DEV_FATAL(rt, "ndims %lld is outside [1, %d]", c.value, GIO_STRIDED_MAX_DIMS);
}

// One put or get per block over gda or the proxy, blocks dealt to the lanes round-robin.
template <typename S>
GIO_DEVICE_INLINE void strided_per_block(const char* rt, const gio_device_state_v1& st, shmem_ctx_t ctx, bool is_put,
                               uint8_t* d, const uint8_t* s, const gio_strided_shape& sh, int pe, bool nbi) {
  const bool gda = st.peer_transport[pe] == GIO_TRANSPORT_GDA;
  const size_t n = shape_blocks(sh);
  const unsigned lanes = S::lanes();
  for (size_t i = S::lane(); i < n; i += lanes) {
    size_t od, os;
    shape_offsets(sh, i, od, os);
    if (is_put) {
      const bool b_nbi = nbi || i + lanes < n;  // the lane's last put is blocking for a blocking call
      if (gda)
        gda::put(rt, st, ctx, d + od, s + os, sh.block, pe, b_nbi);
      else
        proxy::put(rt, st, ctx, d + od, s + os, sh.block, pe, b_nbi);
    } else if (gda) {
      gda::get(rt, st, ctx, d + od, s + os, sh.block, pe);
    } else {
      proxy::get(rt, st, ctx, d + od, s + os, sh.block, pe);
    }
  }
}

// The strided put (is_put) or get of `sh` between d and s; the symmetric side is on `pe`. Out of
// line on GPUs: one copy per scope, not one per call site (inlined into each of a kernel's calls,
// the word-specialised loops made ptxas take 21 GB and many minutes for test_strided).
template <typename S>
GIO_DEVICE_NOINLINE void strided(const char* rt, shmem_ctx_t ctx, bool is_put, void* d, const void* s, gio_strided_check c,
                     gio_strided_shape sh, int pe, bool nbi) {
  S::sync();
  pe = ctx_pe(rt, ctx, pe);
  check_pe(rt, pe);
  if (c.fault) fail_strided(rt, c, pe);
  if (!shape_empty(sh)) {
    shape_simplify(sh);
    check_sym(rt, is_put ? d : s, shape_extent(sh, is_put), pe);
    check_ctx(rt, ctx);
    const gio_device_state_v1& st = GIO_DSTATE;
    switch (st.peer_transport[pe]) {
      case GIO_TRANSPORT_P2P:
        if (is_put)
          p2p::strided_copy<S>(st, p2p::remote(st, d, pe), (const uint8_t*)s, sh);
        else
          p2p::strided_copy<S>(st, (uint8_t*)d, p2p::remote(st, s, pe), sh);
        break;
      case GIO_TRANSPORT_GDA:
      case GIO_TRANSPORT_PROXY:
        check_ctx_live(rt, ctx);
        strided_per_block<S>(rt, st, ctx, is_put, (uint8_t*)d, (const uint8_t*)s, sh, pe, nbi);
        break;
      default: no_transport(rt, pe);
    }
  }
  S::sync();
}

template <typename S>
GIO_DEVICE_INLINE void blocks(const char* rt, shmem_ctx_t ctx, bool is_put, void* d, const void* s, ptrdiff_t dst,
                    ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem, int pe) {
  strided<S>(rt, ctx, is_put, d, s, strided_check_strides(dst, sst, 0, bsize), shape_blocks_of(dst, sst, bsize, nblocks, elem),
             pe, false);
}
template <typename S>
GIO_DEVICE_INLINE void subarray(const char* rt, shmem_ctx_t ctx, bool is_put, void* d, const ptrdiff_t* dst_strides,
                      const void* s, const ptrdiff_t* src_strides, const size_t* counts, int ndims, size_t elem,
                      int pe) {
  const gio_strided_check c = strided_check_subarray(dst_strides, src_strides, ndims);
  strided<S>(rt, ctx, is_put, d, s, c,
             c.fault ? shape_make(0) : shape_subarray(dst_strides, src_strides, counts, ndims, elem), pe, false);
}

}  // namespace dev
}  // namespace gio
#endif

// Thread scope, host and device.
GIO_HOST_DEVICE_INLINE void gio_rma_blocks(const char* rt, shmem_ctx_t ctx, bool is_put, void* d, const void* s, ptrdiff_t dst,
                             ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem, int pe) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::blocks<::gio::dev::scope_thread>(rt, ctx, is_put, d, s, dst, sst, bsize, nblocks, elem, pe),
               is_put ? gio_host_ibput(rt, ctx, d, s, dst, sst, bsize, nblocks, elem, pe)
                      : gio_host_ibget(rt, ctx, d, s, dst, sst, bsize, nblocks, elem, pe));
}
GIO_HOST_DEVICE_INLINE void gio_rma_subarray(const char* rt, shmem_ctx_t ctx, bool is_put, void* d, const ptrdiff_t* dst_strides,
                               const void* s, const ptrdiff_t* src_strides, const size_t* counts, int ndims,
                               size_t elem, int pe) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::subarray<::gio::dev::scope_thread>(rt, ctx, is_put, d, dst_strides, s, src_strides, counts,
                                                               ndims, elem, pe),
               is_put ? gio_host_put_subarray(rt, ctx, d, dst_strides, s, src_strides, counts, ndims, elem, pe)
                      : gio_host_get_subarray(rt, ctx, d, dst_strides, s, src_strides, counts, ndims, elem, pe));
}

// shmem_[ctx_]TYPE_{iput,iget,ibput,ibget} (W: device/platform/forms.h)
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_DEF_TYPED_STRIDED(W, NAME, T)                                                                    \
  GIO_##W##_INLINE void shmem_ctx_##NAME##_iput(shmem_ctx_t ctx, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst,   \
                                        size_t n, int pe) {                                                  \
    gio_rma_blocks("shmem_ctx_" #NAME "_iput", ctx, true, d, s, dst, sst, 1, n, sizeof(T), pe);             \
  }                                                                                                          \
  GIO_##W##_INLINE void shmem_##NAME##_iput(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {    \
    gio_rma_blocks("shmem_" #NAME "_iput", nullptr, true, d, s, dst, sst, 1, n, sizeof(T), pe);             \
  }                                                                                                          \
  GIO_##W##_INLINE void shmem_ctx_##NAME##_iget(shmem_ctx_t ctx, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst,   \
                                        size_t n, int pe) {                                                  \
    gio_rma_blocks("shmem_ctx_" #NAME "_iget", ctx, false, d, s, dst, sst, 1, n, sizeof(T), pe);            \
  }                                                                                                          \
  GIO_##W##_INLINE void shmem_##NAME##_iget(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {    \
    gio_rma_blocks("shmem_" #NAME "_iget", nullptr, false, d, s, dst, sst, 1, n, sizeof(T), pe);            \
  }                                                                                                          \
  GIO_##W##_INLINE void shmem_ctx_##NAME##_ibput(shmem_ctx_t ctx, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst,  \
                                         size_t bsize, size_t nblocks, int pe) {                             \
    gio_rma_blocks("shmem_ctx_" #NAME "_ibput", ctx, true, d, s, dst, sst, bsize, nblocks, sizeof(T), pe);  \
  }                                                                                                          \
  GIO_##W##_INLINE void shmem_##NAME##_ibput(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,         \
                                     size_t nblocks, int pe) {                                               \
    gio_rma_blocks("shmem_" #NAME "_ibput", nullptr, true, d, s, dst, sst, bsize, nblocks, sizeof(T), pe);  \
  }                                                                                                          \
  GIO_##W##_INLINE void shmem_ctx_##NAME##_ibget(shmem_ctx_t ctx, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst,  \
                                         size_t bsize, size_t nblocks, int pe) {                             \
    gio_rma_blocks("shmem_ctx_" #NAME "_ibget", ctx, false, d, s, dst, sst, bsize, nblocks, sizeof(T), pe); \
  }                                                                                                          \
  GIO_##W##_INLINE void shmem_##NAME##_ibget(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,         \
                                     size_t nblocks, int pe) {                                               \
    gio_rma_blocks("shmem_" #NAME "_ibget", nullptr, false, d, s, dst, sst, bsize, nblocks, sizeof(T), pe); \
  }                                                                                                          \
  GIO_##W##_INLINE void shmemx_ctx_##NAME##_put_subarray(shmem_ctx_t ctx, T* d, const ptrdiff_t* ds, const T* s,   \
                                                 const ptrdiff_t* ss, const size_t* counts, int ndims, int pe) { \
    gio_rma_subarray("shmemx_ctx_" #NAME "_put_subarray", ctx, true, d, ds, s, ss, counts, ndims, sizeof(T), pe); \
  }                                                                                                          \
  GIO_##W##_INLINE void shmemx_##NAME##_put_subarray(T* d, const ptrdiff_t* ds, const T* s, const ptrdiff_t* ss,   \
                                             const size_t* counts, int ndims, int pe) {                      \
    gio_rma_subarray("shmemx_" #NAME "_put_subarray", nullptr, true, d, ds, s, ss, counts, ndims, sizeof(T), pe); \
  }                                                                                                          \
  GIO_##W##_INLINE void shmemx_ctx_##NAME##_get_subarray(shmem_ctx_t ctx, T* d, const ptrdiff_t* ds, const T* s,   \
                                                 const ptrdiff_t* ss, const size_t* counts, int ndims, int pe) { \
    gio_rma_subarray("shmemx_ctx_" #NAME "_get_subarray", ctx, false, d, ds, s, ss, counts, ndims, sizeof(T), pe); \
  }                                                                                                          \
  GIO_##W##_INLINE void shmemx_##NAME##_get_subarray(T* d, const ptrdiff_t* ds, const T* s, const ptrdiff_t* ss,   \
                                             const size_t* counts, int ndims, int pe) {                      \
    gio_rma_subarray("shmemx_" #NAME "_get_subarray", nullptr, false, d, ds, s, ss, counts, ndims, sizeof(T), pe); \
  }
#define GIO_DEF_TYPED_STRIDED_HOST_DEVICE(NAME, T) GIO_DEF_TYPED_STRIDED(HOST_DEVICE, NAME, T)
#define GIO_DEF_TYPED_STRIDED_HOST(NAME, T) GIO_DEF_TYPED_STRIDED(HOST, NAME, T)
GIO_RMA_TYPES(GIO_DEF_TYPED_STRIDED_HOST_DEVICE)
GIO_RMA_HOST_TYPES(GIO_DEF_TYPED_STRIDED_HOST)
#undef GIO_DEF_TYPED_STRIDED_HOST_DEVICE
#undef GIO_DEF_TYPED_STRIDED_HOST
#undef GIO_DEF_TYPED_STRIDED

// shmem_[ctx_]{iput,iget,ibput,ibget}{8,...,128}
#define GIO_DEF_SIZED_STRIDED(BITS, BYTES)                                                                   \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst,   \
                                     size_t n, int pe) {                                                     \
    gio_rma_blocks("shmem_ctx_iput" #BITS, ctx, true, d, s, dst, sst, 1, n, BYTES, pe);                     \
  }                                                                                                          \
  GIO_HOST_DEVICE_INLINE void shmem_iput##BITS(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {    \
    gio_rma_blocks("shmem_iput" #BITS, nullptr, true, d, s, dst, sst, 1, n, BYTES, pe);                     \
  }                                                                                                          \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst,   \
                                     size_t n, int pe) {                                                     \
    gio_rma_blocks("shmem_ctx_iget" #BITS, ctx, false, d, s, dst, sst, 1, n, BYTES, pe);                    \
  }                                                                                                          \
  GIO_HOST_DEVICE_INLINE void shmem_iget##BITS(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {    \
    gio_rma_blocks("shmem_iget" #BITS, nullptr, false, d, s, dst, sst, 1, n, BYTES, pe);                    \
  }                                                                                                          \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_ibput##BITS(shmem_ctx_t ctx, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst,  \
                                      size_t bsize, size_t nblocks, int pe) {                                \
    gio_rma_blocks("shmem_ctx_ibput" #BITS, ctx, true, d, s, dst, sst, bsize, nblocks, BYTES, pe);          \
  }                                                                                                          \
  GIO_HOST_DEVICE_INLINE void shmem_ibput##BITS(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,         \
                                  size_t nblocks, int pe) {                                                  \
    gio_rma_blocks("shmem_ibput" #BITS, nullptr, true, d, s, dst, sst, bsize, nblocks, BYTES, pe);          \
  }                                                                                                          \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_ibget##BITS(shmem_ctx_t ctx, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst,  \
                                      size_t bsize, size_t nblocks, int pe) {                                \
    gio_rma_blocks("shmem_ctx_ibget" #BITS, ctx, false, d, s, dst, sst, bsize, nblocks, BYTES, pe);         \
  }                                                                                                          \
  GIO_HOST_DEVICE_INLINE void shmem_ibget##BITS(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,         \
                                  size_t nblocks, int pe) {                                                  \
    gio_rma_blocks("shmem_ibget" #BITS, nullptr, false, d, s, dst, sst, bsize, nblocks, BYTES, pe);         \
  }
GIO_RMA_SIZES(GIO_DEF_SIZED_STRIDED)
#undef GIO_DEF_SIZED_STRIDED

// shmemx_[ctx_]{put,get}mem_subarray: counts[i] elements of elem_size bytes along dimension i
// (0 innermost, up to 3), dst_strides[i] / src_strides[i] elements apart; strides {1, ...} make
// rows of counts[0] contiguous elements.
GIO_HOST_DEVICE_INLINE void shmemx_ctx_putmem_subarray(shmem_ctx_t ctx, void* d, const ptrdiff_t* ds, const void* s,
                                         const ptrdiff_t* ss, const size_t* counts, int ndims, size_t elem_size,
                                         int pe) {
  gio_rma_subarray("shmemx_ctx_putmem_subarray", ctx, true, d, ds, s, ss, counts, ndims, elem_size, pe);
}
GIO_HOST_DEVICE_INLINE void shmemx_putmem_subarray(void* d, const ptrdiff_t* ds, const void* s, const ptrdiff_t* ss,
                                     const size_t* counts, int ndims, size_t elem_size, int pe) {
  gio_rma_subarray("shmemx_putmem_subarray", nullptr, true, d, ds, s, ss, counts, ndims, elem_size, pe);
}
GIO_HOST_DEVICE_INLINE void shmemx_ctx_getmem_subarray(shmem_ctx_t ctx, void* d, const ptrdiff_t* ds, const void* s,
                                         const ptrdiff_t* ss, const size_t* counts, int ndims, size_t elem_size,
                                         int pe) {
  gio_rma_subarray("shmemx_ctx_getmem_subarray", ctx, false, d, ds, s, ss, counts, ndims, elem_size, pe);
}
GIO_HOST_DEVICE_INLINE void shmemx_getmem_subarray(void* d, const ptrdiff_t* ds, const void* s, const ptrdiff_t* ss,
                                     const size_t* counts, int ndims, size_t elem_size, int pe) {
  gio_rma_subarray("shmemx_getmem_subarray", nullptr, false, d, ds, s, ss, counts, ndims, elem_size, pe);
}

// Cooperative forms (kernels): every lane of the work-group or wave calls with the same arguments.
#if GIO_KERNEL_COMPILER
#define GIO_DEF_SCOPED_STRIDED1(NAME, T, SFX, S)                                                             \
  GIO_DEVICE_INLINE void shmemx_##NAME##_iput##SFX(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {  \
    ::gio::dev::blocks<S>("shmemx_" #NAME "_iput" #SFX, nullptr, true, d, s, dst, sst, 1, n, sizeof(T), pe); \
  }                                                                                                          \
  GIO_DEVICE_INLINE void shmemx_##NAME##_iget##SFX(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {  \
    ::gio::dev::blocks<S>("shmemx_" #NAME "_iget" #SFX, nullptr, false, d, s, dst, sst, 1, n, sizeof(T), pe); \
  }                                                                                                          \
  GIO_DEVICE_INLINE void shmemx_##NAME##_ibput##SFX(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,       \
                                          size_t nblocks, int pe) {                                          \
    ::gio::dev::blocks<S>("shmemx_" #NAME "_ibput" #SFX, nullptr, true, d, s, dst, sst, bsize, nblocks,      \
                          sizeof(T), pe);                                                                    \
  }                                                                                                          \
  GIO_DEVICE_INLINE void shmemx_##NAME##_ibget##SFX(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,       \
                                          size_t nblocks, int pe) {                                          \
    ::gio::dev::blocks<S>("shmemx_" #NAME "_ibget" #SFX, nullptr, false, d, s, dst, sst, bsize, nblocks,     \
                          sizeof(T), pe);                                                                    \
  }                                                                                                          \
  GIO_DEVICE_INLINE void shmemx_##NAME##_put_subarray##SFX(T* d, const ptrdiff_t* ds, const T* s, const ptrdiff_t* ss,  \
                                                 const size_t* counts, int ndims, int pe) {                  \
    ::gio::dev::subarray<S>("shmemx_" #NAME "_put_subarray" #SFX, nullptr, true, d, ds, s, ss, counts, ndims, \
                            sizeof(T), pe);                                                                  \
  }                                                                                                          \
  GIO_DEVICE_INLINE void shmemx_##NAME##_get_subarray##SFX(T* d, const ptrdiff_t* ds, const T* s, const ptrdiff_t* ss,  \
                                                 const size_t* counts, int ndims, int pe) {                  \
    ::gio::dev::subarray<S>("shmemx_" #NAME "_get_subarray" #SFX, nullptr, false, d, ds, s, ss, counts,      \
                            ndims, sizeof(T), pe);                                                           \
  }
#define GIO_DEF_SCOPED_STRIDED(NAME, T)                              \
  GIO_DEF_SCOPED_STRIDED1(NAME, T, _wg, ::gio::dev::scope_wg)        \
  GIO_DEF_SCOPED_STRIDED1(NAME, T, _wave, ::gio::dev::scope_wave)
GIO_RMA_TYPES(GIO_DEF_SCOPED_STRIDED)
#undef GIO_DEF_SCOPED_STRIDED
#undef GIO_DEF_SCOPED_STRIDED1

#define GIO_DEF_SCOPED_SIZED_STRIDED1(BITS, BYTES, SFX, S)                                                   \
  GIO_DEVICE_INLINE void shmemx_iput##BITS##SFX(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    ::gio::dev::blocks<S>("shmemx_iput" #BITS #SFX, nullptr, true, d, s, dst, sst, 1, n, BYTES, pe);         \
  }                                                                                                          \
  GIO_DEVICE_INLINE void shmemx_iget##BITS##SFX(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    ::gio::dev::blocks<S>("shmemx_iget" #BITS #SFX, nullptr, false, d, s, dst, sst, 1, n, BYTES, pe);        \
  }
#define GIO_DEF_SCOPED_SIZED_STRIDED(BITS, BYTES)                              \
  GIO_DEF_SCOPED_SIZED_STRIDED1(BITS, BYTES, _wg, ::gio::dev::scope_wg)        \
  GIO_DEF_SCOPED_SIZED_STRIDED1(BITS, BYTES, _wave, ::gio::dev::scope_wave)
GIO_RMA_SIZES(GIO_DEF_SCOPED_SIZED_STRIDED)
#undef GIO_DEF_SCOPED_SIZED_STRIDED
#undef GIO_DEF_SCOPED_SIZED_STRIDED1

#define GIO_DEF_SCOPED_SUBARRAY(SFX, S)                                                                      \
  GIO_DEVICE_INLINE void shmemx_putmem_subarray##SFX(void* d, const ptrdiff_t* ds, const void* s, const ptrdiff_t* ss,  \
                                           const size_t* counts, int ndims, size_t elem_size, int pe) {      \
    ::gio::dev::subarray<S>("shmemx_putmem_subarray" #SFX, nullptr, true, d, ds, s, ss, counts, ndims,       \
                            elem_size, pe);                                                                  \
  }                                                                                                          \
  GIO_DEVICE_INLINE void shmemx_getmem_subarray##SFX(void* d, const ptrdiff_t* ds, const void* s, const ptrdiff_t* ss,  \
                                           const size_t* counts, int ndims, size_t elem_size, int pe) {      \
    ::gio::dev::subarray<S>("shmemx_getmem_subarray" #SFX, nullptr, false, d, ds, s, ss, counts, ndims,      \
                            elem_size, pe);                                                                  \
  }
GIO_DEF_SCOPED_SUBARRAY(_wg, ::gio::dev::scope_wg)
GIO_DEF_SCOPED_SUBARRAY(_wave, ::gio::dev::scope_wave)
#undef GIO_DEF_SCOPED_SUBARRAY
#endif
