// Classifying an OOM: ranked findings, each tied to a step of the seed chapter's eight-step
// playbook ("Out-of-memory errors" section):
//   1 confirm available GPU memory (capacity, other processes)   5 reduce batch / sequence length
//   2 memory profiling checkpoints (which phase crossed)          6 mixed precision
//   3 minimal batch size (static memory vs activations)           7 memory leaks
//   4 activation (gradient) checkpointing                         8 CPU offloading / sharding
// Fragmentation advice (reserved vs allocated) comes from the chapter's reading of the error
// message and is filed under step 1, where the message is read.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "oomkit/core/model_config.h"
#include "oomkit/diagnose/oom_record.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/remedies.h"

namespace oomkit {

/// Causes, in the terms of tests/data/oom-cases/README.md.
enum class OomCause {
  kFragmentation,
  kActivationsBatch,
  kActivationsSeqlen,
  kStaticModelTooLarge,
  kOptimizerState,
  kLeakAcrossSteps,
  kEvalWithoutNoGrad,
  kOtherProcess,
  kMultiGpuImbalance,
  kGenerationKvCache,
  kCpuRam,
  kOther,
};

/// "fragmentation", "activations_batch", ..., "other".
const char* cause_name(OomCause c);
/// Inverse of cause_name(); nullopt for an unknown name.
std::optional<OomCause> cause_from_name(std::string_view name);

/// One ranked finding.
struct Finding {
  OomCause category = OomCause::kOther;
  std::string title;                   // one line
  std::vector<std::string> evidence;   // numbers from the message / timeline / estimate
  int playbook_step = 1;               // 1-8, see the file comment
  std::string fix;                     // an `oomkit train` flag, a PYTORCH_CUDA_ALLOC_CONF setting or the code change
  std::optional<int64_t> saving_bytes; // predicted by re-running the estimator with the fix
  std::string probe;                   // the question or probe that confirms or rules this cause out
  double score = 0.0;                  // 0..1, ranks findings; see confidence()
  /// "high" (score >= 0.75), "medium" (>= 0.5) or "low".
  const char* confidence() const;
};

/// Clues from the log around an OOM (not from the message itself).
struct LogContext {
  bool eval = false;            // "eval", "validation", "valid_loss", model.eval() before the OOM
  bool no_grad_seen = false;    // "no_grad" / "inference_mode" appears
  bool generation = false;      // "generate", "past_key_values", "kv cache", "sampling"
  bool multi_gpu = false;       // DataParallel/DDP/torchrun ranks or several device ids
  bool loading = false;         // torch.load / load_state_dict / from_pretrained / _cuda_deserialize in the traceback
  bool in_backward = false;     // the traceback goes through backward()
  bool in_optimizer = false;    // the traceback goes through optimizer.step (Adam moments created lazily)
  bool in_attention = false;    // the traceback goes through attention / softmax / sdpa
  std::optional<double> growth_per_step_bytes;  // slope of memory over "step N ... mem X" lines, when rising
  int64_t steps_seen = 0;       // distinct step counters before the OOM
  std::vector<std::string> clues;  // "line 12: model.eval()" etc., for evidence
};

/// Scans the log for clues about the OOM starting at 1-based line `oom_line`: the 400 lines up to
/// it for ranks/device ids and "step N ... mem X" pairs (their regression feeds
/// growth_per_step_bytes when it shows a leak, see is_leak() in playbook.h), the last 40 (the
/// traceback and the last log lines) for eval, generation, loading, backward, optimizer and
/// attention frames. Keyword-based; lines are read up to 2000 characters. Never throws.
LogContext scan_context(std::string_view log_text, int64_t oom_line);

/// The run the OOM came from, when the user says it (CLI flags) or the trainer knows it.
struct RunSettings {
  ModelConfig model;
  TrainingSetup setup;
  int64_t capacity_bytes = 0;  // 0: take it from the message (allowed, else total capacity)
  RemedyResources resources;   // the hardware the fixes may use (default: one GPU, this machine's RAM)
  RemedyScope scope;           // the fixes that may be offered (default: all; oomkit train: what it implements)
};

struct DiagnoseOptions {
  std::optional<RunSettings> run;  // ties the findings to the estimator when set
  EstimateFn estimate;             // required when `run` is set
};

/// The answer for one OOM record.
struct Diagnosis {
  std::optional<OomRecord> oom;
  std::vector<Finding> findings;  // best first
  std::vector<std::string> notes; // caveats about the message (PID namespaces, cut-off text, ...)
  /// True when no finding reaches "high": the findings are then candidates, each with the probe
  /// that tells it apart, not a verdict.
  bool ambiguous() const;
};

/// Classifies one OOM. With options.run, static memory, activation share and each fix's saving
/// come from options.estimate (throws InputError from the estimator for an invalid setup).
Diagnosis diagnose_oom(const OomRecord& oom, const LogContext& context, const DiagnoseOptions& options = {});

/// parse_oom_log() + scan_context() + diagnose_oom() for every OOM in `log_text`; empty when the
/// text holds no OOM report.
std::vector<Diagnosis> diagnose_log(std::string_view log_text, const DiagnoseOptions& options = {});

/// Adds the estimator's view of `run` (static memory vs capacity, activation share, the saving
/// of each fix) to `findings`. The fixes are the remedies catalogue's (find_remedies() with
/// run.resources and run.scope): the evidence lists each fix alone in the catalogue's order,
/// then the cheapest combinations that fit and the more-hardware plans; the finding's fix is the
/// catalogue's best plan. "Does not fit" is the catalogue's rule: peak > usable bytes. `capacity_bytes`
/// is the budget the run failed in; `oom` (may be null) lets allocated bytes be compared with
/// the estimate. When the estimate fits, causes outside the model's own step (leak, eval
/// without no-grad, fragmentation, other processes) move up. Used by diagnose_oom() and the
/// live playbook. Throws InputError from the estimator for an invalid model/setup, and when
/// capacity_bytes <= 0.
void add_estimate_findings(const RunSettings& run, const EstimateFn& estimate, int64_t capacity_bytes,
                           const OomRecord* oom, std::vector<Finding>& findings, std::vector<std::string>& notes);

/// A finding for `cause` with its default title, playbook step, fix and probe, and `score`.
Finding make_finding(OomCause cause, double score);

/// Sorts best first and merges findings of the same category (keeping the higher score and
/// all evidence). Keeps at most six; after a "high" verdict, only contenders scoring >= 0.3.
void rank_findings(std::vector<Finding>& findings);

}  // namespace oomkit
