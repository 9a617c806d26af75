# The installed SDK (docs/sdk.md): `cmake --install` puts simtx and simtx-cc
# in bin/, the platforms, the built-in kernels, the kernel toolchain's files
# and the waveform views in share/simtx/, the docs and examples in
# share/doc/simtx/, a manual page, the host API header in include/simtx/, a CMake
# package (find_package(simtx)) and a pkg-config file. Every installed file
# finds the others relative to itself, so `cmake --install --prefix DIR`
# works for any DIR. CPack makes the Debian package from the same rules.
include(CMakePackageConfigHelpers)
# Installing (and cpack) never rebuilds: build first. Otherwise every cpack
# run would first check every target of the tree (most of its time).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(SIMTX_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/simtx)
set(SIMTX_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/simtx)

install(TARGETS simtx RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS ${PROJECT_BINARY_DIR}/runtime/simtx-cc.install DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME simtx-cc)
install(DIRECTORY platforms/ DESTINATION ${SIMTX_INSTALL_DATADIR}/platforms FILES_MATCHING PATTERN "*.lua" PATTERN src EXCLUDE)
install(DIRECTORY runtime/kernel/ DESTINATION ${SIMTX_INSTALL_DATADIR}/kernel)
# The built-in workloads' kernels: an installed simtx finds them beside itself.
# (Not the runtime objects the build compiled them with, runtime/CMakeLists.txt.)
install(DIRECTORY ${SIMTX_KERNEL_OUTPUT_DIR}/ DESTINATION ${SIMTX_INSTALL_DATADIR}/kernels
        FILES_MATCHING PATTERN "*.elf" PATTERN "bad_*" EXCLUDE PATTERN "runtime" EXCLUDE)
install(FILES runtime/host_api.h runtime/durable_recovery.h runtime/kernel/gpu_durable_layout.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/simtx)
# The crash campaign, for durable plugins too (--host); it finds the simtx beside it.
install(PROGRAMS scripts/crash_campaign DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME simtx-crash-campaign)
# What a user reads and opens: the docs, the example projects, the blocks'
# READMEs (where the docs point, at the same relative paths), the waveform
# views with their GTKWave translate files, and the manual page.
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY examples DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY models/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/models FILES_MATCHING PATTERN "README.md")
install(DIRECTORY traces/ DESTINATION ${SIMTX_INSTALL_DATADIR}/traces FILES_MATCHING PATTERN "*.gtkw" PATTERN "*.txt" PATTERN "*.py"
        PATTERN "README.md")
install(FILES docs/simtx.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

configure_package_config_file(cmake/simtxConfig.cmake.in ${PROJECT_BINARY_DIR}/simtxConfig.cmake
                              INSTALL_DESTINATION ${SIMTX_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/simtxConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/simtxConfig.cmake ${PROJECT_BINARY_DIR}/simtxConfigVersion.cmake runtime/simtx_kernel.cmake
        DESTINATION ${SIMTX_INSTALL_CMAKEDIR})

# pkg-config: paths relative to the .pc file's own folder.
file(RELATIVE_PATH SIMTX_PC_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" SIMTX_PC_TO_PREFIX "${SIMTX_PC_TO_PREFIX}")
configure_file(cmake/simtx.pc.in ${PROJECT_BINARY_DIR}/simtx.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/simtx.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The Debian package (cpack -G DEB in the build tree): the Debian packages
# scripts/install-deps installs for running simtx and compiling kernels.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME simtx)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "simtx developers <simtx@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "transaction-level GPU simulator with transactional and persistent memory")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Stripped as Debian ships binaries (the debug information is most of simtx's size).
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libsystemc (>= 2.3.3), liblua5.4-0, libc6, libstdc++6, clang, lld | lld-14")
include(CPack)
