// C symbols: iput/iget, ibput/ibget (typed, sized, ctx forms) and the subarray extension.
#include "host/capi/capi.h"

GIO_C_FAMILY_STRIDED
