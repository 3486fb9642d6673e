// GIO's host-only extensions that C and C++ programs share: the transport query and the
// stream-ordered collectives (coll_stream.h). Included by shmemx.h and by libgio.
#pragma once
#include "runtime/api/coll_stream.h"

#ifdef __cplusplus
extern "C" {
#endif
// Host: the transport this PE uses to reach `pe` ("p2p", "gda", "proxy", or "none").
const char* shmemx_transport_name(int pe);
#ifdef __cplusplus
}
#endif
