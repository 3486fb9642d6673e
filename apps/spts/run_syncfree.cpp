// gio and single: the sync-free kernels (syncfree.h) on this PE's rows, timed per solve.
#include <shmemg.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>

#include "analysis_dev.h"
#include "hip_check.h"
#include "plan.h"
#include "renumber.h"
#include "renumber_dev.h"
#include "runs.h"
#include "sort_dev.h"
#include "syncfree.h"

namespace spts {

namespace {

#if defined(GIO_PLATFORM_HOST)
constexpr int kDefaultBlock = 64;  // each emulated work-group is an OS thread of fibers
#else
constexpr int kDefaultBlock = 256;
#endif

// A wave per row beats a thread per row when rows are long on average, or when long rows hold
// much of the work: a power-law matrix (rmat, 4M rows, mean 3 off-diagonals, half of them in rows
// of 32 or more) solved in 27-76 ms a thread per row and 3.3-3.5 ms a wave per row on H200
// (apps/spts/tune.sh OUT BUILD wgs), while grids and road graphs (no row of 32) are faster a thread per
// row.
constexpr double kWarpRowLength = 12;   // mean off-diagonals per row
constexpr int32_t kLongRow = 32;        // off-diagonals of a long row
constexpr double kLongShare = 0.25;     // share of the off-diagonals in long rows

// --renumber auto: renumber (tiles at one PE, level order on several) where L has more than
// kDeepLevels levels and rows are solved a thread each. Measured on H200, float
// (apps/spts/measure_deep.sh; apps/spts/README.md has the table): natural-order road 16M (49
// levels) 0.80 ms renumbered against 1.31 ms; the grids in natural order 1.4-5.6x faster; random
// orders (15-23 levels) 4-18 % slower, the permutations of b and x in each solve costing more than
// the order gains; power-law rmat (a wave per row) 2.5x slower.
constexpr int32_t kDeepLevels = 32;

bool use_renumbering(const options& o, const problem& p, bool warp) {
  if (o.renumber != renumber_kind::automatic) return o.renumber != renumber_kind::none;
  return !warp && p.levels > kDeepLevels;
}

// d_row_ptr: L's row pointers on the device, where the share of long rows is counted (one PE: a
// pass over L on the host would be part of the preprocessing); null: counted on the host.
bool use_warp(const options& o, const csr& l, const int32_t* d_row_ptr = nullptr, int grid = 1, int block = 1) {
  if (o.kernel != kernel_kind::automatic) return o.kernel == kernel_kind::warp;
  const int64_t off = l.nnz() - l.n;
  if (l.n == 0 || off == 0) return false;
  if ((double)off / l.n >= kWarpRowLength) return true;
  unsigned long long in_long = 0;
  if (d_row_ptr) {
    unsigned long long* d_sum = nullptr;
    HIP_CHECK(hipMalloc((void**)&d_sum, sizeof(unsigned long long)));
    HIP_CHECK(hipMemset(d_sum, 0, sizeof(unsigned long long)));
    hipLaunchKernelGGL(rn_long_rows, dim3(grid), dim3(block), 0, 0, d_row_ptr, l.n, kLongRow, d_sum);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(&in_long, d_sum, sizeof in_long, hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_sum));
  } else {
    for (int32_t i = 0; i < l.n; ++i) {
      const int32_t r = l.row_ptr[i + 1] - l.row_ptr[i] - 1;
      if (r >= kLongRow) in_long += r;
    }
  }
  return (double)in_long / off >= kLongShare;
}

// L's values (and b) go up in double and become T on the device: for float, a conversion pass
// over every nonzero on the host would be part of the preprocessing. For double the upload is used
// as it is.
template <typename T>
const T* as_type(double* d, int64_t n, int grid, int block) {
  if (std::is_same<T, double>::value || n == 0) return (const T*)d;
  T* out = nullptr;
  HIP_CHECK(hipMalloc((void**)&out, (size_t)n * sizeof(T)));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(rn_convert<T>), dim3(grid), dim3(block), 0, 0, (const double*)d, out, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipFree(d));
  return out;
}

