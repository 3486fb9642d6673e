// gda transport, host half: lays out every queue set's QPs, prebuilds WQE templates, exchanges
// keys with the peers, and starts the NIC that drives them (the softnic unless a ConnectX is used).
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/fifo_mutex.h"
#include "runtime/gda_queue.h"

namespace gio {
struct runtime;
struct mlx5_backend;  // the ConnectX backend (host/gda/mlx5_devx.cpp)

struct gda_state {
  gio_gda_queue_v1* queues = nullptr;  // [sets][n_pes] descriptors, in GPU memory (kernels use these)
  std::vector<gio_gda_queue_v1> host_desc;  // the same static fields, for the NIC side
  uint32_t sets = 0;                   // the kernels' queue sets (descriptors in `queues`)
  uint32_t nic_sets = 0;               // sets in `mem` the NIC serves: the kernels', then the host's
  uint32_t slots = 0;
  uint32_t default_sets = 0;           // sets [0, default_sets) serve default contexts; the rest created ones
  uint32_t bounce_bytes = 0;           // per queue (GIO_GDA_BOUNCE_BYTES)
  uint8_t* mem = nullptr;              // NIC-visible block: rings, CQs, records, scratch; then the queues' bounce buffers and the host's
  size_t mem_bytes = 0;
  uint8_t* dev = nullptr;              // GPU block: descriptors + per-slot bookkeeping
  size_t dev_bytes = 0;
  std::string nic_heap_how;            // ConnectX: how the heap was registered (gio-info)
  std::string nic_flush_how;           // ConnectX: whether this GPU's flush page was registered, and how or why not
  std::string nic_why;                 // what drives the queues, and why (gio-info, per peer)
  uint32_t local_lkey = 0;             // this PE's heap, as its own WQEs name it
  uint32_t local_rkey = 0;             // this PE's heap, as peers' WQEs name it
  uint32_t scratch_lkey = 0;           // the queue block g.mem (scratch words, bounce buffers)
  std::vector<uint32_t> rkeys;         // each PE's heap key
  std::vector<uint64_t> remote_base;   // each PE's heap address in its own process
  uint32_t seg_rkey = 0;               // this PE's data segment (globals), as peers' WQEs name it
  std::vector<uint32_t> seg_rkeys;     // each PE's data segment key (its base: r.seg.peer_base)
  mlx5_backend* mlx5 = nullptr;        // a ConnectX drives the queues; nullptr: the softnic does
  // The host's queue set (host/gda/gda_host.h): host_desc[sets * n_pes + pe].
  uint8_t* host_bounce = nullptr;      // in `mem`: staging for host buffers outside the heap
  size_t host_bounce_bytes = 0;
  uint64_t* host_db = nullptr;         // ConnectX: the doorbell as the CPU maps it; nullptr: the queue's
  fifo_mutex host_lock;                // one host thread posts and waits at a time, in arrival order
  // softnic
  std::atomic<bool> stop{false};
  std::thread nic;
};

// Collective, on every PE once any PE chose gda for some peer (host/transport/select.cpp).
void gda_connect(runtime& r);
void gda_disconnect(runtime& r);
// The softnic's thread body (host/gda/softnic.cpp).
void softnic_run(runtime& r, gda_state& g);
// Number of ConnectX devices usable for gda here (0 when rdma-core is absent or finds none).
int mlx5_device_count(std::string* why);

// The ConnectX (mlx5 DEVX) backend: the NIC drives the very queues laid out for the softnic.
// mlx5_open opens the first ConnectX, registers the heap and the queue block (g.mem), creates one
// CQ and one RC QP (in RESET) per queue and sets g's local_lkey, local_rkey and scratch_lkey; on
// any failure it returns nullptr and the reason. Untested on hardware (see README).
mlx5_backend* mlx5_open(runtime& r, gda_state& g, std::string* why);
uint32_t mlx5_qpn(const mlx5_backend* b, size_t queue);  // queue = set * n_pes + pe (nic_sets sets)
void* mlx5_host_doorbell(const mlx5_backend* b);         // the UAR doorbell as the CPU maps it
// Once the descriptors are built: points each at the doorbell, exchanges addresses with the peers
// and brings every QP to RTS. Collective; a failure is fatal (every PE has chosen the ConnectX).
void mlx5_connect_queues(runtime& r, gda_state& g, mlx5_backend* b);
void mlx5_close(mlx5_backend* b);  // destroys in reverse order; nullptr is a no-op

}  // namespace gio
