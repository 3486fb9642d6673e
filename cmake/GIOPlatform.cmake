# Platform setup; gio_kernel_sources() and gio_target_kernels() are in GIOKernels.cmake (also
# installed with the CMake package).
string(TOUPPER "${GIO_PLATFORM}" GIO_PLATFORM_UPPER)

if(GIO_PLATFORM STREQUAL "cuda")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)
  find_package(CUDAToolkit REQUIRED)
  set(GIO_PLATFORM_LIBS CUDA::cudart)
elseif(GIO_PLATFORM STREQUAL "hip")
  if(NOT CMAKE_CXX_COMPILER MATCHES "hipcc")
    message(FATAL_ERROR "GIO_PLATFORM=hip needs -DCMAKE_CXX_COMPILER=hipcc")
  endif()
  set(GIO_HIP_FLAGS "")
  foreach(arch ${GIO_HIP_ARCHS})
    list(APPEND GIO_HIP_FLAGS "--offload-arch=${arch}")
  endforeach()
  # GIO's files without kernels compile as C++, as the C++ compiler builds them on cuda: hipcc takes
  # every .cpp for HIP (HIP_COMPILE_CXX_AS_HIP), a device pass per file that yields no code. The
  # "-x hip" of gio_kernel_sources comes after this on the command line, and the last -x wins.
  # ROCm's headers name the platform themselves only in HIP mode (hip/hip_common.h); a C++ file
  # that includes them (through shmem.h) names it here.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-xc++>)
  add_compile_definitions($<$<COMPILE_LANGUAGE:CXX>:__HIP_PLATFORM_AMD__>)
  set(GIO_PLATFORM_LIBS "")
elseif(GIO_PLATFORM STREQUAL "host")
  find_package(Boost REQUIRED COMPONENTS context)
  set(GIO_PLATFORM_LIBS Boost::context Threads::Threads)
else()
  message(FATAL_ERROR "GIO_PLATFORM must be host, cuda or hip (got '${GIO_PLATFORM}')")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/GIOKernels.cmake)
