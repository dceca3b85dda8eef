# `cmake --install build --prefix P` installs the kbo command, the public headers and the module libraries
# with a CMake package, so that C++ projects use kbo with find_package(kbo) and target kbo::kbo
# (examples/cpp is such a project; tests/package builds it against an installed copy).
include(CMakePackageConfigHelpers)

set(KBO_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kbo)
set(kbo_library_targets kbo_deps kbo_core kbo_model kbo_acquisition kbo_optimize kbo_strategy kbo_storage
    kbo_study kbo_invariance kbo_sets kbo_adaptive kbo_kfo kbo_moo kbo_modules kbo_library)

install(TARGETS kbo RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${kbo_library_targets} EXPORT kboTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kbo DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT kboTargets NAMESPACE kbo:: DESTINATION ${KBO_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kboConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/kboConfig.cmake INSTALL_DESTINATION ${KBO_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kboConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kboConfig.cmake ${PROJECT_BINARY_DIR}/kboConfigVersion.cmake
        DESTINATION ${KBO_INSTALL_CMAKEDIR})
