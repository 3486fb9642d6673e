// read_matrix_market on small files in a temporary directory: the lower triangle of general and
// symmetric files, pattern and integer fields, duplicates, every diag_mode, and every rejection
// with its FILE:LINE and reason.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "csr_check.h"
#include "matrix.h"

namespace spts {
namespace {

using rows_t = std::vector<std::vector<double>>;

class MtxReader : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string tmpl = ::testing::TempDir() + "spts_mtx_XXXXXX";
    char* d = mkdtemp(tmpl.data());
    ASSERT_NE(d, nullptr);
    dir_ = d;
  }
  static void TearDownTestSuite() { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  static std::string write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    FILE* f = std::fopen(path.c_str(), "wb");
    EXPECT_NE(f, nullptr);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    return path;
  }

  static csr read(const std::string& name, const std::string& text, diag_mode d) {
    return read_matrix_market(write(name, text), d);
  }

  // The file is rejected with "PATH:LINE: ..." containing `reason`.
  static void expect_error(const std::string& name, const std::string& text, int line,
                           const std::string& reason, diag_mode d = diag_mode::given) {
    std::string path = write(name, text);
    try {
      read_matrix_market(path, d);
      ADD_FAILURE() << name << ": no input_error, expected line " << line << ": " << reason;
    } catch (const input_error& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find(path + ":" + std::to_string(line) + ": "), std::string::npos)
          << name << ": " << msg;
      EXPECT_NE(msg.find(reason), std::string::npos) << name << ": " << msg;
    }
  }

  static std::string dir_;
};
std::string MtxReader::dir_;

const char* k_general =
    "%%MatrixMarket matrix coordinate real general\n"
    "% a comment\n"
    "3 3 6\n"
    "1 1 2.0\n"
    "2 1 -1.5\n"
    "1 2 7.0\n"
    "2 2 3\n"
    "3 2 -0.5\n"
    "3 3 4e0\n";

TEST_F(MtxReader, GeneralKeepsTheLowerTriangle) {
  csr l = read("general.mtx", k_general, diag_mode::given);
  ASSERT_TRUE(csr_ok(l));
  EXPECT_EQ(l.n, 3);
  EXPECT_EQ(l.nnz(), 5);  // (1,2) is above the diagonal
  EXPECT_EQ(dense(l), (rows_t{{2, 0, 0}, {-1.5, 3, 0}, {0, -0.5, 4}}));
}

TEST_F(MtxReader, SymmetricMirrorsTheUpperEntries) {
  const char* text =
      "%%MatrixMarket matrix coordinate real symmetric\n"
      "3 3 5\n"
      "1 1 1\n"
      "2 1 -2\n"
      "1 3 -3\n"
      "2 2 5\n"
      "3 3 6\n";
  csr l = read("symmetric.mtx", text, diag_mode::given);
  ASSERT_TRUE(csr_ok(l));
  EXPECT_EQ(dense(l), (rows_t{{1, 0, 0}, {-2, 5, 0}, {-3, 0, 6}}));
  // The same entries as a general file: (1,3) is above the diagonal and dropped.
  std::string general = text;
  general.replace(general.find("symmetric"), 9, "general");
  EXPECT_EQ(dense(read("symmetric_as_general.mtx", general, diag_mode::given)),
            (rows_t{{1, 0, 0}, {-2, 5, 0}, {0, 0, 6}}));
}

TEST_F(MtxReader, PatternEntriesAreOne) {
  csr l = read("pattern.mtx",
               "%%MatrixMarket matrix coordinate pattern general\n3 3 5\n1 1\n2 1\n2 2\n3 1\n3 3\n",
               diag_mode::given);
  ASSERT_TRUE(csr_ok(l));
  EXPECT_EQ(dense(l), (rows_t{{1, 0, 0}, {1, 1, 0}, {1, 0, 1}}));
}

TEST_F(MtxReader, IntegerField) {
  csr l = read("integer.mtx",
               "%%MatrixMarket matrix coordinate integer symmetric\n2 2 3\n1 1 4\n2 1 -7\n2 2 9\n",
               diag_mode::given);
  EXPECT_EQ(dense(l), (rows_t{{4, 0}, {-7, 9}}));
}

TEST_F(MtxReader, DuplicatesAreSummed) {
  // Off-diagonal (2,1) three times (once mirrored from (1,2) in a symmetric file), diagonal (1,1)
  // twice.
  csr l = read("dups.mtx",
               "%%MatrixMarket matrix coordinate real symmetric\n2 2 6\n"
               "1 1 1\n2 1 -1\n2 2 5\n1 1 2\n1 2 -2\n2 1 -0.25\n",
               diag_mode::given);
  ASSERT_TRUE(csr_ok(l));
  EXPECT_EQ(l.nnz(), 3);
  EXPECT_EQ(dense(l), (rows_t{{3, 0}, {-3.25, 5}}));
}

