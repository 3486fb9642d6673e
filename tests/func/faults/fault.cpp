// fault <name>: triggers exactly one misuse of GIO (run as 2 PEs under giorun) so ctest can check
// that it stops with a clear message and a non-zero exit, never a hang or a silent wrong write.
// The expected message of each fault is in CMakeLists.txt next to its name.
//
// Argument faults are raised by PE 0 only, so the message names a known PE; PE 1 parks in a
// sleep that mpirun ends when PE 0 aborts (a barrier would time out on its own and race PE 0).
// On the host platform a device fault exits the process from inside the launch (GIO_EXIT_CODE).
// On GPUs it traps the kernel after printing the GIO line; the host sees that at the sync and
// exits non-zero here. Either way, nothing after the fault runs, and a case whose fault did not
// happen ends with "NO FAULT" and exit code 2.
//
// Why a rejected put writes nothing: device/dispatch/dispatch.h (and host/rma.cpp on the host side)
// check the PE, the address range and the alignment before the transport touches any byte, and
// put-with-signal checks its signal arguments before the data moves. Case "no_write" checks
// that from the outside on the host platform (see fault_nowrite.cpp).
#include <shmem.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

// Cases that exit by themselves: fault_nowrite.cpp, fault_peer.cpp, fault_cqe.cpp,
// fault_finalize.cpp, fault_proxy.cpp.
void fault_no_write();
void fault_pe_killed_host_barrier();
void fault_pe_killed_dev_wait();
void fault_cqe_error();
void fault_finalize_outstanding();
void fault_proxy_peer_exit_put();
void fault_proxy_peer_exit_amo();
void fault_proxy_cmd_bad_pe();
void fault_proxy_cmd_past_heap();
void fault_lock_host_outside();  // fault_lock.cpp
void fault_lock_host_not_held();
void fault_lock_host_timeout();
void fault_lock_dev_outside();
void fault_lock_dev_misaligned();
void fault_lock_dev_not_held();
void fault_lock_dev_timeout();
bool fault_strided(const std::string& name);  // fault_strided.cpp
bool fault_openshmem16(const std::string& name);  // fault_openshmem16.cpp
bool fault_heaps(const std::string& name);        // fault_heaps.cpp

