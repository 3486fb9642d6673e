# GIO_SANITIZE: build the host platform with sanitizers (CI runs build-asan with
# "address,undefined" and build-tsan with "thread"; tests/run.sh). Empty = none.
#
# The host platform runs GPU threads as Boost.Context fibers on mmap'ed stacks; the emulator
# tells ASan and TSan about every fiber switch itself (host/platform/emu/emu_sanitize.h), since
# Debian's Boost.Context 1.74 is built for fcontext (its BOOST_USE_ASAN hooks exist only in the
# ucontext variant, whose activation record the packaged library does not export) and has no TSan
# hooks at all.
set(GIO_SANITIZE "" CACHE STRING "host platform sanitizers: address,undefined | thread | address | undefined (empty: none)")

if(GIO_SANITIZE)
  if(NOT GIO_PLATFORM STREQUAL "host")
    message(FATAL_ERROR "GIO_SANITIZE needs GIO_PLATFORM=host (GPU kernels: compute-sanitizer on the GPU machine)")
  endif()
  string(REPLACE "," ";" gio_san_list "${GIO_SANITIZE}")
  foreach(s ${gio_san_list})
    if(NOT s MATCHES "^(address|undefined|thread|leak)$")
      message(FATAL_ERROR "GIO_SANITIZE: unknown sanitizer '${s}' (address, undefined, thread, leak)")
    endif()
  endforeach()
  if("thread" IN_LIST gio_san_list AND ("address" IN_LIST gio_san_list OR "leak" IN_LIST gio_san_list))
    message(FATAL_ERROR "GIO_SANITIZE: thread cannot be combined with address or leak")
  endif()
  # TSan needs clang's runtime (Debian 12: clang++-14). Measured with 1000-4000 fibers, GCC 12's
  # libtsan takes 5-18 us per synchronising fiber switch (clang 14's: 0.2-0.5 us) and 360-720 us
  # per fiber created (4 us), so the functional tests ran 10-100x slower under it (test_amo over
  # gda: 695 s, 17 s with clang), and it dies past 8128 live fibers, which the emulator's idle
  # work-group threads keep (platform.host_emu: "Thread limit (8128 threads) exceeded").
  if("thread" IN_LIST gio_san_list AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GIO_SANITIZE=thread needs clang (-DCMAKE_C_COMPILER=clang-14 "
                        "-DCMAKE_CXX_COMPILER=clang++-14): GCC's TSan runtime makes the emulator's fiber "
                        "switches 25-35x dearer and dies past 8128 fibers "
                        "(${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} found)")
  endif()
  string(REPLACE ";" "," gio_san_flag "${gio_san_list}")
  # -fno-sanitize-recover: UB stops the test with a report instead of scrolling past in a log.
  add_compile_options(-fsanitize=${gio_san_flag} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${gio_san_flag})
  set(GIO_SANITIZE_LIST ${gio_san_list})
  message(STATUS "GIO: sanitizers ${gio_san_flag}")
endif()
