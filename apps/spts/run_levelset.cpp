// levelset: level scheduling, the kernel-boundary baseline. Rows are grouped by level (a row's
// level is one more than its dependencies' highest); one kernel per level solves its rows, a
// thread each. Between levels, components other PEs need go out from the host: a kernel packs
// them, the host puts each destination's part into that PE's receive buffer, a barrier, and a
// kernel unpacks what arrived into x. Every PE knows the whole plan, so levels that send nothing
// anywhere skip the exchange and its barrier on every PE alike.
#include <shmemg.h>

#include <algorithm>
#include <string>

#include "hip_check.h"
#include "plan.h"
#include "runs.h"

namespace spts {

namespace {

#if defined(GIO_PLATFORM_HOST)
constexpr int kDefaultBlock = 64;
#else
constexpr int kDefaultBlock = 256;
#endif

template <typename T>
__global__ void solve_level(const int32_t* rows, int count, const int32_t* row_ptr, const int32_t* col,
                            const T* val, const T* b, T* x, int32_t row0, int32_t inject_row) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const int32_t i = rows[t], diag = row_ptr[i + 1] - 1;
  T acc = 0;
  for (int32_t k = row_ptr[i]; k < diag; ++k) acc += val[k] * x[col[k]];
  T xi = (b[i] - acc) / val[diag];
  if (i == inject_row) xi = xi * (T)1.001 + (T)1e-3;  // tests: the check must catch it
  x[row0 + i] = xi;
}

// out[k] = x[idx[k]] (pack) or x[idx[k]] = in[k] (unpack).
template <typename T>
__global__ void pack(const int32_t* idx, int count, const T* x, T* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count) out[t] = x[idx[t]];
}
template <typename T>
__global__ void unpack(const int32_t* idx, int count, const T* in, T* x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count) x[idx[t]] = in[t];
}

// Per level: this PE's rows, what it sends (global rows, grouped by destination) and receives
// (grouped by source), with offsets into the send and receive buffers.
struct level_plan {
  int32_t levels = 0;
  std::vector<int32_t> row_ptr, rows;                 // local rows of each level
  std::vector<int32_t> send_rows, recv_rows;          // global rows, in buffer order
  std::vector<int64_t> send_ptr, recv_ptr;            // per level: range in send_rows / recv_rows
  // per level and destination: count, and offset in the destination's receive buffer
  std::vector<int64_t> send_cnt, send_dst_off;
  std::vector<char> exchange;                         // per level: does any PE send anything
  int64_t send_area = 0, recv_area = 0;               // largest over PEs (symmetric sizes)
};