namespace {

// Ask for this much from a put that must run past the heap end (CMake runs every case with
// GIO_SYMMETRIC_SIZE=4M, so it can never fit).
constexpr size_t kPastEnd = 8u << 20;
// Team handles no team has: slot 17, never created (a handle carries its slot plus one), and a
// value past every slot, as an uninitialized handle holds.
#define STALE_TEAM ((shmem_team_t)(uintptr_t)18)
#define WILD_TEAM ((shmem_team_t)(uintptr_t)0x7f3a5c001230ull)

enum dev_fault {
  DF_PUT_PE,
  DF_PUT_OUTSIDE,
  DF_PUT_PAST_END,
  DF_GET_OUTSIDE,
  DF_AMO_MISALIGNED,
  DF_WAIT_BAD_CMP,
  DF_SIGNAL_BAD_OP,
  DF_WAIT_FOREVER,
  DF_BARRIER_ALONE,
  DF_P_UNINIT,
  DF_PUT_BAD_CTX,
  DF_PUT_DEAD_CTX,
  DF_CAS_LIVELOCK,
  DF_COLL_INVALID_TEAM,
  DF_COLL_STALE_TEAM,
  DF_COLL_WILD_TEAM,
  DF_COLL_BAD_ROOT,
  DF_COLL_SYNC_ALONE,
  DF_COLL_LL_ALONE,
  DF_PUT_WAVE_PE,
  DF_GET_WG_PE,
};

// Cooperative calls read the target's table entries before checking the PE (dispatch.h): a PE
// past the tables and a negative one must still stop with the PE named, before any store. A kernel
// of their own: inside fault_kernel's branches hipcc 5.2 (gfx90a) stopped with "failed to annotate
// CFG".
__global__ void coop_pe_kernel(int which, char* sym, int n) {
  if (which == DF_PUT_WAVE_PE)
    shmemx_putmem_wave(sym, sym + 64, 8, n + 256);
  else
    shmemx_getmem_wg(sym, sym + 64, 8, -1);
}

// One kernel for every device fault. `sym` is a 4 KiB symmetric block, `priv` ordinary device
// memory, `n` the PE count.
__global__ void fault_kernel(int which, char* sym, char* priv, int n) {
  if (which == DF_BARRIER_ALONE) {  // a work-group collective: every thread calls it
    shmem_barrier_all();
    return;
  }
  if (which == DF_CAS_LIVELOCK) {
    // gda builds fetch-and from fetch + compare-swap. Thread 1 keeps adding to the word on the same
    // queue without waiting; lanes of a wave that post together form one batch in lane order, so
    // an add follows each compare-swap before the next one, and the loop never sticks: it must
    // stop at GIO_TIMEOUT_MS with a report instead of spinning.
    uint64_t* word = (uint64_t*)(sym + 2048);
    if (threadIdx.x == 1)
      for (const long long t0 = clock64(); clock64() - t0 < 30000000000ll;) shmem_uint64_atomic_add(word, 1, 1);
    else if (threadIdx.x == 0)
      (void)shmem_uint64_atomic_fetch_and(word, 0xffull, 1);
    return;
  }
  if (which == DF_COLL_LL_ALONE) {  // a work-group fcollect of 8 bytes (LL over p2p) nobody joins
    shmemx_fcollectmem_wg(SHMEM_TEAM_WORLD, sym + 256, sym, 8);
    return;
  }
  if (threadIdx.x != 0) return;
  uint64_t* sig = (uint64_t*)(sym + 1024);
  switch (which) {
    case DF_PUT_PE: shmem_putmem(sym, sym + 64, 8, n); break;
    case DF_PUT_OUTSIDE: shmem_putmem(priv, sym, 8, 1); break;
    case DF_PUT_PAST_END: shmem_putmem_nbi(sym, sym, kPastEnd, 1); break;
    case DF_GET_OUTSIDE: shmem_getmem(sym, priv, 8, 1); break;
    case DF_AMO_MISALIGNED: shmem_int64_atomic_add((int64_t*)(sym + 4), 1, 1); break;
    case DF_WAIT_BAD_CMP: shmem_int_wait_until((int*)sym, 42, 0); break;
    case DF_SIGNAL_BAD_OP: shmem_putmem_signal(sym, sym + 64, 8, sig, 1, 7, 1); break;
    case DF_WAIT_FOREVER:  // nobody writes 42 here; 7 shows up as the last value seen
      *(volatile int*)sym = 7;
      shmem_int_wait_until((int*)sym, SHMEM_CMP_EQ, 42);
      break;
    case DF_P_UNINIT: shmem_int_p((int*)priv, 1, 0); break;
    case DF_COLL_INVALID_TEAM: shmem_int_sum_reduce(SHMEM_TEAM_INVALID, (int*)sym, (int*)sym, 1); break;
    case DF_COLL_STALE_TEAM: shmem_fcollectmem(STALE_TEAM, sym + 256, sym, 8); break;
    case DF_COLL_WILD_TEAM: shmem_fcollectmem(WILD_TEAM, sym + 256, sym, 8); break;
    case DF_COLL_BAD_ROOT: shmem_broadcastmem(SHMEM_TEAM_WORLD, sym, sym + 64, 8, n + 3); break;
    case DF_COLL_SYNC_ALONE: shmem_team_sync(SHMEM_TEAM_WORLD); break;
    case DF_PUT_BAD_CTX:  // inside the heap, but not a context slot
      shmem_ctx_putmem((shmem_ctx_t)(sym + 8), sym, sym + 64, 8, 1);
      break;
    case DF_PUT_DEAD_CTX: {  // a context used after its destroy (one thread = the work-group)
      shmem_ctx_t ctx;
      if (shmemx_wg_ctx_create(0, &ctx) != 0) break;  // no context: "NO FAULT" fails the test
      shmemx_wg_ctx_destroy(ctx);
      shmem_ctx_putmem(ctx, sym, sym + 64, 8, 1);
      break;
    }
  }
}

void* device_buffer(size_t bytes) {
  void* p = nullptr;
  if (hipMalloc(&p, bytes) != hipSuccess || hipMemset(p, 0, bytes) != hipSuccess) {
    fprintf(stderr, "fault: hipMalloc of %zu bytes failed\n", bytes);
    exit(3);
  }
  return p;
}

void fault_launch(int which, char* sym, char* priv, int n, int threads) {
  if (which == DF_PUT_WAVE_PE || which == DF_GET_WG_PE)
    hipLaunchKernelGGL(coop_pe_kernel, dim3(1), dim3(threads), 0, 0, which, sym, n);
  else
    hipLaunchKernelGGL(fault_kernel, dim3(1), dim3(threads), 0, 0, which, sym, priv, n);
  hipError_t e = hipGetLastError();
  if (e == hipSuccess) e = hipDeviceSynchronize();
  if (e != hipSuccess) {
    // The GPU stopped the kernel (GIO traps after printing its line); its context is gone, so
    // leave without running any teardown that would touch it.
    fprintf(stderr, "fault: kernel stopped: %s\n", hipGetErrorString(e));
    fflush(stdout);
    fflush(stderr);
    _exit(1);
  }
}

void fault_park() {
  fflush(stdout);
  fflush(stderr);
  sleep(60);  // mpirun ends this PE when the faulting one aborts; ctest's TIMEOUT is the backstop
  fprintf(stderr, "fault: PE %d parked for 60 s: the other PE never stopped the job\n", shmem_my_pe());
  _exit(4);
}

// Device faults raised by PE 0 against PE 1 (or PE n).
void device_fault(int which, int threads = 1) {
  shmem_init();
  char* sym = (char*)shmem_calloc(1, 4096);
  char* priv = (char*)device_buffer(4096);
  if (shmem_my_pe() != 0) fault_park();
  fault_launch(which, sym, priv, shmem_n_pes(), threads);
}

// Initializes, gives every PE a 4 KiB symmetric block, and parks every PE but 0.
char* pe0_only() {
  shmem_init();
  char* sym = (char*)shmem_calloc(1, 4096);
  if (shmem_my_pe() != 0) fault_park();
  return sym;
}

// Ordinary host memory, outside the symmetric heap and the program's data segment (its globals
// are symmetric: host/heap/globals.h).
char* const host_mem = (char*)calloc(1, 64);
char past_segment_end[64];  // a global, so symmetric: kPastEnd bytes from it run past the segment

struct host_case {
  const char* name;
  void (*run)();
};
// Host-side faults and the runtime's own checks; each must stop inside `run`.
const host_case kHostCases[] = {
    {"host_put_pe", [] { char* s = pe0_only(); shmem_putmem(s, host_mem, 8, shmem_n_pes()); }},
    {"host_put_device_ctx", [] {
       char* s = pe0_only();
       shmem_ctx_t c;
       if (shmem_ctx_create(SHMEM_DEVICE_CTX, &c) == 0) shmem_ctx_putmem(c, s, s + 8, 8, 1);
     }},
    {"host_put_outside", [] { pe0_only(); shmem_putmem(host_mem, host_mem, 8, 1); }},
    {"host_put_past_end", [] { char* s = pe0_only(); shmem_putmem(s, host_mem, kPastEnd, 1); }},
    {"host_get_outside", [] { char* s = pe0_only(); shmem_getmem(s, host_mem, 8, 1); }},
    {"host_put_past_segment",
     [] { char* s = pe0_only(); shmem_putmem(past_segment_end, s, kPastEnd, 1); }},
    {"host_amo_misaligned",
     [] { char* s = pe0_only(); (void)shmem_int64_atomic_fetch_add((int64_t*)(s + 4), 1, 1); }},
    {"host_wait_bad_cmp", [] { char* s = pe0_only(); shmem_int_wait_until((int*)s, 42, 0); }},
    {"host_wait_outside", [] { pe0_only(); (void)shmem_long_test((long*)host_mem, SHMEM_CMP_EQ, 0); }},
    // Nobody writes 42 (7 is the last value seen); the vector form names the element it waited on.
    {"host_wait_timeout",
     [] {
       int* s = (int*)pe0_only();
       shmem_int_p(s, 7, 0);
       shmem_int_wait_until(s, SHMEM_CMP_EQ, 42);
     }},
    {"host_wait_vector_timeout",
     [] {
       long* s = (long*)pe0_only();
       long want[2] = {0, 5};
       shmem_long_wait_until_all_vector(s, 2, nullptr, SHMEM_CMP_EQ, want);
     }},
    {"host_signal_bad_op",
     [] { char* s = pe0_only(); shmem_putmem_signal(s, s + 64, 8, (uint64_t*)(s + 1024), 1, 7, 1); }},
    // Teams and collectives where the spec leaves the behavior undefined: a clear stop instead.
    {"coll_invalid_team",
     [] { int* s = (int*)pe0_only(); (void)shmem_int_sum_reduce(SHMEM_TEAM_INVALID, s, s + 8, 1); }},
    {"coll_stale_team", [] { char* s = pe0_only(); (void)shmem_broadcastmem(STALE_TEAM, s, s + 64, 8, 0); }},
    {"coll_wild_team", [] { char* s = pe0_only(); (void)shmem_broadcastmem(WILD_TEAM, s, s + 64, 8, 0); }},
    {"coll_bad_root", [] { char* s = pe0_only(); (void)shmem_broadcastmem(SHMEM_TEAM_WORLD, s, s + 64, 8, 5); }},
    {"coll_outside_heap",
     [] { char* s = pe0_only(); (void)shmem_fcollectmem(SHMEM_TEAM_WORLD, s, host_mem, 8); }},
    {"coll_not_in_active_set", [] { char* s = pe0_only(); shmem_barrier(1, 0, 1, (long*)s); }},
    {"coll_bad_active_set", [] { char* s = pe0_only(); shmem_barrier(0, 1, 2, (long*)s); }},
    {"team_destroy_world", [] { pe0_only(); shmem_team_destroy(SHMEM_TEAM_WORLD); }},
    {"team_split_mismatch",
     [] {
       shmem_init();
       shmem_team_t t;
       (void)shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_my_pe() + 1, nullptr, 0, &t);
     }},
    // The stream collectives check at the call, on the host, before anything is enqueued.
    {"stream_coll_source_outside",
     [] { char* s = pe0_only(); (void)shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, s, host_mem, 8, nullptr); }},
    {"stream_coll_dest_outside",
     [] {
       float* s = (float*)pe0_only();
       (void)shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, (float*)host_mem, s, 4, nullptr);
     }},
    {"stream_coll_bad_root",
     [] { char* s = pe0_only(); (void)shmemx_broadcastmem_on_stream(SHMEM_TEAM_WORLD, s, s + 64, 8, 5, nullptr); }},
    {"stream_coll_overlap",
     [] { int* s = (int*)pe0_only(); (void)shmemx_int_max_reduce_on_stream(SHMEM_TEAM_WORLD, s + 1, s, 8, nullptr); }},
    {"stream_coll_overflow",
     [] {
       short* s = (short*)pe0_only();
       (void)shmemx_short_alltoall_on_stream(SHMEM_TEAM_WORLD, s, s + 64, SIZE_MAX / 2 + 1, nullptr);
     }},
    {"stream_coll_invalid_team",
     [] { pe0_only(); (void)shmemx_team_sync_on_stream(SHMEM_TEAM_INVALID, nullptr); }},
    // Members that reduce different lengths (an erroneous program) with GIO_COLL_REDUCE=push: PE 0's
    // work-group waits for chunks PE 1 never sends, and must stop naming the member and the chunk.
    {"stream_push_mismatch",
     [] {
       shmem_init();
       float* s = (float*)shmem_calloc(1u << 16, sizeof(float));
       (void)shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, s, s, shmem_my_pe() == 0 ? 1u << 16 : 1u << 12,
                                               nullptr);
       (void)hipDeviceSynchronize();
     }},
    // PE 1 never joins: PE 0's sync must end with a message, not hang.
    {"coll_sync_timeout", [] { pe0_only(); (void)shmem_team_sync(SHMEM_TEAM_WORLD); }},
    // GIO_SYMMETRIC_SIZE=4M: 3M fits once, not twice. Collective, so every PE reports.
    // Not a fault: shmem_malloc returns NULL (on every PE) and the job goes on.
    {"heap_exhausted",
     [] {
       shmem_init();
       (void)shmem_malloc(3u << 20);
       if (shmem_malloc(3u << 20) != nullptr) return;  // main says NO FAULT
       fprintf(stderr, "fault: heap_exhausted: the second shmem_malloc returned NULL on PE %d\n", shmem_my_pe());
       shmem_finalize();
       exit(0);
     }},
    {"malloc_mismatch", [] { shmem_init(); (void)shmem_malloc(1024 * (shmem_my_pe() + 1)); }},
    {"free_non_heap", [] { shmem_init(); shmem_free(host_mem); }},
    {"host_barrier_timeout", [] { shmem_init(); if (shmem_my_pe() != 0) fault_park(); shmem_barrier_all(); }},
    // One PE of several misses the second barrier: the others' timeouts name it.
    {"host_barrier_missing_pe",
     [] {
       shmem_init();
       shmem_barrier_all();
       if (shmem_my_pe() == 2) fault_park();
       shmem_barrier_all();
     }},
    // PE 1 ends (exit, as a return from main does) without shmem_finalize; PE 0 is in its finalize.
    {"no_finalize",
     [] {
       shmem_init();
       shmem_barrier_all();
       if (shmem_my_pe() == 1) {
         fprintf(stderr, "fault: PE 1 exits without shmem_finalize\n");
         exit(0);
       }
       shmem_finalize();
       fault_park();
     }},
    {"host_before_init", [] { (void)shmem_malloc(64); }},
    {"host_after_finalize", [] { shmem_init(); shmem_finalize(); (void)shmem_malloc(64); }},
    {"bad_env", [] { shmem_init(); }},  // run with GIO_SYMMETRIC_SIZE=lots
    // A kernel that finds no published state: none yet, and none any more.
    {"dev_before_init", [] { fault_launch(DF_P_UNINIT, nullptr, (char*)device_buffer(64), 2, 1); }},
    {"dev_after_finalize",
     [] {
       shmem_init();
       char* priv = (char*)device_buffer(64);
       shmem_finalize();
       fault_launch(DF_P_UNINIT, nullptr, priv, 2, 1);
     }},
    {"no_write", fault_no_write},
    {"pe_killed_host_barrier", fault_pe_killed_host_barrier},
    {"pe_killed_dev_wait", fault_pe_killed_dev_wait},
    {"cqe_error", fault_cqe_error},
    {"finalize_outstanding", fault_finalize_outstanding},
    {"proxy_peer_exit_put", fault_proxy_peer_exit_put},
    {"proxy_peer_exit_amo", fault_proxy_peer_exit_amo},
    {"proxy_cmd_bad_pe", fault_proxy_cmd_bad_pe},
    {"proxy_cmd_past_heap", fault_proxy_cmd_past_heap},
    {"host_lock_outside", fault_lock_host_outside},
    {"host_clear_not_held", fault_lock_host_not_held},
    {"host_lock_timeout", fault_lock_host_timeout},
    {"dev_lock_outside", fault_lock_dev_outside},
    {"dev_lock_misaligned", fault_lock_dev_misaligned},
    {"dev_clear_not_held", fault_lock_dev_not_held},
    {"dev_lock_timeout", fault_lock_dev_timeout},
};

