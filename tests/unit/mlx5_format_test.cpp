// mlx5 wire formats against rdma-core: <infiniband/mlx5dv.h> is the oracle, so every comparison
// builds the expected bytes with rdma-core's structs and helpers, never with our own encoders.
// Random field values come from a fixed seed, so a failure reproduces.
#include <endian.h>
#include <gtest/gtest.h>
#include <infiniband/mlx5dv.h>

#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include "runtime/gda_queue.h"

using namespace gio::mlx5;

namespace {
constexpr int kIters = 20000;

template <class A, class B>
void expect_same_bytes(const A& ours, const B& oracle, const char* what) {
  static_assert(sizeof(A) == sizeof(B), "compared objects differ in size");
  ASSERT_EQ(0, memcmp(&ours, &oracle, sizeof(A))) << what;
}
}  // namespace

TEST(Mlx5Format, ConstantsMatchRdmaCore) {
  EXPECT_EQ(OP_NOP, MLX5_OPCODE_NOP);
  EXPECT_EQ(OP_RDMA_WRITE, MLX5_OPCODE_RDMA_WRITE);
  EXPECT_EQ(OP_RDMA_WRITE_IMM, MLX5_OPCODE_RDMA_WRITE_IMM);
  EXPECT_EQ(OP_SEND, MLX5_OPCODE_SEND);
  EXPECT_EQ(OP_RDMA_READ, MLX5_OPCODE_RDMA_READ);
  EXPECT_EQ(OP_ATOMIC_CS, MLX5_OPCODE_ATOMIC_CS);
  EXPECT_EQ(OP_ATOMIC_FA, MLX5_OPCODE_ATOMIC_FA);
  EXPECT_EQ(OP_ATOMIC_MASKED_CS, MLX5_OPCODE_ATOMIC_MASKED_CS);
  EXPECT_EQ(OP_ATOMIC_MASKED_FA, MLX5_OPCODE_ATOMIC_MASKED_FA);
  EXPECT_EQ(CE_CQ_UPDATE, MLX5_WQE_CTRL_CQ_UPDATE);
  EXPECT_EQ(SE_SOLICITED, MLX5_WQE_CTRL_SOLICITED);
  // rdma-core's IBV_SEND_FENCE mode is what shmem_fence puts on a WQE.
  EXPECT_EQ(FM_SMALL_AND_FENCE, MLX5_WQE_CTRL_FENCE);
  EXPECT_EQ(FM_INITIATOR_SMALL, MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE);
  EXPECT_EQ(WQEBB_BYTES, (uint32_t)MLX5_SEND_WQE_BB);
  EXPECT_EQ(1u << MLX5_SEND_WQE_SHIFT, WQEBB_BYTES);
  EXPECT_EQ(SND_DBR, (uint32_t)MLX5_SND_DBR);
  EXPECT_EQ(INLINE_SEG, (uint32_t)MLX5_INLINE_SEG);
  EXPECT_EQ(CQE_REQ, MLX5_CQE_REQ);
  EXPECT_EQ(CQE_RESP_WR_IMM, MLX5_CQE_RESP_WR_IMM);
  EXPECT_EQ(CQE_RESP_SEND, MLX5_CQE_RESP_SEND);
  EXPECT_EQ(CQE_REQ_ERR, MLX5_CQE_REQ_ERR);
  EXPECT_EQ(CQE_RESP_ERR, MLX5_CQE_RESP_ERR);
  EXPECT_EQ(CQE_INVALID, MLX5_CQE_INVALID);
  EXPECT_EQ(SYND_LOCAL_LENGTH, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
  EXPECT_EQ(SYND_LOCAL_QP_OP, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
  EXPECT_EQ(SYND_LOCAL_PROT, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
  EXPECT_EQ(SYND_WR_FLUSH, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
  EXPECT_EQ(SYND_BAD_RESP, MLX5_CQE_SYNDROME_BAD_RESP_ERR);
  EXPECT_EQ(SYND_LOCAL_ACCESS, MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR);
  EXPECT_EQ(SYND_REMOTE_INVAL_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
  EXPECT_EQ(SYND_REMOTE_ACCESS, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
  EXPECT_EQ(SYND_REMOTE_OP, MLX5_CQE_SYNDROME_REMOTE_OP_ERR);
  EXPECT_EQ(SYND_TRANSPORT_RETRY_EXC, MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR);
  EXPECT_EQ(SYND_RNR_RETRY_EXC, MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR);
  EXPECT_EQ(SYND_REMOTE_ABORTED, MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR);
}

TEST(Mlx5Format, SegmentLayoutsMatchRdmaCore) {
  EXPECT_EQ(sizeof(ctrl_seg), sizeof(mlx5_wqe_ctrl_seg));
  EXPECT_EQ(offsetof(ctrl_seg, opmod_idx_opcode), offsetof(mlx5_wqe_ctrl_seg, opmod_idx_opcode));
  EXPECT_EQ(offsetof(ctrl_seg, qpn_ds), offsetof(mlx5_wqe_ctrl_seg, qpn_ds));
  EXPECT_EQ(offsetof(ctrl_seg, signature), offsetof(mlx5_wqe_ctrl_seg, signature));
  EXPECT_EQ(offsetof(ctrl_seg, rsvd), offsetof(mlx5_wqe_ctrl_seg, dci_stream_channel_id));
  EXPECT_EQ(offsetof(ctrl_seg, fm_ce_se), offsetof(mlx5_wqe_ctrl_seg, fm_ce_se));
  EXPECT_EQ(offsetof(ctrl_seg, imm), offsetof(mlx5_wqe_ctrl_seg, imm));
  EXPECT_EQ(sizeof(raddr_seg), sizeof(mlx5_wqe_raddr_seg));
  EXPECT_EQ(offsetof(raddr_seg, raddr), offsetof(mlx5_wqe_raddr_seg, raddr));
  EXPECT_EQ(offsetof(raddr_seg, rkey), offsetof(mlx5_wqe_raddr_seg, rkey));
  EXPECT_EQ(offsetof(raddr_seg, rsvd), offsetof(mlx5_wqe_raddr_seg, reserved));
  EXPECT_EQ(sizeof(data_seg), sizeof(mlx5_wqe_data_seg));
  EXPECT_EQ(offsetof(data_seg, byte_count), offsetof(mlx5_wqe_data_seg, byte_count));
  EXPECT_EQ(offsetof(data_seg, lkey), offsetof(mlx5_wqe_data_seg, lkey));
  EXPECT_EQ(offsetof(data_seg, addr), offsetof(mlx5_wqe_data_seg, addr));
  EXPECT_EQ(sizeof(atomic_seg), sizeof(mlx5_wqe_atomic_seg));
  EXPECT_EQ(offsetof(atomic_seg, swap_add), offsetof(mlx5_wqe_atomic_seg, swap_add));
  EXPECT_EQ(offsetof(atomic_seg, compare), offsetof(mlx5_wqe_atomic_seg, compare));
  EXPECT_EQ(sizeof(uint32_t), sizeof(mlx5_wqe_inl_data_seg));  // the inline header

  EXPECT_EQ(sizeof(cqe64), sizeof(mlx5_cqe64));
  EXPECT_EQ(offsetof(cqe64, byte_cnt), offsetof(mlx5_cqe64, byte_cnt));
  EXPECT_EQ(offsetof(cqe64, sop_drop_qpn), offsetof(mlx5_cqe64, sop_drop_qpn));
  EXPECT_EQ(offsetof(cqe64, wqe_counter), offsetof(mlx5_cqe64, wqe_counter));
  EXPECT_EQ(offsetof(cqe64, signature), offsetof(mlx5_cqe64, signature));
  EXPECT_EQ(offsetof(cqe64, op_own), offsetof(mlx5_cqe64, op_own));
  // Error CQEs overlay the same 64 bytes (rdma-core's struct mlx5_err_cqe).
  EXPECT_EQ(sizeof(cqe64), sizeof(mlx5_err_cqe));
  EXPECT_EQ(offsetof(cqe64, vendor_err_synd), offsetof(mlx5_err_cqe, vendor_err_synd));
  EXPECT_EQ(offsetof(cqe64, syndrome), offsetof(mlx5_err_cqe, syndrome));
  EXPECT_EQ(offsetof(cqe64, sop_drop_qpn), offsetof(mlx5_err_cqe, s_wqe_opcode_qpn));
  EXPECT_EQ(offsetof(cqe64, wqe_counter), offsetof(mlx5_err_cqe, wqe_counter));
}

TEST(Mlx5Format, ByteSwapsMatchHtobe) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < kIters; ++i) {
    const uint64_t v = rng();
    ASSERT_EQ(be16((uint16_t)v), htobe16((uint16_t)v));
    ASSERT_EQ(be32((uint32_t)v), htobe32((uint32_t)v));
    ASSERT_EQ(be64(v), htobe64(v));
    ASSERT_EQ(be32(be32((uint32_t)v)), (uint32_t)v);
    ASSERT_EQ(be64(be64(v)), v);
  }
}

TEST(Mlx5Format, CtrlSegMatchesMlx5dvSetCtrlSeg) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < kIters; ++i) {
    const uint16_t idx = (uint16_t)rng();
    const uint8_t opcode = (uint8_t)rng(), opmod = (uint8_t)rng(), fm = (uint8_t)rng();
    const uint8_t ds = (uint8_t)(rng() & 0x3f);  // 6-bit field
    const uint32_t qpn = (uint32_t)rng() & 0xffffff, imm = (uint32_t)rng();
    ctrl_seg ours;
    memset(&ours, 0xa5, sizeof ours);  // set_ctrl must write every byte
    set_ctrl(&ours, idx, opcode, opmod, qpn, ds, fm, imm);
    mlx5_wqe_ctrl_seg oracle;
    memset(&oracle, 0, sizeof oracle);  // the helper leaves dci_stream_channel_id alone
    mlx5dv_set_ctrl_seg(&oracle, idx, opcode, opmod, qpn, fm, ds, 0, imm);
    expect_same_bytes(ours, oracle, "ctrl segment");
    ASSERT_EQ(ctrl_opcode(&ours), opcode);
    ASSERT_EQ(ctrl_opmod(&ours), opmod);
    ASSERT_EQ(ctrl_wqe_idx(&ours), idx);
    ASSERT_EQ(ctrl_qpn(&ours), qpn);
    ASSERT_EQ(ctrl_ds(&ours), ds);
    ASSERT_EQ(ctrl_qpn(&ours), be32toh(oracle.qpn_ds) >> 8);
    ASSERT_EQ(ctrl_ds(&ours), be32toh(oracle.qpn_ds) & 0x3f);
  }
}

TEST(Mlx5Format, RaddrDataAtomicSegsMatchRdmaCore) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < kIters; ++i) {
    const uint64_t a = rng(), b = rng();
    const uint32_t k = (uint32_t)rng(), n = (uint32_t)rng();

    raddr_seg r;
    memset(&r, 0xa5, sizeof r);
    set_raddr(&r, a, k);
    mlx5_wqe_raddr_seg ro;
    ro.raddr = htobe64(a);
    ro.rkey = htobe32(k);
    ro.reserved = 0;
    expect_same_bytes(r, ro, "raddr segment");

    data_seg d;
    set_data(&d, n, k, a);
    mlx5_wqe_data_seg dor;
    mlx5dv_set_data_seg(&dor, n, k, (uintptr_t)a);
    expect_same_bytes(d, dor, "data segment");

    atomic_seg at;
    set_atomic(&at, a, b);
    mlx5_wqe_atomic_seg ao;
    ao.swap_add = htobe64(a);
    ao.compare = htobe64(b);
    expect_same_bytes(at, ao, "atomic segment");
  }
  // The WQE sizes the contract relies on: every GIO WQE is one WQEBB.
  EXPECT_EQ(wqebbs(3), 1u);
  EXPECT_EQ(wqebbs(4), 1u);
  EXPECT_EQ(wqebbs(5), 2u);
  EXPECT_EQ(wqebbs(1), 1u);
}

