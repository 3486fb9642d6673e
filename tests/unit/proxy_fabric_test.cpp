// The proxy transport's libfabric endpoint (host/proxy/fabric.h): two endpoints of one process,
// PE 0 and PE 1, over each provider the proxy uses on one node (shm) and across nodes
// (tcp;ofi_rxm, bound to loopback). A thread drives PE 1's progress, as its proxy thread will.
#include "host/proxy/fabric.h"
#include "host/proxy/shm_names.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using gio::proxy::amo_kind;
using gio::proxy::fabric;
using gio::proxy::fabric_error;

namespace {

// libfabric reads its providers' interface settings when it first initializes them: before any
// test. Loopback only, never another interface.
const bool loopback_only = [] {
  setenv("FI_TCP_IFACE", "lo", 0);
  setenv("FI_SOCKETS_IFACE", "lo", 0);
  return true;
}();

struct pair_of_pes {
  std::unique_ptr<fabric> a, b;
  std::vector<uint64_t> heap_a = std::vector<uint64_t>(1024, 0), heap_b = std::vector<uint64_t>(1024, 0);
  std::atomic<bool> stop{false};
  std::thread progress;
  gio::proxy::remote_region ra, rb;  // how each heap is addressed (its key, its base)

  explicit pair_of_pes(const std::string& prov, unsigned timeout_ms = 10000) {
    a.reset(new fabric(prov, timeout_ms));
    b.reset(new fabric(prov, timeout_ms));
    const std::vector<std::vector<uint8_t>> names{a->name(), b->name()};
    a->insert_peers(names);
    b->insert_peers(names);
    ra = a->register_region(heap_a.data(), heap_a.size() * 8);
    rb = b->register_region(heap_b.data(), heap_b.size() * 8);
    for (fabric* f : {a.get(), b.get()}) {
      f->set_peer_region(0, ra);
      f->set_peer_region(1, rb);
    }
    progress = std::thread([this] {
      while (!stop.load()) b->progress();
    });
  }
  ~pair_of_pes() {
    stop = true;
    progress.join();
  }
};

class ProxyFabric : public ::testing::TestWithParam<std::string> {};

TEST_P(ProxyFabric, WriteThenReadBack) {
  pair_of_pes p(GetParam());
  // Local buffers inside the registered region (what a provider with FI_MR_LOCAL needs).
  for (int i = 0; i < 64; ++i) p.heap_a[i] = 0x1000 + i;
  p.a->write(1, 8 * 100, p.heap_a.data(), 64 * 8);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(p.heap_b[100 + i], (uint64_t)(0x1000 + i)) << i;  // delivered
  p.heap_b[300] = 0xfeedface;
  p.a->read(1, 8 * 300, &p.heap_a[500], 8);
  EXPECT_EQ(p.heap_a[500], 0xfeedfaceull);
}

TEST_P(ProxyFabric, AtomicsOfBothSizes) {
  pair_of_pes p(GetParam());
  EXPECT_EQ(p.a->atomic(1, 0, amo_kind::fetch_add, 8, 5), 0u);
  EXPECT_EQ(p.a->atomic(1, 0, amo_kind::fetch_add, 8, 7), 5u);
  p.a->atomic(1, 0, amo_kind::add, 8, 30);
  EXPECT_EQ(p.heap_b[0], 42u);
  EXPECT_EQ(p.a->atomic(1, 0, amo_kind::cswap, 8, 99, 41), 42u);  // compare fails
  EXPECT_EQ(p.heap_b[0], 42u);
  EXPECT_EQ(p.a->atomic(1, 0, amo_kind::cswap, 8, 99, 42), 42u);  // compare holds
  EXPECT_EQ(p.heap_b[0], 99u);
  EXPECT_EQ(p.a->atomic(1, 0, amo_kind::swap, 8, 7), 99u);
  EXPECT_EQ(p.a->atomic(1, 0, amo_kind::fetch, 8, 0), 7u);
  p.a->atomic(1, 0, amo_kind::set, 8, 0xf0f0);
  EXPECT_EQ(p.a->atomic(1, 0, amo_kind::fetch_bor, 8, 0x0f), 0xf0f0u);
  EXPECT_EQ(p.a->atomic(1, 0, amo_kind::fetch_band, 8, 0xff), 0xf0ffu);
  EXPECT_EQ(p.a->atomic(1, 0, amo_kind::fetch_bxor, 8, 0x1), 0xffu);
  EXPECT_EQ(p.heap_b[0], 0xfeu);
  // 4 bytes: the neighbouring word is left alone.
  p.heap_b[1] = 0xaaaaaaaa00000000ull;
  EXPECT_EQ(p.a->atomic(1, 8, amo_kind::fetch_add, 4, 0xffffffffu), 0u);
  EXPECT_EQ(p.a->atomic(1, 8, amo_kind::fetch_add, 4, 2), 0xffffffffu);  // wraps in 32 bits
  EXPECT_EQ(p.heap_b[1], 0xaaaaaaaa00000001ull);
}

TEST_P(ProxyFabric, ConcurrentFetchAddsAreExact) {
  pair_of_pes p(GetParam());
  std::vector<std::thread> t;
  for (int k = 0; k < 4; ++k)
    t.emplace_back([&] {
      for (int i = 0; i < 200; ++i) p.a->atomic(1, 16, amo_kind::fetch_add, 8, 1);
    });
  for (auto& x : t) x.join();
  EXPECT_EQ(p.heap_b[2], 800u);
}

TEST_P(ProxyFabric, BadArgumentsNameTheOperationAndPe) {
  pair_of_pes p(GetParam());
  try {
    p.a->write(7, 0, p.heap_a.data(), 8);
    FAIL() << "a write to PE 7 of 2 went through";
  } catch (const fabric_error& e) {
    EXPECT_NE(std::string(e.what()).find("to PE 7"), std::string::npos) << e.what();
  }
  try {
    p.a->atomic(1, 0, amo_kind::add, 2, 1);
    FAIL() << "a 2-byte atomic went through";
  } catch (const fabric_error& e) {
    EXPECT_NE(std::string(e.what()).find("4 or 8 bytes"), std::string::npos) << e.what();
  }
}

// A heap's key is not one every GIO process knows: two registrations draw different keys, and a
// write that names PE 1's heap with another key (the old fixed 0x6710, or one bit off) fails and
// writes nothing. (The provider then drops the connection, or never completes the write: each
// guess gets a fresh pair of endpoints.)
TEST_P(ProxyFabric, WriteWithAWrongKeyFails) {
  for (int k = 0; k < 2; ++k) {
    pair_of_pes p(GetParam(), 2000);
    EXPECT_NE(p.ra.key, p.rb.key);
    const uint64_t guess = k == 0 ? 0x6710 : p.rb.key ^ 1;
    if (guess == p.rb.key) continue;
    p.a->set_peer_region(1, {guess, p.rb.base});
    p.heap_a[0] = 0xbad;
    try {
      p.a->write(1, 8 * 10, p.heap_a.data(), 8);
      ADD_FAILURE() << "a write with key " << guess << " (the heap's is " << p.rb.key << ") went through";
    } catch (const fabric_error& e) {
      EXPECT_NE(std::string(e.what()).find("to PE 1"), std::string::npos) << e.what();
    }
    EXPECT_EQ(p.heap_b[10], 0u) << "key " << guess;
  }
}

INSTANTIATE_TEST_SUITE_P(Providers, ProxyFabric, ::testing::Values("shm", "tcp;ofi_rxm"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           return i.param == "shm" ? std::string("shm") : std::string("tcp_rxm");
                         });

TEST(ProxyFabricOpen, UnknownProviderIsAClearError) {
  try {
    fabric f("no-such-provider", 1000);
    FAIL() << "opened a provider that does not exist";
  } catch (const fabric_error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-provider"), std::string::npos) << e.what();
  }
}

// A process killed before closing its endpoint leaves its shm region behind (/dev/shm), named by
// libfabric after its PID by default. When a later process gets that PID back, an endpoint named
// the default way finds the name taken and fi_enable fails with EBUSY: CI saw exactly that. Here
// this process's own default names are taken by stale regions before it opens an endpoint.
TEST(ProxyFabricOpen, StaleShmRegionOfAnEarlierProcessWithThisPid) {
  std::vector<std::string> stale;
  for (int dom = 0; dom < 4; ++dom)
    for (int ep = 0; ep < 64; ++ep) {
      const std::string n = "/" + std::to_string(getpid()) + ":" + std::to_string(dom) + ":" + std::to_string(ep);
      const int fd = shm_open(n.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
      if (fd < 0) continue;  // already there: not ours to remove
      close(fd);
      stale.push_back(n);
    }
  ASSERT_FALSE(stale.empty());
  std::string err;
  try {
    fabric f("shm", 1000);
  } catch (const fabric_error& e) {
    err = e.what();
  }
  for (const std::string& n : stale) shm_unlink(n.c_str());
  EXPECT_EQ(err, "") << "a stale region from an earlier process with this PID stopped the endpoint";
}

// ---- shm regions in /dev/shm (fabric.h): nothing is left there however a process ends ----------
std::string pid_ns() {
  struct stat st;
  return stat("/proc/self/ns/pid", &st) == 0 ? std::to_string(st.st_ino) : "0";
}

// This process's shm regions in `dir`.
std::vector<std::string> own_regions(const char* dir = "/dev/shm") {
  const std::string prefix = "gio-" + pid_ns() + "-" + std::to_string(getpid()) + "-";
  std::vector<std::string> found;
  if (DIR* d = opendir(dir)) {
    while (dirent* e = readdir(d))
      if (strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0) found.push_back(e->d_name);
    closedir(d);
  }
  return found;
}

// Released once both have inserted each other's address: the names are gone and the endpoints
// still reach each other (shm mapped the regions at insert_peers).
TEST(ProxyShmRegions, ReleasedNamesLeaveNothingAndTrafficGoesOn) {
  pair_of_pes p("shm");
  EXPECT_EQ(own_regions().size(), 2u) << "one region per endpoint, named gio-<PID namespace>-<PID>-<random>";
  p.a->release_name();
  p.b->release_name();
  EXPECT_EQ(own_regions().size(), 0u);
  const uint64_t v = 0x1122334455667788ull;
  p.a->write(1, 64, &v, 8);
  EXPECT_EQ(p.heap_b[8], v);
  EXPECT_EQ(p.a->atomic(1, 64, amo_kind::fetch_add, 8, 1), v);
  uint64_t back = 0;
  p.a->read(1, 64, &back, 8);
  EXPECT_EQ(back, v + 1);
}

// What an abort runs (host/log.h at_abort): this process's regions go.
TEST(ProxyShmRegions, AbortHookRemovesThisProcesssRegions) {
  fabric f("shm", 1000);
  ASSERT_EQ(own_regions().size(), 1u);
  gio::proxy::unlink_own_shm_regions();
  EXPECT_EQ(own_regions().size(), 0u);
}

// Regions of processes that no longer exist, in this PID namespace, are removed; nothing else.
TEST(ProxyShmRegions, RemovesOnlyTheRegionsOfProcessesThatAreGone) {
  char dir[] = "/tmp/gio-shm-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);  // its PID now names no process (reuse within the test is unlikely)
  const std::string ns = pid_ns(), dead = std::to_string(child), alive = std::to_string(getpid());
  const std::string other_ns = std::to_string(std::stoull(ns) + 1);
  const std::vector<std::string> files = {
      "gio-" + ns + "-" + dead + "-0123456789abcdef",         // gone: removed
      "gio-" + ns + "-" + alive + "-0123456789abcdef",        // this process: kept
      "gio-" + other_ns + "-" + dead + "-0123456789abcdef",   // another PID namespace: kept
      "gio-" + dead + "-0123456789abcdef",                    // an older name without one: kept
      "gio-" + ns + "-" + dead + "-0123456789abcdef.bak",     // not a region name: kept
      "gio-heap-" + dead,                                     // not a region name: kept
  };
  for (const std::string& f : files) {
    const int fd = open((std::string(dir) + "/" + f).c_str(), O_CREAT | O_WRONLY, 0600);
    ASSERT_GE(fd, 0) << f;
    close(fd);
  }
  EXPECT_EQ(gio::proxy::remove_dead_shm_regions(dir), 1u);
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string path = std::string(dir) + "/" + files[i];
    EXPECT_EQ(access(path.c_str(), F_OK) == 0, i != 0) << files[i];
    unlink(path.c_str());
  }
  rmdir(dir);
}

}  // namespace
