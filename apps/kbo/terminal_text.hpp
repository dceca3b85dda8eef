#pragma once
// Markdown as a terminal shows it well: what `kbo options` prints when its output is a terminal.
#include <string>

namespace kbo::cli {

/// Renders the Markdown kbo generates (headings, paragraphs, "- " lists, pipe tables, `code`) as plain text
/// of at most `width` columns where words allow: headings underlined, paragraphs and list items wrapped,
/// tables as aligned columns whose last column wraps, code marks and table escapes removed.
std::string markdown_for_terminal(const std::string& markdown, int width);

/// The width of the terminal on stdout, else $COLUMNS, else 100.
int terminal_width();

}  // namespace kbo::cli
