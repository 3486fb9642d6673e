// mlx5 (ConnectX) send-queue formats, byte-exact, shared by the device (which fills WQEs), the
// host (which prebuilds WQE templates) and the softnic (which parses them). Multi-byte fields are
// big-endian on the wire; these helpers convert. rdma-core's <infiniband/mlx5dv.h> is the oracle
// (tests/unit/mlx5_format_test.cpp compares our bytes with its structs and helpers).
#pragma once
#include "runtime/defs.h"

namespace gio {
namespace mlx5 {

GIO_HOST_DEVICE inline uint16_t be16(uint16_t v) { return (uint16_t)((v >> 8) | (v << 8)); }
GIO_HOST_DEVICE inline uint32_t be32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}
GIO_HOST_DEVICE inline uint64_t be64(uint64_t v) {
  return ((uint64_t)be32((uint32_t)v) << 32) | be32((uint32_t)(v >> 32));
}

// Send opcodes (ctrl segment, low byte of opmod_idx_opcode).
enum : uint8_t {
  OP_NOP = 0x00,
  OP_RDMA_WRITE = 0x08,
  OP_RDMA_WRITE_IMM = 0x09,
  OP_SEND = 0x0a,
  OP_RDMA_READ = 0x10,
  OP_ATOMIC_CS = 0x11,
  OP_ATOMIC_FA = 0x12,
  OP_ATOMIC_MASKED_CS = 0x14,
  OP_ATOMIC_MASKED_FA = 0x15,
};
// opmod of the masked atomics: operand size (NVSHMEM uses 0x08 for 4 B, 0x09 for 8 B).
enum : uint8_t { OPMOD_ATOMIC_4B = 0x08, OPMOD_ATOMIC_8B = 0x09 };

// fm_ce_se byte: fence mode bits 7:5, completion-event bits 3:2, solicited bit 1.
enum : uint8_t {
  FM_NONE = 0,
  FM_INITIATOR_SMALL = 1 << 5,
  FM_FENCE = 2 << 5,
  FM_STRONG_ORDERING = 3 << 5,
  FM_SMALL_AND_FENCE = 4 << 5,
  CE_CQ_UPDATE = 0x08,
  SE_SOLICITED = 0x02,
};

constexpr uint32_t WQEBB_BYTES = 64;
constexpr uint32_t DS_BYTES = 16;
constexpr uint32_t SND_DBR = 1;  // send doorbell record index (dbrec[0] is the receive/CQ side)
constexpr uint32_t INLINE_SEG = 0x80000000u;

struct ctrl_seg {            // 16 B
  uint32_t opmod_idx_opcode;  // BE: opmod<<24 | wqe_idx<<8 | opcode
  uint32_t qpn_ds;            // BE: qpn<<8 | ds (ds = WQE size in 16-byte units)
  uint8_t signature;
  uint8_t rsvd[2];
  uint8_t fm_ce_se;
  uint32_t imm;
};
struct raddr_seg {  // 16 B
  uint64_t raddr;   // BE
  uint32_t rkey;    // BE
  uint32_t rsvd;
};
struct data_seg {       // 16 B
  uint32_t byte_count;  // BE
  uint32_t lkey;        // BE
  uint64_t addr;        // BE
};
struct atomic_seg {   // 16 B
  uint64_t swap_add;  // BE
  uint64_t compare;   // BE
};
// Masked atomics on 8 bytes carry swap/compare plus their masks (32 B: two segments).
struct masked_atomic_seg {
  uint64_t swap_add;
  uint64_t compare;
  uint64_t swap_add_mask;
  uint64_t compare_mask;
};
// Masked ("extended") atomics on 4 bytes (opmod OPMOD_ATOMIC_4B) fit their operands and masks in
// one 16-byte segment of big-endian words (NVSHMEM's ibgda_atomic_32_masked_{cs,fa}_seg_t):
//   masked compare-swap: if ((old ^ compare) & compare_mask) == 0, the word becomes
//     (old & ~swap_mask) | (swap & swap_mask); the old value is returned either way.
//   masked fetch-add: add, split into fields by field_boundary: a set bit drops the carry out of
//     that bit (0: a plain add; all ones: a carry-less add, i.e. XOR).
struct masked_cs4_seg {  // 16 B
  uint32_t swap;          // BE
  uint32_t compare;       // BE
  uint32_t swap_mask;     // BE
  uint32_t compare_mask;  // BE
};
struct masked_fa4_seg {    // 16 B
  uint32_t add;             // BE
  uint32_t field_boundary;  // BE
  uint32_t rsvd[2];
};

static_assert(sizeof(ctrl_seg) == 16 && sizeof(raddr_seg) == 16 && sizeof(data_seg) == 16 &&
                  sizeof(atomic_seg) == 16 && sizeof(masked_atomic_seg) == 32 && sizeof(masked_cs4_seg) == 16 &&
                  sizeof(masked_fa4_seg) == 16,
              "mlx5 segment sizes");

GIO_HOST_DEVICE inline void set_ctrl(ctrl_seg* c, uint16_t wqe_idx, uint8_t opcode, uint8_t opmod, uint32_t qpn,
                                     uint8_t ds, uint8_t fm_ce_se, uint32_t imm) {
  c->opmod_idx_opcode = be32(((uint32_t)opmod << 24) | ((uint32_t)wqe_idx << 8) | opcode);
  c->qpn_ds = be32((qpn << 8) | ds);
  c->signature = 0;
  c->rsvd[0] = c->rsvd[1] = 0;
  c->fm_ce_se = fm_ce_se;
  c->imm = imm;
}
GIO_HOST_DEVICE inline uint8_t ctrl_opcode(const ctrl_seg* c) { return (uint8_t)(be32(c->opmod_idx_opcode) & 0xff); }
GIO_HOST_DEVICE inline uint8_t ctrl_opmod(const ctrl_seg* c) { return (uint8_t)(be32(c->opmod_idx_opcode) >> 24); }
GIO_HOST_DEVICE inline uint16_t ctrl_wqe_idx(const ctrl_seg* c) {
  return (uint16_t)((be32(c->opmod_idx_opcode) >> 8) & 0xffff);
}
GIO_HOST_DEVICE inline uint32_t ctrl_qpn(const ctrl_seg* c) { return be32(c->qpn_ds) >> 8; }
GIO_HOST_DEVICE inline uint8_t ctrl_ds(const ctrl_seg* c) { return (uint8_t)(be32(c->qpn_ds) & 0x3f); }

GIO_HOST_DEVICE inline void set_raddr(raddr_seg* r, uint64_t raddr, uint32_t rkey) {
  r->raddr = be64(raddr);
  r->rkey = be32(rkey);
  r->rsvd = 0;
}
GIO_HOST_DEVICE inline void set_data(data_seg* d, uint32_t byte_count, uint32_t lkey, uint64_t addr) {
  d->byte_count = be32(byte_count);
  d->lkey = be32(lkey);
  d->addr = be64(addr);
}
GIO_HOST_DEVICE inline void set_atomic(atomic_seg* a, uint64_t swap_add, uint64_t compare) {
  a->swap_add = be64(swap_add);
  a->compare = be64(compare);
}

// The four big-endian words of a 4-byte masked atomic's segment, from the operands GIO carries for
// either kind: `swap_add` (swap or addend), `compare` (compare-swap's compare, fetch-add's field
// boundary) and, for compare-swap only, the two masks (a fetch-add's last 8 bytes are reserved: 0).
GIO_HOST_DEVICE inline void masked4_words(uint32_t w[4], bool cs, uint32_t swap_add, uint32_t compare,
                                          uint32_t swap_mask, uint32_t compare_mask) {
  w[0] = be32(swap_add);
  w[1] = be32(compare);
  w[2] = cs ? be32(swap_mask) : 0u;
  w[3] = cs ? be32(compare_mask) : 0u;
}

// WQEBBs a WQE of `ds` 16-byte units occupies (the producer index advances by this).
GIO_HOST_DEVICE inline uint32_t wqebbs(uint32_t ds) { return (ds * DS_BYTES + WQEBB_BYTES - 1) / WQEBB_BYTES; }

}  // namespace mlx5
}  // namespace gio
