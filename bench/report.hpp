#pragma once
// Small helpers every `kbo bench` experiment uses to write its results: mean ± std, Markdown text and
// SVG line plots (no plotting dependency: the figures are simple enough to draw directly).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbo::bench {

struct Series {
  std::string name;
  std::vector<double> x, mean, std;  // std may be empty (no band)
};

struct MeanStd {
  double mean = 0.0, std = 0.0;  // std: sample standard deviation (n-1); 0 for n < 2
};
MeanStd mean_std(const std::vector<double>& values);
/// A method against a reference on the same seeds (minimised): the mean of the per-seed differences
/// value − reference with its standard error, and on how many seeds the method was better / worse. Ten seeds
/// of a chaotic optimiser decide a small difference in means by chance; the paired error says how small.
struct PairedDifference {
  double mean = 0.0, standard_error = 0.0;
  int better = 0, worse = 0;
};
PairedDifference paired_difference(const std::vector<double>& values, const std::vector<double>& reference);
/// "-0.0012 ± 0.0008 (6 better, 3 worse)"
std::string fmt_paired(const PairedDifference& d, int precision = 4);
/// "1.234": `precision` digits after the point
std::string fmt_fixed(double value, int precision = 3);
/// "1.234 ± 0.056"
std::string fmt_mean_std(const std::vector<double>& values, int precision = 3);

/// Line plot with one line (and a ±std band when given) per series; log_y plots log10 of positive values.
void write_line_plot_svg(const std::string& path, const std::string& title, const std::string& xlabel,
                         const std::string& ylabel, const std::vector<Series>& series, bool log_y = false);

/// The machine a figure was measured on: {"cpu": model name, "cores": hardware threads, "vector_path":
/// "avx512" | "avx2" | "portable" (the GP kernels' per-pair loops in use)}. Chaotic runs (a BO trajectory
/// that ends in another basin after a last-digit difference) and timings differ across machines, so every
/// results file records it.
nlohmann::json machine_description();
/// "AMD EPYC, 2 hardware threads, vector path avx512": the line results.md files print under their title.
std::string machine_line(const nlohmann::json& machine);

/// Writes text to path, creating parent directories.
void write_text(const std::string& path, const std::string& text);

}  // namespace kbo::bench
