# Installs libgio, the headers, the tools and a CMake package (find_package(GIO) -> GIO::gio)
# plus a pkg-config file (gio.pc).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS gio EXPORT GIOTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS gio-info RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS ${CMAKE_BINARY_DIR}/bin/giorun DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES device/include/shmem.h device/include/shmemx.h ${CMAKE_BINARY_DIR}/include/gio_config.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY runtime/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gio/runtime FILES_MATCHING PATTERN "*.h")
install(DIRECTORY device/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gio/device FILES_MATCHING PATTERN "*.h"
        PATTERN "include" EXCLUDE)

install(EXPORT GIOTargets NAMESPACE GIO:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/GIO)
configure_package_config_file(cmake/GIOConfig.cmake.in ${CMAKE_BINARY_DIR}/GIOConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/GIO)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/GIOConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/GIOConfig.cmake ${CMAKE_BINARY_DIR}/GIOConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/GIO)

set(GIO_PC_LIBS "-lgio")
configure_file(cmake/gio.pc.in ${CMAKE_BINARY_DIR}/gio.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/gio.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
