// ConnectX (mlx5) backend of the gda transport, over DEVX. GIO lays its queues out exactly as a
// ConnectX reads them (runtime/gda_tmpl.h), so the NIC drives the very memory the softnic would:
// per queue (set, peer) one RC QP whose send ring and doorbell record are the descriptor's `sq`
// and `dbrec`, and one collapsed single-entry CQ whose CQE is the descriptor's `cq`. Only the
// doorbell moves, to the NIC's UAR register mapped into the GPU; the device contract is unchanged.
// UNTESTED ON HARDWARE: no ConnectX was available when it was written; it is compiled, never run.
#include <string>

#include "host/gda/gda_state.h"

#if defined(GIO_HAVE_RDMA_CORE)
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "host/bootstrap/bootstrap.h"
#include "host/driver/driver_probe.h"
#include "runtime/gda_tmpl.h"
#include "host/gda/mlx5_prm.h"
#include "host/log.h"
#include "host/platform/gpu.h"
#include "host/runtime.h"
#endif

namespace gio {

int mlx5_device_count(std::string* why) {
#if defined(GIO_HAVE_RDMA_CORE)
  int n = 0, found = 0;
  ibv_device** list = ibv_get_device_list(&n);
  for (int i = 0; list && i < n; ++i)
    if (mlx5dv_is_supported(list[i])) ++found;
  if (list) ibv_free_device_list(list);
  if (!found) *why = "no ConnectX (mlx5) device found by rdma-core (" + std::to_string(n) + " RDMA devices)";
  return found;
#else
  *why = "this libgio was built without rdma-core";
  return 0;
#endif
}

#if defined(GIO_HAVE_RDMA_CORE)

struct mlx5_backend {
  std::string name;                  // e.g. mlx5_0, for messages
  ibv_context* ctx = nullptr;
  ibv_pd* pd = nullptr;
  uint32_t pdn = 0;
  uint32_t eqn = 0;
  ibv_device_attr dev{};
  ibv_port_attr port{};
  uint32_t atomic_8b_mode = 0;       // atomic_req_8B_endianness_mode: byte order of fetched results
  uint32_t qp_atomic_mode = mlx5::prm::QPC_ATOMIC_UP_TO_8B;  // the QPs' atomic_mode (query_atomic_mode)
  int gid_index = 0;                 // RoCE: this port's source GID
  ibv_gid gid{};
  ibv_mr* heap_mr = nullptr;         // the symmetric heap, for local and remote access
  ibv_mr* seg_mr = nullptr;          // the program's data segment (globals), for remote access
  ibv_mr* flush_mr = nullptr;        // AMD: this GPU's HDP flush page, for a peer NIC's write after its data
  mlx5dv_devx_umem* umem = nullptr;  // the queue block as the NIC reads it: rings, CQEs, records
  ibv_mr* queue_mr = nullptr;        // the same block for WQE data segments: the scratch words
  mlx5dv_devx_uar* uar = nullptr;
  void* db = nullptr;                // the UAR's doorbell register as kernels address it
  struct queue {
    mlx5dv_devx_obj* cq = nullptr;
    mlx5dv_devx_obj* qp = nullptr;
    uint32_t cqn = 0, qpn = 0;
  };
  std::vector<queue> queues;         // [set * n_pes + pe]
};

namespace {
namespace prm = mlx5::prm;
constexpr uint8_t kPort = 1;
constexpr uint8_t kHopLimit = 64;

bool fail(std::string* why, std::string msg) {
  *why = std::move(msg);
  return false;
}
std::string failed(const std::string& call, int err) {
  return call + " failed: " + strerror(err) + " (errno " + std::to_string(err) + ")";
}
// rdma-core calls return an errno value, or -1 with errno set.
int err_of(int rc) { return rc > 0 ? rc : errno; }
// A DEVX command also carries the firmware's verdict in its output.
std::string cmd_failed(const char* call, const char* cmd, int err, const uint8_t* out) {
  char fw[64];
  snprintf(fw, sizeof fw, "; firmware status 0x%x, syndrome 0x%x", prm::get(out, prm::OUT_STATUS),
           prm::get(out, prm::OUT_SYNDROME));
  return failed(std::string(call) + "(" + cmd + ")", err) + fw;
}
uint32_t log2_floor(uint32_t v) {
  uint32_t l = 0;
  while (v >> (l + 1)) ++l;
  return l;
}

// RoCE: the source GID, preferring RoCE v2 (routable) and among those an IPv4-mapped address.
int roce_gid(mlx5_backend& b, ibv_gid* gid) {
  std::vector<ibv_gid_entry> t((size_t)b.port.gid_tbl_len * b.dev.phys_port_cnt + 1);
  const ssize_t n = ibv_query_gid_table(b.ctx, t.data(), t.size(), 0);
  static const uint8_t v4_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  int best = -1, best_rank = 0;
  for (ssize_t i = 0; i < n; ++i) {
    if (t[i].port_num != kPort) continue;
    const int rank = t[i].gid_type == IBV_GID_TYPE_ROCE_V2 ? 2 + !memcmp(t[i].gid.raw, v4_prefix, 12) : 1;
    if (rank > best_rank) {
      best = (int)t[i].gid_index;
      best_rank = rank;
      *gid = t[i].gid;
    }
  }
  return best;
}

// The byte order fetched atomic results come back in (runtime/mlx5/atomic.h): the HCA's current
// atomic capabilities. If the firmware does not answer, the verbs attribute the driver derives from
// the same mode: IBV_ATOMIC_HCA only when 8-byte results are in host order.
//
// What GIO's atomics need of the NIC (runtime/gda_amo4.h): the IB fetch-add and
// compare-swap on 8 bytes, and the masked (extended) compare-swap and fetch-add on 4 bytes, which
// carry every 4-byte AMO (fetch, add, compare-swap, swap, set, and, or, xor) as one operation.
// atomic_caps says whether the HCA has them (atomic_operations, atomic_size_qp); the QPs then ask
// for the masked atomics with atomic_mode UP_TO_8B, and fall back to the IB spec's atomics only
// (IB_COMP, the Linux driver's choice for such an HCA) where the masked ones are missing: there
// 8-byte atomics work and a 4-byte one ends in a completion error, announced here.
void query_atomic_mode(mlx5_backend& b) {
  uint8_t in[prm::QUERY_CAP_IN_BYTES] = {}, out[prm::QUERY_CAP_OUT_BYTES] = {};
  prm::set(in, prm::OPCODE, prm::CMD_QUERY_HCA_CAP);
  prm::set(in, prm::QUERY_CAP_OP_MOD, prm::CAP_ATOMIC << 1 | prm::CAP_CURRENT);
  const int rc = mlx5dv_devx_general_cmd(b.ctx, in, sizeof in, out, sizeof out);
  if (rc == 0 && prm::get(out, prm::OUT_STATUS) == 0) {
    b.atomic_8b_mode = prm::get(out, prm::ATOMIC_REQ_8B_ENDIANNESS_MODE);
    const uint32_t ops = prm::get(out, prm::ATOMIC_OPERATIONS), sizes = prm::get(out, prm::ATOMIC_SIZE_QP);
    const uint32_t masked = prm::ATOMIC_OPS_MASKED_CMP_SWAP | prm::ATOMIC_OPS_MASKED_FETCH_ADD;
    if ((ops & masked) != masked || !(sizes & prm::ATOMIC_SIZE_QP_4B)) {
      if (!(ops & masked)) b.qp_atomic_mode = prm::QPC_ATOMIC_IB_COMP;
      info(0, "gda: ConnectX %s lacks the masked 4-byte atomics (atomic_operations 0x%x, atomic_size_qp 0x%x): "
              "4-byte atomics over gda will fail with a completion error; 8-byte ones work",
           b.name.c_str(), ops, sizes);
    }
  } else {
    b.atomic_8b_mode = b.dev.atomic_cap == IBV_ATOMIC_HCA ? 1 : 0;
    info(1, "gda: ConnectX %s: QUERY_HCA_CAP(atomic) failed (%s); fetched 8-byte atomics taken as %s from the "
            "verbs atomic capability", b.name.c_str(), cmd_failed("mlx5dv_devx_general_cmd", "QUERY_HCA_CAP", err_of(rc), out).c_str(),
         b.atomic_8b_mode ? "host order" : "big-endian");
  }
}

bool open_device(mlx5_backend& b, std::string* why) {
  int n = 0, err = 0;
  ibv_device** list = ibv_get_device_list(&n);
  if (!list) return fail(why, failed("ibv_get_device_list", errno));
  ibv_device* dev = nullptr;
  for (int i = 0; i < n && !dev; ++i)
    if (mlx5dv_is_supported(list[i])) dev = list[i];
  if (dev) {
    b.name = ibv_get_device_name(dev);
    mlx5dv_context_attr attr{};
    attr.flags = MLX5DV_CONTEXT_FLAGS_DEVX;
    b.ctx = mlx5dv_open_device(dev, &attr);
    err = errno;
  }
  ibv_free_device_list(list);  // an open context outlives the list
  if (!dev) return fail(why, "no ConnectX (mlx5) device");
  if (!b.ctx) return fail(why, failed("mlx5dv_open_device(DEVX)", err));
  int rc = ibv_query_device(b.ctx, &b.dev);
  if (rc) return fail(why, failed("ibv_query_device", err_of(rc)));
  if ((rc = ibv_query_port(b.ctx, kPort, &b.port))) return fail(why, failed("ibv_query_port(1)", err_of(rc)));
  if (b.port.state != IBV_PORT_ACTIVE)
    return fail(why, std::string("port 1 is not active (") + ibv_port_state_str(b.port.state) + ")");
  if (b.port.link_layer == IBV_LINK_LAYER_ETHERNET && (b.gid_index = roce_gid(b, &b.gid)) < 0)
    return fail(why, "RoCE port 1 has no GID (ibv_query_gid_table found none)");
  if (!(b.pd = ibv_alloc_pd(b.ctx))) return fail(why, failed("ibv_alloc_pd", errno));
  mlx5dv_pd dv{};
  mlx5dv_obj obj{};
  obj.pd.in = b.pd;
  obj.pd.out = &dv;
  if ((rc = mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD))) return fail(why, failed("mlx5dv_init_obj(PD)", err_of(rc)));
  b.pdn = dv.pdn;
  if ((rc = mlx5dv_devx_query_eqn(b.ctx, 0, &b.eqn))) return fail(why, failed("mlx5dv_devx_query_eqn", err_of(rc)));
  query_atomic_mode(b);
  return true;
}

bool register_memory(runtime& r, gda_state& g, mlx5_backend& b, std::string* why) {
  const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
  std::string dmabuf, how;
  uint64_t offset = 0;
  const int fd = gpu::heap_dmabuf_fd(r.device, r.heap, r.heap_size, &offset, &how);
  if (fd >= 0) {
    b.heap_mr = ibv_reg_dmabuf_mr(b.pd, offset, r.heap_size, (uint64_t)(uintptr_t)r.heap, fd, access);
    if (!b.heap_mr) dmabuf = ", after " + failed("ibv_reg_dmabuf_mr", errno) + " (" + how + ")";
    close(fd);  // the registration holds its own reference
  }
  g.nic_heap_how = b.heap_mr ? "ibv_reg_dmabuf_mr, " + how : "ibv_reg_mr (no dma-buf: " + how + ")";
  // Without a dmabuf, GPU memory registers only through a peer-memory kernel module
  // (nvidia_peermem, amdgpu's peer memory); the host platform's heap is ordinary process memory.
  if (!b.heap_mr && !(b.heap_mr = ibv_reg_mr(b.pd, r.heap, r.heap_size, access)))
    return fail(why, failed("ibv_reg_mr(symmetric heap)", errno) + dmabuf +
                         " (GPU memory needs a dmabuf-capable driver or nvidia_peermem / amdgpu peer memory)");
  // AMD: the HDP flush page (the paper's PPB), registered so that a peer's NIC can write it after
  // its data and this GPU's kernels then see that data past the HDP. Only through a dma-buf from
  // the patched KFD or gio_iomem (driver-patches/); without one GIO runs as before, and says so.
  if (gpu::nic_flush_register(r.device)) {
    drv::sys_ops sys;
    drv::export_result x;
    std::string no;
    if (!drv::export_flush_page(sys, drv::probe(sys), gpu::pci_bdf(r.device), &x, &no)) {
      g.nic_flush_how = "not registered: " + no;
    } else {
      b.flush_mr = ibv_reg_dmabuf_mr(b.pd, 0, x.size, 0, x.fd, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
      g.nic_flush_how = b.flush_mr ? "registered (" + x.how + ")" : "not registered: " + failed("ibv_reg_dmabuf_mr", errno) + " (" + x.how + ")";
      close(x.fd);
    }
  } else {
    g.nic_flush_how = "not needed on this platform";
  }
  // The globals (host/heap/globals.h): host memory on every platform, an ordinary registration.
  if (r.seg.size && !(b.seg_mr = ibv_reg_mr(b.pd, r.seg.base, r.seg.size, access)))
    return fail(why, failed("ibv_reg_mr(the program's data segment)", errno));

  // The queue block as a DEVX umem, the NIC's view of every queue. 4 KiB pages only: queues start
  // at 64-byte multiples inside the block, and the PRM gives a queue's start within its first page
  // as a 6-bit count of 64-byte units. The NIC writes CQEs into it, hence LOCAL_WRITE.
  mlx5dv_devx_umem_in in{};
  in.addr = g.mem;
  in.size = g.mem_bytes;
  in.access = IBV_ACCESS_LOCAL_WRITE;
  in.pgsz_bitmap = 4096;
  if (!(b.umem = mlx5dv_devx_umem_reg_ex(b.ctx, &in)))
    return fail(why, failed("mlx5dv_devx_umem_reg_ex(gda queues)", errno));
  // The same block as an MR, so WQEs can land fetched results in its scratch words and read or
  // write its bounce buffers (the device stages local buffers outside the heap through them).
  if (!(b.queue_mr = ibv_reg_mr(b.pd, g.mem, g.mem_bytes, IBV_ACCESS_LOCAL_WRITE)))
    return fail(why, failed("ibv_reg_mr(gda queues)", errno));
  return true;
}

bool map_doorbell(mlx5_backend& b, std::string* why) {
  // Non-cached UAR first: the GPU's 8-byte doorbell store needs no write-combining flush.
  const uint32_t kinds[] = {
#if defined(MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED)
      MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED,
#endif
      MLX5DV_UAR_ALLOC_TYPE_NC, MLX5DV_UAR_ALLOC_TYPE_BF};
  int err = 0;
  for (uint32_t k : kinds) {
    if ((b.uar = mlx5dv_devx_alloc_uar(b.ctx, k))) break;
    err = errno;
  }
  if (!b.uar) return fail(why, failed("mlx5dv_devx_alloc_uar", err));
  // reg_addr is the page's doorbell register (page + 0x800, rdma-core's MLX5_BF_OFFSET); map both
  // 256-byte BlueFlame halves, as UCX does, though kernels only store 8 bytes at its start.
  std::string msg;
  if (!(b.db = gpu::map_io_for_device(b.uar->reg_addr, 512, &msg))) return fail(why, msg);
  return true;
}

bool create_queues(runtime& r, gda_state& g, mlx5_backend& b, std::string* why) {
  const size_t nq = (size_t)g.nic_sets * r.n_pes, ring = gda_ring_bytes(g.slots);  // + the host's set
  b.queues.resize(nq);
  for (size_t i = 0; i < nq; ++i) {
    // Where gda_queue_place puts this queue's parts, as offsets into the umem.
    gio_gda_queue_v1 q{};
    gda_queue_place(q, g.mem + i * ring, nullptr, g.slots);
    auto off = [&](const void* p) { return (uint64_t)((const uint8_t*)p - g.mem); };
    mlx5_backend::queue& x = b.queues[i];
    uint8_t out[prm::OUT_BYTES] = {};

    uint8_t cq[prm::CREATE_CQ_IN_BYTES] = {};
    prm::set(cq, prm::OPCODE, prm::CMD_CREATE_CQ);
    prm::set(cq, prm::CQC_CQE_SZ, 0);  // 64-byte CQEs
    prm::set(cq, prm::CQC_CC, 1);
    prm::set(cq, prm::CQC_OI, 1);
    prm::set(cq, prm::CQC_LOG_CQ_SIZE, 0);  // one CQE: the descriptor's `cq`
    prm::set(cq, prm::CQC_UAR_PAGE, b.uar->page_id);
    prm::set(cq, prm::CQC_C_EQN, b.eqn);
    // On a ConnectX the descriptor's doorbell is the UAR, so the ring's softnic doorbell word is
    // free: it is the CQ's doorbell record, which a collapsed CQ that ignores overrun and is never
    // armed does not read, but which the PRM requires.
    prm::set(cq, prm::CQC_DBR_UMEM_VALID, 1);
    prm::set(cq, prm::CQC_DBR_UMEM_ID, b.umem->umem_id);
    prm::set64(cq, prm::CQC_DBR_ADDR, off(q.db));
    prm::set64(cq, prm::CQ_UMEM_OFFSET, off(q.cq));
    prm::set(cq, prm::CQ_UMEM_ID, b.umem->umem_id);
    prm::set(cq, prm::CQ_UMEM_VALID, 1);
    if (!(x.cq = mlx5dv_devx_obj_create(b.ctx, cq, sizeof cq, out, sizeof out)))
      return fail(why, cmd_failed("mlx5dv_devx_obj_create", "CREATE_CQ", errno, out) + " for queue " + std::to_string(i));
    x.cqn = prm::get(out, prm::OUT_OBJ_NUMBER);

    uint8_t qp[prm::QP_CMD_IN_BYTES] = {};
    memset(out, 0, sizeof out);
    prm::set(qp, prm::OPCODE, prm::CMD_CREATE_QP);
    prm::set(qp, prm::QPC_ST, 0);  // RC
    prm::set(qp, prm::QPC_PM_STATE, prm::QPC_PM_MIGRATED);
    prm::set(qp, prm::QPC_PD, b.pdn);
    prm::set(qp, prm::QPC_UAR_PAGE, b.uar->page_id);
    prm::set(qp, prm::QPC_USER_INDEX, (uint32_t)i);
    prm::set(qp, prm::QPC_TS_FORMAT, prm::QPC_TS_DEFAULT);
    prm::set(qp, prm::QPC_LOG_SQ_SIZE, log2_floor(g.slots));
    prm::set(qp, prm::QPC_RQ_TYPE, prm::QPC_RQ_ZERO_LENGTH);
    prm::set(qp, prm::QPC_LOG_RQ_SIZE, 0);
    prm::set(qp, prm::QPC_CQN_SND, x.cqn);
    prm::set(qp, prm::QPC_CQN_RCV, x.cqn);
    // The descriptor's dbrec: [0] the receive record (no RQ), [1] the send record kernels write.
    prm::set(qp, prm::QPC_DBR_UMEM_VALID, 1);
    prm::set(qp, prm::QPC_DBR_UMEM_ID, b.umem->umem_id);
    prm::set64(qp, prm::QPC_DBR_ADDR, off(q.dbrec));
    prm::set64(qp, prm::WQ_UMEM_OFFSET, off(q.sq));  // no RQ: the send ring starts the work queue
    prm::set(qp, prm::WQ_UMEM_ID, b.umem->umem_id);
    prm::set(qp, prm::WQ_UMEM_VALID, 1);
    if (!(x.qp = mlx5dv_devx_obj_create(b.ctx, qp, sizeof qp, out, sizeof out)))
      return fail(why, cmd_failed("mlx5dv_devx_obj_create", "CREATE_QP", errno, out) + " for queue " + std::to_string(i));
    x.qpn = prm::get(out, prm::OUT_OBJ_NUMBER);
  }
  return true;
}

// What a peer needs to reach this PE's QPs; one QPN per queue follows it in the exchange.
struct port_addr {
  uint8_t gid[16];
  uint16_t lid;
  uint8_t mtu;  // enum ibv_mtu, which is also the PRM's encoding (1: 256 B ... 5: 4096 B)
  uint8_t link_layer;
  uint32_t rsvd;
};

// RoCE: the peer's MAC address, as the kernel resolves it for an address handle to its GID.
void resolve_rmac(mlx5_backend& b, const uint8_t* gid, int pe, uint8_t* mac) {
  ibv_ah_attr a{};
  a.is_global = 1;
  a.port_num = kPort;
  memcpy(a.grh.dgid.raw, gid, 16);
  a.grh.sgid_index = (uint8_t)b.gid_index;
  a.grh.hop_limit = kHopLimit;
  ibv_ah* ah = ibv_create_ah(b.pd, &a);
  if (!ah) fatal(GIO_ERR_TRANSPORT, "shmem_init", "gda ConnectX %s: %s (route to PE %d)", b.name.c_str(),
                 failed("ibv_create_ah", errno).c_str(), pe);
  mlx5dv_ah dv{};
  mlx5dv_obj obj{};
  obj.ah.in = ah;
  obj.ah.out = &dv;
  const int rc = mlx5dv_init_obj(&obj, MLX5DV_OBJ_AH);
  if (!rc) memcpy(mac, dv.av->rmac, 6);
  ibv_destroy_ah(ah);
  if (rc) fatal(GIO_ERR_TRANSPORT, "shmem_init", "gda ConnectX %s: %s", b.name.c_str(),
                failed("mlx5dv_init_obj(AH)", err_of(rc)).c_str());
}

void modify(const mlx5_backend& b, const mlx5_backend::queue& x, uint8_t* in, uint32_t opcode, const char* name) {
  prm::set(in, prm::OPCODE, opcode);
  prm::set(in, prm::QP_QPN, x.qpn);
  uint8_t out[prm::OUT_BYTES] = {};
  const int rc = mlx5dv_devx_obj_modify(x.qp, in, prm::QP_CMD_IN_BYTES, out, sizeof out);
  if (rc)
    fatal(GIO_ERR_TRANSPORT, "shmem_init", "gda ConnectX %s: %s on QP 0x%x", b.name.c_str(),
          cmd_failed("mlx5dv_devx_obj_modify", name, err_of(rc), out).c_str(), x.qpn);
}

// RESET -> INIT -> RTR -> RTS, connected to `remote_qpn` at `peer`.
void qp_to_rts(const mlx5_backend& b, const mlx5_backend::queue& x, const port_addr& peer, uint32_t remote_qpn,
               const uint8_t* rmac) {
  const bool roce = b.port.link_layer == IBV_LINK_LAYER_ETHERNET;
  uint8_t in[prm::QP_CMD_IN_BYTES] = {};
  prm::set(in, prm::QPC_PM_STATE, prm::QPC_PM_MIGRATED);
  prm::set(in, prm::PAP_VHCA_PORT_NUM, kPort);
  prm::set(in, prm::PAP_PKEY_INDEX, 0);
  prm::set(in, prm::QPC_RWE, 1);
  prm::set(in, prm::QPC_RRE, 1);
  prm::set(in, prm::QPC_RAE, 1);
  prm::set(in, prm::QPC_ATOMIC_MODE, b.qp_atomic_mode);
  modify(b, x, in, prm::CMD_RST2INIT_QP, "RST2INIT_QP");

  memset(in, 0, sizeof in);
  const uint32_t mtu = b.port.active_mtu;
  prm::set(in, prm::QPC_MTU, peer.mtu < mtu ? peer.mtu : mtu);
  prm::set(in, prm::QPC_LOG_MSG_MAX, 30);  // 1 GiB, the most a gda WQE moves
  prm::set(in, prm::QPC_REMOTE_QPN, remote_qpn);
  prm::set(in, prm::QPC_MIN_RNR_NAK, 12);
  prm::set(in, prm::QPC_LOG_RRA_MAX, log2_floor((uint32_t)b.dev.max_qp_rd_atom));
  prm::set(in, prm::PAP_VHCA_PORT_NUM, kPort);
  if (roce) {
    prm::set_bytes(in, prm::PAP_RGID, peer.gid, 16);
    prm::set_bytes(in, prm::PAP_RMAC, rmac, 6);
    prm::set(in, prm::PAP_SRC_ADDR_INDEX, (uint32_t)b.gid_index);
    prm::set(in, prm::PAP_HOP_LIMIT, kHopLimit);
    prm::set(in, prm::PAP_UDP_SPORT, 0xc000);  // RoCE v2: the start of the range rdma-core uses
  } else {
    prm::set(in, prm::PAP_RLID, peer.lid);
  }
  modify(b, x, in, prm::CMD_INIT2RTR_QP, "INIT2RTR_QP");  // next receive PSN 0: the peer sends from 0

  memset(in, 0, sizeof in);
  prm::set(in, prm::QPC_NEXT_SEND_PSN, 0);
  prm::set(in, prm::QPC_LOG_SRA_MAX, log2_floor((uint32_t)b.dev.max_qp_init_rd_atom));
  prm::set(in, prm::QPC_RETRY_COUNT, 7);
  prm::set(in, prm::QPC_RNR_RETRY, 7);
  prm::set(in, prm::PAP_ACK_TIMEOUT, 20);  // 4.096 us * 2^20, about 4 s
  modify(b, x, in, prm::CMD_RTR2RTS_QP, "RTR2RTS_QP");
}
}  // namespace

mlx5_backend* mlx5_open(runtime& r, gda_state& g, std::string* why) {
  std::unique_ptr<mlx5_backend, void (*)(mlx5_backend*)> b(new mlx5_backend, mlx5_close);
  if (!open_device(*b, why) || !register_memory(r, g, *b, why) || !map_doorbell(*b, why) ||
      !create_queues(r, g, *b, why)) {
    if (!b->name.empty()) *why = b->name + ": " + *why;
    return nullptr;
  }
  g.local_lkey = b->heap_mr->lkey;
  g.local_rkey = b->heap_mr->rkey;
  g.scratch_lkey = b->queue_mr->lkey;
  g.seg_rkey = b->seg_mr ? b->seg_mr->rkey : 0;
  info(1, "gda: ConnectX %s port 1 (%s), %zu queue pairs", b->name.c_str(),
       b->port.link_layer == IBV_LINK_LAYER_ETHERNET ? "RoCE" : "InfiniBand", b->queues.size());
  return b.release();
}

uint32_t mlx5_qpn(const mlx5_backend* b, size_t queue) { return b->queues[queue].qpn; }
void* mlx5_host_doorbell(const mlx5_backend* b) { return b->uar->reg_addr; }

void mlx5_connect_queues(runtime& r, gda_state& g, mlx5_backend* b) {
  // Every PE publishes its port address and all its QPNs; the QP of queue (set, pe) here connects
  // to PE pe's QP of queue (set, my_pe). O(sets x PEs) bytes per PE: an all-to-all would need less.
  const size_t nq = b->queues.size(), bytes = sizeof(port_addr) + nq * sizeof(uint32_t);
  std::vector<uint8_t> mine(bytes), all(bytes * r.n_pes);
  port_addr me{};
  memcpy(me.gid, b->gid.raw, 16);
  me.lid = b->port.lid;
  me.mtu = (uint8_t)b->port.active_mtu;
  me.link_layer = b->port.link_layer;
  memcpy(mine.data(), &me, sizeof me);
  for (size_t i = 0; i < nq; ++i) memcpy(&mine[sizeof me + i * 4], &b->queues[i].qpn, 4);
  boot::allgather(mine.data(), all.data(), bytes, "shmem_init (gda ConnectX addresses)");

  for (int pe = 0; pe < r.n_pes; ++pe) {
    const uint8_t* theirs = &all[(size_t)pe * bytes];
    port_addr peer;
    memcpy(&peer, theirs, sizeof peer);
    if (peer.link_layer != me.link_layer)
      fatal(GIO_ERR_TRANSPORT, "shmem_init", "gda ConnectX %s: PE %d's port is %s, this PE's is %s", b->name.c_str(), pe,
            peer.link_layer == IBV_LINK_LAYER_ETHERNET ? "RoCE" : "InfiniBand",
            me.link_layer == IBV_LINK_LAYER_ETHERNET ? "RoCE" : "InfiniBand");
    uint8_t rmac[6] = {};
    if (me.link_layer == IBV_LINK_LAYER_ETHERNET) resolve_rmac(*b, peer.gid, pe, rmac);
    for (uint32_t set = 0; set < g.nic_sets; ++set) {
      uint32_t remote_qpn;
      memcpy(&remote_qpn, theirs + sizeof peer + ((size_t)set * r.n_pes + r.my_pe) * 4, 4);
      qp_to_rts(*b, b->queues[(size_t)set * r.n_pes + pe], peer, remote_qpn, rmac);
    }
  }
  for (gio_gda_queue_v1& q : g.host_desc) {
    q.db = (uint64_t*)b->db;
    for (int k : {GIO_GDA_T_FA8, GIO_GDA_T_CS8}) q.tmpl[k].reply_order = mlx5::connectx_reply_order(8, b->atomic_8b_mode);
    for (int k : {GIO_GDA_T_FA4, GIO_GDA_T_CS4}) q.tmpl[k].reply_order = mlx5::connectx_reply_order(4, b->atomic_8b_mode);
  }
}

void mlx5_close(mlx5_backend* b) {
  if (!b) return;
  for (size_t i = b->queues.size(); i-- > 0;) {
    if (b->queues[i].qp) mlx5dv_devx_obj_destroy(b->queues[i].qp);
    if (b->queues[i].cq) mlx5dv_devx_obj_destroy(b->queues[i].cq);
  }
  if (b->db) gpu::unmap_io_for_device(b->uar->reg_addr);
  if (b->uar) mlx5dv_devx_free_uar(b->uar);
  if (b->queue_mr) ibv_dereg_mr(b->queue_mr);
  if (b->umem) mlx5dv_devx_umem_dereg(b->umem);
  if (b->heap_mr) ibv_dereg_mr(b->heap_mr);
  if (b->seg_mr) ibv_dereg_mr(b->seg_mr);
  if (b->flush_mr) ibv_dereg_mr(b->flush_mr);
  if (b->pd) ibv_dealloc_pd(b->pd);
  if (b->ctx) ibv_close_device(b->ctx);
  delete b;
}

#else  // !GIO_HAVE_RDMA_CORE

struct mlx5_backend {};
mlx5_backend* mlx5_open(runtime&, gda_state&, std::string* why) {
  *why = "this libgio was built without rdma-core";
  return nullptr;
}
uint32_t mlx5_qpn(const mlx5_backend*, size_t) { return 0; }
void* mlx5_host_doorbell(const mlx5_backend*) { return nullptr; }
void mlx5_connect_queues(runtime&, gda_state&, mlx5_backend*) {}
void mlx5_close(mlx5_backend*) {}

#endif

}  // namespace gio
