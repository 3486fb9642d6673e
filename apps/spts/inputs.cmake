# spts's inputs: L from Matrix Market files or generators, reordering, analysis, partition, check.
# Plain host C++ (not gio_kernel_sources): the app and the tests link it whatever the platform.
add_library(spts_inputs STATIC
  ${CMAKE_CURRENT_LIST_DIR}/line_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mtx_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lower.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gen_spec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generators.cpp
  ${CMAKE_CURRENT_LIST_DIR}/road.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ordering.cpp
  ${CMAKE_CURRENT_LIST_DIR}/analysis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/renumber.cpp
  ${CMAKE_CURRENT_LIST_DIR}/csr_cache.cpp)
target_include_directories(spts_inputs PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_compile_features(spts_inputs PUBLIC cxx_std_17)
target_link_libraries(spts_inputs PUBLIC Threads::Threads)  # renumber.cpp's permuted copy
# No fused multiply-adds where the target has them: the generated geometry and values stay the
# same for a seed on every machine.
target_compile_options(spts_inputs PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-ffp-contract=off>)

# spts-inputs --gen SPEC | --matrix FILE: sizes, levels, critical path and the time to make them.
add_executable(spts-inputs ${CMAKE_CURRENT_LIST_DIR}/inputs_main.cpp)
target_link_libraries(spts-inputs PRIVATE spts_inputs)

if(GIO_BUILD_TESTS)
  # apps/ is configured before the top level's enable_testing() and find_package(GTest): both
  # here, and the top directory's test file includes ours (as apps/jacobi2d/tests.cmake does).
  find_package(GTest REQUIRED)
  enable_testing()
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY TEST_INCLUDE_FILES
               ${CMAKE_CURRENT_BINARY_DIR}/CTestTestfile.cmake)
  add_executable(spts_inputs_test ${CMAKE_CURRENT_LIST_DIR}/matrix_test.cpp
                                  ${CMAKE_CURRENT_LIST_DIR}/mtx_reader_test.cpp)
  target_link_libraries(spts_inputs_test PRIVATE spts_inputs GTest::gtest_main)
  add_test(NAME app.spts.inputs COMMAND spts_inputs_test)
  set_tests_properties(app.spts.inputs PROPERTIES LABELS spts TIMEOUT 300)
endif()
