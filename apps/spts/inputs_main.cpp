// spts-inputs: makes one input of spts as the app would and prints its size, dependency depth and
// the time each step took, without a GPU.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "matrix.h"

namespace {

void usage() {
  std::printf(
      "usage: spts-inputs --gen SPEC [--order natural|random] [--diag unit|dominant]\n"
      "       spts-inputs --matrix FILE [--diag given|unit|dominant] [--order natural|random]\n"
      "                   [--seed S]\n"
      "  SPEC: grid2d:n=R | grid3d:n=R | road:rows=N,deg=D | rmat:scale=S,deg=D |\n"
      "        banded:n=N,band=B, each with rows=N and seed=S (see apps/spts/matrix.h)\n"
      "  --diag defaults to dominant for --gen, given for --matrix; --seed (default 1) seeds\n"
      "  the random order of a file (a generator's seed is in SPEC)\n");
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::string gen, file, ord = "natural", diag;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      usage();
      return 0;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "spts-inputs: %s needs a value\n", a.c_str());
      return 2;
    }
    std::string v = argv[++i];
    if (a == "--gen") gen = v;
    else if (a == "--matrix") file = v;
    else if (a == "--order") ord = v;
    else if (a == "--diag") diag = v;
    else if (a == "--seed") {
      char* end = nullptr;
      seed = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end || v[0] == '-') {
        std::fprintf(stderr, "spts-inputs: --seed %s: an unsigned integer\n", v.c_str());
        return 2;
      }
    }
    else {
      std::fprintf(stderr, "spts-inputs: unknown option %s\n", a.c_str());
      usage();
      return 2;
    }
  }
  if (gen.empty() == file.empty() || (ord != "natural" && ord != "random")) {
    usage();
    return 2;
  }
  if (diag.empty()) diag = gen.empty() ? "given" : "dominant";
  spts::diag_mode d;
  if (diag == "given") d = spts::diag_mode::given;
  else if (diag == "unit") d = spts::diag_mode::unit;
  else if (diag == "dominant") d = spts::diag_mode::dominant;
  else {
    std::fprintf(stderr, "spts-inputs: --diag %s: given, unit or dominant\n", diag.c_str());
    return 2;
  }
  spts::order o = ord == "random" ? spts::order::random : spts::order::natural;

  try {
    auto t0 = std::chrono::steady_clock::now();
    spts::csr l;
    double t_reorder = 0;
    if (!gen.empty()) {
      l = spts::generate(spts::parse_gen(gen), o, d);
    } else {
      l = spts::read_matrix_market(file, d);
      if (o == spts::order::random) {
        auto t1 = std::chrono::steady_clock::now();
        l = spts::reorder(l, o, seed);
        spts::set_diagonal(l, d);
        t_reorder = seconds_since(t1);
      }
    }
    double t_make = seconds_since(t0) - t_reorder;
    auto t2 = std::chrono::steady_clock::now();
    spts::analysis a = spts::analyze(l);
    double t_analyze = seconds_since(t2);
    std::printf("input %s order %s diag %s\n", gen.empty() ? file.c_str() : gen.c_str(),
                ord.c_str(), diag.c_str());
    std::printf("rows %d nnz %lld (%.2f per row) levels %d critical_path %lld\n", l.n,
                (long long)l.nnz(), l.n ? (double)l.nnz() / l.n : 0.0, a.levels,
                (long long)a.critical_path);
    std::printf("time %s %.3f s reorder %.3f s analyze %.3f s\n", gen.empty() ? "read" : "generate",
                t_make, t_reorder, t_analyze);
  } catch (const spts::input_error& e) {
    std::fprintf(stderr, "spts-inputs: %s\n", e.what());
    return 1;
  }
  return 0;
}
