# On a GPU platform the tests whose PEs are processes on GPUs run in GIO_TEST_GPU_LANES lanes: each
# holds the RESOURCE_LOCK of one lane (round robin), so `ctest -j` runs at most that many of them at
# once (single-process tests still run beside them). Processes on one GPU share it in time slices,
# and a PE's kernel spinning in a wait holds its slice while another process's work waits for one.
# Most tests mostly start PEs and check results: four of them at a time passed on one H200, each
# slower than alone (func.test_coll_device.p2p.np1: 56 s, against 10 s with a GPU to itself). The
# AMO tests did not: every softnic or proxy atomic on GPU memory is a kernel of its own process,
# which needs that process's slice, so beside other tests each atomic waits longer; they hold every
# lane's lock and run alone. Their shared-GPU sizes (pes_share_gpu, tests/func/gio_test.h) make
# them short, but they remain the suite's densest atomics (test_amo about 2,000 a PE at 2 PEs,
# test_gda_wave about 500, test_ctx about 200), each waiting for a slice behind every process on
# the GPU: three more tests beside them would lengthen every such wait about as much as the lanes
# would save, so they keep running alone. The host platform runs PEs as threads of plain processes, so CI's
# runs keep their parallelism.
#
# gio_serialize_gpu_tests(): call once in a directory that adds multi-PE tests; it runs when the
# directory's listfiles end (cmake_language DEFER), so it sees every test they add.
set(GIO_TEST_GPU_LANES 4 CACHE STRING "GPU platforms: multi-PE tests that ctest -j runs at once")

function(gio_serialize_gpu_tests)
  if(NOT GIO_PLATFORM STREQUAL "host")
    cmake_language(DEFER CALL _gio_lock_multi_pe_tests)
  endif()
endfunction()

function(_gio_lock_multi_pe_tests)
  set(lanes ${GIO_TEST_GPU_LANES})
  if(NOT lanes MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "GIO_TEST_GPU_LANES is '${GIO_TEST_GPU_LANES}': it must be a positive number")
  endif()
  set(all "")
  math(EXPR last "${lanes} - 1")
  foreach(i RANGE ${last})
    list(APPEND all gio_gpu_lane_${i})
  endforeach()
  get_property(tests DIRECTORY PROPERTY TESTS)
  set(n 0)
  foreach(t IN LISTS tests)
    get_test_property(${t} PROCESSORS procs)
    if(t MATCHES "\\.np([2-9]|[1-9][0-9])(\\.|$)|two_nodes" OR (procs AND procs GREATER 1))
      if(t MATCHES "^func\\.test_amo(_host|_nbi)?\\.")
        set_property(TEST ${t} APPEND PROPERTY RESOURCE_LOCK ${all})
      else()
        math(EXPR lane "${n} % ${lanes}")
        set_property(TEST ${t} APPEND PROPERTY RESOURCE_LOCK gio_gpu_lane_${lane})
        math(EXPR n "${n} + 1")
      endif()
    endif()
  endforeach()
endfunction()
