// gio-info: what GIO sees here — version, platform, device, the proxy transport's provider and
// staging, heap, transport per peer, settings.
// Runs as a 1-PE job, or under oshrun (giorun) to show every PE's view and transports (PE 0
// prints the settings).
#include <shmem.h>

#include <cstdio>

#include "host/bootstrap/bootstrap.h"
#include "host/driver/driver_probe.h"
#include "host/gda/gda_state.h"
#include "host/proxy/proxy_state.h"
#include "host/runtime.h"

namespace {

// The proxy transport: whether this libgio has it, whether any peer uses it, and the provider and
// staging it uses (or would use, with GIO_TRANSPORT=proxy or for peers on other nodes).
void print_proxy(const gio::runtime& r) {
  const gio::proxy_plan d = gio::proxy_describe(r);
  if (!d.built) {
    printf("proxy: not built (libgio was built without libfabric; install libfabric-dev and rebuild)\n");
    return;
  }
  int users = 0;
  for (const gio::peer& q : r.peers) users += q.transport == GIO_TRANSPORT_PROXY;
  if (d.active)
    printf("proxy: built with libfabric; this PE reaches %d of %d PEs through it\n", users, r.n_pes);
  else
    printf("proxy: built with libfabric; not in use here (chosen by GIO_TRANSPORT=proxy, or by auto for peers on "
           "other nodes that no ConnectX serves); it would use:\n");
  if (d.provider_why == "GIO_PROXY_PROVIDER")
    printf("proxy: libfabric provider %s: set by GIO_PROXY_PROVIDER\n", d.provider.c_str());
  else
    printf("proxy: libfabric provider %s: %s; GIO_PROXY_PROVIDER=<name> overrides\n", d.provider.c_str(),
           d.provider_why.c_str());
  if (d.heap_direct)
    printf("proxy: puts and gets in place, fi_write/fi_read: %s\n", d.staging_why.c_str());
  else
    printf("proxy: puts and gets staged, %llu bytes a message, up to %llu unacknowledged, that the target's "
           "proxy copies in: %s\n", (unsigned long long)r.cfg.GIO_PROXY_CHUNK, (unsigned long long)r.cfg.GIO_PROXY_DEPTH,
           d.staging_why.c_str());
  if (!d.heap_direct && d.provider == "shm")
    printf("proxy: staged puts %s\n", d.inbox ? "go through shared-memory inboxes: the source's copy engine writes the "
                                                "target's inbox, no CPU copies the data (GIO_PROXY_SHM_INBOX=0: as messages)"
                                              : "go as shm messages (GIO_PROXY_SHM_INBOX=0)");
}

}  // namespace

int main() {
  shmem_init();
  gio::runtime& r = gio::rt();
  char name[SHMEM_MAX_NAME_LEN];
  shmem_info_get_name(name);
  int major, minor;
  shmem_info_get_version(&major, &minor);
  for (int pe = 0; pe < r.n_pes; ++pe) {
    gio::boot::barrier("gio-info");
    if (pe != r.my_pe) continue;
    if (pe == 0) {
      printf("%s, OpenSHMEM %d.%d, contract v%d.%d\n", name, major, minor, GIO_CONTRACT_MAJOR, GIO_CONTRACT_MINOR);
      printf("platform: %s (%d device(s) visible)\n", gio::gpu::platform_name(), gio::gpu::device_count());
      printf("PEs: %d\n", r.n_pes);
      printf("bootstrap: %s: %s (GIO_BOOTSTRAP=auto|mpi|pmix)\n", gio::boot::name(), gio::boot::why());
      print_proxy(r);
      // The kernel side (driver-patches/): what the running drivers offer, asked, never assumed.
      fputs(gio::drv::describe(gio::drv::probe()).c_str(), stdout);
    }
    printf("PE %d: device %d: %s\n", pe, r.device, gio::gpu::device_description(r.device).c_str());
    printf("PE %d: symmetric heap %llu bytes (%llu reserved), %u work-group contexts\n", pe,
           (unsigned long long)r.heap_size, (unsigned long long)GIO_HEAP_RESERVED, (unsigned)r.cfg.GIO_NUM_CONTEXTS);
    // What shmem_malloc can hand out: the heap less what GIO took at init (its reserved head,
    // the teams' table and collective areas), measured on the allocator itself.
    printf("PE %d: a program can allocate %llu bytes of it (largest block %llu); GIO keeps %llu for its own "
           "tables; GIO_SYMMETRIC_SIZE sets the heap\n", pe, (unsigned long long)r.alloc->bytes_free(),
           (unsigned long long)r.alloc->largest_free(), (unsigned long long)(r.heap_size - r.alloc->bytes_free()));
    for (int q = 0; q < r.n_pes; ++q) printf("PE %d -> PE %d: %s\n", pe, q, r.peers[q].why.c_str());
    if (r.gda && !r.gda->nic_heap_how.empty())
      printf("PE %d: gda ConnectX: heap %s; flush page %s\n", pe, r.gda->nic_heap_how.c_str(), r.gda->nic_flush_how.c_str());
    fflush(stdout);
  }
  gio::boot::barrier("gio-info");
  if (r.n_pes == 1)
    printf("transports: a 1-PE job has no peer to reach; run it as a program runs, under oshrun (oshrun -n 2 "
           "gio-info), to see how each PE reaches the others and why\n");
  if (r.my_pe == 0) {
    printf("settings (environment, else default):\n");
    gio::config_print(r.cfg, stdout);
  }
  shmem_finalize();
  return 0;
}
