// The remedies catalogue (estimate/remedies.h) and the three callers that must agree with it:
// `estimate`'s verdict, `diagnose`'s estimate-linked findings and the live playbook's recovery.
// Random cases are seeded (std::mt19937 with fixed seeds) on small GPT-2 shapes so that the
// brute force over every remedy subset stays fast.
#include <gtest/gtest.h>

#include <random>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/playbook.h"
#include "oomkit/estimate/gpus.h"
#include "oomkit/estimate/remedies.h"
#include "oomkit/estimate/verdict.h"

using namespace oomkit;

namespace {

struct Case {
  ModelConfig model;
  TrainingSetup setup;
  int64_t capacity_bytes = 0;
  RemedyResources resources;
  RemedyScope scope;
};

template <typename T>
T pick(std::mt19937& rng, std::initializer_list<T> values) {
  std::uniform_int_distribution<size_t> d(0, values.size() - 1);
  return *(values.begin() + d(rng));
}

// A small GPT-2 and a setup that does not fit: the capacity is a random 20-95% of what the
// setup needs with its margin.
Case random_case(std::mt19937& rng, bool random_scope) {
  Case c;
  c.model.name = "random-gpt2";
  c.model.n_embd = pick<int64_t>(rng, {64, 128, 256});
  c.model.n_head = pick<int64_t>(rng, {2, 4});
  c.model.n_kv_head = c.model.n_head;
  c.model.n_layer = pick<int64_t>(rng, {2, 3, 4, 6});
  c.model.d_ff = 4 * c.model.n_embd;
  c.model.vocab_size = pick<int64_t>(rng, {256, 1000, 8000});
  c.model.n_positions = 1024;
  TrainingSetup& s = c.setup;
  s.micro_batch_size = pick<int64_t>(rng, {1, 2, 3, 4, 6, 8, 12, 16});
  s.seq_len = pick<int64_t>(rng, {64, 128, 256, 512, 1024});
  s.gradient_accumulation_steps = pick<int64_t>(rng, {1, 1, 2, 3});
  s.precision = pick(rng, {Precision::kFp32, Precision::kFp32, Precision::kBf16Mixed, Precision::kBf16});
  s.optimizer = pick(rng, {OptimizerKind::kAdamW, OptimizerKind::kAdamW, OptimizerKind::kSgd, OptimizerKind::kLion,
                           OptimizerKind::kAdam8bit, OptimizerKind::kAdafactor});
  s.attention = pick(rng, {AttentionKernel::kEager, AttentionKernel::kEager, AttentionKernel::kSdpa});
  s.checkpointing = pick(rng, {Checkpointing::kNone, Checkpointing::kNone, Checkpointing::kSelective, Checkpointing::kFull});
  s.parallel.data_parallel = pick<int64_t>(rng, {1, 1, 2});
  s.overhead_bytes = pick<int64_t>(rng, {0, 8 * kMiB});
  c.resources.gpus = s.parallel.data_parallel * pick<int64_t>(rng, {1, 1, 2});
  const int64_t peak = estimate_memory(c.model, s).peak_bytes;
  std::uniform_real_distribution<double> frac(0.2, 0.95);
  c.capacity_bytes = static_cast<int64_t>(static_cast<double>(peak) * frac(rng) / (1.0 - s.safety_margin));
  c.resources.host_memory_bytes = static_cast<int64_t>(static_cast<double>(peak) * pick<double>(rng, {0.05, 0.5, 4.0}));
  if (random_scope) {
    std::bernoulli_distribution keep(0.7);
    for (int k = 0; k < kNumRemedyKinds; ++k) c.scope.allow(static_cast<RemedyKind>(k), keep(rng));
  }
  return c;
}

RemedyRequest request_of(const Case& c) {
  RemedyRequest r;
  r.model = c.model;
  r.setup = c.setup;
  r.capacity_bytes = c.capacity_bytes;
  r.resources = c.resources;
  r.scope = c.scope;
  return r;
}

int axis(RemedyKind k) {
  switch (k) {
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
    default: return 10 + static_cast<int>(k);
  }
}

// Every subset of `kinds` with at most one remedy per axis.
void subsets(const std::vector<RemedyKind>& kinds, size_t i, std::vector<RemedyKind>& cur,
             std::vector<std::vector<RemedyKind>>& out) {
  if (i == kinds.size()) {
    if (!cur.empty()) out.push_back(cur);
    return;
  }
  subsets(kinds, i + 1, cur, out);
  for (RemedyKind k : cur) {
    if (axis(k) == axis(kinds[i])) return;
  }
  cur.push_back(kinds[i]);
  subsets(kinds, i + 1, cur, out);
  cur.pop_back();
}

std::vector<std::string> flags_of(const std::vector<RemedyPlan>& plans) {
  std::vector<std::string> out;
  for (const auto& p : plans) out.push_back(p.flags);
  return out;
}

}  // namespace