level_plan make_level_plan(const csr& l, const std::vector<int32_t>& lvl, int32_t levels,
                           const std::vector<int32_t>& bounds, int me) {
  const int npes = (int)bounds.size() - 1;
  level_plan lp;
  lp.levels = levels;
  auto owner = [&](int32_t j) { return (int)(std::upper_bound(bounds.begin(), bounds.end(), j) - bounds.begin()) - 1; };
  // Local rows by level.
  lp.row_ptr.assign(levels + 1, 0);
  for (int32_t i = bounds[me]; i < bounds[me + 1]; ++i) ++lp.row_ptr[lvl[i] + 1];
  for (int32_t v = 0; v < levels; ++v) lp.row_ptr[v + 1] += lp.row_ptr[v];
  lp.rows.resize(lp.row_ptr[levels]);
  {
    std::vector<int32_t> at(lp.row_ptr.begin(), lp.row_ptr.end() - 1);
    for (int32_t i = bounds[me]; i < bounds[me + 1]; ++i) lp.rows[at[lvl[i]]++] = i - bounds[me];
  }
  const std::vector<uint32_t> mask = component_masks(l, bounds);
  // cnt[(v * npes + p) * npes + q]
  std::vector<int64_t> cnt((size_t)levels * npes * npes, 0);
  for (int32_t j = 0; j < l.n; ++j)
    for (uint32_t m = mask[j]; m; m &= m - 1)
      ++cnt[((size_t)lvl[j] * npes + owner(j)) * npes + __builtin_ctz(m)];
  lp.exchange.assign(levels, 0);
  lp.send_cnt.assign((size_t)levels * npes, 0);
  lp.send_dst_off.assign((size_t)levels * npes, 0);
  lp.send_ptr.assign(levels + 1, 0);
  lp.recv_ptr.assign(levels + 1, 0);
  // Receive buffers ordered by (level, source); send buffers by (level, destination).
  std::vector<int64_t> recv_fill(npes, 0), send_fill(npes, 0);
  for (int32_t v = 0; v < levels; ++v) {
    for (int p = 0; p < npes; ++p)
      for (int q = 0; q < npes; ++q) {
        const int64_t c = cnt[((size_t)v * npes + p) * npes + q];
        if (!c) continue;
        lp.exchange[v] = 1;
        if (p == me) {
          lp.send_cnt[(size_t)v * npes + q] = c;
          lp.send_dst_off[(size_t)v * npes + q] = recv_fill[q];
        }
        recv_fill[q] += c;
        send_fill[p] += c;
      }
  }
  lp.send_area = *std::max_element(send_fill.begin(), send_fill.end());
  lp.recv_area = *std::max_element(recv_fill.begin(), recv_fill.end());
  // The rows themselves, in buffer order: sends by (level, destination), receives by (level, source).
  std::vector<std::vector<int32_t>> by_level_dst((size_t)levels * npes), by_level_src((size_t)levels * npes);
  for (int32_t j = 0; j < l.n; ++j) {
    const int p = owner(j);
    for (uint32_t m = mask[j]; m; m &= m - 1) {
      const int q = __builtin_ctz(m);
      if (p == me) by_level_dst[(size_t)lvl[j] * npes + q].push_back(j);
      if (q == me) by_level_src[(size_t)lvl[j] * npes + p].push_back(j);
    }
  }
  for (int32_t v = 0; v < levels; ++v) {
    for (int q = 0; q < npes; ++q) {
      const auto& s = by_level_dst[(size_t)v * npes + q];
      lp.send_rows.insert(lp.send_rows.end(), s.begin(), s.end());
      const auto& r = by_level_src[(size_t)v * npes + q];
      lp.recv_rows.insert(lp.recv_rows.end(), r.begin(), r.end());
    }
    lp.send_ptr[v + 1] = (int64_t)lp.send_rows.size();
    lp.recv_ptr[v + 1] = (int64_t)lp.recv_rows.size();
  }
  return lp;
}

int blocks(int64_t n, int block) { return (int)std::max<int64_t>(1, (n + block - 1) / block); }

}  // namespace

