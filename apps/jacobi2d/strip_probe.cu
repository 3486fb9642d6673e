// Hardware probe (not part of libgio): Jacobi2D's sweep (apps/jacobi2d/stencil.h's strip(), the
// code every variant runs) against a plain 16-byte copy of the same two fields on one GPU, by how
// many rows each thread loads ahead (D), the launch bounds' minimum work-groups per SM, the
// work-group size and the columns per thread, each at full occupancy. Then the app's grid barrier
// alone, and the persistent form: every iteration in one launch with that barrier between them,
// and with none. 16384^2 floats, two 1 GiB fields, as jacobi2d's 16384^2 run.
// Build, from the repo root after cmake has configured build-gpu (for gio_config.h):
//   nvcc -O2 -arch=sm_90 -std=c++17 -I. -Idevice/include -Ibuild-gpu/include -Iapps/jacobi2d \
//        apps/jacobi2d/strip_probe.cu -o build-gpu/jacobi_strip -Lbuild-gpu/lib -lgio -Xlinker -rpath=$PWD/build-gpu/lib
#include <cstdio>
#include <cstdlib>

#include "sweep.h"

#define CK(x)                                                          \
  do {                                                                 \
    cudaError_t e_ = (x);                                              \
    if (e_) {                                                          \
      printf("%s: %s\n", #x, cudaGetErrorString(e_));                  \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

namespace {
const int kNx = 16384, kRows = 16382, kV = 4, kBlock = 256, kIters = 200;

__global__ void copy_k(const float* __restrict__ src, float* __restrict__ dst, size_t packs) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < packs; i += stride)
    reinterpret_cast<jacobi::pack<float, kV>*>(dst)[i] = jacobi::load_pack<float, kV>(src + i * kV);
}

// The app's interior split: (row, segment) units numbered down each segment, one contiguous
// range per work-group. Rows 1..kRows are computed, 0 and kRows+1 are read.
template <int V, int D>
__device__ double sweep_rows(const float* a, float* an, int nseg) {
  const long long U = (long long)kRows * nseg, G = gridDim.x, b = blockIdx.x;
  long long i = b * (U / G) + (b < U % G ? b : U % G);
  const long long e = i + U / G + (b < U % G);
  double s = 0;
  while (i < e) {
    const int seg = (int)(i / kRows), r0 = 1 + (int)(i % kRows);
    const int r1 = (int)((long long)r0 + (e - i) - 1 < kRows ? r0 + (e - i) - 1 : kRows);
    s += jacobi::strip<float, V, D>(a, an, kNx, seg, r0, r1);
    i += r1 - r0 + 1;
  }
  return s;
}

template <int V, int D, int MINB, int BLOCK>
__global__ void __launch_bounds__(BLOCK, MINB) step_k(const float* a, float* an, int nseg, double* norm) {
  const double s = sweep_rows<V, D>(a, an, nseg);
  if (norm) jacobi::block_add(s, norm);
}

// KIND 0: the app's grid_sync (sweep.h: two levels, one counter per level);
// 1: no barrier (wrong results; the sweep's own cost in the persistent form).
template <int KIND>
__device__ void barrier_of(jacobi::grid_barrier* bar) {
  if (KIND == 0) jacobi::grid_sync(bar, 30000000000ull);
}

template <int KIND>
__global__ void __launch_bounds__(kBlock, 5) barrier_k(int iters, jacobi::grid_barrier* bar) {
  for (int k = 0; k < iters; ++k) barrier_of<KIND>(bar);
}

template <int D, int MINB, int KIND>
__global__ void __launch_bounds__(kBlock, MINB) persistent_k(float* a0, float* a1, int nseg, int iters,
                                                             jacobi::grid_barrier* bar) {
  for (int k = 0; k < iters; ++k) {
    (void)sweep_rows<kV, D>((k & 1) ? a1 : a0, (k & 1) ? a0 : a1, nseg);
    barrier_of<KIND>(bar);
  }
}

float* g_a[2];
double* g_norm;
jacobi::grid_barrier* g_bar;
int g_sms;
double g_copy_ms;

template <typename K>
int resident(K k) {
  int per = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, kBlock, 0));
  return per;
}
template <typename K>
void attrs(K k, int* regs, int* spill) {
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, k));
  *regs = fa.numRegs;
  *spill = (int)fa.localSizeBytes;
}

template <typename L>
double time_ms(L launch, int reps) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  launch(0);
  CK(cudaDeviceSynchronize());
  CK(cudaEventRecord(e0));
  for (int k = 0; k < reps; ++k) launch(k);
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  CK(cudaGetLastError());
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  return ms;
}

