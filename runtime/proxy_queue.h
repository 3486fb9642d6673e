// proxy transport contract: one command ring per queue set (the same sets gda uses: default
// contexts hash over the first `default_sets`, each created context owns one), drained in order
// by the PE's proxy thread (host/proxy/), which turns each command into libfabric operations.
//
// A ring's command slots, fetched results and completion counter live in host-visible memory (the
// CPU reads and writes them); its descriptor and the device's reservation counter and bookkeeping
// live where kernels work (GPU memory). A command is published by storing `seq` = index + 1 last,
// with release: the proxy reads nothing of a slot before it sees that value, so lanes fill their
// slots independently and no lane waits for another to publish. The proxy executes one command
// at a time, to completion (a put's bytes in the target's heap, delivery complete), then stores
// `*completed` = index + 1 with release: commands below it are complete, in ring order.
#pragma once
#include "runtime/defs.h"

#define GIO_PROXY_SLOTS_DEFAULT 256u          // commands per ring (power of two)
#define GIO_PROXY_INLINE_MAX 16u              // put payloads up to this travel in the command
#define GIO_PROXY_BOUNCE_BYTES_DEFAULT 65536u // per ring, for device buffers the CPU cannot read

enum gio_proxy_op {
  GIO_PROXY_OP_PUT = 1,  // len bytes from the local buffer to (pe, roff)
  GIO_PROXY_OP_GET = 2,  // len bytes from (pe, roff) to the local buffer
  GIO_PROXY_OP_AMO = 3,  // gio_amo_op `amo_op` on `bytes` bytes at (pe, roff); old value -> result[slot]
  GIO_PROXY_OP_SIGNAL = 4,  // non-fetching: amo_op 0 sets the 8-byte word at (pe, roff), 1 adds to it
};

// Where a command's local buffer is.
enum gio_proxy_local {
  GIO_PROXY_LOCAL_INLINE = 0,  // put: the payload is in value/compare (len <= GIO_PROXY_INLINE_MAX)
  GIO_PROXY_LOCAL_HEAP = 1,    // laddr is an offset into this PE's symmetric heap
  GIO_PROXY_LOCAL_HOST = 2,    // laddr is a host-visible address (the ring's bounce buffer, a host buffer)
  GIO_PROXY_LOCAL_RESULT = 3,  // get of <= 8 bytes: the bytes land in result[slot]
};

struct gio_proxy_cmd_v1 {
  uint64_t seq;      // 1 + this command's ring index, stored last (release); 0 or older: not ready
  uint8_t op;        // gio_proxy_op
  uint8_t local;     // gio_proxy_local
  uint8_t amo_op;    // AMO: gio_amo_op; SIGNAL: 0 set, 1 add
  uint8_t bytes;     // AMO operand size: 4 or 8
  int32_t pe;        // target PE
  uint64_t roff;     // offset into the target's symmetric heap
  uint64_t len;      // PUT/GET bytes
  uint64_t laddr;    // local buffer, as `local` says
  uint64_t value;    // AMO operand, SIGNAL value; INLINE: payload bytes 0..7
  uint64_t compare;  // CSWAP compare value; INLINE: payload bytes 8..15
  uint64_t rsvd;
};

struct gio_proxy_ring_v1 {
  // Set up by the host, read-only for the device.
  gio_proxy_cmd_v1* cmds;   // slots x 64 B, host-visible
  uint64_t* result;         // per slot, host-visible: a fetched value or a small get's bytes
  uint64_t* completed;      // host-visible: commands below this index are complete (proxy-written)
  uint32_t* hold;           // per slot: 1 while its result is unread (device memory)
  uint8_t* bounce;          // host-visible staging for local buffers outside the heap, or nullptr
  uint32_t slots;           // power of two
  uint32_t bounce_bytes;
  uint32_t set;             // this ring's queue set (diagnostics)
  uint32_t rsvd0;
  // Device-side counters, updated with atomics.
  uint64_t reserved;        // next index to hand out
  uint32_t bounce_lock;     // 0 free, 1 held: one thread at a time stages through `bounce`
  uint32_t rsvd1;
};

#ifdef __cplusplus
static_assert(sizeof(gio_proxy_cmd_v1) == 64, "proxy command layout");
static_assert(offsetof(gio_proxy_cmd_v1, pe) == 12, "proxy command layout");
static_assert(offsetof(gio_proxy_cmd_v1, value) == 40, "proxy command layout");
static_assert(offsetof(gio_proxy_ring_v1, slots) == 40, "proxy ring layout");
static_assert(offsetof(gio_proxy_ring_v1, reserved) == 56, "proxy ring layout");
static_assert(sizeof(gio_proxy_ring_v1) == 72, "proxy ring layout");

// A command as both sides' messages name it (the kernel's timeout, the proxy thread's errors).
GIO_HOST_DEVICE inline const char* gio_proxy_op_name(uint8_t op) {
  switch (op) {
    case GIO_PROXY_OP_PUT: return "put";
    case GIO_PROXY_OP_GET: return "get";
    case GIO_PROXY_OP_AMO: return "atomic";
    case GIO_PROXY_OP_SIGNAL: return "signal";
    default: return "unknown operation";
  }
}
// The bytes a command reaches at the target: a put's or get's length, an atomic's operand size.
GIO_HOST_DEVICE inline uint64_t gio_proxy_cmd_bytes(const gio_proxy_cmd_v1& c) {
  return c.op == GIO_PROXY_OP_PUT || c.op == GIO_PROXY_OP_GET ? c.len : c.bytes;
}
#endif
