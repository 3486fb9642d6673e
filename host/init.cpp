// shmem_init / shmem_finalize and the environment queries.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>

#include "runtime/api/c/shmem_c.h"
#include "runtime/api/shmemx_host.h"
#include "runtime/api/shmemg_host.h"
#include "runtime/host_entry.h"
#include "gio_config.h"
#if defined(GIO_PLATFORM_HOST)
#include "runtime/emu_api.h"  // emu_settings
#endif

#include "host/bootstrap/bootstrap.h"
#include "host/coll/coll.h"
#include "host/fault_guard.h"
#include "host/log.h"
#include "host/runtime.h"
#include "host/transport/select.h"
#include "host/transport/transport.h"

#if defined(GIO_PLATFORM_HOST)
extern "C" {
gio_device_state_v1 gio_host_dstate = {};
}
#endif

namespace gio {
namespace {

// Kernel modules that registered (see runtime/module_abi.h and device/core/state.h): the contract each was compiled against,
// where it lives (for the message that refuses it), and its copy of the device state (may be null).
struct module_entry {
  unsigned major, minor;
  const void* where;
  int (*copy)(const gio_device_state_v1*);
};
// Function-local so registration from static initializers never sees an unconstructed vector.
std::vector<module_entry>& modules() {
  static std::vector<module_entry> m;
  return m;
}
std::mutex& modules_lock() {
  static std::mutex m;
  return m;
}

void push_state(int (*copy)(const gio_device_state_v1*), const gio_device_state_v1& s) {
  if (copy && copy(&s) != 0)
    fatal(GIO_ERR_PLATFORM, "shmem_init", "copying the device state into a kernel module failed");
}

// Same major, and no newer minor than libgio's: a newer module may read fields this libgio never
// fills. Fatal otherwise, naming both versions and the module's file.
void check_contract(const module_entry& m, const char* routine) {
  if (m.major == GIO_CONTRACT_MAJOR && m.minor <= GIO_CONTRACT_MINOR) return;
  Dl_info dl{};
  std::string file;
  if (m.where && dladdr(m.where, &dl) && dl.dli_fname && *dl.dli_fname) file = std::string(" (in ") + dl.dli_fname + ")";
  fatal(GIO_ERR_INIT, routine, "kernel module built against contract %u.%u, libgio provides %u.%u%s: rebuild it with this libgio's headers",
        m.major, m.minor, (unsigned)GIO_CONTRACT_MAJOR, (unsigned)GIO_CONTRACT_MINOR, file.c_str());
}

void register_module(const module_entry& m) {
  std::lock_guard<std::mutex> g(modules_lock());
  // Before init the check waits for shmem_init, which knows the PE and is where a program that never
  // initializes GIO is not stopped by a module it does not use.
  if (rt().initialized) check_contract(m, "gio_register_module");
  modules().push_back(m);
  if (rt().initialized) push_state(m.copy, rt().dstate);
}

// A job-unique tag for names other PEs must find (host-platform heap files).
std::string job_tag() {
  uint64_t tag = 0;
  if (boot::rank() == 0) tag = ((uint64_t)getpid() << 32) ^ std::random_device{}();
  boot::bcast(&tag, sizeof tag, 0, "shmem_init (job tag)");
  char buf[32];
  snprintf(buf, sizeof buf, "%016llx", (unsigned long long)tag);
  return buf;
}

// The GPU heap's size: SHMEM_DEVICE_SYMMETRIC_SIZE (the GPU draft's name), else GIO_SYMMETRIC_SIZE
// (GIO's older one), else the platform's default.
uint64_t gpu_heap_size(const config& c) {
  if (c.SHMEM_DEVICE_SYMMETRIC_SIZE && c.GIO_SYMMETRIC_SIZE && c.SHMEM_DEVICE_SYMMETRIC_SIZE != c.GIO_SYMMETRIC_SIZE)
    info(1, "SHMEM_DEVICE_SYMMETRIC_SIZE=%llu and GIO_SYMMETRIC_SIZE=%llu are both set: the GPU heap takes "
         "SHMEM_DEVICE_SYMMETRIC_SIZE", (unsigned long long)c.SHMEM_DEVICE_SYMMETRIC_SIZE,
         (unsigned long long)c.GIO_SYMMETRIC_SIZE);
  if (c.SHMEM_DEVICE_SYMMETRIC_SIZE) return c.SHMEM_DEVICE_SYMMETRIC_SIZE;
  return c.GIO_SYMMETRIC_SIZE ? c.GIO_SYMMETRIC_SIZE : gpu::default_heap_size();
}

void create_heap(runtime& r) {
  r.heap_size = gpu_heap_size(r.cfg);
  // Round to the allocator's unit; the reserved head must fit.
  r.heap_size = (r.heap_size + GIO_HEAP_MIN_ALIGN - 1) / GIO_HEAP_MIN_ALIGN * GIO_HEAP_MIN_ALIGN;
  // The reserved head, the teams' table and collective areas, and 64 KiB for the user.
  const uint64_t min_size = GIO_HEAP_TEAM_COLL + (uint64_t)GIO_MAX_TEAMS * GIO_TEAM_COLL_BYTES + GIO_HEAP_RESERVED;
  if (r.heap_size < min_size)
    fatal(GIO_ERR_ARG, "shmem_init", "the GPU heap's size (SHMEM_DEVICE_SYMMETRIC_SIZE or GIO_SYMMETRIC_SIZE) %llu is "
          "too small (minimum %llu bytes)", (unsigned long long)r.heap_size, (unsigned long long)min_size);
  uint64_t lo, hi;
  boot::minmax_u64(r.heap_size, &lo, &hi, "shmem_init (heap size)");
  if (lo != hi)
    fatal(GIO_ERR_COLLECTIVE, "shmem_init", "GPU heap size %llu differs between PEs (from %llu to %llu): set the same SHMEM_DEVICE_SYMMETRIC_SIZE (or GIO_SYMMETRIC_SIZE) everywhere",
          (unsigned long long)r.heap_size, (unsigned long long)lo, (unsigned long long)hi);
  std::string tag = job_tag();
  r.heap = (uint8_t*)gpu::heap_create(r.heap_size, tag, r.my_pe, &r.handle);
  r.alloc.reset(new heap_allocator(GIO_HEAP_RESERVED, r.heap_size, GIO_HEAP_MIN_ALIGN));
}

// Contexts live in the reserved head of the local heap so kernels can claim them with atomics.
void init_contexts(runtime& r) {
  if (ctx_end(r) > GIO_MAX_CTX)
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_NUM_CONTEXTS=%llu and SHMEM_DEVICE_MAX_CTX=%llu make %u device contexts with "
          "the default; GIO has %u (lower either)", (unsigned long long)r.cfg.GIO_NUM_CONTEXTS,
          (unsigned long long)r.cfg.SHMEM_DEVICE_MAX_CTX, ctx_end(r), GIO_MAX_CTX);
  std::vector<gio_ctx_v1> table(GIO_MAX_CTX);
  for (uint32_t i = 0; i < GIO_MAX_CTX; ++i) {
    table[i] = gio_ctx_v1{};
    table[i].magic = i < ctx_end(r) ? GIO_CTX_MAGIC : 0;
    table[i].index = i;
    table[i].in_use = i == 0 ? 1 : 0;
  }
  gpu::copy(r.heap + GIO_HEAP_RSVD_CTX_TABLE, table.data(), table.size() * sizeof(gio_ctx_v1), "shmem_init");
  r.host_ctx.clear();
  r.host_ctx.reserve(r.cfg.GIO_NUM_CONTEXTS + 1);  // never grows past this: contexts are pointers into it
  r.host_ctx.push_back(gio_ctx_v1{});
  r.host_ctx[0].magic = GIO_CTX_MAGIC;
  r.host_ctx[0].in_use = 1;
  r.dev_ctx_first = (uint32_t)r.cfg.GIO_NUM_CONTEXTS + 1;
  r.dev_ctx_team.assign(r.cfg.SHMEM_DEVICE_MAX_CTX, -1);
}

void fill_device_state(runtime& r) {
  gio_device_state_v1& s = r.dstate;
  s = gio_device_state_v1{};
  s.version_major = GIO_CONTRACT_MAJOR;
  s.version_minor = GIO_CONTRACT_MINOR;
  s.my_pe = r.my_pe;
  s.n_pes = r.n_pes;
  s.heap_size = r.heap_size;
  s.timeout_ns = r.cfg.GIO_TIMEOUT_MS * 1000000ull;
  s.heap_base = r.heap;
  s.ctx_table = (gio_ctx_v1*)(r.heap + GIO_HEAP_RSVD_CTX_TABLE);
  s.num_ctx = (uint32_t)r.cfg.GIO_NUM_CONTEXTS + 1;  // + slot 0 for the default
  s.ctx_end = ctx_end(r);
  s.debug = (uint32_t)r.cfg.GIO_DEBUG;
  s.p2p_bulk_min = (uint32_t)std::min<uint64_t>(r.cfg.GIO_P2P_BULK_MIN, UINT32_MAX);
  s.cpu_heap_base = r.cpu.base;
  s.cpu_heap_size = r.cpu.size;
  transport_each([&](const transport_ops& t) { t.publish(r, s); });
  for (int pe = 0; pe < r.n_pes; ++pe) {
    s.peer_base[pe] = r.peers[pe].base;
    s.peer_transport[pe] = (uint8_t)r.peers[pe].transport;
  }
  s.magic = GIO_STATE_MAGIC;
}
}  // namespace

