# CI cases for jacobi2d: small grids, every variant, both types, 1, 2 and 4 PEs. Each run checks
# itself against the 1-PE reference and exits non-zero on a mismatch, so the exit code is the test.
# apps/ is configured before the top level calls enable_testing(), and apps/ itself writes no test
# file, so ctest would never reach this directory's: enable testing here and have the top
# directory's test file include ours.
enable_testing()
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY TEST_INCLUDE_FILES
             ${CMAKE_CURRENT_BINARY_DIR}/CTestTestfile.cmake)
set(JACOBI_GIORUN ${CMAKE_BINARY_DIR}/bin/giorun)
gio_serialize_gpu_tests()  # cmake/GIOTestLocks.cmake

# The persistent kernel's neighbour lists against a model of the kernel (plain host C++).
find_package(GTest REQUIRED)
add_executable(jacobi_deps_test ${CMAKE_CURRENT_LIST_DIR}/deps_test.cpp ${CMAKE_CURRENT_LIST_DIR}/deps.cpp)
target_include_directories(jacobi_deps_test PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(jacobi_deps_test PRIVATE GIO::gio GTest::gtest_main)
add_test(NAME app.jacobi2d.deps COMMAND jacobi_deps_test)
set_tests_properties(app.jacobi2d.deps PROPERTIES TIMEOUT 300 LABELS jacobi2d)
set(JACOBI_TEST_ENV "GIO_TIMEOUT_MS=60000")

function(jacobi_test name np)
  add_test(NAME app.jacobi2d.${name} COMMAND ${JACOBI_GIORUN} -n ${np} $<TARGET_FILE:jacobi2d> ${ARGN})
  set_tests_properties(app.jacobi2d.${name} PROPERTIES ENVIRONMENT "${JACOBI_TEST_ENV}" TIMEOUT 300
                       PROCESSORS ${np} LABELS jacobi2d)
endfunction()

# float: 256 x 256 (16-byte loads, 254 rows: uneven over 4 PEs); double: 250 x 259 (257 rows, a
# prime, so uneven at 2 and 4 PEs) with the norm every 3rd iteration of 20.
foreach(v gio gio-launch interk interk-overlap)
  foreach(np 1 2 4)
    jacobi_test(${v}.float.np${np} ${np} --variant ${v} --type float --nx 256 --ny 256 --iters 20)
    jacobi_test(${v}.double.np${np} ${np} --variant ${v} --type double --nx 250 --ny 259 --iters 20
                --nccheck 3)
  endforeach()
endforeach()

# Shapes the cases above miss: rows that do not allow vector loads (one column per thread), one
# and two rows per PE (a single work-group owns both boundary rows), 3 PEs, a work-group count
# and size that split rows and segments unevenly.
jacobi_test(gio.float.scalar.np2 2 --variant gio --nx 250 --ny 259 --iters 20)
jacobi_test(interk-overlap.float.scalar.np2 2 --variant interk-overlap --nx 250 --ny 259 --iters 20)
foreach(v gio gio-launch interk-overlap)
  jacobi_test(${v}.float.row1.np4 4 --variant ${v} --nx 64 --ny 6 --iters 20)
endforeach()
jacobi_test(gio.double.row2.np4 4 --variant gio --type double --nx 64 --ny 10 --iters 20)
jacobi_test(gio.float.np3 3 --variant gio --nx 256 --ny 256 --iters 20 --nccheck 7)
jacobi_test(gio.double.uneven.np2 2 --variant gio --type double --nx 257 --ny 259 --iters 21
            --wgs 3 --block 32)
jacobi_test(gio-launch.float.uneven.np2 2 --variant gio-launch --nx 250 --ny 259 --iters 20 --wgs 7)
# The persistent kernel's two ways of ordering its work-groups: many work-groups over 4 segments
# (each waits for a few neighbours: deps.h), and the grid barrier.
jacobi_test(gio.float.neighbours.np2 2 --variant gio --nx 1024 --ny 131 --block 32 --wgs 24 --iters 20)
jacobi_test(gio.double.grid.np2 2 --variant gio --type double --nx 1024 --ny 131 --block 32 --wgs 24
            --iters 20 --nccheck 3 --sync grid)
jacobi_test(gio.float.grid.np1 1 --variant gio --nx 256 --ny 256 --iters 20 --sync grid)
add_test(NAME app.jacobi2d.bad-sync
         COMMAND bash ${GIO_APP_COMMON}/expect_error.sh 2 "jacobi2d: --sync is neighbours or grid \\(got \"ring\"\\)"
                 $<TARGET_FILE:jacobi2d> --sync ring)
set_tests_properties(app.jacobi2d.bad-sync PROPERTIES TIMEOUT 60 LABELS jacobi2d)

# Over the gda transport (the software ConnectX without mlx5 hardware): the device-initiated
# variants put and signal through NIC queues instead of stores.
foreach(v gio gio-launch)
  jacobi_test(${v}.float.gda.np2 2 --variant ${v} --nx 256 --ny 256 --iters 20)
  set_property(TEST app.jacobi2d.${v}.float.gda.np2 APPEND PROPERTY ENVIRONMENT GIO_TRANSPORT=gda)
endforeach()
jacobi_test(gio.double.gda.np4 4 --variant gio --type double --nx 250 --ny 259 --iters 20 --nccheck 3)
set_property(TEST app.jacobi2d.gio.double.gda.np4 APPEND PROPERTY ENVIRONMENT GIO_TRANSPORT=gda)

# ikn (gio's kernel, every peer through the CPU proxy over libfabric shm) where libgio has the proxy:
# the case that gio itself runs in both types, at 1 PE (no peers) and 2. Small grids: each command
# waits for a CPU thread.
if(TARGET gio_proxy_fabric)
  foreach(np 1 2)
    jacobi_test(ikn.float.np${np} ${np} --variant ikn --type float --nx 256 --ny 256 --iters 20)
  endforeach()
  jacobi_test(ikn.double.np2 2 --variant ikn --type double --nx 250 --ny 259 --iters 20 --nccheck 3)
endif()
# Another GIO_TRANSPORT would run gio's communication under ikn's name: the app must refuse (exit 2)
# before shmem_init, naming the value. No libfabric is needed to get there.
add_test(NAME app.jacobi2d.ikn.other-transport.np2
         COMMAND bash ${GIO_APP_COMMON}/expect_error.sh 2
                 "jacobi2d: --variant ikn needs GIO_TRANSPORT=proxy.*it is \"p2p\""
                 ${JACOBI_GIORUN} -n 2 $<TARGET_FILE:jacobi2d> --variant ikn --nx 256 --ny 256 --iters 20)
set_tests_properties(app.jacobi2d.ikn.other-transport.np2 PROPERTIES
                     ENVIRONMENT "${JACOBI_TEST_ENV};GIO_TRANSPORT=p2p" TIMEOUT 60 PROCESSORS 2
                     LABELS jacobi2d)

# A work-group of the persistent kernel that waits for one that never arrives (--inject-stall: on
# PE 0 work-group 0 also lists a work-group that does not exist; with --sync grid the barrier's
# first group can never fill) times out with a message naming who waited for what, and GIO's exit
# code (whichever waiter's bound runs out first: the ones waiting for it in turn may print first).
# Host platform: the device's stop is a trap there, which the GPU reports as a failed launch.
if(GIO_PLATFORM STREQUAL "host")
  foreach(s neighbours grid)
    if(s STREQUAL "grid")
      set(what "in the grid barrier \\(generation 0\\)")
    else()
      set(what "for work-group [0-9]+ to finish iteration [0-9]+ \\(it has finished [0-9]+\\)")
    endif()
    add_test(NAME app.jacobi2d.gio.stall.${s}.np1
             COMMAND bash ${GIO_APP_COMMON}/expect_error.sh 17
                     "jacobi2d: PE 0 work-group [0-9]+ waited [0-9.]+ s ${what}"
                     ${JACOBI_GIORUN} -n 1 $<TARGET_FILE:jacobi2d> --variant gio --nx 256 --ny 256 --iters 20
                     --sync ${s} --inject-stall --timeout-s 2)
    set_tests_properties(app.jacobi2d.gio.stall.${s}.np1 PROPERTIES ENVIRONMENT "${JACOBI_TEST_ENV}" TIMEOUT 120
                         LABELS jacobi2d)
  endforeach()
endif()

# The check can fail: one corrupted halo value must make the run exit with 1 and report FAIL.
foreach(v gio interk-overlap)
  add_test(NAME app.jacobi2d.${v}.inject-error.np2
           COMMAND bash ${GIO_APP_COMMON}/expect_fail.sh ${JACOBI_GIORUN} -n 2
                   $<TARGET_FILE:jacobi2d> --variant ${v} --nx 256 --ny 256 --iters 20 --inject-error)
  set_tests_properties(app.jacobi2d.${v}.inject-error.np2 PROPERTIES ENVIRONMENT "${JACOBI_TEST_ENV}"
                       TIMEOUT 300 PROCESSORS 2 LABELS jacobi2d)
endforeach()