TEST_F(MtxReader, EveryDiagMode) {
  EXPECT_EQ(dense(read("given.mtx", k_general, diag_mode::given)),
            (rows_t{{2, 0, 0}, {-1.5, 3, 0}, {0, -0.5, 4}}));
  EXPECT_EQ(dense(read("unit.mtx", k_general, diag_mode::unit)),
            (rows_t{{1, 0, 0}, {-1.5, 1, 0}, {0, -0.5, 1}}));
  EXPECT_EQ(dense(read("dominant.mtx", k_general, diag_mode::dominant)),
            (rows_t{{1, 0, 0}, {-1.5, 2.5, 0}, {0, -0.5, 1.5}}));
  // unit and dominant need no diagonal in the file.
  const char* nodiag = "%%MatrixMarket matrix coordinate real general\n3 3 2\n2 1 -1\n3 1 2\n";
  EXPECT_EQ(dense(read("nodiag_unit.mtx", nodiag, diag_mode::unit)),
            (rows_t{{1, 0, 0}, {-1, 1, 0}, {2, 0, 1}}));
  EXPECT_EQ(dense(read("nodiag_dominant.mtx", nodiag, diag_mode::dominant)),
            (rows_t{{1, 0, 0}, {-1, 2, 0}, {2, 0, 3}}));
}

// No line for these: the row is what is wrong, named 1-based as in the file.
void expect_diag_error(const std::string& path, const std::string& reason) {
  try {
    read_matrix_market(path, diag_mode::given);
    ADD_FAILURE() << path << ": no input_error, expected " << reason;
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": " + reason), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1-based"), std::string::npos) << e.what();
  }
}

TEST_F(MtxReader, GivenRejectsZeroOrMissingDiagonal) {
  // Row 2's diagonal is an explicit zero, row 3's missing: row 2 is the first.
  expect_diag_error(write("zero_diag.mtx",
                          "%%MatrixMarket matrix coordinate real general\n3 3 4\n"
                          "1 1 1\n2 2 0\n2 1 -1\n3 2 -1\n"),
                    "row 2 (1-based, as in the file) has a zero diagonal");
  expect_diag_error(write("missing_diag.mtx",
                          "%%MatrixMarket matrix coordinate real general\n3 3 3\n"
                          "1 1 1\n2 2 4\n3 1 -1\n"),
                    "row 3 (1-based, as in the file) has no diagonal entry");
  // Duplicates that cancel are a zero diagonal.
  expect_diag_error(write("cancel_diag.mtx",
                          "%%MatrixMarket matrix coordinate real general\n2 2 3\n"
                          "1 1 2\n1 1 -2\n2 2 1\n"),
                    "row 1 (1-based, as in the file) has a zero diagonal");
}

TEST_F(MtxReader, LayoutVariants) {
  // Upper-case banner words, CRLF, tabs, blank and comment lines among the entries, a leading
  // '+', no newline at the end.
  csr l = read("layout.mtx",
               "%%MatrixMarket MATRIX Coordinate REAL General\r\n%\r\n\r\n2 2 3\r\n"
               "1\t1\t+1.5\r\n% between\r\n   \r\n2 1 -2.5e-1\r\n 2  2  3",
               diag_mode::given);
  EXPECT_EQ(dense(l), (rows_t{{1.5, 0}, {-0.25, 3}}));
}

TEST_F(MtxReader, LongRowsSortedAndSummed) {
  // Row 50 holds columns 49..1 in descending order, each twice: the long-row sort path.
  std::string text = "%%MatrixMarket matrix coordinate real general\n50 50 148\n";
  for (int j = 49; j >= 1; --j) text += "50 " + std::to_string(j) + " -" + std::to_string(j) + "\n";
  for (int j = 49; j >= 1; --j) text += "50 " + std::to_string(j) + " -1\n";
  for (int i = 1; i <= 50; ++i) text += std::to_string(i) + " " + std::to_string(i) + " 1\n";
  csr l = read("long_row.mtx", text, diag_mode::given);
  ASSERT_TRUE(csr_ok(l));
  EXPECT_EQ(l.nnz(), 99);
  for (int j = 1; j <= 49; ++j) EXPECT_EQ(l.val[l.row_ptr[49] + j - 1], -j - 1.0);
}

TEST_F(MtxReader, LinesAcrossChunksAndALongComment) {
  // More than the reader's 4 MiB chunk, and a comment line longer than it.
  const int n = 200000;
  std::string text = "%%MatrixMarket matrix coordinate real general\n%" +
                     std::string(5 << 20, 'c') + "\n" + std::to_string(n) + " " +
                     std::to_string(n) + " " + std::to_string(2 * n - 1) + "\n";
  for (int i = 1; i <= n; ++i) {
    text += std::to_string(i) + " " + std::to_string(i) + " " + std::to_string(i) + ".5\n";
    if (i > 1) text += std::to_string(i) + " " + std::to_string(i - 1) + " -0.125\n";
  }
  csr l = read("chunks.mtx", text, diag_mode::given);
  ASSERT_TRUE(csr_ok(l));
  ASSERT_EQ(l.nnz(), 2 * n - 1);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(l.val[l.row_ptr[i + 1] - 1], i + 1.5) << i;
    if (i > 0) {
      ASSERT_EQ(l.val[l.row_ptr[i]], -0.125) << i;
    }
  }
}