// --analysis compare: the device's levels, order and (tiles) chunks against the host's
// (analyze, level_order, tile_order); the first difference is reported.
bool same_analysis(const csr& l, const device_analysis& da, bool tiles, int32_t width, int32_t depth) {
  const analysis an = analyze(l);
  std::vector<int32_t> order;
  std::vector<int32_t> chunks;
  if (tiles) {
    tiling tl = tile_order(l, width, depth);
    order.swap(tl.new_of);
    chunks.swap(tl.chunk_start);
  } else {
    level_order(l, &order);
  }
  const auto differ = [](const char* what, int64_t at, int64_t dev, int64_t host) {
    std::fprintf(stderr, "spts: PE 0: --analysis compare: the device's %s %lld is %lld, the host's %lld\n", what,
                 (long long)at, (long long)dev, (long long)host);
    return false;
  };
  if (da.levels != an.levels) {
    std::fprintf(stderr, "spts: PE 0: --analysis compare: the device found %d levels, the host %d\n", (int)da.levels,
                 (int)an.levels);
    return false;
  }
  for (int32_t i = 0; i < l.n; ++i) {
    if (da.level[i] != an.level[i]) return differ("level of row", i, da.level[i], an.level[i]);
    if (da.order[i] != order[i]) return differ("new index of row", i, da.order[i], order[i]);
  }
  if (tiles) {
    if (da.chunks.size() != chunks.size()) {
      std::fprintf(stderr, "spts: PE 0: --analysis compare: the device made %zu chunks, the host %zu\n",
                   da.chunks.size() - 1, chunks.size() - 1);
      return false;
    }
    for (size_t c = 0; c < chunks.size(); ++c)
      if (da.chunks[c] != chunks[c]) return differ("start of chunk", (int64_t)c, da.chunks[c], chunks[c]);
  }
  return true;
}

template <typename T, int X>
void launch(bool warp, int grid, int block, const syncfree_args<T>& a) {
  if (warp) hipLaunchKernelGGL(HIP_KERNEL_NAME(solve_warp<T, X>), dim3(grid), dim3(block), 0, 0, a);
  else hipLaunchKernelGGL(HIP_KERNEL_NAME(solve_thread<T, X>), dim3(grid), dim3(block), 0, 0, a);
}

}  // namespace

