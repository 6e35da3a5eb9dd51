// Flag-level rules shared by `estimate`, `train` and `diagnose` (issue 12 item 10): sizes need a
// unit, capacities and budgets are more than 0 bytes, enum flags list their valid values in
// --help and refuse anything else, probabilities lie in [0, 1), seeds are not negative. Each
// rule is a CLI11 check, so a bad value is refused while parsing: one "error: --flag: ..." line
// and exit 2, before anything runs (for `train`: before LibTorch builds a model).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "oomkit/core/training_setup.h"

namespace oomkit::cli {

/// How sizes are written, for --help.
extern const char* const kSizeHelp;

/// What a size flag may be: an amount that may be 0 (--overhead 0: no context overhead), or a
/// capacity or budget, which must be more than 0 bytes (--memory, --memory-limit).
enum class SizeRule { kZeroAllowed, kPositive };

/// A size given on the command line: a number and a unit (B, KiB, MiB, GiB, TiB: 2^10..2^40;
/// KB, MB, GB, TB: 10^3..10^12; K/M/G/T mean KiB/MiB/GiB/TiB, as in PyTorch's messages and
/// `ulimit`). Unlike the library's parse_bytes() (a bare number is bytes there), a bare number
/// is refused naming the units (`--memory 24` is not 24 bytes), except a bare 0, which is 0 in
/// any unit: accepted under kZeroAllowed, refused as "must be more than 0 bytes" under kPositive. An empty value is refused; under kPositive so is a
/// size that is or rounds to 0 bytes (`--memory-limit 0.4B`). Throws InputError naming `flag`.
int64_t parse_size_flag(const std::string& text, const std::string& flag, SizeRule rule);

/// CLI11 check applying parse_size_flag()'s rules at parse time; --help shows it as SIZE.
CLI::Validator size_check(SizeRule rule);

/// CLI11 check (add it with ->transform(): it rewrites the value): one of `names`, listed in
/// --help as {a,b,c}; a name in other case becomes the listed one (BF16-mixed -> bf16-mixed); an
/// unknown value is refused with the valid list and a "hint: did you mean X?" line from
/// oomkit::suggest() (adam -> adamw).
CLI::Validator one_of(const std::vector<std::string>& names);

/// The run's enum flags as given on the command line; empty: not given (diagnose has no
/// defaults; estimate and train start from theirs, which --help shows).
struct RunChoices {
  std::string precision;
  std::string optimizer;
  std::string attention;
  std::string checkpointing;
};

/// The command the run flags are declared for: each accepts only the values it can act on.
/// estimate and diagnose know every value of the estimator; train has no `chapter` precision
/// (an accounting convention), no paged 8-bit AdamW, flash attention or selective
/// checkpointing. No command offers `adam`: the optimizer is AdamW (decoupled weight decay;
/// with --weight-decay 0 it is Adam), so `adam` is refused with "did you mean adamw?".
enum class RunFlagsFor { kEstimate, kTrain, kDiagnose };

/// The one declaration of --precision, --optimizer, --attention and --checkpointing for
/// estimate, train and diagnose, bound to `choices` (which must outlive `app`). --help lists the
/// valid values as {a,b,c}; others are refused while parsing (one_of()).
void add_run_choice_flags(CLI::App* app, RunChoices& choices, RunFlagsFor command);

/// The setup flags that are not a plain field of TrainingSetup: the enum flags (spellings) and
/// --device (cuda|cpu -> TrainingSetup::cuda); empty: not given.
struct SetupFlags {
  RunChoices choices;
  std::string device;
};

/// The one declaration of the run flags shared by estimate, train and diagnose:
/// -b/--batch-size (setup.micro_batch_size), -t/--seq-len (setup.seq_len), --grad-accum
/// (setup.gradient_accumulation_steps), --checkpoint-every (setup.checkpoint_every) bound to
/// `setup`; --precision, --optimizer, --attention, --checkpointing (add_run_choice_flags()) and
/// --device bound to `flags`. Both must outlive `app`. estimate and train show their defaults
/// in --help; diagnose has none (a flag not given leaves the library's default, and
/// setup_flags_given() tells whether any was given). The sizes are checked by
/// TrainingSetup::problems() / TrainOptions::problems() (diagnose: > 0 while parsing).
void add_setup_flags(CLI::App* app, TrainingSetup& setup, SetupFlags& flags, RunFlagsFor command);

/// Whether any flag declared by add_setup_flags() was given on the parsed command line.
bool setup_flags_given(const CLI::App& app);

/// Sets the choices that were given on `setup` through the library's parsers.
void apply_run_choices(const RunChoices& choices, TrainingSetup& setup);

/// apply_run_choices(), then --device when given: setup.cuda.
void apply_setup_flags(const SetupFlags& flags, TrainingSetup& setup);

/// `text` as a double when all of it is one number (std::stod, no trailing characters); nullopt
/// otherwise. nan and inf parse: the caller checks the range.
std::optional<double> parse_whole_double(const std::string& text);

/// The items of a comma list ("q, v,o" -> {"q", "v", "o"}): spaces dropped, empty items
/// skipped (estimate's and train's --lora-targets).
std::vector<std::string> split_comma_list(const std::string& text);

/// --lora-rank, --lora-alpha and --lora-targets, declared once for `estimate` and `train` so that
/// one command line means the same adapters in both (the estimate of a LoRA run counts exactly the
/// adapters `train` builds: parameter_tensors() in estimate/parameters.h). `targets` receives the
/// raw comma list (split_comma_list() reads it). Alpha scales the adapters' output (alpha / r) and
/// changes no byte of memory.
void add_lora_flags(CLI::App* app, LoraConfig& lora, std::string& targets, RunFlagsFor command);

/// CLI11 check: a probability p with 0 <= p < 1; nan, negative and non-numeric values refused.
CLI::Validator probability_check();

/// CLI11 check: a number >= 0, nan refused (an unsigned option would wrap -1 to 2^64 - 1).
CLI::Validator non_negative_check();

/// CLI11 check: a number > 0 ("must be > 0, got 0"); CLI::PositiveNumber's message prints the
/// range up to DBL_MAX in 300 digits.
CLI::Validator positive_check();

}  // namespace oomkit::cli
