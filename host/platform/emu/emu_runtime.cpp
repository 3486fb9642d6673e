// HIP host runtime API on the host platform: memory, device, streams, events, errors.
//
// Nothing is ever pending (launches and copies finish before they return), so streams carry
// no queue and events are timestamps taken when they are recorded.
#include "host/platform/emu/emu_internal.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

struct gio_host_stream {
  unsigned flags;
  int priority;
};

struct gio_host_event {
  std::chrono::steady_clock::time_point when;
  bool recorded;
};

namespace gio {
namespace host {
namespace detail {
namespace {
// Per host thread, as HIP keeps it.
thread_local hipError_t tl_last_error = hipSuccess;

// Device allocations are aligned like a GPU allocator's, so vectorised device code that relies
// on that alignment behaves the same here.
constexpr size_t kDeviceAlign = 256;

hipError_t fail(hipError_t err) {
  tl_last_error = err;
  return err;
}

hipError_t aligned_alloc_into(void** ptr, size_t bytes) {
  if (!ptr) return fail(hipErrorInvalidValue);
  *ptr = nullptr;
  if (bytes == 0) return hipSuccess;
  if (posix_memalign(ptr, kDeviceAlign, bytes) != 0) {
    *ptr = nullptr;
    return fail(hipErrorOutOfMemory);
  }
  return hipSuccess;
}
}  // namespace

void set_last_error(hipError_t err) { tl_last_error = err; }

}  // namespace detail
}  // namespace host
}  // namespace gio

using gio::host::detail::fail;
using gio::host::detail::tl_last_error;

const char* hipGetErrorName(hipError_t err) {
  switch (err) {
    case hipSuccess: return "hipSuccess";
    case hipErrorInvalidValue: return "hipErrorInvalidValue";
    case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
    case hipErrorNotInitialized: return "hipErrorNotInitialized";
    case hipErrorInvalidConfiguration: return "hipErrorInvalidConfiguration";
    case hipErrorInvalidDevice: return "hipErrorInvalidDevice";
    case hipErrorInvalidHandle: return "hipErrorInvalidHandle";
    case hipErrorNotReady: return "hipErrorNotReady";
    case hipErrorLaunchFailure: return "hipErrorLaunchFailure";
    case hipErrorUnknown: return "hipErrorUnknown";
  }
  return "hipErrorUnknown";
}

const char* hipGetErrorString(hipError_t err) {
  switch (err) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorNotInitialized: return "initialization error";
    case hipErrorInvalidConfiguration: return "invalid configuration argument";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorInvalidHandle: return "invalid resource handle";
    case hipErrorNotReady: return "device not ready";
    case hipErrorLaunchFailure: return "unspecified launch failure";
    case hipErrorUnknown: return "unknown error";
  }
  return "unknown error";
}

hipError_t hipGetLastError() {
  hipError_t err = tl_last_error;
  tl_last_error = hipSuccess;
  return err;
}

hipError_t hipPeekAtLastError() { return tl_last_error; }

hipError_t hipMalloc(void** ptr, size_t bytes) {
  return gio::host::detail::aligned_alloc_into(ptr, bytes);
}

hipError_t hipFree(void* ptr) {
  std::free(ptr);
  return hipSuccess;
}

hipError_t hipHostMalloc(void** ptr, size_t bytes, unsigned) {
  return gio::host::detail::aligned_alloc_into(ptr, bytes);
}

hipError_t hipHostFree(void* ptr) {
  std::free(ptr);
  return hipSuccess;
}

hipError_t hipHostGetDevicePointer(void** dev_ptr, void* host_ptr, unsigned) {
  if (!dev_ptr || !host_ptr) return fail(hipErrorInvalidValue);
  *dev_ptr = host_ptr;
  return hipSuccess;
}

hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
  if (bytes == 0) return hipSuccess;
  if (!dst || !src || unsigned(kind) > unsigned(hipMemcpyDefault)) return fail(hipErrorInvalidValue);
  std::memmove(dst, src, bytes);
  return hipSuccess;
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t) {
  return hipMemcpy(dst, src, bytes, kind);
}