void publish_device_state(runtime& r) {
#if defined(GIO_PLATFORM_HOST)
  gio_host_dstate = r.dstate;
#endif
  std::lock_guard<std::mutex> g(modules_lock());
  for (const module_entry& m : modules()) push_state(m.copy, r.dstate);
}

}  // namespace gio

using namespace gio;

extern "C" void gio_register_module_contract(unsigned major, unsigned minor, int (*copy)(const gio_device_state_v1*)) {
  register_module({major, minor, copy ? (const void*)copy : __builtin_return_address(0), copy});
}

extern "C" void gio_register_module(int (*copy)(const gio_device_state_v1*)) {
  register_module({1, 1, copy ? (const void*)copy : __builtin_return_address(0), copy});
}

extern "C" int shmem_init_thread(int requested, int* provided) {
  // The GPU draft ORs its support bits into `requested` next to the thread level.
  const int device_mask = SHMEM_DEVICE_HOST_INIT | SHMEM_DEVICE_KERNEL_INIT;
  const int level = requested & ~device_mask;
  if (level < SHMEM_THREAD_SINGLE || level > SHMEM_THREAD_MULTIPLE)
    fatal(GIO_ERR_ARG, "shmem_init_thread", "requested value %d is not a SHMEM_THREAD_* level, optionally OR-ed with "
          "SHMEM_DEVICE_HOST_INIT and SHMEM_DEVICE_KERNEL_INIT", requested);
  // OpenSHMEM 1.6: initialization nests. A later call while initialized only counts (each must be
  // matched by a shmem_finalize; the last of those finalizes), and provides the level and GPU
  // support of the first.
  if (rt().initialized) {
    ++rt().init_calls;
    if (provided) *provided = rt().thread_level | rt().device_bits;
    return 0;
  }
  // After the last shmem_finalize the library may initialize again (1.6). MPI cannot start twice in
  // one process, so the bootstrap stays up from the first initialization to the process's exit
  // (shmem_finalize leaves it to an exit handler) and a re-initialization reuses it: the same PEs,
  // thread level and bootstrap; everything else (heap, transports, teams, contexts, the globals'
  // sharing) is built anew.
  runtime& r = rt();
  const bool again = r.finalized;
  r.cfg = config_load();
  segment_remap(r);  // first: no thread of GIO or MPI may write the segment while it moves
  if (!again) {
    r.thread_level = boot::init(level, r.cfg);
    r.my_pe = boot::rank();
    r.n_pes = boot::size();
  }
  r.finalized = false;
  log_set_pe(r.my_pe, (int)r.cfg.GIO_DEBUG);
  {
    std::lock_guard<std::mutex> g(modules_lock());
    for (const module_entry& m : modules()) check_contract(m, "shmem_init");
  }
  if (r.n_pes > GIO_MAX_PES)
    fatal(GIO_ERR_ARG, "shmem_init", "%d PEs exceed GIO's limit of %d", r.n_pes, GIO_MAX_PES);
#if defined(GIO_PLATFORM_HOST)
  host::emu_settings().max_concurrent_wg = (unsigned)r.cfg.GIO_HOST_MAX_WG;
  host::emu_settings().fiber_stack_bytes = (size_t)r.cfg.GIO_HOST_FIBER_STACK;
  host::emu_settings().wave_lockstep = r.cfg.GIO_HOST_WAVE_LOCKSTEP;
#endif
  r.device = gpu::select_device(boot::local_rank());
  // Every platform provides both GPU supports: the GPU heap, GPU-aware host routines and kernels'
  // routines are there on cuda and hip, and on the host platform's emulated GPU. The draft leaves
  // PEs that ask differently undefined; GIO stops.
  r.device_bits = requested & device_mask;
  {
    uint64_t lo, hi;
    boot::minmax_u64((uint64_t)r.device_bits, &lo, &hi, "shmem_init_thread (GPU support)");
    if (lo != hi)
      fatal(GIO_ERR_COLLECTIVE, "shmem_init_thread", "PEs requested different GPU support (SHMEM_DEVICE_HOST_INIT | "
            "SHMEM_DEVICE_KERNEL_INIT bits): this PE 0x%x, others from 0x%llx to 0x%llx", r.device_bits,
            (unsigned long long)lo, (unsigned long long)hi);
  }
  create_heap(r);
  cpu_heap_create(r);
  coll_init(r);  // first: the team table takes the heap's first block
  init_contexts(r);
  segment_connect(r);  // before the transports: gda and the proxy register the segment too
  cpu_heap_connect(r);
  transports_connect(r);
  fill_device_state(r);
  coll_transports(r);
  r.initialized = true;
  r.init_calls = 1;
  publish_device_state(r);
  info(1, "%s platform, device %d: %s; GPU heap %llu bytes at %p; default heap %s; %d PEs; bootstrap %s (%s)",
       gpu::platform_name(), r.device, gpu::device_description(r.device).c_str(), (unsigned long long)r.heap_size,
       (void*)r.heap, r.cpu.base ? "in host memory" : "= the GPU heap (GIO_DEFAULT_HEAP=gpu)", r.n_pes, boot::name(),
       boot::why());
  fault_guard_install(r);
  boot::barrier("shmem_init");
  if (provided) *provided = r.thread_level | r.device_bits;
  return 0;
}

