// Command line of spts (see README.md). Every knob is a flag.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "matrix.h"

namespace spts {

enum class variant { gio, levelset, single, cusparse, ikn };
// ikn is gio with every peer over the proxy transport (apps/common/ikn.h): the same kernels.
inline bool distributed_syncfree(variant v) { return v == variant::gio || v == variant::ikn; }
// How the gio variant moves a solved component to the PEs that need it.
//  signal: one shmem_signal_set per (component, PE), the value itself as the signal word;
//  atomic: one shmem_uint64_atomic_set per (component, PE) of the same word: an AMO needs no
//          release fence before it (a signal orders the caller's earlier puts first);
//  queue:  a wave's newly solved components, per destination PE, in one putmem_signal into a
//          receive queue the owner drains;
//  store:  one relaxed system-scope 8-byte store per (component, PE) into the peer's xw through
//          shmem_ptr (every receiving peer must be load/store reachable), no GIO call in the kernel;
//  automatic (the default): store where every peer's memory is load/store reachable (p2p), else
//          signal -- over a NIC an atomic set is a compare-and-swap loop of round trips.
// natural: row order; level: by level; senders: the PE's rows that other PEs' rows depend on, with
// everything they depend on, first (a topological order, so the kernels' no-deadlock argument holds).
enum class row_order { natural, level, senders };
// The sync-free solve's renumbering (renumber.h): level sorts every PE's rows by level and splits
// every level over the PEs; blocks keeps each PE's contiguous block of L's rows (--balance) and
// sorts it by level (at one PE, as level); none keeps L's order with rows in contiguous blocks;
// automatic takes tiles at one PE and level on several where L is deep (run_syncfree.cpp says
// where the line is and why).
// tiles (one PE, thread kernel): level order in tiles a work-group wide and deep (renumber.h).
enum class renumber_kind { automatic, level, tiles, blocks, none };
// Where the one-PE renumbering's analysis (levels, the order, tiles) runs: device (kernels,
// analysis_dev.h), host (renumber.h's passes, the order uploaded), or compare (device, then the
// host's result computed after the timed preprocessing and compared: levels, order and chunks
// must be equal, else the run fails).
enum class analysis_where { device, host, compare };
enum class exchange { signal, atomic, queue, automatic, store };
// thread: a thread per row (short rows); warp: a wave per row (long rows); auto picks by mean row
// length.
enum class kernel_kind { automatic, thread, warp };

struct options {
  variant var = variant::gio;      // the variant being run
  std::vector<variant> vars{variant::gio};  // --variant V[,V...]: run each in turn on one input
  exchange xchg = exchange::automatic;
  kernel_kind kernel = kernel_kind::automatic;
  std::string matrix;              // --matrix FILE.mtx
  std::string gen = "grid2d:n=1024";  // --gen KIND[:params] (used when no --matrix)
  std::string cache;               // --cache DIR: generated inputs are read from / written to DIR
  order ord = order::natural;      // --order
  diag_mode diag = diag_mode::given;  // --diag (files; generators use dominant)
  bool dbl = true;                 // --type double|float
  bool by_nnz = false;             // --balance rows|nnz
  int reps = 5;                    // timed repetitions (the median is reported)
  int warmup = 1;                  // untimed solves first
  row_order rows = row_order::natural;  // sync-free kernels: the order rows enter the device (--rows)
  renumber_kind renumber = renumber_kind::automatic;  // sync-free solves: --renumber
  analysis_where analysis = analysis_where::device;   // one PE: --analysis
  int analysis_rows = 1;           // --analysis-rows N: the device's levels kernel, rows a thread (1, 2, 4, 8)
  int analysis_backoff_ns = 0;     // --analysis-backoff NS: the levels kernel's longest sleep while gated
  bool chunk_shared = true;        // --chunk-deps shared|global: a chunk's own rows through shared memory
  int poll_batch = 4;              // --poll-batch N: thread kernel, dependency words loaded together (1-4)
  int block = 0;                   // threads per work-group; 0 = 256 on GPUs, 64 on the host platform
  uint64_t seed = 1;               // x_ref (and --order random for files)
  std::string json;                // append one JSON line here (PE 0)
  int backoff_ns = 0;              // longest sleep between polls of an unsolved dependency (0: none)
  double timeout_s = 120;          // bound on every wait inside the solve kernels
  bool refs = true;                // also time `single` and the vendor solve on PE 0 (speedups)
  bool inject_error = false;       // test only: perturb one solved value; the check must fail
  bool inject_analysis = false;    // test only: the device analysis gives the last row a level too many
  bool probe_ready = false;        // gio, ikn: also time solves with every other PE's components present
};

const char* variant_name(variant v);
const char* exchange_name(exchange e);
const char* kernel_name(kernel_kind k);
const char* renumber_name(renumber_kind r);
// Parses argv into *o; on a bad or missing value prints why (and the usage) and returns false.
// Sets *help when -h/--help was given.
bool parse_options(int argc, char** argv, options* o, bool* help);
void print_usage(const char* prog);

}  // namespace spts
