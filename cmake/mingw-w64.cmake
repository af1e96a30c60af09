# mingw-w64.cmake - cross-compile for Windows x64 with Debian's MinGW-w64
# (package gcc-mingw-w64-x86-64). Used by .ci/checks/60-windows.sh:
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake \
#         -DCMAKE_PREFIX_PATH=<where cJSON for Windows is installed>
# Tests run under Wine when it is found (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(DMLT_MINGW_PREFIX x86_64-w64-mingw32)
# The win32 thread model: no libwinpthread-1.dll beside the exe.
find_program(CMAKE_C_COMPILER NAMES ${DMLT_MINGW_PREFIX}-gcc-win32 ${DMLT_MINGW_PREFIX}-gcc REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${DMLT_MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${DMLT_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# libgcc statically: the exe needs no DLL beyond Windows' own.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static-libgcc")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc")

# Wine runs the tests: Debian installs its runner off PATH.
find_program(DMLT_WINE NAMES wine64 wine PATHS /usr/lib/wine NO_DEFAULT_PATH)
if(NOT DMLT_WINE)
  find_program(DMLT_WINE NAMES wine64 wine)
endif()
if(DMLT_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${DMLT_WINE})
endif()
