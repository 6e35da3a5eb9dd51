#include "oomkit/core/suggest.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace oomkit {
namespace {

std::string lower(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

std::string without_dashes(const std::string& s) {
  const size_t first = s.find_first_not_of('-');
  return first == std::string::npos ? std::string() : s.substr(first);
}

bool word_prefix(const std::string& typed, const std::string& candidate) {
  if (typed.size() < 2 || typed.size() >= candidate.size()) return false;
  for (size_t at = 0; at + typed.size() <= candidate.size(); ++at) {
    const bool word_start = at == 0 || std::string("-_/.").find(candidate[at - 1]) != std::string::npos;
    if (word_start && candidate.compare(at, typed.size(), typed) == 0) return true;
  }
  return false;
}

}  // namespace

size_t edit_distance(const std::string& a_in, const std::string& b_in) {
  const std::string a = lower(a_in);
  const std::string b = lower(b_in);
  const size_t n = a.size();
  const size_t m = b.size();
  // d[i][j]: distance between a's first i and b's first j characters, (n + 1) x (m + 1).
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1, 0));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::vector<std::string> suggest(const std::string& typed, const std::vector<std::string>& candidates,
                                 size_t max_suggestions) {
  const std::string key = lower(without_dashes(typed));
  std::vector<size_t> distance(candidates.size(), SIZE_MAX);  // SIZE_MAX: not near
  size_t best = SIZE_MAX;
  std::vector<bool> starts(candidates.size(), false);
  std::vector<bool> inner(candidates.size(), false);
  for (size_t i = 0; i < candidates.size(); ++i) {
    const std::string name = lower(without_dashes(candidates[i]));
    if (name.empty() || name == key) continue;
    const size_t shorter = std::min(key.size(), name.size());
    const size_t dist = edit_distance(key, name);
    if (dist <= std::max<size_t>(3, shorter) / 3 && dist < shorter) {
      distance[i] = dist;
      best = std::min(best, dist);
    }
    starts[i] = key.size() >= 2 && key.size() < name.size() && name.compare(0, key.size(), key) == 0;
    inner[i] = !starts[i] && word_prefix(key, name);
  }
  // Ranked: near and a prefix; a prefix; near (at the smallest distance only); a prefix of an
  // inner word (4090 -> rtx-4090) only when nothing above matched.
  std::vector<std::string> out;
  auto take = [&](auto&& pick) {
    for (size_t i = 0; i < candidates.size() && out.size() < max_suggestions; ++i) {
      if (pick(i) && std::find(out.begin(), out.end(), candidates[i]) == out.end()) out.push_back(candidates[i]);
    }
  };
  const auto near = [&](size_t i) { return distance[i] != SIZE_MAX && distance[i] == best; };
  take([&](size_t i) { return near(i) && starts[i]; });
  take([&](size_t i) { return starts[i]; });
  take(near);
  if (out.empty()) take([&](size_t i) { return inner[i]; });
  return out;
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates,
                         size_t max_suggestions) {
  const std::vector<std::string> names = suggest(typed, candidates, max_suggestions);
  if (names.empty()) return {};
  std::string text = "did you mean ";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text + "?";
}

}  // namespace oomkit
