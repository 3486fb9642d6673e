# tools.spts_plot: plot.py --table on testdata/runs.jsonl (hand-written spts JSON lines). The rows
# checked need the script to drop a failed and a superseded run of the same configuration and to
# take the speedup from the same input's cusparse run where a run has no vendor time of its own
# (0.120 ms / 0.110 ms). Checks the report script, not GIO: LABELS tools (tests/run.sh).
# apps/ is configured before the top level's enable_testing(), so this directory's test file is
# included from the top one (as jacobi2d's tests.cmake does; guarded so both may ask).
enable_testing()
get_property(spts_test_includes DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTY TEST_INCLUDE_FILES)
if(NOT "${CMAKE_CURRENT_BINARY_DIR}/CTestTestfile.cmake" IN_LIST spts_test_includes)
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY TEST_INCLUDE_FILES
               ${CMAKE_CURRENT_BINARY_DIR}/CTestTestfile.cmake)
endif()
find_program(GIO_PYTHON3 python3 REQUIRED)  # tests/CMakeLists.txt finds the same, later
add_test(NAME tools.spts_plot
         COMMAND ${GIO_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/plot.py --table
                 ${CMAKE_CURRENT_SOURCE_DIR}/testdata/runs.jsonl)
# The gio row must follow single's directly: a superseded run left in would come between them,
# a failed one kept would replace the numbers checked.
set(spts_row "\\| road:rows=1000000 \\| random \\| float \\| 1000000 \\| 2250000 \\| 17 \\|")
string(CONCAT spts_expect "${spts_row} single \\| 1 \\| 0\\.100 \\| 45\\.00 \\| 1\\.20 \\|  \\|\n"
                          "${spts_row} gio \\| 1 \\| 0\\.110 \\| 40\\.91 \\| 1\\.09 \\|  \\|\n")
set_tests_properties(tools.spts_plot PROPERTIES LABELS tools PASS_REGULAR_EXPRESSION "${spts_expect}")
