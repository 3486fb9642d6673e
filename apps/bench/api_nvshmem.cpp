// bench_api.h's host half on NVSHMEM (gio-bench-nvshmem).
//
// Bootstrap: MPI. giorun (Open MPI's mpirun) starts the PEs, MPI_Init runs first, and NVSHMEM is
// initialized on MPI_COMM_WORLD (NVSHMEMX_INIT_WITH_MPI_COMM). NVSHMEM loads its MPI plugin,
// nvshmem_bootstrap_mpi.so.3, from its own lib/ (libnvshmem_host's RPATH is $ORIGIN); the pip
// wheel's plugin is built against Open MPI 4's libmpi.so.40. The default PMI bootstrap would need
// a PMI-1 server, which Open MPI's mpirun does not provide.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "bench_api.h"
#include "coll_spec.h"

namespace {
MPI_Comm g_comm = MPI_COMM_WORLD;
uint64_t* g_probe = nullptr;  // a symmetric word, to ask nvshmem_ptr how a peer is reached
}  // namespace

void b_init(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  // One GPU per PE, by rank on the node, before NVSHMEM picks up the current device.
  MPI_Comm node;
  int local = 0, ndev = 1;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1) {
    fprintf(stderr, "gio-bench-nvshmem: no CUDA device\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  cudaSetDevice(local % ndev);
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  attr.mpi_comm = &g_comm;
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
  g_probe = (uint64_t*)nvshmem_malloc(sizeof(uint64_t));
}

void b_finalize() {
  nvshmem_free(g_probe);
  nvshmem_finalize();
  MPI_Finalize();
}

void b_abort(int status) {
  nvshmem_global_exit(status);
  MPI_Abort(MPI_COMM_WORLD, status);
  exit(status);
}

int b_my_pe() { return nvshmem_my_pe(); }
int b_n_pes() { return nvshmem_n_pes(); }

void* b_malloc(size_t n) {
  void* p = nvshmem_malloc(n);
  if (!p && n) {
    fprintf(stderr, "gio-bench-nvshmem: nvshmem_malloc(%zu) failed; raise NVSHMEM_SYMMETRIC_SIZE\n", n);
    b_abort(1);
  }
  return p;
}
void b_free(void* p) { nvshmem_free(p); }

void b_barrier_all() {
  cudaDeviceSynchronize();
  nvshmem_barrier_all();
}

// NVSHMEM's host library exports no host nvshmemx_signal_op; the signal goes through the stream
// form, and the synchronize makes the hop complete before the host moves on, like GIO's.
void b_host_put_signal(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v, int pe) {
  nvshmem_putmem(d, s, n, pe);
  nvshmemx_signal_op_on_stream(sig, v, NVSHMEM_SIGNAL_SET, pe, 0);
  cudaStreamSynchronize(0);
}

// The host reads its own symmetric memory like any device memory.
uint64_t b_host_signal_read(const uint64_t* sig) {
  uint64_t v = 0;
  cudaMemcpy(&v, sig, sizeof v, cudaMemcpyDeviceToHost);
  return v;
}

void b_host_get(void* d, const void* s, size_t n, int pe) {
  nvshmem_getmem(d, s, n, pe);
  nvshmem_quiet();
}

int b_coll_on_stream(bench::coll_op op, float* d, const float* s, size_t n, cudaStream_t st) {
  switch (op) {
    case bench::coll_op::barrier: return nvshmemx_team_sync_on_stream(NVSHMEM_TEAM_WORLD, st);
    case bench::coll_op::broadcast:
      return nvshmemx_float_broadcast_on_stream(NVSHMEM_TEAM_WORLD, d, s, n, bench::kCollRoot, st);
    case bench::coll_op::fcollect: return nvshmemx_float_fcollect_on_stream(NVSHMEM_TEAM_WORLD, d, s, n, st);
    case bench::coll_op::alltoall: return nvshmemx_float_alltoall_on_stream(NVSHMEM_TEAM_WORLD, d, s, n, st);
    default: return nvshmemx_float_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, d, s, n, st);
  }
}

const char* b_impl() { return "nvshmem"; }

// NVSHMEM does not name its transport per peer; load/store reachability is what tells p2p apart.
const char* b_transport(int pe) { return nvshmem_ptr(g_probe, pe) ? "p2p" : "remote"; }
