// What gio-gda-post and gio-proxy-post share: the scopes a post is timed at, the timed loop in the
// kernel, and the launches that turn it into cycles per call (median over reps after a warm-up).
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                      \
  do {                                                                                                   \
    hipError_t e_ = (call);                                                                              \
    if (e_ != hipSuccess) {                                                                              \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_));             \
      exit(1);                                                                                           \
    }                                                                                                    \
  } while (0)

namespace post_cost {

constexpr uint32_t kSlots = 4096;  // per queue: every measurement posts fewer, so nothing waits for room
enum scope { SCOPE_THREAD, SCOPE_WAVE, SCOPE_WG };
const char* const kScopeName[] = {"thread", "wave", "wg"};

// The kernel side: `posts` calls of post(k), k unique per lane and call, timed with the SM clock;
// lane 0 writes its work-group's total to cycles[work-group].
//   thread - one lane of the wave posts (the others have left);
//   wave   - every lane of the wave posts at once (thread-scope calls);
//   wg     - the whole work-group enters, one lane posts (the cooperative scopes' path).
template <int SCOPE, class Post>
__device__ void time_posts(int posts, unsigned long long* cycles, Post post) {
  if (SCOPE == SCOPE_THREAD && threadIdx.x != 0) return;
  const unsigned lanes = SCOPE == SCOPE_WAVE ? blockDim.x : 1;
  unsigned long long total = 0;
  for (int i = 0; i < posts; ++i) {
    const long long t0 = clock64();
    if (SCOPE == SCOPE_WG) __syncthreads();
    if (SCOPE == SCOPE_WAVE || threadIdx.x == 0) post((uint64_t)i * lanes + threadIdx.x % lanes);
    if (SCOPE == SCOPE_WG) __syncthreads();
    total += (unsigned long long)(clock64() - t0);
  }
  if (threadIdx.x == 0) cycles[blockIdx.x] = total;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Cycles per call, one value per rep, sorted: `launch()` resets the queues and launches the timed
// kernel over `wgs` work-groups of `calls` calls each; the first launch is a warm-up.
template <class Launch>
std::vector<double> per_call_cycles(int reps, int wgs, int calls, unsigned long long* cycles, Launch launch) {
  std::vector<double> per;
  std::vector<unsigned long long> c(wgs);
  for (int r = 0; r < reps + 1; ++r) {
    launch();
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    CHECK(hipMemcpy(c.data(), cycles, wgs * sizeof(c[0]), hipMemcpyDeviceToHost));
    double sum = 0;
    for (auto x : c) sum += (double)x;
    if (r > 0) per.push_back(sum / wgs / calls);
  }
  std::sort(per.begin(), per.end());
  return per;
}

// The SM clock in kHz, for cycles -> ns (0 where the platform does not say).
inline int clock_khz() {
  int khz = 0;
#if defined(GIO_PLATFORM_CUDA)
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
#endif
  return khz;
}

}  // namespace post_cost
