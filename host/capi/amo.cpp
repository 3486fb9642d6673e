// C symbols: the atomics (1.5 names and ctx forms, and the 1.3 names).
#include "host/capi/capi.h"

GIO_C_FAMILY_AMO
