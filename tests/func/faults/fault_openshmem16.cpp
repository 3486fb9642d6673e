// The OpenSHMEM 1.6 routines' argument faults: shmem_pe_quiet with a PE out of range (host and
// kernel), a NULL target_pes, a session's unknown config_mask bit and NULL config, a scan whose
// dest is outside the symmetric heap (host and kernel) and shmem_query_initialized with NULL.
// Raised by PE 0; PE 1 parks.
#include <shmem.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace {

enum o16_fault { O16_PE_QUIET, O16_SCAN_OUTSIDE };

__global__ void o16_fault_kernel(int which, int* sym, int* outside) {
  if (threadIdx.x != 0) return;
  if (which == O16_PE_QUIET) {
    const int pes[2] = {1, 5};
    shmem_pe_quiet(pes, 2);
  }
  if (which == O16_SCAN_OUTSIDE) shmem_int_sum_inscan(SHMEM_TEAM_WORLD, outside, sym, 4);
}

int* pe0_sym() {
  shmem_init();
  int* s = (int*)shmem_calloc(64, sizeof(int));
  if (shmem_my_pe() != 0) {
    fflush(stderr);
    sleep(60);  // mpirun ends this PE when PE 0 aborts
    _exit(4);
  }
  return s;
}

void launch(int which) {
  int* s = pe0_sym();
  int* outside = nullptr;
  (void)hipMalloc(&outside, 64 * sizeof(int));
  hipLaunchKernelGGL(o16_fault_kernel, dim3(1), dim3(32), 0, 0, which, s, outside);
  if (hipDeviceSynchronize() != hipSuccess) {
    fprintf(stderr, "fault: the kernel trapped\n");
    _exit(1);
  }
}

}  // namespace

// Runs the case `name` if it is one of these (returning only if GIO did not stop it).
bool fault_openshmem16(const std::string& name) {
  if (name == "pe_quiet_bad_pe") {
    pe0_sym();
    const int pes[3] = {1, 0, 7};
    shmem_pe_quiet(pes, 3);
  } else if (name == "pe_quiet_null") {
    pe0_sym();
    shmem_pe_quiet(nullptr, 2);
  } else if (name == "session_bad_mask") {
    pe0_sym();
    shmem_ctx_session_config_t cfg = {16};
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, &cfg, 6);
  } else if (name == "session_null_config") {
    pe0_sym();
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, nullptr, SHMEM_CTX_SESSION_TOTAL_OPS);
  } else if (name == "scan_outside") {
    int* s = pe0_sym();
    int on_stack[4] = {1, 2, 3, 4};  // not symmetric (a global would be)
    shmem_int_sum_exscan(SHMEM_TEAM_WORLD, s, on_stack, 4);
  } else if (name == "query_initialized_null") {
    pe0_sym();
    shmem_query_initialized(nullptr);
  } else if (name == "dev_pe_quiet_bad_pe") {
    launch(O16_PE_QUIET);
  } else if (name == "dev_scan_outside") {
    launch(O16_SCAN_OUTSIDE);
  } else {
    return false;
  }
  return true;
}
