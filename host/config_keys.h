// Every GIO configuration key, in one table: its type, default, allowed values or range, and help.
// host/config.cpp parses and checks the environment from it and prints it for gio-info; nothing
// else in host/ reads the environment.
//
// X(name, type, default, flags, choices, min, max, help)
//   type     SIZE (bytes; K/M/G/T suffixes), COUNT (a whole number; suffixes accepted too), BOOL
//            (1/0, true/false, yes/no, on/off), ENUM (one of `choices`, "a|b|c"), STR (free text)
//   flags    GIO_CFG_AUTO: "auto" is accepted and read as 0 (the user of the key resolves it);
//            GIO_CFG_POW2: a power of two; GIO_CFG_ZERO: 0 is accepted besides [min, max]
//   min, max the accepted range of SIZE and COUNT values (GIO_CFG_NO_MAX: no upper bound)
#pragma once

#include "runtime/contract.h"
#include "runtime/team.h"

#define GIO_CFG_AUTO 1u
#define GIO_CFG_POW2 2u
#define GIO_CFG_ZERO 4u
#define GIO_CFG_NO_MAX (~0ull)
// The smallest heap that holds the reserved head, the teams' table and their collective areas,
// and 64 KiB for the user (host/init.cpp lays them out).
#define GIO_CFG_HEAP_MIN \
  ((unsigned long long)GIO_HEAP_TEAM_COLL + (unsigned long long)GIO_MAX_TEAMS * GIO_TEAM_COLL_BYTES + GIO_HEAP_RESERVED)

// The smallest default heap: it has no reserved head, only user blocks.
#define GIO_CFG_CPU_HEAP_MIN (64ull * 1024)

