// fault_contract <name>: a kernel module compiled against another host/device contract than libgio's
// must be refused with both versions named, never run against a state it would misread (run as 2
// PEs under giorun; expected messages in CMakeLists.txt). The "modules" here are fakes: this
// program registers extra copy callbacks with made-up versions, as a module built elsewhere would.
#include <shmem.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
int g_copies = 0;
int fake_copy(const gio_device_state_v1* s) {
  g_copies += s->magic == GIO_STATE_MAGIC;
  return 0;
}

void park() {
  fflush(stderr);
  sleep(60);  // mpirun ends this PE when the faulting one aborts
  fprintf(stderr, "fault_contract: PE %d parked for 60 s: the other PE never stopped the job\n", shmem_my_pe());
  _exit(4);
}

__global__ void touch_state(int* dst) { shmem_int_p(dst, 1, 0); }

// Rewrites this module's copy of the state libgio published, as a libgio of another version would
// have written it; returns the copy as written.
template <typename Edit>
gio_device_state_v1 republish_state(Edit edit) {
  gio_device_state_v1 s;
  if (hipMemcpyFromSymbol(&s, HIP_SYMBOL(GIO_DSTATE), sizeof s) != hipSuccess) exit(3);
  edit(s);
  if (hipMemcpyToSymbol(HIP_SYMBOL(GIO_DSTATE), &s, sizeof s) != hipSuccess) exit(3);
  return s;
}

// The kernel side: libgio's published state claims another major (as a libgio of another major
// would write it); the module's first routine must stop.
void device_other_major() {
  shmem_init();
  int* dst = (int*)shmem_calloc(1, sizeof(int));
  if (shmem_my_pe() != 0) park();
  republish_state([](gio_device_state_v1& s) { s.version_major = 99; });
  hipLaunchKernelGGL(touch_state, dim3(1), dim3(1), 0, 0, dst);
  hipError_t e = hipDeviceSynchronize();
  if (e != hipSuccess) {  // GPUs: the kernel trapped after printing its line
    fprintf(stderr, "fault_contract: kernel stopped: %s\n", hipGetErrorString(e));
    fflush(stderr);
    _exit(1);
  }
}
// libgio's published state claims a newer minor than this module's (a libgio that added fields at
// the end): the module's routines must run as usual. Every PE puts to the next and checks its own
// word; the device's fast check fails on the version and its slow half lets the call through.
__global__ void put_next(int* dst, int pe) { shmem_int_p(dst, 7, pe); }
int device_newer_minor() {
  shmem_init();
  int* dst = (int*)shmem_calloc(1, sizeof(int));
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const gio_device_state_v1 s = republish_state([](gio_device_state_v1& st) { st.version_minor += 1; });
  hipLaunchKernelGGL(put_next, dim3(1), dim3(1), 0, 0, dst, (me + 1) % n);
  if (hipDeviceSynchronize() != hipSuccess) exit(3);
  shmem_barrier_all();
  int got = 0;
  if (hipMemcpy(&got, dst, sizeof got, hipMemcpyDeviceToHost) != hipSuccess) exit(3);
  printf("fault_contract: dev_contract_newer_minor: PE %d of %d read %d (want 7) with libgio's minor %u\n", me, n, got,
         (unsigned)s.version_minor);
  fflush(stdout);
  shmem_finalize();
  return got == 7 ? 0 : 5;
}
}  // namespace

int main(int argc, char** argv) {
  const std::string f = argc == 2 ? argv[1] : "";
  if (f == "contract_newer_minor") {  // a module that may read fields this libgio never fills
    gio_register_module_contract(GIO_CONTRACT_MAJOR, 999, fake_copy);
    shmem_init();
  } else if (f == "contract_other_major") {
    gio_register_module_contract(99, 0, fake_copy);
    shmem_init();
  } else if (f == "contract_late") {  // loaded after shmem_init: refused as it registers
    shmem_init();
    if (shmem_my_pe() != 0) park();
    gio_register_module_contract(99, 0, fake_copy);
  } else if (f == "contract_accepted") {  // the same major at minor 0 (no newer than libgio's)
    gio_register_module_contract(GIO_CONTRACT_MAJOR, 0, fake_copy);
    shmem_init();
    const int copies = g_copies;
    shmem_finalize();
    printf("fault_contract: contract_accepted: %d module of minor 0 accepted and given the state\n", copies);
    return copies == 1 ? 0 : 5;
  } else if (f == "contract_old_registrar") {  // modules built before the version was passed: 1.1
    gio_register_module(fake_copy);
    shmem_init();
  } else if (f == "dev_contract_major") {
    device_other_major();
  } else if (f == "dev_contract_newer_minor") {
    return device_newer_minor();
  } else {
    fprintf(stderr, "fault_contract: unknown fault name '%s'\n", f.c_str());
    return 64;
  }
  fprintf(stderr, "fault_contract: NO FAULT: '%s' ran to the end without GIO stopping it\n", f.c_str());
  return 2;
}
