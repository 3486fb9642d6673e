# gio_kernel_sources(files...): marks files holding kernels (HIP syntax) so the platform's kernel
# compiler builds them, whatever their suffix (.cpp, .hip, .cu): CUDA on cuda; C++ with -x hip on
# hip (hipcc is the C++ compiler there); C++ on host. A suffix CMake does not take for C++ gets an
# explicit LANGUAGE CXX, which makes CMake name the language to the compiler (policy CMP0119), so
# the file is compiled, not left without a language or taken for linker input. gio_target_kernels(target): the link options such an executable needs.
# Used by GIO's own build (GIOPlatform.cmake) and by users through find_package(GIO), which sets
# GIO_PLATFORM and GIO_HIP_FLAGS to what libgio was built with.
function(gio_kernel_sources)
  foreach(f ${ARGN})
    # A suffix CMake does not compile as C++ (.hip, .cu) needs the language named.
    get_filename_component(ext ${f} LAST_EXT)
    string(REGEX REPLACE "^\\." "" ext "${ext}")
    set(lang "")
    if(NOT ext IN_LIST CMAKE_CXX_SOURCE_FILE_EXTENSIONS)
      set(lang LANGUAGE CXX)
    endif()
    if(GIO_PLATFORM STREQUAL "cuda")
      set_source_files_properties(${f} DIRECTORY ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR} PROPERTIES LANGUAGE CUDA)
    elseif(GIO_PLATFORM STREQUAL "hip")
      set_source_files_properties(${f} DIRECTORY ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}
                                  PROPERTIES ${lang} COMPILE_OPTIONS "-x;hip;${GIO_HIP_FLAGS}")
    elseif(lang)
      set_source_files_properties(${f} DIRECTORY ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR} PROPERTIES ${lang})
    endif()
  endforeach()
endfunction()

# Link options for executables whose kernels were compiled for hip.
function(gio_target_kernels target)
  if(GIO_PLATFORM STREQUAL "hip")
    target_link_options(${target} PRIVATE ${GIO_HIP_FLAGS})
  endif()
endfunction()
