# Writes OUT with GIO_APP_COMMIT = `git describe --always --dirty` of SRC, touching OUT only when
# the value changed (run at every build, so results never carry a stale commit). $GIO_COMMIT wins:
# a copy of the tree whose .git is not the tree's own (the GPU machines' copies) must say it.
if(DEFINED ENV{GIO_COMMIT} AND NOT "$ENV{GIO_COMMIT}" STREQUAL "")
  set(commit "$ENV{GIO_COMMIT}")
  set(rc 0)
else()
  execute_process(COMMAND git -C "${SRC}" describe --always --dirty --abbrev=12
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
endif()
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
file(WRITE "${OUT}.tmp" "#define GIO_APP_COMMIT \"${commit}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
file(REMOVE "${OUT}.tmp")
