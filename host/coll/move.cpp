// Collectives that move data without combining it: broadcast, collect, fcollect, alltoall(s).
//
// Each member pushes what it owns straight into the other members' dest with puts, then the group
// syncs once: every put has completed when it returns, so after the sync each PE's dest holds
// everything sent to it. No sync is needed first: the spec requires every dest to be ready before
// any PE calls, and each PE's source is ready when it calls. Members start with the member after
// themselves, so not everyone writes to member 0 first.
#include <vector>

#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {

void coll_broadcast(runtime& r, const group& g, void* dest, const void* source, size_t bytes, int root,
                    bool root_too) {
  const int n = g.size();
  if (g.me == root)
    for (int k = 1; k <= n; ++k) {
      const int i = (root + k) % n;
      if (i != root)
        put_to(r, g, i, dest, source, bytes);
      else if (root_too && dest != source)
        local_write(r, g, dest, source, bytes);
    }
  group_sync(r, g);
}

void coll_fcollect(runtime& r, const group& g, void* dest, const void* source, size_t bytes) {
  const int n = g.size();
  for (int k = 1; k <= n; ++k) put_to(r, g, (g.me + k) % n, (uint8_t*)dest + (size_t)g.me * bytes, source, bytes);
  group_sync(r, g);
}

// Members contribute different amounts: each publishes its size in its own count word, the group
// syncs, and each reads the sizes of the members before it to find where its block goes.
void coll_collect(runtime& r, const group& g, void* dest, const void* source, size_t bytes) {
  const int n = g.size();
  const uint64_t mine = bytes;
  local_write(r, g, g.count, &mine, sizeof mine);
  group_sync(r, g);
  uint64_t at = 0;
  for (int i = 0; i < g.me; ++i) {
    uint64_t theirs = 0;
    get_from(r, g, i, &theirs, g.count, sizeof theirs);
    at += theirs;
  }
  for (int k = 1; k <= n; ++k) put_to(r, g, (g.me + k) % n, (uint8_t*)dest + at, source, bytes);
  // Every count was read before anyone leaves this sync, so the next collect may overwrite them.
  group_sync(r, g);
  if (!g.consumed) {
    const uint64_t zero = SHMEM_SYNC_VALUE;  // pSync back as the caller gave it
    local_write(r, g, g.count, &zero, sizeof zero);
  }
}

void coll_alltoall(runtime& r, const group& g, void* dest, const void* source, size_t bytes) {
  const int n = g.size();
  for (int k = 1; k <= n; ++k) {
    const int i = (g.me + k) % n;
    put_to(r, g, i, (uint8_t*)dest + (size_t)g.me * bytes, (const uint8_t*)source + (size_t)i * bytes, bytes);
  }
  group_sync(r, g);
}

// Block i of the source (elements i*nelems .. at stride sst) goes to block me of member i's dest (at
// stride dst). The source span is read locally in one copy; a strided dest takes one put per
// element, so the gaps between elements, which the caller owns, are never written.
void coll_alltoalls(runtime& r, const group& g, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
                    size_t nelems, size_t elem) {
  const int n = g.size();
  std::vector<uint8_t> span, packed(nelems * elem);
  if (nelems) span.resize(((nelems - 1) * (size_t)sst + 1) * elem);
  for (int k = 1; k <= n && nelems; ++k) {
    const int i = (g.me + k) % n;
    local_read(r, g, span.data(), (const uint8_t*)source + (size_t)i * nelems * (size_t)sst * elem, span.size());
    for (size_t e = 0; e < nelems; ++e) memcpy(&packed[e * elem], &span[e * (size_t)sst * elem], elem);
    uint8_t* block = (uint8_t*)dest + (size_t)g.me * nelems * (size_t)dst * elem;
    if (dst == 1)
      put_to(r, g, i, block, packed.data(), packed.size());
    else
      for (size_t e = 0; e < nelems; ++e) put_to(r, g, i, block + e * (size_t)dst * elem, &packed[e * elem], elem);
  }
  group_sync(r, g);
}

}  // namespace gio
