#pragma once
// "Did you mean …?" for unknown names (flags, config keys, commands, registry entries): the closest
// candidate by edit distance, when it is close enough to be a plausible typo.
#include <string>
#include <string_view>
#include <vector>

namespace kbo {

/// Levenshtein distance (insertions, deletions, substitutions; a swap of two neighbours counts 1),
/// case-insensitive, '-' and '_' alike.
int edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` if at most max(1, |word| / 3) edits away (ties: the first), else "".
std::string closest_name(std::string_view word, const std::vector<std::string>& candidates);

/// " (did you mean 'NAME'?)" for closest_name, or "" when nothing is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace kbo
