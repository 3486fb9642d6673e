#include "host/gda/gda_state.h"
#include "runtime/gda_tmpl.h"

#include <cstring>

#include "host/bootstrap/bootstrap.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {
namespace {
// The softnic's made-up keys, per PE: one for the heap, one for the queue block. Neither is 0 (the
// device's "template key") nor rdma-core's MLX5_INVALID_LKEY (0x100).
uint32_t heap_key(int pe) { return 0x47000001u | ((uint32_t)(pe & 0xffff) << 8); }
uint32_t queue_key(int pe) { return 0x51000002u | ((uint32_t)(pe & 0xffff) << 8); }
uint32_t segment_key(int pe) { return 0x53000003u | ((uint32_t)(pe & 0xffff) << 8); }

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

// Host puts and gets of buffers outside the heap move through this much staging per WQE.
constexpr size_t kHostBounceBytes = 1u << 20;

// Every PE drives its queues the same way: a softnic PE has no QPs a ConnectX peer could connect
// to. So the ConnectX backend is used only where it opened on every PE; else `why` says why not.
mlx5_backend* connectx_open(runtime& r, gda_state& g, int nics, std::string* why) {
  mlx5_backend* b = nullptr;
  if (nics > 0 && r.cfg.GIO_GDA_NIC == "softnic")
    *why = "GIO_GDA_NIC=softnic";
  else if (nics > 0 && !(b = mlx5_open(r, g, why)))
    info(0, "gda: the ConnectX backend failed (%s); using the softnic (software ConnectX)", why->c_str());
  uint64_t lo = 0, hi = 0;
  boot::minmax_u64(b ? 1 : 0, &lo, &hi, "shmem_init (gda NIC choice)");
  if (b && lo == 0) {
    mlx5_close(b);
    b = nullptr;
    *why = "another PE has no usable ConnectX";
  }
  return b;
}

}  // namespace

