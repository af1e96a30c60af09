# install.cmake - what `cmake --install` puts where, and the .deb (CPack).
# Included once from the root CMakeLists.txt, after the targets are defined.
#
# Installed (paths relative to the prefix, GNUInstallDirs defaults):
#   bin/dmltensor                                 the command line (core linked in statically)
#   lib/libdmltensor.so.X.Y.Z, .so.X, .so         the core library, shared (dmltensor::dmltensor)
#   lib/libdmltensor.a                            the core library, static (dmltensor::dmltensor_static)
#   include/dmltensor.h                           its public header
#   lib/pkgconfig/dmltensor.pc                    pkg-config (relocatable: paths from ${pcfiledir})
#   lib/cmake/dmltensor/                          find_package(dmltensor) config, version, targets
#   share/man/man1/dmltensor.1                    the man page
#   share/bash-completion/completions/dmltensor   shell completions
#   share/zsh/site-functions/_dmltensor
#   share/fish/vendor_completions.d/dmltensor.fish
#   share/doc/dmltensor/copyright                 the MIT license (LICENSE), as Debian names it
#
# On Windows (the zip, `cpack -G ZIP`): bin/dmltensor.exe (cJSON linked in
# statically) and bin/libdmltensor.dll (dmltensor.dll with MSVC), lib/ with
# the static library and the DLL's import library, include/, the CMake and
# pkg-config files, share/doc/dmltensor/dmltensor.html (the man page, when
# mandoc is found to render it; else the page's source), README.md and
# LICENSE at the top; no shell completions.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Who and where, for the .deb and the .pc file.
set(DMLT_PACKAGE_MAINTAINER
  "dmltensor maintainers <maintainers@users.noreply.a-seed-7d41d1d3.example>"
  CACHE STRING "Maintainer field of the .deb")
set(DMLT_PACKAGE_HOMEPAGE "https://dmltensor.example/"
  CACHE STRING "Homepage (.deb, .pc) (placeholder until the project has one)")

# --- The core library, shared -------------------------------------------
# Built from the same sources as dmltensor_lib (the static library the CLI
# and the tests link). Only the functions the header marks DMLT_API are
# exported: everything else is hidden (C_VISIBILITY_PRESET).
add_library(dmltensor_shared SHARED ${DMLT_LIB_SOURCES})
set_target_properties(dmltensor_shared PROPERTIES
  OUTPUT_NAME dmltensor
  EXPORT_NAME dmltensor
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  C_VISIBILITY_PRESET hidden)
target_include_directories(dmltensor_shared PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_definitions(dmltensor_shared PRIVATE DMLT_BUILDING_LIBRARY)
target_compile_options(dmltensor_shared PRIVATE ${DMLT_WARNINGS})

# The installed static library is dmltensor_lib itself; position-independent
# so that it can also be linked into a consumer's shared object.
set_target_properties(dmltensor_lib PROPERTIES
  EXPORT_NAME dmltensor_static
  POSITION_INDEPENDENT_CODE ON)
if(MSVC)
  # The DLL's import library is dmltensor.lib: the static one needs another name.
  set_target_properties(dmltensor_lib PROPERTIES OUTPUT_NAME dmltensor_static)
endif()

# The names consumers use, also inside this build (add_subdirectory users).
add_library(dmltensor::dmltensor ALIAS dmltensor_shared)
add_library(dmltensor::dmltensor_static ALIAS dmltensor_lib)

# --- Files ---------------------------------------------------------------
set(DMLT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dmltensor)

install(TARGETS dmltensor RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS dmltensor_shared dmltensor_lib EXPORT dmltensorTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/src/include/dmltensor.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

if(WIN32)
  # No man on Windows: the page rendered to HTML when mandoc is at hand.
  find_program(DMLT_MANDOC mandoc)
  if(DMLT_MANDOC)
    add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/generated/dmltensor.html
      COMMAND ${DMLT_MANDOC} -T html ${PROJECT_SOURCE_DIR}/man/dmltensor.1
              > ${PROJECT_BINARY_DIR}/generated/dmltensor.html
      DEPENDS ${PROJECT_SOURCE_DIR}/man/dmltensor.1 VERBATIM)
    add_custom_target(dmltensor_man_html ALL DEPENDS ${PROJECT_BINARY_DIR}/generated/dmltensor.html)
    install(FILES ${PROJECT_BINARY_DIR}/generated/dmltensor.html
      DESTINATION ${CMAKE_INSTALL_DOCDIR})
  else()
    install(FILES ${PROJECT_SOURCE_DIR}/man/dmltensor.1 DESTINATION ${CMAKE_INSTALL_DOCDIR})
  endif()
  install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION .)
