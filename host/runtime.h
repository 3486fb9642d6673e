// The host runtime's per-process state (one PE per process).
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "host/config.h"
#include "host/gda/gda_state.h"
#include "host/heap/allocator.h"
#include "host/heap/cpu_heap.h"
#include "host/heap/globals.h"
#include "host/proxy/proxy_state.h"
#include "host/platform/gpu.h"
#include "runtime/contract.h"

namespace gio {

struct coll_state;

struct peer {
  uint8_t* base = nullptr;    // its heap where kernels and the host API may load and store; nullptr if not
  uint8_t* mapped = nullptr;  // its heap as mapped in this process, also where `base` is withheld
                              // (GIO_NODE_PER_PE): the softnic, which plays the network, uses it
  int transport = GIO_TRANSPORT_NONE;  // set by host/transport/select.cpp alone
  std::string why;          // the transport, how it reaches the peer and why it was chosen (gio-info)
};

struct runtime {
  bool initialized = false;
  bool finalized = false;
  int init_calls = 0;  // shmem_init(_thread) calls not yet matched by a shmem_finalize (1.6 nesting)
  int thread_level = 0;
  int my_pe = 0, n_pes = 1;
  int device = 0;
  config cfg;
  int device_bits = 0;  // SHMEM_DEVICE_HOST_INIT | SHMEM_DEVICE_KERNEL_INIT provided by shmem_init_thread
  // The GPU heap (shmemg_malloc; shmem_malloc too with GIO_DEFAULT_HEAP=gpu): device memory on cuda
  // and hip, with the reserved head (contexts, teams, collectives, locks) kernels use.
  uint8_t* heap = nullptr;  // this PE's GPU heap (device address)
  uint64_t heap_size = 0;
  gpu::heap_handle handle{};
  std::vector<peer> peers;
  std::unique_ptr<heap_allocator> alloc;
  gio_device_state_v1 dstate{};
  std::recursive_mutex lock;  // serializes the heap's collective calls under SHMEM_THREAD_MULTIPLE
  std::vector<gio_ctx_v1> host_ctx;  // host-side contexts, slot 0 = SHMEM_CTX_DEFAULT
  std::mutex ctx_lock;               // guards host_ctx and dev_ctx_team (not `lock`: held across barriers)
  // Device contexts the host hands out (SHMEM_DEVICE_CTX): slots [dev_ctx_first, dev_ctx_first +
  // dev_ctx_team.size()) of the device context table, each entry the team slot of a live context
  // or -1 for a free one.
  uint32_t dev_ctx_first = 0;
  std::vector<int> dev_ctx_team;
  std::unique_ptr<gda_state> gda;    // gda queues and their NIC, when some peer uses gda
  std::unique_ptr<proxy_state> proxy;  // proxy rings and thread, when some peer uses the proxy
  std::shared_ptr<coll_state> coll;    // teams and their sync state (host/coll/coll.h)
  data_segment seg;                    // the program's globals, symmetric (host/heap/globals.h)
  cpu_heap cpu;                        // the default heap, CPU-attached (host/heap/cpu_heap.h)
};

runtime& rt();
// Fatal error unless shmem_init ran (and shmem_finalize did not).
runtime& rt_checked(const char* routine);

// Checks the host API's arguments like the device does; returns the symmetric address's offset: in
// the GPU heap, the default heap (GIO_SYM_CPU_HEAP set) or the data segment (GIO_SYM_SEGMENT set;
// host/heap/globals.h).
uint64_t host_sym_offset(runtime& r, const char* routine, const void* sym, size_t n, int pe);
void host_check_pe(runtime& r, const char* routine, int pe);
// "the default heap [a, b) and the GPU heap [c, d)" (user parts), or the one heap there is: for
// messages about an address outside them.
std::string symmetric_ranges(const runtime& r);
// A host context argument: nullptr (the default) or a live host context, else fatal.
void check_host_ctx(runtime& r, const char* routine, gio_ctx_v1* ctx);
// SHMEM_CTX_INVALID, what a failed shmem_team_create_ctx stores, may be quieted, fenced and
// destroyed with no effect: the spec's own shmem_team_create_ctx example does so on the PEs
// outside the team.
bool host_ctx_invalid(const gio_ctx_v1* ctx);
// Device contexts the host makes (host/ctx.cpp): shmem_ctx_create / shmem_team_create_ctx with
// SHMEM_DEVICE_CTX; `team` is the team slot whose PE numbers the kernels' operations take.
int dev_ctx_create(runtime& r, const char* routine, long options, int team, gio_ctx_v1** ctx);
void dev_ctx_destroy(runtime& r, const char* routine, int k);
// One past the last device context slot: slot 0 (the default), the kernels' GIO_NUM_CONTEXTS, then
// the host's SHMEM_DEVICE_MAX_CTX (shmem_init checks the sum against GIO_MAX_CTX).
inline uint32_t ctx_end(const runtime& r) {
  return (uint32_t)(1 + r.cfg.GIO_NUM_CONTEXTS + r.cfg.SHMEM_DEVICE_MAX_CTX);
}
// The host-made device context `ctx` is (its index in dev_ctx_team), or -1 if it is none.
int dev_ctx_slot(const runtime& r, const gio_ctx_v1* ctx);

// Whether p lies in this PE's GPU heap (the reserved head included).
inline bool in_gpu_heap(const runtime& r, const void* p) {
  return r.heap && (const uint8_t*)p >= r.heap && (const uint8_t*)p < r.heap + r.heap_size;
}

// Pushes the device state to every registered kernel module.
void publish_device_state(runtime& r);

}  // namespace gio
