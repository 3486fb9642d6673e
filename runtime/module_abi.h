// What each kernel module and libgio call across the library boundary: module registration (with
// the contract the module was compiled against, see device/core/state.h) and the host platform's
// job abort. Plain C declarations, shared by device headers and host/ (which must not include
// device/ internals).
#pragma once
#include "runtime/contract.h"

extern "C" {
// Called by each module's registrar with the contract its headers describe. shmem_init (or this
// call, if init already ran) checks the version and invokes `copy` (nullptr: no copy to fill).
void gio_register_module_contract(unsigned contract_major, unsigned contract_minor,
                                  int (*copy)(const gio_device_state_v1* state));
// The registrar of modules built before the version was passed: taken as contract 1.1, so since
// contract 2.0 such a module is refused with a message naming both versions.
void gio_register_module(int (*copy)(const gio_device_state_v1* state));
// Host-platform kernels and libgio abort the whole job through here (prints nothing itself).
[[noreturn]] void gio_host_abort(int status);
}
