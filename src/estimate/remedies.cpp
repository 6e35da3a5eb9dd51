// The remedies catalogue (see include/oomkit/estimate/remedies.h): one usable-bytes rule, one
// micro-batch rule, each remedy applied to a TrainingSetup and re-estimated, the cost model, and
// the search over combinations in cost order.
#include "oomkit/estimate/remedies.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/communication.h"

namespace oomkit {
namespace {

constexpr int64_t kMaxExtraGpus = 64;  // the more-hardware search doubles the GPUs up to this many

// The axis of a remedy: a plan holds at most one remedy per axis.
int axis_of(RemedyKind k) {
  switch (k) {
    case RemedyKind::kMicroBatch: return 0;
    case RemedyKind::kAttentionSdpa: return 1;
    case RemedyKind::kCheckpointingSelective:
    case RemedyKind::kCheckpointingFull: return 2;
    case RemedyKind::kPrecisionBf16Mixed:
    case RemedyKind::kPrecisionFp16Mixed:
    case RemedyKind::kPrecisionBf16: return 3;
    case RemedyKind::kOptimizerAdam8bit:
    case RemedyKind::kOptimizerAdafactor: return 4;
    case RemedyKind::kZero1:
    case RemedyKind::kZero2:
    case RemedyKind::kZero3: return 5;
    case RemedyKind::kOffloadOptimizer:
    case RemedyKind::kOffloadParameters: return 6;
    case RemedyKind::kLora: return 7;
  }
  return 0;
}
constexpr int kNumAxes = 8;

int zero_stage_of(RemedyKind k) {
  return k == RemedyKind::kZero1 ? 1 : k == RemedyKind::kZero2 ? 2 : k == RemedyKind::kZero3 ? 3 : 0;
}

// ZeRO shards over the data-parallel GPUs: every available GPU not taken by TP or PP.
int64_t data_parallel_for_zero(const TrainingSetup& s, const RemedyResources& r) {
  const int64_t model_parallel = std::max<int64_t>(1, s.parallel.tensor_parallel * s.parallel.pipeline_parallel);
  return std::max(s.parallel.data_parallel, r.gpus / model_parallel);
}

// Applies one remedy other than kMicroBatch.
void apply(RemedyKind k, TrainingSetup& s, const RemedyResources& r) {
  switch (k) {
    case RemedyKind::kMicroBatch: break;
    case RemedyKind::kAttentionSdpa: s.attention = AttentionKernel::kSdpa; break;
    case RemedyKind::kCheckpointingSelective: s.checkpointing = Checkpointing::kSelective; break;
    case RemedyKind::kCheckpointingFull:
      s.checkpointing = Checkpointing::kFull;
      s.checkpoint_every = 1;
      break;
    case RemedyKind::kPrecisionBf16Mixed: s.precision = Precision::kBf16Mixed; break;
    case RemedyKind::kPrecisionFp16Mixed: s.precision = Precision::kFp16Mixed; break;
    case RemedyKind::kPrecisionBf16: s.precision = Precision::kBf16; break;
    case RemedyKind::kOptimizerAdam8bit: s.optimizer = OptimizerKind::kAdam8bit; break;
    case RemedyKind::kOptimizerAdafactor: s.optimizer = OptimizerKind::kAdafactor; break;
    case RemedyKind::kZero1:
    case RemedyKind::kZero2:
    case RemedyKind::kZero3:
      s.parallel.zero_stage = zero_stage_of(k);
      s.parallel.data_parallel = data_parallel_for_zero(s, r);
      break;
    case RemedyKind::kOffloadOptimizer: s.parallel.offload_optimizer = true; break;
    case RemedyKind::kOffloadParameters:
      s.parallel.offload_optimizer = true;
      s.parallel.offload_parameters = true;
      break;
    case RemedyKind::kLora:
      s.lora.rank = kRemedyLoraRank;
      s.lora.targets = LoraConfig{}.targets;
      break;
  }
}

bool applicable(RemedyKind k, const TrainingSetup& s, const RemedyResources& r) {
  switch (k) {
    case RemedyKind::kMicroBatch: return s.micro_batch_size > 1;
    case RemedyKind::kAttentionSdpa: return s.attention == AttentionKernel::kEager;
    case RemedyKind::kCheckpointingSelective: return s.checkpointing == Checkpointing::kNone;
    case RemedyKind::kCheckpointingFull: return s.checkpointing != Checkpointing::kFull || s.checkpoint_every != 1;
    case RemedyKind::kPrecisionBf16Mixed:
    case RemedyKind::kPrecisionFp16Mixed: return s.precision == Precision::kFp32;
    case RemedyKind::kPrecisionBf16: return s.precision != Precision::kBf16;
    case RemedyKind::kOptimizerAdam8bit: return s.optimizer == OptimizerKind::kAdamW;
    case RemedyKind::kOptimizerAdafactor:
      return s.optimizer == OptimizerKind::kAdamW || s.optimizer == OptimizerKind::kAdam8bit ||
             s.optimizer == OptimizerKind::kLion || s.optimizer == OptimizerKind::kSgdMomentum;
    case RemedyKind::kZero1:
    case RemedyKind::kZero2:
    case RemedyKind::kZero3:
      return data_parallel_for_zero(s, r) > 1 && s.parallel.zero_stage < zero_stage_of(k);
    case RemedyKind::kOffloadOptimizer: return !s.parallel.offload_optimizer;
    case RemedyKind::kOffloadParameters: return !s.parallel.offload_parameters;
    case RemedyKind::kLora: return s.lora.rank == 0;
  }
  return false;
}

std::string remedy_flags(RemedyKind k, const TrainingSetup& before, const TrainingSetup& after) {
  switch (k) {
    case RemedyKind::kMicroBatch: return micro_batch_flags(after);
    case RemedyKind::kAttentionSdpa: return "--attention sdpa";
    case RemedyKind::kCheckpointingSelective: return "--checkpointing selective";
    case RemedyKind::kCheckpointingFull: return "--checkpointing full";
    case RemedyKind::kPrecisionBf16Mixed:
    case RemedyKind::kPrecisionFp16Mixed:
    case RemedyKind::kPrecisionBf16: return std::string("--precision ") + to_string(after.precision);
    case RemedyKind::kOptimizerAdam8bit:
    case RemedyKind::kOptimizerAdafactor: return std::string("--optimizer ") + to_string(after.optimizer);
    case RemedyKind::kZero1:
    case RemedyKind::kZero2:
    case RemedyKind::kZero3:
      return fmt::format("--zero {}", after.parallel.zero_stage) +
             (after.parallel.data_parallel != before.parallel.data_parallel
                  ? fmt::format(" --dp {}", after.parallel.data_parallel) : std::string());
    case RemedyKind::kOffloadOptimizer: return "--offload-optimizer";
    case RemedyKind::kOffloadParameters:
      return before.parallel.offload_optimizer ? "--offload-params" : "--offload-optimizer --offload-params";
    case RemedyKind::kLora: return fmt::format("--lora-rank {}", kRemedyLoraRank);
  }
  return "";
}

std::string remedy_flag_hint_impl(RemedyKind k) {
  switch (k) {
    case RemedyKind::kMicroBatch: return "--batch-size <B/2> --grad-accum <2A>";
    case RemedyKind::kAttentionSdpa: return "--attention sdpa";
    case RemedyKind::kCheckpointingSelective: return "--checkpointing selective";
    case RemedyKind::kCheckpointingFull: return "--checkpointing full";
    case RemedyKind::kPrecisionBf16Mixed: return std::string("--precision ") + to_string(Precision::kBf16Mixed);
    case RemedyKind::kPrecisionFp16Mixed: return std::string("--precision ") + to_string(Precision::kFp16Mixed);
    case RemedyKind::kPrecisionBf16: return std::string("--precision ") + to_string(Precision::kBf16);
    case RemedyKind::kOptimizerAdam8bit: return std::string("--optimizer ") + to_string(OptimizerKind::kAdam8bit);
    case RemedyKind::kOptimizerAdafactor: return std::string("--optimizer ") + to_string(OptimizerKind::kAdafactor);
    case RemedyKind::kZero1: return "--zero 1 --dp <N>";
    case RemedyKind::kZero2: return "--zero 2 --dp <N>";
    case RemedyKind::kZero3: return "--zero 3 --dp <N>";
    case RemedyKind::kOffloadOptimizer: return "--offload-optimizer";
    case RemedyKind::kOffloadParameters: return "--offload-optimizer --offload-params";
    case RemedyKind::kLora: return fmt::format("--lora-rank {}", kRemedyLoraRank);
  }
  return "";
}

std::string remedy_description(RemedyKind k, const TrainingSetup& before, const TrainingSetup& after) {
  switch (k) {
    case RemedyKind::kMicroBatch:
      return fmt::format("micro-batch {} with {} accumulation steps: the same effective batch of {}", after.micro_batch_size,
                         after.gradient_accumulation_steps, after.micro_batch_size * after.gradient_accumulation_steps);
    case RemedyKind::kAttentionSdpa: return "fused attention: the (B,h,T,T) scores are never stored";
    case RemedyKind::kCheckpointingSelective: return "selective activation checkpointing: recompute the attention core";
    case RemedyKind::kCheckpointingFull: return "full activation checkpointing: keep block inputs, recompute blocks in backward";
    case RemedyKind::kPrecisionBf16Mixed: return "bf16 autocast, fp32 master weights and optimizer state";
    case RemedyKind::kPrecisionFp16Mixed: return "fp16 autocast with loss scaling, fp32 master weights";
    case RemedyKind::kPrecisionBf16: return "pure bf16 weights, gradients and optimizer state (changes numerics)";
    case RemedyKind::kOptimizerAdam8bit: return "8-bit Adam moments with per-block scales (changes numerics)";
    case RemedyKind::kOptimizerAdafactor: return "Adafactor: factored second moment, no first moment (changes numerics)";
    case RemedyKind::kZero1:
    case RemedyKind::kZero2:
    case RemedyKind::kZero3: {
      std::string what = after.parallel.zero_stage == 1   ? "optimizer state"
                         : after.parallel.zero_stage == 2 ? "optimizer state and gradients"
                                                          : "optimizer state, gradients and parameters";
      std::string text = fmt::format("ZeRO-{}: shard the {} over {} GPUs", after.parallel.zero_stage, what,
                                     after.parallel.data_parallel);
      if (after.parallel.data_parallel != before.parallel.data_parallel) {
        text += fmt::format(" (effective batch x{}: divide the accumulation by that to keep it)",
                            after.parallel.data_parallel / std::max<int64_t>(1, before.parallel.data_parallel));
      }
      return text;
    }
    case RemedyKind::kOffloadOptimizer: return "optimizer state and its update on the CPU (ZeRO-Offload)";
    case RemedyKind::kOffloadParameters: return "parameters and optimizer state on the CPU between uses (ZeRO-Infinity)";
    case RemedyKind::kLora:
      return fmt::format("LoRA rank {} on q,k,v,o, base weights frozen (changes what is trained)", kRemedyLoraRank);
  }
  return "";
}

// ---- the cost model -----------------------------------------------------------------------

// FLOPs per token of one training step without recompute: 3 forward passes' worth (forward +
// backward at twice the forward; Kaplan et al. 2020, section 2.1), the forward being 2 FLOPs per
// weight of every matmul (blocks and the V x d head) plus 4·T·d per layer for QK^T and PV.
double step_flops_per_token(const ModelConfig& m, const ParameterCount& base, const TrainingSetup& s) {
  const double matmul = static_cast<double>(base.attention + base.mlp) + static_cast<double>(m.vocab_size) * m.n_embd;
  return 3.0 * (2.0 * matmul + 4.0 * static_cast<double>(s.seq_len) * m.n_embd * m.n_layer);
}

// Extra FLOPs per token that a setup recomputes in backward: a fused attention kernel recomputes
// QK^T from Q, K and the saved log-sum-exp (Dao et al. 2022, section 3.1): 2·T·d per layer;
// selective checkpointing recomputes QK^T and PV (Korthikanti et al. 2022, section 4.2):
// 4·T·d per layer; full checkpointing re-runs the forward of every checkpointed block.
double recompute_flops_per_token(const ModelConfig& m, const ParameterCount& base, const TrainingSetup& s) {
  const double T = static_cast<double>(s.seq_len), d = static_cast<double>(m.n_embd), L = static_cast<double>(m.n_layer);
  double extra = 0.0;
  if (s.attention == AttentionKernel::kSdpa) extra += 2.0 * T * d * L;
  if (s.checkpointing == Checkpointing::kSelective) extra += 4.0 * T * d * L;
  if (s.checkpointing == Checkpointing::kFull) {
    const double every = static_cast<double>(std::max<int64_t>(1, s.checkpoint_every));
    const double blocks = std::ceil(L / every);
    const double block_forward = 2.0 * static_cast<double>(base.attention + base.mlp) / L + 4.0 * T * d;
    extra += blocks * block_forward;
  }
  return extra;
}

// Bytes one GPU moves over the link per optimizer step: the data-parallel collectives of
// communication.h (ring all-reduce / reduce-scatter / all-gather per ZeRO stage; Rajbhandari et
// al. 2020, section 7: 2Ψ for DP and ZeRO-1/2, 3Ψ for ZeRO-3), plus offload traffic: of the
// optimizer, the gradients down and the updated parameters up, 2·G (its shard under ZeRO); of
// the parameters, 2·Pg per micro-batch.
double link_bytes(const ParameterCount& base, const ParameterCount& lora, const TrainingSetup& s) {
  const ParameterCount& c = s.lora.rank > 0 ? lora : base;
  const double trainable = s.lora.rank > 0 ? static_cast<double>(c.lora) : static_cast<double>(base.total());
  const double all = static_cast<double>(c.total());
  const double param_elem = s.precision == Precision::kFp32 ? 4.0 : 2.0;
  const double G = trainable * gradient_reduce_bytes_per_element(s), Pg = all * param_elem;
  const double accum = static_cast<double>(s.gradient_accumulation_steps);
  const double N = static_cast<double>(s.parallel.data_parallel);
  double bytes = 0.0;
  for (const CollectiveTraffic& t : data_parallel_collectives(base, lora, s)) bytes += static_cast<double>(t.bytes_per_gpu);
  if (s.parallel.offload_optimizer) bytes += 2.0 * G / (s.parallel.zero_stage >= 1 && N > 1.0 ? N : 1.0);
  if (s.parallel.offload_parameters) bytes += 2.0 * Pg * accum;
  return bytes;
}

int64_t gpus_of(const TrainingSetup& s) {
  return s.parallel.data_parallel * s.parallel.tensor_parallel * s.parallel.pipeline_parallel;
}

// The cost model's baselines for one base setup: parameter counts, the step's FLOPs, its own
// recompute and link traffic.
class CostModel {
 public:
  CostModel(const ModelConfig& model, const TrainingSetup& base)
      : model_(model),
        base_(base),
        counts_(count_parameters(model)),
        lora_counts_(count_parameters(model, LoraConfig{kRemedyLoraRank, LoraConfig{}.targets})),
        base_step_flops_(step_flops_per_token(model, counts_, base)),
        base_recompute_(recompute_flops_per_token(model, counts_, base)),
        base_link_(link_bytes(counts_, lora_counts_, base)) {}

