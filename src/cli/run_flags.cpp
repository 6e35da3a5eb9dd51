// Flag-level rules of the run flags (see run_flags.h).
#include "run_flags.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>

#include "oomkit/core/error.h"
#include "oomkit/core/suggest.h"
#include "oomkit/core/units.h"

namespace oomkit::cli {
namespace {

std::string join(const std::vector<std::string>& names, const char* separator) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : separator) + n;
  return out;
}

// A CLI11 check from a function that throws InputError: its message (without the field, which
// CLI11 puts in front) and hint become the parse error.
template <typename Check>
CLI::Validator input_check(Check check, const std::string& type_name) {
  return CLI::Validator(
      [check](std::string& value) -> std::string {
        try {
          check(value);
        } catch (const InputError& e) {
          std::string message = std::string(e.what()).substr(e.field().size() + 2);
          if (!e.hint().empty()) message += " (" + e.hint() + ")";
          return message;
        }
        return {};
      },
      type_name);
}

bool is_bare_zero(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0.") == std::string::npos && s.find('0') != std::string::npos;
}

}  // namespace

const char* const kSizeHelp =
    "SIZE with a unit: 512MiB, 24GiB (2^30 bytes) or 24GB (10^9 bytes); K/M/G/T mean KiB/MiB/GiB/TiB; "
    "a bare number is refused";

int64_t parse_size_flag(const std::string& text, const std::string& flag, SizeRule rule) {
  std::string s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(0, 1);
  if (s.empty()) throw InputError(flag, "empty size", std::string("write ") + kSizeHelp);
  const bool has_unit =
      std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
  if (!has_unit) {
    if (is_bare_zero(s)) {
      if (rule == SizeRule::kZeroAllowed) return 0;
      throw InputError(flag, "must be more than 0 bytes, got '" + s + "'",
                       flag == "--memory-limit" ? "leave the flag out for no limit" : "");
    }
    throw InputError(flag, "'" + s + "' has no unit (B, KiB, MiB, GiB, TiB or KB, MB, GB, TB)",
                     "write " + s + "GiB (2^30 bytes) or " + s + "GB (10^9 bytes)");
  }
  const int64_t bytes = parse_bytes(s, flag);
  if (rule == SizeRule::kPositive && bytes <= 0) {
    throw InputError(flag, "must be more than 0 bytes, got '" + s + "'",
                     flag == "--memory-limit" ? "leave the flag out for no limit" : "");
  }
  return bytes;
}

CLI::Validator size_check(SizeRule rule) {
  return input_check([rule](const std::string& v) { parse_size_flag(v, "size", rule); }, "SIZE");
}

CLI::Validator one_of(const std::vector<std::string>& names) {
  return CLI::Validator(
      [names](std::string& value) -> std::string {
        if (std::find(names.begin(), names.end(), value) != names.end()) return {};
        for (const auto& n : names) {  // BF16-mixed is bf16-mixed
          if (edit_distance(n, value) == 0) {
            value = n;
            return {};
          }
        }
        std::string message = "unknown value '" + value + "'; valid: " + join(names, ", ");
        // run_app prints the message after "error: --flag: "; the hint goes on a line of its own.
        if (const std::string hint = did_you_mean(value, names); !hint.empty()) message += "\nhint: " + hint;
        return message;
      },
      "{" + join(names, ",") + "}");
}

namespace {

// `auto` (precision_auto.h) only where the run is still to happen: estimate and train resolve it
// the same way; diagnose describes a run that already chose.
std::vector<std::string> precision_values(RunFlagsFor command) {
  if (command == RunFlagsFor::kTrain) return {"fp32", "bf16-mixed", "fp16-mixed", "bf16", "auto"};
  if (command == RunFlagsFor::kEstimate) return {"fp32", "bf16-mixed", "fp16-mixed", "bf16", "chapter", "auto"};
  return {"fp32", "bf16-mixed", "fp16-mixed", "bf16", "chapter"};
}
std::vector<std::string> optimizer_values(bool train) {
  if (train) return {"adamw", "sgd", "sgd-momentum", "lion", "adafactor", "adam-8bit"};
  return {"adamw", "sgd", "sgd-momentum", "lion", "adafactor", "adam-8bit", "paged-adamw-8bit"};
}
std::vector<std::string> attention_values(bool train) {
  if (train) return {"eager", "sdpa"};
  return {"eager", "sdpa", "flash"};
}
std::vector<std::string> checkpointing_values(bool train) {
  if (train) return {"none", "full"};
  return {"none", "full", "selective"};
}

void add_choice(CLI::App* app, const std::string& name, std::string& value, const std::vector<std::string>& valid,
                const std::string& help) {
  CLI::Option* option = app->add_option(name, value, help)->transform(one_of(valid));
  if (!value.empty()) option->capture_default_str();
}

}  // namespace

void add_run_choice_flags(CLI::App* app, RunChoices& choices, RunFlagsFor command) {
  const bool train = command == RunFlagsFor::kTrain;
  const std::string of_run = command == RunFlagsFor::kDiagnose ? " of the failed run" : "";
  const std::string auto_help = command == RunFlagsFor::kDiagnose
                                    ? ""
                                    : "; auto: bf16-mixed where the device computes bf16 natively (CPU avx512_bf16/amx_bf16, "
                                      "CUDA compute capability >= 8.0), else fp32";
  add_choice(app, "--precision", choices.precision, precision_values(command),
             "Precision" + of_run +
                 (train ? " (fp16-mixed needs --device cuda" + auto_help + ")"
                        : " (chapter: the seed chapter's fp16 params + fp32 grads + fp32 Adam" + auto_help + ")"));
  add_choice(app, "--optimizer", choices.optimizer, optimizer_values(train),
             "Optimizer" + of_run +
                 (train ? " (adamw: decoupled weight decay; with --weight-decay 0 it is Adam)"
                        : " (adamw also stands for Adam: the same two fp32 states per parameter)"));
  add_choice(app, "--attention", choices.attention, attention_values(train),
             "Attention kernel" + of_run + (train ? " (sdpa needs LibTorch >= 2.0)" : " (sdpa and flash: no T x T term)"));
  add_choice(app, "--checkpointing", choices.checkpointing, checkpointing_values(train),
             "Activation checkpointing" + of_run);
}

