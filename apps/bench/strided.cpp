// gio-bench strided: Pearson's strided-transfer benchmark (the GPU MPI_Pack study). A region of
// --region bytes (1 MiB) of a cube of --cube^3 bytes (1024^3), in every shape x*y*z = region with
// x, y, z powers of two up to the edge: x contiguous bytes per row, y rows (the edge apart), z
// planes (edge^2 apart). PE A puts the region of its source cube into the same place of PE B's
// destination cube (A = B with one PE: into its own second cube), by each method:
//   per_block  one thread-scope shmem_putmem_nbi per row, rows dealt to every thread of the grid
//   gio        shmemx_putmem_subarray_wg (GIO's strided path), each work-group a share of the
//              planes (or rows, with fewer planes than work-groups)
//   memcpy3d   cudaMemcpy3DAsync / hipMemcpy3DAsync into the peer's mapped heap (GPU platforms,
//              p2p peers only): the copy engines' strided copy
//   pack_put   the GPU MPI_Pack pipeline by hand: A's work-groups pack their share of the rows into a
//              contiguous staging buffer and put it with a signal into B's staging buffer; B's
//              work-groups (a kernel of their own) unpack it into the cube and acknowledge, so A may
//              reuse B's staging for the next transfer. Timed on A, acknowledgements included. With
//              A = B one kernel does it all: each work-group unpacks the rows it put, after a quiet
//   bound      the same number of bytes as one contiguous put (shmemx_putmem_wg split over the
//              work-groups): what any method of moving the region can hope for
// Each (shape, method) first runs once untimed; B then checks every byte of its region and the
// byte after each row (still zero), and aborts the job on a mismatch. Then --reps samples, each a
// kernel (or stream) of --iters back-to-back transfers between two events; the median is reported.
#include <cstdio>
#include <vector>

#include "harness.h"

