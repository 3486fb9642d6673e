// C symbols: the distributed locks and the non-blocking fetching atomics.
#include "host/capi/capi.h"

GIO_C_FAMILY_LOCK_NBI
