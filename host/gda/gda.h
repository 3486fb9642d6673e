// gda transport, host half: lays out every queue set's QPs, prebuilds WQE templates, exchanges
// keys with the peers, and starts the NIC that drives them (the softnic unless a ConnectX is used).
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime/gda.h"

namespace gio {
struct runtime;

struct gda_state {
  gio_gda_queue_v1* queues = nullptr;  // [sets][n_pes] descriptors, in GPU memory (kernels use these)
  std::vector<gio_gda_queue_v1> host_desc;  // the same static fields, for the NIC side
  uint32_t sets = 0;
  uint32_t slots = 0;
  uint8_t* mem = nullptr;              // NIC-visible block: rings, CQs, records, scratch
  size_t mem_bytes = 0;
  uint8_t* dev = nullptr;              // GPU block: descriptors + per-slot bookkeeping
  size_t dev_bytes = 0;
  uint32_t local_lkey = 0;
  std::vector<uint32_t> rkeys;         // each PE's heap key
  std::vector<uint64_t> remote_base;   // each PE's heap address in its own process
  // softnic
  std::atomic<bool> stop{false};
  std::thread nic;
};

void gda_connect(runtime& r);
void gda_disconnect(runtime& r);
// The softnic's thread body (host/gda/softnic.cpp).
void softnic_run(runtime& r, gda_state& g);
// Number of ConnectX devices usable for gda here (0 when rdma-core is absent or finds none).
int mlx5_device_count(std::string* why);

}  // namespace gio
