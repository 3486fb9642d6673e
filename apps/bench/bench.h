// gio-bench's shared host-side types: options, the run's environment, one measurement, statistics.
// Plain C++ (no kernels), so cli.cpp and report.cpp build with the host compiler.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// stream: coll only, the host enqueues the library's stream collectives (shmemx_*_on_stream).
enum class scope_t { thread, wave, wg, stream };
const char* scope_name(scope_t s);

// coll: the collectives over all PEs (barrier = team sync; reduce = float sum allreduce).
enum class coll_op { barrier, broadcast, fcollect, alltoall, reduce };
const char* coll_op_name(coll_op op);

struct options {
  std::string bench;               // put_latency | bw | msgrate | loggop | coll | strided
  std::vector<scope_t> scopes;
  std::vector<coll_op> ops;        // coll
  size_t min_size = 1, max_size = 4u << 20;
  unsigned step = 2;               // sizes: min, min*step, ... <= max
  std::vector<int> wgs;            // work-groups posting at once
  int threads = 256;               // threads per work-group (wg scope; bw/msgrate: every scope)
  int iters = 0, warmup = 0, reps = 0;
  int train = 16;                  // loggop: messages per train (n)
  bool bidir = false;
  bool quick = false;
  std::string json;                // JSON-lines output file ("" = none)
  int pair_a = 0, pair_b = 1;      // the measured pair: A initiates and reports, B answers
  size_t cube = 1024, region = 1u << 20;  // strided: the cube's edge and the region, in bytes
  std::vector<size_t> sizes() const;
};

// Parses argv (argv[1] is the subcommand). Returns false with a message in *err.
bool parse_options(int argc, char** argv, options* o, std::string* err);
void print_usage(const char* prog);

// Facts recorded with every measurement.
struct run_env {
  int me = 0, npes = 1;
  bool reporter = false;  // PE A of the pair prints the table and writes the JSON file
  std::string impl, transport, device, commit, date;
  int warp = 32;
};

struct stats {
  double median = 0, min = 0, max = 0;
};
// Median (mean of the two middle samples for an even count), min and max of the samples.
stats summarize(std::vector<double> v);

// One line of the table and of the JSON file.
struct record {
  std::string bench, scope, metric, unit;
  size_t bytes = 0;
  int work_groups = 1;
  stats s;
};

// One coll measurement. bytes is one PE's contribution (coll_spec.h says what that is per op);
// us: per-collective latency over the reps, each rep the slowest PE's mean over its iterations.
struct coll_record {
  coll_op op = coll_op::barrier;
  std::string scope;
  size_t bytes = 0;
  int threads = 1, iters = 0;
  stats us;
};

// One strided measurement (strided.cpp): a region of x * y * z bytes of a cube of edge `cube`,
// moved by `method`; us is one transfer's time.
struct strided_record {
  std::string method;
  size_t x = 0, y = 0, z = 0, cube = 0;
  int work_groups = 1, threads = 1, iters = 0;
  stats us;
};

// Report sink: the table on stdout and the JSON lines file (reporter only).
void report_open(const run_env& env, const options& o);
void report(const record& r);
void report_coll(const coll_record& r);
void report_strided(const strided_record& r);
void report_note(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void report_close();

const char* build_commit();  // `git describe --always --dirty` of the tree gio-bench was built from
uint64_t host_now_ns();  // steady clock, for whole-kernel and Inter-K timings
std::string utc_now_iso();

}  // namespace bench
