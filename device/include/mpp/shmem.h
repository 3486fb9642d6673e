// <mpp/shmem.h>: the header directory OpenSHMEM keeps for SGI SHMEM programs (deprecated since 1.1,
// still required by the spec). The same API as <shmem.h>.
#pragma once
#include <shmem.h>