namespace {

// The names add_setup_flags() declares (setup_flags_given() counts them).
const char* const kSetupFlagNames[] = {"--batch-size", "--seq-len", "--grad-accum", "--checkpoint-every", "--precision",
                                       "--optimizer", "--attention", "--checkpointing", "--device"};

}  // namespace

void add_setup_flags(CLI::App* app, TrainingSetup& setup, SetupFlags& flags, RunFlagsFor command) {
  const bool diagnose = command == RunFlagsFor::kDiagnose;
  const std::string of_run = diagnose ? " of the failed run" : "";
  const std::vector<CLI::Option*> sizes = {
      app->add_option("-b,--batch-size", setup.micro_batch_size, "B: sequences per micro-batch" + of_run),
      app->add_option("-t,--seq-len", setup.seq_len,
                      "T: tokens per sequence" + of_run + " (<= n_positions" +
                          (command == RunFlagsFor::kEstimate
                               ? std::string("; default min(1024, n_positions); --mode inference: the prompt length, "
                                             "default min(128, n_positions / 2))")
                               : std::string(")"))),
      app->add_option("--grad-accum", setup.gradient_accumulation_steps,
                      "Gradient accumulation: micro-batches per optimizer step" + of_run),
      app->add_option("--checkpoint-every", setup.checkpoint_every,
                      "With --checkpointing full: checkpoint every K-th block (blocks i with i % K == 0)")};
  for (CLI::Option* option : sizes) {
    if (diagnose) option->check(positive_check());
    else if (option->get_name() != "--seq-len" || command == RunFlagsFor::kTrain) option->capture_default_str();
  }
  add_run_choice_flags(app, flags.choices, command);
  CLI::Option* device = app->add_option(
      "--device", flags.device,
      command == RunFlagsFor::kTrain ? std::string("Where the run computes")
                                     : std::string("The estimator's target") + (diagnose ? "" : " (cpu: no context overhead)"));
  device->check(one_of({"cuda", "cpu"}));
  if (!flags.device.empty()) device->capture_default_str();
}

bool setup_flags_given(const CLI::App& app) {
  for (const char* name : kSetupFlagNames) {
    if (app.count(name) > 0) return true;
  }
  return false;
}

void apply_run_choices(const RunChoices& choices, TrainingSetup& setup) {
  if (!choices.precision.empty()) setup.precision = parse_precision(choices.precision);
  if (!choices.optimizer.empty()) setup.optimizer = parse_optimizer(choices.optimizer);
  if (!choices.attention.empty()) setup.attention = parse_attention(choices.attention);
  if (!choices.checkpointing.empty()) setup.checkpointing = parse_checkpointing(choices.checkpointing);
}

void apply_setup_flags(const SetupFlags& flags, TrainingSetup& setup) {
  apply_run_choices(flags.choices, setup);
  if (!flags.device.empty()) setup.cuda = flags.device == "cuda";
}

std::vector<std::string> split_comma_list(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item.push_back(c);
    }
  }
  return out;
}

std::optional<double> parse_whole_double(const std::string& text) {
  double value = 0.0;
  size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used == 0 || used != text.size()) return std::nullopt;
  return value;
}

CLI::Validator probability_check() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const std::optional<double> p = parse_whole_double(value);
        if (!p) return "not a number: '" + value + "'";
        if (!(*p >= 0.0 && *p < 1.0)) return "must be a probability in [0, 1), got " + value;
        return {};
      },
      "FLOAT in [0,1)");
}

CLI::Validator non_negative_check() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const size_t first = value.find_first_not_of(" \t");
        const std::optional<double> v = parse_whole_double(value);
        if ((first != std::string::npos && value[first] == '-') || (v && !(*v >= 0.0))) {
          return "must be >= 0, got " + value;
        }
        return {};  // a non-number: the conversion names the type it wants
      },
      "");  // no suffix on the type in --help ("INT", not "INT:UINT")
}

CLI::Validator positive_check() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const std::optional<double> v = parse_whole_double(value);
        if (v && !(*v > 0.0)) return "must be > 0, got " + value;
        return {};  // a non-number: the conversion names the type it wants
      },
      "");
}

void add_lora_flags(CLI::App* app, LoraConfig& lora, std::string& targets, RunFlagsFor command) {
  const bool train = command == RunFlagsFor::kTrain;
  app->add_option("--lora-rank", lora.rank,
                  "LoRA rank r (0: off): train only rank-r adapters A (r, in), B (out, r) on --lora-targets; the base "
                  "is frozen in the compute dtype" +
                      std::string(train ? " (typically with --init-from)" : ""))
      ->check(non_negative_check())
      ->capture_default_str();
  app->add_option("--lora-alpha", lora.alpha,
                  "LoRA alpha: the adapters' output is scaled by alpha / r (PEFT's lora_alpha)" +
                      std::string(train ? "" : "; no effect on memory"))
      ->capture_default_str();
  app->add_option("--lora-targets", targets,
                  "Comma list of adapted projections (default q,k,v,o): llama q,k,v,o,gate,up,down; gpt2 q,k,v (slices "
                  "of c_attn), c_attn, o/c_proj, c_fc/up, mlp_c_proj/down")
      ->type_name("LIST");
}

}  // namespace oomkit::cli
