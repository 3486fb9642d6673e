// Arrival counts of the host world barriers (arrivals.h).
#include "host/coll/arrivals.h"

#include <cstring>
#include <string>
#include <vector>

#include "runtime/host_entry.h"
#include "host/bootstrap/bootstrap.h"
#include "host/coll/coll.h"
#include "host/runtime.h"

namespace gio {
namespace {

uint64_t* arrivals_word(runtime& r) { return r.coll ? r.coll->arrivals : nullptr; }

// The bootstrap asks on a timeout (bootstrap.h's waiting_for): the PEs whose count is below this
// PE's have not entered this barrier. Read with the transports' fetch, bounded like any of them.
std::string who_is_missing(const char* what) {
  runtime& r = rt();
  if (!r.initialized || !r.heap || (strcmp(what, "shmem_barrier_all") != 0 && strcmp(what, "shmem_sync_all") != 0))
    return "";
  uint64_t* word = arrivals_word(r);
  if (!word) return "";
  const uint64_t mine = gio_host_amo(what, nullptr, GIO_AMO_FETCH, word, 0, 0, sizeof(uint64_t), r.my_pe);
  std::vector<int> missing;
  for (int pe = 0; pe < r.n_pes; ++pe)
    if (pe != r.my_pe && gio_host_amo(what, nullptr, GIO_AMO_FETCH, word, 0, 0, sizeof(uint64_t), pe) < mine)
      missing.push_back(pe);
  if (missing.empty()) return "";
  std::string list;
  const size_t shown = missing.size() < 16 ? missing.size() : 16;
  for (size_t i = 0; i < shown; ++i) {
    if (i) list += i + 1 == missing.size() ? " and " : ", ";
    list += std::to_string(missing[i]);
  }
  if (shown < missing.size()) list += " and " + std::to_string(missing.size() - shown) + " more";
  const bool one = missing.size() == 1;
  return std::string(one ? "PE " : "PEs ") + list + (one ? ", which has" : ", which have") +
         " not entered it (host world barrier " + std::to_string(mine) + " of this PE; " +
         std::to_string(r.n_pes - 1 - (int)missing.size()) + " of the other " + std::to_string(r.n_pes - 1) +
         " PEs have)";
}

}  // namespace

void world_barrier_arrive(runtime& r) {
  if (!arrivals_word(r)) return;
  boot::set_waiting_for(who_is_missing);
  gio_host_amo("shmem_barrier_all", nullptr, GIO_AMO_FETCH_ADD, arrivals_word(r), 1, 0, sizeof(uint64_t), r.my_pe);
}

}  // namespace gio
