// The few mlx5 firmware (PRM) commands the ConnectX backend of gda issues through DEVX: CREATE_CQ,
// CREATE_QP and the RC transitions RST2INIT / INIT2RTR / RTR2RTS. rdma-core installs no
// mlx5_ifc.h, so the layouts are written here as (bit offset, width) pairs in the PRM's own
// notation: a command is an array of big-endian dwords, bit 0 is the most significant bit of the
// first one, and each offset below is the `reserved_at_<hex>` position the public layouts
// (rdma-core providers/mlx5/mlx5_ifc.h, UCX ib_mlx5_ifc.h) give the field.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gio {
namespace mlx5 {
namespace prm {

struct field {
  uint32_t bit;    // offset from the start of the command
  uint32_t width;  // <= 32, never crossing a dword
};
// A field that crosses a dword boundary is a compile error where it is declared.
constexpr field fld(uint32_t bit, uint32_t width) {
  return bit % 32 + width <= 32 ? field{bit, width} : throw "mlx5 PRM field crosses a dword";
}

inline uint32_t load_be32(const uint8_t* p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
inline void store_be32(uint8_t* p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}
inline void set(void* cmd, field f, uint32_t v) {
  uint8_t* dw = (uint8_t*)cmd + f.bit / 32 * 4;
  const uint32_t shift = 32 - f.width - f.bit % 32;
  const uint32_t mask = (f.width == 32 ? ~0u : (1u << f.width) - 1) << shift;
  store_be32(dw, (load_be32(dw) & ~mask) | ((v << shift) & mask));
}
inline uint32_t get(const void* cmd, field f) {
  const uint32_t shift = 32 - f.width - f.bit % 32;
  const uint32_t v = load_be32((const uint8_t*)cmd + f.bit / 32 * 4) >> shift;
  return f.width == 32 ? v : v & ((1u << f.width) - 1);
}
// 64-bit fields (addresses, umem offsets) start on a 64-bit boundary.
inline void set64(void* cmd, uint32_t bit, uint64_t v) {
  store_be32((uint8_t*)cmd + bit / 8, (uint32_t)(v >> 32));
  store_be32((uint8_t*)cmd + bit / 8 + 4, (uint32_t)v);
}
// Byte strings (GIDs, MAC addresses) start on a byte boundary, in wire order.
inline void set_bytes(void* cmd, uint32_t bit, const void* src, size_t n) { memcpy((uint8_t*)cmd + bit / 8, src, n); }

// Command opcodes.
constexpr uint32_t CMD_QUERY_HCA_CAP = 0x100;
constexpr uint32_t CMD_CREATE_CQ = 0x400;
constexpr uint32_t CMD_CREATE_QP = 0x500;
constexpr uint32_t CMD_RST2INIT_QP = 0x502;
constexpr uint32_t CMD_INIT2RTR_QP = 0x503;
constexpr uint32_t CMD_RTR2RTS_QP = 0x504;

// Every command: opcode in, status and syndrome out; a create answers with the object number.
constexpr field OPCODE = fld(0x00, 16);
constexpr field OUT_STATUS = fld(0x00, 8);
constexpr field OUT_SYNDROME = fld(0x20, 32);
constexpr field OUT_OBJ_NUMBER = fld(0x48, 24);  // cqn / qpn
constexpr size_t OUT_BYTES = 0x80 / 8;

// QUERY_HCA_CAP: op_mod = capability type << 1 | current (1) or maximum (0); the answer's
// capability block starts at 0x80 of the output.
constexpr field QUERY_CAP_OP_MOD = fld(0x30, 16);
constexpr size_t QUERY_CAP_IN_BYTES = 0x80 / 8;
constexpr size_t QUERY_CAP_OUT_BYTES = (0x80 + 0x8000) / 8;
constexpr uint32_t CAP_ATOMIC = 3;
constexpr uint32_t CAP_CURRENT = 1;
constexpr uint32_t CAP_OUT = 0x80;
// atomic_caps: 0 = fetched 8-byte results big-endian, 1 = in host order.
constexpr field ATOMIC_REQ_8B_ENDIANNESS_MODE = fld(CAP_OUT + 0x40, 2);
// atomic_caps: which atomics the HCA executes, and on which operand sizes over an RC QP (Linux
// include/linux/mlx5/driver.h MLX5_ATOMIC_OPS_*, mlx5_ifc.h MLX5_ATOMIC_CAPS_ATOMIC_SIZE_QP_*).
constexpr field ATOMIC_OPERATIONS = fld(CAP_OUT + 0x90, 16);
constexpr field ATOMIC_SIZE_QP = fld(CAP_OUT + 0xb0, 16);
constexpr uint32_t ATOMIC_OPS_CMP_SWAP = 1u << 0, ATOMIC_OPS_FETCH_ADD = 1u << 1;
constexpr uint32_t ATOMIC_OPS_MASKED_CMP_SWAP = 1u << 2, ATOMIC_OPS_MASKED_FETCH_ADD = 1u << 3;
constexpr uint32_t ATOMIC_SIZE_QP_4B = 0x4, ATOMIC_SIZE_QP_8B = 0x8;

// CREATE_CQ: the CQ context (cqc) at 0x80, then where the CQE buffer lives (a DEVX umem).
constexpr uint32_t CQC = 0x80;
constexpr field CQC_DBR_UMEM_VALID = fld(CQC + 0x06, 1);
constexpr field CQC_CQE_SZ = fld(CQC + 0x08, 3);  // 0: 64-byte CQEs
constexpr field CQC_CC = fld(CQC + 0x0b, 1);      // collapsed: every CQE lands in entry 0
constexpr field CQC_OI = fld(CQC + 0x0e, 1);      // overrun ignore: nobody returns CQ credits
constexpr field CQC_DBR_UMEM_ID = fld(CQC + 0x20, 32);
constexpr field CQC_LOG_CQ_SIZE = fld(CQC + 0x63, 5);
constexpr field CQC_UAR_PAGE = fld(CQC + 0x68, 24);
// c_eqn: the 32-bit c_eqn_or_apu_element of current layouts; older ones name its low 8 bits.
constexpr field CQC_C_EQN = fld(CQC + 0xa0, 32);
constexpr uint32_t CQC_DBR_ADDR = CQC + 0x1c0;  // 64: offset in the dbr umem
constexpr uint32_t CQ_UMEM_OFFSET = 0x280;      // 64
constexpr field CQ_UMEM_ID = fld(0x2c0, 32);
constexpr field CQ_UMEM_VALID = fld(0x2e0, 1);
constexpr size_t CREATE_CQ_IN_BYTES = 0x880 / 8;

// CREATE_QP and the transitions: the QP context (qpc) at 0xc0 in all four.
constexpr field QP_QPN = fld(0x48, 24);  // transitions: which QP
constexpr uint32_t QPC = 0xc0;
constexpr field QPC_ST = fld(QPC + 0x08, 8);  // service type, 0: RC
constexpr field QPC_PM_STATE = fld(QPC + 0x13, 2);
constexpr field QPC_PD = fld(QPC + 0x28, 24);
constexpr field QPC_MTU = fld(QPC + 0x40, 3);
constexpr field QPC_LOG_MSG_MAX = fld(QPC + 0x43, 5);
constexpr field QPC_LOG_RQ_SIZE = fld(QPC + 0x49, 4);
constexpr field QPC_LOG_SQ_SIZE = fld(QPC + 0x51, 4);  // in 64-byte WQEBBs
constexpr field QPC_TS_FORMAT = fld(QPC + 0x58, 2);
constexpr field QPC_UAR_PAGE = fld(QPC + 0x68, 24);
constexpr field QPC_USER_INDEX = fld(QPC + 0x88, 24);
constexpr field QPC_REMOTE_QPN = fld(QPC + 0xa8, 24);
// Primary address path (ads), 0x160 bits.
constexpr uint32_t PAP = QPC + 0xc0;
constexpr field PAP_PKEY_INDEX = fld(PAP + 0x10, 16);
constexpr field PAP_RLID = fld(PAP + 0x30, 16);
constexpr field PAP_ACK_TIMEOUT = fld(PAP + 0x40, 5);
constexpr field PAP_SRC_ADDR_INDEX = fld(PAP + 0x48, 8);
constexpr field PAP_HOP_LIMIT = fld(PAP + 0x58, 8);
constexpr uint32_t PAP_RGID = PAP + 0x80;  // 16 bytes
constexpr field PAP_UDP_SPORT = fld(PAP + 0x110, 16);
constexpr field PAP_VHCA_PORT_NUM = fld(PAP + 0x128, 8);
constexpr uint32_t PAP_RMAC = PAP + 0x130;  // 6 bytes (rmac_47_32, rmac_31_0)
constexpr field QPC_LOG_SRA_MAX = fld(QPC + 0x388, 3);
constexpr field QPC_RETRY_COUNT = fld(QPC + 0x38d, 3);
constexpr field QPC_RNR_RETRY = fld(QPC + 0x390, 3);
constexpr field QPC_NEXT_SEND_PSN = fld(QPC + 0x3c8, 24);
constexpr field QPC_CQN_SND = fld(QPC + 0x3e8, 24);
constexpr field QPC_LOG_RRA_MAX = fld(QPC + 0x488, 3);
constexpr field QPC_ATOMIC_MODE = fld(QPC + 0x48c, 4);
constexpr field QPC_RRE = fld(QPC + 0x490, 1);
constexpr field QPC_RWE = fld(QPC + 0x491, 1);
constexpr field QPC_RAE = fld(QPC + 0x492, 1);
constexpr field QPC_MIN_RNR_NAK = fld(QPC + 0x4a3, 5);
constexpr field QPC_CQN_RCV = fld(QPC + 0x4e8, 24);
constexpr uint32_t QPC_DBR_ADDR = QPC + 0x500;  // 64: offset in the dbr umem
constexpr field QPC_RQ_TYPE = fld(QPC + 0x565, 3);
constexpr field QPC_DBR_UMEM_VALID = fld(QPC + 0x683, 1);
constexpr field QPC_DBR_UMEM_ID = fld(QPC + 0x720, 32);
constexpr uint32_t WQ_UMEM_OFFSET = 0x800;  // 64, CREATE_QP only
constexpr field WQ_UMEM_ID = fld(0x840, 32);
constexpr field WQ_UMEM_VALID = fld(0x860, 1);
constexpr size_t QP_CMD_IN_BYTES = 0x880 / 8;  // CREATE_QP and each transition

// Values.
constexpr uint32_t QPC_PM_MIGRATED = 3;
constexpr uint32_t QPC_RQ_ZERO_LENGTH = 3;  // no receive queue
constexpr uint32_t QPC_TS_DEFAULT = 1;
// QPC atomic_mode (the Linux driver's MLX5_ATOMIC_MODE_*): IB_COMP = the IB spec's 8-byte
// fetch-add and compare-swap only; UP_TO_8B = also the masked (extended) atomics, on 4 and 8 bytes.
constexpr uint32_t QPC_ATOMIC_IB_COMP = 1;
constexpr uint32_t QPC_ATOMIC_UP_TO_8B = 3;

}  // namespace prm
}  // namespace mlx5
}  // namespace gio
