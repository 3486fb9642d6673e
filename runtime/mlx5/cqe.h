// mlx5 64-byte completion queue entry and doorbell-record helpers (see wqe.h for conventions).
#pragma once
#include "runtime/mlx5/wqe.h"

namespace gio {
namespace mlx5 {

enum : uint8_t {  // CQE opcodes (op_own bits 7:4)
  CQE_REQ = 0,
  CQE_RESP_WR_IMM = 1,
  CQE_RESP_SEND = 2,
  CQE_REQ_ERR = 13,
  CQE_RESP_ERR = 14,
  CQE_INVALID = 15,
};
enum : uint8_t {  // error syndromes (byte 55 of an error CQE)
  SYND_LOCAL_LENGTH = 0x01,
  SYND_LOCAL_QP_OP = 0x02,
  SYND_LOCAL_PROT = 0x04,
  SYND_WR_FLUSH = 0x05,
  SYND_BAD_RESP = 0x10,
  SYND_LOCAL_ACCESS = 0x11,
  SYND_REMOTE_INVAL_REQ = 0x12,
  SYND_REMOTE_ACCESS = 0x13,
  SYND_REMOTE_OP = 0x14,
  SYND_TRANSPORT_RETRY_EXC = 0x15,
  SYND_RNR_RETRY_EXC = 0x16,
  SYND_REMOTE_ABORTED = 0x22,
};

struct cqe64 {
  uint8_t rsvd0[44];
  uint32_t byte_cnt;       // @44 BE
  uint8_t rsvd48[6];
  uint8_t vendor_err_synd; // @54
  uint8_t syndrome;        // @55 (error CQEs)
  uint32_t sop_drop_qpn;   // @56 BE: opcode<<24 | qpn
  uint16_t wqe_counter;    // @60 BE: index of the signalled (or failing) WQE
  uint8_t signature;       // @62
  uint8_t op_own;          // @63: opcode<<4 | format<<2 | se<<1 | owner
};
static_assert(sizeof(cqe64) == 64, "cqe64 size");

GIO_HOST_DEVICE inline uint8_t cqe_opcode(uint8_t op_own) { return op_own >> 4; }
GIO_HOST_DEVICE inline uint8_t cqe_owner(uint8_t op_own) { return op_own & 1; }

// The NIC side: fill a CQE; op_own is written last by the caller after a release fence.
GIO_HOST_DEVICE inline void set_cqe(cqe64* c, uint8_t opcode, uint8_t syndrome, uint8_t vendor, uint32_t qpn,
                                    uint16_t wqe_counter, uint32_t byte_cnt) {
  for (int i = 0; i < 44; ++i) c->rsvd0[i] = 0;
  c->byte_cnt = be32(byte_cnt);
  for (int i = 0; i < 6; ++i) c->rsvd48[i] = 0;
  c->vendor_err_synd = vendor;
  c->syndrome = syndrome;
  c->sop_drop_qpn = be32(((uint32_t)opcode << 24) | (qpn & 0xffffff));
  c->wqe_counter = be16(wqe_counter);
  c->signature = 0;
}
GIO_HOST_DEVICE inline uint8_t make_op_own(uint8_t opcode, uint8_t owner) {
  return (uint8_t)((opcode << 4) | (owner & 1));
}

}  // namespace mlx5
}  // namespace gio
