# On a GPU platform, the tests whose PEs are processes on GPUs hold one RESOURCE_LOCK, so `ctest -j`
# runs one of them at a time (single-process tests still run beside them). Two such tests at once
# put two processes' kernels on each GPU, and the GPU time-slices between processes: a PE's kernel
# spinning in a wait holds its slice while the softnic's or the proxy's atomic kernel for the other
# test waits for one. On 2 H200 with `ctest -j4`, test_amo over the proxy (shm) and over tcp ran
# beside each other and neither finished in 300 s; each alone takes about 11 s. The host platform runs PEs as threads of plain processes, so
# CI's runs keep their parallelism.
#
# gio_serialize_gpu_tests(): call once in a directory that adds multi-PE tests; it runs when the
# directory's listfiles end (cmake_language DEFER), so it sees every test they add.
function(gio_serialize_gpu_tests)
  if(NOT GIO_PLATFORM STREQUAL "host")
    cmake_language(DEFER CALL _gio_lock_multi_pe_tests)
  endif()
endfunction()

function(_gio_lock_multi_pe_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    get_test_property(${t} PROCESSORS procs)
    if(t MATCHES "\\.np([2-9]|[1-9][0-9])(\\.|$)|two_nodes" OR (procs AND procs GREATER 1))
      set_property(TEST ${t} APPEND PROPERTY RESOURCE_LOCK gio_gpus)
    endif()
  endforeach()
endfunction()
