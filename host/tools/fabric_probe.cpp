// gio-fabric-probe: the limit the proxy's staged puts are measured against. Two PEs, one libfabric
// endpoint each (host/proxy/fabric.h, the proxy's own wire), host memory only: PE 0 streams
// messages of each size to PE 1, which takes each one and acknowledges it, with `depth` messages
// unacknowledged at most: the staged protocol of proxy_run.cpp without its device-to-host and
// host-to-device copies. Depth 1 is the unpipelined protocol; a large depth approaches what the
// provider moves at all.
//
//   giorun -n 2 gio-fabric-probe [--provider shm|"tcp;ofi_rxm"] [--depth 1,4,16]
//                                [--min-size 4K] [--max-size 4M] [--bytes 256M] [--json FILE]
// Bootstraps over MPI (it does not start GIO). Prints a table; --json writes one line per point.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "host/proxy/fabric.h"

namespace {

struct options {
  std::string provider = "shm";
  std::vector<unsigned> depths{1, 4, 16};
  size_t min_size = 4096, max_size = 4u << 20, bytes = 256u << 20;
  std::string json;
};

[[noreturn]] void usage_error(const char* what, const char* value) {
  fprintf(stderr, "gio-fabric-probe: %s \"%s\" (sizes take K or M; depths a comma list in [1, 64])\n", what, value);
  MPI_Abort(MPI_COMM_WORLD, 2);
  exit(2);
}

size_t parse_size(const char* s) {
  char* end = nullptr;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s) usage_error("not a size:", s);
  if (*end == 'K') v <<= 10, ++end;
  else if (*end == 'M') v <<= 20, ++end;
  if (*end || v == 0) usage_error("not a size:", s);
  return (size_t)v;
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage_error("missing the value of", argv[i]);
    const char* v = argv[++i];
    if (a == "--provider") o.provider = v;
    else if (a == "--min-size") o.min_size = parse_size(v);
    else if (a == "--max-size") o.max_size = parse_size(v);
    else if (a == "--bytes") o.bytes = parse_size(v);
    else if (a == "--json") o.json = v;
    else if (a == "--depth") {
      o.depths.clear();
      for (const char* p = v; *p;) {
        char* end = nullptr;
        const unsigned long d = strtoul(p, &end, 10);
        if (end == p || d < 1 || d > 64 || (*end && *end != ',')) usage_error("bad --depth", v);
        o.depths.push_back((unsigned)d);
        p = *end ? end + 1 : end;
      }
    } else {
      usage_error("unknown option", argv[i - 1]);
    }
  }
  if (o.min_size > o.max_size) usage_error("--min-size is above --max-size:", argv[0]);
  return o;
}

std::vector<uint8_t> all_gather(const std::vector<uint8_t>& mine, int n, size_t* each) {
  unsigned long long len = mine.size(), most = 0;
  MPI_Allreduce(&len, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  std::vector<uint8_t> pad(mine);
  pad.resize(most);
  std::vector<uint8_t> all(most * n);
  MPI_Allgather(pad.data(), (int)most, MPI_BYTE, all.data(), (int)most, MPI_BYTE, MPI_COMM_WORLD);
  *each = most;
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const options o = parse(argc, argv);
  if (n != 2) usage_error("needs exactly 2 PEs, not", std::to_string(n).c_str());
  FILE* json = nullptr;
  if (me == 0 && !o.json.empty() && !(json = fopen(o.json.c_str(), "w"))) usage_error("cannot write", o.json.c_str());
  unsigned most_depth = 1;
  for (unsigned d : o.depths) most_depth = d > most_depth ? d : most_depth;
  // Both PEs are on this node: tcp stays on loopback unless told otherwise (as the proxy does).
  setenv("FI_TCP_IFACE", "lo", 0);
  try {
    gio::proxy::fabric f(o.provider, 60000);
    // Receives: PE 1 takes up to `depth` messages in flight, PE 0 as many acknowledgements.
    const size_t msg = o.max_size;
    std::vector<uint8_t> recv_mem(msg * most_depth), send_mem(msg * most_depth);
    f.register_local(send_mem.data(), send_mem.size());
    f.enable_messages(recv_mem.data(), msg, most_depth);
    size_t each = 0;
    const std::vector<uint8_t> names = all_gather(f.name(), n, &each);
    std::vector<std::vector<uint8_t>> peers;
    for (int pe = 0; pe < n; ++pe) peers.emplace_back(names.begin() + pe * each, names.begin() + (pe + 1) * each);
    f.insert_peers(peers);
    if (me == 0) printf("# gio-fabric-probe provider=%s (host memory, one PE to the other)\n%10s %6s %10s %12s\n",
                        f.provider().c_str(), "bytes", "depth", "messages", "GB/s");
    for (unsigned depth : o.depths) {
      for (size_t size = o.min_size; size <= o.max_size; size *= 2) {
        const uint64_t count = o.bytes / size < 8 ? 8 : o.bytes / size;
        MPI_Barrier(MPI_COMM_WORLD);
        const auto t0 = std::chrono::steady_clock::now();
        uint64_t acked = 0, got = 0;
        if (me == 0) {
          for (uint64_t k = 0; k < count; ++k) {
            while (k - acked >= depth) f.take_message([&](const uint8_t*, size_t) {
              ++acked;
              return true;
            });
            f.send(1, send_mem.data() + (k % depth) * msg, size);
          }
          while (acked < count) f.take_message([&](const uint8_t*, size_t) {
              ++acked;
              return true;
            });
        } else {
          while (got < count)
            f.take_message([&](const uint8_t*, size_t) {
              ++got;
              f.send(0, send_mem.data(), 64);  // an acknowledgement the size of the proxy's header
              return true;
            });
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (me == 0) {
          const double gbs = (double)size * count / s / 1e9;
          printf("%10zu %6u %10llu %12.3f\n", size, depth, (unsigned long long)count, gbs);
          if (json)
            fprintf(json, "{\"bench\": \"fabric_probe\", \"provider\": \"%s\", \"bytes\": %zu, \"depth\": %u, "
                    "\"messages\": %llu, \"seconds\": %.6f, \"GBps\": %.4f}\n", f.provider().c_str(), size, depth,
                    (unsigned long long)count, s, gbs);
        }
        if (size > o.max_size / 2) break;
      }
    }
  } catch (const gio::proxy::fabric_error& e) {
    fprintf(stderr, "gio-fabric-probe on PE %d: %s\n", me, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (json) fclose(json);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