struct dev_case {
  const char* name;
  int which;
  int threads;
};
const dev_case kDevCases[] = {
    {"dev_put_pe", DF_PUT_PE, 1},           {"dev_put_outside", DF_PUT_OUTSIDE, 1},
    {"dev_put_past_end", DF_PUT_PAST_END, 1}, {"dev_get_outside", DF_GET_OUTSIDE, 1},
    {"dev_amo_misaligned", DF_AMO_MISALIGNED, 1}, {"dev_wait_bad_cmp", DF_WAIT_BAD_CMP, 1},
    {"dev_signal_bad_op", DF_SIGNAL_BAD_OP, 1}, {"dev_wait_timeout", DF_WAIT_FOREVER, 1},
    {"dev_barrier_timeout", DF_BARRIER_ALONE, 64}, {"dev_put_bad_ctx", DF_PUT_BAD_CTX, 1},
    {"dev_put_dead_ctx", DF_PUT_DEAD_CTX, 1}, {"dev_cas_livelock", DF_CAS_LIVELOCK, 2},
    {"dev_coll_invalid_team", DF_COLL_INVALID_TEAM, 1}, {"dev_coll_stale_team", DF_COLL_STALE_TEAM, 1},
    {"dev_coll_wild_team", DF_COLL_WILD_TEAM, 1},
    {"dev_coll_bad_root", DF_COLL_BAD_ROOT, 1}, {"dev_coll_sync_timeout", DF_COLL_SYNC_ALONE, 1},
    {"dev_coll_ll_timeout", DF_COLL_LL_ALONE, 64}, {"dev_put_wave_pe", DF_PUT_WAVE_PE, 64},
    {"dev_get_wg_pe", DF_GET_WG_PE, 64},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fault <name>   (names: see tests/func/faults/CMakeLists.txt)\n");
    return 64;
  }
  const std::string f = argv[1];
  bool known = false;
  for (const dev_case& c : kDevCases)
    if (f == c.name) {
      known = true;
      device_fault(c.which, c.threads);
    }
  for (const host_case& c : kHostCases)
    if (f == c.name) {
      known = true;
      c.run();
    }
  if (fault_strided(f)) known = true;
  if (!known && fault_openshmem16(f)) known = true;
  if (!known && fault_heaps(f)) known = true;
  if (!known) {
    fprintf(stderr, "fault: unknown fault name '%s'\n", f.c_str());
    return 64;
  }
  fprintf(stderr, "fault: NO FAULT: '%s' ran to the end without GIO stopping it\n", f.c_str());
  return 2;
}