namespace bench {
namespace {

enum method_t { M_PER_BLOCK, M_GIO, M_PACK_PUT, M_MEMCPY3D, M_BOUND, M_COUNT };
const char* const kMethod[] = {"per_block", "gio", "pack_put", "memcpy3d", "bound"};

struct shape3 {
  size_t x, y, z, e;  // row bytes, rows, planes, cube edge
  __host__ __device__ size_t row_off(size_t r) const { return (r % y) * e + (r / y) * e * e; }
};

// Never 0, so a byte that was not written shows.
__host__ __device__ inline uint8_t src_byte(size_t o) {
  return (uint8_t)(((o * 131u) ^ (o >> 9) * 7u ^ (o >> 19) * 13u) % 255u + 1u);
}

__global__ void fill_kernel(uint8_t* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = src_byte(i);
}

__global__ void per_block_kernel(uint8_t* dst, const uint8_t* src, shape3 s, int pe, int iters) {
  const size_t rows = s.y * s.z, nt = (size_t)gridDim.x * blockDim.x;
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (int it = 0; it < iters; ++it)
    for (size_t r = tid; r < rows; r += nt) {
      const size_t o = s.row_off(r);
      shmem_putmem_nbi(dst + o, src + o, s.x, pe);
    }
  shmem_quiet();
}

__global__ void gio_kernel(uint8_t* dst, const uint8_t* src, shape3 s, int pe, int iters) {
  const ptrdiff_t st[3] = {1, (ptrdiff_t)s.e, (ptrdiff_t)(s.e * s.e)};
  size_t counts[3] = {s.x, s.y, s.z};
  const int split = s.z >= gridDim.x ? 2 : s.y >= gridDim.x ? 1 : 0;
  size_t off = 0;
  if (split) {
    const size_t n = counts[split], per = (n + gridDim.x - 1) / gridDim.x, lo = blockIdx.x * per;
    if (lo >= n) return;
    counts[split] = n - lo < per ? n - lo : per;
    off = lo * (size_t)st[split];
  } else if (blockIdx.x) {
    return;  // fewer rows and planes than work-groups: work-group 0 moves it all
  }
  for (int it = 0; it < iters; ++it) shmemx_putmem_subarray_wg(dst + off, st, src + off, st, counts, 3, 1, pe);
  if (threadIdx.x == 0) shmem_quiet();
}

__global__ void bound_kernel(uint8_t* dst, const uint8_t* src, size_t n, int pe, int iters) {
  const size_t per = (n + gridDim.x - 1) / gridDim.x, lo = blockIdx.x * per;
  if (lo >= n) return;
  const size_t len = n - lo < per ? n - lo : per;
  for (int it = 0; it < iters; ++it) shmemx_putmem_nbi_wg(dst + lo, src + lo, len, pe);
  if (threadIdx.x == 0) shmem_quiet();
}

// Rows [r0, r1) of the region are work-group g's share in pack_put.
struct rows_share {
  size_t r0, r1;
  __device__ rows_share(const shape3& s) {
    const size_t rows = s.y * s.z, per = (rows + gridDim.x - 1) / gridDim.x;
    r0 = blockIdx.x * per < rows ? blockIdx.x * per : rows;
    r1 = r0 + per < rows ? r0 + per : rows;
  }
};

// Copies the share's rows between the cube and the contiguous staging buffer (pack: cube ->
// staging), with the widest word the row length allows, every thread of the work-group.
template <typename W>
__device__ void pack_rows(uint8_t* stage, uint8_t* cube, const shape3& s, const rows_share& sh, bool pack) {
  const size_t per_row = s.x / sizeof(W), n = (sh.r1 - sh.r0) * per_row;
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
    const size_t r = sh.r0 + i / per_row, k = i % per_row;
    W* c = (W*)(cube + s.row_off(r)) + k;
    W* t = (W*)(stage + r * s.x) + k;
    if (pack) *t = *c;
    else *c = *t;
  }
}
struct alignas(16) word16 {
  unsigned long long a, b;
};
__device__ void pack_share(uint8_t* stage, uint8_t* cube, const shape3& s, const rows_share& sh, bool pack) {
  if (s.x % 16 == 0) pack_rows<word16>(stage, cube, s, sh, pack);
  else if (s.x % 8 == 0) pack_rows<unsigned long long>(stage, cube, s, sh, pack);
  else if (s.x % 4 == 0) pack_rows<unsigned int>(stage, cube, s, sh, pack);
  else pack_rows<uint8_t>(stage, cube, s, sh, pack);
}

// sig (on B) counts the work-groups' puts that landed, ack (on A) B's work-groups done unpacking.
__global__ void pack_put_kernel(uint8_t* stage_a, uint8_t* stage_b, const uint8_t* src, uint8_t* dst, shape3 s,
                                uint64_t* sig, uint64_t* ack, int pe, int iters, bool self) {
  const rows_share sh(s);
  if (self) {
    for (int it = 0; it < iters; ++it) {
      pack_share(stage_a, (uint8_t*)src, s, sh, true);
      shmemx_putmem_wg(stage_b + sh.r0 * s.x, stage_a + sh.r0 * s.x, (sh.r1 - sh.r0) * s.x, pe);
      if (threadIdx.x == 0) shmem_quiet();
      __syncthreads();
      pack_share(stage_b, dst, s, sh, false);
      __syncthreads();
    }
    return;
  }
  for (int it = 0; it < iters; ++it) {
    if (it > 0) {  // B must have emptied its staging buffer
      if (threadIdx.x == 0) shmem_signal_wait_until(ack, SHMEM_CMP_GE, (uint64_t)gridDim.x * it);
      __syncthreads();
    }
    pack_share(stage_a, (uint8_t*)src, s, sh, true);
    __syncthreads();
    shmemx_putmem_signal_wg(stage_b + sh.r0 * s.x, stage_a + sh.r0 * s.x, (sh.r1 - sh.r0) * s.x, sig, 1,
                            SHMEM_SIGNAL_ADD, pe);
  }
  if (threadIdx.x == 0) shmem_signal_wait_until(ack, SHMEM_CMP_GE, (uint64_t)gridDim.x * iters);
}
__global__ void unpack_kernel(uint8_t* stage_b, uint8_t* dst, shape3 s, uint64_t* sig, uint64_t* ack, int pe_a,
                              int iters) {
  const rows_share sh(s);
  for (int it = 0; it < iters; ++it) {
    if (threadIdx.x == 0) shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)gridDim.x * (it + 1));
    __syncthreads();
    pack_share(stage_b, dst, s, sh, false);
    __syncthreads();  // every load from the staging buffer is done before it is handed back
    if (threadIdx.x == 0) shmem_signal_add(ack, 1, pe_a);
  }
}

// B's check: every byte of the region, and the byte after each row (the gap must stay 0).
__global__ void check_kernel(const uint8_t* dst, shape3 s, bool contiguous, unsigned long long* bad) {
  const size_t n = s.x * s.y * s.z, nt = (size_t)gridDim.x * blockDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += nt) {
    const size_t o = contiguous ? i : s.row_off(i / s.x) + i % s.x;
    if (dst[o] != src_byte(o)) atomicAdd(bad, 1ull);
    if (!contiguous && i % s.x == s.x - 1 && s.x < s.e && dst[o + 1] != 0) atomicAdd(bad, 1ull);
  }
}