else()
  install(FILES ${PROJECT_SOURCE_DIR}/man/dmltensor.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME copyright)
  install(FILES ${PROJECT_SOURCE_DIR}/src/completions/dmltensor.bash
    DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME dmltensor)
  install(FILES ${PROJECT_SOURCE_DIR}/src/completions/_dmltensor
    DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
  install(FILES ${PROJECT_SOURCE_DIR}/src/completions/dmltensor.fish
    DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
endif()

# --- pkg-config ------------------------------------------------------------
# With the usual relative install dirs the .pc file finds the prefix from
# its own location (${pcfiledir}), so it stays right under DESTDIR or
# `cmake --install --prefix`; absolute dirs are written as they are.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(DMLT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(DMLT_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(DMLT_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH DMLT_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" DMLT_PC_UP "${DMLT_PC_UP}") # ../..
  set(DMLT_PC_PREFIX "\${pcfiledir}/${DMLT_PC_UP}")
  set(DMLT_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(DMLT_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/dmltensor.pc.in ${PROJECT_BINARY_DIR}/generated/dmltensor.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/generated/dmltensor.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# --- CMake package: find_package(dmltensor) ----------------------------------
install(EXPORT dmltensorTargets NAMESPACE dmltensor:: DESTINATION ${DMLT_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dmltensorConfig.cmake.in
  ${PROJECT_BINARY_DIR}/generated/dmltensorConfig.cmake
  INSTALL_DESTINATION ${DMLT_CMAKE_DIR})
# SameMajorVersion, like the SOVERSION.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/generated/dmltensorConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/generated/dmltensorConfig.cmake
  ${PROJECT_BINARY_DIR}/generated/dmltensorConfigVersion.cmake
  DESTINATION ${DMLT_CMAKE_DIR})

# --- Packages: the .deb (cpack -G DEB), the Windows zip (cpack -G ZIP) -------
set(CPACK_PACKAGE_NAME dmltensor)
set(CPACK_PACKAGE_VENDOR dmltensor)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "${DMLT_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${DMLT_PACKAGE_HOMEPAGE}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES OFF)
if(WIN32)
  set(CPACK_GENERATOR ZIP)
  # dmltensor-0.1.0-win64.zip, its files under a folder of the same name.
  if(CMAKE_SIZEOF_VOID_P EQUAL 8)
    set(CPACK_PACKAGE_FILE_NAME dmltensor-${PROJECT_VERSION}-win64)
  else()
    set(CPACK_PACKAGE_FILE_NAME dmltensor-${PROJECT_VERSION}-win32)
  endif()
  include(CPack)
  return()
endif()
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_PACKAGE_NAME dmltensor)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # dmltensor_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${DMLT_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${DMLT_PACKAGE_HOMEPAGE}")
# The extended description, under the summary line: CPack indents it and
# turns the empty line into " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "dmltensor computes what a DirectML DML_BUFFER_TENSOR_DESC implies: strides
for a layout (NCHW, NHWC, any permutation, broadcast, padding), the exact
minimum implied buffer size (DMLCalcBufferTensorSize), packed and padded
sizes, offsets of coordinates, and DirectML's validation rules.

This package holds the dmltensor command with its man page and bash, zsh
and fish completions, and the libdmltensor C library (shared and static),
its header, pkg-config file and CMake package.")
# Depends: computed by dpkg-shlibdeps (package dpkg-dev) from the libraries
# the packaged programs and libraries link: libc6, and libcjson1 when the
# dmltensor command calls cJSON. Without dpkg-shlibdeps: both, unversioned.
find_program(DMLT_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(DMLT_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libcjson1")
endif()
# Debian's zsh searches /usr/share/zsh/vendor-completions, not
# /usr/share/zsh/site-functions: in the .deb the zsh completion moves there
# (after CPack installs into its staging directory, before it packages).
file(WRITE ${PROJECT_BINARY_DIR}/generated/cpack_deb_zsh.cmake [=[
if(CPACK_GENERATOR STREQUAL "DEB")
  file(GLOB_RECURSE zsh_files LIST_DIRECTORIES false
    "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/share/zsh/site-functions/_dmltensor")
  foreach(f IN LISTS zsh_files)
    get_filename_component(site "${f}" DIRECTORY)
    get_filename_component(zsh "${site}" DIRECTORY)
    file(MAKE_DIRECTORY "${zsh}/vendor-completions")
    file(RENAME "${f}" "${zsh}/vendor-completions/_dmltensor")
    file(GLOB rest "${site}/*")
    if(NOT rest)
      file(REMOVE_RECURSE "${site}")
    endif()
  endforeach()
endif()
]=])
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_BINARY_DIR}/generated/cpack_deb_zsh.cmake)
# A shlibs control file for libdmltensor.so.N, and ldconfig triggers.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

include(CPack)
