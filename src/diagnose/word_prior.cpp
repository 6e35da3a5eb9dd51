// The nearest-centroid word model of word_prior.h.
#include "oomkit/diagnose/word_prior.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/oom_record.h"

#include "log_text.h"

namespace oomkit {
namespace {

using diagnose_detail::lower_char;
using diagnose_detail::printed_advice;

constexpr int kCauses = static_cast<int>(OomCause::kOther) + 1;

// English function words, the words every OOM report holds, and the words of paths, tracebacks
// and links (a site-packages path says which Python, not which cause).
bool stop_word(std::string_view w) {
  static const std::unordered_set<std::string_view> kStop = {
      "the", "and", "for", "with", "this", "that", "was", "are", "not", "but", "have", "you", "when", "from",
      "can", "has", "all", "what", "use", "using", "used", "out", "memory", "cuda", "error", "gpu", "about",
      "now", "than", "only", "them", "please", "fine", "python", "lib", "site", "packages", "dist", "file",
      "line", "traceback", "most", "recent", "call", "last", "home", "envs", "anaconda", "miniconda", "conda",
      "usr", "local", "https", "http", "www", "github", "com", "self", "return", "module", "init"};
  return kStop.count(w) != 0;
}

// Calls fn(word, line) for each word of `text` outside a framework's printed advice
// (printed_advice()); `first_line` numbers text's first line.
template <typename Fn>
void for_each_word(std::string_view text, int64_t first_line, Fn&& fn) {
  std::string w, lower_line;
  std::vector<std::string> words;  // the current line's
  int64_t line = first_line;
  auto end_line = [&] {
    if (!w.empty()) {
      if (w.size() >= 3 && !stop_word(w)) words.push_back(w);
      w.clear();
    }
    if (!words.empty() && !printed_advice(lower_line)) {
      for (const auto& x : words) fn(std::string_view(x), line);
    }
    words.clear();
    lower_line.clear();
  };
  for (const char ch : text) {
    if (ch == '\n') {
      end_line();
      ++line;
      continue;
    }
    const char c = lower_char(ch);
    if (lower_line.size() < 512) lower_line.push_back(c);
    if ((c >= 'a' && c <= 'z') || c == '_') {
      w.push_back(c);
    } else if (!w.empty()) {
      if (w.size() >= 3 && !stop_word(w)) words.push_back(w);
      w.clear();
    }
  }
  end_line();
}

// The part of a log rank() reads: all of it up to kMaxBytes, else its first and last halves of
// that (a long training log holds the user's words and the failure near its ends).
template <typename Fn>
void for_each_word_read(std::string_view text, size_t max_bytes, Fn&& fn) {
  if (text.size() <= max_bytes) return for_each_word(text, 1, fn);
  const size_t half = max_bytes / 2;
  size_t head_end = text.rfind('\n', half);
  head_end = head_end == std::string_view::npos ? half : head_end;
  size_t tail_begin = text.find('\n', text.size() - half);
  tail_begin = tail_begin == std::string_view::npos ? text.size() : tail_begin + 1;
  if (tail_begin <= head_end) return for_each_word(text, 1, fn);
  for_each_word(text.substr(0, head_end), 1, fn);
  const int64_t tail_line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(tail_begin), '\n');
  for_each_word(text.substr(tail_begin), tail_line, fn);
}

std::map<std::string, int> term_counts(std::string_view text) {
  std::map<std::string, int> tf;
  for_each_word(text, 1, [&](std::string_view w, int64_t) { ++tf[std::string(w)]; });
  return tf;
}

}  // namespace

const WordPriorModel::Word* WordPriorModel::find(std::string_view w) const {
  auto it = std::lower_bound(words_.begin(), words_.end(), w, [](const Word& a, std::string_view b) { return a.text < b; });
  return it != words_.end() && it->text == w ? &*it : nullptr;
}

