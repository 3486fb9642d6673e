// The timed runs: the four variants and the 1-PE reference.
#pragma once
#include <vector>

#include "fields.h"
#include "options.h"

namespace jacobi {

struct run_result {
  double total_s = 0;
  // Device-initiated variants: mean time a boundary work-group spent waiting for neighbours'
  // halos. Host-driven variants: host time in quiet + sync_all after the halo puts.
  double sync_s = 0;
  // Host-driven variants: host time putting halos and norm sums (device-initiated: 0, derived later).
  double comm_s = 0;
  std::vector<double> norms;  // global residual L2 norm of every check
};

struct reference_result {
  double total_s = 0;
  std::vector<double> norms;
};

// Work-groups of a full-row launch that can all be resident at once (the persistent kernel
// needs that; the others use it as their grid size).
template <typename T>
int resident_wgs_device(variant v, int vec, int block);  // gio, gio-launch
template <typename T>
int resident_wgs_host(variant v, int vec, int block);    // interk, interk-overlap, reference

// `iters` iterations from the initial state. comm = false: the same kernels and launches with no
// halo exchange and no cross-PE norm (the compute-only run). perturb: see fields::perturb_halo.
template <typename T>
run_result run_device_initiated(fields<T>& f, const options& o, int iters, bool comm, bool perturb);
template <typename T>
run_result run_host_driven(fields<T>& f, const options& o, int iters, bool comm, bool perturb);

// The whole domain on this PE's device alone, no communication; leaves this PE's rows of the
// result in *rows (chunk x nx).
template <typename T>
reference_result run_reference(const options& o, const domain& d, const launch_shape& s, int iters,
                               std::vector<T>* rows);

// Seconds for `iters` copies of this PE's field into the other (roofline.cpp) with 16-byte loads,
// on as many work-groups as the copy keeps resident (at most `cap`): the memory-bound floor of the
// same sweeps. Overwrites both fields.
template <typename T>
double run_roofline(fields<T>& f, int iters, int cap);

}  // namespace jacobi
