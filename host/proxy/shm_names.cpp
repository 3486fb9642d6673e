// Named shared memory of the proxy (shm_names.h).
#include "host/proxy/shm_names.h"

#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>

namespace gio {
namespace proxy {
namespace {

uint64_t pid_namespace() {
  struct stat st;
  return stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino : 0;
}

// This process's names, as shm_unlink takes them; read by the abort hook, so fixed arrays and a
// flag that is set only once the name is complete.
constexpr int kNames = 8;
char g_names[kNames][64];
std::atomic<bool> g_used[kNames];
std::atomic<bool> g_claimed[kNames];

}  // namespace

std::string new_shm_name() {
  uint64_t nonce = 0;
  if (getrandom(&nonce, sizeof nonce, 0) != (ssize_t)sizeof nonce)
    nonce = (uint64_t)std::chrono::steady_clock::now().time_since_epoch().count();
  char name[64];
  snprintf(name, sizeof name, "gio-%llu-%d-%016llx", (unsigned long long)pid_namespace(), (int)getpid(),
           (unsigned long long)nonce);
  return name;
}

int remember_shm_name(const std::string& name) {
  for (int i = 0; i < kNames; ++i) {
    bool f = false;
    if (!g_claimed[i].compare_exchange_strong(f, true)) continue;
    snprintf(g_names[i], sizeof g_names[i], "/%s", name.c_str());
    g_used[i].store(true);
    return i;
  }
  return -1;
}

void forget_shm_name(int i) {
  if (i < 0) return;
  g_used[i].store(false);
  g_claimed[i].store(false);
}

void release_shm_name(int i) {
  if (i < 0) return;
  shm_unlink(g_names[i]);
  forget_shm_name(i);
}

void unlink_own_shm_regions() {
  for (int i = 0; i < kNames; ++i)
    if (g_used[i].load()) shm_unlink(g_names[i]);
}

unsigned remove_dead_shm_regions(const char* dir) {
  const uint64_t ns = pid_namespace();
  DIR* d = opendir(dir);
  if (!d) return 0;
  unsigned removed = 0;
  while (dirent* e = readdir(d)) {
    unsigned long long their_ns = 0, nonce = 0;
    int pid = 0, end = 0;
    if (sscanf(e->d_name, "gio-%llu-%d-%16llx%n", &their_ns, &pid, &nonce, &end) != 3 || e->d_name[end] != '\0')
      continue;
    if (their_ns != ns || pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    if (unlinkat(dirfd(d), e->d_name, 0) == 0) ++removed;
  }
  closedir(d);
  return removed;
}

}  // namespace proxy
}  // namespace gio
