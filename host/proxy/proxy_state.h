// proxy transport, host half: the command rings the kernels (and the host API) post into, the
// proxy thread that drains them, and the libfabric endpoint it drives (fabric.h).
//
// Rings: sets [0, sets) are the kernels' (descriptors in GPU memory, as gda's queues), set `sets`
// is the host API's. Commands, results and completion counters of every ring live in one
// host-visible block; each ring's bounce buffer follows in the same block.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/fifo_mutex.h"
#include "runtime/proxy_queue.h"

namespace gio {
struct runtime;

namespace proxy {
class fabric;
}

struct proxy_state {
  proxy_state();
  ~proxy_state();  // where fabric is complete (proxy_connect.cpp)
  std::unique_ptr<proxy::fabric> fab;
  std::string provider, why;             // the libfabric provider in use, and why it was chosen
  gio_proxy_ring_v1* rings = nullptr;    // [sets] descriptors in GPU memory (kernels use these)
  std::vector<gio_proxy_ring_v1> host_desc;  // [sets + 1]: the same fields as the CPU addresses them
  uint32_t sets = 0, default_sets = 0, slots = 0, bounce_bytes = 0;
  uint8_t* mem = nullptr;                // host-visible block
  size_t mem_bytes = 0;
  uint8_t* dev = nullptr;                // GPU block: descriptors and per-slot holds
  size_t dev_bytes = 0;
  bool heap_direct = false;              // puts and gets reach heaps in place (fi_write/fi_read: host memory)
  size_t chunk = 0;                      // staged transfers: payload bytes per message
  unsigned depth = 0;                    // staged transfers: messages of one command in flight
  size_t msg_bytes = 0;                  // a message's header and at most `chunk` payload bytes
  // Message buffers, pinned host memory (copies to and from GPU memory run on copy engines while
  // the proxy goes on): depth + 1 staging slots for this proxy's requests (a header, then inline
  // or staged data: one chunk is copied in while `depth` are on their way), one for its replies to
  // peers, then the posted receives.
  uint8_t* bufs = nullptr;
  unsigned stage_slots() const { return depth + 1; }
  uint8_t* stage(unsigned i) const { return bufs + (size_t)i * msg_bytes; }
  uint8_t* reply() const { return stage(stage_slots()); }
  uint8_t* receives() const { return stage(stage_slots() + 1); }
  // Staged puts within a node over shm (proxy_inbox.cpp): every PE's inbox holds `depth` chunks
  // from each peer, [source PE][slot]; a source's device-to-host copy writes the target's inbox
  // directly, and the target's proxy copies from there into its heap. No CPU copies the data.
  uint8_t* inbox = nullptr;                 // this PE's, n_pes * depth * chunk bytes
  size_t inbox_bytes = 0;
  std::vector<uint8_t*> peer_inbox;         // [pe]: this PE's slots in pe's inbox; empty: not used
  std::vector<uint8_t*> peer_inbox_maps;    // [pe]: pe's whole inbox as mapped here (pe != this PE)
  uint8_t* inbox_slot(int src, unsigned slot) const { return inbox + ((size_t)src * depth + slot) * chunk; }
  fifo_mutex host_lock;                  // one host thread posts on the host ring at a time, in arrival order
  // What the proxy thread is on, for the host waits' timeout reports (proxy_host.cpp): from the
  // completion counters alone a proxy that stopped and one that moves slowly (each staged chunk's
  // copy waiting for a GPU time slice) look the same. Written by the proxy thread only.
  struct activity {
    std::atomic<uint32_t> ring{kIdle};         // the command's ring; kIdle between commands
    std::atomic<uint64_t> idx{0};              // its index in that ring
    std::atomic<uint32_t> op{0};               // gio_proxy_op
    std::atomic<int32_t> pe{0};
    std::atomic<uint64_t> bytes{0};
    std::atomic<uint64_t> chunks{0}, acked{0}; // a staged put's or get's messages, and the replies come
    std::atomic<int64_t> last_ns{0};           // steady_clock: when the thread last moved anything
    static constexpr uint32_t kIdle = ~0u;
  } now;
  std::atomic<bool> stop{false};
  std::thread thread;
};

// What the proxy transport uses here, or would use if chosen (gio-info): whether this libgio has it
// at all, the libfabric provider and why, and whether puts and gets reach the heaps in place
// (fi_write/fi_read) or are staged through the proxies, and why.
struct proxy_plan {
  bool built = false;           // libgio was built with libfabric
  bool active = false;          // some peer uses the proxy (then provider is the one opened)
  std::string provider, provider_why;
  bool heap_direct = false;
  std::string staging_why;
  bool inbox = false;           // staged puts go through shared-memory inboxes (proxy_inbox.cpp)
};
proxy_plan proxy_describe(const runtime& r);

// Sets up the proxy on every PE once host/transport/select.cpp chose it for some peer of some PE;
// collective. proxy_disconnect stops the thread and frees the rings.
void proxy_connect(runtime& r);
void proxy_disconnect(runtime& r);
// The shm inboxes, when staged puts within a node use them (collective, after the endpoints are
// connected); inbox_close unmaps them.
void inbox_open(runtime& r, proxy_state& p);
void inbox_close(runtime& r, proxy_state& p);
// The proxy thread (proxy_run.cpp).
void proxy_run(runtime& r, proxy_state& p);

// The proxy thread's activity (proxy_state::now) in words, for a timeout report: the command it is
// on, how many of a staged transfer's chunks are acknowledged, and how long ago it last moved.
std::string proxy_activity(const proxy_state& p);

// Host-initiated operations over the host ring: each returns once complete (a put's bytes are in
// the target's heap). `off` is the symmetric address's heap offset, checked by the caller.
void proxy_host_put(runtime& r, const char* routine, uint64_t off, const void* src, size_t n, int pe);
void proxy_host_get(runtime& r, const char* routine, void* dst, uint64_t off, size_t n, int pe);
uint64_t proxy_host_amo(runtime& r, const char* routine, int op, uint64_t off, uint64_t value, uint64_t compare,
                        size_t size, int pe);
// Waits until every command posted on any ring before the call has completed (host shmem_quiet,
// shmem_barrier_all, shmem_finalize); a no-op without the proxy.
void proxy_drain(runtime& r, const char* routine);

}  // namespace gio
