// Which transport reaches each peer: decided once at init, with the reason recorded per peer
// (peer::why, which gio-info prints). The only reader of GIO_TRANSPORT.
#pragma once
#include <string>

namespace gio {
struct runtime;
struct config;

enum class transport_mode { AUTO, P2P, GDA, PROXY };
// GIO_TRANSPORT as parsed once (host/config_keys.h has already checked the word).
transport_mode transport_mode_of(const config& c);
const char* transport_mode_name(transport_mode m);

// shmem_init (collective): probes every transport, picks one per peer, connects those in use.
void transports_connect(runtime& r);
// shmem_finalize: disconnects every transport, p2p last (its mappings serve the others).
void transports_disconnect(runtime& r);

}  // namespace gio
