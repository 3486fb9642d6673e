// C symbols: putmem/getmem, typed and sized put/get/p/g (+ _nbi, ctx forms, put_signal).
#include "host/capi/capi.h"

GIO_C_FAMILY_RMA
