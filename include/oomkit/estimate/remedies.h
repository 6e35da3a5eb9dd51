// The one catalogue of memory remedies, shared by `oomkit estimate` (the verdict), `oomkit
// diagnose` (estimate-linked fixes, the live playbook) and `oomkit train --on-oom recover`.
//
// One usable-bytes rule: usable = floor(capacity · (1 - safety_margin)); a setup fits when its
// predicted peak is <= usable. One micro-batch rule: a smaller micro-batch b must divide B, the
// accumulation steps grow by B/b, so the effective batch B·accumulation is kept exactly; the
// largest such b whose peak fits is taken (b = 1 when none does). Every remedy is measured by
// re-running the estimator on the changed TrainingSetup, alone and in combination.
//
// The cost model ranks plans lexicographically (stated in every output that lists plans):
//   1. numerics: exact (same arithmetic: accumulation, sdpa, checkpointing, ZeRO, offload)
//      < reduced-precision compute (bf16/fp16 mixed: fp32 master weights and optimizer)
//      < changes what is trained (pure bf16, 8-bit or factored optimizer, LoRA; flagged);
//   2. bytes moved over the link per optimizer step (ZeRO collectives beyond the run's own,
//      offload traffic), also shown as seconds at the link bandwidth;
//   3. recompute: extra FLOPs as a fraction of the step's FLOPs;
//   4. the accumulation factor (smaller micro-batches run smaller kernels);
//   5. the number of remedies.
// Hardware: the GPUs and host RAM available are inputs (default one GPU and this machine's
// RAM); plans that need more are searched apart and reported as such.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "oomkit/estimate/estimate.h"