template <typename T>
solve_times run_levelset(const problem& p, const options& o, std::vector<double>* x) {
  const csr& l = *p.l;
  const int32_t r0 = p.row0(), r1 = p.row1(), nloc = r1 - r0;
  const int32_t base = l.row_ptr[r0];
  const int block = o.block ? o.block : kDefaultBlock;
  solve_times t;

  const double p0 = now_s();
  const analysis an = analyze(l);
  const level_plan lp = make_level_plan(l, an.level, an.levels, p.bounds, p.me);
  std::vector<int32_t> rp(nloc + 1);
  for (int32_t i = 0; i <= nloc; ++i) rp[i] = l.row_ptr[r0 + i] - base;
  const int32_t* d_rp = upload<int32_t>(rp);
  const int32_t* d_col = upload<int32_t>(l.col.data() + base, rp[nloc]);
  const T* d_val = upload<T>(l.val.data() + base, rp[nloc]);
  const T* d_b = upload<T>(p.b->data() + r0, nloc);
  const int32_t* d_rows = upload<int32_t>(lp.rows);
  const int32_t* d_send = upload<int32_t>(lp.send_rows);
  const int32_t* d_recv = upload<int32_t>(lp.recv_rows);
  // x spans all rows; components from other PEs are unpacked into it.
  T* d_x = nullptr;
  HIP_CHECK(hipMalloc((void**)&d_x, (size_t)l.n * sizeof(T)));
  const bool multi = p.npes > 1;
  T* sendbuf = multi ? (T*)shmemg_malloc((size_t)std::max<int64_t>(lp.send_area, 1) * sizeof(T)) : nullptr;
  T* recvbuf = multi ? (T*)shmemg_malloc((size_t)std::max<int64_t>(lp.recv_area, 1) * sizeof(T)) : nullptr;
  if (multi && (!sendbuf || !recvbuf)) {
    std::fprintf(stderr, "spts: PE %d: shmemg_malloc for the level exchange failed (GIO_SYMMETRIC_SIZE)\n", p.me);
    shmem_global_exit(2);
  }
  HIP_CHECK(hipDeviceSynchronize());
  t.prep_s = now_s() - p0;

  const int32_t inject = o.inject_error && nloc > 0 ? nloc - 1 : -1;
  int exchanges = 0;
  for (int32_t v = 0; v < lp.levels; ++v) exchanges += lp.exchange[v];
  auto solve = [&]() {
    HIP_CHECK(hipMemset(d_x, 0, (size_t)l.n * sizeof(T)));
    HIP_CHECK(hipDeviceSynchronize());
    if (multi) shmem_barrier_all();
    const double t0 = now_s();
    for (int32_t v = 0; v < lp.levels; ++v) {
      const int count = lp.row_ptr[v + 1] - lp.row_ptr[v];
      if (count)
        hipLaunchKernelGGL(HIP_KERNEL_NAME(solve_level<T>), dim3(blocks(count, block)), dim3(block), 0, 0,
                           d_rows + lp.row_ptr[v], count, d_rp, d_col, d_val, d_b, d_x, r0, inject);
      if (!multi || !lp.exchange[v]) continue;
      const int64_t s0 = lp.send_ptr[v], ns = lp.send_ptr[v + 1] - s0;
      if (ns)
        hipLaunchKernelGGL(HIP_KERNEL_NAME(pack<T>), dim3(blocks(ns, block)), dim3(block), 0, 0, d_send + s0,
                           (int)ns, (const T*)d_x, sendbuf + s0);
      HIP_CHECK(hipDeviceSynchronize());
      int64_t at = s0;
      for (int q = 0; q < p.npes; ++q) {
        const int64_t c = lp.send_cnt[(size_t)v * p.npes + q];
        if (!c) continue;
        shmem_putmem(recvbuf + lp.send_dst_off[(size_t)v * p.npes + q], sendbuf + at, c * sizeof(T), q);
        at += c;
      }
      shmem_barrier_all();  // completes the puts and orders them before every PE's unpack
      const int64_t q0 = lp.recv_ptr[v], nr = lp.recv_ptr[v + 1] - q0;
      if (nr)
        hipLaunchKernelGGL(HIP_KERNEL_NAME(unpack<T>), dim3(blocks(nr, block)), dim3(block), 0, 0, d_recv + q0,
                           (int)nr, (const T*)(recvbuf + q0), d_x);
    }
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    const double dt = now_s() - t0;
    if (multi) shmem_barrier_all();
    return dt;
  };
  for (int r = 0; r < o.warmup; ++r) solve();
  for (int r = 0; r < o.reps; ++r) t.solve_s.push_back(solve());

  std::vector<T> mine(nloc);
  HIP_CHECK(hipMemcpy(mine.data(), d_x + r0, nloc * sizeof(T), hipMemcpyDeviceToHost));
  x->assign(mine.begin(), mine.end());
  t.detail = std::to_string(lp.levels) + " levels, " + std::to_string(exchanges) + " with an exchange, a thread per row, " +
             std::to_string(block) + " threads per work-group";
  for (const void* d : {(const void*)d_rp, (const void*)d_col, (const void*)d_val, (const void*)d_b,
                        (const void*)d_rows, (const void*)d_send, (const void*)d_recv, (const void*)d_x})
    HIP_CHECK(hipFree((void*)d));
  if (multi) {
    shmemg_free(recvbuf);
    shmemg_free(sendbuf);
  }
  return t;
}

template solve_times run_levelset<float>(const problem&, const options&, std::vector<double>*);
template solve_times run_levelset<double>(const problem&, const options&, std::vector<double>*);

}  // namespace spts
