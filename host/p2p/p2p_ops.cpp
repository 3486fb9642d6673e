// p2p transport, host half, data path: the host loads and stores through the peer's mapping (a
// copy engine on cuda and hip, memcpy on the host platform), so every operation is complete when
// it returns and there is nothing to drain. It also moves every node-local peer's default heap,
// whatever that peer's transport (host/transport/heap_route.cpp).
#include <cstring>

#include "host/heap/globals.h"
#include "host/log.h"
#include "host/p2p/p2p.h"
#include "host/platform/gpu.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

namespace gio {
namespace {

// The peer's heap or data segment at `off`. Checked: a peer without a mapping is a runtime bug
// here, never a write to nullptr + off.
uint8_t* mapped(runtime& r, const char* routine, uint64_t off, int pe) {
  uint8_t* p = sym_mapped(r, off, pe);
  if (!p && sym_is_cpu_heap(off))
    fatal(GIO_ERR_TRANSPORT, routine, "PE %d's default heap is not mapped here (another node)", pe);
  if (!p) fatal(GIO_ERR_TRANSPORT, routine, "PE %d has no load/store mapping (%s)", pe, r.peers[pe].why.c_str());
  return p;
}

// Between host memory on both sides (a default-heap block or a global, and a host buffer) the CPU
// copies; the platform's copy engine takes every copy a GPU's memory is part of.
void put(runtime& r, const char* routine, uint64_t off, const void* src, size_t n, int pe) {
  uint8_t* at = mapped(r, routine, off, pe);
  if (sym_is_host_memory(off) && gpu::is_host_memory(src))
    memmove(at, src, n);
  else
    gpu::copy(at, src, n, routine);
}

void get(runtime& r, const char* routine, void* dst, uint64_t off, size_t n, int pe) {
  const uint8_t* at = mapped(r, routine, off, pe);
  if (sym_is_host_memory(off) && gpu::is_host_memory(dst))
    memmove(dst, at, n);
  else
    gpu::copy(dst, at, n, routine);
}

// A data segment or a default heap is host memory on every platform, which the GPU atomic kernels
// cannot reach.
uint64_t amo(runtime& r, const char* routine, int op, uint64_t off, uint64_t value, uint64_t compare, size_t size,
             int pe) {
  uint8_t* at = mapped(r, routine, off, pe);
  if (sym_is_host_memory(off)) return cpu_amo(at, op, value, compare, size, routine);
  return gpu::amo(at, op, value, compare, size, routine);
}

// 2D copies on a copy engine on cuda/hip, one per index of the outer dimensions; memcpy loops on
// the host platform.
void strided(runtime& r, const char* routine, bool is_put, void* local, uint64_t off, const gio_strided_shape& sh,
             int pe) {
  uint8_t* at = mapped(r, routine, off, pe);
  if (is_put)
    gpu::copy_strided(at, local, sh, routine);
  else
    gpu::copy_strided(local, at, sh, routine);
}

void* ptr(runtime& r, uint64_t off, int pe) { return sym_mapped(r, off, pe); }

transport_ops table() {
  transport_ops t = transport_ops_default("p2p", GIO_TRANSPORT_P2P);
  t.load_store = true;
  t.network = [](const runtime&, std::string* why) {
    *why = "p2p reaches only peers whose heap this PE maps";
    return false;
  };
  t.probe = p2p_probe;
  t.reach = p2p_reach;
  t.disconnect = p2p_disconnect;
  t.put = put;
  t.get = get;
  t.amo = amo;
  t.strided = strided;
  t.ptr = ptr;
  return t;
}

const transport_registrar registered(table());

}  // namespace
}  // namespace gio
