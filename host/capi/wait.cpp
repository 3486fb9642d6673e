// C symbols: the waits and tests (every form of GIO_WAIT_FORMS on every wait type).
#include "host/capi/capi.h"

GIO_C_FAMILY_WAIT