#define GIO_CONFIG_KEYS(X)                                                                         \
  /* The two symmetric heaps (docs/heaps.md). SHMEM_* are the names OpenSHMEM 1.6 and the GPU  */  \
  /* Auxiliary Specification draft define; GIO_SYMMETRIC_SIZE is the GPU heap's older name.     */  \
  X(SHMEM_SYMMETRIC_SIZE, SIZE, "auto", GIO_CFG_AUTO, "", GIO_CFG_CPU_HEAP_MIN, GIO_CFG_NO_MAX,     \
    "default heap (shmem_malloc: CPU-attached, a shared-memory file) bytes per PE (K/M/G/T "        \
    "suffixes, decimals allowed: 1.5G); auto = 256M on GPUs, 64M on the host platform")           \
  X(SHMEM_DEVICE_SYMMETRIC_SIZE, SIZE, "auto", GIO_CFG_AUTO, "", GIO_CFG_HEAP_MIN, GIO_CFG_NO_MAX,  \
    "GPU heap (shmemg_malloc: the GPU's memory) bytes per PE; wins over GIO_SYMMETRIC_SIZE when "  \
    "both are set; auto = GIO_SYMMETRIC_SIZE if set, else 1G on GPUs, 64M on the host platform")  \
  X(GIO_SYMMETRIC_SIZE, SIZE, "auto", GIO_CFG_AUTO, "", GIO_CFG_HEAP_MIN, GIO_CFG_NO_MAX,             \
    "the GPU heap's size, as SHMEM_DEVICE_SYMMETRIC_SIZE (which wins when both are set)")         \
  X(GIO_DEFAULT_HEAP, ENUM, "cpu", 0, "cpu|gpu", 0, 0,                                              \
    "where shmem_malloc/calloc/align/realloc/malloc_with_hints allocate: cpu = the default heap, "  \
    "CPU-attached, as OpenSHMEM programs expect | gpu = the GPU heap, for programs whose kernels "     \
    "work on shmem_malloc blocks (no default heap is made; SHMEM_SYMMETRIC_SIZE is unused)")                                   \
  /* The bound in ns (ms x 1e6) must fit the device state's 64-bit timeout_ns: at most a year. */   \
  X(GIO_TIMEOUT_MS, COUNT, "60000", 0, "", 0, 31536000000ull,                                       \
    "bound on every wait, host and device (ms); 0 = wait forever")                                  \
  X(GIO_TRANSPORT, ENUM, "auto", 0, "auto|p2p|gda|proxy",  0, 0,                                    \
    "force a transport to every peer: auto (p2p within a node; other nodes: gda with a ConnectX on "  \
    "every PE, else proxy) | p2p | gda | proxy")                                                    \
  X(GIO_GDA_SQ_SLOTS, COUNT, "256", GIO_CFG_POW2, "", 16, 32768, "gda: WQEs per send queue")        \
  X(GIO_GDA_BOUNCE_BYTES, SIZE, "16K", GIO_CFG_POW2 | GIO_CFG_ZERO, "", 64, 1ull << 30,             \
    "gda: bounce buffer per queue for local buffers outside the symmetric heap; 0 = none: such "     \
    "buffers then work only up to 28 bytes for puts, 8 for gets")                                   \
  X(GIO_GDA_NIC, ENUM, "auto", 0, "auto|softnic", 0, 0,                                             \
    "gda: what drives the queues: auto (a ConnectX if every PE has one) | softnic")                 \
  X(GIO_P2P_BULK_MIN, SIZE, "512", 0, "", 0, GIO_CFG_NO_MAX,                                        \
    "p2p: a thread-scope put/get of at least this many bytes goes through the SM's bulk-copy engine " \
    "(CUDA sm_90+; never under 256); 0 = never")                                                      \
  X(GIO_PROXY_PROVIDER, STR, "auto", 0, "", 0, 0,                                                   \
    "proxy: the libfabric provider (fi_info -l names it): auto = shm when every PE is on one node, "  \
    "else tcp;ofi_rxm")                                                                             \
  X(GIO_PROXY_IFACE, STR, "auto", 0, "", 0, 0,                                                      \
    "proxy: the network interface tcp uses (sets FI_TCP_IFACE unless that is set): auto = lo when "  \
    "every PE is on one node, else libfabric's choice")                                             \
  X(GIO_PROXY_STAGING, ENUM, "auto", 0, "auto|always", 0, 0,                                        \
    "proxy: auto = puts and gets reach host-memory heaps in place (fi_write/fi_read) and GPU heaps "  \
    "through staged messages the target's proxy copies in | always = staged everywhere (tests the "  \
    "GPU path on the host platform)")                                                                \
  X(GIO_PROXY_CHUNK, SIZE, "1M", 0, "", 4096, 64ull << 20, "proxy: bytes per staged message")       \
  X(GIO_PROXY_DEPTH, COUNT, "4", 0, "", 1, 16, "proxy: staged messages of one put or get in flight") \
  X(GIO_PROXY_SHM_INBOX, BOOL, "1", 0, "", 0, 0,                                                    \
    "proxy: staged puts between the PEs of one node over shm go through shared-memory inboxes (the "  \
    "source's device-to-host copy writes the target's inbox, its proxy copies that into the heap); "  \
    "0 sends them as messages")                                                                     \
  X(GIO_PROXY_SLOTS, COUNT, "256", GIO_CFG_POW2, "", 16, 32768, "proxy: commands per ring")         \
  X(GIO_PROXY_BOUNCE_BYTES, SIZE, "64K", GIO_CFG_POW2 | GIO_CFG_ZERO, "", 64, 1ull << 30,           \
    "proxy: bounce buffer per ring for kernel buffers outside the symmetric heap; 0 = none: such "   \
    "buffers then work only up to 16 bytes for puts, 8 for gets")                                   \
  X(GIO_NODE_PER_PE, BOOL, "0", 0, "", 0, 0,                                                        \
    "testing: treat every PE as its own node: no peer heap is mapped for kernels or the host API, so " \
    "every peer is reached over the network: proxy (gda with GIO_TRANSPORT=gda; the softnic, playing "  \
    "the network, keeps its own mapping)")                                                          \
  X(GIO_COLL_LL_MAX, SIZE, "1K", 0, "", 0, GIO_CFG_NO_MAX,                                          \
    "collectives in kernels: largest message in bytes a PE sends one member through the LL protocol " \
    "(data and flag in one word; teams whose members all reach each other over p2p; also capped by " \
    "the team's LL area, 2 KiB / members); 0 = never")                                             \
  X(GIO_COLL_WORK_GROUPS, COUNT, "auto", GIO_CFG_AUTO, "", 1, 65535,                                \
    "stream collectives (shmemx_*_on_stream) on all-p2p teams: work-groups of the data kernel; "    \
    "auto (or 0) = the GPU's multiprocessors (4 on the host platform)")                            \
  X(GIO_COLL_REDUCE, ENUM, "auto", 0, "auto|pull|push", 0, 0,                                       \
    "stream reductions on SHMEM_TEAM_WORLD when every member pair is p2p and the call is past LL: " \
    "pull (each member loads its share from every member's source) | push (sources are stored "     \
    "into the owners' scratch, owners fold locally and store the result) | auto (push on 3 to 8 "   \
    "members, pull on 2)")                                                                         \
  /* Its range depends on the heap: host/coll/team.cpp checks it once the heap size is known. */    \
  X(GIO_COLL_REDUCE_SCRATCH, SIZE, "auto", GIO_CFG_AUTO, "", 0, GIO_CFG_NO_MAX,                     \
    "push reductions: bytes of chunk slots per PE, taken from the symmetric heap at init (with "    \
    "128 KiB of flags); a chunk is this / (work-groups x (members - 1) x 4); auto (or 0) = 64M, at "  \
    "most 1/16 of the heap; at least 4K, at most half the heap; none is taken with "                 \
    "GIO_COLL_REDUCE=pull")                                                                          \
  X(GIO_NUM_CONTEXTS, COUNT, "64", 0, "", 1, 511, "work-group contexts available to shmemx_wg_ctx_create") \
  X(SHMEM_DEVICE_MAX_CTX, COUNT, "8", 0, "", 0, 510,                                                \
    "device contexts the host may hand out at once (shmem_ctx_create / shmem_team_create_ctx with " \
    "SHMEM_DEVICE_CTX), beside GIO_NUM_CONTEXTS; the two together at most 511")                      \
  X(GIO_BOOTSTRAP, ENUM, "auto", 0, "auto|mpi|pmix", 0, 0,                                          \
    "how PEs find each other: auto (MPI under mpirun/mpiexec or when the application initialized "  \
    "MPI; PMIx when a PMIx server (srun, prterun) and no MPI launcher started the process; else an " \
    "MPI singleton, a 1-PE job) | mpi | pmix")                                                       \
  X(GIO_DEBUG, COUNT, "0", 0, "", 0, 2, "0 quiet; 1 init summary on stderr; 2 also every collective allocation") \
  X(GIO_HOST_MAX_WG, COUNT, "512", 0, "", 1, GIO_CFG_NO_MAX,                                        \
    "host platform: most work-groups of one launch running at once")                               \
  X(GIO_HOST_FIBER_STACK, SIZE, "64K", 0, "", 4096, GIO_CFG_NO_MAX,                                 \
    "host platform: stack bytes of each emulated GPU thread")                                       \
  X(GIO_HOST_WAVE_LOCKSTEP, BOOL, "0", 0, "", 0, 0,                                                 \
    "host platform: a wave's lanes cannot overtake each other at device waits (as on AMD GPUs), "   \
    "so a lane waiting on a wave-mate hangs (times out) in CI too")                                  \
  X(GIO_HOST_COPY_US, COUNT, "0", 0, "", 0, 1000000,                                                \
    "host platform: microseconds each of the proxy's staging copies takes at least, as a GPU's "    \
    "small copy waits for its process's time slice where PEs share a GPU (0: as fast as memory)")   \
  X(GIO_HOST_SHM_DIR, STR, "/dev/shm", 0, "", 0, 0,                                                 \
    "where PEs' default heaps and globals (every platform) and GPU heaps (host platform) are shared "  \
    "as files")

