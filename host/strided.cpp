// Host-initiated strided RMA: iput/iget, ibput/ibget and the subarray extension. The same checks
// and messages as the device side (device/api/strided.h) and the same shape analysis; then the
// peer's transport moves it: in one call where its table has a strided operation (p2p: the
// platform's strided copy through the mapping), else one put or get per block.
#include "runtime/api/c/shmem_c.h"
#include "runtime/api/strided_shape.h"
#include "runtime/host_entry.h"

#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

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
  const transport_ops& t = transport_for(r, routine, off, pe);
  if (t.strided) return t.strided(r, routine, is_put, is_put ? const_cast<void*>(src) : dest, off, sh, pe);
  // One put or get per block, each complete on return as every host call is (a host-side pack
  // would still need an unpack at the target, where nothing runs for gda).
  const size_t n = shape_blocks(sh);
  for (size_t i = 0; i < n; ++i) {
    size_t od, os;
    shape_offsets(sh, i, od, os);
    if (is_put)
      t.put(r, routine, off + od, (const uint8_t*)src + os, sh.block, pe);
    else
      t.get(r, routine, (uint8_t*)dest + od, off + os, sh.block, pe);
  }
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
