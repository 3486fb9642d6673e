#include "csr_cache.h"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

namespace spts {

namespace {

constexpr char kMagic[8] = {'G', 'I', 'O', 'S', 'P', 'T', 'S', '1'};

struct header {
  char magic[8];
  int64_t n;
  int64_t nnz;
};

using file_ptr = std::unique_ptr<FILE, int (*)(FILE*)>;

}  // namespace

std::string cache_path(const std::string& dir, const std::string& gen_spec, const char* order) {
  std::string name;
  for (char c : gen_spec)
    name += (isalnum((unsigned char)c) || strchr("._=,-", c)) ? c : '_';
  return dir + "/" + name + "@" + order + ".csr";
}

bool cache_load(const std::string& path, csr* l, std::string* why) {
  file_ptr f(fopen(path.c_str(), "rb"), fclose);
  if (!f) return *why = path + ": " + strerror(errno), false;
  header h;
  if (fread(&h, sizeof h, 1, f.get()) != 1 || memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    return *why = path + ": not a spts cache file of this version", false;
  if (h.n < 0 || h.n > INT32_MAX || h.nnz < h.n || h.nnz > INT32_MAX)
    return *why = path + ": impossible sizes (" + std::to_string(h.n) + " rows, " + std::to_string(h.nnz) + " nonzeros)",
           false;
  csr m;
  m.n = (int32_t)h.n;
  m.row_ptr.resize((size_t)h.n + 1);
  m.col.resize((size_t)h.nnz);
  m.val.resize((size_t)h.nnz);
  if (fread(m.row_ptr.data(), sizeof(int32_t), m.row_ptr.size(), f.get()) != m.row_ptr.size() ||
      fread(m.col.data(), sizeof(int32_t), m.col.size(), f.get()) != m.col.size() ||
      fread(m.val.data(), sizeof(double), m.val.size(), f.get()) != m.val.size() || fgetc(f.get()) != EOF)
    return *why = path + ": truncated or too long", false;
  // The solvers trust row_ptr and col: a row outside its bounds or a column past its row would
  // make a kernel read out of bounds, so the cache is checked as a generated matrix is.
  if (m.row_ptr[0] != 0 || m.row_ptr[h.n] != h.nnz) return *why = path + ": row pointers do not span the nonzeros", false;
  for (int64_t i = 0; i < h.n; ++i) {
    const int32_t b = m.row_ptr[i], e = m.row_ptr[i + 1];
    if (e <= b || e > h.nnz || m.col[e - 1] != i) return *why = path + ": row " + std::to_string(i) + " is malformed", false;
    for (int32_t k = b; k < e - 1; ++k)
      if (m.col[k] < 0 || m.col[k] >= m.col[k + 1]) return *why = path + ": row " + std::to_string(i) + " is malformed", false;
  }
  *l = std::move(m);
  return true;
}

bool cache_store(const std::string& path, const csr& l, std::string* why) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    file_ptr f(fopen(tmp.c_str(), "wb"), fclose);
    if (!f) return *why = tmp + ": " + strerror(errno), false;
    header h{};
    memcpy(h.magic, kMagic, sizeof kMagic);
    h.n = l.n, h.nnz = l.nnz();
    if (fwrite(&h, sizeof h, 1, f.get()) != 1 ||
        fwrite(l.row_ptr.data(), sizeof(int32_t), l.row_ptr.size(), f.get()) != l.row_ptr.size() ||
        fwrite(l.col.data(), sizeof(int32_t), l.col.size(), f.get()) != l.col.size() ||
        fwrite(l.val.data(), sizeof(double), l.val.size(), f.get()) != l.val.size() || fflush(f.get()) != 0) {
      *why = tmp + ": " + strerror(errno);
      unlink(tmp.c_str());
      return false;
    }
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    *why = path + ": " + strerror(errno);
    unlink(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace spts
