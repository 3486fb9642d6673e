// Every GIO configuration key, in one table: name, type, default, help.
// host/config.cpp parses the environment from it and gio-info prints it; nothing else calls getenv.
// X(name, type, default_string, help)   type: U64 (accepts K/M/G suffixes), STR, BOOL
#pragma once

#define GIO_CONFIG_KEYS(X)                                                                         \
  X(GIO_SYMMETRIC_SIZE, U64, "auto",                                                               \
    "symmetric heap bytes per PE (K/M/G suffixes); auto = 1G on GPUs, 64M on the host platform")   \
  X(GIO_TIMEOUT_MS, U64, "60000", "bound on every wait, host and device (ms); 0 = wait forever")   \
  X(GIO_TRANSPORT, STR, "auto",                                                                    \
    "force a transport to every peer: auto (p2p within a node; other nodes: gda with a ConnectX on "  \
    "every PE, else proxy) | p2p | gda | proxy")                                                    \
  X(GIO_GDA_SQ_SLOTS, U64, "256", "gda: WQEs per send queue (power of two, 16..32768)")             \
  X(GIO_GDA_BOUNCE_BYTES, U64, "16K",                                                              \
    "gda: bounce buffer per queue for local buffers outside the symmetric heap (power of two, 64..1G; " \
    "0 = none: such buffers then work only up to 28 bytes for puts, 8 for gets)")                    \
  X(GIO_GDA_NIC, STR, "auto", "gda: what drives the queues: auto (a ConnectX if every PE has one) | softnic") \
  X(GIO_P2P_BULK_MIN, U64, "512",                                                                   \
    "p2p: a thread-scope put/get of at least this many bytes goes through the SM's bulk-copy engine " \
    "(CUDA sm_90+; never under 256); 0 = never")                                                      \
  X(GIO_PROXY_PROVIDER, STR, "auto",                                                               \
    "proxy: the libfabric provider (fi_info -l names it): auto = shm when every PE is on one node, "  \
    "else tcp;ofi_rxm")                                                                             \
  X(GIO_PROXY_IFACE, STR, "auto",                                                                  \
    "proxy: the network interface tcp uses (sets FI_TCP_IFACE unless that is set): auto = lo when "  \
    "every PE is on one node, else libfabric's choice")                                             \
  X(GIO_PROXY_STAGING, STR, "auto",                                                                \
    "proxy: auto = puts and gets reach host-memory heaps in place (fi_write/fi_read) and GPU heaps "  \
    "through staged messages the target's proxy copies in | always = staged everywhere (tests the "  \
    "GPU path on the host platform)")                                                                \
  X(GIO_PROXY_CHUNK, U64, "1M", "proxy: bytes per staged message (4K..64M)")                         \
  X(GIO_PROXY_DEPTH, U64, "4", "proxy: staged messages of one put or get in flight (1..16)")         \
  X(GIO_PROXY_SHM_INBOX, BOOL, "1",                                                                \
    "proxy: staged puts between the PEs of one node over shm go through shared-memory inboxes (the "  \
    "source's device-to-host copy writes the target's inbox, its proxy copies that into the heap); "  \
    "0 sends them as messages")                                                                     \
  X(GIO_PROXY_SLOTS, U64, "256", "proxy: commands per ring (power of two, 16..32768)")             \
  X(GIO_PROXY_BOUNCE_BYTES, U64, "64K",                                                            \
    "proxy: bounce buffer per ring for kernel buffers outside the symmetric heap (power of two, "     \
    "64..1G; 0 = none: such buffers then work only up to 16 bytes for puts, 8 for gets)")             \
  X(GIO_NODE_PER_PE, BOOL, "0",                                                                     \
    "testing: treat every PE as its own node: no peer heap is mapped for kernels or the host API, so " \
    "every peer is reached over the network: proxy (gda with GIO_TRANSPORT=gda; the softnic, playing "  \
    "the network, keeps its own mapping)")       \
  X(GIO_COLL_LL_MAX, U64, "1K",                                                                  \
    "collectives in kernels: largest message in bytes a PE sends one member through the LL protocol " \
    "(data and flag in one word; teams whose members all reach each other over p2p; also capped by " \
    "the team's LL area, 2 KiB / members); 0 = never")                                             \
  X(GIO_COLL_WORK_GROUPS, U64, "auto",                                                             \
    "stream collectives (shmemx_*_on_stream) on all-p2p teams: work-groups of the data kernel; "    \
    "auto (or 0) = the GPU's multiprocessors (4 on the host platform); at most 65535")             \
  X(GIO_COLL_REDUCE, STR, "auto",                                                                  \
    "stream reductions on SHMEM_TEAM_WORLD when every member pair is p2p and the call is past LL: " \
    "pull (each member loads its share from every member's source) | push (sources are stored "     \
    "into the owners' scratch, owners fold locally and store the result) | auto (push on 3 to 8 "   \
    "members, pull on 2)")                                                                         \
  X(GIO_COLL_REDUCE_SCRATCH, U64, "auto",                                                          \
    "push reductions: bytes of chunk slots per PE, taken from the symmetric heap at init (with "    \
    "128 KiB of flags); a chunk is this / (work-groups x (members - 1) x 4); auto (or 0) = 64M, at "  \
    "most 1/16 of the heap; at least 4K; none is taken with GIO_COLL_REDUCE=pull")          \
  X(GIO_NUM_CONTEXTS, U64, "64", "work-group contexts available to shmemx_wg_ctx_create (max 511)") \
  X(GIO_BOOTSTRAP, STR, "auto",                                                                   \
    "how PEs find each other: auto (MPI under mpirun/mpiexec or when the application initialized "  \
    "MPI; PMIx when a PMIx server (srun, prterun) and no MPI launcher started the process; else an " \
    "MPI singleton, a 1-PE job) | mpi | pmix")                                                       \
  X(GIO_DEBUG, U64, "0", "0 quiet; 1 init summary on stderr; 2 also every collective allocation")  \
  X(GIO_HOST_MAX_WG, U64, "512", "host platform: most work-groups of one launch running at once")  \
  X(GIO_HOST_FIBER_STACK, U64, "64K", "host platform: stack bytes of each emulated GPU thread")     \
  X(GIO_HOST_WAVE_LOCKSTEP, BOOL, "0",                                                             \
    "host platform: a wave's lanes cannot overtake each other at device waits (as on AMD GPUs), "   \
    "so a lane waiting on a wave-mate hangs (times out) in CI too")                                  \
  X(GIO_HOST_SHM_DIR, STR, "/dev/shm", "where PEs' heaps (host platform) and globals (every platform) are shared as files")

// Keys that no longer exist, with what replaced them: config_load warns when one is set, so a
// setting that stopped meaning anything does not pass unnoticed. X(name, why)
#define GIO_CONFIG_REMOVED_KEYS(X)                                                                 \
  X(GIO_QUEUE_MEM,                                                                                 \
    "gda queues always live in pinned host memory, where the softnic's CPU thread and a ConnectX "  \
    "both read them (device memory could be served by neither the softnic nor the untested "        \
    "ConnectX path); the setting is ignored")
