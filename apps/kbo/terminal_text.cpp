// Markdown for the terminal (see terminal_text.hpp).
#include "terminal_text.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace kbo::cli {
namespace {

/// Columns a UTF-8 string takes: its code points (kbo's texts hold no wide or combining characters).
std::size_t display_columns(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

/// Inline Markdown to plain text: `code` and **bold** marks dropped, "\|" (a pipe inside a table cell) unescaped.
std::string inline_plain(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '`') continue;
    if (s[i] == '*' && i + 1 < s.size() && s[i + 1] == '*') {
      ++i;
      continue;
    }
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '|') continue;
    out += s[i];
  }
  return out;
}

/// `text` broken at spaces into lines of at most `width` display_columns (a longer word gets a line of its own).
std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string word, line;
  while (words >> word) {
    if (!line.empty() && display_columns(line) + 1 + display_columns(word) > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

/// The cells of a table row "| a | b \| c |" (split at unescaped pipes), as plain text.
std::vector<std::string> table_cells(const std::string& row) {
  std::vector<std::string> out;
  std::string cell;
  for (std::size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '|' && row[i - 1] != '\\') {
      const auto first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
      out.push_back(first == std::string::npos ? "" : inline_plain(cell.substr(first, last - first + 1)));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return out;
}

std::string pad_to(const std::string& s, std::size_t width) { return s + std::string(width - std::min(width, display_columns(s)), ' '); }

void print_terminal_table(std::ostream& out, const std::vector<std::string>& rows, std::size_t width) {
  std::vector<std::vector<std::string>> table;
  for (const auto& row : rows)
    if (row.find("---") == std::string::npos || row.find_first_not_of("|-: ") != std::string::npos)
      table.push_back(table_cells(row));
  std::size_t n = 0;
  for (const auto& r : table) n = std::max(n, r.size());
  std::vector<std::size_t> w(n, 0);
  for (const auto& r : table)
    for (std::size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], display_columns(r[c]));
  std::size_t before_last = 0;  // display_columns taken by every column but the last, with two-space gaps
  for (std::size_t c = 0; c + 1 < n; ++c) before_last += w[c] + 2;
  const std::size_t last_width = std::max<std::size_t>(width > before_last + 20 ? width - before_last : 20, 1);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& r = table[i];
    std::string lead;
    for (std::size_t c = 0; c + 1 < n; ++c) lead += pad_to(c < r.size() ? r[c] : "", w[c]) + "  ";
    const std::vector<std::string> lines = wrap_words(r.size() == n ? r[n - 1] : "", last_width);
    for (std::size_t l = 0; l < lines.size(); ++l) {
      std::string line = (l == 0 ? lead : std::string(before_last, ' ')) + lines[l];
      line.erase(line.find_last_not_of(' ') + 1);
      out << line << "\n";
    }
    if (i == 0) {  // under the header
      std::string rule;
      for (std::size_t c = 0; c < n; ++c)
        rule += std::string(c + 1 < n ? w[c] : std::min(w[c], last_width), '-') + (c + 1 < n ? "  " : "");
      out << rule << "\n";
    }
  }
}

}  // namespace

std::string markdown_for_terminal(const std::string& markdown, int width) {
  const std::size_t cols = static_cast<std::size_t>(std::max(width, 40));
  std::ostringstream out;
  std::istringstream in(markdown);
  std::vector<std::string> table;
  std::string line;
  auto flush_table = [&] {
    if (!table.empty()) print_terminal_table(out, table, cols);
    table.clear();
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '|') {
      table.push_back(line);
      continue;
    }
    flush_table();
    if (line.empty()) {
      out << "\n";
    } else if (line[0] == '#') {
      const std::size_t level = line.find_first_not_of('#');
      const std::string title = inline_plain(line.substr(line.find_first_not_of(' ', level)));
      out << title << "\n" << std::string(display_columns(title), level == 1 ? '=' : '-') << "\n";
    } else if (line.rfind("- ", 0) == 0) {
      const auto lines = wrap_words(inline_plain(line.substr(2)), cols - 2);
      for (std::size_t l = 0; l < lines.size(); ++l) out << (l == 0 ? "- " : "  ") << lines[l] << "\n";
    } else {
      for (const auto& l : wrap_words(inline_plain(line), cols)) out << l << "\n";
    }
  }
  flush_table();
  return out.str();
}

int terminal_width() {
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* c = std::getenv("COLUMNS")) {
    const int n = std::atoi(c);
    if (n > 0) return n;
  }
  return 100;
}

}  // namespace kbo::cli
