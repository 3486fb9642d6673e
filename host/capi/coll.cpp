// C symbols: signals, ordering, barriers, queries, contexts, teams and collectives.
#include "host/capi/capi.h"

GIO_C_FAMILY_COLL
