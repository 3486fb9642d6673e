// C and C++ symbols: the names older than OpenSHMEM 1.4 (shmem_c_table.h says which and why).
#include "host/capi/capi.h"

GIO_C_FAMILY_LEGACY
