// gda transport contract: one RC queue pair (send queue + collapsed completion queue) per
// (queue set, peer), laid out by the host and driven by the GPU.
//
// Version 2: per-queue bounce buffer (below); the fence request moved from the queue to the
// context that called shmem_fence (runtime/contract.h), so fence_next is gone.
//
// Every WQE GIO posts fits one 64-byte WQEBB (WRITE/READ: ctrl+raddr+data = 3 DS; ATOMIC:
// ctrl+raddr+atomic+data = 4 DS), so WQE index == WQEBB index and slot = index & (sq_size-1).
// Each slot is prebuilt as a put (the common case): the device then writes only the index word,
// raddr, byte count and local address. Other operations copy their static fields from tmpl[] and
// mark the slot, so the next put into it restores the put template first.
#pragma once
#include "runtime/mlx5/atomic.h"
#include "runtime/mlx5/cqe.h"

#define GIO_GDA_SQ_SLOTS_DEFAULT 256u  // WQEBBs per send queue (power of two, <= 65536)

// Local keys the NIC accepts, each covering only its registration, as on a ConnectX: the
// symmetric heap's (the templates of puts and gets carry it), and the queue block's (scratch
// landing words and bounce buffers; the atomics' templates carry it). A local buffer outside both
// travels inline (puts up to GIO_GDA_INLINE_MAX bytes) or through the queue's bounce buffer.
#define GIO_GDA_INLINE_MAX 28u
#define GIO_GDA_BOUNCE_BYTES_DEFAULT 16384u  // per queue (GIO_GDA_BOUNCE_BYTES)

enum gio_gda_tmpl {  // index into gio_gda_queue_v1::tmpl
  GIO_GDA_T_PUT = 0,   // RDMA WRITE from a local buffer
  GIO_GDA_T_PUT_INLINE, // RDMA WRITE, payload (<= 28 B) inside the WQE
  GIO_GDA_T_GET,       // RDMA READ
  GIO_GDA_T_FA8,      // ATOMIC fetch-add, 8 B
  GIO_GDA_T_CS8,      // ATOMIC compare-swap, 8 B
  GIO_GDA_T_FA4,      // masked fetch-add, 4 B
  GIO_GDA_T_CS4,      // masked compare-swap, 4 B
  GIO_GDA_T_COUNT
};

// gio_gda_queue_v1::flags.
// The NIC's part of the queue (SQ ring, doorbell record) is in this GPU's memory, and the NIC reads
// it across PCIe through the GPU's L2: device-scope ordering then makes WQEs and record visible to
// it (NVSHMEM IBGDA's nic_buf_on_gpumem). Clear (pinned host memory: the softnic's and the ConnectX
// backend's rings today) the posting path orders at system scope. CUDA only; AMD always orders at
// system scope, with the HDP flush.
#define GIO_GDA_Q_NIC_MEM_GPU 1u

// Static part of one operation's WQE.
struct gio_gda_tmpl_v1 {
  uint32_t qpn_ds;       // BE, as in the ctrl segment
  uint8_t opcode;
  uint8_t opmod;
  uint8_t fm_ce_se;
  uint8_t reply_order;   // atomics: mlx5::REPLY_* of the fetched result the NIC writes (contract 1.2)
  uint32_t lkey;         // BE
  uint32_t rkey;         // BE
};

struct gio_gda_queue_v1 {
  // Set up by the host, read-only for the device.
  uint8_t* sq;                  // sq_slots x 64 B
  gio::mlx5::cqe64* cq;         // collapsed CQ: the NIC rewrites entry 0
  uint32_t* dbrec;              // [0] CQ consumer index, [1] SQ producer index (BE, 16 bits used)
  uint64_t* db;                 // doorbell register (UAR), 64-bit stores of the ctrl's first 8 B
  uint64_t* scratch;            // one 8-byte landing word per slot (fetched atomics, g)
  uint8_t* slot_kind;           // per slot: gio_gda_tmpl of the static fields it holds
  uint32_t* slot_hold;          // per slot: 1 while a fetched result in scratch is still unread
  uint64_t remote_base;         // the peer's heap base in the peer's address space (raddr base)
  uint32_t sq_slots;            // power of two
  uint32_t qpn;
  int32_t peer;
  uint32_t flags;               // GIO_GDA_Q_* (was reserved, always 0: version unchanged)
  gio_gda_tmpl_v1 tmpl[GIO_GDA_T_COUNT];
  // Device-side progress counters (free-running WQE indices), updated with atomics.
  uint64_t reserved;            // next index to hand out
  uint64_t published;           // indices below this are visible to the NIC (dbrec written)
  uint64_t completed;           // indices below this have completed (seen in the CQ)
  uint32_t bounce_bytes;        // size of `bounce` (a power of two >= 64), 0 = none
  uint32_t bounce_lock;         // 0 free, 1 held: one thread at a time stages through `bounce`
  // AMD only (else null): the HDP flush register (PPB), written after the WQE stores and before
  // the doorbell record so a NIC reading GPU memory across PCIe sees the finished WQE.
  uint32_t* hdp_flush;
  // Staging for local buffers the NIC cannot address (shared, stack, non-symmetric memory), in
  // the queue block under its key. Used in two halves so one can fill while the other is on the
  // wire; bounce_used[h] is 1 + the index of the last WQE that reads or writes half h (0: none),
  // so the next holder reuses a half only after that WQE completed. Written under bounce_lock.
  uint8_t* bounce;
  uint64_t bounce_used[2];
};

#ifdef __cplusplus
static_assert(sizeof(gio_gda_tmpl_v1) == 16, "gda template layout");
static_assert(offsetof(gio_gda_queue_v1, tmpl) == 80, "gda queue layout");
static_assert(offsetof(gio_gda_queue_v1, reserved) == 80 + 16 * GIO_GDA_T_COUNT, "gda queue layout");
static_assert(offsetof(gio_gda_queue_v1, bounce_bytes) == 80 + 16 * GIO_GDA_T_COUNT + 24, "gda queue layout");
static_assert(offsetof(gio_gda_queue_v1, bounce) == 80 + 16 * GIO_GDA_T_COUNT + 40, "gda queue layout");
static_assert(sizeof(gio_gda_queue_v1) == 80 + 16 * GIO_GDA_T_COUNT + 64, "gda queue layout");
#endif
