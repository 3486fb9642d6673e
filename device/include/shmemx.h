// GIO extensions to OpenSHMEM: cooperative _wg (work-group) and _wave (warp/wavefront) forms,
// per-work-group contexts (shmemx_wg_ctx_create/destroy), _thread barriers, and the stream-ordered
// collectives (shmemx_*_on_stream, host code; C too). Included by shmem.h.
#pragma once
#include "shmem.h"
#include "runtime/api/shmemx_host.h"
#ifdef __cplusplus
#include "device/api/cooperative.h"
#endif
