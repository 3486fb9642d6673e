# spts_link_vendor(target): links the vendor sparse library run_vendor.cpp calls — cuSPARSE on
# cuda, rocSPARSE on hip, nothing on host.
function(spts_link_vendor target)
  if(GIO_PLATFORM STREQUAL "cuda")
    find_package(CUDAToolkit REQUIRED)
    target_link_libraries(${target} PRIVATE CUDA::cusparse)
  elseif(GIO_PLATFORM STREQUAL "hip")
    # The library and header directly, not find_package(rocsparse): its config finds the hip
    # package, which runs `hipcc --version`, which probes for GPUs and prints a traceback on a
    # machine without one (CI). Debian/Ubuntu: librocsparse-dev (tests/deps.sh); ROCm: /opt/rocm.
    find_library(SPTS_ROCSPARSE_LIB rocsparse HINTS /opt/rocm/lib REQUIRED)
    find_path(SPTS_ROCSPARSE_INCLUDE rocsparse/rocsparse.h HINTS /opt/rocm/include REQUIRED)
    target_include_directories(${target} SYSTEM PRIVATE ${SPTS_ROCSPARSE_INCLUDE})
    target_link_libraries(${target} PRIVATE ${SPTS_ROCSPARSE_LIB})
  endif()
endfunction()
