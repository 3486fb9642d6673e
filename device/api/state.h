// How a kernel finds its PE's runtime state with no handle argument.
//
// GIO uses per-module registration, not relocatable device code: every translation unit that
// includes shmem.h and is compiled by a kernel compiler gets its own constant-memory copy of the
// state plus a static registrar; shmem_init fills every registered copy, and modules loaded later
// are filled when they register. So users need no -rdc and no device link step. A kernel run before
// shmem_init sees magic == 0 and stops with a message instead of reading garbage.
// On the host platform there is one process-wide copy inside libgio.
#pragma once
#include "device/platform/platform.h"
#include "runtime/contract.h"

extern "C" {
// Called by each module's registrar; shmem_init (or this call, if init already ran) invokes `copy`.
void gio_register_module(int (*copy)(const gio_device_state_v1* state));
// Host-platform kernels and libgio abort the whole job through here (prints nothing itself).
[[noreturn]] void gio_host_abort(int status);
}

#if GIO_KERNEL_COMPILER
#if defined(GIO_PLATFORM_HOST)
extern "C" gio_device_state_v1 gio_host_dstate;
#define GIO_DSTATE gio_host_dstate
#else
static __constant__ gio_device_state_v1 gio_module_dstate;
#define GIO_DSTATE gio_module_dstate
namespace {
int gio_module_copy_state(const gio_device_state_v1* s) {
  return (int)hipMemcpyToSymbol(HIP_SYMBOL(gio_module_dstate), s, sizeof(*s));
}
struct gio_module_registrar {
  gio_module_registrar() { gio_register_module(&gio_module_copy_state); }
};
gio_module_registrar gio_module_registrar_instance;
}  // namespace
#endif
#endif