  RemedyCost cost_of(const std::vector<RemedyKind>& kinds, const TrainingSetup& s, double link_bps) const {
    RemedyCost c;
    for (RemedyKind k : kinds) c.numerics = std::max(c.numerics, remedy_numerics(k));
    const double link = std::max(0.0, link_bytes(counts_, lora_counts_, s) - base_link_);
    c.link_bytes_per_step = static_cast<int64_t>(std::llround(link));
    c.link_seconds_per_step = link_bps > 0.0 ? link / link_bps : 0.0;
    c.recompute_fraction =
        base_step_flops_ > 0.0 ? std::max(0.0, recompute_flops_per_token(model_, counts_, s) - base_recompute_) / base_step_flops_
                               : 0.0;
    c.accumulation_factor = s.gradient_accumulation_steps / std::max<int64_t>(1, base_.gradient_accumulation_steps);
    c.num_remedies = static_cast<int>(kinds.size());
    return c;
  }

 private:
  const ModelConfig& model_;
  const TrainingSetup& base_;
  ParameterCount counts_;
  ParameterCount lora_counts_;
  double base_step_flops_;
  double base_recompute_;
  double base_link_;
};

// Search state for one request: the base estimate and the cost model.
class Catalogue {
 public:
  explicit Catalogue(const RemedyRequest& req)
      : req_(req),
        estimate_(req.estimate ? req.estimate : EstimateFn(estimate_memory)),
        usable_(usable_bytes(req.capacity_bytes, req.setup.safety_margin)),
        base_peak_(estimate_(req.model, req.setup).peak_bytes),
        costs_(req.model, req.setup) {}