TEST_F(MtxReader, GeneratedMatrixRoundTrips) {
  // A generated L written as a symmetric file (upper and lower entries alternating, %.17g) reads
  // back bit for bit.
  csr g = generate(parse_gen("road:rows=20000,seed=3"), order::random, diag_mode::dominant);
  std::string text = "%%MatrixMarket matrix coordinate real symmetric\n" + std::to_string(g.n) +
                     " " + std::to_string(g.n) + " " + std::to_string(g.nnz()) + "\n";
  char line[96];
  for (int32_t i = 0; i < g.n; ++i)
    for (int32_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) {
      int32_t a = i + 1, b = g.col[k] + 1;
      if (k % 2) std::swap(a, b);
      std::snprintf(line, sizeof line, "%d %d %.17g\n", a, b, g.val[k]);
      text += line;
    }
  csr l = read("roundtrip.mtx", text, diag_mode::given);
  EXPECT_EQ(l.row_ptr, g.row_ptr);
  EXPECT_EQ(l.col, g.col);
  EXPECT_EQ(l.val, g.val);
}

const std::string k_banner = "%%MatrixMarket matrix coordinate real general\n";

TEST_F(MtxReader, RejectsUnsupportedBanners) {
  expect_error("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n1\n", 1,
               "array (dense) format not supported");
  expect_error("complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
               1, "field 'complex' not supported");
  expect_error("skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n", 1,
               "symmetry 'skew-symmetric' not supported");
  expect_error("hermitian.mtx", "%%MatrixMarket matrix coordinate complex hermitian\n1 1 0\n", 1,
               "field 'complex' not supported");
  expect_error("hermitian_real.mtx", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1,
               "symmetry 'hermitian' not supported");
  expect_error("vector.mtx", "%%MatrixMarket vector coordinate real general\n1 1 0\n", 1,
               "object 'vector' not supported");
  expect_error("nobanner.mtx", "3 3 1\n1 1 1\n", 1, "not a Matrix Market file");
  expect_error("short_banner.mtx", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 1,
               "the banner must read");
  expect_error("empty.mtx", "", 1, "empty file");
}

TEST_F(MtxReader, RejectsBadSizeLines) {
  expect_error("nonsquare.mtx", k_banner + "% c\n3 4 1\n1 1 1\n", 3, "matrix is 3 x 4, not square");
  expect_error("nosize.mtx", k_banner + "% only comments\n", 3, "file ends before the size line");
  expect_error("badcount.mtx", k_banner + "3 3 abc\n", 2, "malformed entry count 'abc'");
  expect_error("shortsize.mtx", k_banner + "3 3\n", 2, "missing entry count");
  expect_error("zerorows.mtx", k_banner + "0 0 0\n", 2, "needs at least 1");
  expect_error("huge_nnz.mtx", k_banner + "3 3 3000000000\n1 1 1\n", 2,
               "3000000000 entries, more than 2^31-1");
  expect_error("huge_n.mtx", k_banner + "3000000000 3000000000 1\n1 1 1\n", 2,
               "3000000000 rows, more than 2^31-1");
}

TEST_F(MtxReader, RejectsWrongEntryCounts) {
  expect_error("fewer.mtx", k_banner + "3 3 4\n1 1 1\n2 2 1\n3 3 1\n", 6,
               "file ends after 3 of 4 entries");
  expect_error("more.mtx", k_banner + "3 3 2\n1 1 1\n2 2 1\n% c\n3 3 1\n", 6,
               "more entries than the 2 the size line declares");
}

TEST_F(MtxReader, RejectsBadEntries) {
  std::string head = k_banner + "3 3 2\n1 1 1\n";
  expect_error("row0.mtx", head + "0 1 1\n", 4, "row index 0 out of range [1, 3]");
  expect_error("col4.mtx", head + "2 4 1\n", 4, "column index 4 out of range [1, 3]");
  expect_error("bigidx.mtx", head + "99999999999999999999 1 1\n", 4, "row index");
  expect_error("badcol.mtx", head + "2 x 1.0\n", 4, "malformed column index 'x'");
  expect_error("badval.mtx", head + "2 1 1.2.3\n", 4, "malformed value '1.2.3'");
  expect_error("nanval.mtx", head + "2 1 nan\n", 4, "value 'nan' is not finite");
  expect_error("bigval.mtx", head + "2 1 1e999\n", 4, "value '1e999' out of range");
  expect_error("intval.mtx",
               "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 1 1\n2 1 1.5\n", 4,
               "malformed value '1.5'");
  expect_error("extra.mtx", head + "2 1 1 0\n", 4, "unexpected '0' after the entry");
  expect_error("pattern_extra.mtx",
               "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 1\n2 1 5\n", 4,
               "unexpected '5' after the entry");
  // A truncated last line: the value is missing.
  expect_error("truncated.mtx", head + "3 2", 4, "missing value");
  expect_error("truncated_col.mtx", head + "3", 4, "missing column index");
}

TEST_F(MtxReader, UnreadableFile) {
  try {
    read_matrix_market(dir_ + "/no_such.mtx", diag_mode::given);
    ADD_FAILURE() << "no input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such.mtx: cannot open"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace spts
