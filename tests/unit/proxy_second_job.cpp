// Another job on the same machine cannot write into a job's heap through the proxy's libfabric
// endpoint without the heap's key, which only the job's own PEs get (through the bootstrap).
// Two independent processes, as two jobs are, over one provider (host/proxy/fabric.h):
//
//   proxy_second_job victim PROVIDER DIR    registers a 64 KiB heap as the proxy does, publishes
//       its endpoint's name and the heap's address in DIR (what another process of the machine
//       could learn: /dev/shm names, listening ports and addresses are no secret), and the key in
//       DIR/key for the control write alone; serves its endpoint until DIR/done appears, then
//       checks the heap: exit 0 when every word is 0 but the control word (DIR/done holding
//       "alone": no intruder ran, and the control word is 0 too).
//   proxy_second_job intruder PROVIDER DIR [OLD_KEY_FILE]
//       writes into the victim's heap with keys another job could try: GIO's old fixed 0x6710, a
//       few small numbers, and the key an earlier job's heap had (OLD_KEY_FILE); each must fail.
//       Then the control: a write with the real key must land, or the test could not tell a
//       refused key from an endpoint it never reached. Exit 0 when both hold; creates DIR/done.
//
// second_job.sh runs one victim to learn an old key, then a victim and an intruder at once. With
// a key every registration shares (a fixed one), the old key and 0x6710 both get through.
#include "host/proxy/fabric.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

using gio::proxy::fabric;
using gio::proxy::fabric_error;
using gio::proxy::remote_region;

