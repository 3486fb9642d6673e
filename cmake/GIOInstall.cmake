# Installs libgio, the headers, the tools and a CMake package (find_package(GIO) -> GIO::gio)
# plus a pkg-config file (gio.pc).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS gio EXPORT GIOTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Installed executables find libgio relative to themselves ($ORIGIN/../lib: a RUNPATH), so the
# install works wherever the prefix lies, with no LD_LIBRARY_PATH (tests/install/check.sh runs the
# installed gio-info from a moved prefix).
file(RELATIVE_PATH GIO_BIN_TO_LIB /p/${CMAKE_INSTALL_BINDIR} /p/${CMAKE_INSTALL_LIBDIR})
set_target_properties(gio-info PROPERTIES INSTALL_RPATH "$ORIGIN/${GIO_BIN_TO_LIB}")
install(TARGETS gio-info RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS ${CMAKE_BINARY_DIR}/bin/giorun DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES device/include/shmem.h device/include/shmemx.h device/include/shmemg.h ${CMAKE_BINARY_DIR}/include/gio_config.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES device/include/mpp/shmem.h device/include/mpp/shmemx.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mpp)
install(DIRECTORY runtime/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gio/runtime FILES_MATCHING PATTERN "*.h")
install(DIRECTORY device/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gio/device FILES_MATCHING PATTERN "*.h"
        PATTERN "include" EXCLUDE REGEX "/device/hip(/.*)?$" EXCLUDE)
# <hip/hip_runtime.h> for the cuda and host platforms (on hip, ROCm's own is used).
if(NOT GIO_PLATFORM STREQUAL "hip")
  install(FILES device/hip/hip_runtime.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gio/hip)
endif()

install(EXPORT GIOTargets NAMESPACE GIO:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/GIO)
configure_package_config_file(cmake/GIOConfig.cmake.in ${CMAKE_BINARY_DIR}/GIOConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/GIO)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/GIOConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/GIOConfig.cmake ${CMAKE_BINARY_DIR}/GIOConfigVersion.cmake
              cmake/GIOKernels.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/GIO)

# How a kernel source is compiled here, for gio.pc and the compiler wrappers: the compiler and the
# flags gio_kernel_sources() gives it (cuda: as CMake passes CMAKE_CUDA_ARCHITECTURES).
set(GIO_PC_CFLAGS "")
set(GIO_PC_LIBS "-lgio")
# The C++ dialect of kernel sources: GNU C++17, what g++ and clang++ take by default and CMake builds
# with (CMAKE_CXX_EXTENSIONS), so <complex.h> declares C's creal and cimag for programs written with
# C's complex types (tests/install/complex_c_types.cpp). nvcc's -std has no GNU dialects: its host
# compiler gets one through -Xcompiler.
if(GIO_PLATFORM STREQUAL "cuda")
  set(GIO_KERNEL_CXX ${CMAKE_CUDA_COMPILER})
  set(GIO_KERNEL_ARCH_FLAGS "")
  foreach(arch ${CMAKE_CUDA_ARCHITECTURES})
    string(APPEND GIO_KERNEL_ARCH_FLAGS " --generate-code=arch=compute_${arch},code=[compute_${arch},sm_${arch}]")
  endforeach()
  string(STRIP "${GIO_KERNEL_ARCH_FLAGS}" GIO_KERNEL_ARCH_FLAGS)
  set(GIO_KERNEL_STD "-std=c++17 -Xcompiler=-std=gnu++17")
  set(GIO_KERNEL_CFLAGS "-x cu ${GIO_KERNEL_STD} ${GIO_KERNEL_ARCH_FLAGS}")
  list(JOIN CUDAToolkit_INCLUDE_DIRS " -I" cuda_inc)
  set(GIO_PC_CFLAGS "-I${cuda_inc}")
  set(GIO_PC_LIBS "-lgio -L${CUDAToolkit_LIBRARY_DIR} -Wl,-rpath,${CUDAToolkit_LIBRARY_DIR} -lcudart")
elseif(GIO_PLATFORM STREQUAL "hip")
  set(GIO_KERNEL_CXX ${CMAKE_CXX_COMPILER})
  list(JOIN GIO_HIP_FLAGS " " GIO_KERNEL_ARCH_FLAGS)
  set(GIO_KERNEL_STD "-std=gnu++17")
  set(GIO_KERNEL_CFLAGS "-x hip ${GIO_KERNEL_STD} ${GIO_KERNEL_ARCH_FLAGS}")
else()
  set(GIO_KERNEL_CXX ${CMAKE_CXX_COMPILER})
  set(GIO_KERNEL_ARCH_FLAGS "")
  set(GIO_KERNEL_STD "-std=gnu++17")
  set(GIO_KERNEL_CFLAGS "${GIO_KERNEL_STD} -pthread")
  set(GIO_PC_CFLAGS "-pthread")
  set(GIO_PC_LIBS "-lgio -pthread")
endif()
file(RELATIVE_PATH GIO_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(cmake/gio.pc.in ${CMAKE_BINARY_DIR}/gio.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/gio.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The OpenSHMEM compiler wrappers and launcher, beside giorun (host/tools/oshcc.in).
file(RELATIVE_PATH GIO_BIN_TO_PREFIX /p/${CMAKE_INSTALL_BINDIR} /p)
foreach(tool oshcc oshc++)
  configure_file(host/tools/oshcc.in ${CMAKE_BINARY_DIR}/tools/${tool} @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  install(PROGRAMS ${CMAKE_BINARY_DIR}/tools/${tool} DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
install(PROGRAMS ${CMAKE_BINARY_DIR}/bin/giorun DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME oshrun)
# gio-chevrons: the host platform's wrappers rewrite <<<...>>> launches with it (host/tools/chevrons.cpp).
if(GIO_PLATFORM STREQUAL "host")
  install(TARGETS gio-chevrons DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/gio)
endif()
