// gio-bench-nccl: the coll subcommand's reference, NCCL's host-launched collectives, with the
// same flags, source values, check, byte counts and JSON lines as gio-bench coll (impl "nccl",
// scope "host": the host enqueues each collective on a stream).
//
// A binary of its own rather than a part of gio-bench: it then needs neither GIO nor NVSHMEM,
// neither library's heap or progress threads share the GPU with NCCL while it is measured, and
// gio-bench keeps running where NCCL is not installed (it is found at configure time, cuda only).
//
//  broadcast  ncclBroadcast (root 0)         fcollect  ncclAllGather
//  alltoall   ncclSend + ncclRecv to every rank (itself too) in one group
//  reduce     ncclAllReduce (float, sum)     barrier   none: NCCL has no barrier
// Any number of ranks (1: the call's own cost; NCCL refuses two ranks on one GPU).
// Bootstrap: MPI (giorun), rank 0's ncclUniqueId broadcast over MPI_COMM_WORLD; one GPU per rank
// by rank on the node. Timing: CUDA events around the iters collectives on the rank's stream,
// after the warmup ones; a sample is the slowest rank's time per collective.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "bench.h"
#include "coll_spec.h"

using namespace bench;

namespace {

int g_rank = 0;

void cuda_check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "gio-bench-nccl: rank %d: %s failed: %s\n", g_rank, what, cudaGetErrorString(e));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

