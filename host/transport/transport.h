// The host half of a transport, as one table of operations. Each transport fills one in its own
// folder (host/p2p/p2p_ops.cpp, host/gda/gda_ops.cpp, host/proxy/proxy_ops.cpp) and registers it
// from there; whatever it leaves out keeps the default, which says the transport does not do it.
// Host RMA, strided, AMO, signal, locks, teams and collectives reach a peer only through
// transport_of(r, pe); host/transport/select.cpp alone decides which table each peer gets.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "runtime/contract.h"

struct gio_strided_shape;

namespace gio {
struct runtime;

struct transport_ops {
  const char* name = "none";   // "p2p", "gda", "proxy": its folder under host/ and device/
  int id = GIO_TRANSPORT_NONE;  // what kernels switch on (runtime/contract.h)
  bool load_store = false;      // peers are reached by loads and stores (kernels' LL protocol needs it)

  // Set-up (host/transport/select.cpp calls these, on every PE in the same order: they are collective).
  // Whether GIO_TRANSPORT=auto may give it the peers loads and stores cannot reach (gda: a ConnectX
  // is here; proxy: libgio has libfabric), else why not. Also whether GIO_TRANSPORT=<name> can work.
  bool (*network)(const runtime& r, std::string* why) = nullptr;
  // Before anything is chosen, on every PE (p2p maps the peers' heaps here: the softnic plays the
  // network with those mappings whatever is chosen).
  void (*probe)(runtime& r) = nullptr;
  // Whether it can reach `pe` once probed, and how (or why not); once connected, `how` describes
  // the path it set up (gio-info prints it per peer).
  bool (*reach)(const runtime& r, int pe, std::string* how) = nullptr;
  // On every PE when any PE chose it for some peer (its peers are already marked with its id).
  void (*connect)(runtime& r) = nullptr;
  void (*disconnect)(runtime& r) = nullptr;
  // Fills its part of the state kernels read (queue descriptors, sets), once connected.
  void (*publish)(const runtime& r, gio_device_state_v1& s) = nullptr;

  // Host-initiated data movement: each has completed when it returns. `off` is a symmetric offset
  // (host/heap/globals.h) that the caller checked; `routine` names the public call in errors.
  void (*put)(runtime& r, const char* routine, uint64_t off, const void* src, size_t n, int pe) = nullptr;
  void (*get)(runtime& r, const char* routine, void* dst, uint64_t off, size_t n, int pe) = nullptr;
  // gio_amo_op `op` on the 4- or 8-byte word at `off`; returns the old value's bits.
  uint64_t (*amo)(runtime& r, const char* routine, int op, uint64_t off, uint64_t value, uint64_t compare,
                  size_t size, int pe) = nullptr;
  // The signal word's update of a put-with-signal, after the put's data: `op` is GIO_AMO_SET
  // (SHMEM_SIGNAL_SET) or GIO_AMO_FETCH_ADD (SHMEM_SIGNAL_ADD). Default: the transport's amo.
  void (*signal)(runtime& r, const char* routine, uint64_t off, uint64_t value, int op, int pe) = nullptr;
  // A strided put or get in one call; nullptr: host/strided.cpp moves it one block at a time.
  void (*strided)(runtime& r, const char* routine, bool is_put, void* local, uint64_t off,
                  const gio_strided_shape& shape, int pe) = nullptr;
  // Completes what this PE's kernels and host threads left with the transport (quiet, barrier,
  // finalize); a no-op for a transport whose operations complete as they are issued.
  void (*drain)(runtime& r, const char* routine) = nullptr;
  // Where the host may load and store the peer's symmetric offset, or nullptr (shmem_ptr).
  void* (*ptr)(runtime& r, uint64_t off, int pe) = nullptr;

  // gio-info: what it uses or would use (PE 0, once), and this PE's view of it.
  void (*describe)(const runtime& r, FILE* out) = nullptr;
  void (*describe_pe)(const runtime& r, FILE* out) = nullptr;
};

// A table with every operation at its default: set-up does nothing, data movement is a fatal
// error naming the routine, the PE and the transport. Transports start from it.
transport_ops transport_ops_default(const char* name, int id);
// Registers a transport's table (from a static object in its folder, before main).
void transport_register(const transport_ops& ops);
struct transport_registrar {
  explicit transport_registrar(const transport_ops& ops) { transport_register(ops); }
};

// The table of a transport id; an id nothing registered gets the "none" table, whose operations
// say the peer is not reachable.
const transport_ops& transport_by_id(int id);
// The table this PE uses to reach `pe` (0 <= pe < n_pes, checked by the caller).
const transport_ops& transport_of(const runtime& r, int pe);
// The table that moves symmetric offset `off` of `pe` (host/transport/heap_route.cpp): the peer's
// transport for the GPU heap and the globals; for the default heap, which is host memory, p2p's
// (the CPU through the node-local mapping) whatever the peer's transport, the proxy for a peer on
// another node, else a fatal error naming `routine`, the PE and the address. Host RMA, AMOs,
// signals, strided, locks and collectives all choose through it.
const transport_ops& transport_for(runtime& r, const char* routine, uint64_t off, int pe);
// Whether transport_for finds a table for `off` of `pe` (shmem_addr_accessible).
bool transport_reaches(const runtime& r, uint64_t off, int pe);
// Largest id + 1 a table may have; the registered table of an id, or nullptr.
constexpr int kTransportIds = 8;
const transport_ops* transport_find(int id);
// Every registered table, in id order (set-up, drains, gio-info).
template <typename F>
void transport_each(F&& f) {
  for (int id = 0; id < kTransportIds; ++id)
    if (const transport_ops* t = transport_find(id)) f(*t);
}

// Drains every transport (host quiet, barrier, finalize).
void transports_drain(runtime& r, const char* routine);

}  // namespace gio
