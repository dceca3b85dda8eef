#pragma once
// The study viewer page shared by `kbo report` and `kbo dashboard`: web/src/viewer.html with the charting
// library (ECharts, committed in web/vendor/echarts) and web/src/viewer.js inlined. All three
// are embedded into the kbo binary at build time (cmake/viewer.cmake), so a report opens offline and the
// dashboard needs nothing besides kbo.
#include <string>

#include <nlohmann/json.hpp>

namespace kbo::cli {

/// The page with `boot` as its data: {"mode": "report", "view": <study view>} for a report,
/// {"mode": "live", "study": name or null, "poll_ms": N} for the dashboard. `title` is escaped here.
std::string viewer_page(const nlohmann::json& boot, const std::string& title);

/// JSON text safe inside <script>…</script>: every "</" becomes "<\/" (the same string to a JSON parser).
std::string json_for_script(const nlohmann::json& j);

}  // namespace kbo::cli