namespace {

const size_t kWords = 8192;                   // the victim's heap: 64 KiB
const size_t kControlWord = 4000;             // where the control write lands
const uint64_t kControl = 0xc0de5afe0ddba11ull;
const uint64_t kIntrusion = 0xbadbadbadull;

std::string hex(const std::vector<uint8_t>& b) {
  std::string s;
  char x[3];
  for (uint8_t c : b) {
    snprintf(x, sizeof x, "%02x", c);
    s += x;
  }
  return s;
}
std::vector<uint8_t> unhex(const std::string& s) {
  std::vector<uint8_t> b;
  for (size_t i = 0; i + 1 < s.size(); i += 2) b.push_back((uint8_t)std::stoul(s.substr(i, 2), nullptr, 16));
  return b;
}
bool exists(const std::string& p) { return access(p.c_str(), F_OK) == 0; }
// Written under another name and renamed, so a reader never sees half a file.
void publish(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  std::ofstream(tmp) << text << "\n";
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    perror(("rename " + path).c_str());
    exit(3);
  }
}
std::string wait_for(const std::string& path, int seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!exists(path)) {
    if (std::chrono::steady_clock::now() > end) {
      fprintf(stderr, "proxy_second_job: %s did not appear within %d s\n", path.c_str(), seconds);
      exit(3);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::string line;
  std::getline(std::ifstream(path), line);
  return line;
}

int victim(const std::string& prov, const std::string& dir) {
  std::vector<uint64_t> heap(kWords, 0);
  fabric f(prov, 10000);
  f.insert_peers({f.name()});
  const remote_region r = f.register_region(heap.data(), heap.size() * 8);
  publish(dir + "/key", std::to_string(r.key));
  publish(dir + "/victim", hex(f.name()) + " " + std::to_string(r.base));
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!exists(dir + "/done")) {
    if (std::chrono::steady_clock::now() > end) {
      fprintf(stderr, "victim: no intruder finished within 120 s\n");
      return 3;
    }
    for (int i = 0; i < 1000; ++i) f.progress();  // the target side of a write, as the proxy thread does
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  // "alone": no intruder ran (the earlier job of second_job.sh), so no control write either.
  const bool alone = wait_for(dir + "/done", 1) == "alone";
  int rc = 0;
  for (size_t i = 0; i < kWords; ++i) {
    const uint64_t want = i == kControlWord && !alone ? kControl : 0;
    if (heap[i] != want) {
      fprintf(stderr, "victim (%s): heap word %zu is 0x%llx, not 0x%llx: %s\n", prov.c_str(), i,
              (unsigned long long)heap[i], (unsigned long long)want,
              heap[i] == kIntrusion ? "another job wrote it without the key" : "the control write did not land");
      rc = 1;
    }
  }
  if (!rc) printf("victim (%s): key %llu; %s\n", prov.c_str(), (unsigned long long)r.key,
                  alone ? "nothing was written" : "only the control write landed");
  return rc;
}

// One write of `value` to word `word` of the victim's heap with `key`, from a fresh endpoint
// (a provider may drop the connection after a refused key): true when it completed. shm answers
// a refused key with no completion at all, so a guess waits 1 s; the control write, which must
// land, gets 20 s.
bool write_with(const std::string& prov, const std::vector<uint8_t>& name, uint64_t base, uint64_t key,
                size_t word, uint64_t value, unsigned timeout_ms, std::string* why) {
  try {
    fabric f(prov, timeout_ms);
    f.insert_peers({f.name(), name});
    std::vector<uint64_t> local(1, value);
    f.register_local(local.data(), 8);
    f.set_peer_region(1, {key, base});
    f.write(1, 8 * word, local.data(), 8);
    return true;
  } catch (const fabric_error& e) {
    *why = e.what();
    return false;
  }
}

int intruder(const std::string& prov, const std::string& dir, const std::string& old_key_file) {
  const std::string v = wait_for(dir + "/victim", 60);
  const std::vector<uint8_t> name = unhex(v.substr(0, v.find(' ')));
  const uint64_t base = std::stoull(v.substr(v.find(' ') + 1));
  std::vector<std::pair<uint64_t, std::string>> guesses = {
      {0x6710, "GIO's old fixed key"}, {0, "0"}, {1, "1"}, {2, "2"}, {0x6711, "0x6711"}};
  if (!old_key_file.empty()) {
    std::string k;
    std::getline(std::ifstream(old_key_file), k);
    guesses.push_back({std::stoull(k), "the key of an earlier job's heap"});
  }
  const uint64_t real = std::stoull(wait_for(dir + "/key", 5));  // for the control write
  int rc = 0;
  size_t word = 16;
  for (const auto& g : guesses) {
    if (g.first == real)
      fprintf(stderr, "intruder (%s): guess %s is the heap's key %llu\n", prov.c_str(), g.second.c_str(),
              (unsigned long long)real);
    std::string why;
    if (write_with(prov, name, base, g.first, word, kIntrusion, 1000, &why)) {
      fprintf(stderr, "intruder (%s): a write with %s (%llu) went through\n", prov.c_str(), g.second.c_str(),
              (unsigned long long)g.first);
      rc = 1;
    } else {
      printf("intruder (%s): key %s refused: %s\n", prov.c_str(), g.second.c_str(), why.c_str());
    }
    word += 8;
  }
  std::string why;
  if (!write_with(prov, name, base, real, kControlWord, kControl, 20000, &why)) {
    fprintf(stderr, "intruder (%s): the control write with the heap's own key failed (%s): this test cannot reach "
            "the victim, so a refused guess proves nothing\n", prov.c_str(), why.c_str());
    rc = 2;
  }
  publish(dir + "/done", "1");
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("FI_TCP_IFACE", "lo", 0);  // loopback only, before libfabric first initializes a provider
  setenv("FI_SOCKETS_IFACE", "lo", 0);
  if (argc < 4) {
    fprintf(stderr, "usage: %s victim|intruder PROVIDER DIR [OLD_KEY_FILE]\n", argv[0]);
    return 2;
  }
  const std::string role = argv[1];
  try {
    if (role == "victim") return victim(argv[2], argv[3]);
    if (role == "intruder") return intruder(argv[2], argv[3], argc > 4 ? argv[4] : "");
  } catch (const fabric_error& e) {
    fprintf(stderr, "%s: %s\n", role.c_str(), e.what());
    return 3;
  }
  fprintf(stderr, "unknown role %s\n", role.c_str());
  return 2;
}