  RemedyCost cost_of(const std::vector<RemedyKind>& kinds, const TrainingSetup& s, double link_bps) const {
    return costs_.cost_of(kinds, s, link_bps);
  }

  int64_t usable() const { return usable_; }
  int64_t base_peak() const { return base_peak_; }

  // The setup with every remedy but the micro-batch applied.
  TrainingSetup applied(const std::vector<RemedyKind>& kinds, const RemedyResources& r) const {
    TrainingSetup s = req_.setup;
    for (RemedyKind k : kinds) apply(k, s, r);
    return s;
  }

  // A lower bound on the cost of `kinds`: the micro-batch rule only raises accumulation (and
  // with it ZeRO-3 / parameter-offload traffic), by at least B / (largest smaller divisor).
  RemedyCost lower_bound(const std::vector<RemedyKind>& kinds, const RemedyResources& r) const {
    TrainingSetup s = applied(kinds, r);
    RemedyCost c = cost_of(kinds, s, r.link_bytes_per_second);
    if (std::find(kinds.begin(), kinds.end(), RemedyKind::kMicroBatch) != kinds.end()) {
      const auto smaller = smaller_micro_batches(s.micro_batch_size);
      if (!smaller.empty()) c.accumulation_factor *= s.micro_batch_size / smaller.front();
    }
    return c;
  }

