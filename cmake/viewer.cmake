# The study viewer of `kbo report` and `kbo dashboard`: its page (web/src) and charting library (Apache
# ECharts, one minified file committed with its licences in web/vendor/echarts, so that the build needs no
# npm) are embedded into the kbo executable with the assembler's .incbin, so a report is one offline HTML
# file and the dashboard serves everything itself. The dashboard's HTTP server is Debian's cpp-httplib.
set(KBO_ECHARTS_JS ${PROJECT_SOURCE_DIR}/web/vendor/echarts/echarts.min.js)
set(KBO_VIEWER_HTML ${PROJECT_SOURCE_DIR}/web/src/viewer.html)
set(KBO_VIEWER_JS ${PROJECT_SOURCE_DIR}/web/src/viewer.js)
enable_language(ASM)
configure_file(${PROJECT_SOURCE_DIR}/cmake/web_assets.S.in ${PROJECT_BINARY_DIR}/web_assets.S @ONLY)
set_source_files_properties(${PROJECT_BINARY_DIR}/web_assets.S PROPERTIES
  OBJECT_DEPENDS "${KBO_ECHARTS_JS};${KBO_VIEWER_HTML};${KBO_VIEWER_JS}")
add_library(kbo_web_assets OBJECT ${PROJECT_BINARY_DIR}/web_assets.S)

pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
# OpenSSL's SHA-256 (libssl-dev, a dependency of cpp-httplib's): the page's Content-Security-Policy names its
# inline scripts by hash.
pkg_check_modules(LIBCRYPTO REQUIRED IMPORTED_TARGET libcrypto)
target_sources(kbo PRIVATE $<TARGET_OBJECTS:kbo_web_assets>)
target_link_libraries(kbo PRIVATE kbo_analysis PkgConfig::HTTPLIB PkgConfig::LIBCRYPTO)