size_t extent(const shape3& s) { return s.row_off(s.y * s.z - 1) + s.x + (s.x < s.e ? 1 : 0); }

#if defined(GIO_PLATFORM_CUDA)
void memcpy3d(void* dst, const void* src, const shape3& s, hipStream_t st) {
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr((void*)src, s.e, s.e, s.e);
  p.dstPtr = make_cudaPitchedPtr(dst, s.e, s.e, s.e);
  p.extent = make_cudaExtent(s.x, s.y, s.z);
  p.kind = cudaMemcpyDefault;
  hip_check(cudaMemcpy3DAsync(&p, st), "cudaMemcpy3DAsync");
}
#define GIO_BENCH_HAS_3D 1
#elif defined(GIO_PLATFORM_HIP)
void memcpy3d(void* dst, const void* src, const shape3& s, hipStream_t st) {
  hipMemcpy3DParms p = {};
  p.srcPtr = make_hipPitchedPtr((void*)src, s.e, s.e, s.e);
  p.dstPtr = make_hipPitchedPtr(dst, s.e, s.e, s.e);
  p.extent = make_hipExtent(s.x, s.y, s.z);
  p.kind = hipMemcpyDefault;
  hip_check(hipMemcpy3DAsync(&p, st), "hipMemcpy3DAsync");
}
#define GIO_BENCH_HAS_3D 1
#else
#define GIO_BENCH_HAS_3D 0
#endif

struct bufs {
  uint8_t* src;
  uint8_t* dst;
  void* dst_mapped;  // dst on the peer, as this process addresses it (memcpy3d), or nullptr
  uint8_t* stage_a;  // pack_put: A packs here
  uint8_t* stage_b;  // ... and puts here on B
  uint64_t* sigs;    // pack_put: [0] landed puts (on B), [1] acknowledgements (on A)
  unsigned long long* bad;
  hipStream_t stream, stream_b;  // stream_b: B's unpack kernel (A and B are one PE with --pair A,A)
};

// B's half of pack_put, started before A's (with one PE, A's launch waits for its own end).
void launch_b(method_t m, const bufs& b, const shape3& s, int wgs, int iters) {
  if (m != M_PACK_PUT || !is_b() || pair_is_self()) return;
  hipLaunchKernelGGL(unpack_kernel, dim3(wgs), dim3(g_opt.threads), 0, b.stream_b, b.stage_b, b.dst, s, b.sigs,
                     b.sigs + 1, g_opt.pair_a, iters);
  hip_check(hipGetLastError(), "launching the unpack kernel");
}

// Runs method m on A: `iters` transfers. Returns the elapsed microseconds (events around them).
double launch(method_t m, const bufs& b, const shape3& s, int wgs, int iters) {
  const int pe = peer_pe();
  hipEvent_t t0, t1;
  hip_check(hipEventCreate(&t0), "hipEventCreate");
  hip_check(hipEventCreate(&t1), "hipEventCreate");
  hip_check(hipEventRecord(t0, b.stream), "hipEventRecord");
  const dim3 grid(wgs), block(g_opt.threads);
  switch (m) {
    case M_PER_BLOCK: hipLaunchKernelGGL(per_block_kernel, grid, block, 0, b.stream, b.dst, b.src, s, pe, iters); break;
    case M_GIO: hipLaunchKernelGGL(gio_kernel, grid, block, 0, b.stream, b.dst, b.src, s, pe, iters); break;
    case M_PACK_PUT:
      hipLaunchKernelGGL(pack_put_kernel, grid, block, 0, b.stream, b.stage_a, b.stage_b, b.src, b.dst, s, b.sigs,
                         b.sigs + 1, pe, iters, pair_is_self());
      break;
    case M_BOUND:
      hipLaunchKernelGGL(bound_kernel, grid, block, 0, b.stream, b.dst, b.src, s.x * s.y * s.z, pe, iters);
      break;
    default:
#if GIO_BENCH_HAS_3D
      for (int it = 0; it < iters; ++it) memcpy3d(b.dst_mapped, b.src, s, b.stream);
#endif
      break;
  }
  hip_check(hipGetLastError(), "launching a strided kernel");
  hip_check(hipEventRecord(t1, b.stream), "hipEventRecord");
  hip_check(hipEventSynchronize(t1), "hipEventSynchronize");
  float ms = 0;
  hip_check(hipEventElapsedTime(&ms, t0, t1), "hipEventElapsedTime");
  hip_check(hipEventDestroy(t0), "hipEventDestroy");
  hip_check(hipEventDestroy(t1), "hipEventDestroy");
  return ms * 1e3;
}

