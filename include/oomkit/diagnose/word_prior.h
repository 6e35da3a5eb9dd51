// The log's words as evidence (issue 10): a nearest-centroid text classifier (Rocchio, as in
// Manning, Raghavan & Schuetze, "Introduction to Information Retrieval", 2008, section 14.2) over
// the labelled real OOM reports in tests/data/oom-corpus*/. It weighs the whole report, prose
// included, where the diagnoser's rules find no deciding line: a report in the user's words ("train
// is ok, test is error") resembles other reports of the same cause more than the rules can say.
//
// Documents are the log's bytes, ASCII-lowercased, without the advice a framework prints under its
// OOM message (printed_advice(): the framework's words, not the user's). The lines the OOM messages
// were read from are read too: a title or a line the user wrote the error into holds the user's
// words, and a family's vocabulary (TensorFlow's "shape", the OOM killer's "killed") goes with its
// causes across the corpus. But a log whose words (of the model) all lie on its messages' lines is
// not ranked: a bare message's words repeat what its family already tells the rules. Reading the
// messages' lines (they were skipped until session 24) raised the leave-one-part-out top-1 of the
// fused ranking on held4..held21 from 324 to 326 of 607 and its top-3 from 460 to 465.
// A word is a maximal run of the characters [a-z_] (digits split words: "bf16" gives "bf", dropped
// below 3 characters; "layer_norm2" gives "layer_norm"), 3 or more of them, not in a short stop list (English function words; the words every OOM report
// holds, "memory", "cuda", "error", "gpu", "out"; the words of paths, tracebacks and links,
// "python", "site", "packages", "home", "https"). A document's vector is (1 + ln tf) x idf per
// word, idf = ln(N / df) over the training documents, words with df >= 2 only, L2-normalised. A
// cause's centroid is the normalised sum of its documents' vectors; a log's score for a cause is
// the cosine of its vector with the centroid (0..1).
//
// The built-in model (builtin_word_prior()) is trained on the labelled parts of the corpus that
// word_prior_corpus_parts() names (tuned .. held27: each held-apart one joining after its one
// score by tests/diagnose_corpus_score.cpp; held28 and held29 stay out: joined, held28 cost the
// other parts 4 top-3 places and held29 4 top-1 and 5 top-3, leave-one-part-out);
// src/diagnose/word_prior_data.inc
// is generated from them by scripts/build-word-prior.sh and checked against them by a test, never
// edited by hand.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace oomkit {

enum class OomCause;
struct OomRecord;

/// A labelled document for WordPriorModel::train(): the report's text and the cause its thread settled on.
struct LabelledText {
  std::string text;
  OomCause cause;
};

/// One cause's resemblance to a log.
struct WordPriorScore {
  OomCause cause;
  double similarity = 0.0;          // cosine, 0..1
  std::vector<std::string> words;   // the log's words that weigh most for this cause (at most 4), strongest first
  int64_t line = 0;                 // 1-based line of the first of `words` in the log (0: none)
};

class WordPriorModel {
 public:
  /// Trains the centroids on `docs` (see the file comment). Throws std::invalid_argument when
  /// `docs` is empty.
  static WordPriorModel train(const std::vector<LabelledText>& docs);
  /// Parses serialise()'s text. Throws std::invalid_argument naming the line on a malformed model.
  static WordPriorModel parse(std::string_view text);
  /// "oomkit-word-prior 1", the causes' names, then one line per word: the word, its idf and one
  /// centroid weight per cause (%.6g); deterministic for the same documents.
  std::string serialise() const;
  /// serialise() as C++ string literals, one per line, each followed by a comma: the text of
  /// src/diagnose/word_prior_data.inc (an array initializer).
  std::string as_cpp_lines() const;
  /// Every cause scored against `log_text` (at most kMaxBytes of it read; a framework's printed
  /// advice not read), best first; ties in the alphabetical order of the causes' names. Empty when
  /// the log holds none of the model's words, or holds them only on `message_lines` (1-based,
  /// ascending: the lines its OOM messages were read from, message_lines()).
  std::vector<WordPriorScore> rank(std::string_view log_text, const std::vector<int64_t>& message_lines = {}) const;
  bool empty() const { return words_.empty(); }

  /// rank() reads this much of a log, its first and last halves when it is longer: the corpus's
  /// reports are under 100 KiB; a training log of 100 MB holds the user's words and the failure
  /// near its top and bottom, and reading it all would cost the one-pass speed target (issue 10
  /// item 6) for nothing.
  static constexpr size_t kMaxBytes = 1 << 20;

 private:
  struct Word {
    std::string text;
    double idf = 0.0;
    std::vector<double> centroid;  // one weight per cause, in OomCause order
  };
  std::vector<Word> words_;  // sorted by text
  const Word* find(std::string_view w) const;
};

/// The model trained on the corpus (src/diagnose/word_prior_data.inc), parsed once.
const WordPriorModel& builtin_word_prior();

/// The corpus folders (under tests/data/) the built-in model is trained on, in order.
const std::vector<std::string>& word_prior_corpus_parts();

/// The 1-based lines the OOM messages in `records` (parse_oom_log()) were read from: each
/// report's head, the lines it continues on and its merged copies (OomRecord::text_lines), ascending.
std::vector<int64_t> message_lines(const std::vector<OomRecord>& records);

/// Reads `<data_dir>/<part>/index.jsonl` (id, label) and each `<id>.log` for every part in
/// `parts`, every line read. Throws
/// std::runtime_error naming the file when one is missing or a label is unknown, and
/// nlohmann::json's exceptions on a malformed index line.
std::vector<LabelledText> read_labelled_corpus(const std::string& data_dir, const std::vector<std::string>& parts);

}  // namespace oomkit
