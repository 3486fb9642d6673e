// Command line of jacobi2d. Every knob is a flag; defaults match NVIDIA's
// multi-gpu-programming-models Jacobi (16384 x 16384, 1000 iterations, float, norm every iteration).
#pragma once
#include <string>

namespace jacobi {

enum class variant { gio, gio_launch, interk, interk_overlap, ikn };
// ikn is gio with every peer over the proxy transport (apps/common/ikn.h): the same persistent kernel.
inline bool persistent_kernel(variant v) { return v == variant::gio || v == variant::ikn; }
// The kernels exchange halos themselves (the others: the host, between kernels).
inline bool device_initiated(variant v) { return persistent_kernel(v) || v == variant::gio_launch; }

struct options {
  int nx = 16384;            // columns, the two outer ones fixed (Dirichlet)
  int ny = 16384;            // rows, the two outer ones periodic ghosts of rows ny-2 and 1
  int iters = 1000;          // fixed iteration count
  int nccheck = 1;           // residual norm every nccheck iterations
  int warmup = 10;           // untimed iterations before each timed run
  bool dbl = false;          // --type double
  variant var = variant::gio;
  std::string json;          // append one JSON line here (PE 0)
  int wgs = 0;               // work-groups per launch; 0 = as many as can be resident
  int block = 0;             // threads per work-group; 0 = 256 on GPUs, 64 on the host platform
  double timeout_s = 120;    // bound on each of the persistent kernel's waits for other work-groups
  bool grid_sync = false;    // --sync grid: the persistent kernel's iterations end at a grid barrier
  bool inject_error = false; // test only: corrupt one halo value; the check must then fail
  bool inject_stall = false; // test only: on PE 0 a work-group of the persistent kernel waits for
                             // one that never arrives; the wait must time out with a message
};

const char* variant_name(variant v);
// Parses argv into *o; on a bad or missing value prints why (and the usage) and returns false.
// Sets *help when -h/--help was given.
bool parse_options(int argc, char** argv, options* o, bool* help);
void print_usage(const char* prog);

}  // namespace jacobi