// The usable-bytes rule and the micro-batch rule: divisors of B below B, largest first, and the
// accumulation grows so that B·accumulation stays the same.
TEST(Remedies, UsableAndMicroBatchRules) {
  EXPECT_EQ(usable_bytes(100 * kGB, 0.15), 85 * kGB);
  EXPECT_EQ(smaller_micro_batches(12), (std::vector<int64_t>{6, 4, 3, 2, 1}));
  EXPECT_EQ(smaller_micro_batches(16), (std::vector<int64_t>{8, 4, 2, 1}));
  EXPECT_EQ(smaller_micro_batches(7), (std::vector<int64_t>{1}));
  EXPECT_TRUE(smaller_micro_batches(1).empty());
  TrainingSetup s;
  s.micro_batch_size = 12;
  s.gradient_accumulation_steps = 3;
  for (int64_t b : smaller_micro_batches(12)) {
    const TrainingSetup t = with_micro_batch(s, b);
    EXPECT_EQ(t.micro_batch_size * t.gradient_accumulation_steps, 36) << b;
  }
  EXPECT_EQ(micro_batch_flags(with_micro_batch(s, 4)), "--batch-size 4 --grad-accum 9");
}

// The search is minimal: over seeded random small cases (random scopes, GPUs and host RAM), a
// brute force over every subset of the applicable remedies finds no fitting plan cheaper than
// the catalogue's best, and finds one exactly when the catalogue does. Every plan's peak is
// the estimator's on the plan's setup.
TEST(Remedies, CombinationSearchIsMinimalByBruteForce) {
  std::mt19937 rng(20261130);
  int with_plan = 0;
  for (int n = 0; n < 14; ++n) {
    const Case c = random_case(rng, n % 2 == 1);
    const RemedyRequest req = request_of(c);
    const RemedyReport report = find_remedies(req);
    ASSERT_FALSE(report.fits);
    std::vector<std::vector<RemedyKind>> all;
    std::vector<RemedyKind> cur;
    RemedyResources res = c.resources;
    subsets(applicable_remedies(c.setup, c.scope, res), 0, cur, all);
    std::optional<RemedyPlan> brute;
    for (const auto& kinds : all) {
      RemedyPlan p;
      try {
        p = evaluate_remedies(req, kinds);
      } catch (const InputError&) {
        continue;
      }
      if (p.fits && (!brute || cheaper(p.cost, brute->cost))) brute = p;
    }
    ASSERT_EQ(brute.has_value(), report.best() != nullptr) << "case " << n;
    if (!brute) continue;
    ++with_plan;
    const RemedyPlan& best = *report.best();
    EXPECT_TRUE(best.fits);
    EXPECT_FALSE(cheaper(brute->cost, best.cost)) << "case " << n << ": brute " << brute->flags << " vs " << best.flags;
    EXPECT_FALSE(cheaper(best.cost, brute->cost)) << "case " << n;
    EXPECT_LE(best.peak_bytes, report.usable_bytes);
    EXPECT_EQ(best.peak_bytes, estimate_memory(c.model, best.setup).peak_bytes);
    EXPECT_EQ(best.setup.micro_batch_size * best.setup.gradient_accumulation_steps,
              c.setup.micro_batch_size * c.setup.gradient_accumulation_steps);
    for (size_t i = 1; i < report.combinations.size(); ++i) {
      EXPECT_FALSE(cheaper(report.combinations[i].cost, report.combinations[i - 1].cost));
    }
  }
  EXPECT_GE(with_plan, 5);  // the seed gives enough cases with a fitting plan to mean something
}

