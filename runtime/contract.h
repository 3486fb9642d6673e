// The host/device contract, version 1: what shmem_init writes and every kernel reads.
//
// Byte-exact and versioned: host (libgio) and device (headers compiled into the user's modules) may
// come from different builds, so each struct carries its version and its layout is pinned by the
// static_asserts at the bottom. Change a layout => bump GIO_CONTRACT_MAJOR.
#pragma once
#include "runtime/defs.h"

#define GIO_STATE_MAGIC 0x47494f31u  // "GIO1": written last by shmem_init, cleared by finalize
#define GIO_CTX_MAGIC 0x47435831u    // "GCX1"

// How a put reaches a peer. The same names are used for folders under host/ and device/.
enum gio_transport_id {
  GIO_TRANSPORT_NONE = 0,  // peer not reachable
  GIO_TRANSPORT_P2P = 1,   // loads/stores into the peer's IPC-mapped heap
  GIO_TRANSPORT_GDA = 2,   // per-work-group NIC queues (runtime/gda_queue.h)
  GIO_TRANSPORT_PROXY = 3, // a CPU proxy thread drives libfabric (runtime/proxy_queue.h)
};

// Layout of the reserved head of every PE's symmetric heap. Same offsets on every PE, so the
// runtime's own flags are symmetric addresses like user data. shmem_malloc never hands these out.
#define GIO_HEAP_RSVD_BARRIER_FLAGS 0u    // uint64_t[64]: dissemination-barrier round flags (remote-written)
#define GIO_HEAP_RSVD_BARRIER_EPOCH 512u  // uint64_t: this PE's barrier count (local only)
#define GIO_HEAP_RSVD_CTX_TABLE 4096u     // gio_ctx_v1[GIO_MAX_CTX] (local only)
#define GIO_MAX_CTX 512u
#define GIO_HEAP_RESERVED (64u * 1024u)   // first user block starts here

// One communication context. Work-groups claim one with shmemx_wg_ctx_create; the transport keeps
// its per-context queues keyed by `index` (p2p keeps none: its ordering is per PE, not per context).
struct gio_gda_queue_v1;

struct gio_ctx_v1 {
  uint32_t magic;    // GIO_CTX_MAGIC
  uint32_t index;    // position in the table; 0 is SHMEM_CTX_DEFAULT's slot
  uint32_t in_use;   // 1 while claimed (0 = free); claimed with an atomic CAS
  uint32_t options;  // SHMEM_CTX_* option bits given at creation
  uint64_t owner;    // work-group id + 1 of the claimer (diagnostics)
  // gda: bit p set by shmem_ctx_fence, taken by this context's next WQE to PE p, which then
  // carries a fence mode (so another context's WQE cannot consume it). The default context keeps
  // the same bits per work-group, in shared memory (device/gda/gda_post.h).
  uint32_t fence_pending[GIO_MAX_PES / 32];
  // The team slot (runtime/team.h) whose PE numbers the context's operations take: a context the
  // host made with shmem_team_create_ctx(team, SHMEM_DEVICE_CTX, ...) numbers PEs in its team;
  // every other device context in SHMEM_TEAM_WORLD (slot 0). (3.1)
  int32_t team;
  uint32_t rsvd;
};

