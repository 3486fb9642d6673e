// The transports' tables: the default one a transport starts from, registration, and lookup.
#include <array>

#include "host/log.h"
#include "host/runtime.h"
#include "host/transport/transport.h"
#include "runtime/host_entry.h"

namespace gio {
namespace {

// Function-local: transports register from static initializers of other files, in no set order.
std::array<const transport_ops*, kTransportIds>& tables() {
  static std::array<const transport_ops*, kTransportIds> t{};
  return t;
}

// The peer's transport does not do this operation (or no transport reaches the peer): a clear
// error naming the routine, the PE and how the peer was chosen, never a silent no-op.
[[noreturn]] void unsupported(runtime& r, const char* routine, const char* what, int pe) {
  const peer& p = r.peers[pe];
  if (p.transport == GIO_TRANSPORT_NONE)
    fatal(GIO_ERR_TRANSPORT, routine, "PE %d is not reachable from this PE (%s)", pe, p.why.c_str());
  fatal(GIO_ERR_TRANSPORT, routine, "the %s transport, which reaches PE %d, has no host %s", transport_of(r, pe).name,
        pe, what);
}

void no_put(runtime& r, const char* routine, uint64_t, const void*, size_t, int pe) { unsupported(r, routine, "put", pe); }
void no_get(runtime& r, const char* routine, void*, uint64_t, size_t, int pe) { unsupported(r, routine, "get", pe); }
uint64_t no_amo(runtime& r, const char* routine, int, uint64_t, uint64_t, uint64_t, size_t, int pe) {
  unsupported(r, routine, "atomic", pe);
}
// A signal is an atomic on the signal word: a transport with atomics has signals.
void amo_signal(runtime& r, const char* routine, uint64_t off, uint64_t value, int op, int pe) {
  transport_for(r, routine, off, pe).amo(r, routine, op, off, value, 0, sizeof(uint64_t), pe);
}
bool not_network(const runtime&, std::string* why) {
  *why = "not a network transport";
  return false;
}
bool never(const runtime&, int, std::string* how) {
  *how = "not reachable";
  return false;
}
void nothing(runtime&) {}
void nothing_to_publish(const runtime&, gio_device_state_v1&) {}
void nothing_to_drain(runtime&, const char*) {}
void* no_ptr(runtime&, uint64_t, int) { return nullptr; }

const transport_ops& none_table() {
  static const transport_ops t = transport_ops_default("none", GIO_TRANSPORT_NONE);
  return t;
}

}  // namespace

transport_ops transport_ops_default(const char* name, int id) {
  transport_ops t;
  t.name = name;
  t.id = id;
  t.network = not_network;
  t.probe = nothing;
  t.reach = never;
  t.connect = nothing;
  t.disconnect = nothing;
  t.publish = nothing_to_publish;
  t.put = no_put;
  t.get = no_get;
  t.amo = no_amo;
  t.signal = amo_signal;
  t.drain = nothing_to_drain;
  t.ptr = no_ptr;
  return t;
}

void transport_register(const transport_ops& ops) {
  if (ops.id <= GIO_TRANSPORT_NONE || ops.id >= kTransportIds || tables()[ops.id])
    fatal(GIO_ERR_INIT, "libgio", "transport %s registers id %d, which is out of range or taken", ops.name, ops.id);
  tables()[ops.id] = new transport_ops(ops);  // lives as long as the process
}

const transport_ops* transport_find(int id) { return id > 0 && id < kTransportIds ? tables()[id] : nullptr; }

const transport_ops& transport_by_id(int id) {
  const transport_ops* t = transport_find(id);
  return t ? *t : none_table();
}

const transport_ops& transport_of(const runtime& r, int pe) { return transport_by_id(r.peers[pe].transport); }

void transports_drain(runtime& r, const char* routine) {
  transport_each([&](const transport_ops& t) { t.drain(r, routine); });
}

}  // namespace gio