// LLaMA-2-7B in fp32 AdamW at T = 4096 on an 80 GB A100: no single fix fits, a combination does,
// and its predicted peak is the estimator's for the combined setup. With little host RAM the
// cheapest combination changes numerics (pure bf16 with a smaller optimizer: flagged); with
// enough host RAM an exact plan (offload) fits and ranks first.
TEST(Remedies, Llama7bFp32At4096GetsAFittingCombination) {
  RemedyRequest req;
  req.model = resolve_model_config("llama-2-7b");
  req.setup.seq_len = 4096;
  req.capacity_bytes = find_gpu("a100-80gb").capacity_bytes;
  req.resources.host_memory_bytes = 16 * kGiB;
  const RemedyReport small_host = find_remedies(req);
  ASSERT_FALSE(small_host.fits);
  for (const auto& p : small_host.single) {
    if (p.host_bytes_needed <= req.resources.host_memory_bytes) {
      EXPECT_FALSE(p.fits) << p.flags;
    }
  }
  ASSERT_NE(small_host.best(), nullptr);
  const RemedyPlan& best = *small_host.best();
  EXPECT_GE(best.remedies.size(), 2u);
  EXPECT_LE(best.peak_bytes, small_host.usable_bytes);
  EXPECT_LT(best.peak_bytes, small_host.peak_bytes);
  EXPECT_EQ(best.peak_bytes, estimate_memory(req.model, best.setup).peak_bytes);
  EXPECT_TRUE(best.changes_numerics());
  EXPECT_FALSE(small_host.more_hardware.empty());  // offload with more host RAM, ZeRO with more GPUs
  for (const auto& p : small_host.more_hardware) {
    EXPECT_TRUE(p.gpus_needed > 1 || p.host_bytes_needed > req.resources.host_memory_bytes) << p.flags;
  }

  req.resources.host_memory_bytes = 512 * kGiB;
  const RemedyReport big_host = find_remedies(req);
  ASSERT_NE(big_host.best(), nullptr);
  EXPECT_EQ(big_host.best()->cost.numerics, Numerics::kExact);
  EXPECT_TRUE(big_host.best()->has(RemedyKind::kOffloadOptimizer) || big_host.best()->has(RemedyKind::kOffloadParameters));
  EXPECT_TRUE(cheaper(big_host.best()->cost, best.cost));
}

// A run that fits gets no fixes: the verdict says so and lists nothing.
TEST(Remedies, FittingRunListsNoFixes) {
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s;
  s.seq_len = 512;
  const Estimate e = estimate_memory(m, s);
  const Verdict v = judge(m, e, 80 * kGB);
  EXPECT_TRUE(v.fits);
  EXPECT_TRUE(v.fixes.empty());
  EXPECT_TRUE(v.remedies.combinations.empty());
  const auto j = nlohmann::json::parse(verdict_to_json(e, v));
  EXPECT_TRUE(j["fixes"].empty());
  EXPECT_TRUE(j["remedies"]["fits"].get<bool>());
  EXPECT_EQ(j["remedies"]["link_bytes_per_second"].get<double>(), kDefaultLinkBytesPerSecond);
  EXPECT_GT(j["remedies"]["host_memory_bytes"].get<int64_t>(), 0);
}