  std::optional<int64_t> peak_of(const TrainingSetup& s) const {
    try {
      return estimate_(req_.model, s).peak_bytes;
    } catch (const InputError&) {
      return std::nullopt;  // a combination the estimator refuses (e.g. a LoRA rank above d)
    }
  }

  // nullopt when the estimator refuses the changed setup.
  std::optional<RemedyPlan> evaluate(std::vector<RemedyKind> kinds, const RemedyResources& r, int64_t host_bytes) const {
    std::sort(kinds.begin(), kinds.end());
    std::array<bool, kNumAxes> used{};
    for (RemedyKind k : kinds) {
      if (used[axis_of(k)]) throw InputError("remedies", std::string("two remedies on one axis: ") + remedy_name(k));
      used[axis_of(k)] = true;
    }
    RemedyPlan p;
    p.remedies = kinds;
    p.setup = applied(kinds, r);
    auto peak = peak_of(p.setup);
    if (!peak) return std::nullopt;
    if (used[axis_of(RemedyKind::kMicroBatch)]) {
      // The micro-batch rule: the largest divisor of B below B that fits (peak grows with B).
      const auto smaller = smaller_micro_batches(p.setup.micro_batch_size);
      if (smaller.empty()) return std::nullopt;
      size_t lo = 0, hi = smaller.size() - 1;  // find the first index that fits; else the last
      std::optional<int64_t> last = peak_of(with_micro_batch(p.setup, smaller[hi]));
      if (!last) return std::nullopt;
      if (*last <= usable_) {
        while (lo < hi) {
          const size_t mid = lo + (hi - lo) / 2;
          const auto m = peak_of(with_micro_batch(p.setup, smaller[mid]));
          if (m && *m <= usable_) hi = mid;
          else lo = mid + 1;
        }
      } else {
        lo = hi;
      }
      p.setup = with_micro_batch(p.setup, smaller[lo]);
      peak = lo == smaller.size() - 1 ? last : peak_of(p.setup);
      if (!peak) return std::nullopt;
    }
    p.peak_bytes = *peak;
    p.saving_bytes = base_peak_ - p.peak_bytes;
    p.gpus_needed = gpus_of(p.setup);
    if (p.setup.parallel.offload_optimizer && !req_.setup.parallel.offload_optimizer) {
      TrainingSetup on_gpu = p.setup;
      on_gpu.parallel.offload_optimizer = false;
      on_gpu.parallel.offload_parameters = false;
      try {
        const Estimate e = estimate_(req_.model, on_gpu);
        int64_t per_gpu = e.total(Category::kOptimizerState);
        if (p.setup.parallel.offload_parameters) per_gpu += e.total(Category::kParameters);
        p.host_bytes_needed = per_gpu * p.setup.parallel.data_parallel;
      } catch (const InputError&) {
        return std::nullopt;
      }
    }
    p.fits = p.peak_bytes <= usable_ && p.gpus_needed <= r.gpus && p.host_bytes_needed <= host_bytes;
    p.cost = cost_of(kinds, p.setup, r.link_bytes_per_second);
    std::vector<RemedyKind> flag_order = kinds;  // the micro-batch change reads best last
    std::stable_partition(flag_order.begin(), flag_order.end(), [](RemedyKind k) { return k != RemedyKind::kMicroBatch; });
    for (RemedyKind k : flag_order) {
      p.flags += (p.flags.empty() ? "" : " ") + remedy_flags(k, req_.setup, p.setup);
      p.description += (p.description.empty() ? "" : "; ") + remedy_description(k, req_.setup, p.setup);
    }
    return p;
  }