// Per-PE state every kernel reads (placed in each module's constant bank by shmem_init).
struct gio_device_state_v1 {
  uint32_t magic;          // GIO_STATE_MAGIC once valid
  uint16_t version_major;  // GIO_CONTRACT_MAJOR of the library that wrote it
  uint16_t version_minor;
  int32_t my_pe;
  int32_t n_pes;
  uint64_t heap_size;      // bytes, reserved head included
  uint64_t timeout_ns;     // GIO_TIMEOUT_MS in ns; 0 = wait forever
  uint8_t* heap_base;      // this PE's heap (device address)
  gio_ctx_v1* ctx_table;   // = heap_base + GIO_HEAP_RSVD_CTX_TABLE
  uint32_t num_ctx;        // usable contexts (GIO_NUM_CONTEXTS)
  uint32_t debug;          // GIO_DEBUG level
  struct gio_gda_queue_v1* gda_queues;  // gda: [gda_sets][n_pes] queue pairs (nullptr without gda)
  uint32_t gda_sets;       // queue sets: [0, gda_default_sets) default contexts, then one per created context
  uint32_t p2p_bulk_min;   // p2p: thread copies from this size use the bulk-copy engine; 0 = never (minor 1)
  // Each PE's heap as mapped here; nullptr if not load/store reachable. A mapping is congruent to
  // heap_base modulo GIO_P2P_MAP_ALIGN (defs.h), so a symmetric address's alignment is its mapping's.
  uint8_t* peer_base[GIO_MAX_PES];
  uint8_t peer_transport[GIO_MAX_PES];   // gio_transport_id per PE
  // gda: work-group w's default context uses set w % gda_default_sets; created context i (ctx
  // table index i >= 1) uses set gda_default_sets + i - 1, its own, so its quiet waits only for
  // its own operations. (2.0)
  uint32_t gda_default_sets;
  // Slots [num_ctx, ctx_end) of ctx_table are the device contexts the host hands out
  // (shmem_ctx_create / shmem_team_create_ctx with SHMEM_DEVICE_CTX); kernels claim only
  // [1, num_ctx). 0 (before 3.1): none. (3.1)
  uint32_t ctx_end;
  // proxy: [proxy_sets] command rings (nullptr without proxy), mapped to contexts as gda's sets
  // are: default contexts over [0, proxy_default_sets), created context i on set
  // proxy_default_sets + i - 1. (2.1)
  struct gio_proxy_ring_v1* proxy_rings;
  uint32_t proxy_sets;
  uint32_t proxy_default_sets;
  // The default heap (shmem_malloc: host memory; nullptr and 0 with GIO_DEFAULT_HEAP=gpu). Kernels
  // reach it by loads and stores; device routines take GPU-heap operands only, and a failed check
  // of one names this range when the address lies in it. (3.1)
  uint8_t* cpu_heap_base;
  uint64_t cpu_heap_size;
};

#ifdef __cplusplus
static_assert(sizeof(void*) == 8, "GIO needs a 64-bit address space");
static_assert(sizeof(gio_ctx_v1) == 64, "gio_ctx_v1 layout");
static_assert(offsetof(gio_ctx_v1, in_use) == 8, "gio_ctx_v1 layout");
// The magic and the version fields stay where they are in every major: a module checks them
// before it trusts anything else.
static_assert(offsetof(gio_device_state_v1, magic) == 0, "state layout");
static_assert(offsetof(gio_device_state_v1, version_major) == 4, "state layout");
static_assert(offsetof(gio_device_state_v1, version_minor) == 6, "state layout");
static_assert(offsetof(gio_device_state_v1, my_pe) == 8, "state layout");
static_assert(offsetof(gio_device_state_v1, heap_size) == 16, "state layout");
static_assert(offsetof(gio_device_state_v1, heap_base) == 32, "state layout");
static_assert(offsetof(gio_device_state_v1, num_ctx) == 48, "state layout");
static_assert(offsetof(gio_device_state_v1, gda_queues) == 56, "state layout");
static_assert(offsetof(gio_device_state_v1, peer_base) == 72, "state layout");
static_assert(offsetof(gio_device_state_v1, peer_transport) == 72 + 8 * GIO_MAX_PES, "state layout");
static_assert(offsetof(gio_device_state_v1, gda_default_sets) == 72 + 9 * GIO_MAX_PES, "state layout");
static_assert(offsetof(gio_device_state_v1, proxy_rings) == 80 + 9 * GIO_MAX_PES, "state layout");
static_assert(offsetof(gio_device_state_v1, cpu_heap_base) == 96 + 9 * GIO_MAX_PES, "state layout");
static_assert(sizeof(gio_device_state_v1) == 112 + 9 * GIO_MAX_PES, "state layout");
static_assert(offsetof(gio_ctx_v1, fence_pending) == 24, "gio_ctx_v1 layout");
static_assert(offsetof(gio_ctx_v1, team) == 56, "gio_ctx_v1 layout");
static_assert(GIO_MAX_PES % 32 == 0, "fence_pending: one bit per PE");
static_assert(GIO_HEAP_RSVD_CTX_TABLE + GIO_MAX_CTX * sizeof(gio_ctx_v1) <= GIO_HEAP_RESERVED, "reserved heap");
static_assert(GIO_HEAP_RESERVED % GIO_HEAP_MIN_ALIGN == 0, "reserved heap alignment");
#endif
