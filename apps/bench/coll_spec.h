// What each coll operation moves, how its result is checked and how its bandwidth is counted.
// Shared by gio-bench (GIO or NVSHMEM kernels) and gio-bench-nccl, so all three fill the same
// values, accept the same results and divide by the same bytes. Plain C++ (host only).
//
// `bytes` (and nelems = bytes / 4 floats) is one PE's contribution, the count each API takes:
//   broadcast  the root's buffer, copied to every PE (root: PE 0)
//   fcollect   each PE's source; every PE's dest gets npes of them (NCCL AllGather)
//   alltoall   the block each PE sends to each PE; source and dest hold npes blocks
//   reduce     each PE's vector, summed elementwise into every PE's dest (NCCL AllReduce)
// Bandwidth follows nccl-tests (doc/PERFORMANCE.md): algbw = S / time with S the size nccl-tests
// names (the whole buffer: npes * bytes for fcollect and alltoall, bytes otherwise), and
// busbw = algbw * 2(n-1)/n (reduce), (n-1)/n (fcollect, alltoall), 1 (broadcast): 0 at one PE,
// where nothing crosses a link (as in nccl-tests).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "bench.h"

namespace bench {

constexpr int kCollRoot = 0;
// Below this a collective's time is all latency: the table and JSON give no bandwidth there.
constexpr size_t kCollBwMinBytes = 4096;

// --iters is an upper bound: one sample's collectives last about kCollSampleNs, as far as one
// untimed collective (one_ns, the slowest PE's) tells. A one-thread reduce of 256 MiB
// lasts seconds; 100 of them, times reps, times sizes, would not finish.
constexpr double kCollSampleNs = 50e6;
int coll_iters(int max_iters, double one_ns);
// Warmup collectives before each sample: none once one collective outlasts a sample (the checked
// run has warmed the path, and a one-thread 256 MiB reduce would double every sample's cost).
int coll_warmup(int max_warmup, int iters, double one_ns);

// Floats in one PE's source and dest for nelems per PE.
size_t coll_src_elems(coll_op op, size_t nelems, int npes);
size_t coll_dst_elems(coll_op op, size_t nelems, int npes);

double coll_algbw_bytes(coll_op op, size_t bytes, int npes);  // nccl-tests' S
double coll_bus_factor(coll_op op, int npes);

// This PE's source values: every float tells who sent it, to whom and where, and stays an exact
// integer in a float (below 2^24) so the reduce sum is exact too.
void coll_fill_source(coll_op op, size_t nelems, int me, int npes, std::vector<float>* src);
// "" when this PE's dest is what the op must leave there, else the first wrong element. The
// broadcast root's dest is not checked: whether the root copies to its own dest differs between
// OpenSHMEM 1.4 and 1.5 (and between libraries).
std::string coll_check(coll_op op, const float* dst, size_t nelems, int me, int npes);

// The --ops list: parsed in cli.cpp.
bool coll_op_parse(const std::string& s, coll_op* op);

}  // namespace bench
