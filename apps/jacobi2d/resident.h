// How many work-groups of `kernel` the device runs at once (multiprocessors x occupancy).
#pragma once
#include <algorithm>

#include "hip_check.h"

namespace jacobi {
template <typename K>
int resident(K kernel, int block) {
  int dev = 0, per_mp = 0;
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDevice(&dev));
  HIP_CHECK(hipGetDeviceProperties(&prop, dev));
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_mp, kernel, block, 0));
  return std::max(1, per_mp) * prop.multiProcessorCount;
}
}  // namespace jacobi