void nccl_check(ncclResult_t r, const char* what) {
  if (r == ncclSuccess) return;
  fprintf(stderr, "gio-bench-nccl: rank %d: %s failed: %s\n", g_rank, what, ncclGetErrorString(r));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

struct nccl_run {
  ncclComm_t comm;
  cudaStream_t stream;
  float* src;
  float* dst;
  int npes;
};

void enqueue(const nccl_run& r, coll_op op, size_t ne) {
  switch (op) {
    case coll_op::broadcast:
      nccl_check(ncclBroadcast(r.src, r.dst, ne, ncclFloat, kCollRoot, r.comm, r.stream), "ncclBroadcast");
      break;
    case coll_op::fcollect:
      nccl_check(ncclAllGather(r.src, r.dst, ne, ncclFloat, r.comm, r.stream), "ncclAllGather");
      break;
    case coll_op::alltoall:
      nccl_check(ncclGroupStart(), "ncclGroupStart");
      for (int pe = 0; pe < r.npes; ++pe) {
        nccl_check(ncclSend(r.src + pe * ne, ne, ncclFloat, pe, r.comm, r.stream), "ncclSend");
        nccl_check(ncclRecv(r.dst + pe * ne, ne, ncclFloat, pe, r.comm, r.stream), "ncclRecv");
      }
      nccl_check(ncclGroupEnd(), "ncclGroupEnd");
      break;
    default:
      nccl_check(ncclAllReduce(r.src, r.dst, ne, ncclFloat, ncclSum, r.comm, r.stream), "ncclAllReduce");
      break;
  }
}

// warmup + iters collectives; ns of the iters on the stream, the slowest rank's (on every rank).
double timed(const nccl_run& r, coll_op op, size_t ne, int warmup, int iters) {
  cudaEvent_t e0, e1;
  cuda_check(cudaEventCreate(&e0), "cudaEventCreate");
  cuda_check(cudaEventCreate(&e1), "cudaEventCreate");
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < warmup; ++i) enqueue(r, op, ne);
  cuda_check(cudaEventRecord(e0, r.stream), "cudaEventRecord");
  for (int i = 0; i < iters; ++i) enqueue(r, op, ne);
  cuda_check(cudaEventRecord(e1, r.stream), "cudaEventRecord");
  cuda_check(cudaStreamSynchronize(r.stream), "cudaStreamSynchronize");
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  double ns = ms * 1e6, most = 0;
  MPI_Allreduce(&ns, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

// The untimed, checked collective (fresh source values, a NaN-poisoned dest); returns how long
// one collective lasts, from a second one: the first on a communicator connects its peers.
double check(const nccl_run& r, coll_op op, size_t bytes) {
  const size_t ne = bytes / sizeof(float);
  std::vector<float> h;
  coll_fill_source(op, ne, g_rank, r.npes, &h);
  cuda_check(cudaMemcpy(r.src, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy(src)");
  h.assign(coll_dst_elems(op, ne, r.npes), 0.0f);
  cuda_check(cudaMemset(r.dst, 0xff, h.size() * sizeof(float)), "cudaMemset(dst)");
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  timed(r, op, ne, 0, 1);
  cuda_check(cudaMemcpy(h.data(), r.dst, h.size() * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy(dst)");
  const std::string why = coll_check(op, h.data(), ne, g_rank, r.npes);
  if (!why.empty()) {
    fprintf(stderr, "gio-bench-nccl: rank %d: coll %s, %zu B per rank, %d ranks: WRONG RESULT: %s\n", g_rank,
            coll_op_name(op), bytes, r.npes, why.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return timed(r, op, ne, 0, 1);
}

void run(const options& o, const nccl_run& r) {
  for (coll_op op : o.ops) {
    if (op == coll_op::barrier) {
      report_note("NCCL has no barrier: barrier skipped");
      continue;
    }
    for (size_t bytes : o.sizes()) {
      const size_t ne = bytes / sizeof(float);
      const double one = check(r, op, bytes);
      const int iters = coll_iters(o.iters, one), warmup = coll_warmup(o.warmup, iters, one);
      std::vector<double> us;
      for (int rep = 0; rep < o.reps; ++rep) us.push_back(timed(r, op, ne, warmup, iters) / iters / 1000.0);
      report_coll({op, "host", bytes, 0, iters, summarize(us)});
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    print_usage(argv[0]);
    printf("gio-bench-nccl runs the coll subcommand only (NCCL's collectives, launched from the host).\n");
    return 0;
  }
  options o;
  std::string err;
  bool ok = parse_options(argc, argv, &o, &err);
  MPI_Init(&argc, &argv);
  int npes = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &npes);
  if (ok && o.bench != "coll") ok = false, err = "gio-bench-nccl runs coll only";
  if (!ok) {
    if (g_rank == 0) fprintf(stderr, "gio-bench-nccl: %s\n", err.c_str());
    MPI_Finalize();
    return 2;
  }
  MPI_Comm node;
  int local = 0, ndev = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  cuda_check(cudaGetDeviceCount(&ndev), "cudaGetDeviceCount");
  cuda_check(cudaSetDevice(local % ndev), "cudaSetDevice");

  ncclUniqueId id;
  if (g_rank == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  nccl_run r{};
  r.npes = npes;
  nccl_check(ncclCommInitRank(&r.comm, npes, id, g_rank), "ncclCommInitRank");
  cuda_check(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking), "cudaStreamCreate");

  run_env env;
  env.me = g_rank;
  env.npes = npes;
  env.reporter = g_rank == 0;
  env.impl = "nccl";
  env.transport = "nccl";  // NCCL picks its own path to each peer and does not say which
  cudaDeviceProp prop;
  cuda_check(cudaGetDeviceProperties(&prop, local % ndev), "cudaGetDeviceProperties");
  env.device = prop.name;
  env.warp = prop.warpSize;
  env.commit = build_commit();
  env.date = utc_now_iso();
  report_open(env, o);

  size_t src = 1, dst = 1;
  const size_t most = o.max_size / sizeof(float);
  for (coll_op op : o.ops) {
    src = std::max(src, coll_src_elems(op, most, npes));
    dst = std::max(dst, coll_dst_elems(op, most, npes));
  }
  cuda_check(cudaMalloc(&r.src, src * sizeof(float)), "cudaMalloc(src)");
  cuda_check(cudaMalloc(&r.dst, dst * sizeof(float)), "cudaMalloc(dst)");
  report_note("coll: bytes = one PE's contribution; us = slowest rank's time per collective (CUDA events); "
              "algbw/busbw in GB/s by nccl-tests' definitions, from %zu B", kCollBwMinBytes);
  int version = 0;
  ncclGetVersion(&version);
  report_note("NCCL %d.%d.%d", version / 10000, version / 100 % 100, version % 100);
  run(o, r);

  report_close();
  cudaFree(r.src);
  cudaFree(r.dst);
  cudaStreamDestroy(r.stream);
  ncclCommDestroy(r.comm);
  MPI_Finalize();
  return 0;
}
