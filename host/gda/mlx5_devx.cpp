// Real ConnectX discovery. GIO's gda queues have the exact mlx5 layout a ConnectX reads, so a
// DEVX backend (mlx5dv_devx_* queue creation over the same memory) can drive them; until one is
// validated on hardware this only detects devices, and the softnic drives the queues.
#include <string>

#include "host/gda/gda.h"

#if defined(GIO_HAVE_RDMA_CORE)
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#endif

namespace gio {

int mlx5_device_count(std::string* why) {
#if defined(GIO_HAVE_RDMA_CORE)
  int n = 0, found = 0;
  ibv_device** list = ibv_get_device_list(&n);
  for (int i = 0; list && i < n; ++i)
    if (mlx5dv_is_supported(list[i])) ++found;
  if (list) ibv_free_device_list(list);
  if (!found) *why = "no ConnectX (mlx5) device found by rdma-core (" + std::to_string(n) + " RDMA devices)";
  return found;
#else
  *why = "this libgio was built without rdma-core";
  return 0;
#endif
}

}  // namespace gio