template <typename T>
solve_times run_syncfree(const problem& pin, const options& o, std::vector<double>* x) {
  const bool dist = distributed_syncfree(o.var);
  exchange used = o.xchg;  // --exchange auto is resolved once xw exists (below)
  int xk = XCHG_NONE;
  solve_times t;

  hipDeviceProp_t prop;
  int dev = 0;
  HIP_CHECK(hipGetDevice(&dev));
  HIP_CHECK(hipGetDeviceProperties(&prop, dev));

  // Preprocessing (timed in prep_s, the uploads included): the level-ordered renumbering. At one
  // PE the device finds the order (analysis_dev.h; --analysis host: the host's level_order or
  // tile_order, uploaded) and makes the renumbered L (renumber_dev.h); each timed solve then
  // gathers b into the new order and scatters x back, so it takes and gives L's order. On several
  // PEs the host makes the renumbered L (every PE needs the whole of it for the exchange plan),
  // which the solve then sees as its L, b and PE blocks; x comes back in the new numbering with
  // each entry's original row.
  const double p0 = now_s();
  // A renumbered L has L's rows, so the kernel chosen for L holds for it. At one PE it is chosen
  // once L is on the device (below).
  bool warp = pin.npes > 1 && use_warp(o, *pin.l);
  bool renum = pin.npes > 1 && use_renumbering(o, pin, warp);
  // Several PEs: auto keeps each PE's block of L's rows (a chain crosses PEs at most P - 1 times,
  // where the level split takes a hop between PEs a level on a natural-order grid). On two H200s,
  // float, apps/spts/scaling.sh -p 2 -v gio -s "grid2d:rows=4000000@natural ..." (docs/performance.md,
  // SpTS on two H200s): blocks 4.67 / 0.80 / 9.45 / 1.32 ms on grid2d 4M / grid3d 4M / grid2d 16M /
  // grid3d 16M against 5.57 / 0.96 / 11.22 / 1.54 ms split by level.
  const bool in_blocks =
      pin.npes > 1 && (o.renumber == renumber_kind::blocks || o.renumber == renumber_kind::automatic);
  renumbering rn;
  std::vector<double> b_new;
  std::vector<int32_t> new_of;
  problem p = pin;
  double renumber_s = 0;
  if (renum) {  // several PEs
    rn = in_blocks ? renumber_in_blocks(*pin.l, pin.bounds) : renumber_by_level(*pin.l, pin.npes);
    b_new.resize((size_t)rn.l.n);
    for (int32_t i = 0; i < rn.l.n; ++i) b_new[i] = (*pin.b)[rn.old_of[i]];
    p.l = &rn.l;
    p.b = &b_new;
    p.bounds = rn.bounds;
    renumber_s = now_s() - p0;
  }
  const csr& l = *p.l;
  const int32_t r0 = p.row0(), r1 = p.row1(), nloc = r1 - r0;
  const int32_t base = l.row_ptr[r0];
  const int ws = prop.warpSize;
  const int block = o.block ? o.block : kDefaultBlock;
  if (block % ws || block > kMaxBlock) {
    std::fprintf(stderr, "spts: --block %d must be a multiple of the wave size (%d) and at most %d\n", block, ws,
                 kMaxBlock);
    shmem_global_exit(2);
  }

  // This PE's row pointers from 0 (at one PE, L's own: no host copy).
  std::vector<int32_t> rp_shifted;
  if (r0 != 0) {
    rp_shifted.resize((size_t)nloc + 1);
    for (int32_t i = 0; i <= nloc; ++i) rp_shifted[i] = l.row_ptr[r0 + i] - base;
  }
  const int32_t* rp = r0 != 0 ? rp_shifted.data() : l.row_ptr.data();
  const int aux_grid = std::max(1, std::min((nloc + block - 1) / block, 8 * std::max(prop.multiProcessorCount, 1)));
  syncfree_args<T> a = {};
  a.row_ptr = upload<int32_t>(rp, (size_t)nloc + 1);
  a.col = upload<int32_t>(l.col.data() + base, rp[nloc]);
  double* val_up = upload<double>(l.val.data() + base, rp[nloc]);
  a.b = as_type<T>(upload<double>(p.b->data() + r0, nloc), nloc, aux_grid, block);
  HIP_CHECK(hipDeviceSynchronize());
  const double upload_s = now_s() - p0;
  if (pin.npes == 1) {
    warp = use_warp(o, l, a.row_ptr, aux_grid, block);
    renum = use_renumbering(o, pin, warp);
  }
  const bool dev_renum = renum && pin.npes == 1;
  const int rows_per_wg = warp ? block / ws : block;
  // dev_renum: L as stored is on the device; the renumbered copy replaces it. b_orig keeps b in
  // L's order (each solve gathers it), x_orig receives x in L's order.
  if (!dev_renum) a.val = as_type<T>(val_up, rp[nloc], aux_grid, block);
  int32_t* old_of = nullptr;
  T* b_orig = nullptr;
  T* x_orig = nullptr;
  int grid = std::max(1, (nloc + rows_per_wg - 1) / rows_per_wg);
  const bool tiles =
      dev_renum && !warp && (o.renumber == renumber_kind::tiles || o.renumber == renumber_kind::automatic);
  tiling tl;
  device_analysis da;
  const bool on_device = dev_renum && o.analysis != analysis_where::host;
  int32_t* d_new_of = nullptr;
  std::vector<void*> spent;  // device buffers prep no longer needs, freed after it
  const double a0 = now_s();
  if (on_device) {
    device_analysis_params prm;
    prm.block = block;
    prm.grid = aux_grid;
    prm.rows_per_thread = o.analysis_rows;
    prm.backoff_ns = (unsigned)o.analysis_backoff_ns;
    prm.tiles = tiles;
    prm.width = ws;
    prm.depth = block / ws;
    prm.timeout_ns = (unsigned long long)(o.timeout_s * 1e9);
    prm.inject = o.inject_analysis;
    prm.keep = o.analysis == analysis_where::compare;
    da = analyze_on_device(a.row_ptr, a.col, nloc, prm);
    d_new_of = da.new_of;
    rn.levels = da.levels;
    if (tiles) {
      a.chunk_start = da.chunk_start;
      a.nchunks = da.nchunks;
      grid = std::max(1, (int)a.nchunks);
      tl.bands = da.bands;
      tl.tiled_bands = da.tiled_bands;
    }
  } else if (tiles) {  // a wave's width of positions by block / wave levels: a wave per level of a tile
    tl = tile_order(l, ws, block / ws);
    new_of.swap(tl.new_of);
    rn.levels = tl.levels;
    a.chunk_start = upload<int32_t>(tl.chunk_start);
    a.nchunks = (unsigned)(tl.chunk_start.size() - 1);
    grid = std::max(1, (int)a.nchunks);
  } else if (dev_renum) {
    rn.levels = level_order(l, &new_of);
  }
  if (dev_renum && !on_device) d_new_of = upload<int32_t>(new_of);
  HIP_CHECK(hipDeviceSynchronize());
  const bool compare = on_device && o.analysis == analysis_where::compare;
  const double analysis_s = now_s() - a0, c0 = now_s();
  if (dev_renum) {
    const int32_t n = nloc;
    int32_t *rp_new = nullptr, *col_new = nullptr;
    T* val_new = nullptr;
    HIP_CHECK(hipMalloc((void**)&old_of, (size_t)n * sizeof(int32_t)));
    // The row pointers' scan works in the words after them (no allocation of its own).
    const int64_t scan_words = scan_scratch_words((int64_t)n + 1, block);
    HIP_CHECK(hipMalloc((void**)&rp_new, ((size_t)n + 1 + (size_t)scan_words) * sizeof(int32_t)));
    HIP_CHECK(hipMalloc((void**)&col_new, (size_t)rp[n] * sizeof(int32_t)));
    HIP_CHECK(hipMalloc((void**)&val_new, (size_t)rp[n] * sizeof(T)));
    HIP_CHECK(hipMalloc((void**)&x_orig, (size_t)n * sizeof(T)));
    hipLaunchKernelGGL(rn_rows, dim3(aux_grid), dim3(block), 0, 0, a.row_ptr, (const int32_t*)d_new_of, old_of,
                       rp_new, n);
    scan_exclusive_dev(rp_new, (int64_t)n + 1, block, rp_new + n + 1);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(rn_copy<T>), dim3(aux_grid), dim3(block), 0, 0, a.row_ptr, a.col,
                       (const double*)val_up,
                       (const int32_t*)old_of, (const int32_t*)d_new_of, (const int32_t*)rp_new, col_new, val_new, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    // L as uploaded, the order and the analysis's scratch are freed once prep is timed: nothing
    // waits on the frees (each a driver call that also waits for the device), and the vendor's
    // prep frees nothing either. --analysis compare reads new_of and the levels back then.
    spent.assign({(void*)a.row_ptr, (void*)a.col, (void*)val_up});
    if (!on_device) spent.push_back(d_new_of);
    a.row_ptr = rp_new;
    a.col = col_new;
    a.val = val_new;
    b_orig = (T*)a.b;
    T* b_new_dev = nullptr;
    HIP_CHECK(hipMalloc((void**)&b_new_dev, (size_t)n * sizeof(T)));
    a.b = b_new_dev;
  }
  const double copy_s = now_s() - c0;
  a.row0 = r0;
  a.nloc = nloc;
  a.me = p.me;
  a.npes = p.npes;
  a.timeout_ns = (unsigned long long)(o.timeout_s * 1e9);
  a.backoff_ns = (unsigned)o.backoff_ns;
  a.inject_row = o.inject_error && nloc > 0 ? nloc - 1 : -1;
  a.chunk_shared = o.chunk_shared ? 1 : 0;
  a.poll_batch = std::min(std::max(o.poll_batch, 1), kPollBatch);
  HIP_CHECK(hipMalloc((void**)&a.next_chunk, sizeof(unsigned)));
  const size_t xw_bytes = (size_t)l.n * sizeof(uint64_t);
  exchange_plan plan;
  std::vector<unsigned long long> head0;
  if (dist) {
    a.xw = (uint64_t*)shmemg_malloc(xw_bytes);
    // Every peer's xw as mapped here (shmem_ptr), and the first peer that is not (-1: none).
    std::vector<uint64_t*> peers(p.npes, nullptr);
    int unmapped = -1;
    for (int pe = 0; pe < p.npes; ++pe) {
      if (pe == p.me || !a.xw) continue;
      peers[pe] = (uint64_t*)shmem_ptr(a.xw, pe);
      if (!peers[pe] && unmapped < 0) unmapped = pe;
    }
    // auto: where every peer is mapped, the store exchange: it leaves no GIO call in the kernel, so
    // the kernel keeps the 25 registers of the kernel without sends (8 work-groups of 256 per SM,
    // where a GIO call's registers hold the signal and atomic kernels at 64, 4 per SM). Road 14M on
    // H200s (apps/spts/scaling.sh, docs/performance.md): store 0.435 / 0.248 ms at 2 / 4 PEs in natural order,
    // atomic 0.977 / 0.561; random 0.693 / 1.105 against 0.804 / 1.288. Behind a NIC the signal
    // exchange: one write, where an atomic set is a compare-and-swap loop (mlx5 has no atomic write).
    if (used == exchange::automatic) used = unmapped < 0 ? exchange::store : exchange::signal;
    xk = used == exchange::signal ? XCHG_SIGNAL
       : used == exchange::atomic ? XCHG_ATOMIC
       : used == exchange::store  ? XCHG_STORE
                                  : XCHG_QUEUE;
    if (used == exchange::store) {
      if (unmapped >= 0) {
        std::fprintf(stderr, "spts: --exchange store needs every PE's memory load/store reachable from every "
                             "other (shmem_ptr); PE %d's is not from PE %d (GIO_TRANSPORT, or use another "
                             "--exchange)\n", unmapped, p.me);
        shmem_global_exit(2);
      }
      a.peer_xw = upload<uint64_t*>(peers);
    }
    plan = make_exchange_plan(l, p.bounds, p.me);
    a.send_mask = upload<uint32_t>(plan.send_mask);
    // A PE that sends nothing (one PE, or the last block of a lower-triangular L) runs the kernel
    // without send paths: their registers would cost it occupancy for nothing. It still receives
    // signals; a queue is drained by the waiting lanes, so receivers of queues keep the queue kernel.
    int64_t recvs = 0;
    for (int64_t c : plan.recv_cnt) recvs += c;
    if (plan.sends == 0 && (xk != XCHG_QUEUE || recvs == 0)) xk = XCHG_NONE;
    if (used == exchange::queue) {
      const size_t area = (size_t)std::max<int64_t>(plan.area, 1);
      a.recv = (queue_entry*)shmemg_malloc(area * sizeof(queue_entry));
      a.recv_hdr = (uint64_t*)shmemg_malloc(area * sizeof(uint64_t));
      std::vector<long long> end(p.npes);
      for (int s = 0; s < p.npes; ++s) {
        end[s] = plan.recv_off[s] + plan.recv_cnt[s];
        head0.push_back((unsigned long long)plan.recv_off[s]);
      }
      a.recv_end = upload<long long>(end);
      a.recv_head = upload<unsigned long long>(head0);
      a.send_off = upload<long long>(plan.send_off);
      a.send_next = upload<unsigned long long>(std::vector<unsigned long long>(p.npes, 0));
    }
    if (!a.xw || (used == exchange::queue && (!a.recv || !a.recv_hdr))) {
      std::fprintf(stderr, "spts: PE %d: shmemg_malloc of %zu bytes for the solve failed (GIO_SYMMETRIC_SIZE)\n",
                   p.me, xw_bytes);
      shmem_global_exit(2);
    }
  } else {
    HIP_CHECK(hipMalloc((void**)&a.xw, xw_bytes));
  }
  // --rows senders or level: this PE's local rows in the order they enter the device (a.order).
  std::vector<int32_t> rows_in_order;
  int64_t first_rows = -1;  // --rows senders: how many rows go first
  if (o.rows == row_order::senders && dist) {
    // The rows whose components other PEs wait for, closed under this PE's rows they depend on
    // (L is lower triangular: columns below the row). Taking these first, in natural order, then
    // the rest, is still a topological order. In natural (spatial) order the rows another PE
    // waits for are this PE's last ones, which natural order takes last; but on 2 H200 (road, 14M
    // rows per PE) taking them first left the solve at 1.94 ms against 1.89 (random order: 1.55
    // against 1.66), so the PEs do not simply run one after the other.
    std::vector<char> first(nloc, 0);
    std::vector<int32_t> stack;
    for (int32_t i = 0; i < nloc; ++i)
      if (plan.send_mask[i]) first[i] = 1, stack.push_back(i);
    while (!stack.empty()) {
      const int32_t i = stack.back();
      stack.pop_back();
      for (int32_t k = l.row_ptr[r0 + i]; k < l.row_ptr[r0 + i + 1]; ++k) {
        const int32_t j = l.col[k] - r0;
        if (j >= 0 && j < i && !first[j]) first[j] = 1, stack.push_back(j);
      }
    }
    rows_in_order.reserve(nloc);
    for (int32_t i = 0; i < nloc; ++i)
      if (first[i]) rows_in_order.push_back(i);
    first_rows = (int64_t)rows_in_order.size();
    for (int32_t i = 0; i < nloc; ++i)
      if (!first[i]) rows_in_order.push_back(i);
    a.order = upload<int32_t>(rows_in_order);
  }
  if (o.rows == row_order::level && !renum) {  // this PE's rows sorted by level (stable: ascending within a level)
    const analysis an = analyze(l);
    std::vector<int32_t> count(an.levels + 1, 0);
    for (int32_t i = r0; i < r1; ++i) ++count[an.level[i] + 1];
    for (int32_t v = 0; v < an.levels; ++v) count[v + 1] += count[v];
    rows_in_order.resize(nloc);
    for (int32_t i = r0; i < r1; ++i) rows_in_order[count[an.level[i]]++] = i - r0;
    a.order = upload<int32_t>(rows_in_order);
  }
  HIP_CHECK(hipDeviceSynchronize());
  t.prep_s = now_s() - p0;
  for (void* q : spent) HIP_CHECK(hipFree(q));
  if (compare) fetch_analysis(&da, nloc);
  if (on_device) free_analysis(&da);
  if (compare) t.analysis_differs = !same_analysis(l, da, tiles, ws, block / ws);

  // own_only (--probe-remote-ready): only this PE's rows go back to kPending; the words other PEs
  // sent in the solve before keep their values, so no row waits on another PE, while this PE's
  // sends still go out. The peers' resets never touch this PE's rows in their copies, and the
  // values sent again are the ones already there.
  auto solve = [&](bool own_only) {
    if (own_only) HIP_CHECK(hipMemset(a.xw + r0, 0xff, (size_t)nloc * sizeof(uint64_t)));
    else HIP_CHECK(hipMemset(a.xw, 0xff, xw_bytes));  // every word kPending
    HIP_CHECK(hipMemset(a.next_chunk, 0, sizeof(unsigned)));
    if (xk == XCHG_QUEUE) {
      HIP_CHECK(hipMemset(a.recv_hdr, 0, (size_t)std::max<int64_t>(plan.area, 1) * sizeof(uint64_t)));
      HIP_CHECK(hipMemcpy(a.recv_head, head0.data(), head0.size() * sizeof(head0[0]), hipMemcpyHostToDevice));
      HIP_CHECK(hipMemset(a.send_next, 0, p.npes * sizeof(unsigned long long)));
    }
    HIP_CHECK(hipDeviceSynchronize());
    if (dist) shmem_barrier_all();  // no PE's components arrive before this PE's reset
    const double t0 = now_s();
    if (dev_renum)
      hipLaunchKernelGGL(HIP_KERNEL_NAME(rn_gather<T>), dim3(aux_grid), dim3(block), 0, 0, (const T*)b_orig,
                         (const int32_t*)old_of, (T*)a.b, nloc);
    if (xk == XCHG_NONE) launch<T, XCHG_NONE>(warp, grid, block, a);
    else if (xk == XCHG_SIGNAL) launch<T, XCHG_SIGNAL>(warp, grid, block, a);
    else if (xk == XCHG_ATOMIC) launch<T, XCHG_ATOMIC>(warp, grid, block, a);
    else if (xk == XCHG_STORE) launch<T, XCHG_STORE>(warp, grid, block, a);
    else launch<T, XCHG_QUEUE>(warp, grid, block, a);
    if (dev_renum)
      hipLaunchKernelGGL(HIP_KERNEL_NAME(rn_scatter<T>), dim3(aux_grid), dim3(block), 0, 0, (const uint64_t*)a.xw,
                         (const int32_t*)old_of, x_orig, nloc);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    const double dt = now_s() - t0;
    if (dist) shmem_barrier_all();  // every PE's sends are complete before the next reset
    return dt;
  };
  for (int r = 0; r < o.warmup; ++r) solve(false);
  for (int r = 0; r < o.reps; ++r) t.solve_s.push_back(solve(false));
  if (o.probe_ready && dist)
    for (int r = 0; r < o.reps; ++r) t.ready_s.push_back(solve(true));

  x->resize(nloc);
  if (dev_renum) {  // x in L's order
    std::vector<T> xs(nloc);
    HIP_CHECK(hipMemcpy(xs.data(), x_orig, nloc * sizeof(T), hipMemcpyDeviceToHost));
    for (int32_t i = 0; i < nloc; ++i) (*x)[i] = (double)xs[i];
  } else {
    std::vector<uint64_t> words(nloc);
    HIP_CHECK(hipMemcpy(words.data(), a.xw + r0, nloc * sizeof(uint64_t), hipMemcpyDeviceToHost));
    for (int32_t i = 0; i < nloc; ++i) (*x)[i] = (double)from_word<T>(words[i]);
  }
  t.by_level = renum;
  t.renumbered = renum && !dev_renum;
  if (t.renumbered) t.rows.assign(rn.old_of.begin() + r0, rn.old_of.begin() + r1);

  t.detail = std::string(warp ? "a wave per row" : "a thread per row") + ", " + std::to_string(grid) +
             " work-groups x " + std::to_string(block) + (o.rows == row_order::level && !renum ? ", rows by level"
              : first_rows >= 0 ? ", senders' rows first (" + std::to_string(first_rows) + " of " + std::to_string(nloc) + ")"
                                : renum ? ", rows in level order" : ", rows in natural order") +
             (warp ? "" : o.chunk_shared ? ", a work-group's own rows through shared memory" : ", every dependency through global memory") +
             (warp ? "" : ", " + std::to_string(a.poll_batch) + " dependency words a poll");
  const auto ms = [](double sec) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", sec * 1e3);
    return std::string(buf);
  };
  if (dev_renum) {
    t.prep.upload_s = upload_s;
    t.prep.analysis_s = analysis_s;
    t.prep.copy_s = copy_s;
  }
  std::string phases;
  if (on_device) {
    const analysis_phases& ph = da.phases;
    t.prep.setup_s = ph.setup_s;
    t.prep.levels_s = ph.levels_s;
    t.prep.sort_s = ph.sort_s;
    t.prep.order_s = ph.order_s;
    if (tiles) t.prep.tiles_s = ph.tiles_s;
    phases = " (arena " + ms(ph.setup_s) + ", levels " + ms(ph.levels_s) + ", sort " + ms(ph.sort_s) + ", order " +
             ms(ph.order_s) + (tiles ? ", tiles " + ms(ph.tiles_s) : std::string()) + ")";
  }
  if (renum)
    t.detail += std::string(", renumbered by level") +
                (in_blocks && !dev_renum ? " in L's blocks" : "") + " (" +
                std::to_string(rn.levels) + " levels, " + std::to_string(nloc) +
                " rows here; " +
                (dev_renum ? "prep: uploads " + ms(upload_s) + " ms, analysis on the " + (on_device ? "device " : "host ") +
                                 ms(analysis_s) + " ms" + phases + ", permuted copy on the device " + ms(copy_s) +
                                 " ms; each solve gathers b and scatters x)"
                           : ms(renumber_s) + " ms of the prep, on the host)") +
                (tiles ? ", tiles of " + std::to_string(ws) + " positions x " + std::to_string(block / ws) + " levels in " +
                             std::to_string(tl.tiled_bands) + " of " + std::to_string(tl.bands) + " bands"
                       : "");
  if (dist) t.exchange = exchange_name(used);
  if (dist) t.detail += std::string(", exchange ") + exchange_name(used) + ", " + std::to_string(plan.sends) +
                        " components sent" + (xk == XCHG_NONE ? " (so the kernel without send paths)" : "");
  HIP_CHECK(hipFree((void*)a.row_ptr));
  HIP_CHECK(hipFree((void*)a.col));
  HIP_CHECK(hipFree((void*)a.val));
  HIP_CHECK(hipFree((void*)a.b));
  HIP_CHECK(hipFree(old_of));
  HIP_CHECK(hipFree((void*)a.chunk_start));
  HIP_CHECK(hipFree(b_orig));
  HIP_CHECK(hipFree(x_orig));
  HIP_CHECK(hipFree(a.next_chunk));
  HIP_CHECK(hipFree((void*)a.order));
  if (dist) {
    HIP_CHECK(hipFree((void*)a.send_mask));
    HIP_CHECK(hipFree((void*)a.peer_xw));
    if (used == exchange::queue) {
      shmemg_free(a.recv_hdr);
      shmemg_free(a.recv);
      HIP_CHECK(hipFree((void*)a.recv_end));
      HIP_CHECK(hipFree(a.recv_head));
      HIP_CHECK(hipFree((void*)a.send_off));
      HIP_CHECK(hipFree(a.send_next));
    }
    shmemg_free(a.xw);
  } else {
    HIP_CHECK(hipFree(a.xw));
  }
  return t;
}

template solve_times run_syncfree<float>(const problem&, const options&, std::vector<double>*);
template solve_times run_syncfree<double>(const problem&, const options&, std::vector<double>*);

}  // namespace spts
