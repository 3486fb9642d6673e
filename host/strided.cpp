// Host-initiated strided RMA: iput/iget, ibput/ibget and the subarray extension. The same checks
// and messages as the device side (device/api/strided.h) and the same shape analysis; then, per
// transport of the peer:
// - p2p: the platform's strided copy through the peer's mapping (2D copies on a copy engine on
//   cuda/hip, one per index of the outer dimensions; memcpy loops on the host platform);
// - gda, proxy: one host put or get per block, each complete on return as every host call is (a
//   host-side pack would still need an unpack at the target, where nothing runs for gda).
#include "runtime/api/c/shmem_c.h"
#include "runtime/api/strided_shape.h"
#include "runtime/host_entry.h"

#include "host/coll/coll.h"
#include "host/gda/gda_host.h"
#include "host/log.h"
#include "host/platform/gpu.h"
#include "host/proxy/proxy_state.h"
#include "host/runtime.h"

namespace gio {
namespace {

[[noreturn]] void fail_strided(const char* routine, const gio_strided_check& c, int pe) {
  if (c.fault == GIO_STRIDED_DST_STRIDE)
    fatal(GIO_ERR_ARG, routine, "destination stride %lld (dimension %d, for PE %d) is below %lld", c.value, c.dim, pe,
                  c.bound);
  if (c.fault == GIO_STRIDED_SRC_STRIDE)
    fatal(GIO_ERR_ARG, routine, "source stride %lld (dimension %d, for PE %d) is negative", c.value, c.dim, pe);
  fatal(GIO_ERR_ARG, routine, "ndims %lld is outside [1, %d]", c.value, GIO_STRIDED_MAX_DIMS);
}

void host_strided(const char* routine, gio_ctx_v1* ctx, bool is_put, void* dest, const void* src,
                  const gio_strided_check& c, gio_strided_shape sh, int pe) {
  runtime& r = rt_checked(routine);
  check_host_ctx(r, routine, ctx);
  pe = team_ctx_world_pe(r, routine, ctx, pe);
  host_check_pe(r, routine, pe);
  if (c.fault) fail_strided(routine, c, pe);
  if (shape_empty(sh)) return;
  shape_simplify(sh);
  const void* remote = is_put ? dest : src;
  const uint64_t off = host_sym_offset(r, routine, remote, shape_extent(sh, is_put), pe);
  const int transport = r.peers[pe].transport;
  if (transport == GIO_TRANSPORT_GDA || transport == GIO_TRANSPORT_PROXY) {
    const size_t n = shape_blocks(sh);
    for (size_t i = 0; i < n; ++i) {
      size_t od, os;
      shape_offsets(sh, i, od, os);
      if (is_put && transport == GIO_TRANSPORT_GDA)
        gda_host_put(r, routine, off + od, (const uint8_t*)src + os, sh.block, pe);
      else if (is_put)
        proxy_host_put(r, routine, off + od, (const uint8_t*)src + os, sh.block, pe);
      else if (transport == GIO_TRANSPORT_GDA)
        gda_host_get(r, routine, (uint8_t*)dest + od, off + os, sh.block, pe);
      else
        proxy_host_get(r, routine, (uint8_t*)dest + od, off + os, sh.block, pe);
    }
    return;
  }
  // The peer's heap or data segment (a global's offset is marked, host/heap/globals.h), as mapped here.
  uint8_t* at = sym_mapped(r, off, pe);
  if (!at) fatal(GIO_ERR_TRANSPORT, routine, "PE %d has no load/store mapping (%s)", pe, r.peers[pe].why.c_str());
  if (is_put)
    gpu::copy_strided(at, src, sh, routine);
  else
    gpu::copy_strided(dest, at, sh, routine);
}

void host_blocks(const char* routine, gio_ctx_v1* ctx, bool is_put, void* dest, const void* src, ptrdiff_t dst,
                 ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem, int pe) {
  host_strided(routine, ctx, is_put, dest, src, strided_check_strides(dst, sst, 0, bsize),
               shape_blocks_of(dst, sst, bsize, nblocks, elem), pe);
}

void host_subarray(const char* routine, gio_ctx_v1* ctx, bool is_put, void* dest, const ptrdiff_t* ds,
                   const void* src, const ptrdiff_t* ss, const size_t* counts, int ndims, size_t elem, int pe) {
  const gio_strided_check c = strided_check_subarray(ds, ss, ndims);
  host_strided(routine, ctx, is_put, dest, src, c, c.fault ? shape_make(0) : shape_subarray(ds, ss, counts, ndims, elem),
               pe);
}

}  // namespace
}  // namespace gio

using namespace gio;

extern "C" void gio_host_iput(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, ptrdiff_t dst,
                              ptrdiff_t sst, size_t nelems, size_t elem_size, int pe) {
  host_blocks(routine, ctx, true, dest, src, dst, sst, 1, nelems, elem_size, pe);
}
extern "C" void gio_host_iget(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, ptrdiff_t dst,
                              ptrdiff_t sst, size_t nelems, size_t elem_size, int pe) {
  host_blocks(routine, ctx, false, dest, src, dst, sst, 1, nelems, elem_size, pe);
}
extern "C" void gio_host_ibput(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, ptrdiff_t dst,
                               ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size, int pe) {
  host_blocks(routine, ctx, true, dest, src, dst, sst, bsize, nblocks, elem_size, pe);
}
extern "C" void gio_host_ibget(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, ptrdiff_t dst,
                               ptrdiff_t sst, size_t bsize, size_t nblocks, size_t elem_size, int pe) {
  host_blocks(routine, ctx, false, dest, src, dst, sst, bsize, nblocks, elem_size, pe);
}
extern "C" void gio_host_put_subarray(const char* routine, gio_ctx_v1* ctx, void* dest, const ptrdiff_t* dst_strides,
                                      const void* src, const ptrdiff_t* src_strides, const size_t* counts, int ndims,
                                      size_t elem_size, int pe) {
  host_subarray(routine, ctx, true, dest, dst_strides, src, src_strides, counts, ndims, elem_size, pe);
}
extern "C" void gio_host_get_subarray(const char* routine, gio_ctx_v1* ctx, void* dest, const ptrdiff_t* dst_strides,
                                      const void* src, const ptrdiff_t* src_strides, const size_t* counts, int ndims,
                                      size_t elem_size, int pe) {
  host_subarray(routine, ctx, false, dest, dst_strides, src, src_strides, counts, ndims, elem_size, pe);
}
