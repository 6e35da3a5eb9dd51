// The verdict, the fixes (re-estimated), max batch, batch curve and the model-size sweep.
#include "oomkit/estimate/verdict.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"

namespace oomkit {
namespace {

constexpr int64_t kMaxCurveBatch = int64_t{1} << 20;
constexpr int64_t kShardingSuggestionGpus = 8;  // ZeRO-3 suggestion for a single-GPU run: one 8-GPU node

int64_t peak_of(const ModelConfig& model, const TrainingSetup& setup) { return estimate_memory(model, setup).peak_bytes; }

}  // namespace

int64_t usable_bytes(int64_t capacity_bytes, double safety_margin) {
  if (capacity_bytes <= 0) throw InputError("--memory", "capacity must be positive");
  const long double usable = static_cast<long double>(capacity_bytes) * (1.0L - safety_margin);
  return static_cast<int64_t>(std::floor(usable));
}

Verdict judge(const ModelConfig& model, const Estimate& e, int64_t capacity_bytes) {
  Verdict v;
  const TrainingSetup& s = e.setup;
  v.capacity_bytes = capacity_bytes;
  v.usable_bytes = usable_bytes(capacity_bytes, s.safety_margin);
  v.fits = e.peak_bytes <= v.usable_bytes;
  v.headroom_bytes = v.usable_bytes - e.peak_bytes;
  int best = 0;
  for (int c = 0; c < kNumCategories; ++c) {
    if (static_cast<Category>(c) == Category::kOverhead) continue;
    if (e.totals[c] > e.totals[best]) best = c;
  }
  v.bottleneck = category_name(static_cast<Category>(best));

  auto consider = [&](const char* name, const std::string& description, const TrainingSetup& changed) {
    int64_t after = 0;
    try {
      after = peak_of(model, changed);
    } catch (const InputError&) {
      // A framework profile refuses a remedy its framework does not have (Megatron has no
      // ZeRO-3 or 8-bit Adam): not a fix there.
      if (s.framework == Framework::kOomkit || s.framework == Framework::kHf) throw;
      return;
    }
    if (after < e.peak_bytes) v.fixes.push_back({name, description, e.peak_bytes - after, after});
  };
  // 1. Mixed precision (the chapter's first remedy).
  if (s.precision == Precision::kFp32) {
    TrainingSetup c = s;
    c.precision = Precision::kBf16Mixed;
    consider("mixed_precision", "--precision bf16-mixed: 2-byte activations, fp32 master weights", c);
  }
  // 2. Activation checkpointing.
  if (s.checkpointing != Checkpointing::kFull || s.checkpoint_every != 1) {
    TrainingSetup c = s;
    c.checkpointing = Checkpointing::kFull;
    c.checkpoint_every = 1;
    consider("activation_checkpointing", "--checkpointing full: keep block inputs, recompute in backward", c);
  }
  // 3. A lighter optimizer.
  if (s.optimizer == OptimizerKind::kAdamW || s.optimizer == OptimizerKind::kLion ||
      s.optimizer == OptimizerKind::kSgdMomentum) {
    TrainingSetup c = s;
    c.optimizer = s.optimizer == OptimizerKind::kAdamW ? OptimizerKind::kAdam8bit : OptimizerKind::kAdafactor;
    consider("lighter_optimizer",
             std::string("--optimizer ") + to_string(c.optimizer) +
                 (c.optimizer == OptimizerKind::kAdam8bit ? ": 1-byte Adam moments with per-block scales"
                                                          : ": factored second moment, no first moment"),
             c);
  } else if (s.optimizer == OptimizerKind::kAdam8bit) {
    TrainingSetup c = s;
    c.optimizer = OptimizerKind::kAdafactor;
    consider("lighter_optimizer", "--optimizer adafactor: factored second moment, no first moment", c);
  }
  // 4. A smaller micro-batch with gradient accumulation (same effective batch).
  if (s.micro_batch_size > 1) {
    int64_t b = s.micro_batch_size / 2;
    TrainingSetup c = s;
    while (true) {
      c.micro_batch_size = b;
      c.gradient_accumulation_steps = s.gradient_accumulation_steps * ((s.micro_batch_size + b - 1) / b);
      if (b == 1 || peak_of(model, c) <= v.usable_bytes) break;
      b /= 2;
    }
    consider("smaller_micro_batch",
             "--batch-size " + std::to_string(c.micro_batch_size) + " --grad-accum " +
                 std::to_string(c.gradient_accumulation_steps) + ": same effective batch",
             c);
  }
  // 5. ZeRO-3 / FSDP full-shard.
  if (s.parallel.zero_stage < 3) {
    TrainingSetup c = s;
    c.parallel.zero_stage = 3;
    if (c.parallel.data_parallel == 1) c.parallel.data_parallel = kShardingSuggestionGpus;
    consider("zero_sharding",
             "--zero 3 --dp " + std::to_string(c.parallel.data_parallel) +
                 ": shard parameters, gradients and optimizer state (FSDP full-shard)",
             c);
  }
  // 6. CPU offload of the optimizer state.
  if (!s.parallel.offload_optimizer) {
    TrainingSetup c = s;
    c.parallel.offload_optimizer = true;
    consider("offload", "--offload-optimizer: optimizer state and its update on the CPU (ZeRO-Offload)", c);
  }
  return v;
}

int64_t max_micro_batch(const ModelConfig& model, const TrainingSetup& setup, int64_t capacity_bytes) {
  const int64_t usable = usable_bytes(capacity_bytes, setup.safety_margin);
  TrainingSetup s = setup;
  auto fits = [&](int64_t b) {
    s.micro_batch_size = b;
    try {
      return peak_of(model, s) <= usable;
    } catch (const InputError&) {
      return false;  // a batch so large that its byte count overflows does not fit
    }
  };
  if (!fits(1)) return 0;
  int64_t lo = 1, hi = 2;
  while (hi <= kMaxCurveBatch && fits(hi)) {
    lo = hi;
    hi *= 2;
  }
  if (hi > kMaxCurveBatch) return lo;
  while (hi - lo > 1) {  // invariant: lo fits, hi does not
    const int64_t mid = lo + (hi - lo) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

std::vector<BatchPoint> batch_curve(const ModelConfig& model, const TrainingSetup& setup, int64_t capacity_bytes) {
  const int64_t usable = usable_bytes(capacity_bytes, setup.safety_margin);
  std::vector<BatchPoint> out;
  TrainingSetup s = setup;
  for (int64_t b = 1; b <= kMaxCurveBatch; b *= 2) {
    s.micro_batch_size = b;
    int64_t peak = 0;
    try {
      peak = peak_of(model, s);
    } catch (const InputError&) {
      break;
    }
    out.push_back({b, peak});
    if (peak > usable) break;
  }
  return out;
}

std::vector<ModelConfig> sweep_models() {
  std::vector<ModelConfig> out;
  for (const char* name : {"gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl", "llama-2-7b", "mistral-7b", "llama-3-8b",
                           "llama-2-13b", "llama-2-70b"}) {
    out.push_back(resolve_model_config(name));
  }
  return out;
}

std::vector<SweepRow> sweep(const std::vector<ModelConfig>& models, const TrainingSetup& setup) {
  std::vector<SweepRow> rows;
  for (const auto& m : models) {
    TrainingSetup s = setup;
    s.seq_len = std::min(setup.seq_len, m.n_positions);
    const Estimate e = estimate_memory(m, s);
    SweepRow r;
    r.model = m.name;
    r.parameters = e.parameters.total();
    r.seq_len = s.seq_len;
    // What the optimizer step holds at once: parameters (fp32 masters under mixed precision),
    // buffers, gradients and optimizer state. Autocast's compute-dtype weight copies are not
    // static here: backward releases them before the step, so counting them let "static"
    // exceed the peak in bf16-mixed.
    int64_t copies = 0;
    for (const auto& item : e.items) {
      if (item.path == "parameters/compute_copies") copies = item.bytes;
    }
    r.static_bytes = e.total(Category::kParameters) - copies + e.total(Category::kGradients) +
                     e.total(Category::kOptimizerState);
    r.activation_bytes = e.total(Category::kActivations);
    r.peak_bytes = e.peak_bytes;
    rows.push_back(r);
  }
  return rows;
}

std::string verdict_to_json(const Estimate& e, const Verdict& v, int64_t max_batch, const std::vector<BatchPoint>& curve) {
  using nlohmann::json;
  json out = json::parse(estimate_to_json(e));
  out["capacity_bytes"] = v.capacity_bytes;
  out["usable_bytes"] = v.usable_bytes;
  out["fits"] = v.fits;
  out["headroom_bytes"] = v.headroom_bytes;
  out["bottleneck"] = v.bottleneck;
  json fixes = json::array();
  for (const auto& f : v.fixes) {
    fixes.push_back({{"name", f.name}, {"description", f.description}, {"saving_bytes", f.saving_bytes},
                     {"peak_bytes_after", f.peak_bytes_after}});
  }
  out["fixes"] = std::move(fixes);
  if (max_batch >= 0) out["max_batch"] = max_batch;
  if (!curve.empty()) {
    json points = json::array();
    for (const auto& p : curve) points.push_back({{"micro_batch_size", p.micro_batch_size}, {"peak_bytes", p.peak_bytes}});
    out["batch_curve"] = std::move(points);
  }
  return out.dump(2);
}

std::string sweep_to_json(const std::vector<SweepRow>& rows) {
  using nlohmann::json;
  json list = json::array();
  for (const auto& r : rows) {
    list.push_back({{"model", r.model}, {"parameters", r.parameters}, {"seq_len", r.seq_len},
                    {"static_bytes", r.static_bytes}, {"activation_bytes", r.activation_bytes},
                    {"peak_bytes", r.peak_bytes}});
  }
  return json{{"sweep", std::move(list)}}.dump(2);
}

}  // namespace oomkit
