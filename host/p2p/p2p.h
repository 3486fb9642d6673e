// p2p transport, host half: the set-up (p2p.cpp) and the table of operations (p2p_ops.cpp).
#pragma once
#include <string>

namespace gio {
struct runtime;

// Collective: maps every same-node peer's heap (peer::base, peer::mapped); peer::why says how, or
// why not.
void p2p_probe(runtime& r);
// Whether loads and stores reach `pe`, and how (or why not).
bool p2p_reach(const runtime& r, int pe, std::string* how);
// Unmaps the peers' heaps and forgets the peers.
void p2p_disconnect(runtime& r);

}  // namespace gio
