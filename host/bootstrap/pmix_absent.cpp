// libgio built without libpmix-dev: no PMIx bootstrap (GIO_BOOTSTRAP=pmix says so; auto uses MPI).
#include "host/bootstrap/bootstrap.h"

namespace gio {
namespace boot {
const ops* pmix_ops() { return nullptr; }
}  // namespace boot
}  // namespace gio
