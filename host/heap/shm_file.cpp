// Files in GIO_HOST_SHM_DIR that peers map (shm_file.h).
#include "host/heap/shm_file.h"

#include <dirent.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "host/log.h"

namespace gio {
namespace {

unsigned long long pid_namespace() {
  struct stat st;
  return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

// The files this process holds, read by the abort hook and the SIGTERM handler: fixed arrays, and
// a flag set only once the path is complete.
constexpr int kFiles = 8;
char g_paths[kFiles][128];
std::atomic<bool> g_used[kFiles];
std::mutex g_lock;  // hold and remove (not the handlers)
struct sigaction g_prev_term;
bool g_term_installed = false;  // under g_lock

void unlink_held() {
  for (int i = 0; i < kFiles; ++i)
    if (g_used[i].load()) unlink(g_paths[i]);
}

// mpirun stops a job's other PEs with SIGTERM when one aborts: remove this PE's files, then end
// as SIGTERM would have ended it.
void on_sigterm(int sig) {
  unlink_held();
  sigaction(SIGTERM, &g_prev_term, nullptr);
  raise(sig);
}

// While a file is held: the abort hook (once), and SIGTERM's handler, only where the program
// keeps SIGTERM's default (a handler of its own stays its own). Under g_lock.
void install_handlers() {
  static bool hooked = false;
  if (!hooked) at_abort(unlink_held);
  hooked = true;
  if (g_term_installed) return;
  struct sigaction cur;
  if (sigaction(SIGTERM, nullptr, &cur) != 0 || cur.sa_handler != SIG_DFL || (cur.sa_flags & SA_SIGINFO)) return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigterm;
  sigemptyset(&sa.sa_mask);
  g_prev_term = cur;
  g_term_installed = sigaction(SIGTERM, &sa, nullptr) == 0;
}

// Once no file is held, SIGTERM gets back the default it had (unless the program changed it since).
void remove_handler_if_idle() {
  if (!g_term_installed) return;
  for (int i = 0; i < kFiles; ++i)
    if (g_used[i].load()) return;
  struct sigaction cur;
  if (sigaction(SIGTERM, nullptr, &cur) == 0 && cur.sa_handler == on_sigterm) sigaction(SIGTERM, &g_prev_term, nullptr);
  g_term_installed = false;
}

}  // namespace

void* shm_file_map(const char* path, size_t bytes) {
  const int fd = open(path, O_RDWR);
  if (fd < 0) return MAP_FAILED;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int e = errno;
  close(fd);
  errno = e;
  return p;
}

std::string shm_file_path(const std::string& dir, const char* role, const std::string& unique) {
  char hex[17];
  if (unique.size() == 16) {
    memcpy(hex, unique.c_str(), 17);
  } else {
    unsigned long long nonce = 0;
    if (getrandom(&nonce, sizeof nonce, 0) != (ssize_t)sizeof nonce)
      nonce = (unsigned long long)std::chrono::steady_clock::now().time_since_epoch().count();
    snprintf(hex, sizeof hex, "%016llx", nonce);
  }
  char name[96];
  snprintf(name, sizeof name, "gio-%s-%llu-%d-%s", role, pid_namespace(), (int)getpid(), hex);
  return dir + "/" + name;
}

void shm_file_hold(const char* path) {
  std::lock_guard<std::mutex> g(g_lock);
  install_handlers();
  for (int i = 0; i < kFiles; ++i) {
    if (g_used[i].load()) continue;
    snprintf(g_paths[i], sizeof g_paths[i], "%s", path);
    g_used[i].store(true);
    return;
  }
  info(1, "%s: more than %d shared files at once: this one is not removed should the job abort", path, kFiles);
}

void shm_file_remove(const char* path) {
  std::lock_guard<std::mutex> g(g_lock);
  unlink(path);
  for (int i = 0; i < kFiles; ++i)
    if (g_used[i].load() && strcmp(g_paths[i], path) == 0) g_used[i].store(false);
  remove_handler_if_idle();
}

unsigned shm_file_sweep(const std::string& dir) {
  const unsigned long long ns = pid_namespace();
  DIR* d = opendir(dir.c_str());
  if (!d) return 0;
  unsigned removed = 0;
  while (dirent* e = readdir(d)) {
    char role[16];
    unsigned long long their_ns = 0, nonce = 0;
    int pid = 0, end = 0;
    if (sscanf(e->d_name, "gio-%15[a-z]-%llu-%d-%16llx%n", role, &their_ns, &pid, &nonce, &end) != 4 ||
        e->d_name[end] != '\0' || (strcmp(role, "heap") != 0 && strcmp(role, "cpuheap") != 0 && strcmp(role, "globals") != 0))
      continue;
    if (their_ns != ns || pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    if (unlinkat(dirfd(d), e->d_name, 0) == 0) ++removed;
  }
  closedir(d);
  if (removed) info(1, "removed %u file(s) of exited processes from %s", removed, dir.c_str());
  return removed;
}

}  // namespace gio
