// The proxy transport's wire: one libfabric RDM endpoint per PE with RMA and atomics,
// the operations a proxy thread issues for the kernels' commands, each waited for with a bound.
// Plain host C++ over libfabric; what drives it (rings, the proxy thread, selection) builds on it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gio {
namespace proxy {

// A provider or operation failed: what() names the operation, the peer where there is one, and
// libfabric's own text (fi_strerror, or the completion queue's error entry).
struct fabric_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// How a peer's registered region is addressed (exchanged through the bootstrap with the
// endpoint's name): its key, and its base address when the provider addresses remote memory by
// virtual address (FI_MR_VIRT_ADDR; otherwise remote addresses are offsets into the region).
struct remote_region {
  uint64_t key = 0;
  uint64_t base = 0;
};

enum class amo_kind { set, swap, fetch, add, fetch_add, band, fetch_band, bor, fetch_bor, bxor, fetch_bxor, cswap };

class fabric {
 public:
  // Opens `provider` ("shm", "tcp;ofi_rxm", ...; empty: the first that offers RDM RMA and
  // atomics), an endpoint, its completion queue and address vector. Every wait is bounded by
  // timeout_ms (0: forever).
  fabric(const std::string& provider, unsigned timeout_ms);
  ~fabric();
  fabric(const fabric&) = delete;
  fabric& operator=(const fabric&) = delete;

  const std::string& provider() const;
  // This endpoint's address, for the bootstrap's all-gather.
  std::vector<uint8_t> name() const;
  // Every PE's address, in PE order (this PE's own included); PE i is then peer i.
  void insert_peers(const std::vector<std::vector<uint8_t>>& names);

  // Registers [p, p + n) for local use and remote reads, writes and atomics; returns how peers
  // address it. One region at a time per fabric (the symmetric heap).
  remote_region register_region(void* p, size_t n);
  // Registers [p, p + n) for local use only (staging buffers, result words), where the provider
  // asks for local registration (FI_MR_LOCAL); a no-op otherwise. Any number of them.
  void register_local(void* p, size_t n);
  // Whether local buffers must lie in a registered region (FI_MR_LOCAL).
  bool needs_local_registration() const;
  // Who may write a registered region: the keys' origin (the provider's, FI_MR_PROV_KEY, or drawn
  // at random here) and the size of the authorization key the domain was opened with (0: the
  // provider has none, as shm and tcp; cxi's is the service a launcher grants the job).
  bool provider_keys() const;
  size_t auth_key_bytes() const;
  // Peer pe's region, from its register_region result.
  void set_peer_region(int pe, const remote_region& r);

  // Blocking operations on peer pe's region at byte offset `off` (delivery complete: a write has
  // landed in the target's memory when it returns). Local buffers must lie in the registered
  // region when the provider asks for local registration (FI_MR_LOCAL).
  void write(int pe, uint64_t off, const void* src, size_t n);
  void read(int pe, uint64_t off, void* dst, size_t n);
  // A 4- or 8-byte unsigned atomic; returns the old value (0 for the non-fetching kinds).
  uint64_t atomic(int pe, uint64_t off, amo_kind op, size_t bytes, uint64_t operand, uint64_t compare = 0);

  // Messages (the proxy's requests and replies to peers' proxies): `depth` receive buffers of
  // max_bytes each stay posted. send returns once the buffer may be reused; take_message drives
  // progress and hands the oldest message that arrived to fn (false: none came), then reposts its
  // buffer, unless fn returns false: it keeps the buffer (an asynchronous copy out of it is under
  // way) and hands it back with repost once done.
  void enable_messages(uint8_t* mem, size_t max_bytes, unsigned depth);  // mem: depth * max_bytes, the caller's
  void send(int pe, const void* buf, size_t n);
  bool take_message(const std::function<bool(const uint8_t*, size_t)>& fn);
  void repost(const uint8_t* buf);

  // shm: removes this endpoint's region from /dev/shm once every peer has mapped it (after
  // insert_peers on every PE), so nothing is left there however the process ends; the mappings
  // stay. A no-op for other providers.
  void release_name();

  // Drives progress for providers that need the target to poll (manual progress): a proxy
  // thread calls it while idle.
  void progress();

 private:
  struct impl;
  std::unique_ptr<impl> d_;
};


}  // namespace proxy
}  // namespace gio
