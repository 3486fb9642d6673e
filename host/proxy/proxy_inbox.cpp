// Shared-memory inboxes for staged puts between the PEs of one node (proxy_state.h).
//
// Over libfabric shm a staged chunk was copied three times: device-to-host by the source's copy
// engine, then twice by CPUs inside shm (into its shared buffers and out again), then
// host-to-device by the target's copy engine. On one H100 the CPU copies ran at 9.4 GB/s while the
// copy engines ran beside them, half of what the copy engines move. An inbox is host memory that
// both proxies map and pin: the source's copy engine writes a chunk into its slot there, a
// 64-byte message tells the target's proxy, and the target's copy engine reads it into the heap.
// The message and its acknowledgement still travel over libfabric, in order with everything else.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "host/bootstrap/bootstrap.h"
#include "host/log.h"
#include "host/platform/gpu.h"
#include "host/proxy/proxy_state.h"
#include "host/proxy/shm_names.h"
#include "host/runtime.h"

namespace gio {
namespace {
// Inboxes are mapped by every PE of the node (their sizes add up in address space, not memory:
// only a PE's own slots in each are touched by it).
constexpr size_t kMaxInbox = 1ull << 30;

void* map_shared(int fd, size_t bytes) {
  void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return m == MAP_FAILED ? nullptr : m;
}
}  // namespace

void inbox_open(runtime& r, proxy_state& p) {
  const size_t bytes = (size_t)r.n_pes * p.depth * p.chunk;
  const bool want = p.provider == "shm" && !p.heap_direct && r.cfg.GIO_PROXY_SHM_INBOX && bytes <= kMaxInbox;
  uint64_t lo = 0, hi = 0;
  boot::minmax_u64(want ? 1 : 0, &lo, &hi, "shmem_init (proxy inboxes)");
  if (!lo) return;  // every PE or none: a source writes into the target's inbox only if it has one

  const std::string name = proxy::new_shm_name();
  const int fd = shm_open(("/" + name).c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) fatal(GIO_ERR_PLATFORM, "shmem_init", "proxy: shm_open of the staging inbox /dev/shm/%s: %s",
                    name.c_str(), strerror(errno));
  const int handle = proxy::remember_shm_name(name);
  // Reserved now: a full /dev/shm is an error here, not a SIGBUS at the first chunk.
  const int err = posix_fallocate(fd, 0, (off_t)bytes);
  if (err) fatal(GIO_ERR_NOMEM, "shmem_init", "proxy: cannot reserve %zu bytes for the staging inbox in /dev/shm: %s "
                 "(lower GIO_PROXY_CHUNK or GIO_PROXY_DEPTH, or set GIO_PROXY_SHM_INBOX=0)", bytes, strerror(err));
  p.inbox = (uint8_t*)map_shared(fd, bytes);
  close(fd);
  if (!p.inbox) fatal(GIO_ERR_PLATFORM, "shmem_init", "proxy: cannot map the staging inbox: %s", strerror(errno));
  p.inbox_bytes = bytes;

  struct name_msg {
    char s[64];
  } mine{};
  snprintf(mine.s, sizeof mine.s, "/%s", name.c_str());
  std::vector<name_msg> all(r.n_pes);
  boot::allgather(&mine, all.data(), sizeof mine, "shmem_init (proxy inbox names)");
  const size_t mine_at = (size_t)r.my_pe * p.depth * p.chunk, span = (size_t)p.depth * p.chunk;
  p.peer_inbox.assign(r.n_pes, nullptr);
  p.peer_inbox_maps.assign(r.n_pes, nullptr);
  for (int pe = 0; pe < r.n_pes; ++pe) {
    if (pe == r.my_pe) {
      p.peer_inbox[pe] = p.inbox + mine_at;
      continue;
    }
    const int pfd = shm_open(all[pe].s, O_RDWR, 0);
    if (pfd < 0) fatal(GIO_ERR_PLATFORM, "shmem_init", "proxy: cannot open PE %d's staging inbox %s: %s", pe, all[pe].s,
                       strerror(errno));
    p.peer_inbox_maps[pe] = (uint8_t*)map_shared(pfd, bytes);
    close(pfd);
    if (!p.peer_inbox_maps[pe])
      fatal(GIO_ERR_PLATFORM, "shmem_init", "proxy: cannot map PE %d's staging inbox: %s", pe, strerror(errno));
    p.peer_inbox[pe] = p.peer_inbox_maps[pe] + mine_at;
    // Only this PE's slots: the copy engine writes them.
    gpu::host_register(p.peer_inbox[pe], span, "shmem_init");
  }
  gpu::host_register(p.inbox, bytes, "shmem_init");  // the copy engine reads every peer's slots
  // Every PE has mapped every inbox: the names can go (shm_names.h).
  boot::barrier("shmem_init (proxy inboxes mapped)");
  proxy::release_shm_name(handle);
}

void inbox_close(runtime& r, proxy_state& p) {
  if (!p.inbox) return;
  for (int pe = 0; pe < r.n_pes; ++pe) {
    if (!p.peer_inbox_maps[pe]) continue;
    gpu::host_unregister(p.peer_inbox[pe]);
    munmap(p.peer_inbox_maps[pe], p.inbox_bytes);
  }
  gpu::host_unregister(p.inbox);
  munmap(p.inbox, p.inbox_bytes);
  p.inbox = nullptr;
  p.peer_inbox.clear();
  p.peer_inbox_maps.clear();
}

}  // namespace gio