hipError_t hipMemset(void* dst, int value, size_t bytes) {
  if (bytes == 0) return hipSuccess;
  if (!dst) return fail(hipErrorInvalidValue);
  std::memset(dst, value, bytes);
  return hipSuccess;
}

hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t) {
  return hipMemset(dst, value, bytes);
}

hipError_t hipDeviceSynchronize() { return hipSuccess; }
hipError_t hipDeviceReset() { return hipSuccess; }

hipError_t hipSetDevice(int device) { return device == 0 ? hipSuccess : fail(hipErrorInvalidDevice); }

hipError_t hipGetDevice(int* device) {
  if (!device) return fail(hipErrorInvalidValue);
  *device = 0;
  return hipSuccess;
}

hipError_t hipGetDeviceCount(int* count) {
  if (!count) return fail(hipErrorInvalidValue);
  *count = 1;
  return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device) {
  if (!prop) return fail(hipErrorInvalidValue);
  if (device != 0) return fail(hipErrorInvalidDevice);
  std::memset(prop, 0, sizeof *prop);
  std::strncpy(prop->name, "GIO host emulation (CPU)", sizeof prop->name - 1);
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  prop->totalGlobalMem = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : 0;
  prop->sharedMemPerBlock = 64 * 1024;
  prop->warpSize = warpSize;
  prop->maxThreadsPerBlock = 1024;
  unsigned cores = std::thread::hardware_concurrency();
  prop->multiProcessorCount = cores ? int(cores) : 1;
  prop->clockRate = 1000000;  // the clock64() counter ticks in nanoseconds
  return hipSuccess;
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, const void* kernel,
                                                        int block_size, size_t) {
  if (!num_blocks || !kernel || block_size <= 0 || block_size > 1024) return fail(hipErrorInvalidValue);
  const unsigned cores = std::thread::hardware_concurrency() ? std::thread::hardware_concurrency() : 1;
  const unsigned per_core = ::gio::host::emu_settings().max_concurrent_wg / cores;
  *num_blocks = per_core ? int(per_core) : 1;
  return hipSuccess;
}

hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned flags, int priority) {
  if (!stream) return fail(hipErrorInvalidValue);
  *stream = new (std::nothrow) gio_host_stream{flags, priority};
  return *stream ? hipSuccess : fail(hipErrorOutOfMemory);
}

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned flags) {
  return hipStreamCreateWithPriority(stream, flags, 0);
}

hipError_t hipStreamCreate(hipStream_t* stream) {
  return hipStreamCreateWithPriority(stream, hipStreamDefault, 0);
}

// Same range as AMD GPUs report, so callers asking for "the highest priority" get a valid one.
hipError_t hipDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -1;
  return hipSuccess;
}

hipError_t hipStreamDestroy(hipStream_t stream) {
  delete stream;
  return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
hipError_t hipStreamQuery(hipStream_t) { return hipSuccess; }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t event, unsigned) {
  return event ? hipSuccess : fail(hipErrorInvalidHandle);
}

hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned) {
  if (!event) return fail(hipErrorInvalidValue);
  *event = new (std::nothrow) gio_host_event{{}, false};
  return *event ? hipSuccess : fail(hipErrorOutOfMemory);
}

hipError_t hipEventCreate(hipEvent_t* event) { return hipEventCreateWithFlags(event, hipEventDefault); }

hipError_t hipEventRecord(hipEvent_t event, hipStream_t) {
  if (!event) return fail(hipErrorInvalidHandle);
  event->when = std::chrono::steady_clock::now();
  event->recorded = true;
  return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  return event ? hipSuccess : fail(hipErrorInvalidHandle);
}

hipError_t hipEventQuery(hipEvent_t event) { return event ? hipSuccess : fail(hipErrorInvalidHandle); }

hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  if (!ms) return fail(hipErrorInvalidValue);
  if (!start || !stop || !start->recorded || !stop->recorded) return fail(hipErrorInvalidHandle);
  *ms = std::chrono::duration<float, std::milli>(stop->when - start->when).count();
  return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t event) {
  delete event;
  return hipSuccess;
}