extern "C" void shmem_init(void) { shmem_init_thread(SHMEM_THREAD_SINGLE, nullptr); }

// start_pes, from OpenSHMEM 1.2 and earlier, which had no shmem_finalize: its programs end without
// one, so the library finalizes at exit (the exit check in boot, registered earlier by the
// initialization, runs after this handler and finds the PE finalized). Later calls have no effect.
namespace {
bool g_started_pes = false;
void finalize_started_pes_at_exit() {
  if (rt().initialized) shmem_finalize();
}
}  // namespace
extern "C" void gio_host_start_pes(void) {
  if (g_started_pes && rt().initialized) return;
  shmem_init();
  if (!g_started_pes) atexit(finalize_started_pes_at_exit);
  g_started_pes = true;
}

extern "C" void shmem_query_thread(int* provided) {
  *provided = rt_checked("shmem_query_thread").thread_level;
}

namespace {
// Only after a shmem_finalize: a program that exits initialized never finalized the bootstrap.
void finalize_bootstrap_at_exit() {
  if (rt().finalized && !rt().initialized) boot::finalize();
}
}  // namespace

extern "C" void shmem_query_initialized(int* initialized) {
  if (!initialized) fatal(GIO_ERR_ARG, "shmem_query_initialized", "initialized is NULL");
  *initialized = rt().initialized ? 1 : 0;
}

