// Typed errors. Library code throws; only main() turns exceptions into exit codes:
//   InputError  -> exit 2, one line "error: <field>: <message>" (+ "hint: ..." when present)
//   anything else -> exit 1
#pragma once

#include <stdexcept>
#include <string>

namespace oomkit {

/// Bad input from the user: a flag, a config file, a data file, a checkpoint. Carries the name
/// of the offending field (e.g. "--batch-size", "n_head", "models/x.json") and an optional hint.
class InputError : public std::runtime_error {
 public:
  InputError(std::string field, const std::string& message, std::string hint = {})
      : std::runtime_error(field + ": " + message), field_(std::move(field)), hint_(std::move(hint)) {}
  const std::string& field() const noexcept { return field_; }
  const std::string& hint() const noexcept { return hint_; }

 private:
  std::string field_;
  std::string hint_;
};

/// Exit codes shared by every subcommand (the table is in README.md and `oomkit --help`):
///   0 success (`estimate --check`: the run fits), 1 any failure, 2 bad input,
///   3 `train` stopped by an OOM (kExitOom, core/train_options.h), 4 `estimate --check`: does not fit,
///   130/143 interrupted by SIGINT/SIGTERM.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitDoesNotFit = 4;
inline constexpr int kExitSigint = 130;
inline constexpr int kExitSigterm = 143;

}  // namespace oomkit