  // The cheapest fitting plans on `r`, best first, none a superset of a cheaper one; only plans
  // cheaper than `bound` when given.
  // `keep` (may be empty) filters the combinations considered.
  std::vector<RemedyPlan> search(const RemedyResources& r, int64_t host_bytes, size_t max_plans,
                                 const std::function<bool(const std::vector<RemedyKind>&)>& keep) const {
    const auto kinds = applicable_remedies(req_.setup, req_.scope, r);
    std::array<std::vector<RemedyKind>, kNumAxes> axes;
    for (RemedyKind k : kinds) axes[axis_of(k)].push_back(k);
    std::vector<std::vector<RemedyKind>> combos{{}};
    for (const auto& options : axes) {
      if (options.empty()) continue;
      const size_t n = combos.size();
      for (size_t i = 0; i < n; ++i) {
        for (RemedyKind k : options) {
          auto c = combos[i];
          c.push_back(k);
          combos.push_back(std::move(c));
        }
      }
    }
    combos.erase(combos.begin());  // the empty set: the setup as given
    std::vector<std::pair<RemedyCost, size_t>> order;
    order.reserve(combos.size());
    for (size_t i = 0; i < combos.size(); ++i) {
      if (!keep || keep(combos[i])) order.emplace_back(lower_bound(combos[i], r), i);
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return cheaper(a.first, b.first); });

