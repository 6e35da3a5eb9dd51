// Text rendering of estimates, verdicts, batch curves and sweeps. Every size goes through
// format_bytes() (binary units, two decimals).
#include "oomkit/estimate/format.h"

#include <fmt/format.h>

#include "oomkit/core/units.h"
#include "oomkit/estimate/framework.h"

namespace oomkit {
namespace {

std::string with_commas(int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return (v < 0 ? "-" : "") + out;
}

std::string setup_line(const TrainingSetup& s) {
  std::string line = fmt::format("B={} T={} grad_accum={} precision={} optimizer={} attention={} checkpointing={}",
                                 s.micro_batch_size, s.seq_len, s.gradient_accumulation_steps, to_string(s.precision),
                                 to_string(s.optimizer), to_string(s.attention), to_string(s.checkpointing));
  if (s.checkpointing == Checkpointing::kFull && s.checkpoint_every > 1) line += fmt::format(" every {}", s.checkpoint_every);
  const auto& p = s.parallel;
  if (p.data_parallel > 1 || p.zero_stage > 0) line += fmt::format(" dp={} zero={}", p.data_parallel, p.zero_stage);
  if (p.tensor_parallel > 1) line += fmt::format(" tp={}", p.tensor_parallel);
  if (p.pipeline_parallel > 1) line += fmt::format(" pp={}", p.pipeline_parallel);
  if (p.offload_optimizer) line += " offload-optimizer";
  if (p.offload_parameters) line += " offload-params";
  if (s.lora.rank > 0) line += fmt::format(" lora_rank={}", s.lora.rank);
  if (s.framework != Framework::kOomkit) line += fmt::format(" framework={}", to_string(s.framework));
  if (s.framework == Framework::kMegatron && s.megatron.sequence_parallel) line += " sequence-parallel";
  line += fmt::format(" device={} method={}", s.cuda ? "cuda" : "cpu",
                      s.method == EstimateMethod::kDetailed ? "detailed" : "chapter");
  return line;
}

}  // namespace

std::string format_estimate(const Estimate& e) {
  std::string out;
  const ParameterCount& p = e.parameters;
  out += fmt::format("model: {} ({} parameters; d={} L={} h={} d_ff={} V={})\n", e.model.name, with_commas(p.total()),
                     e.model.n_embd, e.model.n_layer, e.model.n_head, e.model.d_ff, e.model.vocab_size);
  out += fmt::format("setup: {}\n", setup_line(e.setup));
  out += fmt::format("parameters by part: embeddings {}, attention {}, mlp {}, norms {}, head {}{}", with_commas(p.embeddings),
                     with_commas(p.attention), with_commas(p.mlp), with_commas(p.norms), with_commas(p.head),
                     e.model.tie_word_embeddings && p.head == 0 ? " (tied to the embedding)" : "");
  if (p.lora > 0) out += fmt::format(", lora {}", with_commas(p.lora));
  out += "\n\n";
  out += fmt::format("{:<44} {:>12}  {}\n", "item (per GPU)", "bytes", "formula");
  for (const auto& it : e.items) out += fmt::format("{:<44} {:>12}  {}\n", it.path, format_bytes(it.bytes), it.formula);
  out += "\ntotals\n";
  for (int c = 0; c < kNumCategories; ++c) {
    out += fmt::format("  {:<18} {:>12}\n", category_name(static_cast<Category>(c)), format_bytes(e.totals[c]));
  }
  out += fmt::format("\n{:<22} {:>14} {:>14} {:>14} {:>14}\n", "phase (allocated)", "first", "first peak", "steady",
                     "steady peak");
  for (const auto& ph : e.phases) {
    if (ph.step_kind != "first") continue;
    const PhasePrediction* steady = nullptr;
    for (const auto& q : e.phases) {
      if (q.step_kind == "steady" && q.phase == ph.phase) steady = &q;
    }
    out += fmt::format("{:<22} {:>14} {:>14} {:>14} {:>14}\n", ph.phase, format_bytes(ph.allocated_bytes),
                       format_bytes(ph.peak_bytes), steady ? format_bytes(steady->allocated_bytes) : "-",
                       steady ? format_bytes(steady->peak_bytes) : "-");
  }
  for (const auto& ph : e.phases) {
    if (ph.phase == "eval") {
      out += fmt::format("{:<22} {:>14} {:>14} {:>14} {:>14}\n", ph.phase, "-", "-", format_bytes(ph.allocated_bytes),
                         format_bytes(ph.peak_bytes));
    }
  }
  if (!e.host_items.empty()) {
    out += fmt::format("\n{:<44} {:>12}  {}\n", "host RAM (per node)", "bytes", "formula");
    for (const auto& it : e.host_items) out += fmt::format("{:<44} {:>12}  {}\n", it.path, format_bytes(it.bytes), it.formula);
  }
  if (!e.host_table.empty()) {
    const int64_t gpn = e.setup.deepspeed.gpus_per_node > 0 ? e.setup.deepspeed.gpus_per_node : e.setup.parallel.data_parallel;
    out += "\n" + format_deepspeed_states_table(e.host_table, e.host_counts, gpn, e.setup.parallel.data_parallel / gpn);
  }
  out += fmt::format("\npeak: {} at {}{}\n", format_bytes(e.peak_bytes), e.peak_phase,
                     e.total(Category::kOverhead) > 0 ? " (incl. " + format_bytes(e.total(Category::kOverhead)) + " overhead)" : "");
  return out;
}

std::string format_method_comparison(const Estimate& e, const Estimate& other) {
  const Estimate& chapter = e.setup.method == EstimateMethod::kChapter ? e : other;
  const Estimate& detailed = e.setup.method == EstimateMethod::kChapter ? other : e;
  const int64_t ca = chapter.total(Category::kActivations), da = detailed.total(Category::kActivations);
  return fmt::format(
      "chapter method (Korthikanti formula, all at once): activations {}, total {} | detailed: activations {}, peak {} ({:+.1f}% vs chapter)\n",
      format_bytes(ca), format_bytes(chapter.peak_bytes), format_bytes(da), format_bytes(detailed.peak_bytes),
      chapter.peak_bytes > 0 ? 100.0 * (static_cast<double>(detailed.peak_bytes) / static_cast<double>(chapter.peak_bytes) - 1.0) : 0.0);
}

std::string format_verdict(const Verdict& v, const std::string& gpu_label, double safety_margin) {
  std::string out;
  out += fmt::format("\n{}: capacity {}, usable {} ({:.0f}% kept free for fragmentation)\n", gpu_label,
                     format_bytes(v.capacity_bytes), format_bytes(v.usable_bytes), safety_margin * 100.0);
  out += fmt::format("verdict: {} (headroom {}), bottleneck: {}\n", v.fits ? "FITS" : "DOES NOT FIT",
                     format_bytes(v.headroom_bytes), v.bottleneck);
  if (v.fits) return out + "no fix needed\n";
  const RemedyReport& r = v.remedies;
  if (!v.fixes.empty()) {
    out += "fixes, each alone (re-estimated), cheapest first:\n";
    int i = 1;
    for (const auto& f : v.fixes) {
      out += fmt::format("  {:>2}. {:<24} saves {:>12} -> peak {:>12}{}  {}  [{}]\n", i++, f.name, format_bytes(f.saving_bytes),
                         format_bytes(f.peak_bytes_after), f.fits ? "  fits" : "", f.description, f.cost);
    }
  }
  const std::string hardware =
      fmt::format("{} GPU{}, host RAM {}", r.combinations.empty() ? 1 : r.combinations.front().gpus_needed,
                  r.combinations.empty() || r.combinations.front().gpus_needed == 1 ? "" : "s",
                  format_bytes(r.host_memory_bytes));
  if (const RemedyPlan* best = r.best()) {
    out += fmt::format("cheapest combination that fits ({}):\n  {}\n  predicted peak {} of {} usable; {}{}\n", hardware,
                       best->flags, format_bytes(best->peak_bytes), format_bytes(v.usable_bytes), describe_cost(best->cost),
                       best->host_bytes_needed > 0 ? "; host RAM " + format_bytes(best->host_bytes_needed) : "");
    for (size_t i = 1; i < r.combinations.size(); ++i) {
      const RemedyPlan& p = r.combinations[i];
      out += fmt::format("  or: {}  (peak {}; {})\n", p.flags, format_bytes(p.peak_bytes), describe_cost(p.cost));
    }
  } else {
    out += fmt::format("no combination of the fixes fits on the hardware given ({})\n", hardware);
  }
  for (const RemedyPlan& p : r.more_hardware) {
    out += fmt::format("with more hardware ({} GPU{}{}):\n  {}\n  predicted peak {}; {}\n", p.gpus_needed,
                       p.gpus_needed == 1 ? "" : "s",
                       p.host_bytes_needed > 0 ? ", host RAM " + format_bytes(p.host_bytes_needed) : "", p.flags,
                       format_bytes(p.peak_bytes), describe_cost(p.cost));
  }
  out += cost_model_text(r.link_bytes_per_second) + "\n";
  return out;
}

std::string format_batch_curve(int64_t max_batch, const std::vector<BatchPoint>& curve, int64_t usable_bytes) {
  const std::string verdict = max_batch > 0 ? std::to_string(max_batch) : "none (even a micro-batch of 1 does not fit)";
  std::string out = fmt::format("\nlargest micro-batch that fits: {}\n{:>10} {:>14}\n", verdict, "batch", "peak");
  for (const auto& p : curve) {
    out += fmt::format("{:>10} {:>14}{}\n", p.micro_batch_size, format_bytes(p.peak_bytes),
                       p.peak_bytes <= usable_bytes ? "" : "  (over the usable " + format_bytes(usable_bytes) + ")");
  }
  return out;
}

std::string format_sweep(const std::vector<SweepRow>& rows, const TrainingSetup& s) {
  std::string out = fmt::format("sweep: {}\n{:<14} {:>16} {:>6} {:>12} {:>12} {:>12}\n", setup_line(s), "model", "parameters",
                                "T", "static", "activations", "peak");
  for (const auto& r : rows) {
    out += fmt::format("{:<14} {:>16} {:>6} {:>12} {:>12} {:>12}\n", r.model, with_commas(r.parameters), r.seq_len,
                       format_bytes(r.static_bytes), format_bytes(r.activation_bytes), format_bytes(r.peak_bytes));
  }
  return out;
}

}  // namespace oomkit