void gda_connect(runtime& r) {
  std::string why;
  const int nics = mlx5_device_count(&why);
  if (nics == 0 && r.my_pe == 0) info(0, "gda: %s; using the softnic (software ConnectX)", why.c_str());
  auto g = std::make_unique<gda_state>();
  // Default contexts hash over as many sets as before contexts got their own; each created context
  // (GIO_NUM_CONTEXTS in kernels, SHMEM_DEVICE_MAX_CTX by the host) has one more; the host's own
  // set (host/gda/gda_host.h) comes last.
  g->default_sets = (uint32_t)r.cfg.GIO_NUM_CONTEXTS + 1;
  g->sets = g->default_sets + ctx_end(r) - 1;
  g->nic_sets = g->sets + 1;
  g->slots = (uint32_t)r.cfg.GIO_GDA_SQ_SLOTS;
  g->bounce_bytes = (uint32_t)r.cfg.GIO_GDA_BOUNCE_BYTES;
  const size_t nq = (size_t)g->sets * r.n_pes, nq_nic = (size_t)g->nic_sets * r.n_pes;
  const size_t ring = gda_ring_bytes(g->slots), book = gda_book_bytes(g->slots);
  // The kernels' bounce buffers and the host's bounce area follow the rings in the same block, so
  // whatever registers the block (the ConnectX's queue MR, the softnic's queue key) covers them.
  const size_t bounce_at = align_up(nq_nic * ring, 4096);
  g->host_bounce_bytes = kHostBounceBytes;
  g->mem_bytes = bounce_at + nq * g->bounce_bytes + g->host_bounce_bytes;
  g->mem = (uint8_t*)gpu::queue_alloc(g->mem_bytes, true);
  g->host_bounce = g->mem + bounce_at + nq * g->bounce_bytes;
  // Descriptors and bookkeeping: GPU memory (what only the device touches).
  const size_t desc = align_up(nq * sizeof(gio_gda_queue_v1), 4096);
  g->dev_bytes = desc + nq * book;
  g->dev = (uint8_t*)gpu::queue_alloc(g->dev_bytes, false);
  g->queues = (gio_gda_queue_v1*)g->dev;

  // Keys: the ConnectX's registrations, or the softnic's made-up ones.
  g->mlx5 = connectx_open(r, *g, nics, &why);
  if (!g->mlx5) {
    g->local_lkey = g->local_rkey = heap_key(r.my_pe);
    g->scratch_lkey = queue_key(r.my_pe);
    g->seg_rkey = r.seg.size ? segment_key(r.my_pe) : 0;
  }
  // Heap addresses and keys: what a peer's NIC needs to address this PE's heap.
  g->rkeys.assign(r.n_pes, 0);
  g->remote_base.assign(r.n_pes, 0);
  g->seg_rkeys.assign(r.n_pes, 0);
  struct reg { uint64_t base; uint32_t rkey, seg_rkey; } mine{(uint64_t)(uintptr_t)r.heap, g->local_rkey, g->seg_rkey};
  std::vector<reg> all(r.n_pes);
  boot::allgather(&mine, all.data(), sizeof mine, "shmem_init (gda keys)");
  for (int pe = 0; pe < r.n_pes; ++pe) {
    g->rkeys[pe] = all[pe].rkey;
    g->remote_base[pe] = all[pe].base;
    g->seg_rkeys[pe] = all[pe].seg_rkey;
  }

  g->host_desc.assign(nq_nic, gio_gda_queue_v1{});
  uint32_t* const hdp = gpu::nic_flush_register(r.device);
  for (uint32_t set = 0; set < g->nic_sets; ++set)
    for (int pe = 0; pe < r.n_pes; ++pe) {
      const size_t i = (size_t)set * r.n_pes + pe;
      gio_gda_queue_v1& q = g->host_desc[i];
      gda_queue_place(q, g->mem + i * ring, nullptr, g->slots);
      q.remote_base = g->remote_base[pe];
      q.qpn = g->mlx5 ? mlx5_qpn(g->mlx5, i) : 0x100u + (uint32_t)i;
      q.peer = pe;
      q.hdp_flush = hdp;
      gda_build_templates(q, g->local_lkey, g->rkeys[pe], g->scratch_lkey);
      gda_prefill_slots(q);  // the rings are host memory: the CPU writes the templates
      q.cq->op_own = mlx5::make_op_own(mlx5::CQE_INVALID, 0) | 0x0f;  // 0xFF: nothing completed yet
      // Kernels' queues keep their slot bookkeeping in GPU memory; the host builds whole WQEs.
      gda_queue_place(q, g->mem + i * ring, set < g->sets ? g->dev + desc + i * book : nullptr, g->slots);
      q.bounce = g->bounce_bytes && set < g->sets ? g->mem + bounce_at + i * g->bounce_bytes : nullptr;
      q.bounce_bytes = set < g->sets ? g->bounce_bytes : 0;
    }
  if (g->mlx5) {
    mlx5_connect_queues(r, *g, g->mlx5);  // doorbells; every QP to RTS
    g->host_db = (uint64_t*)mlx5_host_doorbell(g->mlx5);
  }
  gpu::copy(g->queues, g->host_desc.data(), nq * sizeof(gio_gda_queue_v1), "shmem_init");
  // The softnic writes peers' heaps through this process's mappings: a peer it must serve and
  // cannot map (another node) has no gda without a ConnectX.
  for (int pe = 0; pe < r.n_pes; ++pe)
    if (!g->mlx5 && r.peers[pe].transport == GIO_TRANSPORT_GDA && !r.peers[pe].mapped)
      fatal(GIO_ERR_TRANSPORT, "shmem_init", "gda: the softnic cannot reach PE %d's heap (%s)", pe,
            r.peers[pe].why.c_str());
  g->nic_why = g->mlx5 ? "ConnectX (mlx5 DEVX)" : "softnic (software ConnectX; " + why + ")";
  gda_state* gp = g.get();
  r.gda = std::move(g);
  if (gp->mlx5) return;  // the ConnectX drives the queues
  gpu::nic_prepare();
  gp->nic = std::thread([&r, gp] { softnic_run(r, *gp); });
}

void gda_disconnect(runtime& r) {
  if (!r.gda) return;
  r.gda->stop = true;
  if (r.gda->nic.joinable()) r.gda->nic.join();
  mlx5_close(r.gda->mlx5);  // its QPs live in the queue memory freed next
  gpu::queue_free(r.gda->mem, true);
  gpu::queue_free(r.gda->dev, false);
  r.gda.reset();
}

}  // namespace gio
