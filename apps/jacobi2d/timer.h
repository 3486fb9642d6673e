// Wall-clock seconds on the host.
#pragma once
#include <chrono>

namespace jacobi {
inline double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace jacobi