extern "C" void shmem_finalize(void) {
  if (!rt().initialized) return;
  runtime& r = rt();
  // Not the last of nested initializations: only what shmem_barrier_all does (1.6).
  if (r.init_calls > 1) {
    --r.init_calls;
    gio_host_barrier_all();
    return;
  }
  gpu::sync("shmem_finalize");
  // What this PE's kernels and host threads left with the NIC completes before the barrier, so no
  // PE tears down a heap that a peer's NIC is still writing.
  transports_drain(r, "shmem_finalize");
  boot::barrier("shmem_finalize");
  r.dstate.magic = 0;
  publish_device_state(r);
  transports_disconnect(r);
  segment_disconnect(r);
  cpu_heap_destroy(r);
  fault_guard_remove();
  gpu::heap_destroy(r.heap, r.heap_size);
  r.heap = nullptr;
  coll_fini(r);
  r.alloc.reset();
  r.initialized = false;
  r.init_calls = 0;
  r.finalized = true;
  // The bootstrap ends when the process does, so that shmem_init may initialize again.
  static bool hooked = false;
  if (!hooked) atexit(finalize_bootstrap_at_exit);
  hooked = true;
}

extern "C" void shmem_global_exit(int status) { boot::global_exit(status); }

extern "C" int gio_host_my_pe(void) { return rt_checked("shmem_my_pe").my_pe; }
extern "C" int gio_host_n_pes(void) { return rt_checked("shmem_n_pes").n_pes; }

