// HIP host runtime API on the host platform (included by hip_host.h).
//
// The "device" is the CPU and its memory is ordinary process memory, so every copy is a memcpy
// and every launch has finished when it returns. Streams and events exist so that code written
// for a GPU compiles and times itself unchanged; they order nothing because nothing is pending.
#pragma once

#include <cstddef>

enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidHandle = 400,
  hipErrorNotReady = 600,
  hipErrorLaunchFailure = 719,
  hipErrorUnknown = 999,
};

enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
};

struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int multiProcessorCount;
  int clockRate;  // kHz
  int pciDomainID;
  int pciBusID;
  int pciDeviceID;
};

typedef struct gio_host_stream* hipStream_t;
typedef struct gio_host_event* hipEvent_t;

constexpr unsigned hipStreamDefault = 0x0;
constexpr unsigned hipStreamNonBlocking = 0x1;
constexpr unsigned hipEventDefault = 0x0;
constexpr unsigned hipEventBlockingSync = 0x1;
constexpr unsigned hipEventDisableTiming = 0x2;
constexpr unsigned hipHostMallocDefault = 0x0;
constexpr unsigned hipHostMallocPortable = 0x1;
constexpr unsigned hipHostMallocMapped = 0x2;
constexpr unsigned hipHostMallocWriteCombined = 0x4;

const char* hipGetErrorString(hipError_t err);
const char* hipGetErrorName(hipError_t err);
hipError_t hipGetLastError();
hipError_t hipPeekAtLastError();

hipError_t hipMalloc(void** ptr, size_t bytes);
template <class T>
inline hipError_t hipMalloc(T** ptr, size_t bytes) {
  return hipMalloc(reinterpret_cast<void**>(ptr), bytes);
}
hipError_t hipFree(void* ptr);
hipError_t hipHostMalloc(void** ptr, size_t bytes, unsigned flags = 0);
template <class T>
inline hipError_t hipHostMalloc(T** ptr, size_t bytes, unsigned flags = 0) {
  return hipHostMalloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
hipError_t hipHostFree(void* ptr);
hipError_t hipHostGetDevicePointer(void** dev_ptr, void* host_ptr, unsigned flags);

hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind,
                          hipStream_t stream = nullptr);
hipError_t hipMemset(void* dst, int value, size_t bytes);
hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t stream = nullptr);

// Symbols are ordinary globals here, so their address is their device address.
template <class T>
inline hipError_t hipMemcpyToSymbol(T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                    hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return hipMemcpy(reinterpret_cast<char*>(&symbol) + offset, src, bytes, kind);
}
template <class T>
inline hipError_t hipMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                      hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return hipMemcpy(dst, reinterpret_cast<const char*>(&symbol) + offset, bytes, kind);
}
template <class T>
inline hipError_t hipGetSymbolAddress(void** dev_ptr, const T& symbol) {
  *dev_ptr = const_cast<void*>(static_cast<const void*>(&symbol));
  return hipSuccess;
}

hipError_t hipDeviceSynchronize();
hipError_t hipDeviceReset();
hipError_t hipSetDevice(int device);
hipError_t hipGetDevice(int* device);
hipError_t hipGetDeviceCount(int* count);
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device);

// Work-groups of one kernel that run at once per "multiprocessor" (a CPU core here): the
// emulator's cap on concurrent work-groups (GIO_HOST_MAX_WG) spread over the cores, so a grid of
// this times multiProcessorCount is co-resident, as a persistent kernel needs.
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, const void* kernel,
                                                        int block_size, size_t dynamic_shared);
template <class... P>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, void (*kernel)(P...),
                                                               int block_size, size_t dynamic_shared) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks, reinterpret_cast<const void*>(kernel),
                                                      block_size, dynamic_shared);
}

hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned flags);
hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned flags, int priority);
hipError_t hipDeviceGetStreamPriorityRange(int* least, int* greatest);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned flags = 0);

hipError_t hipEventCreate(hipEvent_t* event);
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = nullptr);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipEventDestroy(hipEvent_t event);

// Runs the kernel on the CPU and returns when every work-group has finished. Each GPU thread
// gets its own copy of the arguments, converted to the parameter types at the call, as a GPU
// launch would. A bad configuration is reported through hipGetLastError().
template <class... P, class... A>
inline void hipLaunchKernelGGL(void (*kernel)(P...), dim3 grid, dim3 block, size_t shared_bytes,
                               hipStream_t stream, A&&... args) {
  (void)stream;
  auto body = [kernel, args...]() { kernel(args...); };
  using body_t = decltype(body);
  ::gio::host::launch(
      grid, block, shared_bytes, [](const void* c) { (*static_cast<const body_t*>(c))(); }, &body);
}