void check_on_b(method_t m, const bufs& b, const shape3& s) {
  if (!is_b()) return;
  hip_check(hipMemset(b.bad, 0, sizeof *b.bad), "hipMemset");
  hipLaunchKernelGGL(check_kernel, dim3(64), dim3(256), 0, 0, b.dst, s, m == M_BOUND, b.bad);
  device_sync("checking the region");
  unsigned long long bad = 0;
  hip_check(hipMemcpy(&bad, b.bad, sizeof bad, hipMemcpyDeviceToHost), "hipMemcpy");
  if (bad) {
    fprintf(stderr, "gio-bench strided: PE %d: %s put %zu x %zu x %zu (cube %zu): %llu wrong bytes\n", g_env.me,
            kMethod[m], s.x, s.y, s.z, s.e, bad);
    b_abort(1);
  }
}

}  // namespace

void run_strided() {
  const size_t e = g_opt.cube, region = g_opt.region;
  bufs b{};
  b.src = (uint8_t*)b_malloc(e * e * e);
  b.dst = (uint8_t*)b_malloc(e * e * e);
  if (!b.src || !b.dst) {
    if (g_env.me == 0)
      fprintf(stderr, "gio-bench strided: two cubes of %zu bytes do not fit the heap (GIO_SYMMETRIC_SIZE)\n", e * e * e);
    b_abort(1);
  }
  b.stage_a = (uint8_t*)b_malloc(region);
  b.stage_b = (uint8_t*)b_malloc(region);
  b.sigs = (uint64_t*)b_malloc(2 * sizeof(uint64_t));
  hip_check(hipMalloc(&b.bad, sizeof *b.bad), "hipMalloc");
  hip_check(hipStreamCreateWithFlags(&b.stream, hipStreamNonBlocking), "hipStreamCreate");
  hip_check(hipStreamCreateWithFlags(&b.stream_b, hipStreamNonBlocking), "hipStreamCreate");
  hipLaunchKernelGGL(fill_kernel, dim3(256), dim3(256), 0, 0, b.src, e * e * e);
  hip_check(hipMemset(b.dst, 0, e * e * e), "hipMemset");
  device_sync("filling the cubes");
  b.dst_mapped = in_pair() ? shmem_ptr(b.dst, peer_pe()) : nullptr;
  const bool has3d = GIO_BENCH_HAS_3D && b.dst_mapped;
  if (!GIO_BENCH_HAS_3D) report_note("memcpy3d: no 3D copy on the host platform");
  else if (!has3d) report_note("memcpy3d: the peer's heap is not mapped here (transport %s)", g_env.transport.c_str());
  // Every shape x * y * z = region, powers of two up to the edge, by row length then rows.
  std::vector<shape3> shapes;
  for (size_t x = 1; x <= e; x *= 2)
    for (size_t y = 1; y <= e; y *= 2)
      if (region % (x * y) == 0 && region / (x * y) <= e) shapes.push_back(shape3{x, y, region / (x * y), e});
  for (int wgs : g_opt.wgs)
    for (const shape3& s : shapes)
      for (int mi = 0; mi < M_COUNT; ++mi) {
        const method_t m = (method_t)mi;
        if (m == M_MEMCPY3D && !has3d) continue;
        if (is_b()) {
          hip_check(hipMemset(b.dst, 0, extent(s)), "hipMemset");
          device_sync("clearing the region");
        }
        pair_step(b.sigs, 2, [&] {
          launch_b(m, b, s, wgs, 1);
          if (is_a()) launch(m, b, s, wgs, 1);
        });
        check_on_b(m, b, s);
        std::vector<double> us;
        for (int r = 0; r < g_opt.reps; ++r)
          pair_step(b.sigs, 2, [&] {
            launch_b(m, b, s, wgs, g_opt.iters);
            if (is_a()) us.push_back(launch(m, b, s, wgs, g_opt.iters) / g_opt.iters);
          });
        if (!is_a()) continue;
        strided_record rec;
        rec.method = kMethod[m];
        rec.x = s.x, rec.y = s.y, rec.z = s.z, rec.cube = e;
        rec.work_groups = wgs, rec.threads = g_opt.threads, rec.iters = g_opt.iters;
        rec.us = summarize(us);
        report_strided(rec);
      }
  hip_check(hipStreamDestroy(b.stream), "hipStreamDestroy");
  hip_check(hipStreamDestroy(b.stream_b), "hipStreamDestroy");
  b_free(b.sigs);
  b_free(b.stage_b);
  b_free(b.stage_a);
  hip_check(hipFree(b.bad), "hipFree");
  b_free(b.dst);
  b_free(b.src);
}

}  // namespace bench