extern "C" int shmem_pe_accessible(int pe) {
  runtime& r = rt_checked("shmem_pe_accessible");
  return pe >= 0 && pe < r.n_pes && r.peers[pe].transport != GIO_TRANSPORT_NONE;
}

// How this PE reaches `pe` ("p2p", "gda", "proxy"; "none" if unreachable or out of range), so tools
// and benchmarks can record what GIO_TRANSPORT=auto chose.
extern "C" const char* shmemx_transport_name(int pe) {
  runtime& r = rt_checked("shmemx_transport_name");
  if (pe < 0 || pe >= r.n_pes) return "none";
  return transport_of(r, pe).name;
}

extern "C" int shmem_addr_accessible(const void* addr, int pe) {
  runtime& r = rt_checked("shmem_addr_accessible");
  const uint8_t* a = (const uint8_t*)addr;
  uint64_t seg_off;
  if (!shmem_pe_accessible(pe)) return 0;
  // The default heap of a peer on another node is reached only over the proxy (heap_route.cpp).
  if (cpu_heap_offset(r, addr, 1, &seg_off)) return transport_reaches(r, seg_off, pe);
  return (a >= r.heap + GIO_HEAP_RESERVED && a < r.heap + r.heap_size) || segment_offset(r, addr, 1, &seg_off);
}

extern "C" void shmem_info_get_version(int* major, int* minor) {
  *major = SHMEM_MAJOR_VERSION;
  *minor = SHMEM_MINOR_VERSION;
}

extern "C" void shmem_info_get_name(char* name) {
  strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
  name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}
