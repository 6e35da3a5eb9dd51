// Reads sentences on stdin, one per line; for each prints one JSON line:
//   {"alone": FAMILY or null, "evidence": [[CAUSE, TEXT], ...]}
// "alone" is the family of the first report diagnose_log() finds in the log "<sentence>\n" (null:
// no report); "evidence" is every finding's evidence that cites the sentence (names log line 1, the
// user's words, or quotes the sentence's first 20 bytes) when the sentence comes before a bare
// "RuntimeError: CUDA error: out of memory", with the word prior off (the sentence rules alone). scripts/score-prose-probes.py scores tests/data/prose-probes/ with it
// (tests/data/oom-corpus/README.md item 14).
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/word_prior.h"

int main() {
  using namespace oomkit;
  const WordPriorModel none;
  DiagnoseOptions without;
  without.word_prior = &none;
  std::string line;
  while (std::getline(std::cin, line)) {
    nlohmann::json out;
    const auto alone = diagnose_log(line + "\n", without);
    out["alone"] = alone.empty() ? nlohmann::json(nullptr) : nlohmann::json(alone[0].oom->family);
    out["evidence"] = nlohmann::json::array();
    const auto with = diagnose_log(line + "\nRuntimeError: CUDA error: out of memory\n", without);
    if (!with.empty()) {
      for (const auto& f : with[0].findings) {
        for (const auto& e : f.evidence) {
          const bool cites = e.find("log line 1") != std::string::npos || e.find("user's") != std::string::npos ||
                             (e.find(": ") != std::string::npos && e.find(line.substr(0, 20)) != std::string::npos);
          if (cites) out["evidence"].push_back({cause_name(f.category), e});
        }
      }
    }
    std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  }
  return 0;
}
