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

/// JSON text safe inside <script type="application/json">: every '<', '>', '&' (and U+2028/2029) is written
/// as a \uXXXX escape, the same string to a JSON parser, so the text can neither close the element nor open
/// a comment or tag in it.
std::string json_for_script(const nlohmann::json& j);

/// The page's Content-Security-Policy (also in its <meta>): its two inline scripts by SHA-256, inline styles,
/// no other source; `live` (the dashboard) may fetch from its own origin, a report fetches nothing.
std::string viewer_csp(bool live);

}  // namespace kbo::cli
