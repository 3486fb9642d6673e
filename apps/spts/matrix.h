// The inputs of spts: a sparse lower-triangular L in CSR, read from Matrix Market or generated,
// reordered, analysed (levels, critical path), split over PEs, and the right-hand side and check.
// Plain host C++: nothing here runs on the device.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace spts {

// L in CSR. Columns ascend within a row and the diagonal is the LAST entry of every row (so a
// row's off-diagonals are [row_ptr[i], row_ptr[i+1]-1) and its diagonal val[row_ptr[i+1]-1]).
// 32-bit indices: up to 2^31-1 rows and nonzeros (a larger input is an input_error).
struct csr {
  int32_t n = 0;
  std::vector<int32_t> row_ptr;  // n + 1
  std::vector<int32_t> col;      // nnz
  std::vector<double> val;       // nnz
  int64_t nnz() const { return row_ptr.empty() ? 0 : row_ptr.back(); }
};

// Bad input (unreadable file, malformed line, zero or missing diagonal, too large): what() names
// the file and line where there is one, e.g. "road.mtx:17: column index 0 out of range [1, 500]".
struct input_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What the diagonal of L is: `given` takes the file's diagonal (zero or missing -> input_error
// naming the first such row), `unit` sets every diagonal to 1, `dominant` sets it to
// 1 + sum of |off-diagonals| of the row (always solvable, well conditioned).
enum class diag_mode { given, unit, dominant };

// Matrix Market coordinate files: real, integer or pattern (pattern entries are 1.0); general or
// symmetric. L is the lower triangle (i >= j) of the stored matrix: a general file's entries above
// the diagonal are dropped, a symmetric file's are mirrored below it. Duplicates are summed.
csr read_matrix_market(const std::string& path, diag_mode d);

// The undirected graph of a generator, before ordering (edges i-j, i != j, each once).
// Kinds and parameters (`--gen KIND[:k=v,...]`, every parameter optional):
//   grid2d:n=R        R x R 5-point Laplacian pattern (R rows*cols = R^2 vertices)
//   grid3d:n=R        R^3 7-point
//   road:rows=N,deg=2.5         2D random geometric graph, mean degree deg, in spatial (grid
//                               bucket) order
//   rmat:scale=S,deg=8          RMAT power law, 2^S vertices, (a,b,c,d) = (.57,.19,.19,.05)
//   banded:n=N,band=B           every row i connects to i-1 .. i-B (a chain: N levels)
// plus seed=S on every kind. `rows` as an alias of the natural size parameter on every kind
// (grid2d:rows=1000000 -> R = 1000). Unknown kind or key, a bad value -> input_error.
struct gen_spec {
  std::string kind;
  std::vector<std::pair<std::string, std::string>> params;
  uint64_t seed = 1;
};
gen_spec parse_gen(const std::string& text);  // "road:rows=1000000,deg=2.5,seed=7"

// Symmetric reordering: natural keeps the generator's/file's order, random applies a seeded
// random permutation to the symmetric matrix before its lower triangle is taken (random order
// makes the dependency graph shallow).
enum class order { natural, random };

// Generator -> L (lower triangle of the ordered graph). Off-diagonal values are seeded in
// [-1, -0.1]; the diagonal follows d (generators default to dominant).
csr generate(const gen_spec& g, order o, diag_mode d);
// A file's matrix reordered (random: a seeded symmetric permutation of the lower triangle's
// symmetric completion; natural: unchanged).
csr reorder(const csr& l, order o, uint64_t seed);
// Sets L's diagonal per d (unit, dominant; given leaves it). reorder carries each row's diagonal
// to the row's new place, which does not keep a dominant diagonal dominant: call this after it.
void set_diagonal(csr& l, diag_mode d);

// Dependency structure: level[i] = 1 + max level of the rows it depends on (rows with no
// off-diagonals are level 0). levels = max level + 1. critical_path = the largest total nnz along
// one dependency chain (the work no schedule can overlap), in nonzeros.
struct analysis {
  int32_t levels = 0;
  int64_t critical_path = 0;
  std::vector<int32_t> level;  // per row
};
analysis analyze(const csr& l);

// Rows in contiguous blocks over npes PEs: npes + 1 boundaries, first 0, last n. by_nnz: blocks
// of about equal nonzeros (every PE at least one row when n >= npes) instead of equal rows.
std::vector<int32_t> partition(const csr& l, int npes, bool by_nnz);

// x_ref seeded in [0.5, 1.5]; b = L x_ref computed in double.
std::vector<double> make_x_ref(int32_t n, uint64_t seed);
std::vector<double> multiply(const csr& l, const std::vector<double>& x);

// Over rows [begin, end): x[k] is row begin + k, x_ref is global. Returns
// max_k |x[k] - x_ref[begin+k]| / max_i |x_ref[i]| and that row (global index); NaN counts as worst.
struct error_report {
  double rel_error = 0;
  int32_t worst_row = -1;
};
template <typename T>
error_report relative_error(const std::vector<T>& x, const std::vector<double>& x_ref,
                            int32_t begin, int32_t end);
// The same over a list of rows: x[k] is global row rows[k] (a renumbered solve's rows).
error_report relative_error_at(const std::vector<double>& x, const std::vector<double>& x_ref,
                               const std::vector<int32_t>& rows);

}  // namespace spts
