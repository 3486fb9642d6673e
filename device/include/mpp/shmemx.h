// <mpp/shmemx.h>: the deprecated header directory's extensions header (see mpp/shmem.h).
#pragma once
#include <shmemx.h>
