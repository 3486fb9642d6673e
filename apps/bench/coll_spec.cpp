// coll's data: buffer sizes, bandwidth definitions, source values and the check (see coll_spec.h).
#include "coll_spec.h"

#include <cstdio>

namespace bench {

const char* coll_op_name(coll_op op) {
  switch (op) {
    case coll_op::barrier: return "barrier";
    case coll_op::broadcast: return "broadcast";
    case coll_op::fcollect: return "fcollect";
    case coll_op::alltoall: return "alltoall";
    default: return "reduce";
  }
}

bool coll_op_parse(const std::string& s, coll_op* op) {
  for (coll_op o : {coll_op::barrier, coll_op::broadcast, coll_op::fcollect, coll_op::alltoall, coll_op::reduce})
    if (s == coll_op_name(o)) return *op = o, true;
  // The names NCCL and MPI users will type.
  if (s == "sync") return *op = coll_op::barrier, true;
  if (s == "allgather") return *op = coll_op::fcollect, true;
  if (s == "allreduce") return *op = coll_op::reduce, true;
  return false;
}

size_t coll_src_elems(coll_op op, size_t nelems, int npes) {
  return op == coll_op::alltoall ? nelems * npes : op == coll_op::barrier ? 0 : nelems;
}

size_t coll_dst_elems(coll_op op, size_t nelems, int npes) {
  switch (op) {
    case coll_op::fcollect:
    case coll_op::alltoall: return nelems * npes;
    case coll_op::barrier: return 0;
    default: return nelems;
  }
}

double coll_algbw_bytes(coll_op op, size_t bytes, int npes) {
  return op == coll_op::fcollect || op == coll_op::alltoall ? (double)bytes * npes : (double)bytes;
}

double coll_bus_factor(coll_op op, int npes) {
  const double n = npes;
  switch (op) {
    case coll_op::reduce: return 2.0 * (n - 1) / n;
    case coll_op::fcollect:
    case coll_op::alltoall: return (n - 1) / n;
    case coll_op::broadcast: return 1.0;
    default: return 0.0;
  }
}

int coll_warmup(int max_warmup, int iters, double one_ns) {
  return one_ns >= kCollSampleNs ? 0 : max_warmup < iters ? max_warmup : iters;
}

int coll_iters(int max_iters, double one_ns) {
  const double fit = kCollSampleNs / (one_ns > 1 ? one_ns : 1);
  return fit >= max_iters ? max_iters : fit < 1 ? 1 : (int)fit;
}

namespace {

// from and to below 256 (wrapped beyond), the offset modulo a prime: a block landing one block
// off, or a PE's data in another PE's slot, changes the value.
float tagged(int from, int to, size_t i) {
  return (float)(((from & 255) * 256 + (to & 255)) * 256 + (int)(i % 251));
}
// reduce: PE p contributes (p+1)*k, k in 1..8; the sum k*n(n+1)/2 stays exact up to ~2000 PEs.
float summand(int pe, size_t i) { return (float)((pe + 1) * (int)(1 + i % 8)); }

}  // namespace

void coll_fill_source(coll_op op, size_t nelems, int me, int npes, std::vector<float>* src) {
  src->resize(coll_src_elems(op, nelems, npes));
  float* s = src->data();
  switch (op) {
    case coll_op::broadcast:
    case coll_op::fcollect:
      for (size_t i = 0; i < nelems; ++i) s[i] = tagged(me, 0, i);
      break;
    case coll_op::alltoall:
      for (int to = 0; to < npes; ++to)
        for (size_t i = 0; i < nelems; ++i) s[to * nelems + i] = tagged(me, to, i);
      break;
    case coll_op::reduce:
      for (size_t i = 0; i < nelems; ++i) s[i] = summand(me, i);
      break;
    default: break;
  }
}

std::string coll_check(coll_op op, const float* dst, size_t nelems, int me, int npes) {
  if (op == coll_op::barrier || (op == coll_op::broadcast && me == kCollRoot)) return "";
  const size_t n = coll_dst_elems(op, nelems, npes);
  const double pes_sum = (double)npes * (npes + 1) / 2;
  for (size_t j = 0; j < n; ++j) {
    const size_t blk = j / nelems, i = j % nelems;
    float want = 0;
    switch (op) {
      case coll_op::broadcast: want = tagged(kCollRoot, 0, i); break;
      case coll_op::fcollect: want = tagged((int)blk, 0, i); break;
      case coll_op::alltoall: want = tagged((int)blk, me, i); break;
      default: want = (float)((1 + i % 8) * pes_sum); break;
    }
    if (dst[j] != want) {  // exact: every value is an integer a float holds exactly
      char buf[160];
      snprintf(buf, sizeof buf, "element %zu (block %zu, offset %zu) is %.9g, expected %.9g", j, blk, i,
               (double)dst[j], (double)want);
      return buf;
    }
  }
  return "";
}

}  // namespace bench