WordPriorModel WordPriorModel::train(const std::vector<LabelledText>& docs) {
  if (docs.empty()) throw std::invalid_argument("word prior: no labelled documents to train on");
  std::vector<std::map<std::string, int>> tfs;
  tfs.reserve(docs.size());
  std::map<std::string, int> df;
  for (const auto& d : docs) {
    tfs.push_back(term_counts(d.text));
    for (const auto& [w, n] : tfs.back()) ++df[w];
  }
  WordPriorModel m;
  const double n_docs = static_cast<double>(docs.size());
  std::map<std::string, size_t> index;
  for (const auto& [w, n] : df) {
    if (n < 2) continue;
    index[w] = m.words_.size();
    m.words_.push_back({w, std::log(n_docs / n), std::vector<double>(kCauses, 0.0)});
  }
  for (size_t i = 0; i < docs.size(); ++i) {
    std::vector<std::pair<size_t, double>> v;
    double norm2 = 0.0;
    for (const auto& [w, n] : tfs[i]) {
      auto it = index.find(w);
      if (it == index.end()) continue;
      const double x = (1.0 + std::log(static_cast<double>(n))) * m.words_[it->second].idf;
      v.emplace_back(it->second, x);
      norm2 += x * x;
    }
    if (norm2 <= 0.0) continue;
    const double norm = std::sqrt(norm2);
    const int c = static_cast<int>(docs[i].cause);
    for (const auto& [k, x] : v) m.words_[k].centroid[c] += x / norm;
  }
  for (int c = 0; c < kCauses; ++c) {
    double norm2 = 0.0;
    for (const auto& w : m.words_) norm2 += w.centroid[c] * w.centroid[c];
    if (norm2 <= 0.0) continue;
    const double norm = std::sqrt(norm2);
    for (auto& w : m.words_) w.centroid[c] /= norm;
  }
  return m;
}

std::string WordPriorModel::serialise() const {
  std::string out = "oomkit-word-prior 1\n";
  for (int c = 0; c < kCauses; ++c) out += fmt::format("{}{}", c ? " " : "", cause_name(static_cast<OomCause>(c)));
  out += "\n";
  for (const auto& w : words_) {
    out += fmt::format("{} {:.6g}", w.text, w.idf);
    for (double x : w.centroid) out += fmt::format(" {:.6g}", x);
    out += "\n";
  }
  return out;
}

WordPriorModel WordPriorModel::parse(std::string_view text) {
  WordPriorModel m;
  std::istringstream in{std::string(text)};
  std::string line;
  int64_t n = 0;
  auto bad = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("word prior model, line {}: {}", n, why));
  };
  if (!std::getline(in, line) || (++n, line != "oomkit-word-prior 1")) throw bad("expected 'oomkit-word-prior 1'");
  if (!std::getline(in, line)) throw bad("expected the causes' names");
  ++n;
  {
    std::istringstream names(line);
    std::string name;
    int c = 0;
    while (names >> name) {
      auto cause = cause_from_name(name);
      if (!cause || static_cast<int>(*cause) != c) throw bad("cause '" + name + "' out of order or unknown");
      ++c;
    }
    if (c != kCauses) throw bad(fmt::format("{} causes named, {} expected", c, kCauses));
  }
  while (std::getline(in, line)) {
    ++n;
    std::istringstream fields(line);
    Word w;
    if (!(fields >> w.text >> w.idf)) throw bad("expected a word and its idf");
    w.centroid.resize(kCauses);
    for (double& x : w.centroid) {
      if (!(fields >> x)) throw bad("expected " + std::to_string(kCauses) + " centroid weights");
    }
    if (!m.words_.empty() && !(m.words_.back().text < w.text)) throw bad("words not sorted or repeated: " + w.text);
    m.words_.push_back(std::move(w));
  }
  return m;
}

