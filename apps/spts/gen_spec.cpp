// parse_gen and the checking of a generator spec: "KIND[:key=value,...]", defaults, the `rows`
// alias of each kind's size parameter.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "gen.h"
#include "matrix.h"

namespace spts {

namespace {

constexpr int64_t k_max32 = std::numeric_limits<int32_t>::max();

struct kind_info {
  const char* name;
  gen_kind kind;
  const char* keys;  // for the error message; `rows` and `seed` are accepted everywhere
};
const kind_info k_kinds[] = {
    {"grid2d", gen_kind::grid2d, "n, rows, seed"},
    {"grid3d", gen_kind::grid3d, "n, rows, seed"},
    {"road", gen_kind::road, "rows, deg, seed"},
    {"rmat", gen_kind::rmat, "scale, deg, rows, seed"},
    {"banded", gen_kind::banded, "n, band, rows, seed"},
};

std::string number(double x) {
  char s[32];
  std::snprintf(s, sizeof s, "%g", x);
  return s;
}

int64_t to_int(const std::string& kind, const std::string& key, const std::string& v, int64_t lo,
               int64_t hi) {
  int64_t x = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), x);
  if (r.ec != std::errc() || r.ptr != v.data() + v.size() || x < lo || x > hi)
    throw input_error("generator " + kind + ": " + key + "=" + v + " must be an integer in [" +
                      std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

double to_double(const std::string& kind, const std::string& key, const std::string& v, double lo,
                 double hi) {
  double x = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), x);
  if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !(x > lo && x <= hi))
    throw input_error("generator " + kind + ": " + key + "=" + v + " must be a number in (" +
                      number(lo) + ", " + number(hi) + "]");
  return x;
}

uint64_t to_seed(const std::string& kind, const std::string& v) {
  uint64_t x = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), x);
  if (r.ec != std::errc() || r.ptr != v.data() + v.size())
    throw input_error("generator " + kind + ": seed=" + v + " must be an unsigned 64-bit integer");
  return x;
}

}  // namespace

gen_params resolve(const gen_spec& g) {
  const kind_info* info = nullptr;
  for (const kind_info& k : k_kinds)
    if (g.kind == k.name) info = &k;
  if (!info)
    throw input_error("generator: unknown kind '" + g.kind +
                      "' (grid2d, grid3d, road, rmat, banded)");
  const std::string& kind = g.kind;
  gen_params p;
  p.kind = info->kind;
  p.seed = g.seed;
  // Defaults: about a million rows, the degrees of the header's examples.
  switch (p.kind) {
    case gen_kind::grid2d: p.size = 1000; break;
    case gen_kind::grid3d: p.size = 100; break;
    case gen_kind::road: p.size = 1000000, p.deg = 2.5; break;
    case gen_kind::rmat: p.size = 20, p.deg = 8; break;
    case gen_kind::banded: p.size = 1000000, p.band = 4; break;
  }
  const char* size_key = p.kind == gen_kind::road ? "rows"
                         : p.kind == gen_kind::rmat ? "scale"
                                                    : "n";
  std::vector<std::string> seen;
  for (const auto& [key, v] : g.params) {
    for (const std::string& s : seen)
      if (s == key || ((s == "rows" || s == size_key) && (key == "rows" || key == size_key)))
        throw input_error("generator " + kind + ": " + key + " given twice (or with its alias)");
    seen.push_back(key);
    if (key == size_key || key == "rows") {
      bool alias = key != size_key;
      switch (p.kind) {
        case gen_kind::grid2d:
          p.size = alias ? std::llround(std::sqrt((double)to_int(kind, key, v, 1, k_max32)))
                         : to_int(kind, key, v, 1, 46340);
          break;
        case gen_kind::grid3d:
          p.size = alias ? std::llround(std::cbrt((double)to_int(kind, key, v, 1, k_max32)))
                         : to_int(kind, key, v, 1, 1290);
          break;
        case gen_kind::rmat:
          p.size = alias ? std::max<int64_t>(
                               1, std::llround(std::log2((double)to_int(kind, key, v, 1, k_max32))))
                         : to_int(kind, key, v, 1, 30);
          break;
        default: p.size = to_int(kind, key, v, 1, k_max32); break;
      }
    } else if (key == "deg" && (p.kind == gen_kind::road || p.kind == gen_kind::rmat)) {
      p.deg = to_double(kind, key, v, 0, 1000);
    } else if (key == "band" && p.kind == gen_kind::banded) {
      p.band = to_int(kind, key, v, 1, k_max32);
    } else if (key == "seed") {
      p.seed = to_seed(kind, v);
    } else {
      throw input_error("generator " + kind + ": unknown key '" + key + "' (" + info->keys + ")");
    }
  }
  // The `rows` alias rounds to the nearest grid, which may not fit 32-bit indices.
  int64_t rows = 0;
  switch (p.kind) {
    case gen_kind::grid2d: rows = p.size * p.size; break;
    case gen_kind::grid3d: rows = p.size * p.size * p.size; break;
    case gen_kind::rmat: rows = p.size <= 30 ? int64_t(1) << p.size : k_max32 + 1; break;
    default: rows = p.size; break;
  }
  if (rows > k_max32)
    throw input_error("generator " + kind + ": " + std::to_string(rows) +
                      " rows, more than 2^31-1");
  p.rows = (int32_t)rows;
  if (p.kind == gen_kind::banded) {
    int64_t b = std::min<int64_t>(p.band, rows - 1);  // row i has min(i, band) off-diagonals
    if ((double)rows * (double)(b + 1) - (double)b * (double)(b + 1) / 2 > (double)k_max32)
      throw input_error("generator banded: n " + std::to_string(rows) + " with band " +
                        std::to_string(p.band) + " has more than 2^31-1 nonzeros");
  }
  if (p.kind == gen_kind::rmat && (double)rows * p.deg / 2 > (double)(k_max32 - rows))
    throw input_error("generator rmat: scale " + std::to_string(p.size) + " with deg " +
                      number(p.deg) + " draws more than 2^31-1 edges");
  if (p.kind == gen_kind::road && (double)rows * (1 + p.deg / 2) > (double)k_max32)
    throw input_error("generator road: rows " + std::to_string(rows) + " with deg " +
                      number(p.deg) + " expects more than 2^31-1 nonzeros");
  return p;
}

gen_spec parse_gen(const std::string& text) {
  gen_spec g;
  size_t colon = text.find(':');
  g.kind = text.substr(0, colon);
  if (colon != std::string::npos) {
    size_t pos = colon + 1;
    bool have_seed = false;
    for (;;) {
      size_t comma = text.find(',', pos);
      size_t len = comma == std::string::npos ? std::string::npos : comma - pos;
      std::string item = text.substr(pos, len);
      size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
        throw input_error("generator '" + text + "': '" + item + "' is not key=value");
      std::string key = item.substr(0, eq), value = item.substr(eq + 1);
      if (key == "seed") {
        if (have_seed) throw input_error("generator '" + text + "': seed given twice");
        have_seed = true;
        g.seed = to_seed(g.kind, value);
      } else {
        g.params.emplace_back(key, value);
      }
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  resolve(g);  // every complaint at parse time, not first when generating
  return g;
}

}  // namespace spts
