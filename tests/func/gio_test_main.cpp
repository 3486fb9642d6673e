// main() of every multi-PE test binary: shmem_init, run the tests on every PE, and agree on the
// result so that one PE's failure fails the job. PE 0 prints the usual GoogleTest report; other
// PEs print only their failures, prefixed with their PE number.
#include <gtest/gtest.h>
#include <mpi.h>
#include <shmem.h>

#include "gio_test.h"

namespace {
class failure_printer : public ::testing::EmptyTestEventListener {
 public:
  explicit failure_printer(int pe) : pe_(pe) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      fprintf(stderr, "[PE %d] %s:%d: failure\n%s\n", pe_, r.file_name() ? r.file_name() : "?", r.line_number(),
              r.summary());
  }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (info.result()->Failed())
      fprintf(stderr, "[PE %d] FAILED %s.%s\n", pe_, info.test_suite_name(), info.name());
  }

 private:
  int pe_;
};
}  // namespace

// A test binary that needs another thread level defines this (test_host_threads.cpp: MULTIPLE).
extern "C" int giotest_thread_level __attribute__((weak));

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (&giotest_thread_level)
    shmem_init_thread(giotest_thread_level, nullptr);
  else
    shmem_init();
  const int me = shmem_my_pe();
  // How many PEs share this machine (pes_share_gpu), from MPI where GIO bootstrapped over it.
  int mpi_up = 0;
  MPI_Initialized(&mpi_up);
  if (mpi_up) {
    MPI_Comm machine;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine) == MPI_SUCCESS) {
      MPI_Comm_size(machine, &giotest::g_pes_on_machine);
      MPI_Comm_free(&machine);
    }
  }
  if (me != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new failure_printer(me));
  }
  int rc = RUN_ALL_TESTS() ? 1 : 0, any = 0;
  // A --gtest_filter that selects nothing (a renamed test behind a ctest's filter) fails the run
  // rather than passing it on no test at all.
  if (::testing::UnitTest::GetInstance()->test_to_run_count() == 0 && GTEST_FLAG_GET(filter) != "*") {
    fprintf(stderr, "[PE %d] --gtest_filter=%s selects no test\n", me, GTEST_FLAG_GET(filter).c_str());
    rc = 1;
  }
  // Over MPI when GIO bootstrapped over it; under GIO_BOOTSTRAP=pmix MPI was never started, and a
  // reduction on the symmetric heap agrees instead.
  if (mpi_up) {
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  } else {
    // Through the API: the heap is GPU memory on cuda and hip.
    int* w = (int*)shmem_malloc(2 * sizeof(int));
    shmem_int_p(&w[0], rc, me);
    shmem_barrier_all();
    shmem_int_max_reduce(SHMEM_TEAM_WORLD, &w[1], &w[0], 1);
    any = shmem_int_g(&w[1], me);
    shmem_free(w);
  }
  if (me == 0 && any && !rc) fprintf(stderr, "another PE failed (see its [PE n] lines)\n");
  shmem_finalize();
  return any;
}
