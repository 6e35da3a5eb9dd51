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

int64_t peak_of(const ModelConfig& model, const TrainingSetup& setup) { return estimate_memory(model, setup).peak_bytes; }

nlohmann::json plan_json(const RemedyPlan& p) {
  nlohmann::json names = nlohmann::json::array();
  for (RemedyKind k : p.remedies) names.push_back(remedy_name(k));
  return {{"remedies", std::move(names)},
          {"flags", p.flags},
          {"description", p.description},
          {"peak_bytes", p.peak_bytes},
          {"saving_bytes", p.saving_bytes},
          {"fits", p.fits},
          {"gpus_needed", p.gpus_needed},
          {"host_bytes_needed", p.host_bytes_needed},
          {"numerics", to_string(p.cost.numerics)},
          {"changes_numerics", p.changes_numerics()},
          {"link_bytes_per_step", p.cost.link_bytes_per_step},
          {"link_seconds_per_step", p.cost.link_seconds_per_step},
          {"recompute_fraction", p.cost.recompute_fraction},
          {"accumulation_factor", p.cost.accumulation_factor}};
}

}  // namespace

Verdict judge(const ModelConfig& model, const Estimate& e, int64_t capacity_bytes, const RemedyResources& resources) {
  Verdict v;
  v.capacity_bytes = capacity_bytes;
  v.usable_bytes = usable_bytes(capacity_bytes, e.setup.safety_margin);
  v.fits = e.peak_bytes <= v.usable_bytes;
  v.headroom_bytes = v.usable_bytes - e.peak_bytes;
  int best = 0;
  for (int c = 0; c < kNumCategories; ++c) {
    if (static_cast<Category>(c) == Category::kOverhead) continue;
    if (e.totals[c] > e.totals[best]) best = c;
  }
  v.bottleneck = category_name(static_cast<Category>(best));
  RemedyRequest req;
  req.model = model;
  req.setup = e.setup;
  req.capacity_bytes = capacity_bytes;
  req.resources = resources;
  v.remedies = find_remedies(req);
  for (const auto& p : v.remedies.single) {
    v.fixes.push_back({remedy_name(p.remedies.front()), p.flags + ": " + p.description, p.saving_bytes, p.peak_bytes,
                       p.fits, describe_cost(p.cost)});
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
                     {"peak_bytes_after", f.peak_bytes_after}, {"fits", f.fits}, {"cost", f.cost}});
  }
  out["fixes"] = std::move(fixes);
  out["remedies"] = remedy_report_json(v.remedies);
  if (max_batch >= 0) out["max_batch"] = max_batch;
  if (!curve.empty()) {
    json points = json::array();
    for (const auto& p : curve) points.push_back({{"micro_batch_size", p.micro_batch_size}, {"peak_bytes", p.peak_bytes}});
    out["batch_curve"] = std::move(points);
  }
  return out.dump(2);
}

nlohmann::json remedy_report_json(const RemedyReport& r) {
  nlohmann::json combos = nlohmann::json::array();
  for (const auto& p : r.combinations) combos.push_back(plan_json(p));
  nlohmann::json more = nlohmann::json::array();
  for (const auto& p : r.more_hardware) more.push_back(plan_json(p));
  return {{"fits", r.fits},
          {"cost_model", cost_model_text(r.link_bytes_per_second)},
          {"link_bytes_per_second", r.link_bytes_per_second},
          {"host_memory_bytes", r.host_memory_bytes},
          {"combinations", std::move(combos)},
          {"more_hardware", std::move(more)}};
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