// Over seeded random setups, estimate's verdict lists the catalogue's single fixes in its order,
// and diagnose's estimate finding lists the same fixes in the same order, then the catalogue's
// combinations, with the catalogue's best as its fix.
TEST(Remedies, EstimateAndDiagnoseRankAsTheCatalogue) {
  std::mt19937 rng(7);
  for (int n = 0; n < 12; ++n) {
    Case c = random_case(rng, false);
    const RemedyRequest req = request_of(c);
    const RemedyReport report = find_remedies(req);

    const Estimate e = estimate_memory(c.model, c.setup);
    const Verdict v = judge(c.model, e, c.capacity_bytes, c.resources);
    ASSERT_EQ(v.fixes.size(), report.single.size());
    for (size_t i = 0; i < v.fixes.size(); ++i) {
      EXPECT_EQ(v.fixes[i].name, remedy_name(report.single[i].remedies.front()));
      EXPECT_EQ(v.fixes[i].description.substr(0, report.single[i].flags.size()), report.single[i].flags);
    }
    EXPECT_EQ(flags_of(v.remedies.combinations), flags_of(report.combinations));

    RunSettings run{c.model, c.setup, c.capacity_bytes, c.resources, c.scope};
    std::vector<Finding> findings;
    std::vector<std::string> notes;
    add_estimate_findings(run, estimate_memory, c.capacity_bytes, nullptr, findings, notes);
    ASSERT_FALSE(findings.empty());
    const Finding& f = findings.front();
    std::vector<std::string> singles, combos;
    for (const auto& ev : f.evidence) {
      const auto colon = ev.find(": peak ");
      if (ev.rfind("fix ", 0) == 0) singles.push_back(ev.substr(4, colon - 4));
      if (ev.rfind("combination ", 0) == 0) combos.push_back(ev.substr(12, colon - 12));
    }
    EXPECT_EQ(singles, flags_of(report.single)) << "case " << n;
    EXPECT_EQ(combos, flags_of(report.combinations)) << "case " << n;
    if (report.best()) {
      EXPECT_EQ(f.fix.rfind(report.best()->flags + " (", 0), 0u) << f.fix;
      EXPECT_EQ(f.saving_bytes, report.best()->saving_bytes);
    }
  }
}

// `--on-oom recover` applies the catalogue's best plan among what a running trainer can change:
// with probes that succeed exactly when the estimator says the setup fits, the playbook's
// recovery is the catalogue's best within RemedyScope::running_trainer(), and neither the probes
// nor the advice (RemedyScope::trainer_advice()) offer sdpa where the build lacks it.
TEST(Remedies, RecoverChoosesTheCataloguesBestApplicable) {
  std::mt19937 rng(99);
  int recovered = 0;
  for (int n = 0; n < 16; ++n) {
    Case c = random_case(rng, false);
    c.setup.precision = Precision::kFp32;  // the trainer's precisions: fp32 -> mixed
    c.setup.optimizer = OptimizerKind::kAdamW;
    c.setup.parallel.data_parallel = 1;
    c.resources.gpus = 1;
    if (c.setup.checkpointing == Checkpointing::kSelective) c.setup.checkpointing = Checkpointing::kNone;
    const int64_t peak = estimate_memory(c.model, c.setup).peak_bytes;
    c.capacity_bytes = static_cast<int64_t>(static_cast<double>(peak) * 0.6 / (1.0 - c.setup.safety_margin));
    c.scope = RemedyScope::running_trainer(/*sdpa_built=*/false, /*cuda=*/true);
    const RemedyReport report = find_remedies(request_of(c));

    PlaybookInput in;
    in.run = {c.model, c.setup, c.capacity_bytes, c.resources, RemedyScope::trainer_advice(false)};
    in.estimate = estimate_memory;
    in.recover_scope = c.scope;
    const int64_t usable = usable_bytes(c.capacity_bytes, c.setup.safety_margin);
    LiveProbes probes;
    probes.run_step = [&](const ProbeRequest& r) {
      EXPECT_EQ(r.setup.attention, c.setup.attention) << r.name;  // sdpa is not built
      const int64_t p = estimate_memory(c.model, r.setup).peak_bytes;
      return ProbeResult{p <= usable, p, p <= usable ? "" : "out of memory"};
    };
    const PlaybookResult result = run_playbook(in, probes);
    ASSERT_EQ(result.recovery.has_value(), report.best() != nullptr) << "case " << n;
    if (!report.best()) continue;
    ++recovered;
    const TrainingSetup& got = result.recovery->setup;
    const TrainingSetup& want = report.best()->setup;
    EXPECT_EQ(got.micro_batch_size, want.micro_batch_size) << "case " << n;
    EXPECT_EQ(got.gradient_accumulation_steps, want.gradient_accumulation_steps);
    EXPECT_EQ(got.precision, want.precision);
    EXPECT_EQ(got.checkpointing, want.checkpointing);
    EXPECT_EQ(got.attention, want.attention);
    for (const auto& f : result.diagnosis.findings) {
      EXPECT_EQ(f.fix.find("--attention sdpa"), std::string::npos) << f.fix;
      for (const auto& ev : f.evidence) EXPECT_EQ(ev.find("--attention sdpa"), std::string::npos) << ev;
    }
  }
  EXPECT_GE(recovered, 5);
}