    std::vector<RemedyPlan> found;
    for (const auto& [lb, i] : order) {
      if (found.size() >= max_plans && !cheaper(lb, found[max_plans - 1].cost)) break;
      auto plan = evaluate(combos[i], r, host_bytes);
      if (!plan || !plan->fits) continue;
      found.push_back(std::move(*plan));
      std::stable_sort(found.begin(), found.end(), [](const RemedyPlan& a, const RemedyPlan& b) { return cheaper(a.cost, b.cost); });
      std::vector<RemedyPlan> kept;
      for (auto& p : found) {
        const bool superset = std::any_of(kept.begin(), kept.end(), [&](const RemedyPlan& q) {
          return std::includes(p.remedies.begin(), p.remedies.end(), q.remedies.begin(), q.remedies.end());
        });
        if (!superset) kept.push_back(std::move(p));
      }
      found = std::move(kept);
    }
    if (found.size() > max_plans) found.resize(max_plans);
    return found;
  }

 private:
  const RemedyRequest& req_;
  EstimateFn estimate_;
  int64_t usable_;
  int64_t base_peak_;
  CostModel costs_;
};

RemedyResources effective_resources(const RemedyRequest& req) {
  RemedyResources r = req.resources;
  r.gpus = std::max<int64_t>({int64_t{1}, r.gpus, gpus_of(req.setup)});
  return r;
}

int64_t effective_host_bytes(const RemedyResources& r) {
  if (r.host_memory_bytes > 0) return r.host_memory_bytes;
  const int64_t here = host_memory_total_bytes();
  return here > 0 ? here : std::numeric_limits<int64_t>::max();
}

}  // namespace

int64_t usable_bytes(int64_t capacity_bytes, double safety_margin) {
  if (capacity_bytes <= 0) throw InputError("--memory", "capacity must be positive");
  const long double usable = static_cast<long double>(capacity_bytes) * (1.0L - safety_margin);
  return static_cast<int64_t>(std::floor(usable));
}

std::vector<int64_t> smaller_micro_batches(int64_t B) {
  std::vector<int64_t> low, high;  // divisors <= sqrt(B) ascending, their partners descending
  for (int64_t i = 1; i * i <= B; ++i) {
    if (B % i != 0) continue;
    low.push_back(i);
    if (i != B / i) high.push_back(B / i);
  }
  std::vector<int64_t> out(high.begin(), high.end());  // descending, starts with B itself
  for (auto it = low.rbegin(); it != low.rend(); ++it) out.push_back(*it);
  if (!out.empty() && out.front() == B) out.erase(out.begin());
  return out;
}