namespace oomkit {

/// Computes an Estimate; callers pass oomkit::estimate_memory, tests may pass their own.
using EstimateFn = std::function<Estimate(const ModelConfig&, const TrainingSetup&)>;

/// usable = floor(capacity · (1 - margin)): the chapter's 10-20% kept free for fragmentation
/// and framework overhead. Throws InputError("--memory") for capacity <= 0.
int64_t usable_bytes(int64_t capacity_bytes, double safety_margin);

/// The micro-batch rule's candidates: every divisor b of `micro_batch_size` with b < B, largest
/// first (for B = 12: 6, 4, 3, 2, 1). Empty for B <= 1.
std::vector<int64_t> smaller_micro_batches(int64_t micro_batch_size);

/// `setup` with micro-batch b (a divisor of B) and accumulation · (B / b): same effective batch.
TrainingSetup with_micro_batch(const TrainingSetup& setup, int64_t b);

/// "--batch-size B --grad-accum A" of a setup.
std::string micro_batch_flags(const TrainingSetup& setup);

/// The candidate remedies, in catalogue order. At most one per axis goes into a plan:
/// attention {sdpa}; checkpointing {selective, full}; precision {bf16-mixed, fp16-mixed, bf16};
/// optimizer {adam-8bit, adafactor}; ZeRO {1, 2, 3}; offload {optimizer, optimizer+parameters};
/// LoRA; micro-batch.
enum class RemedyKind {
  kMicroBatch,              // smaller micro-batch + more accumulation, same effective batch
  kAttentionSdpa,           // fused attention (sdpa/flash): no (B,h,T,T) scores kept
  kCheckpointingSelective,  // recompute the attention core (Korthikanti et al. 2022)
  kCheckpointingFull,       // keep block inputs, recompute every block in backward
  kPrecisionBf16Mixed,      // autocast bf16 with fp32 master weights
  kPrecisionFp16Mixed,      // autocast fp16 with fp32 master weights and loss scaling
  kPrecisionBf16,           // pure bf16 weights, gradients and optimizer state
  kOptimizerAdam8bit,       // 1-byte Adam moments with per-block scales (Dettmers et al. 2022)
  kOptimizerAdafactor,      // factored second moment, no first moment (Shazeer & Stern 2018)
  kZero1,                   // shard optimizer state over the data-parallel GPUs
  kZero2,                   // + gradients (FSDP shard-grad-op)
  kZero3,                   // + parameters (FSDP full-shard)
  kOffloadOptimizer,        // optimizer state and its update on the CPU (ZeRO-Offload)
  kOffloadParameters,       // + parameters on the CPU between uses (ZeRO-Infinity)
  kLora,                    // LoRA rank 8 adapters on the attention projections, base frozen
};
inline constexpr int kNumRemedyKinds = 15;

/// How a remedy changes the numbers the run computes.
enum class Numerics { kExact, kReducedPrecision, kChanged };

/// "micro_batch", "attention_sdpa", "checkpointing_selective", "checkpointing_full",
/// "bf16_mixed", "fp16_mixed", "pure_bf16", "adam_8bit", "adafactor", "zero_1", "zero_2",
/// "zero_3", "offload_optimizer", "offload_parameters", "lora".
const char* remedy_name(RemedyKind kind);
Numerics remedy_numerics(RemedyKind kind);
/// The `oomkit train` / `oomkit estimate` flags of one remedy without a run to size it:
/// placeholders where the catalogue would compute a number ("--batch-size <B/2> --grad-accum
/// <2A>", "--zero 3 --dp <N>"); the sized form is what evaluate_remedies() reports in a plan.
std::string remedy_flag_hint(RemedyKind kind);
/// "exact", "reduced-precision compute", "changes numerics".
const char* to_string(Numerics numerics);
/// The LoRA rank the kLora remedy applies (Hu et al. 2021 report r = 8 on the attention
/// projections matching full fine-tuning on GPT-3, table 6).
inline constexpr int64_t kRemedyLoraRank = 8;

/// Which remedies a caller may use (all by default).
struct RemedyScope {
  std::array<bool, kNumRemedyKinds> allowed;
  RemedyScope() { allowed.fill(true); }
  bool allows(RemedyKind k) const { return allowed[static_cast<int>(k)]; }
  RemedyScope& allow(RemedyKind k, bool on) {
    allowed[static_cast<int>(k)] = on;
    return *this;
  }
  /// What a running oomkit trainer can switch between steps: micro-batch/accumulation, fp32 ->
  /// bf16-mixed (fp16-mixed on CUDA), full activation checkpointing, and sdpa when the build
  /// has it (LibTorch >= 2.0; 1.13 builds only eager attention).
  static RemedyScope running_trainer(bool sdpa_built, bool cuda);
  /// The fixes to advise for an `oomkit train` run: every remedy (ZeRO, offload and LoRA as
  /// the estimator's planning numbers) except the kernels this build's trainer refuses: sdpa
  /// without LibTorch >= 2.0, selective checkpointing (the trainer implements none and full).
  static RemedyScope trainer_advice(bool sdpa_built);
};

/// Default link bandwidth: PCIe 4.0 x16, one direction, 16 GT/s · 16 lanes · 128/130 = 31.5 GB/s.
inline constexpr double kDefaultLinkBytesPerSecond = 31.5e9;

/// The hardware a plan may use.
struct RemedyResources {
  int64_t gpus = 1;                  // GPUs for data parallelism (ZeRO shards over them)
  int64_t host_memory_bytes = 0;     // host RAM for offload; 0: this machine's (host_memory_total_bytes())
  double link_bytes_per_second = kDefaultLinkBytesPerSecond;  // GPU<->host and GPU<->GPU link
};

/// Physical RAM of this machine in bytes (sysconf); 0 when unknown.
int64_t host_memory_total_bytes();

/// What a plan costs; compare with cheaper().
struct RemedyCost {
  Numerics numerics = Numerics::kExact;  // the worst of its remedies
  int64_t link_bytes_per_step = 0;       // per GPU per optimizer step, beyond the run as given
  double link_seconds_per_step = 0.0;    // link_bytes / link bandwidth
  double recompute_fraction = 0.0;       // extra FLOPs / the step's FLOPs as given
  int64_t accumulation_factor = 1;       // new accumulation steps / old
  int num_remedies = 0;
};

/// The lexicographic order of the file comment: true when `a` ranks strictly before `b`.
bool cheaper(const RemedyCost& a, const RemedyCost& b);

/// The cost of going from `base` to `changed` by `kinds` (the micro-batch rule already applied
/// in `changed`), without the estimator: FLOPs and bytes from the parameter counts of `model`.
/// Throws InputError("parameters") on a parameter-count overflow.
RemedyCost remedy_cost(const ModelConfig& model, const TrainingSetup& base, const std::vector<RemedyKind>& kinds,
                       const TrainingSetup& changed, const RemedyResources& resources = {});

/// "exact; 0 B moved; +33.3% FLOPs (recompute); accumulation x2".
std::string describe_cost(const RemedyCost& cost);

/// The cost model in one line, with the link bandwidth used.
std::string cost_model_text(double link_bytes_per_second);

/// A set of remedies applied to the setup and re-estimated.
struct RemedyPlan {
  std::vector<RemedyKind> remedies;   // catalogue order
  TrainingSetup setup;                // the changed setup
  int64_t peak_bytes = 0;             // estimate of `setup`
  int64_t saving_bytes = 0;           // base peak - peak
  bool fits = false;                  // peak <= usable (on the hardware the plan needs)
  int64_t gpus_needed = 1;            // data_parallel · tensor_parallel · pipeline_parallel
  int64_t host_bytes_needed = 0;      // host RAM the offload takes (all GPUs of the host)
  RemedyCost cost;
  std::string flags;                  // "--attention sdpa --checkpointing full --batch-size 2 --grad-accum 4"
  std::string description;            // what each remedy does, "; "-joined
  bool has(RemedyKind k) const;
  bool changes_numerics() const { return cost.numerics == Numerics::kChanged; }
};

struct RemedyRequest {
  ModelConfig model;
  TrainingSetup setup;
  int64_t capacity_bytes = 0;      // per GPU
  RemedyResources resources;
  RemedyScope scope;
  EstimateFn estimate;             // empty: estimate_memory
  int max_combinations = 3;        // fitting combinations to return (none a superset of a cheaper one)
};

struct RemedyReport {
  int64_t capacity_bytes = 0;
  int64_t usable_bytes = 0;
  int64_t peak_bytes = 0;                      // the setup as given
  bool fits = false;                           // then every list below is empty
  int64_t host_memory_bytes = 0;               // the host RAM the search assumed
  double link_bytes_per_second = 0.0;
  std::vector<RemedyPlan> single;              // each applicable remedy alone that lowers the peak, cheapest first
  std::vector<RemedyPlan> combinations;        // cheapest fitting plans on the available hardware, best first
  std::vector<RemedyPlan> more_hardware;       // listed apart: the cheapest plan that fits with more host
                                               // RAM, and with ZeRO-3 over the fewest more GPUs
  const RemedyPlan* best() const { return combinations.empty() ? nullptr : &combinations.front(); }
};

/// The remedies in `scope` that change `setup` (e.g. no sdpa when it already runs sdpa; ZeRO only
/// with more than one GPU in `resources`), catalogue order.
std::vector<RemedyKind> applicable_remedies(const TrainingSetup& setup, const RemedyScope& scope,
                                            const RemedyResources& resources);

/// Applies `kinds` (at most one per axis; InputError("remedies") otherwise) to request.setup,
/// re-estimates, applies the micro-batch rule when kMicroBatch is among them, and fills the
/// cost. `fits` also requires the GPUs and host RAM of request.resources. Throws what the
/// estimator throws for the base setup.
RemedyPlan evaluate_remedies(const RemedyRequest& request, const std::vector<RemedyKind>& kinds);

/// The catalogue: singles, the cheapest fitting combinations (searched in cost order with a
/// lower bound, so the first is minimal), and the more-hardware plans. Throws InputError for a
/// non-positive capacity and what the estimator throws for the base setup.
RemedyReport find_remedies(const RemedyRequest& request);

}  // namespace oomkit
