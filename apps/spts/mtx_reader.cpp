// read_matrix_market: Matrix Market coordinate files (real, integer, pattern; general or
// symmetric) to L, the lower triangle, in CSR. Every rejection names FILE:LINE and the reason.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

#include "line_reader.h"
#include "lower.h"
#include "matrix.h"

namespace spts {

namespace {

constexpr int64_t k_max32 = std::numeric_limits<int32_t>::max();

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Whitespace-separated tokens of one line.
struct tokens {
  const char* p;
  const char* e;
  bool next(std::string_view* t) {
    while (p < e && is_space(*p)) ++p;
    if (p == e) return false;
    const char* b = p;
    while (p < e && !is_space(*p)) ++p;
    *t = std::string_view(b, (size_t)(p - b));
    return true;
  }
};

std::string quoted(std::string_view t) {
  if (t.size() > 40) return "'" + std::string(t.substr(0, 40)) + "...'";
  return "'" + std::string(t) + "'";
}

std::string lower_case(std::string_view t) {
  std::string s(t);
  for (char& c : s) c = (char)std::tolower((unsigned char)c);
  return s;
}

enum class field { real, integer, pattern };

class parser {
 public:
  explicit parser(const std::string& path) : path_(path), in_(path) {}
  csr read(diag_mode d);

 private:
  [[noreturn]] void fail(int64_t line, const std::string& what) const {
    throw input_error(path_ + ":" + std::to_string(line) + ": " + what);
  }
  void banner();
  bool content_line(tokens* t);
  int64_t integer(tokens& t, const char* name);
  int64_t index(tokens& t, const char* name, int64_t n);
  double value(tokens& t);

  std::string path_;
  line_reader in_;
  field field_ = field::real;
  bool symmetric_ = false;
};

void parser::banner() {
  const char *b, *e;
  if (!in_.next(&b, &e))
    fail(1, "empty file, expected the banner '%%MatrixMarket matrix coordinate FIELD SYMMETRY'");
  tokens t{b, e};
  std::string_view w, object, format, fld, sym, extra;
  if (!t.next(&w) || w != "%%MatrixMarket")
    fail(1, "not a Matrix Market file: the first line must start with %%MatrixMarket");
  if (!t.next(&object) || !t.next(&format) || !t.next(&fld) || !t.next(&sym) || t.next(&extra))
    fail(1, "the banner must read '%%MatrixMarket matrix coordinate FIELD SYMMETRY'");
  if (lower_case(object) != "matrix")
    fail(1, "object " + quoted(object) + " not supported, only 'matrix'");
  std::string f = lower_case(format);
  if (f == "array") fail(1, "array (dense) format not supported, only coordinate");
  if (f != "coordinate") fail(1, "format " + quoted(format) + " not supported, only coordinate");
  std::string k = lower_case(fld);
  if (k == "real" || k == "double") field_ = field::real;
  else if (k == "integer") field_ = field::integer;
  else if (k == "pattern") field_ = field::pattern;
  else fail(1, "field " + quoted(fld) + " not supported (real, integer or pattern)");
  std::string s = lower_case(sym);
  if (s == "general") symmetric_ = false;
  else if (s == "symmetric") symmetric_ = true;
  else fail(1, "symmetry " + quoted(sym) + " not supported (general or symmetric)");
}

// The next line that is neither a comment nor blank; false at the end of the file.
bool parser::content_line(tokens* t) {
  const char *b, *e;
  while (in_.next(&b, &e)) {
    *t = tokens{b, e};
    const char* p = b;
    while (p < e && is_space(*p)) ++p;
    if (p < e && *p != '%') return true;
  }
  return false;
}

int64_t parser::integer(tokens& t, const char* name) {
  std::string_view s;
  if (!t.next(&s)) fail(in_.line(), std::string("missing ") + name);
  int64_t x = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), x);
  if (r.ec == std::errc::result_out_of_range)
    fail(in_.line(), std::string(name) + " " + quoted(s) + " out of range");
  if (r.ec != std::errc() || r.ptr != s.data() + s.size())
    fail(in_.line(), "malformed " + std::string(name) + " " + quoted(s));
  return x;
}

int64_t parser::index(tokens& t, const char* name, int64_t n) {
  int64_t x = integer(t, name);
  if (x < 1 || x > n)
    fail(in_.line(), std::string(name) + " " + std::to_string(x) + " out of range [1, " +
                         std::to_string(n) + "]");
  return x;
}