void report(const char* name, int per_sm, int regs, int spill, double ms_per_sweep) {
  const double bytes = 2.0 * (kRows + 2) * (double)kNx * sizeof(float);
  printf("%-28s wg/SM %d  regs %3d  spill %4d B  %.4f ms/sweep  %7.1f GB/s  %5.1f %% of copy\n", name, per_sm, regs,
         spill, ms_per_sweep, bytes / ms_per_sweep * 1e-6, g_copy_ms / ms_per_sweep * 100.0);
}

template <int V, int D, int MINB, int BLOCK = kBlock>
void step_case(bool with_norm) {
  auto k = step_k<V, D, MINB, BLOCK>;
  int per = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, BLOCK, 0));
  const int grid = per * g_sms, nseg = kNx / (BLOCK * V);
  int regs, spill;
  attrs(k, &regs, &spill);
  const double ms = time_ms(
      [&](int it) {
        step_k<V, D, MINB, BLOCK><<<grid, BLOCK>>>(g_a[it & 1], g_a[(it + 1) & 1], nseg, with_norm ? g_norm : nullptr);
      },
      kIters) / kIters;
  char name[64];
  snprintf(name, sizeof name, "step D=%d minwg=%d%s%s", D, MINB, with_norm ? " +norm" : "",
           BLOCK != kBlock ? (BLOCK == 128 ? " b128" : " b512") : (V != kV ? " V8" : ""));
  report(name, per, regs, spill, ms);
}

template <int D, int MINB, int KIND>
void persistent_case() {
  auto k = persistent_k<D, MINB, KIND>;
  const int per = resident(k), grid = per * g_sms, nseg = kNx / (kBlock * kV);
  int regs, spill;
  attrs(k, &regs, &spill);
  CK(cudaMemset(g_bar, 0, sizeof *g_bar));
  const double ms = time_ms(
      [&](int) {
        persistent_k<D, MINB, KIND><<<grid, kBlock>>>(g_a[0], g_a[1], nseg, kIters, g_bar);
      },
      1) / kIters;
  char name[64];
  static const char* kinds[] = {"grid_sync", "no barrier"};
  snprintf(name, sizeof name, "persistent D=%d minwg=%d %s", D, MINB, kinds[KIND]);
  report(name, per, regs, spill, ms);
}

template <int KIND>
void barrier_case() {
  auto k = barrier_k<KIND>;
  const int grid = 5 * g_sms, n = 2000;  // the persistent kernels' 5 work-groups per SM
  CK(cudaMemset(g_bar, 0, sizeof *g_bar));
  const double ms = time_ms([&](int) { k<<<grid, kBlock>>>(n, g_bar); }, 1);
  printf("barrier %-12s %d work-groups: %.2f us per barrier\n", "grid_sync", grid, ms * 1e3 / n);
}
}  // namespace

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  const size_t elems = (size_t)(kRows + 2) * kNx;
  for (float*& p : g_a) {
    CK(cudaMalloc(&p, elems * sizeof(float)));
    CK(cudaMemset(p, 0, elems * sizeof(float)));
  }
  CK(cudaMalloc(&g_norm, sizeof(double)));
  CK(cudaMalloc(&g_bar, sizeof *g_bar));
  printf("%s, %d SMs; %d x %d floats, block %d, %d sweeps per case\n", prop.name, g_sms, kRows + 2, kNx, kBlock,
         kIters);
  const int copy_per = resident(copy_k);
  g_copy_ms = time_ms([&](int it) { copy_k<<<copy_per * g_sms, kBlock>>>(g_a[it & 1], g_a[(it + 1) & 1], elems / kV); },
                      kIters) / kIters;
  int regs, spill;
  attrs(copy_k, &regs, &spill);
  report("copy (the roofline)", copy_per, regs, spill, g_copy_ms);
  barrier_case<0>();
  step_case<kV, 1, 5>(false);
  step_case<kV, 2, 5>(false);
  step_case<kV, 3, 5>(false);
  step_case<kV, 1, 4>(false);
  step_case<kV, 2, 4>(false);
  step_case<kV, 1, 5>(true);
  step_case<kV, 2, 5>(true);
  step_case<8, 1, 5>(false);
  step_case<8, 1, 4>(false);
  step_case<kV, 1, 10, 128>(false);
  step_case<kV, 2, 10, 128>(false);
  step_case<kV, 1, 2, 512>(false);
  step_case<kV, 2, 2, 512>(false);
  persistent_case<1, 5, 0>();
  persistent_case<2, 5, 0>();
  persistent_case<1, 5, 1>();
  persistent_case<2, 5, 1>();
  // The copy again: the clock and the memory may have settled since the first.
  const double again = time_ms([&](int it) { copy_k<<<copy_per * g_sms, kBlock>>>(g_a[it & 1], g_a[(it + 1) & 1], elems / kV); },
                               kIters) / kIters;
  report("copy again", copy_per, regs, spill, again);
  return 0;
}
