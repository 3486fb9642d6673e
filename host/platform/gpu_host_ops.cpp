// cuda and hip platforms: the host API's copies and atomics (host-initiated atomics run as a
// one-thread kernel), on streams of their own.
#include <functional>
#include <mutex>
#include <thread>

#include "host/fifo_mutex.h"
#include "host/platform/gpu_runtime.h"
#include "runtime/api/strided_shape.h"

namespace gio {
namespace gpu {
namespace {
// Host API copies and atomics run on streams of their own, never on the legacy default stream:
// that one waits for every running kernel, and a kernel may be waiting for this very operation
// (a host thread signalling it). Each lane is a non-blocking stream with its own pinned result
// word, so host threads (SHMEM_THREAD_MULTIPLE) never read each other's atomic results. A thread
// always takes the lane its id hashes to and holds the lane's lock for one operation.
constexpr int kLanes = 8;
struct host_lane {
  fifo_mutex m;  // in arrival order: a polling thread must not starve another on its lane
  hipStream_t stream = nullptr;
  unsigned long long* result = nullptr;  // pinned; written by the atomic kernel
};
host_lane g_lanes[kLanes];

class lane_guard {
 public:
  explicit lane_guard(const char* routine) {
    // Lane streams belong to this PE's device; a thread the application started may be on another
    // (device 0 until told otherwise). Switch for the operation and give the thread its device back.
    check(hipGetDevice(&user_device_), routine, "hipGetDevice");
    if (user_device_ != pe_device()) check(hipSetDevice(pe_device()), routine, "hipSetDevice");
    static thread_local const size_t mine = std::hash<std::thread::id>{}(std::this_thread::get_id()) % kLanes;
    lane_ = &g_lanes[mine];
    lane_->m.lock();
  }
  ~lane_guard() {
    lane_->m.unlock();
    if (user_device_ != pe_device()) (void)hipSetDevice(user_device_);
  }
  host_lane* operator->() const { return lane_; }

 private:
  host_lane* lane_;
  int user_device_ = -1;
};

void create_lanes(const char* routine) {
  unsigned long long* words = nullptr;
  // One cache line per lane's result word.
  check(hipHostMalloc((void**)&words, kLanes * 64, hipHostMallocDefault), routine, "hipHostMalloc");
  for (int i = 0; i < kLanes; ++i) {
    g_lanes[i].result = words + i * 8;
    check(hipStreamCreateWithFlags(&g_lanes[i].stream, hipStreamNonBlocking), routine, "hipStreamCreateWithFlags");
  }
  // Load the atomic kernels now: under lazy module loading a first launch waits for running
  // kernels, which may be waiting for this atomic.
  hipFuncAttributes attr;
  check(hipFuncGetAttributes(&attr, (const void*)amo_kernel<unsigned int>), routine, "loading the atomic kernel");
  check(hipFuncGetAttributes(&attr, (const void*)amo_kernel<unsigned long long>), routine, "loading the atomic kernel");
}
}  // namespace

void host_lanes_create(const char* routine) {
  if (!g_lanes[0].stream) create_lanes(routine);
}

void copy(void* dst, const void* src, size_t n, const char* routine) {
  lane_guard lane(routine);
  check(hipMemcpyAsync(dst, src, n, hipMemcpyDefault, lane->stream), routine, "hipMemcpyAsync");
  // Host puts promise completion on return (quiet does not wait for them), so wait for the copy.
  check(hipStreamSynchronize(lane->stream), routine, "hipStreamSynchronize");
}

// One 2D copy per index of the outer dimensions, all on the lane's stream, then one wait. The
// copy engine walks the rows itself (cudaMemcpy2D: rows of `block` bytes, `count[0]` of them);
// a shape it cannot take (pitches below the row, as a source stride of 0 or overlapping blocks
// give, or past the pitch limit) copies block by block instead.
void copy_strided(void* dst, const void* src, const gio_strided_shape& sh, const char* routine) {
  lane_guard lane(routine);
  uint8_t* d = (uint8_t*)dst;
  const uint8_t* s = (const uint8_t*)src;
  const size_t max_pitch = (size_t)1 << 30;
  const bool rows = sh.dims > 0 && (size_t)sh.dstride[0] >= sh.block && (size_t)sh.sstride[0] >= sh.block &&
                    (size_t)sh.dstride[0] < max_pitch && (size_t)sh.sstride[0] < max_pitch;
  const size_t per = rows ? sh.count[0] : 1;  // blocks one call moves
  const size_t n = shape_blocks(sh);
  for (size_t i = 0; i < n; i += per) {
    size_t od, os;
    shape_offsets(sh, i, od, os);
    if (rows)
      check(hipMemcpy2DAsync(d + od, (size_t)sh.dstride[0], s + os, (size_t)sh.sstride[0], sh.block, sh.count[0],
                             hipMemcpyDefault, lane->stream),
            routine, "hipMemcpy2DAsync");
    else
      check(hipMemcpyAsync(d + od, s + os, sh.block, hipMemcpyDefault, lane->stream), routine, "hipMemcpyAsync");
  }
  check(hipStreamSynchronize(lane->stream), routine, "hipStreamSynchronize");
}

uint64_t amo(void* addr, int op, uint64_t v, uint64_t c, size_t size, const char* routine) {
  lane_guard lane(routine);
  if (size == 4) {
    hipLaunchKernelGGL(amo_kernel<unsigned int>, dim3(1), dim3(1), 0, lane->stream, (unsigned int*)addr, op,
                       (unsigned int)v, (unsigned int)c, (unsigned int*)lane->result);
  } else if (size == 8) {
    hipLaunchKernelGGL(amo_kernel<unsigned long long>, dim3(1), dim3(1), 0, lane->stream, (unsigned long long*)addr,
                       op, (unsigned long long)v, (unsigned long long)c, lane->result);
  } else {
    fatal(GIO_ERR_ARG, routine, "atomic on %zu bytes is not supported", size);
  }
  check(hipGetLastError(), routine, "launching the atomic kernel");
  check(hipStreamSynchronize(lane->stream), routine, "the atomic kernel");
  return size == 4 ? (uint64_t)(*(volatile unsigned int*)lane->result) : (uint64_t)*(volatile unsigned long long*)lane->result;
}

}  // namespace gpu
}  // namespace gio