// Keys that no longer exist, with what replaced them: config_load warns when one is set, so a
// setting that stopped meaning anything does not pass unnoticed. X(name, why)
#define GIO_CONFIG_REMOVED_KEYS(X)                                                                 \
  X(GIO_QUEUE_MEM,                                                                                 \
    "gda queues always live in pinned host memory, where the softnic's CPU thread and a ConnectX "  \
    "both read them (device memory could be served by neither the softnic nor the untested "        \
    "ConnectX path); the setting is ignored")

// GIO_* variables that GIO's own scripts and test tools read, never libgio: config_load does not
// warn about them as unknown settings. X(name, reader)
#define GIO_CONFIG_TOOL_VARIABLES(X)                                                               \
  X(GIO_DRIVER_REQUIRED, "driver-patches/build.sh")                                                \
  X(GIO_KSRC_TARBALL, "driver-patches/build.sh")                                                   \
  X(GIO_TWO_NODES_MIN_BYTES, "tests/func/two_nodes.sh")                                            \
  X(GIO_FUZZ_WRITE_SEEDS, "tests/fuzz")                                                            \
  X(GIO_FUZZ_ARTIFACTS, "tests/fuzz/run.sh")                                                            \
  X(GIO_FUZZ_CXX, "tests/fuzz/run.sh")                                                             \
  X(GIO_CHECK_PREFIX, "tests/install/check.sh")                                                    \
  X(GIO_COMMIT, "apps/commit.cmake")                                                               \
  X(GIO_SKIP_SANITIZERS, "tests/run.sh")                                                           \
  X(GIO_SKIP_HIP, "tests/run.sh")                                                                  \
  X(GIO_SKIP_CUDA, "tests/run.sh")                                                                 \
  X(GIO_SKIP_DRIVER, "tests/run.sh")