double parser::value(tokens& t) {
  if (field_ == field::pattern) return 1.0;
  if (field_ == field::integer) return (double)integer(t, "value");
  std::string_view s;
  if (!t.next(&s)) fail(in_.line(), "missing value");
  // from_chars takes no leading '+', which Matrix Market (strtod) allows.
  const char* b = s.data();
  const char* e = b + s.size();
  if (b < e && *b == '+' && b + 1 < e && b[1] != '-') ++b;
  double v = 0;
  auto r = std::from_chars(b, e, v);
  if (r.ec == std::errc::result_out_of_range)
    fail(in_.line(), "value " + quoted(s) + " out of range of double");
  if (r.ec != std::errc() || r.ptr != e) fail(in_.line(), "malformed value " + quoted(s));
  if (!std::isfinite(v)) fail(in_.line(), "value " + quoted(s) + " is not finite");
  return v;
}

csr parser::read(diag_mode d) {
  banner();
  tokens t{nullptr, nullptr};
  if (!content_line(&t)) fail(in_.line() + 1, "file ends before the size line 'M N NNZ'");
  int64_t m = integer(t, "row count");
  int64_t ncols = integer(t, "column count");
  int64_t nnz = integer(t, "entry count");
  std::string_view extra;
  if (t.next(&extra)) fail(in_.line(), "unexpected " + quoted(extra) + " after 'M N NNZ'");
  if (m != ncols)
    fail(in_.line(), "matrix is " + std::to_string(m) + " x " + std::to_string(ncols) +
                         ", not square");
  if (m < 1) fail(in_.line(), "matrix has " + std::to_string(m) + " rows, needs at least 1");
  if (m > k_max32) fail(in_.line(), std::to_string(m) + " rows, more than 2^31-1");
  if (nnz < 0) fail(in_.line(), "negative entry count " + std::to_string(nnz));
  if (nnz > k_max32) fail(in_.line(), std::to_string(nnz) + " entries, more than 2^31-1");
  const int32_t n = (int32_t)m;

  // The strictly lower entries, to be sorted into rows; the diagonal summed apart. An entry line
  // takes at least 4 bytes ("1 1\n"), which bounds the reservation when the count is a lie.
  std::vector<int32_t> row, col;
  std::vector<double> val;
  int64_t cap = nnz;
  if (in_.file_size() >= 0) cap = std::min(cap, in_.file_size() / 4 + 1);
  row.reserve((size_t)cap);
  col.reserve((size_t)cap);
  val.reserve((size_t)cap);
  const bool given = d == diag_mode::given;
  std::vector<double> diag(given ? n : 0, 0.0);
  std::vector<uint8_t> has_diag(given ? n : 0, 0);

  for (int64_t k = 0; k < nnz; ++k) {
    if (!content_line(&t))
      fail(in_.line() + 1, "file ends after " + std::to_string(k) + " of " + std::to_string(nnz) +
                               " entries (truncated?)");
    int32_t i = (int32_t)index(t, "row index", n) - 1;
    int32_t j = (int32_t)index(t, "column index", n) - 1;
    double v = value(t);
    if (t.next(&extra)) fail(in_.line(), "unexpected " + quoted(extra) + " after the entry");
    if (i == j) {
      if (given) {
        diag[i] += v;
        has_diag[i] = 1;
      }
      continue;
    }
    if (i < j) {
      if (!symmetric_) continue;  // above the diagonal of a general matrix: not part of L
      std::swap(i, j);
    }
    row.push_back(i);
    col.push_back(j);
    val.push_back(v);
  }
  if (content_line(&t))
    fail(in_.line(), "more entries than the " + std::to_string(nnz) + " the size line declares");

  csr l = lower_from_entries(
      n,
      [&](auto&& fn) {
        for (size_t k = 0; k < row.size(); ++k) fn(row[k], col[k], val[k]);
      },
      path_);
  std::vector<int32_t>().swap(row);
  std::vector<int32_t>().swap(col);
  std::vector<double>().swap(val);

  if (given) {
    for (int32_t i = 0; i < n; ++i) {
      if (!has_diag[i] || diag[i] == 0)
        throw input_error(path_ + ": row " + std::to_string(i + 1) +
                          " (1-based, as in the file) has " +
                          (has_diag[i] ? "a zero diagonal" : "no diagonal entry") +
                          "; diag_mode given needs a nonzero diagonal on every row");
      l.val[l.row_ptr[i + 1] - 1] = diag[i];
    }
  } else {
    set_diagonal(l, d);
  }
  return l;
}

}  // namespace

csr read_matrix_market(const std::string& path, diag_mode d) {
  parser p(path);
  return p.read(d);
}

}  // namespace spts