std::vector<WordPriorScore> WordPriorModel::rank(std::string_view log_text, const std::vector<int64_t>& message_lines) const {
  std::vector<WordPriorScore> out;
  if (words_.empty()) return out;
  struct Seen {
    const Word* word;
    int n = 0;
    int64_t first_line = 0;
  };
  std::unordered_map<const Word*, Seen> seen;
  bool beside_messages = false;  // a known word on a line no OOM message was read from
  for_each_word_read(log_text, kMaxBytes, [&](std::string_view w, int64_t line) {
    const Word* known = find(w);
    if (!known) return;
    beside_messages = beside_messages || !std::binary_search(message_lines.begin(), message_lines.end(), line);
    auto [it, fresh] = seen.try_emplace(known, Seen{known, 0, line});
    ++it->second.n;
  });
  // The message's words alone repeat what its family tells the rules: no ranking.
  if (seen.empty() || !beside_messages) return out;
  double norm2 = 0.0;
  std::vector<std::pair<const Seen*, double>> v;
  for (const auto& [w, s] : seen) v.emplace_back(&s, 0.0);
  // In the model's word order (words_ is sorted and contiguous): the sums below do not depend on
  // the hash map's order, which follows the addresses.
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first->word < b.first->word; });
  for (auto& [s, x] : v) {
    x = (1.0 + std::log(static_cast<double>(s->n))) * s->word->idf;
    norm2 += x * x;
  }
  if (norm2 <= 0.0) return out;
  const double norm = std::sqrt(norm2);
  for (int c = 0; c < kCauses; ++c) {
    WordPriorScore score;
    score.cause = static_cast<OomCause>(c);
    std::vector<std::pair<double, const Seen*>> parts;
    for (const auto& [s, x] : v) {
      const double part = x / norm * s->word->centroid[c];
      score.similarity += part;
      if (part > 0) parts.emplace_back(part, s);
    }
    std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second->word->text < b.second->word->text;
    });
    for (size_t i = 0; i < parts.size() && i < 4; ++i) score.words.push_back(parts[i].second->word->text);
    if (!parts.empty()) score.line = parts.front().second->first_line;
    out.push_back(std::move(score));
  }
  // Ties (a cause none of the log's words weighs for scores 0): the causes' names, alphabetical.
  std::sort(out.begin(), out.end(), [](const WordPriorScore& a, const WordPriorScore& b) {
    if (a.similarity != b.similarity) return a.similarity > b.similarity;
    return std::string_view(cause_name(a.cause)) < std::string_view(cause_name(b.cause));
  });
  return out;
}

std::string WordPriorModel::as_cpp_lines() const {
  std::string out;
  std::istringstream in(serialise());
  std::string line;
  while (std::getline(in, line)) out += "\"" + line + "\\n\",\n";  // words are [a-z_]: nothing to escape
  return out;
}

const WordPriorModel& builtin_word_prior() {
  static const WordPriorModel model = [] {
    // One literal per line of serialise() (a single literal would pass the 64 KiB that ISO C++
    // compilers need to support).
    static const char* const kLines[] = {
#include "word_prior_data.inc"
    };
    std::string text;
    for (const char* l : kLines) text += l;
    return WordPriorModel::parse(text);
  }();
  return model;
}

const std::vector<std::string>& word_prior_corpus_parts() {
  static const std::vector<std::string> parts = {"oom-corpus",       "oom-corpus-held2", "oom-corpus-held3",
                                                 "oom-corpus-held4", "oom-corpus-held5", "oom-corpus-held6",
                                                 "oom-corpus-held7", "oom-corpus-held8", "oom-corpus-held9",
                                                 "oom-corpus-held10", "oom-corpus-held11", "oom-corpus-held12",
                                                 "oom-corpus-held13", "oom-corpus-held14", "oom-corpus-held15",
                                                 "oom-corpus-held16", "oom-corpus-held17",
                                                 "oom-corpus-held18", "oom-corpus-held19",
                                                 "oom-corpus-held20", "oom-corpus-held21",
                                                 "oom-corpus-held22", "oom-corpus-held23",
                                                 "oom-corpus-held24", "oom-corpus-held25",
                                                 "oom-corpus-held26", "oom-corpus-held27", "oom-corpus-held48"};
  return parts;
}

std::vector<int64_t> message_lines(const std::vector<OomRecord>& records) {
  std::vector<int64_t> lines;
  for (const OomRecord& r : records) {
    lines.push_back(r.line);
    lines.insert(lines.end(), r.text_lines.begin(), r.text_lines.end());
  }
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

std::vector<LabelledText> read_labelled_corpus(const std::string& data_dir, const std::vector<std::string>& parts) {
  std::vector<LabelledText> docs;
  for (const auto& part : parts) {
    const std::string dir = data_dir + "/" + part + "/";
    std::ifstream index(dir + "index.jsonl");
    if (!index) throw std::runtime_error("cannot read " + dir + "index.jsonl");
    std::string line;
    while (std::getline(index, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      const auto j = nlohmann::json::parse(line);
      const std::string id = j.at("id").get<std::string>();
      const std::string label = j.at("label").get<std::string>();
      auto cause = cause_from_name(label);
      if (!cause) throw std::runtime_error(dir + "index.jsonl: unknown label '" + label + "' for " + id);
      std::ifstream log(dir + id + ".log", std::ios::binary);
      if (!log) throw std::runtime_error("cannot read " + dir + id + ".log");
      std::ostringstream text;
      text << log.rdbuf();
      std::string body = text.str();
      docs.push_back({std::move(body), *cause});
    }
  }
  return docs;
}

}  // namespace oomkit
