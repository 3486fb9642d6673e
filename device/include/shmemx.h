// GIO extensions to OpenSHMEM: cooperative _wg (work-group) and _wave (warp/wavefront) forms,
// per-work-group contexts (shmemx_wg_ctx_create/destroy), _thread barriers, and the stream-ordered
// collectives (shmemx_*_on_stream, host code; C too). Included by shmem.h.
#pragma once
#include "shmem.h"
#include "device/api/coll_stream.h"
#ifdef __cplusplus
#include "device/api/cooperative.h"
extern "C" {
#endif
// Host: the transport this PE uses to reach `pe` ("p2p", "gda", "proxy", or "none").
const char* shmemx_transport_name(int pe);
#ifdef __cplusplus
}
#endif
