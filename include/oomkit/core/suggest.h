// "Did you mean ...?": the one suggestion rule for every name a user types (commands, flags,
// GPU names, model names, enum values).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace oomkit {

/// Optimal-string-alignment distance (Damerau-Levenshtein restricted to non-overlapping
/// transpositions: Damerau 1964, "A technique for computer detection and correction of spelling
/// errors"): the fewest single-character insertions, deletions, substitutions and transpositions
/// of two adjacent characters turning `a` into `b`, compared case-insensitively (ASCII).
/// "batch-szie" -> "batch-size" is 1, "a100" -> "A100" is 0. O(|a|·|b|) time and memory.
size_t edit_distance(const std::string& a, const std::string& b);

/// The candidates a mistyped `typed` most likely meant, best first, at most `max_suggestions`.
/// Leading dashes are ignored (--batch-szie is compared as batch-szie with batch-size) and case
/// too. A candidate is
///  - near when edit_distance <= max(3, n) / 3, n the length of the shorter name (rustc's
///    find_best_match_for_name uses max(len, 3) / 3), and below n (a one-letter flag never
///    suggests another one-letter flag); only the near ones at the smallest distance count;
///  - a prefix match when `typed` (2 characters or more) begins it (a100 -> a100-sxm4-80gb).
/// Ranked: near prefix matches, other prefix matches, other near ones, each group in the
/// candidates' order; when none of these exists, candidates with an inner word ('-', '_', '/',
/// '.' before it) that `typed` begins (4090 -> rtx-4090). A candidate equal to `typed` (ignoring
/// case) is not a suggestion: the caller accepts it. Empty when nothing is close.
std::vector<std::string> suggest(const std::string& typed, const std::vector<std::string>& candidates,
                                 size_t max_suggestions = 3);

/// "did you mean X?", "did you mean X or Y?", "did you mean X, Y or Z?" for suggest()'s result;
/// "" when it is empty. The text of a `hint:` line.
std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates,
                         size_t max_suggestions = 3);

}  // namespace oomkit
