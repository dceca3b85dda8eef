#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <thread>

#include "kbo/core/error.hpp"
#include "kbo/model/kernels/stationary.hpp"

namespace kbo::bench {

nlohmann::json machine_description() {
  std::string cpu = "unknown";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      cpu = line.substr(line.find(':') + 1);
      cpu.erase(0, cpu.find_first_not_of(" \t"));
      break;
    }
  const StationarySimd simd = stationary_simd_in_use();
  const char* path = simd == StationarySimd::AVX512 ? "avx512" : simd == StationarySimd::AVX2 ? "avx2" : "portable";
  return {{"cpu", cpu}, {"cores", std::thread::hardware_concurrency()}, {"vector_path", path}};
}

std::string machine_line(const nlohmann::json& machine) {
  if (!machine.is_object()) return "machine not recorded";
  return machine.value("cpu", std::string("unknown")) + ", " + std::to_string(machine.value("cores", 0)) +
         " hardware threads, vector path " + machine.value("vector_path", std::string("unknown"));
}

MeanStd mean_std(const std::vector<double>& values) {
  MeanStd r;
  if (values.empty()) return r;
  double sum = 0.0;
  for (double v : values) sum += v;
  r.mean = sum / static_cast<double>(values.size());
  if (values.size() > 1) {
    double ss = 0.0;
    for (double v : values) ss += (v - r.mean) * (v - r.mean);
    r.std = std::sqrt(ss / static_cast<double>(values.size() - 1));
  }
  return r;
}

PairedDifference paired_difference(const std::vector<double>& values, const std::vector<double>& reference) {
  if (values.size() != reference.size())
    throw std::invalid_argument("paired_difference: " + std::to_string(values.size()) + " values against " +
                                std::to_string(reference.size()) + " reference values");
  std::vector<double> diff(values.size());
  PairedDifference d;
  for (std::size_t i = 0; i < values.size(); ++i) {
    diff[i] = values[i] - reference[i];
    d.better += diff[i] < 0.0;
    d.worse += diff[i] > 0.0;
  }
  const MeanStd ms = mean_std(diff);
  d.mean = ms.mean;
  d.standard_error = diff.empty() ? 0.0 : ms.std / std::sqrt(static_cast<double>(diff.size()));
  return d;
}

std::string fmt_paired(const PairedDifference& d, int precision) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%+.*f ± %.*f (%d better, %d worse)", precision, d.mean, precision,
                d.standard_error, d.better, d.worse);
  return buf;
}

std::string fmt_fixed(double value, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", precision, value);
  return buf;
}

std::string fmt_mean_std(const std::vector<double>& values, int precision) {
  MeanStd m = mean_std(values);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.*f ± %.*f", precision, m.mean, precision, m.std);
  return buf;
}

void write_text(const std::string& path, const std::string& text) {
  std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream out(path);
  if (!out) throw InputError("cannot write '" + path + "'");
  out << text;
}

namespace {
std::string escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '<') r += "&lt;";
    else if (c == '>') r += "&gt;";
    else if (c == '&') r += "&amp;";
    else r += c;
  }
  return r;
}
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}
const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
}  // namespace

void write_line_plot_svg(const std::string& path, const std::string& title, const std::string& xlabel,
                         const std::string& ylabel, const std::vector<Series>& series, bool log_y) {
  const double W = 720, H = 440, left = 70, right = 180, top = 40, bottom = 50;
  auto ty = [&](double v) { return log_y ? std::log10(std::max(v, 1e-300)) : v; };
  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin, ymin = xmin, ymax = -xmin;
  for (const auto& s : series)
    for (size_t i = 0; i < s.x.size() && i < s.mean.size(); ++i) {
      double sd = i < s.std.size() ? s.std[i] : 0.0;
      double lo = s.mean[i] - sd, hi = s.mean[i] + sd;
      if (log_y && lo <= 0) lo = s.mean[i];
      if (!std::isfinite(s.mean[i])) continue;
      xmin = std::min(xmin, s.x[i]);
      xmax = std::max(xmax, s.x[i]);
      ymin = std::min(ymin, ty(lo));
      ymax = std::max(ymax, ty(hi));
    }
  if (!std::isfinite(xmin)) xmin = 0, xmax = 1, ymin = 0, ymax = 1;
  if (xmax == xmin) xmax = xmin + 1;
  if (ymax == ymin) ymax = ymin + 1;
  const double pw = W - left - right, ph = H - top - bottom;
  auto X = [&](double x) { return left + (x - xmin) / (xmax - xmin) * pw; };
  auto Y = [&](double y) { return top + (1.0 - (y - ymin) / (ymax - ymin)) * ph; };

  std::ostringstream o;
  o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  o << "<text x='" << W / 2 - right / 2 << "' y='22' text-anchor='middle' font-size='14'>" << escape(title) << "</text>\n";
  o << "<rect x='" << left << "' y='" << top << "' width='" << pw << "' height='" << ph
    << "' fill='none' stroke='#333'/>\n";
  for (int i = 0; i <= 5; ++i) {
    double fx = xmin + (xmax - xmin) * i / 5.0, fy = ymin + (ymax - ymin) * i / 5.0;
    o << "<text x='" << X(fx) << "' y='" << top + ph + 16 << "' text-anchor='middle'>" << num(fx) << "</text>\n";
    o << "<text x='" << left - 6 << "' y='" << Y(fy) + 4 << "' text-anchor='end'>"
      << (log_y ? "1e" + num(fy) : num(fy)) << "</text>\n";
    o << "<line x1='" << left << "' x2='" << left + pw << "' y1='" << Y(fy) << "' y2='" << Y(fy)
      << "' stroke='#eee'/>\n";
  }
  o << "<text x='" << left + pw / 2 << "' y='" << H - 12 << "' text-anchor='middle'>" << escape(xlabel) << "</text>\n";
  o << "<text transform='translate(16," << top + ph / 2 << ") rotate(-90)' text-anchor='middle'>" << escape(ylabel)
    << "</text>\n";
  for (size_t s = 0; s < series.size(); ++s) {
    const auto& se = series[s];
    const char* color = kPalette[s % 10];
    size_t n = std::min(se.x.size(), se.mean.size());
    if (se.std.size() >= n && n > 0) {
      std::ostringstream band;
      for (size_t i = 0; i < n; ++i) band << X(se.x[i]) << "," << Y(ty(se.mean[i] + se.std[i])) << " ";
      for (size_t i = n; i-- > 0;) {
        double lo = se.mean[i] - se.std[i];
        if (log_y && lo <= 0) lo = se.mean[i];
        band << X(se.x[i]) << "," << Y(ty(lo)) << " ";
      }
      o << "<polygon points='" << band.str() << "' fill='" << color << "' fill-opacity='0.15' stroke='none'/>\n";
    }
    o << "<polyline fill='none' stroke='" << color << "' stroke-width='2' points='";
    for (size_t i = 0; i < n; ++i)
      if (std::isfinite(se.mean[i])) o << X(se.x[i]) << "," << Y(ty(se.mean[i])) << " ";
    o << "'/>\n";
    double ly = top + 14 + 18.0 * static_cast<double>(s);
    o << "<line x1='" << W - right + 10 << "' x2='" << W - right + 34 << "' y1='" << ly << "' y2='" << ly
      << "' stroke='" << color << "' stroke-width='3'/>\n";
    o << "<text x='" << W - right + 40 << "' y='" << ly + 4 << "'>" << escape(se.name) << "</text>\n";
  }
  o << "</svg>\n";
  write_text(path, o.str());
}

}  // namespace kbo::bench
