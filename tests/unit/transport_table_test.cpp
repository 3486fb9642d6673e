// The host transport tables (host/transport/transport.h): every transport libgio has is
// registered under its contract id and name, fills every operation (its own or the default), and
// an operation a transport lacks is a clear error naming the routine, the PE and the transport.
#include <gtest/gtest.h>

#include <string>

#include "host/config.h"
#include "host/runtime.h"
#include "host/transport/select.h"
#include "host/transport/transport.h"
#include "runtime/status.h"

namespace {

TEST(TransportTable, EachTransportIsRegisteredUnderItsIdAndName) {
  const struct {
    int id;
    const char* name;
    bool load_store;
  } want[] = {{GIO_TRANSPORT_P2P, "p2p", true}, {GIO_TRANSPORT_GDA, "gda", false}, {GIO_TRANSPORT_PROXY, "proxy", false}};
  for (const auto& w : want) {
    const gio::transport_ops* t = gio::transport_find(w.id);
    ASSERT_NE(t, nullptr) << w.name;
    EXPECT_STREQ(t->name, w.name);
    EXPECT_EQ(t->id, w.id);
    EXPECT_EQ(t->load_store, w.load_store) << w.name;
  }
  EXPECT_STREQ(gio::transport_by_id(GIO_TRANSPORT_NONE).name, "none");
  EXPECT_STREQ(gio::transport_by_id(gio::kTransportIds - 1).name, "none");
}

// Callers never test an operation for null: a transport's table starts from the default.
TEST(TransportTable, EveryOperationIsFilled) {
  int seen = 0;
  gio::transport_each([&](const gio::transport_ops& t) {
    ++seen;
    EXPECT_TRUE(t.network && t.probe && t.reach && t.connect && t.disconnect && t.publish) << t.name;
    EXPECT_TRUE(t.put && t.get && t.amo && t.signal && t.drain && t.ptr) << t.name;
  });
  EXPECT_EQ(seen, 3);
}

TEST(TransportTable, ModeIsParsedFromTheSetting) {
  gio::config c;
  c.GIO_TRANSPORT = "gda";
  EXPECT_EQ(gio::transport_mode_of(c), gio::transport_mode::GDA);
  c.GIO_TRANSPORT = "proxy";
  EXPECT_EQ(gio::transport_mode_of(c), gio::transport_mode::PROXY);
  c.GIO_TRANSPORT = "p2p";
  EXPECT_EQ(gio::transport_mode_of(c), gio::transport_mode::P2P);
  c.GIO_TRANSPORT = "auto";
  EXPECT_EQ(gio::transport_mode_of(c), gio::transport_mode::AUTO);
}

// A transport that leaves out an operation: the default says which transport lacks what, for
// which PE, in the routine's name; a peer nothing reaches says how the selector saw it.
TEST(TransportTableDeathTest, MissingOperationsAreClearErrors) {
  EXPECT_EXIT(
      {
        gio::runtime& r = gio::rt();
        r.n_pes = 2;
        r.peers.assign(2, gio::peer{});
        r.peers[1].transport = GIO_TRANSPORT_PROXY;
        const gio::transport_ops t = gio::transport_ops_default("proxy", GIO_TRANSPORT_PROXY);
        uint64_t v = 0;
        t.get(r, "shmem_getmem", &v, 0, sizeof v, 1);
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "shmem_getmem .*the proxy transport, which reaches PE 1, has no host get");
  EXPECT_EXIT(
      {
        gio::runtime& r = gio::rt();
        r.n_pes = 2;
        r.peers.assign(2, gio::peer{});
        r.peers[1].why = "none: on another node";
        uint64_t v = 0;
        gio::transport_of(r, 1).put(r, "shmem_putmem", 0, &v, sizeof v, 1);
      },
      ::testing::ExitedWithCode(GIO_EXIT_CODE), "shmem_putmem .*PE 1 is not reachable from this PE \\(none: on another node\\)");
}

}  // namespace