TrainingSetup with_micro_batch(const TrainingSetup& setup, int64_t b) {
  TrainingSetup s = setup;
  s.micro_batch_size = b;
  s.gradient_accumulation_steps = setup.gradient_accumulation_steps * (setup.micro_batch_size / b);
  return s;
}

std::string micro_batch_flags(const TrainingSetup& s) {
  return fmt::format("--batch-size {} --grad-accum {}", s.micro_batch_size, s.gradient_accumulation_steps);
}

std::string remedy_flag_hint(RemedyKind k) { return remedy_flag_hint_impl(k); }

const char* remedy_name(RemedyKind k) {
  switch (k) {
    case RemedyKind::kMicroBatch: return "micro_batch";
    case RemedyKind::kAttentionSdpa: return "attention_sdpa";
    case RemedyKind::kCheckpointingSelective: return "checkpointing_selective";
    case RemedyKind::kCheckpointingFull: return "checkpointing_full";
    case RemedyKind::kPrecisionBf16Mixed: return "bf16_mixed";
    case RemedyKind::kPrecisionFp16Mixed: return "fp16_mixed";
    case RemedyKind::kPrecisionBf16: return "pure_bf16";
    case RemedyKind::kOptimizerAdam8bit: return "adam_8bit";
    case RemedyKind::kOptimizerAdafactor: return "adafactor";
    case RemedyKind::kZero1: return "zero_1";
    case RemedyKind::kZero2: return "zero_2";
    case RemedyKind::kZero3: return "zero_3";
    case RemedyKind::kOffloadOptimizer: return "offload_optimizer";
    case RemedyKind::kOffloadParameters: return "offload_parameters";
    case RemedyKind::kLora: return "lora";
  }
  return "unknown";
}

Numerics remedy_numerics(RemedyKind k) {
  switch (k) {
    case RemedyKind::kPrecisionBf16Mixed:
    case RemedyKind::kPrecisionFp16Mixed: return Numerics::kReducedPrecision;
    case RemedyKind::kPrecisionBf16:
    case RemedyKind::kOptimizerAdam8bit:
    case RemedyKind::kOptimizerAdafactor:
    case RemedyKind::kLora: return Numerics::kChanged;
    default: return Numerics::kExact;
  }
}

const char* to_string(Numerics n) {
  switch (n) {
    case Numerics::kExact: return "exact";
    case Numerics::kReducedPrecision: return "reduced-precision compute";
    case Numerics::kChanged: return "changes numerics";
  }
  return "unknown";
}

RemedyScope RemedyScope::running_trainer(bool sdpa_built, bool cuda) {
  RemedyScope s;
  s.allowed.fill(false);
  s.allow(RemedyKind::kMicroBatch, true)
      .allow(RemedyKind::kCheckpointingFull, true)
      .allow(RemedyKind::kPrecisionBf16Mixed, true)
      .allow(RemedyKind::kPrecisionFp16Mixed, cuda)
      .allow(RemedyKind::kAttentionSdpa, sdpa_built);
  return s;
}

RemedyScope RemedyScope::trainer_advice(bool sdpa_built) {
  RemedyScope s;
  s.allow(RemedyKind::kAttentionSdpa, sdpa_built).allow(RemedyKind::kCheckpointingSelective, false);
  return s;
}

int64_t host_memory_total_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<int64_t>(pages) * static_cast<int64_t>(page);
}

bool cheaper(const RemedyCost& a, const RemedyCost& b) {
  if (a.numerics != b.numerics) return a.numerics < b.numerics;
  if (a.link_bytes_per_step != b.link_bytes_per_step) return a.link_bytes_per_step < b.link_bytes_per_step;
  if (a.recompute_fraction != b.recompute_fraction) return a.recompute_fraction < b.recompute_fraction;
  if (a.accumulation_factor != b.accumulation_factor) return a.accumulation_factor < b.accumulation_factor;
  return a.num_remedies < b.num_remedies;
}

RemedyCost remedy_cost(const ModelConfig& model, const TrainingSetup& base, const std::vector<RemedyKind>& kinds,
                       const TrainingSetup& changed, const RemedyResources& resources) {
  return CostModel(model, base).cost_of(kinds, changed, resources.link_bytes_per_second);
}

