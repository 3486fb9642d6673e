// The host platform's emulator ABI: what kernels compiled into an application and the emulator in
// libgio (host/platform/emu/) share. The thread-local work-group and thread slots the scheduler
// writes and kernels read, the scheduler's entry points (barriers, warp exchange, lockstep waves,
// launch), and the HIP runtime API the emulator implements. Kernel-facing spellings (threadIdx,
// __syncthreads, atomics) are device/platform/host/hip_host.h, built on this.
//
// The "device" is the CPU and its memory is ordinary process memory, so every copy is a memcpy
// and every launch has finished when it returns. Streams and events exist so that code written
// for a GPU compiles and times itself unchanged; they order nothing because nothing is pending.
#pragma once

#include <cstddef>
#include <cstdint>

// Kernels compiled into an application read the thread-local indices the scheduler in libgio
// writes; if the library were built with hidden visibility each side would get its own copy.
#pragma GCC visibility push(default)

struct uint3 {
  unsigned x, y, z;
};

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(const uint3& v) : x(v.x), y(v.y), z(v.z) {}
};

// A member of hipDeviceProp_t has this name too, so it cannot be a macro.
static constexpr int warpSize = 32;

namespace gio {
namespace host {

// Set by the runtime from its configuration table before the first launch.
struct emu_settings_t {
  unsigned max_concurrent_wg = 512;      // work-groups of one launch running at once
  size_t fiber_stack_bytes = 64 * 1024;  // stack of each emulated GPU thread
  bool wave_lockstep = false;            // lockstep-wave mode (below), latched at each launch
};
emu_settings_t& emu_settings();

namespace detail {
struct thread_slot {
  uint3 thread_idx;
  unsigned linear;
};
struct group_slot {
  uint3 block_idx{0, 0, 0};
  dim3 block_dim{};
  dim3 grid_dim{};
  unsigned linear = 0;
  void* dynamic_shared = nullptr;
};
// Outside a kernel threadIdx reads as thread 0 of a 1x1x1 launch, so host code may call device
// helpers. Both are constant-initialised, so the compiler reads them without a TLS wrapper call.
inline const thread_slot host_thread_slot{{0, 0, 0}, 0};
inline thread_local const thread_slot* tl_thread = &host_thread_slot;
inline thread_local group_slot tl_group{};

void block_sync();
void warp_sync(unsigned mask);
unsigned long long warp_shuffle(unsigned mask, unsigned long long mine, unsigned src_lane);
// Ballot of the lanes that took part; *participants gets their mask.
unsigned long long warp_vote(unsigned mask, int pred, unsigned* participants);
unsigned warp_active_mask();
}  // namespace detail

inline bool in_kernel() { return detail::tl_thread != &detail::host_thread_slot; }
// Inside a kernel: let the other GPU threads of the work-group run; outside: yield the OS thread.
void yield();
inline unsigned linear_thread_id() { return detail::tl_thread->linear; }
inline unsigned linear_block_id() { return detail::tl_group.linear; }

// ---- lockstep-wave mode (GIO_HOST_WAVE_LOCKSTEP=1) ----------------------------------------------
// On AMD GPUs the lanes of a wave execute in lockstep: lanes that leave a spin loop early wait at
// its reconvergence point until every lane of the wave has left it, so a lane that spins for a
// wave-mate which already left the loop (and acts only after it) spins forever. Fibers normally
// run each lane as far as it goes, which hides such a hang. In this mode:
//  - every device atomic (gio::plat, atomicAdd & co.) yields after it, so the lanes of a wave
//    move through a code path together and arrive at a wait in the same round;
//  - every device wait (gio::dev::bounded_wait) ends with a reconvergence barrier: a lane that
//    leaves it may go on only once every lane of its wave that entered the same wait (same call
//    site, same round) has left it. A lane that entered joins the round until it completes.
// Waits nested in a wait's condition are not tracked.
namespace detail {
extern bool lockstep_on;  // emu_settings().wave_lockstep as of the running launch
void wave_step_slow();
int wave_wait_enter(const void* site);
void wave_wait_exit(int slot);
}  // namespace detail
inline bool wave_lockstep() { return __atomic_load_n(&detail::lockstep_on, __ATOMIC_RELAXED); }
// After a device atomic: let the other lanes of the wave catch up.
inline void wave_step() {
  if (wave_lockstep()) detail::wave_step_slow();
}
// From a wait that timed out: names the wave-mates held at that wait's reconvergence point.
void wave_wait_report();

// Runs thunk(closure) once per GPU thread of the grid and returns when all have finished.
void launch(dim3 grid, dim3 block, size_t shared_bytes, void (*thunk)(const void*),
            const void* closure);

}  // namespace host
}  // namespace gio

long long clock64();       // nanoseconds of a steady clock
long long wall_clock64();  // same clock; HIP's constant-rate counter

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

#pragma GCC visibility pop
