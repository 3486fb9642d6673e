// How a kernel finds its PE's runtime state with no handle argument.
//
// GIO uses per-module registration, not relocatable device code: every translation unit that
// includes shmem.h and is compiled by a kernel compiler gets its own constant-memory copy of the
// state plus a static registrar; shmem_init fills every registered copy, and modules loaded later
// are filled when they register. So users need no -rdc and no device link step. A kernel run before
// shmem_init sees magic == 0 and stops with a message instead of reading garbage.
// On the host platform there is one process-wide copy inside libgio; modules still register, with
// no copy, so the contract check below covers them too.
//
// libgio and a module's headers may come from different builds. The registrar passes the contract
// version the module was compiled against: shmem_init (or the registration, after init) refuses a
// module of another major or of a newer minor than libgio's, naming both versions. Kernels check
// the version again in state_checked(), against the state libgio published, so a libgio that does
// not check (an older build) cannot make them misread a state of another layout.
#pragma once
#include "device/platform/platform.h"
#include "runtime/contract.h"
#include "runtime/module_abi.h"

#if GIO_KERNEL_COMPILER
#if defined(GIO_PLATFORM_HOST)
extern "C" gio_device_state_v1 gio_host_dstate;
#define GIO_DSTATE gio_host_dstate
#define GIO_MODULE_COPY nullptr
#else
static __constant__ gio_device_state_v1 gio_module_dstate;
#define GIO_DSTATE gio_module_dstate
#define GIO_MODULE_COPY (&gio_module_copy_state)
namespace {
int gio_module_copy_state(const gio_device_state_v1* s) {
  return (int)hipMemcpyToSymbol(HIP_SYMBOL(gio_module_dstate), s, sizeof(*s));
}
}  // namespace
#endif
namespace {
struct gio_module_registrar {
  gio_module_registrar() { gio_register_module_contract(GIO_CONTRACT_MAJOR, GIO_CONTRACT_MINOR, GIO_MODULE_COPY); }
};
gio_module_registrar gio_module_registrar_instance;
}  // namespace
#undef GIO_MODULE_COPY
#endif