std::string describe_cost(const RemedyCost& c) {
  std::string out = to_string(c.numerics);
  out += c.link_bytes_per_step > 0
             ? fmt::format("; moves {} per step ({:.2f} s)", format_bytes(c.link_bytes_per_step), c.link_seconds_per_step)
             : "; nothing moved";
  if (c.recompute_fraction > 0.0) out += fmt::format("; +{:.1f}% FLOPs (recompute)", 100.0 * c.recompute_fraction);
  if (c.accumulation_factor > 1) out += fmt::format("; accumulation x{}", c.accumulation_factor);
  return out;
}

std::string cost_model_text(double link_bytes_per_second) {
  return fmt::format(
      "cost model: exact < reduced-precision compute < changes numerics, then bytes moved per step (seconds at a {:.1f} "
      "GB/s link), then recompute (extra FLOPs / step FLOPs), then accumulation",
      link_bytes_per_second / 1e9);
}

bool RemedyPlan::has(RemedyKind k) const { return std::find(remedies.begin(), remedies.end(), k) != remedies.end(); }

std::vector<RemedyKind> applicable_remedies(const TrainingSetup& setup, const RemedyScope& scope,
                                            const RemedyResources& resources) {
  std::vector<RemedyKind> out;
  for (int i = 0; i < kNumRemedyKinds; ++i) {
    const auto k = static_cast<RemedyKind>(i);
    if (scope.allows(k) && applicable(k, setup, resources)) out.push_back(k);
  }
  return out;
}

RemedyPlan evaluate_remedies(const RemedyRequest& request, const std::vector<RemedyKind>& kinds) {
  const Catalogue cat(request);
  const RemedyResources r = effective_resources(request);
  auto plan = cat.evaluate(kinds, r, effective_host_bytes(r));
  if (!plan) throw InputError("remedies", "the estimator refuses the changed setup");
  return *plan;
}

RemedyReport find_remedies(const RemedyRequest& request) {
  const Catalogue cat(request);
  const RemedyResources r = effective_resources(request);
  const int64_t host = effective_host_bytes(r);
  RemedyReport out;
  out.capacity_bytes = request.capacity_bytes;
  out.usable_bytes = cat.usable();
  out.peak_bytes = cat.base_peak();
  out.fits = out.peak_bytes <= out.usable_bytes;
  out.host_memory_bytes = host;
  out.link_bytes_per_second = r.link_bytes_per_second;
  if (out.fits) return out;

  for (RemedyKind k : applicable_remedies(request.setup, request.scope, r)) {
    auto plan = cat.evaluate({k}, r, host);
    if (plan && plan->saving_bytes > 0) out.single.push_back(std::move(*plan));
  }
  std::stable_sort(out.single.begin(), out.single.end(),
                   [](const RemedyPlan& a, const RemedyPlan& b) { return cheaper(a.cost, b.cost); });
  out.combinations = cat.search(r, host, static_cast<size_t>(std::max(1, request.max_combinations)), nullptr);

  // Listed apart: the cheapest plan that needs more host RAM (offload beyond `host`, on the GPUs
  // given), and the cheapest with full sharding (ZeRO-3 / FSDP full-shard, the chapter's step 8)
  // over the fewest more GPUs that fit (2x, 4x, ... up to 64), on the host RAM given.
  auto has_any = [](const std::vector<RemedyKind>& c, std::initializer_list<RemedyKind> ks) {
    return std::any_of(c.begin(), c.end(), [&](RemedyKind k) { return std::find(ks.begin(), ks.end(), k) != ks.end(); });
  };
  {
    auto plans = cat.search(r, std::numeric_limits<int64_t>::max(), 1, [&](const std::vector<RemedyKind>& c) {
      return has_any(c, {RemedyKind::kOffloadOptimizer, RemedyKind::kOffloadParameters});
    });
    if (!plans.empty() && plans.front().host_bytes_needed > host) out.more_hardware.push_back(std::move(plans.front()));
  }
  RemedyResources more = r;
  for (int64_t gpus = 2 * r.gpus; gpus <= std::max(2 * r.gpus, kMaxExtraGpus); gpus *= 2) {
    more.gpus = gpus;
    auto plans = cat.search(more, host, 1, [&](const std::vector<RemedyKind>& c) {
      return has_any(c, {RemedyKind::kZero3});
    });
    if (!plans.empty()) {
      out.more_hardware.push_back(std::move(plans.front()));
      break;
    }
  }
  return out;
}

}  // namespace oomkit