TEST(Mlx5Format, CqeMatchesRdmaCore) {
  std::mt19937_64 rng(4);
  for (int i = 0; i < kIters; ++i) {
    const uint8_t opcode = (uint8_t)(rng() & 0xf), owner = (uint8_t)(rng() & 1);
    const uint8_t synd = (uint8_t)rng(), vendor = (uint8_t)rng(), wqe_op = (uint8_t)rng();
    const uint32_t qpn = (uint32_t)rng() & 0xffffff, bc = (uint32_t)rng();
    const uint16_t ctr = (uint16_t)rng();

    cqe64 ours;
    memset(&ours, 0xa5, sizeof ours);  // set_cqe must clear everything but op_own
    set_cqe(&ours, wqe_op, synd, vendor, qpn, ctr, bc);
    ours.op_own = make_op_own(opcode, owner);

    mlx5_cqe64 oracle;
    memset(&oracle, 0, sizeof oracle);
    oracle.byte_cnt = htobe32(bc);
    oracle.sop_drop_qpn = htobe32(((uint32_t)wqe_op << 24) | qpn);
    oracle.wqe_counter = htobe16(ctr);
    oracle.op_own = (uint8_t)(opcode << 4);
    mlx5dv_set_cqe_owner(&oracle, owner);
    mlx5_err_cqe err;
    memcpy(&err, &oracle, sizeof err);
    err.syndrome = synd;
    err.vendor_err_synd = vendor;
    expect_same_bytes(ours, err, "CQE");

    ASSERT_EQ(cqe_opcode(ours.op_own), mlx5dv_get_cqe_opcode(&oracle));
    ASSERT_EQ(cqe_owner(ours.op_own), mlx5dv_get_cqe_owner(&oracle));
    ASSERT_EQ(be16(ours.wqe_counter), ctr);
    ASSERT_EQ(be32(ours.sop_drop_qpn) & 0xffffff, qpn);
  }
  // The "nothing completed yet" pattern of a fresh CQ reads as an invalid CQE to rdma-core too.
  mlx5_cqe64 fresh;
  memset(&fresh, 0, sizeof fresh);
  fresh.op_own = make_op_own(CQE_INVALID, 0) | 0x0f;
  EXPECT_EQ(mlx5dv_get_cqe_opcode(&fresh), MLX5_CQE_INVALID);
}

// The prebuilt template slots are checked against rdma-core in mlx5_template_test.cpp.
