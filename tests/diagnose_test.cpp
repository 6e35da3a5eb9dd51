// Tests of the classifier (diagnose_oom / diagnose_log), the estimator tie-in, the live
// playbook engine (fake probes, synthetic timelines) and the oom_report.json schema.
//
// The estimator here is a stand-in written from the seed chapter's formulas (NOTES.md), not the
// estimator module, so these tests pin the diagnoser's logic against an independent computation:
//   P = V*d + L*(4d^2 + 2*d*d_ff)
//   static bytes/parameter: fp32 weights 4 + grads 4 (bf16 pure: 2 + 2); AdamW 8 (bf16 pure: 4),
//   adam-8bit 2, sgd 0; --offload-optimizer moves the optimizer state off the GPU; ZeRO-3 over N
//   GPUs divides static memory by N.
//   activations (chapter, 2-byte): (34*d + 5*h*T)*B*T*L, x2 in fp32; SDPA drops the 5*h*T term
//   (no (B,h,T,T) scores); full checkpointing keeps 2*B*T*d per layer plus one layer's activations.
#include <cmath>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/phases.h"
#include "oomkit/core/units.h"
#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/oom_report.h"
#include "oomkit/diagnose/playbook.h"
#include "oomkit/diagnose/word_prior.h"

using namespace oomkit;

namespace {

Estimate chapter_estimate(const ModelConfig& m, const TrainingSetup& s) {
  const int64_t d = m.n_embd, L = m.n_layer, h = m.n_head, V = m.vocab_size, dff = m.d_ff;
  const int64_t B = s.micro_batch_size, T = s.seq_len;
  const int64_t P = V * d + L * (4 * d * d + 2 * d * dff);
  const bool pure_bf16 = s.precision == Precision::kBf16;
  int64_t opt_per_param = 8;
  if (s.optimizer == OptimizerKind::kAdam8bit) opt_per_param = 2;
  if (s.optimizer == OptimizerKind::kSgd) opt_per_param = 0;
  if (pure_bf16 && s.optimizer == OptimizerKind::kAdamW) opt_per_param = 4;
  int64_t params = P * (pure_bf16 ? 2 : 4), grads = P * (pure_bf16 ? 2 : 4);
  int64_t optim = s.parallel.offload_optimizer ? 0 : P * opt_per_param;
  if (s.parallel.zero_stage == 3 && s.parallel.data_parallel > 1) {
    params /= s.parallel.data_parallel;
    grads /= s.parallel.data_parallel;
    optim /= s.parallel.data_parallel;
  }
  const int64_t attn_term = s.attention == AttentionKernel::kEager ? 5 * h * T : 0;
  const int64_t per_layer = (34 * d + attn_term) * B * T;
  int64_t acts = s.checkpointing == Checkpointing::kFull ? 2 * B * T * d * L + per_layer : per_layer * L;
  if (s.precision == Precision::kFp32) acts *= 2;
  Estimate e;
  e.model = m;
  e.setup = s;
  e.totals[static_cast<int>(Category::kParameters)] = params;
  e.totals[static_cast<int>(Category::kGradients)] = grads;
  e.totals[static_cast<int>(Category::kOptimizerState)] = optim;
  e.totals[static_cast<int>(Category::kActivations)] = acts;
  e.totals[static_cast<int>(Category::kOverhead)] = s.overhead_bytes;
  e.peak_bytes = params + grads + optim + acts + s.overhead_bytes;
  e.peak_phase = "steady/after_forward";
  return e;
}

ModelConfig gpt2_small() { return ModelConfig{}; }  // the defaults are GPT-2 small

ModelConfig gpt2_xl() {
  ModelConfig m;
  m.name = "gpt2-xl";
  m.n_embd = 1600;
  m.n_layer = 48;
  m.n_head = 25;
  m.n_kv_head = 25;
  m.d_ff = 6400;
  return m;
}

bool has(const Diagnosis& d, OomCause c) {
  for (const auto& f : d.findings) {
    if (f.category == c) return true;
  }
  return false;
}

const Finding* get(const Diagnosis& d, OomCause c) {
  for (const auto& f : d.findings) {
    if (f.category == c) return &f;
  }
  return nullptr;
}

std::vector<nlohmann::json> cases() {
  std::ifstream in(std::string(OOMKIT_SOURCE_DIR) + "/tests/data/oom-cases/cases.jsonl");
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

}  // namespace

// cause_name()/cause_from_name() use the cases README's terms and round-trip.
TEST(Causes, NamesRoundTrip) {
  for (const char* n : {"fragmentation", "activations_batch", "activations_seqlen", "static_model_too_large",
                        "optimizer_state", "leak_across_steps", "eval_without_no_grad", "other_process",
                        "multi_gpu_imbalance", "generation_kv_cache", "cpu_ram", "other"}) {
    auto c = cause_from_name(n);
    ASSERT_TRUE(c.has_value()) << n;
    EXPECT_STREQ(cause_name(*c), n);
  }
  EXPECT_FALSE(cause_from_name("weather").has_value());
}

// Every real case: where the message carries enough evidence (the CPU allocator), the top
// finding is the thread's cause with high confidence; elsewhere the answer is honestly ambiguous
// and lists the thread's cause among its candidates, each with a probe. Fragmentation in
// pytorch-152135 (3.87 GiB cached for a 250 MiB request) ranks first but at medium confidence:
// defragmenting gives back only 4.9% of the 79 GiB device while tensors hold 94% of it, and the
// thread reports the OOM persisting with expandable_segments (issue 10 item 2: fragmentation is
// rated by what it could give back of the device, not only by its ratio to the request).
TEST(DiagnoseCases, TopFindingOrHonestCandidates) {
  const std::map<std::string, bool> confident = {{"anomalib-1094-padim-memory-bank", true}};
  const std::map<std::string, bool> first_but_ambiguous = {{"pytorch-152135-fragmentation-after-hours", true}};
  for (const auto& c : cases()) {
    const std::string id = c["id"];
    SCOPED_TRACE(id);
    const auto ds = diagnose_log(c["message"].get<std::string>());
    ASSERT_EQ(ds.size(), 1u);
    const Diagnosis& d = ds[0];
    ASSERT_FALSE(d.findings.empty());
    const auto expected = *cause_from_name(c["category"].get<std::string>());
    if (confident.count(id)) {
      EXPECT_FALSE(d.ambiguous());
      EXPECT_EQ(d.findings.front().category, expected);
      EXPECT_STREQ(d.findings.front().confidence(), "high");
    } else {
      EXPECT_TRUE(d.ambiguous());
      EXPECT_TRUE(has(d, expected)) << "candidates lack " << c["category"];
      if (first_but_ambiguous.count(id)) {
        EXPECT_EQ(d.findings.front().category, expected);
      }
      EXPECT_LE(d.findings.size(), 6u);
      for (const auto& f : d.findings) EXPECT_FALSE(f.probe.empty()) << cause_name(f.category);
    }
  }
}

// The fragmentation case names the fix and explains that "Process 1007710" is this process seen
// under another PID (it covers reserved 78.64 GiB plus a context), not another job.
TEST(DiagnoseCases, FragmentationEvidenceAndPidNote) {
  const auto ds = diagnose_log(cases()[0]["message"].get<std::string>());
  const Finding& top = ds[0].findings.front();
  EXPECT_NE(top.fix.find("expandable_segments:True"), std::string::npos);
  EXPECT_EQ(top.playbook_step, 1);
  ASSERT_FALSE(top.evidence.empty());
  EXPECT_NE(top.evidence[0].find("3.87 GiB"), std::string::npos);
  EXPECT_FALSE(has(ds[0], OomCause::kOtherProcess));
  bool pid_note = false;
  for (const auto& n : ds[0].notes) pid_note = pid_note || n.find("PID namespace") != std::string::npos;
  EXPECT_TRUE(pid_note);
}

// Other processes holding a quarter of the device make other_process the top finding.
TEST(DiagnoseMessage, OtherProcessFromProcessLines) {
  const auto ds = diagnose_log(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
      "23.65 GiB of which 1.10 GiB is free. Process 4242 has 12.00 GiB memory in use. Including non-PyTorch memory, "
      "this process has 10.50 GiB memory in use. Of the allocated memory 9.80 GiB is allocated by PyTorch, and "
      "200.00 MiB is reserved by PyTorch but unallocated.");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].findings.front().category, OomCause::kOtherProcess);
  EXPECT_STREQ(ds[0].findings.front().confidence(), "high");
}

// Log context decides between candidates: validation lines before a numberless OOM point to
// eval without no-grad; generate() to the KV cache; ranks + torch.load on a GPU-0 OOM to
// multi-GPU imbalance; a rising "mem" column to a leak.
TEST(DiagnoseContext, CluesRankTheCandidates) {
  auto top = [](const std::string& log) { return diagnose_log(log).at(0).findings.front().category; };
  EXPECT_EQ(top("epoch 3 train loss 0.41\nrunning validation\nmodel.eval()\n"
                "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCStorage.cu:58\n"),
            OomCause::kEvalWithoutNoGrad);
  EXPECT_EQ(top("  File \"gen.py\", line 30, in <module>\n    out = model.generate(ids, max_new_tokens=4096)\n"
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of "
                "23.65 GiB of which 20.00 MiB is free. Of the allocated memory 22.90 GiB is allocated by PyTorch, and "
                "100.00 MiB is reserved by PyTorch but unallocated.\n"),
            OomCause::kGenerationKvCache);
  EXPECT_EQ(top("[rank3] resuming from checkpoint\n  File \"train.py\", line 12, in <module>\n"
                "    optimizer.load_state_dict(torch.load(optimizer_path))\n" +
                cases()[5]["message"].get<std::string>() + "\n"),
            OomCause::kMultiGpuImbalance);
  std::string leak_log;
  for (int s = 1; s <= 8; ++s) leak_log += "step " + std::to_string(s * 100) + " | loss 2.1 | mem " + std::to_string(10 + s) + ".00 GiB\n";
  leak_log += "RuntimeError: CUDA error: out of memory\n";
  const auto d = diagnose_log(leak_log).at(0);
  EXPECT_EQ(d.findings.front().category, OomCause::kLeakAcrossSteps);
  bool per_step = false;
  for (const auto& e : d.findings.front().evidence) per_step = per_step || e.find("10.24 MiB per step") != std::string::npos;
  EXPECT_TRUE(per_step);  // 1 GiB per 100 steps
}

// With the run's settings, the estimator decides. GPT-2 XL (1.56e9 parameters by the formula)
// in fp32 AdamW needs 16 B/param = ~23 GiB of static memory: on a 16 GiB GPU that is the verdict,
// with sharding/offload options and a predicted saving.
TEST(DiagnoseEstimate, StaticMemoryVerdict) {
  RunSettings run{gpt2_xl(), TrainingSetup{}, 16 * kGiB, RemedyResources{}, RemedyScope{}};
  run.setup.micro_batch_size = 4;
  run.setup.seq_len = 512;
  const auto ds = diagnose_log("RuntimeError: CUDA error: out of memory", {run, chapter_estimate});
  const Finding& top = ds.at(0).findings.front();
  EXPECT_EQ(top.category, OomCause::kStaticModelTooLarge);
  EXPECT_STREQ(top.confidence(), "high");
  ASSERT_TRUE(top.saving_bytes.has_value());
  EXPECT_GT(*top.saving_bytes, 0);
  bool zero = false;
  for (const auto& e : top.evidence) zero = zero || e.find("--zero 3") != std::string::npos;
  EXPECT_TRUE(zero);
  // The probe must not contradict a fix that changes the batch beside a static-memory cut: it
  // says no batch setting *alone* fixes this (it used to say none "can fix this").
  EXPECT_EQ(top.probe.find("can fix this"), std::string::npos) << top.probe;
  EXPECT_NE(top.probe.find("alone fixes this: the fix must shrink parameters, gradients or optimizer state"),
            std::string::npos)
      << top.probe;
}

// Static fits, activations do not. At T = 128 the (B,h,T,T) term is 5*12*128 = 7680 of
// 34*768 + 7680 = 33792 per token-layer (23%): batch. At T = 2048 it is 122880 of 148992 (82%):
// sequence length. Each fix's saving is the estimate re-run with it.
TEST(DiagnoseEstimate, BatchVersusSequenceLength) {
  RunSettings batch{gpt2_small(), TrainingSetup{}, 8 * kGiB, RemedyResources{}, RemedyScope{}};
  batch.setup.micro_batch_size = 64;
  batch.setup.seq_len = 128;
  const Finding top_b = diagnose_log("RuntimeError: CUDA error: out of memory", {batch, chapter_estimate}).at(0).findings.front();
  EXPECT_EQ(top_b.category, OomCause::kActivationsBatch);
  EXPECT_NE(top_b.fix.find("--batch-size"), std::string::npos);
  // B 64 -> 32 halves the activations: saving = half of 2*(34*768 + 7680)*64*128*12 bytes.
  const int64_t acts = 2LL * (34 * 768 + 5 * 12 * 128) * 64 * 128 * 12;
  EXPECT_EQ(top_b.saving_bytes, acts / 2);

  RunSettings seq{gpt2_small(), TrainingSetup{}, 8 * kGiB, RemedyResources{}, RemedyScope{}};
  seq.setup.micro_batch_size = 2;
  seq.setup.seq_len = 2048;
  const Finding top_s = diagnose_log("RuntimeError: CUDA error: out of memory", {seq, chapter_estimate}).at(0).findings.front();
  EXPECT_EQ(top_s.category, OomCause::kActivationsSeqlen);
  EXPECT_NE(top_s.fix.find("--attention sdpa"), std::string::npos);
}

// When the estimate fits the capacity, the causes outside the model's step move up: with 3x the
// estimated peak allocated, leak and eval outrank activations.
TEST(DiagnoseEstimate, EstimateFitsPointsOutsideTheStep) {
  RunSettings run{gpt2_small(), TrainingSetup{}, 12 * kGiB, RemedyResources{}, RemedyScope{}};
  run.setup.micro_batch_size = 4;
  run.setup.seq_len = 256;
  const Estimate e = chapter_estimate(run.model, run.setup);
  const std::string msg = fmt::format(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of "
      "12.00 GiB of which 10.00 MiB is free. Of the allocated memory {:.2f} GiB is allocated by PyTorch, and 50.00 MiB "
      "is reserved by PyTorch but unallocated.", 3.0 * static_cast<double>(e.peak_bytes) / kGiB);
  const Diagnosis d = diagnose_log(msg, {run, chapter_estimate}).at(0);
  const Finding* leak = get(d, OomCause::kLeakAcrossSteps);
  const Finding* batch = get(d, OomCause::kActivationsBatch);
  ASSERT_TRUE(leak && batch);
  EXPECT_GT(leak->score, batch->score);
}

namespace {

// A synthetic run: static memory S, activations A per sample, a budget. A probe step fits when
// S + B*A*(checkpointing ? 0.5 : 1)*(bf16 ? 0.5 : 1) <= budget.
struct FakeTrainer {
  int64_t static_bytes = 0;
  int64_t per_sample_bytes = 0;
  int64_t budget_bytes = 0;
  int calls = 0;
  ProbeResult operator()(const ProbeRequest& r) {
    ++calls;
    double acts = static_cast<double>(per_sample_bytes * r.setup.micro_batch_size);
    if (r.setup.checkpointing == Checkpointing::kFull) acts *= 0.5;
    if (r.setup.precision == Precision::kBf16Mixed) acts *= 0.5;
    const int64_t peak = static_bytes + static_cast<int64_t>(acts);
    return {peak <= budget_bytes, peak <= budget_bytes ? peak : 0, peak <= budget_bytes ? "" : "out of memory"};
  }
};

std::vector<TimelineMark> steady_marks(int steps, int64_t start_bytes, int64_t growth_per_step) {
  std::vector<TimelineMark> marks;
  for (int s = 0; s < steps; ++s) {
    for (Phase p : {Phase::kStepStart, Phase::kAfterForward, Phase::kAfterLoss, Phase::kAfterBackward,
                    Phase::kAfterOptimizerStep, Phase::kAfterZeroGrad}) {
      TimelineMark m;
      m.step = s;
      m.phase = std::string(phase_name(p));
      m.allocated_bytes = start_bytes + s * growth_per_step + (p == Phase::kAfterForward ? 100 * kMiB : 0);
      marks.push_back(m);
    }
  }
  return marks;
}

}  // namespace

// The phase after the last mark of the failed step is the one that crossed the limit.
TEST(Playbook, CrossingPhase) {
  std::vector<TimelineMark> marks = steady_marks(2, 100 * kMiB, 0);
  EXPECT_EQ(crossing_phase({}), "");
  marks.push_back({});
  marks.back().phase = "step_start";
  EXPECT_EQ(crossing_phase(marks), "forward");
  marks.back().phase = "after_loss";
  EXPECT_EQ(crossing_phase(marks), "backward");
  marks.back().phase = "after_backward";
  EXPECT_EQ(crossing_phase(marks), "optimizer_step");
}

// Micro-batch too large: micro-batch 1 fits, 16 does not, 8 does not, 4 does; checkpointing
// and bf16 also fail at 16. The recovery is the cheapest working fix, accumulation at the
// largest micro-batch that fits, keeping the effective batch 16.
TEST(Playbook, BatchTooLargeRecoversByAccumulation) {
  FakeTrainer t{200 * kMiB, 100 * kMiB, 700 * kMiB};
  PlaybookInput in;
  in.run.setup.micro_batch_size = 16;
  in.run.capacity_bytes = 700 * kMiB;
  in.marks = steady_marks(3, 200 * kMiB, 0);
  in.marks.push_back(in.marks.front());
  in.marks.back().step = 3;
  const PlaybookResult r = run_playbook(in, {std::ref(t)});
  ASSERT_TRUE(r.recovery.has_value());
  EXPECT_FALSE(r.recovery->applied);
  EXPECT_EQ(r.recovery->to, "--batch-size 4 --grad-accum 4");
  EXPECT_EQ(r.recovery->from, "--batch-size 16 --grad-accum 1");
  EXPECT_EQ(r.recovery->setup.micro_batch_size * r.recovery->setup.gradient_accumulation_steps, 16);
  std::vector<std::string> names;
  for (const auto& p : r.probes) names.push_back(p.name + (p.ok ? ":ok" : ":oom"));
  EXPECT_EQ(names, (std::vector<std::string>{"micro_batch_1:ok", "checkpointing_full:oom", "micro_batch_8_accum_2:oom",
                                              "micro_batch_4_accum_4:ok", "bf16_mixed:oom"}));
  EXPECT_EQ(r.diagnosis.findings.front().category, OomCause::kActivationsBatch);
}

// Model too large at batch 1: the micro-batch-1 probe fails, probing stops, the verdict is
// static memory with sharding/offload advice, and nothing is "recovered".
TEST(Playbook, StaticTooLargeStopsAtMicroBatchOne) {
  FakeTrainer t{900 * kMiB, 10 * kMiB, 700 * kMiB};
  PlaybookInput in;
  in.run.setup.micro_batch_size = 8;
  in.run.capacity_bytes = 700 * kMiB;
  const PlaybookResult r = run_playbook(in, {std::ref(t)});
  EXPECT_EQ(t.calls, 1);
  EXPECT_FALSE(r.recovery.has_value());
  EXPECT_EQ(r.diagnosis.findings.front().category, OomCause::kStaticModelTooLarge);
  EXPECT_NE(r.diagnosis.findings.front().fix.find("offload"), std::string::npos);
}

// A leak: allocated at step_start rises 10 MiB per step over 12 steps. The regression reports
// exactly that growth, the top finding is the leak, and no probe runs (a setup change would
// only delay the next OOM).
TEST(Playbook, LeakFromStepStartRegression) {
  FakeTrainer t{200 * kMiB, 10 * kMiB, 700 * kMiB};
  PlaybookInput in;
  in.run.setup.micro_batch_size = 4;
  in.run.capacity_bytes = 700 * kMiB;
  in.marks = steady_marks(12, 300 * kMiB, 10 * kMiB);
  const auto fit = step_start_growth(in.marks);
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->slope_bytes_per_step, 10.0 * kMiB, 1.0);
  EXPECT_TRUE(is_leak(*fit));
  const PlaybookResult r = run_playbook(in, {std::ref(t)});
  EXPECT_EQ(t.calls, 0);
  const Finding& top = r.diagnosis.findings.front();
  EXPECT_EQ(top.category, OomCause::kLeakAcrossSteps);
  EXPECT_NE(top.evidence.front().find("10.00 MiB per step"), std::string::npos);
  EXPECT_NE(top.fix.find("loss.item()"), std::string::npos);
  // Flat memory with jitter is not a leak.
  auto flat = steady_marks(12, 300 * kMiB, 0);
  for (size_t i = 0; i < flat.size(); i += 6) flat[i].allocated_bytes += (i % 12 == 0 ? 1 : -1) * 64 * kKiB;
  EXPECT_FALSE(is_leak(*step_start_growth(flat)));
}

// Long sequence with eager attention: the estimator attributes 82% of activations to the T^2
// scores, so the top finding is sequence length, and the probes pick checkpointing.
TEST(Playbook, SequenceLengthWithEstimator) {
  PlaybookInput in;
  in.run.model = gpt2_small();
  in.run.setup.micro_batch_size = 1;
  in.run.setup.seq_len = 4096;
  in.run.setup.overhead_bytes = 0;
  in.run.capacity_bytes = 8 * kGiB;
  in.estimate = chapter_estimate;
  const int64_t static_bytes = chapter_estimate(in.run.model, in.run.setup).total(Category::kParameters) * 4;
  FakeTrainer t{static_bytes, 10 * kGiB, 8 * kGiB};
  const PlaybookResult r = run_playbook(in, {std::ref(t)});
  EXPECT_EQ(r.diagnosis.findings.front().category, OomCause::kActivationsSeqlen);
  ASSERT_TRUE(r.recovery.has_value());
  EXPECT_EQ(r.recovery->to, "--checkpointing full");
}

// Evaluation with grad mode on, and the first optimizer step, are named from the phase.
TEST(Playbook, EvalAndFirstOptimizerStep) {
  PlaybookInput in;
  in.failed_phase = "eval";
  in.eval_grad_enabled = true;
  EXPECT_EQ(run_playbook(in, {}).diagnosis.findings.front().category, OomCause::kEvalWithoutNoGrad);
  PlaybookInput opt;
  opt.marks = steady_marks(1, 100 * kMiB, 0);
  opt.marks.resize(4);  // step 0 up to after_backward: the first optimizer step failed
  EXPECT_EQ(run_playbook(opt, {}).diagnosis.findings.front().category, OomCause::kOptimizerState);
}

// A message with large reserved-unallocated memory makes fragmentation the top finding in the
// live playbook too (oomkit's CPU budget never fragments: reserved equals allocated there).
TEST(Playbook, FragmentationFromMessage) {
  PlaybookInput in;
  in.oom = parse_oom_log(cases()[0]["message"].get<std::string>()).at(0);
  EXPECT_EQ(run_playbook(in, {}).diagnosis.findings.front().category, OomCause::kFragmentation);
  PlaybookInput cpu;
  cpu.oom = parse_oom_log("CPU out of memory (oomkit --memory-limit). Tried to allocate 20.00 MiB. CPU 0 has a total "
                          "capacity of 512.00 MiB of which 3.00 MiB is free. Of the allocated memory 509.00 MiB is "
                          "allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.").at(0);
  EXPECT_FALSE(has(run_playbook(cpu, {}).diagnosis, OomCause::kFragmentation));
}

// oom_report.json has exactly the schema's keys, sizes in bytes; the text report names the
// verdict or says "ambiguous".
TEST(OomReport, JsonSchemaAndText) {
  FakeTrainer t{200 * kMiB, 100 * kMiB, 700 * kMiB};
  PlaybookInput in;
  in.oom = parse_oom_log(cases()[1]["message"].get<std::string>()).at(0);
  in.run.setup.micro_batch_size = 16;
  PlaybookResult r = run_playbook(in, {std::ref(t)});
  r.recovery->applied = true;
  const nlohmann::json j = oom_report_json(r);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  // Issue 10 item 4 added the verdict per report: verdict, confidence, the deciding evidence with
  // its log lines, the framework the fixes are worded in, and the notes; session 34 whether that
  // framework was only assumed (framework_assumed, always written).
  EXPECT_EQ(keys, (std::vector<std::string>{"confidence", "confidence_score", "deciding_evidence", "findings",
                                            "framework", "framework_assumed", "notes", "oom", "probes", "recovery",
                                            "verdict"}));
  EXPECT_EQ(j["verdict"], r.diagnosis.verdict());
  EXPECT_EQ(j["oom"]["family"], "pytorch1");
  EXPECT_EQ(j["oom"]["total_capacity_bytes"], 6227702579);  // round(5.80 * 2^30)
  for (const auto& f : j["findings"]) {
    for (const char* k : {"category", "title", "evidence", "playbook_step", "fix", "confidence"}) EXPECT_TRUE(f.contains(k)) << k;
    EXPECT_TRUE(cause_from_name(f["category"].get<std::string>()).has_value());
  }
  for (const auto& p : j["probes"]) {
    for (const char* k : {"name", "ok", "peak_bytes"}) EXPECT_TRUE(p.contains(k)) << k;
  }
  EXPECT_EQ(j["recovery"]["applied"], true);
  EXPECT_EQ(j["recovery"]["to"], "--batch-size 4 --grad-accum 4");
  const std::string text = oom_report_text(r);
  EXPECT_NE(text.find("Verdict:"), std::string::npos);
  EXPECT_NE(text.find("Recovery (applied): --batch-size 16 --grad-accum 1 -> --batch-size 4 --grad-accum 4"), std::string::npos);
  const std::string amb = oom_report_text(diagnose_log("RuntimeError: CUDA error: out of memory").at(0));
  EXPECT_NE(amb.find("Verdict: ambiguous"), std::string::npos);
  // An ambiguous verdict is decided by nothing: its leading evidence is introduced as what ranked
  // the first candidate first (the report used to say "Decided by:" under "ambiguous").
  const std::string frag = oom_report_text(diagnose_log(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 250.00 MiB. GPU 0 has a total capacity of 79.26 GiB "
      "of which 104.75 MiB is free. Process 1007710 has 79.14 GiB memory in use. Of the allocated memory 74.77 GiB is "
      "allocated by PyTorch, and 3.87 GiB is reserved by PyTorch but unallocated.").at(0));
  ASSERT_NE(frag.find("Verdict: ambiguous"), std::string::npos) << frag;
  EXPECT_EQ(frag.find("Decided by:"), std::string::npos) << frag;
  EXPECT_NE(frag.find("Ranked fragmentation first:\n  line 1: reserved but unallocated"), std::string::npos) << frag;
}

// A timeline written by the trainer feeds the playbook offline: the fixture (synthetic: a loop
// keeping each loss with its graph) rises 6 MiB per step at step_start and ends in an oom event
// with oomkit's CPU-budget message in the forward phase.
TEST(Playbook, FromTimelineFile) {
  const auto records = read_timeline(std::string(OOMKIT_SOURCE_DIR) + "/tests/data/oom-cases/leak-timeline.jsonl");
  const PlaybookInput in = playbook_input_from_timeline(records);
  EXPECT_EQ(in.marks.size(), 61u);
  EXPECT_EQ(in.run.capacity_bytes, 512 * kMiB);
  ASSERT_TRUE(in.oom.has_value());
  EXPECT_EQ(in.oom->family, "oomkit_cpu_budget");
  EXPECT_EQ(in.failed_phase, "forward");
  const PlaybookResult r = run_playbook(in, {});
  const Finding& top = r.diagnosis.findings.front();
  EXPECT_EQ(top.category, OomCause::kLeakAcrossSteps);
  EXPECT_NE(top.evidence.front().find("6.00 MiB per step"), std::string::npos);
}

// A trainer's oom event with the typed live record (issue 9, item 5) is read field by field, not
// parsed: exact bytes, the CPU budget family, reserved - allocated as unallocated, and
// free = limit - reserved. Without the typed fields the message is parsed as before.
TEST(Playbook, TypedOomEventFromTimeline) {
  const std::vector<nlohmann::json> typed = {
      {{"type", "event"}, {"name", "oom"}, {"step", 3}, {"phase", "backward"}, {"message", "ignored"},
       {"requested_bytes", 3 * kMiB + 28}, {"allocated_bytes", 500 * kMiB + 1}, {"reserved_bytes", 500 * kMiB + 1},
       {"limit_bytes", 502 * kMiB}, {"device", "cpu"}}};
  const PlaybookInput in = playbook_input_from_timeline(typed);
  ASSERT_TRUE(in.oom.has_value());
  EXPECT_EQ(in.oom->family, "oomkit_cpu_budget");
  EXPECT_EQ(in.oom->requested_bytes, 3 * kMiB + 28);
  EXPECT_EQ(in.oom->allocated_bytes, 500 * kMiB + 1);
  EXPECT_EQ(in.oom->reserved_unallocated_bytes, 0);
  EXPECT_EQ(in.oom->total_capacity_bytes, 502 * kMiB);
  EXPECT_EQ(in.oom->free_bytes, 2 * kMiB - 1);
  EXPECT_EQ(in.failed_phase, "backward");
  LiveOom cuda;
  cuda.requested_bytes = 20 * kMiB;
  cuda.allocated_bytes = 10 * kGiB;
  cuda.reserved_bytes = 14 * kGiB;
  cuda.limit_bytes = 16 * kGiB;
  cuda.device = "cuda:0";
  const OomRecord r = oom_record_from_live(cuda);
  EXPECT_EQ(r.family, "pytorch2");
  EXPECT_EQ(r.reserved_unallocated_bytes, 4 * kGiB);
  EXPECT_EQ(r.free_bytes, 2 * kGiB);
  const std::vector<nlohmann::json> text = {{{"type", "event"}, {"name", "oom"}, {"message", "RuntimeError: CUDA error: out of memory"}}};
  EXPECT_EQ(playbook_input_from_timeline(text).oom->family, "cuda_error_oom");
}

// MPS: "other allocations" of 17.35 GiB (64% of the 27.20 GiB allowed) beside 9.57 GiB of
// tensors point at cached heaps (ComfyUI#7440); 8.89 of 9.07 GiB in tensors (Fooocus#1139) at
// the working set.
TEST(DiagnoseMessage, MpsOtherAllocationsVersusWorkingSet) {
  const auto heaps = diagnose_log(
      "MPS backend out of memory (MPS allocated: 9.57 GiB, other allocations: 17.35 GiB, max allowed: 27.20 GiB). "
      "Tried to allocate 292.50 MiB on private pool.").at(0);
  EXPECT_EQ(heaps.findings.front().category, OomCause::kFragmentation);
  EXPECT_NE(heaps.findings.front().fix.find("torch.mps.empty_cache()"), std::string::npos);
  const auto full = diagnose_log(
      "RuntimeError: MPS backend out of memory (MPS allocated: 8.89 GB, other allocations: 172.98 MB, max allowed: "
      "9.07 GB). Tried to allocate 6.25 MB on private pool.").at(0);
  EXPECT_EQ(full.findings.front().category, OomCause::kActivationsBatch);
  EXPECT_FALSE(has(full, OomCause::kFragmentation));
}

// ---- Kinds found while tuning on the 63-report corpus (2026-11-30, second pass). Each input is
// made up; none is copied from a corpus report.
namespace {
// Options with no word prior: the rules alone, as a test of one reading wants them.
DiagnoseOptions rules_alone() {
  static const WordPriorModel none;
  DiagnoseOptions options;
  options.word_prior = &none;
  return options;
}

const Diagnosis& first(const std::vector<Diagnosis>& ds) {
  EXPECT_FALSE(ds.empty());
  return ds.front();
}
}  // namespace

// TensorFlow 1.x printed the shape alone: the failing node's "T=DT_HALF" on the next line gives
// the dtype; without one, float32 (TF's default) is assumed and flagged.
TEST(DiagnoseKinds2, TensorFlowShapeWithoutDtype) {
  const auto with_node = diagnose_log(
      "ResourceExhaustedError (see above for traceback): OOM when allocating tensor with shape[8,16,32,64]\n"
      "  [[Node: conv3/Conv2D = Conv2D[T=DT_HALF, data_format=\"NHWC\", _device=\"/job:localhost/replica:0/task:0/device:GPU:0\"]]]\n");
  ASSERT_TRUE(first(with_node).oom);
  EXPECT_EQ(first(with_node).oom->dtype, "half");
  EXPECT_FALSE(first(with_node).oom->dtype_assumed);
  EXPECT_EQ(first(with_node).oom->requested_bytes, 8LL * 16 * 32 * 64 * 2);
  const auto bare = diagnose_log("Resource exhausted: OOM when allocating tensor with shape[1000,300]\n");
  ASSERT_TRUE(first(bare).oom);
  EXPECT_TRUE(first(bare).oom->dtype_assumed);
  EXPECT_EQ(first(bare).oom->requested_bytes, 1000LL * 300 * 4);
}

// A DataLoader worker killed by SIGBUS: shared memory, host side.
TEST(DiagnoseKinds2, DataLoaderBusErrorIsHostSharedMemory) {
  const auto ds = diagnose_log(
      "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error. It is possible that dataloader's "
      "workers are out of shared memory. Please try to raise your shared memory limit.\n");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].findings.front().category, OomCause::kCpuRam);
}

// A terminal wrap pasted with its backslash: the field across the seam is still read.
TEST(DiagnoseKinds2, BackslashWrappedMessage) {
  const auto ds = diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 4.00 MiB (GPU 0; 6.00 GiB total capacity; 5.10 GiB alre\\\n"
      "ady allocated; 2.00 MiB free; 90.00 MiB cached)\n");
  ASSERT_TRUE(first(ds).oom);
  ASSERT_TRUE(first(ds).oom->allocated_bytes);
  EXPECT_NEAR(static_cast<double>(*first(ds).oom->allocated_bytes), 5.10 * kGiB, 0.01 * kGiB);
}

// Rich (boxed) tracebacks are read as frames: here the failing line saves the model.
TEST(DiagnoseKinds2, RichTracebackFrames) {
  const auto ds = diagnose_log(
      "╭──────────────── Traceback (most recent call last) ────────────────╮\n"
      "│ /work/user/tune.py:88 in main                                      │\n"
      "│    87 │   runner.fit()                                            │\n"
      "│ ❱  88 │   model.save_pretrained(out_dir)                          │\n"
      "╰────────────────────────────────────────────────────────────────────╯\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 40.00 GiB total capacity; "
      "38.00 GiB already allocated; 30.00 MiB free; 38.50 GiB reserved in total by PyTorch)\n");
  EXPECT_EQ(first(ds).phase, "save");
  bool titled = false;
  for (const auto& f : first(ds).findings) {
    titled = titled || (f.category == OomCause::kOther && f.title.find("saving a checkpoint") != std::string::npos);
  }
  EXPECT_TRUE(titled);
}

// XLA's PjRt runtime wording names JAX even when the log names no framework; fixes are JAX's.
TEST(DiagnoseKinds2, XlaRuntimeWordingIsJax) {
  const auto ds = diagnose_log("Prediction stopped: RESOURCE_EXHAUSTED: Failed to allocate request for 3.00GiB (3221225472B) on device ordinal 0\n");
  EXPECT_EQ(first(ds).framework, "jax");
}

// "After loading the model it takes N" says loading finished: not a loading failure.
TEST(DiagnoseKinds2, AfterLoadingIsNotALoadFailure) {
  const auto ds = diagnose_log(
      "after loading the model, nvidia-smi shows 20G in use.\n"
      "RuntimeError: CUDA error: out of memory\n");
  for (const auto& e : first(ds).deciding) EXPECT_EQ(e.what.find("fails while loading"), std::string::npos);
}

// OOM only when resuming from a checkpoint: its tensors kept on the GPU (other).
TEST(DiagnoseKinds2, ResumeFromCheckpoint) {
  const auto ds = diagnose_log(
      "Training from scratch works, but when I resume from the saved checkpoint the first forward pass fails:\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 40.00 MiB (GPU 0; 12.00 GiB total capacity; "
      "10.90 GiB already allocated; 10.00 MiB free; 11.00 GiB reserved in total by PyTorch)\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kOther);
}

// An LLM named with its size, nothing trains it, and PyTorch holds far more than its 16-bit
// weights: inference's own memory (KV cache) filled the device.
TEST(DiagnoseKinds2, NamedLlmInferenceBeyondWeights) {
  const auto ds = diagnose_log(
      "Serving Qwen2 1.5B for chat on a 16 GB card:\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 15.70 GiB "
      "of which 100.00 MiB is free. Including non-PyTorch memory, this process has 15.50 GiB memory in use. Of the "
      "allocated memory 15.00 GiB is allocated by PyTorch, and 200.00 MiB is reserved by PyTorch but unallocated.\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kGenerationKvCache);
  // ...and weights alone near the capacity: the model does not fit.
  const auto big = diagnose_log(
      "Chat demo with a 13B llama model:\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 100.00 MiB. GPU 0 has a total capacity of 23.60 GiB "
      "of which 50.00 MiB is free. Including non-PyTorch memory, this process has 23.50 GiB memory in use. Of the "
      "allocated memory 23.20 GiB is allocated by PyTorch, and 50.00 MiB is reserved by PyTorch but unallocated.\n");
  EXPECT_EQ(first(big).findings.front().category, OomCause::kStaticModelTooLarge);
}

// The log states far more device memory than the runtime reports: a carve-out / slice (other).
TEST(DiagnoseKinds2, StatedDeviceMemoryAboveCapacity) {
  const auto ds = diagnose_log(
      "The box has 64 GB of VRAM assigned in the BIOS.\n"
      "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 9.00 GiB. GPU 0 has a total capacity of 8.00 GiB of "
      "which 7.90 GiB is free. Of the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by "
      "PyTorch but unallocated.\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kOther);
}

// The user names the evaluation function where it fails ("the evalStep function").
TEST(DiagnoseKinds2, EvaluationFunctionNamed) {
  const auto ds = diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 MiB (GPU 0; 8.00 GiB total capacity; 7.60 GiB already "
      "allocated; 1.00 MiB free; 120.00 MiB cached)\n"
      "It happens in the runValidation function every time; lowering the batch size did not help.\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kEvalWithoutNoGrad);
}

// A few hundred MiB of cached blocks on a device the tensors fill is the allocator's slack, not
// the cause: the working set ranks first.
TEST(DiagnoseKinds2, SmallCacheIsNotFragmentation) {
  const auto ds = diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 40.00 MiB (GPU 0; 10.00 GiB total capacity; 9.10 GiB already "
      "allocated; 5.00 MiB free; 400.00 MiB cached)\n");
  EXPECT_NE(first(ds).findings.front().category, OomCause::kFragmentation);
}

// A bare "CUDA error: out of memory" (a cudaMalloc outside the caching allocator, PyTorch >= 1.0):
// the device was already taken - other processes first; THC's 0.x error stays a tensor OOM.
TEST(DiagnoseKinds2, BareCudaErrorPointsAtOtherProcesses) {
  const auto bare = diagnose_log("RuntimeError: CUDA error: out of memory\n");
  EXPECT_EQ(first(bare).findings.front().category, OomCause::kOtherProcess);
  const auto thc = diagnose_log(
      "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCStorage.cu:58\n");
  EXPECT_EQ(first(thc).findings.front().category, OomCause::kActivationsBatch);
}

// The oomkit flags beside a worded fix are the remedies catalogue's (remedy_flag_hint): one set
// of fixes for the diagnosis, the estimator's plans and the trainer; sdpa only when this build has it.
TEST(DiagnoseKinds2, FixFlagsComeFromTheRemediesCatalogue) {
  const std::string log =
      "Training my small transformer at batch size 64 with max_length 4096:\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB. GPU 0 has a total capacity of 23.60 "
      "GiB of which 1.00 GiB is free. Including non-PyTorch memory, this process has 22.50 GiB memory in use. Of the "
      "allocated memory 22.00 GiB is allocated by PyTorch, and 100.00 MiB is reserved by PyTorch but unallocated.\n";
  for (bool sdpa : {false, true}) {
    DiagnoseOptions o;
    o.sdpa_supported = sdpa;
    const auto ds = diagnose_log(log, o);
    ASSERT_FALSE(ds.empty());
    bool batch_seen = false, seq_seen = false;
    for (const auto& f : ds[0].findings) {
      if (f.category == OomCause::kActivationsBatch) {
        batch_seen = true;
        EXPECT_NE(f.fix.find(remedy_flag_hint(RemedyKind::kMicroBatch)), std::string::npos) << f.fix;
        EXPECT_NE(f.fix.find(remedy_flag_hint(RemedyKind::kCheckpointingFull)), std::string::npos) << f.fix;
      }
      if (f.category == OomCause::kActivationsSeqlen) {
        seq_seen = true;
        EXPECT_EQ(f.fix.find(remedy_flag_hint(RemedyKind::kAttentionSdpa)) != std::string::npos, sdpa) << f.fix;
      }
    }
    EXPECT_TRUE(batch_seen);
    EXPECT_TRUE(seq_seen);
  }
}

// ---- Third pass (issue 10 item 7): kinds found on the tuning corpus (oom-corpus + held2), each
// with a made-up input. ----

namespace {
// The 0-based rank of `cause` among the findings, or -1.
int rank_of(const Diagnosis& d, OomCause cause) {
  for (size_t i = 0; i < d.findings.size(); ++i) {
    if (d.findings[i].category == cause) return static_cast<int>(i);
  }
  return -1;
}
}  // namespace

// No message, only the kill in the user's words ("fails with message `killed`", "ends with Killed
// error", zh "已杀死"): one host-RAM report, not "no OOM found".
TEST(DiagnoseKinds3, KilledInProseIsAnOomKillerReport) {
  for (const char* log : {"Loading checkpoint shards fails at 40% with message `killed`.\n",
                          "After preprocessing, the train command ends with Killed error again.\n",
                          "\xe8\xae\xad\xe7\xbb\x83\xe5\x88\xb0\xe4\xb8\x80\xe5\x8d\x8a\xe5\xb0\xb1\xe5\xb7\xb2\xe6\x9d\x80\xe6\xad\xbb\n"}) {
    const auto ds = diagnose_log(log);
    ASSERT_EQ(ds.size(), 1u) << log;
    ASSERT_TRUE(ds[0].oom);
    EXPECT_EQ(ds[0].oom->family, "oom_killer") << log;
    EXPECT_EQ(ds[0].findings.front().category, OomCause::kCpuRam) << log;
  }
  // A kill command in advice is not a report.
  EXPECT_TRUE(diagnose_log("You can kill -9 the process that holds the GPU.\n").empty());
}

// A launcher reporting its child's SIGKILL: DeepSpeed's "exits with return code = -9", a
// container's exit code 137. -90 or 1370 are other codes.
TEST(DiagnoseKinds3, LauncherReturnCodeMinus9) {
  const auto ds = diagnose_log(
      "[2024-01-03 10:00:00,000] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4711\n"
      "[2024-01-03 10:00:01,000] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', "
      "'--local_rank=0', '--deepspeed', 'ds_z3_offload.json'] exits with return code = -9\n");
  ASSERT_FALSE(ds.empty());
  EXPECT_EQ(ds.back().oom->family, "oom_killer");
  EXPECT_EQ(ds.back().findings.front().category, OomCause::kCpuRam);
  const auto exit137 = parse_oom_log("worker-3 exited with code 137\n");
  ASSERT_EQ(exit137.size(), 1u);
  EXPECT_EQ(exit137[0].family, "oom_killer");
  EXPECT_TRUE(parse_oom_log("process exits with return code = -90\nthe job finished with exit code 1370\n").empty());
}

// "CUDA Memory Exception" in prose names an OOM: a report, so the log's evidence is read.
TEST(DiagnoseKinds3, MemoryExceptionInProse) {
  const auto ds = diagnose_log("Calling trainer.predict() on the whole test set crashes with a CUDA Memory Exception.\n");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].oom->device, "cuda");
  EXPECT_EQ(ds[0].findings.front().category, OomCause::kEvalWithoutNoGrad);  // an evaluation call named
}

// "even with a batch size of 16" is not "fails at batch size 1".
TEST(DiagnoseKinds3, BatchSizeOf16IsNotBatchSize1) {
  const auto ds = diagnose_log(
      "Fine-tuning fails even with a batch size of 16:\n"
      "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 8.00 GiB total capacity; 6.10 GiB already allocated; 0 "
      "bytes free; 6.40 GiB reserved in total by PyTorch)\n");
  for (const auto& e : first(ds).deciding) EXPECT_EQ(e.what.find("batch size 1"), std::string::npos) << e.what;
  EXPECT_NE(first(ds).findings.front().category, OomCause::kStaticModelTooLarge);
}

// The user names the missing no_grad, also in a sentence that mentions the OOM error.
TEST(DiagnoseKinds3, MissingNoGradInTheUsersWords) {
  const auto ds = diagnose_log(
      "python test.py configs/default.yaml\n"
      "There is a CUDA out of memory error because there is no no_grad decorator around the test script.\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kEvalWithoutNoGrad);
}

// Lightning keeps every training_step output for training_epoch_end: memory grows over the epoch.
TEST(DiagnoseKinds3, TrainingEpochEndKeepsStepOutputs) {
  const auto ds = diagnose_log(
      "class Net(pl.LightningModule):\n"
      "    def training_step(self, batch, batch_idx):\n"
      "        return {'loss': loss, 'features': feats}\n"
      "    def training_epoch_end(self, outputs):\n"
      "        pass\n"
      "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 12.00 GiB total capacity; 11.20 GiB already "
      "allocated; 10.00 MiB free; 11.40 GiB reserved in total by PyTorch)\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kLeakAcrossSteps);
}

// Long inputs in words, also before the message on its own line.
TEST(DiagnoseKinds3, LongInputsInWords) {
  const auto same_line = diagnose_log(
      "When one sample's answer is too long (about 3000 characters) training stops with torch.cuda.OutOfMemoryError: CUDA "
      "out of memory\n");
  EXPECT_EQ(first(same_line).findings.front().category, OomCause::kActivationsSeqlen);
  const auto prose = diagnose_log(
      "It only happens on the long samples of the dataset.\n"
      "RuntimeError: CUDA error: out of memory\n");
  EXPECT_EQ(first(prose).findings.front().category, OomCause::kActivationsSeqlen);
}

// One model fits and another does not: the model's own size.
TEST(DiagnoseKinds3, ItDependsOnTheModel) {
  const auto ds = diagnose_log(
      "Generation works with the standard model. With the anime model it does not work: CUDA out of memory error.\n"
      "RuntimeError: CUDA error: out of memory\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kStaticModelTooLarge);
}

// Cached-but-free blocks under 1 GiB and under 10% of the device: below every working-set
// candidate (it used to rank second, at 0.4, or first at 0.6 from 256 MiB and 5% of the device).
TEST(DiagnoseKinds3, SlackRanksBelowTheWorkingSet) {
  const auto ds = diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 60.00 MiB (GPU 0; 6.00 GiB total capacity; 4.11 GiB already "
      "allocated; 34.82 MiB free; 4.42 GiB reserved in total by PyTorch)\n");
  const Diagnosis& d = first(ds);
  EXPECT_EQ(d.findings.front().category, OomCause::kActivationsBatch);
  const int frag = rank_of(d, OomCause::kFragmentation);
  EXPECT_GT(frag, rank_of(d, OomCause::kStaticModelTooLarge));
  EXPECT_GT(frag, rank_of(d, OomCause::kActivationsSeqlen));
  // 1 GiB of cache (twice the request) is still a medium candidate.
  const auto big = diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 24.00 GiB total capacity; 21.50 GiB already "
      "allocated; 30.00 MiB free; 22.60 GiB reserved in total by PyTorch)\n");
  EXPECT_LE(rank_of(first(big), OomCause::kFragmentation), 1);
}

// The CUDA context itself could not be created: the device was full before this process.
TEST(DiagnoseKinds3, ContextCreationFailureIsOtherProcesses) {
  const auto ds = diagnose_log(
      "2019-07-11 12:42:11.226602: W tensorflow/compiler/xla/service/platform_util.cc:240] unable to create "
      "StreamExecutor for CUDA:0: failed initializing StreamExecutor for CUDA device ordinal 0: Internal: failed call to "
      "cuDevicePrimaryCtxRetain: CUDA_ERROR_OUT_OF_MEMORY: out of memory; total memory reported: 11523260416\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kOtherProcess);
}

// XLA on a GPU: its preallocated pool is a candidate of its own; a smaller batch that "persists"
// in failing lowers the batch.
TEST(DiagnoseKinds3, XlaGpuPoolAndBatchThatDidNotHelp) {
  const auto plain = diagnose_log("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
                                  "allocate 1073741824 bytes.\n");
  EXPECT_EQ(first(plain).findings.front().category, OomCause::kActivationsBatch);
  EXPECT_EQ(rank_of(first(plain), OomCause::kOther), 1);
  const auto persists = diagnose_log(
      "Lowering batch_size to 4 on a 40GB GPU, the memory error persists.\n"
      "Original error: RESOURCE_EXHAUSTED: Failed to allocate request for 176.00MiB (184549376B) on device ordinal 0\n");
  EXPECT_EQ(first(persists).findings.front().category, OomCause::kOther);
  const auto tpu = diagnose_log("RuntimeError: Resource exhausted: Attempting to allocate 180.59M. That was not possible. "
                                "There are 142.58M free.; (0x3x0_HBM1)\n");
  EXPECT_EQ(rank_of(first(tpu), OomCause::kOther), -1);  // TPU HBM: no GPU pool
}

// MPS: the high-watermark cap is a candidate beside the working set.
TEST(DiagnoseKinds3, MpsCapIsACandidate) {
  const auto ds = diagnose_log(
      "RuntimeError: MPS backend out of memory (MPS allocated: 8.93 GB, other allocations: 120.39 MB, max allowed: 9.07 "
      "GB). Tried to allocate 25.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit "
      "for memory allocations (may cause system failure).\n");
  const int other = rank_of(first(ds), OomCause::kOther);
  EXPECT_GE(other, 1);
  EXPECT_LE(other, 2);
}

// vLLM sized its budget at start-up: a PyTorch OOM afterwards is memory it did not count.
TEST(DiagnoseKinds3, VllmEngineThenAllocatorOom) {
  const auto ds = diagnose_log(
      "vllm serve /models/some-70b --tensor-parallel-size 8 --max-model-len 16384\n"
      "INFO 03-01 10:00:00 model_runner.py:1110] Loading model weights took 16.1 GB\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB. GPU 6 has a total capacity of 44.53 GiB of "
      "which 448.00 KiB is free. Including non-PyTorch memory, this process has 44.52 GiB memory in use. Of the allocated "
      "memory 41.90 GiB is allocated by PyTorch, and 300.00 MiB is reserved by PyTorch but unallocated.\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kOther);
}

// Memory outside the allocator only slightly above a CUDA context's size is not another job.
TEST(DiagnoseKinds3, ContextSizedRemainderIsNotAnotherJob) {
  const auto ds = diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 22.00 MiB (GPU 0; 4.00 GiB total capacity; 2.78 GiB already "
      "allocated; 3.35 MiB free; 147.37 MiB cached)\n");
  EXPECT_EQ(rank_of(first(ds), OomCause::kOtherProcess), -1);
  const auto job = diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 22.00 MiB (GPU 0; 10.00 GiB total capacity; 2.78 GiB already "
      "allocated; 3.35 MiB free; 147.37 MiB cached)\n");
  EXPECT_GE(rank_of(first(job), OomCause::kOtherProcess), 0);
}

// THC's "cuda runtime error (2)" (PyTorch <= 0.4): evaluation without no_grad (volatile ignored
// since 0.4) is among the first three candidates; the batch stays first.
TEST(DiagnoseKinds3, ThcErrorKeepsEvaluationInTheTopThree) {
  const auto ds = diagnose_log(
      "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCStorage.cu:58\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kActivationsBatch);
  const int eval = rank_of(first(ds), OomCause::kEvalWithoutNoGrad);
  EXPECT_GE(eval, 1);
  EXPECT_LE(eval, 2);
}

// ---- Fourth pass (issue 10 item 7): kinds found on held3 once it became tuning data, each with
// a made-up input. ----

// SLURM's cgroup report of a kill is the OOM killer (host RAM), not a word "OOM" in prose.
TEST(DiagnoseKinds4, SlurmCgroupOomKillEvent) {
  const std::string log =
      "Epoch 0 resumed from ckpt-200\n"
      "slurmstepd: error: Detected 2 oom-kill event(s) in StepId=4242.0. Some of your processes may have been killed by "
      "the cgroup out-of-memory handler.\n";
  const auto records = parse_oom_log(log);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].family, "oom_killer");
  EXPECT_EQ(records[0].line, 2);
  EXPECT_EQ(first(diagnose_log(log)).findings.front().category, OomCause::kCpuRam);
}

// transformers/accelerate refusing to offload a quantized model: the model does not fit the GPU.
TEST(DiagnoseKinds4, DeviceMapDispatchedToCpuIsTheModelsSize) {
  const std::string log =
      "Loading a 34B checkpoint in 4-bit with device_map='auto' on a 12 GB card:\n"
      "ValueError: Some modules are dispatched on the CPU or the disk. Make sure you have enough GPU RAM to fit\n"
      "the quantized model.\n";
  const auto records = parse_oom_log(log);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].family, "model_offload");
  EXPECT_EQ(first(diagnose_log(log)).findings.front().category, OomCause::kStaticModelTooLarge);
}

// The OOM in the user's words, in wordings the first passes missed: hyphenated, "out of my
// <device> memory", host RAM named; memory growth described without naming the OOM.
TEST(DiagnoseKinds4, OomInOtherWords) {
  const auto hyphen = diagnose_log("Halfway through the epoch the run stops with an out-of-memory error.\n");
  ASSERT_EQ(hyphen.size(), 1u);
  const auto gpu = diagnose_log("The script runs out of my GPU memory on the first batch. Any idea?\n");
  ASSERT_EQ(gpu.size(), 1u);
  EXPECT_EQ(gpu[0].oom->device, "cuda");
  const auto ram = diagnose_log("Tokenizing the corpus runs out of my 32G ram and the box freezes.\n");
  ASSERT_EQ(ram.size(), 1u);
  EXPECT_EQ(ram[0].oom->device, "cpu");
  EXPECT_EQ(ram[0].findings.front().category, OomCause::kCpuRam);
  const auto growth = diagnose_log("Training my detector, GPU memory keeps growing over the epoch (9G at the start, 22G "
                                   "near the end). Is that a leak?\n");
  ASSERT_EQ(growth.size(), 1u);
  EXPECT_EQ(growth[0].findings.front().category, OomCause::kLeakAcrossSteps);
  // Denied growth, or no memory at all, is no report.
  EXPECT_TRUE(diagnose_log("Memory usage is stable over the epoch, there is no leak.\n").empty());
  EXPECT_TRUE(diagnose_log("The loss keeps growing after epoch 3 and the accuracy drops.\n").empty());
  EXPECT_TRUE(diagnose_log("We ran out of time before the deadline.\n").empty());
  EXPECT_TRUE(diagnose_log("Increasing the batch size increases memory usage, as expected.\n").empty());
}

// An input's size as numbers: a resolution "WxH", a tuple "(W, H)" where the log speaks of images
// (not a call's arguments), a protein's length in residues.
TEST(DiagnoseKinds4, InputSizeInNumbers) {
  const auto wxh = diagnose_log("Super-resolving a 3000x2000 photo with the x4 model:\nRuntimeError: CUDA error: out of memory\n");
  EXPECT_EQ(first(wxh).findings.front().category, OomCause::kActivationsSeqlen);
  const auto tuple = diagnose_log(
      "Denoising my own images works for the samples.\nMine is (5000, 3500) though.\nRuntimeError: CUDA error: out of memory\n");
  EXPECT_EQ(first(tuple).findings.front().category, OomCause::kActivationsSeqlen);
  // A call's arguments are a tensor's shape, not an input resolution.
  const auto call = diagnose_log("x = torch.randn(4096, 9216).cuda()\nRuntimeError: CUDA error: out of memory\n");
  EXPECT_NE(first(call).findings.front().category, OomCause::kActivationsSeqlen);
  // XLA's BFC allocator line and the runtime's line are one failure: both read the length above them.
  const auto protein = diagnose_log(
      "Predicting a 1800 aa complex on one GPU:\n"
      "  Allocator (GPU_0_bfc) ran out of memory trying to allocate 20.00GiB (rounded to 21474836480)requested by op\n"
      "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 21474836000 "
      "bytes.\n");
  ASSERT_FALSE(protein.empty());
  EXPECT_EQ(protein.back().findings.front().category, OomCause::kActivationsSeqlen);
}

// One input's size in words: a size word followed by what the model takes in ("a shorter clip",
// "full size photos", "1080p video"), a star-separated resolution where the log speaks of images,
// one image alone failing, and Chinese "分辨率" (resolution). Counts ("4k sentences", "more than
// one image") and the words alone are not read as a size.
TEST(DiagnoseKinds4, InputSizeInWordsAndStars) {
  const std::string bare = "RuntimeError: CUDA error: out of memory\n";
  for (const char* line : {"With a shorter clip it runs; the full recording does not.\n",
                           "Full size photos crash the demo, thumbnails are fine.\n",
                           "Rendering 1080p video frames with the default settings:\n",
                           "Segmenting the 3600*2400 images of my own dataset:\n",
                           "Even one image from the test set fails.\n",
                           "\xe8\xbe\x93\xe5\x85\xa5\xe5\x88\x86\xe8\xbe\xa8\xe7\x8e\x87 2048\n"}) {
    const auto ds = diagnose_log(std::string(line) + bare);
    ASSERT_FALSE(ds.empty()) << line;
    EXPECT_EQ(first(ds).findings.front().category, OomCause::kActivationsSeqlen) << line;
  }
  for (const char* line : {"It trained on a small dataset (4k sentences) last week.\n",
                           "It cannot process more than one image in a loop.\n",
                           "The images are in a folder; the model is large.\n",
                           "x = torch.zeros(4096*4096)\n",
                           "Found 2001 images belonging to 2 classes.\n",
                           "Done image preprocessing, starting training.\n",
                           "Works for one image, but not for a batch of 16.\n",
                           "Recording a high frame rate stream to disk.\n",
                           "Loaded the images.\nprint(torch.cuda.memory_allocated() / (1024*1024))\n"}) {
    // The rules alone: the line above a bare message is the user's, no longer glued into the
    // message, so the word prior reads its words ("images") as it reads any sentence's.
    const auto ds = diagnose_log(std::string(line) + bare, rules_alone());
    ASSERT_FALSE(ds.empty()) << line;
    EXPECT_NE(first(ds).findings.front().category, OomCause::kActivationsSeqlen) << line;
  }
}

// "Fails even at batch size 1": the model's size first, one sample's size among the candidates.
TEST(DiagnoseKinds4, BatchOneNamesTheModelAndOneSample) {
  const auto ds = diagnose_log("It fails even with batch size 1.\nRuntimeError: CUDA error: out of memory\n");
  const auto& f = first(ds).findings;
  ASSERT_GE(f.size(), 2u);
  EXPECT_EQ(f[0].category, OomCause::kStaticModelTooLarge);
  EXPECT_EQ(f[1].category, OomCause::kActivationsSeqlen);
}

// Loss tensors summed without .item(), or the graph kept in the user's words: a leak across steps.
TEST(DiagnoseKinds4, LossSummedWithoutItemIsALeak) {
  const std::string message =
      "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 11.00 GiB total capacity; 10.30 GiB already "
      "allocated; 20.00 MiB free; 10.50 GiB reserved in total by PyTorch)\n";
  const auto code = diagnose_log("for x, y in loader:\n    epoch_loss += criterion(net(x), y)\n" + message);
  EXPECT_EQ(first(code).findings.front().category, OomCause::kLeakAcrossSteps);
  const auto prose = diagnose_log("The running total keeps the graph of every batch alive, so after a few hundred batches:\n" + message);
  EXPECT_EQ(first(prose).findings.front().category, OomCause::kLeakAcrossSteps);
  // .item() is the fix, not the leak.
  const auto fixed = diagnose_log("Training at batch size 64:\n    epoch_loss += criterion(net(x), y).item()\n" + message);
  EXPECT_NE(first(fixed).findings.front().category, OomCause::kLeakAcrossSteps);
}

// The job ran on a GPU other than the one chosen, or every rank on GPU 0.
TEST(DiagnoseKinds4, WrongGpuChosen) {
  const auto visible = diagnose_log(
      "A colleague trains on GPU 0. I export CUDA_VISIBLE_DEVICES=2 but it is ignored: the job still lands on GPU 0.\n"
      "RuntimeError: CUDA out of memory.\n");
  EXPECT_EQ(first(visible).findings.front().category, OomCause::kOtherProcess);
  const auto ranks = diagnose_log(
      "torchrun --nproc_per_node 4 finetune.py\n"
      "All 4 processes put their copy of the checkpoint onto cuda:0, which fills up.\n"
      "RuntimeError: CUDA out of memory.\n");
  EXPECT_EQ(first(ranks).findings.front().category, OomCause::kMultiGpuImbalance);
}

// A shape bug in the user's words: the request is the program's shapes (other).
TEST(DiagnoseKinds4, ShapeBugInWords) {
  const auto ds = diagnose_log(
      "My reshape gives incompatible shapes, and instead of a shape error the matmul asks for this:\n"
      "RuntimeError: CUDA out of memory. Tried to allocate 300.00 GiB (GPU 0; 23.70 GiB total capacity; 1.10 GiB already "
      "allocated; 21.90 GiB free; 1.20 GiB reserved in total by PyTorch)\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kOther);
}

// OOMs at random on work that ran before with the same settings: fragmentation.
TEST(DiagnoseKinds4, RandomOomsOnRepeatedWork) {
  const auto ds = diagnose_log(
      "I get random OOMs in my upscaler service.\n"
      "After many jobs with the exact same settings, the next one fails again:\n"
      "RuntimeError: CUDA out of memory.\n");
  EXPECT_EQ(first(ds).findings.front().category, OomCause::kFragmentation);
}

// One request of a third of the device: a training run halves its batch first; a demo on an
// image has its input size first (the documented default order).
TEST(DiagnoseKinds4, LargeSingleRequestDefaultOrder) {
  const std::string message =
      "RuntimeError: CUDA out of memory. Tried to allocate 4.00 GiB (GPU 0; 12.00 GiB total capacity; 6.00 GiB already "
      "allocated; 1.50 GiB free; 6.20 GiB reserved in total by PyTorch)\n";
  const auto train = diagnose_log("Starting training of the segmentation net.\n" + message);
  EXPECT_EQ(first(train).findings.front().category, OomCause::kActivationsBatch);
  const auto demo = diagnose_log("Running the demo script on one picture.\n" + message);
  EXPECT_EQ(first(demo).findings.front().category, OomCause::kActivationsSeqlen);
}

// A named model whose 16-bit weights exceed the device, in a run that trains it: static memory;
// not when the log names 4-bit weights.
TEST(DiagnoseKinds4, NamedModelLargerThanTheDevice) {
  const std::string message =
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 100.00 MiB (GPU 0; 11.00 GiB total capacity; "
      "10.60 GiB already allocated; 40.00 MiB free; 10.70 GiB reserved in total by PyTorch)\n";
  const auto plain = diagnose_log("python finetune.py --base_model llama-2-13b --lora_r 8 --batch_size 2\n" + message);
  EXPECT_EQ(first(plain).findings.front().category, OomCause::kStaticModelTooLarge);
  const auto quant = diagnose_log("python finetune.py --base_model llama-2-13b --load_in_4bit --batch_size 2\n" + message);
  for (const auto& e : first(quant).deciding) EXPECT_EQ(e.what.find("16-bit weights alone"), std::string::npos) << e.what;
}

// The wrong-GPU and shape-bug rules need their whole phrase: "still OOMs with CUDA_VISIBLE_DEVICES"
// is the setting not helping, "is this a bug? the input shape is ..." is no shape bug; "out of
// shared memory" is a kernel's on-chip limit, not an OOM.
TEST(DiagnoseKinds4, NoMisfireOnNearbyWording) {
  const std::string message =
      "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 11.00 GiB total capacity; 10.30 GiB already "
      "allocated; 20.00 MiB free; 10.50 GiB reserved in total by PyTorch)\n";
  const auto still = diagnose_log("With CUDA_VISIBLE_DEVICES=0,1 it still OOMs at batch size 64.\n" + message);
  EXPECT_NE(first(still).findings.front().category, OomCause::kOtherProcess);
  const auto bug = diagnose_log("Is this a bug? The input shape is (8, 3, 512, 512) at batch size 64.\n" + message);
  EXPECT_NE(first(bug).findings.front().category, OomCause::kOther);
  EXPECT_TRUE(diagnose_log("triton.runtime.errors.OutOfResources: the kernel ran out of shared memory\n").empty());
}

// Free memory far above a small failed request: a cap or the driver first, and the allocator's
// fixed-size segments (expandable_segments) as a candidate beside it.
TEST(DiagnoseKinds4, FreeAboveRequestKeepsExpandableSegmentsCandidate) {
  const auto ds = diagnose_log(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 8.00 GiB of "
      "which 6.40 GiB is free. Of the allocated memory 1.20 GiB is allocated by PyTorch, and 30.00 MiB is reserved by "
      "PyTorch but unallocated.\n");
  const Diagnosis& d = first(ds);
  EXPECT_EQ(d.findings.front().category, OomCause::kOther);
  const int frag = rank_of(d, OomCause::kFragmentation);
  ASSERT_GE(frag, 1);
  EXPECT_LE(frag, 2);
  EXPECT_NE(d.findings[static_cast<size_t>(frag)].fix.find("expandable_segments"), std::string::npos);
}

// Host-memory failures outside PyTorch's allocators: numpy (with its size, also "123. GiB"),
// ENOMEM, std::bad_alloc, Python's MemoryError, a DataLoader worker's bus error. Not a code line
// that names MemoryError, nor numpy's wording about something else.
TEST(DiagnoseKinds4, HostAllocationFailures) {
  const auto np = parse_oom_log(
      "  File \"prep.py\", line 12, in <module>\n"
      "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 3.73 GiB for an array with shape (500000, 1000) "
      "and data type float64\n");
  ASSERT_EQ(np.size(), 1u);
  EXPECT_EQ(np[0].family, "host_alloc");
  EXPECT_EQ(np[0].device, "cpu");
  ASSERT_TRUE(np[0].requested_bytes);
  EXPECT_EQ(*np[0].requested_bytes, static_cast<int64_t>(std::llround(3.73 * 1073741824.0)));
  const auto point = parse_oom_log("MemoryError: Unable to allocate 512. MiB for an array with shape (67108864,) and data "
                                   "type float64\n");
  ASSERT_EQ(point.size(), 1u);
  ASSERT_TRUE(point[0].requested_bytes);
  EXPECT_EQ(*point[0].requested_bytes, int64_t{512} * 1048576);
  for (const char* log : {"OSError: [Errno 12] Cannot allocate memory\n",
                          "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n",
                          "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nMemoryError\n",
                          "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared "
                          "memory (shm).\n"}) {
    const auto ds = diagnose_log(log);
    ASSERT_EQ(ds.size(), 1u) << log;
    EXPECT_EQ(ds[0].findings.front().category, OomCause::kCpuRam) << log;
  }
  EXPECT_TRUE(parse_oom_log("    except MemoryError:\n        pass\n").empty());
  EXPECT_TRUE(parse_oom_log("Unable to allocate a port for the debugger.\n").empty());
  // DefaultCPUAllocator's own "Error code 12 (Cannot allocate memory)" is the same report.
  EXPECT_EQ(parse_oom_log("RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate "
                          "memory: you tried to allocate 1048576 bytes. Error code 12 (Cannot allocate memory)\n")
                .size(),
            1u);
}

// cuDNN's allocation failures are its workspace, which grows with the batch: the working set
// first; cuBLAS's handle (cublasCreate) keeps the installation first.
TEST(DiagnoseKinds4, CudnnWorkspaceIsTheBatch) {
  const auto valid = diagnose_log("RuntimeError: Unable to find a valid cuDNN algorithm to run convolution\n");
  ASSERT_EQ(valid.size(), 1u);
  EXPECT_EQ(valid[0].oom->family, "cudnn_alloc_failed");
  EXPECT_EQ(valid[0].findings.front().category, OomCause::kActivationsBatch);
  const auto status = diagnose_log("cuDNN error: CUDNN_STATUS_ALLOC_FAILED\n");
  EXPECT_EQ(first(status).findings.front().category, OomCause::kActivationsBatch);
  const auto cublas = diagnose_log("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n");
  EXPECT_EQ(first(cublas).findings.front().category, OomCause::kOther);
}

// More families: TensorFlow 2 eager's ResourceExhaustedError without a shape, Apple Metal's
// command-buffer OOM, "not enough memory" / "insufficient memory" in words.
TEST(DiagnoseKinds4, EagerTensorFlowMetalAndWords) {
  const auto tf = parse_oom_log("tensorflow.python.framework.errors_impl.ResourceExhaustedError: failed to allocate memory "
                                "[Op:MatMul]\n");
  ASSERT_EQ(tf.size(), 1u);
  EXPECT_EQ(tf[0].family, "tensorflow");
  const auto metal = parse_oom_log("[METAL] Command buffer execution failed: Insufficient Memory "
                                   "(00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n");
  ASSERT_EQ(metal.size(), 1u);
  EXPECT_EQ(metal[0].family, "metal");
  EXPECT_EQ(metal[0].device, "mps");
  EXPECT_EQ(diagnose_log("The laptop has not enough memory for the 13B model.\n").size(), 1u);
}

// A message without the device's capacity and a request larger than the GPU the user names: one
// tensor larger than the device (the input size first, as with a stated capacity).
TEST(DiagnoseKinds4, RequestLargerThanTheNamedGpu) {
  const auto ds = diagnose_log(
      "Upscaling one photo on my RTX 3060 12GB:\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 96.00 GiB\n");
  const Diagnosis& d = first(ds);
  EXPECT_EQ(d.findings.front().category, OomCause::kActivationsSeqlen);
  ASSERT_FALSE(d.deciding.empty());
  EXPECT_NE(d.deciding.front().what.find("exceeds the 12.00 GiB GPU"), std::string::npos) << d.deciding.front().what;
}

// Reports told in prose only (issue 10: 11 of held5's 40 logs held no error line): memory trouble
// in other words is one numberless "mentioned" report, so the log's evidence is still read; a fact
// about memory, a denial, or another memory (a kernel's shared memory) is none.
TEST(DiagnoseProse, MemoryTroubleInWordsIsAReport) {
  const auto ram = diagnose_log("The Colab runtime crashes saying that it crashed due to low RAM while mapping the dataset.\n");
  ASSERT_EQ(ram.size(), 1u);
  EXPECT_EQ(ram[0].oom->family, "mentioned");
  EXPECT_EQ(ram[0].oom->device, "cpu");
  const auto zh = diagnose_log("训练时出现了CUDA内存不足的问题，batchsize 80\n");
  ASSERT_EQ(zh.size(), 1u);
  EXPECT_EQ(zh[0].oom->device, "cuda");
  const auto err = diagnose_log("I am getting a CUDA memory error when generating text with num_return_sequences 200.\n");
  ASSERT_EQ(err.size(), 1u);
  EXPECT_EQ(err[0].oom->device, "cuda");
  const auto sd = diagnose_log("Stable Diffusion crashed with a CUDA memory error at 1024x1024.\n");
  ASSERT_EQ(sd.size(), 1u);
  EXPECT_EQ(sd[0].oom->device, "cuda");
  for (const char* fact : {"GPU memory usage: 10.2 GB / 24 GB\n", "peak memory 3.2 GiB, memory usage is stable\n",
                           "Epoch 3: val_loss 0.41, RAM 12.1 GB used\n", "memory efficient attention enabled, no error\n",
                           "the DataLoader ran out of shared memory (/dev/shm is 64 MB)\n",
                           "RuntimeError: CUDA error: an illegal memory access was encountered\n",
                           "GPU memory occupied: 3160 MB.\n", "GPU memory utilization is low, how do I raise it?\n",
                           "The model takes up 13 GB of GPU memory in fp16\n", "Due to memory limitation we use batch size 8\n",
                           "Fixed a memory leak in the tokenizer (#1234)\n",
                           "status = StatusCode.RESOURCE_EXHAUSTED details = \"Received message larger than max\"\n",
                           "google.api_core.exceptions.ResourceExhausted: 429 RESOURCE_EXHAUSTED: quota exceeded\n"}) {
    EXPECT_TRUE(diagnose_log(fact).empty()) << fact;
  }
}

TEST(DiagnoseProse, AnotherCopyOnTheGpuAndOneGpuHoldingMoreAreNamed) {
  struct Case {
    const char* log;
    OomCause cause;
    bool ranked_first;  // false: the cause must not be ranked first
  };
  const Case cases[] = {
      {"One notebook was working, but not a second one: the first notebook had not released the GPU memory. Once I "
       "closed the first notebook, the second worked.\n",
       OomCause::kOtherProcess, true},
      {"Running more than 1 vllm instance on a single GPU fails with a memory error.\n", OomCause::kOtherProcess, true},
      {"GPU 0 uses much more memory than the others and then fails with a CUDA memory error.\n",
       OomCause::kMultiGpuImbalance, true},
  };
  for (const Case& c : cases) {
    const auto ds = diagnose_log(c.log);
    ASSERT_EQ(ds.size(), 1u) << c.log;
    ASSERT_FALSE(ds[0].findings.empty()) << c.log;
    EXPECT_EQ(ds[0].findings.front().category == c.cause, c.ranked_first) << c.log;
  }
  // One program on one GPU: neither rule reads these as evidence.
  for (const char* one : {"Training on an AWS g5.xlarge instance with a single GPU (A10G 24 GB) fails with a CUDA memory "
                          "error.\n",
                          "Running the first cell of the notebook on Colab gives a CUDA memory error.\n",
                          "With torch.compile the first iteration compiles the Triton kernels, then a CUDA memory error.\n",
                          "if isinstance(x, Tensor): a second copy, then a CUDA memory error\n",
                          "Memory on cuda:0 is much larger after upgrading to torch 2.1 and it crashes with a memory error.\n",
                          "GPU 0 takes up memory even after del model, then a CUDA memory error.\n"}) {
    const auto ds = diagnose_log(one);
    ASSERT_EQ(ds.size(), 1u) << one;
    for (const Finding& f : ds[0].findings) {
      for (const std::string& e : f.evidence) {
        EXPECT_EQ(e.find("another program's copy"), std::string::npos) << one;
        EXPECT_EQ(e.find("one GPU holds more than the others"), std::string::npos) << one;
      }
    }
  }
}

// The TPU runtime loading a program: "Attempting to reserve ... That was not possible." is XLA's
// report with its size.
TEST(DiagnoseProse, XlaReserveIsAReportWithItsSize) {
  const auto ds = diagnose_log(
      "RESOURCE_EXHAUSTED: Error loading program 'jit__multi_slice': Attempting to reserve 6.14G at the bottom of memory. "
      "That was not possible.\n");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].oom->family, "xla");
  ASSERT_TRUE(ds[0].oom->requested_bytes.has_value());
  EXPECT_NEAR(static_cast<double>(*ds[0].oom->requested_bytes), 6.14 * 1073741824.0, 0.006 * 1073741824.0);
  EXPECT_EQ(ds[0].oom->device, "tpu");
}

// A framework named as not used is not the log's framework ("from the repo without deepspeed").
TEST(DiagnoseKinds6, FrameworkNamedAsNotUsed) {
  const std::string head =
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n"
      "I fine-tune with the transformers Trainer (run_clm.py)";
  EXPECT_EQ(first(diagnose_log(head + " without deepspeed.\n")).framework, "hf");
  EXPECT_EQ(first(diagnose_log(head + " and deepspeed.\n")).framework, "deepspeed");
  EXPECT_EQ(first(diagnose_log(head + ": works without deepspeed, fails with deepspeed.\n")).framework, "deepspeed");
}

// The eighth pass: a finding that rests on the user's sentences alone is capped at "medium", so it
// ranks but never makes a verdict; figures (a logged memory series, a device's free memory printed
// at start-up) and the estimator's numbers still do. Which lines are sentences: code and a
// program's output are not, a sentence that mentions code is.
TEST(DiagnoseKinds8, StatementAloneIsNotAVerdict) {
  const DiagnoseOptions without = rules_alone();
  const std::string told = "My GPU memory keeps growing step after step until the run dies.\n"
                           "RuntimeError: CUDA error: out of memory\n";
  const auto d = first(diagnose_log(told, without));
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings.front().category, OomCause::kLeakAcrossSteps);
  EXPECT_STREQ(d.findings.front().confidence(), "medium");
  EXPECT_EQ(d.verdict(), "ambiguous");
  bool noted = false;
  for (const auto& note : d.notes) noted = noted || note.find("rests on the log's sentences alone") != std::string::npos;
  EXPECT_TRUE(noted);  // the user is told why their sentence is not a verdict
  // A sentence that mentions .item() is still a sentence.
  const auto item = first(diagnose_log(
      "I already call loss.item() for logging, yet memory keeps growing step after step.\n"
      "RuntimeError: CUDA error: out of memory\n",
      without));
  EXPECT_EQ(item.verdict(), "ambiguous");
  // Sentences that open with a word Python also opens blocks with, or with a mention.
  for (const std::string sentence : {"If I lower the batch size (to 4), memory still keeps growing step after step.",
                                     "For every step = 100 batches, memory keeps growing step after step.",
                                     "@maintainer memory keeps growing step after step, even with [0] workers."}) {
    const auto d8 = first(diagnose_log(sentence + "\nRuntimeError: CUDA error: out of memory\n", without));
    EXPECT_EQ(d8.verdict(), "ambiguous") << sentence;
  }
  // A logged memory series decides.
  std::string logged;
  for (int s = 1; s <= 8; ++s) {
    logged += "step " + std::to_string(s * 100) + " | loss 2.1 | mem " + std::to_string(10 + s) + ".00 GiB\n";
  }
  logged += "RuntimeError: CUDA error: out of memory\n";
  EXPECT_EQ(first(diagnose_log(logged, without)).verdict(), "leak_across_steps");
  // TensorFlow's device lines at start-up are the program's output: another process's memory.
  const auto tf = first(diagnose_log("name: GeForce GTX 1080 Ti major: 6 minor: 1 memoryClockRate (GHz) 1.582\n"
                                     "Total memory: 10.92GiB\n"
                                     "Free memory: 502.00MiB\n"
                                     "ResourceExhaustedError: OOM when allocating tensor with shape[64,256,56,56]\n",
                                     without));
  EXPECT_EQ(tf.verdict(), "other_process");
}

// Capped findings keep their order; with the run's settings the estimator measures the run, and
// nothing is capped.
TEST(DiagnoseKinds8, CapKeepsTheOrderAndTheEstimateLiftsIt) {
  const WordPriorModel none;
  DiagnoseOptions without;
  without.word_prior = &none;
  const std::string told = "My GPU memory keeps growing step after step until the run dies.\n"
                           "It fails even with batch size 1.\n"
                           "RuntimeError: CUDA error: out of memory\n";
  const auto d = first(diagnose_log(told, without));
  ASSERT_GE(d.findings.size(), 2u);
  for (const auto& f : d.findings) EXPECT_LE(f.score, 0.7 + 1e-12) << cause_name(f.category);
  EXPECT_EQ(d.findings[0].category, OomCause::kStaticModelTooLarge);  // 0.85 before the cap
  EXPECT_EQ(d.findings[1].category, OomCause::kLeakAcrossSteps);      // 0.75 before the cap
  EXPECT_GT(d.findings[0].score, d.findings[1].score);
  RunSettings run{gpt2_small(), TrainingSetup{}, 80 * kGiB, RemedyResources{}, RemedyScope{}};
  run.setup.micro_batch_size = 1;
  run.setup.seq_len = 128;
  DiagnoseOptions estimated{run, chapter_estimate};
  estimated.word_prior = &none;
  const auto e = first(diagnose_log("My GPU memory keeps growing step after step until the run dies.\n"
                                    "RuntimeError: CUDA error: out of memory\n",
                                    estimated));
  ASSERT_FALSE(e.findings.empty());
  EXPECT_EQ(e.findings.front().category, OomCause::kLeakAcrossSteps);
  EXPECT_STREQ(e.findings.front().confidence(), "high");  // the estimate fits: the leak moves up
}

// A line whose only word the reader weighs is 'loss' still reaches the rules that need no word
// (the speed pass's review: leaving 'loss' out of the early exit lost these).
TEST(DiagnoseKinds8, LossOnlyLinesReachEveryRule) {
  const std::string message =
      "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 11.00 GiB total capacity; 10.30 GiB "
      "already allocated; 20.00 MiB free; 10.50 GiB reserved in total by PyTorch)\n";
  auto cites = [](const Diagnosis& d, const std::string& what) {
    for (const auto& f : d.findings) {
      for (const auto& e : f.evidence) {
        if (e.find(what) != std::string::npos) return true;
      }
    }
    return false;
  };
  EXPECT_TRUE(cites(first(diagnose_log("resuming from a checkpoint crashes right at the loss computation\n" + message)),
                    "fails when resuming from a checkpoint"));
  EXPECT_TRUE(
      cites(first(diagnose_log("the loss OOMs at the first step\n" + message)), "fails at the start of training"));
}

// The ninth pass: the reporter's own account of what fixed the OOM or caused it ranks the cause
// it names (a sentence, so "medium" at most); a negation, a question, a code line and PyTorch's
// own advice are no account.
TEST(DiagnoseKinds9, TheUsersAccountRanksTheCauseItNames) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  auto account = [](const Diagnosis& d) -> std::optional<OomCause> {
    for (const auto& f : d.findings) {
      for (const auto& e : f.evidence) {
        if (e.find("the user's account of the fix or the cause") != std::string::npos) return f.category;
      }
    }
    return std::nullopt;
  };
  auto has_account = [&](const Diagnosis& d) { return account(d).has_value(); };
  const std::vector<std::pair<std::string, OomCause>> told = {
      {"Reducing num_workers to 0 solved it.", OomCause::kCpuRam},
      {"Setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True fixed it for me.", OomCause::kFragmentation},
      {"Turned out every rank loaded the checkpoint onto GPU 0; map_location fixed it.", OomCause::kMultiGpuImbalance},
      {"Wrapping the validation loop in torch.no_grad() fixed the OOM.", OomCause::kEvalWithoutNoGrad},
      {"Lowering max_length from 2048 to 512 works.", OomCause::kActivationsSeqlen},
      {"The fix was to lower gpu_memory_utilization in vLLM.", OomCause::kGenerationKvCache},
      {"It was caused by the optimizer state loaded onto the GPU when resuming.", OomCause::kOptimizerState},
      {"Downgrading transformers to 4.37 resolves it.", OomCause::kOther},
  };
  for (const auto& [sentence, cause] : told) {
    const auto d = first(diagnose_log(message + sentence + "\n", without));
    ASSERT_FALSE(d.findings.empty()) << sentence;
    EXPECT_EQ(d.findings.front().category, cause) << sentence;
    EXPECT_EQ(account(d), std::optional<OomCause>(cause)) << sentence;
    EXPECT_LE(d.findings.front().score, 0.7 + 1e-12) << sentence;  // a sentence: never a verdict alone
    EXPECT_EQ(d.verdict(), "ambiguous") << sentence;
  }
  // Two causes named on one line share the weight: both are cited.
  const auto two = first(diagnose_log(message + "Reducing the batch size and max_length fixed it.\n", without));
  int cited = 0;
  for (const auto& f : two.findings) {
    for (const auto& e : f.evidence) cited += e.find("the user's account") != std::string::npos;
  }
  EXPECT_EQ(cited, 2);
  // The clause that tells, not the whole line: a denial or a question beside it does not undo it.
  EXPECT_EQ(account(first(diagnose_log(
                message + "Lowering the batch size didn't help, but setting expandable_segments fixed it.\n", without))),
            std::optional<OomCause>(OomCause::kFragmentation));
  EXPECT_EQ(account(first(diagnose_log(message + "Setting num_workers=0 fixed it. Is this expected?\n", without))),
            std::optional<OomCause>(OomCause::kCpuRam));
  // Not an account: a negation, a question, a code line, PyTorch's advice in its message, a word
  // of resolution inside another word ("resolution", "networks", "prefixed", "ramp"), "fixed" as
  // an adjective, a program's output (TensorFlow's, NCCL's watchdog).
  for (const std::string line :
       {"Reducing num_workers to 0 didn't help.", "I tried expandable_segments, it still fails.",
        "Has anyone fixed it with expandable_segments?", "fixed = DataLoader(ds, num_workers=0)",
        "If reserved but unallocated memory is large try setting "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.",
        "Lowering max_length hasn't helped.", "The batch size wasn't the cause.", "Setting num_workers no longer works.",
        "Neither expandable_segments nor a smaller batch size helped.",
        "I train SDXL at resolution 1024 with batch size 1 on a 24 GB card.",
        "Our networks use batch size 16 and max_length 512.", "Each key is prefixed with the batch size.",
        "The learning rate ramp works as expected.",
        "I use a fixed seed 42 and a fixed batch size of 32.", "Padding all sequences to a fixed max_length of 512.",
        "2024-05-01 12:00:01 W tensorflow/core/common_runtime/bfc_allocator.cc:290] Garbage collection: to avoid OOM "
        "due to memory fragmentation, try smaller batch sizes",
        "[rank0]:[E501 12:00:01 ProcessGroupNCCL.cpp:1316] [Rank 0] Due to the stuck collective on GPU 0, the "
        "process will abort to avoid data inconsistency."}) {
    EXPECT_FALSE(has_account(first(diagnose_log(message + line + "\n", without)))) << line;
  }
  // "RAM" beside the GPU's memory is not the host's.
  const auto gpu_ram =
      first(diagnose_log(message + "Reducing the batch size fixed it; GPU RAM usage is now 10GB.\n", without));
  for (const auto& f : gpu_ram.findings) EXPECT_NE(f.category, OomCause::kCpuRam) << "GPU RAM";
}

// Host RAM running out in the user's words ranks cpu_ram; the GPU's memory named on the line
// ("GPU RAM", a CUDA message) does not.
TEST(DiagnoseKinds9, HostRamRunsOutInWords) {
  const DiagnoseOptions without = rules_alone();
  auto cites = [](const Diagnosis& d) {
    for (const auto& f : d.findings) {
      for (const auto& e : f.evidence) {
        if (e.find("host RAM runs out, in the user's words") != std::string::npos) return f.category == OomCause::kCpuRam;
      }
    }
    return false;
  };
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  for (const std::string line : {"Loading the 7GB checkpoint used over 12G RAM and crashed.",
                                 "When generating, the RAM usage hit the peak and the runtime got restarted.",
                                 "A T4 instance has only 12.7GB of system memory, not enough for the shards."}) {
    const auto d = first(diagnose_log(line + "\n" + message, without));
    EXPECT_TRUE(cites(d)) << line;
    ASSERT_FALSE(d.findings.empty());
    EXPECT_EQ(d.findings.front().category, OomCause::kCpuRam) << line;
  }
  for (const std::string line : {"My GPU RAM runs out at step 3.", "The 1080ti with 11GB RAM gives CUDA error: out of memory",
                                 "The RAM is not full and nothing crashed.", "Why does the RAM fill up?",
                                 "Model loaded successfully, system memory usage 12.3 GB",
                                 "Full fine-tuning of a 7B model with 64GB RAM.",
                                 "W tensorflow/core/framework/cpu_allocator_impl.cc:80] Allocation of 1073741824 exceeds "
                                 "10% of free system memory."}) {
    EXPECT_FALSE(cites(first(diagnose_log(line + "\n" + message, without)))) << line;
  }
}

// TensorFlow's allocator on the CPU device is host RAM, not an accelerator's activations.
TEST(DiagnoseKinds9, TensorFlowOnTheCpuDeviceIsHostRam) {
  const auto d = first(diagnose_log(
      "Resource exhausted: OOM when allocating tensor with shape[1024,50257] and type float on "
      "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu\n"));
  ASSERT_TRUE(d.oom.has_value());
  EXPECT_EQ(d.oom->family, "tensorflow");
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings.front().category, OomCause::kCpuRam);
  EXPECT_EQ(d.verdict(), "cpu_ram");
  const auto gpu = first(diagnose_log(
      "Resource exhausted: OOM when allocating tensor with shape[1024,50257] and type float on "
      "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"));
  ASSERT_FALSE(gpu.findings.empty());
  EXPECT_NE(gpu.findings.front().category, OomCause::kCpuRam);
}

// DiagnoseOptions::described: a text in which no report is found is one "described" report at
// its first non-blank line when the caller says it reports an OOM; a text holding a message is
// read as before; the kill in Chinese words is the OOM killer.
TEST(DiagnoseKinds9, DescribedTextIsOneReport) {
  const std::string text = "\nThe processes on GPUs 1, 2 and 3 each use almost a GB of space on GPU0.\n";
  EXPECT_TRUE(diagnose_log(text).empty());
  DiagnoseOptions described;
  described.described = true;
  const auto ds = diagnose_log(text, described);
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(ds[0].oom.has_value());
  EXPECT_EQ(ds[0].oom->family, "described");
  EXPECT_EQ(ds[0].oom->line, 2);
  EXPECT_FALSE(ds[0].oom->requested_bytes.has_value());
  ASSERT_FALSE(ds[0].findings.empty());
  EXPECT_EQ(ds[0].findings.front().category, OomCause::kMultiGpuImbalance);
  EXPECT_EQ(ds[0].verdict(), "ambiguous");
  const std::string message = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n";
  const auto with = diagnose_log(message, described);
  ASSERT_EQ(with.size(), 1u);
  EXPECT_EQ(with[0].oom->family, diagnose_log(message)[0].oom->family);
  EXPECT_TRUE(diagnose_log("\n \n", described).empty());  // nothing to read
  const auto zh = diagnose_log("\xe5\x8a\xa0\xe8\xbd\xbd\xe8\xbf\x9b\xe7\xa8\x8b\xe5\x9c\xa8" "57%"
                               "\xe6\x97\xb6\xe4\xbb\x8d\xe8\xa2\xab\xe7\xb3\xbb\xe7\xbb\x9f\xe6\x9d\x80\xe6\xad\xbb\n");
  ASSERT_EQ(zh.size(), 1u);
  EXPECT_EQ(zh[0].oom->family, "oom_killer");
}

// GPU memory uneven across devices told in words, without an OOM message, is a report (the third
// pass of mentioned_oom(), gpu_memory_imbalance_prose()): a GPU or rank 0 named, and in one clause
// the memory with a word of unevenness; not a program's line, a fix, an unevenness meant or denied,
// nor utilization, time, a dataset, labels, the loss, experts' routing or a LoRA rank.
TEST(DiagnoseKinds10, UnevenMemoryAcrossGpusInWords) {
  for (const std::string line : {"With DataParallel the usage of the first GPU is much larger than the others.",
                                 "GPUs memory imbalance.", "The memory usage of GPU0 is significantly higher than other GPUs.",
                                 "Rank 0 uses much more memory than the other ranks.",
                                 "Memory usage is not balanced across the GPUs.",
                                 "VRAM is distributed unequally between the cards.",
                                 "With the MoE model the GPU memory usage is very uneven: 78 GB on GPU 0.",
                                 "Data parallel: GPU 0 gets more memory than others.",
                                 "\xe5\xa4\x9a\xe5\x8d\xa1\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6GPU\xe6\x98\xbe\xe5\xad\x98"
                                 "\xe5\x8d\xa0\xe7\x94\xa8\xe4\xb8\x8d\xe5\x9d\x87\xe8\xa1\xa1"}) {  // 多卡训练时GPU显存占用不均衡
    const auto ds = diagnose_log("\n" + line + "\n");
    ASSERT_EQ(ds.size(), 1u) << line;
    EXPECT_EQ(ds[0].oom->family, "mentioned") << line;
    EXPECT_EQ(ds[0].oom->line, 2) << line;
    ASSERT_FALSE(ds[0].findings.empty()) << line;
    EXPECT_EQ(ds[0].findings.front().category, OomCause::kMultiGpuImbalance) << line;
    EXPECT_EQ(ds[0].verdict(), "ambiguous") << line;  // a sentence alone is never a verdict
  }
  for (const std::string line : {
           "There is no imbalance between the GPUs.", "The GPU utilization is uneven across ranks.",
           "The load on the web server is unbalanced.", "Memory is not unbalanced on the 4 GPUs.",
           "[rank3] step 200 | expert load imbalance 1.8 | mem 41.2 GB",
           "Class imbalance: rank 0 loads most of the positive samples into GPU memory.",
           "Fixed imbalanced GPU memory usage when saving checkpoints on rank 0 (#4521)",
           "device_map=auto splits the layers unevenly across GPUs, that is expected; memory usage stays low.",
           "nvidia-smi shows the GPU usage is uneven (GPU0 98%, GPU1 40%).",
           "Pipeline parallelism: the stages are unbalanced, so GPU 3 sits idle; balance the load.",
           "Time per step is uneven across ranks; memory usage looks fine.",
           "The loss is imbalanced across ranks, but GPU memory usage is flat.",
           "Training LoRA with rank 64 on one GPU: the loss curve is a bit uneven and memory usage is 20 GB.",
           "After the patch GPU memory is no longer unbalanced.",
           "2024-05-01 10:11:12 INFO rank 0: GPU memory usage imbalance 0.02 (max 40.1 GB, min 39.9 GB)"}) {
    EXPECT_TRUE(diagnose_log("\n" + line + "\n").empty()) << line;
    EXPECT_TRUE(diagnose_log("epoch 1 step 10 loss 2.31\n" + line + "\nepoch 1 step 20 loss 2.12\n").empty()) << line;
  }
}

// TensorFlow's BFC allocator prints its chunk map only after a failed allocation
// (BFCAllocator::DumpMemoryLog): a pasted map without the "ran out of memory" line above it is one
// report at its first line; the allocator's other lines are none.
TEST(DiagnoseKinds10, TensorFlowChunkMapIsAReport) {
  const std::string dump =
      "Getting this error on the big model\n"
      "2023-09-18 13:20:23.844959: I tensorflow/core/common_runtime/bfc_allocator.cc:1344] InUse  at 2b673f109b00 of size "
      "256 next 1553\n"
      "2023-09-18 13:20:23.844975: I tensorflow/core/common_runtime/bfc_allocator.cc:1324] Next region of size 8589934592\n";
  const auto ds = diagnose_log(dump);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].oom->family, "mentioned");
  EXPECT_EQ(ds[0].oom->line, 2);
  EXPECT_TRUE(diagnose_log("2023-09-18 13:20:01.1: I tensorflow/core/common_runtime/bfc_allocator.cc:1027] Creating new "
                           "BFCAllocator named: GPU_0_bfc\n")
                  .empty());
}

// Issue 10, the eleventh pass: kinds of account the rules did not read (made-up lines; each kind
// met in a spent corpus part, tests/data/oom-corpus/README.md item 13). `cites(d, what, cause)`:
// some finding of `d` cites the rule's evidence `what` and is `cause`.
namespace {
// The first finding of `d` whose evidence holds `what`; nullptr when none does.
const Finding* citing(const Diagnosis& d, const std::string& what) {
  for (const auto& f : d.findings) {
    for (const auto& e : f.evidence) {
      if (e.find(what) != std::string::npos) return &f;
    }
  }
  return nullptr;
}
bool cites(const Diagnosis& d, const std::string& what, OomCause cause) {
  const Finding* f = citing(d, what);
  return f != nullptr && f->category == cause;
}
// Some finding of `d` cites evidence holding `what` (any cause).
bool cites_text(const Diagnosis& d, const std::string& what) { return citing(d, what) != nullptr; }
}  // namespace

TEST(DiagnoseKinds11, TheOptimizersMemoryInWords) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  const std::string what = "the optimizer's memory, in the user's words";
  for (const std::string line : {"It seems DAdaptAdam has a higher memory usage than standard Adam.",
                                 "Does FusedAdam consume twice the memory of the model?",
                                 "The optimizer states take 3x the memory of the weights.",
                                 "Adam's two moments need a lot of memory for a 7B model."}) {
    const auto d = first(diagnose_log(line + "\n" + message, without));
    EXPECT_TRUE(cites(d, what, OomCause::kOptimizerState)) << line;
    ASSERT_FALSE(d.findings.empty()) << line;
    EXPECT_EQ(d.findings.front().category, OomCause::kOptimizerState) << line;
    EXPECT_EQ(d.verdict(), "ambiguous") << line;
  }
  for (const std::string line : {"Adam does not use more memory than SGD here.", "The learning rate of Adam is twice the SGD one.",
                                 "8-bit Adam uses less memory.", "Memory usage doubles when the sequence length doubles."}) {
    EXPECT_FALSE(cites(first(diagnose_log(line + "\n" + message, without)), what, OomCause::kOptimizerState)) << line;
  }
}

TEST(DiagnoseKinds11, AWholeDatasetInHostMemory) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  const std::string what = "a whole dataset held in host memory";
  for (const std::string line : {"The issue is that inference.py first loads all image files into the memory.",
                                 "The whole dataset is held in RAM as numpy arrays."}) {
    const auto d = first(diagnose_log(line + "\n" + message, without));
    EXPECT_TRUE(cites(d, what, OomCause::kCpuRam)) << line;
    ASSERT_FALSE(d.findings.empty()) << line;
    EXPECT_EQ(d.findings.front().category, OomCause::kCpuRam) << line;
  }
  for (const std::string line : {"The whole dataset is moved to the GPU memory at once.",
                                 "I do not load the entire dataset into memory.", "All images fit in memory on the device."}) {
    EXPECT_FALSE(cites(first(diagnose_log(line + "\n" + message, without)), what, OomCause::kCpuRam)) << line;
  }
}

TEST(DiagnoseKinds11, GpuMemoryAFinishedProcessLeftBehind) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  for (const auto& [line, what] : std::vector<std::pair<std::string, std::string>>{
           {"The GPU memory is not released if I stop the training with Ctrl-C.", "GPU memory a finished process left behind"},
           {"It appears that the memory is orphaned on the GPU when pycaffe exits unexpectedly.",
            "GPU memory a finished process left behind"},
           {"There are more and more processes running on my GPUs.", "processes piling up on the GPUs"}}) {
    const auto d = first(diagnose_log(line + "\n" + message, without));
    EXPECT_TRUE(cites(d, what, OomCause::kOtherProcess)) << line;
    ASSERT_FALSE(d.findings.empty()) << line;
    EXPECT_EQ(d.findings.front().category, OomCause::kOtherProcess) << line;
  }
  for (const std::string line : {"GPU memory is not released after each epoch.",
                                 "The process was killed, but that is not the problem: GPU memory was not freed.",
                                 "I stopped the old run and the GPU memory was released."}) {
    const auto d = first(diagnose_log(line + "\n" + message, without));
    EXPECT_FALSE(cites(d, "GPU memory a finished process left behind", OomCause::kOtherProcess)) << line;
    EXPECT_FALSE(cites(d, "processes piling up on the GPUs", OomCause::kOtherProcess)) << line;
  }
}

TEST(DiagnoseKinds11, TheFirstGpuAloneUsed) {
  for (const std::string line : {"With gpus = '0,1,2,3' the memory is only used in the first GPU.",
                                 "Data parallel: the 0 GPU gets more memories than others."}) {
    const auto ds = diagnose_log("\n" + line + "\n");
    ASSERT_EQ(ds.size(), 1u) << line;
    EXPECT_EQ(ds[0].oom->family, "mentioned") << line;
    ASSERT_FALSE(ds[0].findings.empty()) << line;
    EXPECT_EQ(ds[0].findings.front().category, OomCause::kMultiGpuImbalance) << line;
  }
  for (const std::string line : {"I only have 8 GB of memory on GPU 0.", "Only GPU 0 is visible; its memory is 24 GB.",
                                 "I only use GPU 0 and its memory is 24 GB."}) {
    EXPECT_TRUE(diagnose_log("\n" + line + "\n").empty()) << line;
  }
}

TEST(DiagnoseKinds11, HostRamInMoreWords) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  const std::string what = "host RAM runs out, in the user's words";
  for (const std::string line :
       {"\xe6\x95\xb0\xe6\x8d\xae\xe9\x87\x8f\xe8\xb6\x85\xe8\xbf\x87\xe4\xb8\x80\xe4\xba\xbf\xe6\x9d\xa1\xe4\xbb\xa5\xe5\x90\x8e"
        "\xef\xbc\x8c\xe5\x86\x85\xe5\xad\x98\xe5\x87\xba\xe7\x8e\xb0OOM",  // 数据量超过一亿条以后，内存出现OOM
        "DataLoader makes the main memory usage increase from 5GB to 17GB when num_workers is nonzero."}) {
    EXPECT_TRUE(cites(first(diagnose_log(line + "\n" + message, without)), what, OomCause::kCpuRam)) << line;
  }
  for (const std::string line : {"I tried it on 8 L4s (GPU 45GB in RAM), it failed with OOM error.",
                                 "\xe6\x98\xbe\xe5\xad\x98\xe5\x87\xba\xe7\x8e\xb0OOM",  // 显存出现OOM (the GPU's)
                                 "The main memory usage does not increase with num_workers."}) {
    EXPECT_FALSE(cites(first(diagnose_log(line + "\n" + message, without)), what, OomCause::kCpuRam)) << line;
  }
}

TEST(DiagnoseKinds11, TheRunWentThroughAfterAChange) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  const std::string what = "the user's account of the fix or the cause";
  const auto d = first(diagnose_log(
      message + "After setting PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128 I was able to continue without issues.\n", without));
  EXPECT_TRUE(cites(d, what, OomCause::kFragmentation));
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings.front().category, OomCause::kFragmentation);
  for (const std::string line : {"I was able to train with batch size 16 before the upgrade.",
                                 "After the upgrade I was not able to use max_split_size_mb any more."}) {
    const auto e = first(diagnose_log(message + line + "\n", without));
    for (const auto& f : e.findings) {
      for (const auto& ev : f.evidence) EXPECT_EQ(ev.find(what), std::string::npos) << line;
    }
  }
}

// The eleventh pass's readings, reviewed after held14's score (tests/data/oom-corpus/README.md
// item 13): near misses a fresh reader wrote against them (facts, savings, advice, denials,
// questions, conditionals, changelogs, other senses of "full", "only", "processes", "optim",
// "after"), each read as no such evidence; and the same kinds in other words, each read.
TEST(DiagnoseKinds11, NearMissesAReviewerWrote) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  struct Miss {
    std::string line, what;
    OomCause cause;
  };
  const std::string opt = "the optimizer's memory, in the user's words", data = "a whole dataset held in host memory",
                    ram = "host RAM runs out, in the user's words", left = "GPU memory a finished process left behind",
                    piling = "processes piling up on the GPUs", account = "the user's account of the fix or the cause";
  for (const Miss& m : std::vector<Miss>{
           {"8-bit Adam cuts optimizer memory by 2x compared to fp32 Adam.", opt, OomCause::kOptimizerState},
           {"Optimized memory usage: inference now consumes 40% less GPU memory (#512)", opt, OomCause::kOptimizerState},
           {"FlashAttention-2 optimizations double throughput with the same memory footprint.", opt, OomCause::kOptimizerState},
           {"SGD with momentum 0.9 uses twice the parameter memory of plain SGD, which is expected.", opt,
            OomCause::kOptimizerState},
           {"Epoch 3/10 - optimizer: Adam - memory: 10.2GB - consumed samples: 48000", opt, OomCause::kOptimizerState},
           {"Namespace(optim='adamw', batch_size=16, memory_format='channels_last', double_quant=True)", opt,
            OomCause::kOptimizerState},
           {"The whole dataset fits in memory, so we cache it at startup.", data, OomCause::kCpuRam},
           {"Set cache_images=True to load all images into memory; this speeds up each epoch by about 3x.", data,
            OomCause::kCpuRam},
           {"The entire dataset is only 2 GB so it is loaded into memory once.", data, OomCause::kCpuRam},
           {"Precompute features for the whole dataset in memory-mapped files.", data, OomCause::kCpuRam},
           {"The dataset has 1M images, all images are resized in memory before training.", data, OomCause::kCpuRam},
           {"To get full performance, give the container at least 32 GB of RAM.", ram, OomCause::kCpuRam},
           {"The RAM is full speed DDR5 and the GPU is an A100.", ram, OomCause::kCpuRam},
           {"Specs: 32GB RAM, RTX 4090, OOM at the first step with batch size 8.", ram, OomCause::kCpuRam},
           {"Increasing num_workers from 4 to 8 made the DataLoader 2x faster, RAM usage grows a little but is fine.", ram,
            OomCause::kCpuRam},
           {"Reducing num_workers avoids the RAM increase entirely.", ram, OomCause::kCpuRam},
           // 我的电脑内存是64G，应该够用了吧，不会不够吧？ (64G of RAM should be enough, shouldn't it?)
           {"\xe6\x88\x91\xe7\x9a\x84\xe7\x94\xb5\xe8\x84\x91\xe5\x86\x85\xe5\xad\x98\xe6\x98\xaf" "64G\xef\xbc\x8c\xe5\xba\x94\xe8\xaf\xa5"
            "\xe5\xa4\x9f\xe7\x94\xa8\xe4\xba\x86\xe5\x90\xa7\xef\xbc\x8c\xe4\xb8\x8d\xe4\xbc\x9a\xe4\xb8\x8d\xe5\xa4\x9f\xe5\x90\xa7"
            "\xef\xbc\x9f",
            ram, OomCause::kCpuRam},
           {"With DDP, 8 processes are still running on the GPUs while rank 0 saves the checkpoint.", piling,
            OomCause::kOtherProcess},
           {"accelerate launch with 4 processes on 4 GPUs and gradient accumulation of 8 steps", piling,
            OomCause::kOtherProcess},
           {"CUDA memory is not released back to the OS until the process exits; this is expected.", left,
            OomCause::kOtherProcess},
           {"If you stop training with Ctrl-C the GPU memory is released automatically.", left, OomCause::kOtherProcess},
           {"GPU memory is not released between steps, so the training crashes.", left, OomCause::kOtherProcess},
           {"After upgrading to torch 2.1 I was able to reproduce it with num_workers=4.", account, OomCause::kCpuRam},
           {"After installing the CUDA toolkit I was able to run the demo on the first GPU.", account,
            OomCause::kMultiGpuImbalance},
           {"I was able to train for 2 epochs with expandable_segments, after that it crashed again.", account,
            OomCause::kFragmentation},
           {"With batch size 8 it ran without issues on v1.2, after upgrading to v1.3 it OOMs.", account,
            OomCause::kActivationsBatch},
           {"I stopped the old job, but I still get out of memory on the GPU.", left, OomCause::kOtherProcess},
           {"GPU memory is still ~half free while the OOM-killer kills the ranks.", left, OomCause::kOtherProcess},
           // A second review of the widened readings (item 14): common phrasings they fired on.
           {"Using LoRA for finetuning Llama-2-13B with batch size 4 on a 24GB GPU.", account, OomCause::kActivationsBatch},
           {"Let me know if you need the full log, I use num_workers=8.", account, OomCause::kCpuRam},
           {"Reducing the batch size didn't help, it doesn't crash right away but after a few hundred steps.", account,
            OomCause::kActivationsBatch},
           {"Using batch size 8. Training looks fine \xe2\x80\x93 GPU memory at 70 GB.", account, OomCause::kActivationsBatch},
           {"Finally, after setting batch size to 32, the GPU ran out of memory.", account, OomCause::kActivationsBatch},
           {"I'm fine-tuning Llama-2-7B with AdamW on 4x A100 80GB GPUs.", opt, OomCause::kOptimizerState},
           {"I'm training with Adam for more than 10 epochs and memory usage is 20GB.", opt, OomCause::kOptimizerState},
           {"The loss is stuck at 2.3 and GPU memory use is 10 GB; I stopped training after 3 epochs.", left,
            OomCause::kOtherProcess},
           {"This looks like the closed issue #1234: GPU memory is not released between epochs.", left,
            OomCause::kOtherProcess},
           {"Training hangs on the host side while waiting for the NCCL all-reduce.", ram, OomCause::kCpuRam},
           {"After I swap the optimizer to Adafactor, training hangs at step 0.", ram, OomCause::kCpuRam},
           {"During a full training run RAM usage reaches 60 GB while loading checkpoints.", data, OomCause::kCpuRam},
           {"With model offloading, all text encoders are kept in CPU RAM until needed.", data, OomCause::kCpuRam}}) {
    EXPECT_FALSE(cites(first(diagnose_log(m.line + "\n" + message, without)), m.what, m.cause)) << m.line;
  }
  // Alone, none of these is a report of memory trouble.
  for (const std::string line : {
           "The disk is full, but RAM usage is normal at 12 GB.", "Warning: /tmp is full of old checkpoints; memory usage looks fine.",
           "The memory is fully utilized by design, vLLM preallocates 90% of VRAM.",
           "The model does not fit the data well; memory usage is 3 GB.", "The GPU memory never gets full with this config.",
           "Memory usage is quickly growing in popularity as a metric for efficient LLMs.",
           "The tokenizer keeps allocating memory until the zoom level is reset.",
           "The process keeps consuming RAM until the epoch ends and then drops back, no errors.",
           "The cache keeps allocating memory until it is full, then evicts the oldest entries.",
           "Memory usage rises quickly during warmup and then remains constant at 20 GB.",
           "GPU 0 memory used: only 4.1GB of 24GB.",
           "To use only the first GPU set CUDA_VISIBLE_DEVICES=0, the memory used will be about 10 GB.",
           "How do I detect memory leaks in PyTorch?",
           "If the model does not fit in GPU memory, accelerate will offload some layers to CPU.",
           "The caching allocator keeps memory reserved after the first step, which is not a leak.",
           "Memory usage grows quadratically with longer sequences.", "Disk usage keeps growing every epoch.",
           "Setting max output tokens to 4096 uses about 20 GB of GPU memory.",
           "We hit the memory bandwidth limit on the H100 at batch size 64.",
           "The model weights are loaded into GPU memory fully before inference starts.",
           "It is full bf16 training and memory usage is 40 GB.",
           // 显存占用没有上升 (GPU memory use did not go up); 显存24G，开了梯度累积以后batch可以到16 (24G; with
           // gradient accumulation the batch can reach 16)
           "\xe6\x98\xbe\xe5\xad\x98\xe5\x8d\xa0\xe7\x94\xa8\xe6\xb2\xa1\xe6\x9c\x89\xe4\xb8\x8a\xe5\x8d\x87",
           "\xe6\x98\xbe\xe5\xad\x98" "24G\xef\xbc\x8c\xe5\xbc\x80\xe4\xba\x86\xe6\xa2\xaf\xe5\xba\xa6\xe7\xb4\xaf\xe7\xa7\xaf"
           "\xe4\xbb\xa5\xe5\x90\x8e" "batch\xe5\x8f\xaf\xe4\xbb\xa5\xe5\x88\xb0" "16",
           // 随着batch size增大，显存占用越来越大是正常的。 (growing with the batch size is normal)
           "\xe9\x9a\x8f\xe7\x9d\x80" "batch size\xe5\xa2\x9e\xe5\xa4\xa7\xef\xbc\x8c\xe6\x98\xbe\xe5\xad\x98\xe5\x8d\xa0\xe7\x94\xa8"
           "\xe8\xb6\x8a\xe6\x9d\xa5\xe8\xb6\x8a\xe5\xa4\xa7\xe6\x98\xaf\xe6\xad\xa3\xe5\xb8\xb8\xe7\x9a\x84\xe3\x80\x82",
           // 越来越多的人开始用24G显存的显卡训练大模型。 (more and more people train on 24G cards)
           "\xe8\xb6\x8a\xe6\x9d\xa5\xe8\xb6\x8a\xe5\xa4\x9a\xe7\x9a\x84\xe4\xba\xba\xe5\xbc\x80\xe5\xa7\x8b\xe7\x94\xa8" "24G"
           "\xe6\x98\xbe\xe5\xad\x98\xe7\x9a\x84\xe6\x98\xbe\xe5\x8d\xa1\xe8\xae\xad\xe7\xbb\x83\xe5\xa4\xa7\xe6\xa8\xa1\xe5\x9e\x8b\xe3\x80\x82",
           // 如果显存不足，请使用--lowvram参数。 (if the GPU memory is not enough, use --lowvram)
           "\xe5\xa6\x82\xe6\x9e\x9c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3\xef\xbc\x8c\xe8\xaf\xb7\xe4\xbd\xbf\xe7\x94\xa8"
           "--lowvram\xe5\x8f\x82\xe6\x95\xb0\xe3\x80\x82",
           // 内存溢出的问题已经在v1.2中修复。 (the overflow was fixed in v1.2)
           "\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\xe7\x9a\x84\xe9\x97\xae\xe9\xa2\x98\xe5\xb7\xb2\xe7\xbb\x8f\xe5\x9c\xa8"
           "v1.2\xe4\xb8\xad\xe4\xbf\xae\xe5\xa4\x8d\xe3\x80\x82"}) {
    EXPECT_TRUE(diagnose_log("\n" + line + "\n").empty()) << line;
  }
}

TEST(DiagnoseKinds11, TheSameKindsInOtherWords) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  struct Told {
    std::string line, what;
    OomCause cause;
  };
  const std::string opt = "the optimizer's memory, in the user's words", data = "a whole dataset held in host memory",
                    ram = "host RAM runs out, in the user's words", left = "GPU memory a finished process left behind",
                    account = "the user's account of the fix or the cause";
  for (const Told& t : std::vector<Told>{
           {"Adam stores two extra copies of the weights (exp_avg and exp_avg_sq), which eats my VRAM.", opt,
            OomCause::kOptimizerState},
           {"With Adam the memory usage is 3 times higher than with SGD.", opt, OomCause::kOptimizerState},
           {"It seems the dataloader loads all the training data into RAM.", data, OomCause::kCpuRam},
           {"The dataset class reads every image into memory in __init__.", data, OomCause::kCpuRam},
           {"After Ctrl+C, the GPU memory isn't released.", left, OomCause::kOtherProcess},
           {"GPU memory stays occupied after the training crashed.", left, OomCause::kOtherProcess},
           {"The host memory OOMs when I use 8 DataLoader workers.", ram, OomCause::kCpuRam},
           {"RAM usage balloons with more DataLoader workers.", ram, OomCause::kCpuRam},
           // 内存占满之后进程就挂了。 (the process died once the RAM filled up)
           {"\xe5\x86\x85\xe5\xad\x98\xe5\x8d\xa0\xe6\xbb\xa1\xe4\xb9\x8b\xe5\x90\x8e\xe8\xbf\x9b\xe7\xa8\x8b\xe5\xb0\xb1\xe6\x8c\x82"
            "\xe4\xba\x86\xe3\x80\x82",
            ram, OomCause::kCpuRam},
           {"Reducing num_workers to 2 allowed me to train without OOM.", account, OomCause::kCpuRam},
           {"I could train after I set expandable_segments:True.", account, OomCause::kFragmentation},
           {"it OOMs exactly at optimizer.step(), forward and backward both go through", opt, OomCause::kOptimizerState},
           {"looks like the adam states are what's killing me, weights 14GB, optimizer 56GB", opt, OomCause::kOptimizerState},
           {"The script keeps preprocessed features for the complete dataset in RAM instead of streaming them.", data,
            OomCause::kCpuRam},
           {"slurm cancelled my job but a leftover python process on node 4 still owns half the GPU memory", left,
            OomCause::kOtherProcess},
           {"The python process crashed but the VRAM was never released, I have to reboot.", left, OomCause::kOtherProcess},
           // 程序已经停了，但是 nvidia-smi 里显存还是被占着 (the program stopped, but nvidia-smi shows the memory held)
           {"\xe7\xa8\x8b\xe5\xba\x8f\xe5\xb7\xb2\xe7\xbb\x8f\xe5\x81\x9c\xe4\xba\x86\xef\xbc\x8c\xe4\xbd\x86\xe6\x98\xaf"
            " nvidia-smi \xe9\x87\x8c\xe6\x98\xbe\xe5\xad\x98\xe8\xbf\x98\xe6\x98\xaf\xe8\xa2\xab\xe5\x8d\xa0\xe7\x9d\x80",
            left, OomCause::kOtherProcess},
           {"The machine's memory is full and the trainer gets SIGKILL.", ram, OomCause::kCpuRam},
           {"Switched to bitsandbytes 8-bit Adam and it no longer OOMs on my 3090.", account, OomCause::kOptimizerState},
           {"Wrapping the eval loop in torch.no_grad() did the trick, eval completes.", account,
            OomCause::kEvalWithoutNoGrad},
           // 加了 torch.cuda.empty_cache() 之后 eval 就不爆显存了 (after adding empty_cache() eval no longer blows the memory)
           {"\xe5\x8a\xa0\xe4\xba\x86 torch.cuda.empty_cache() \xe4\xb9\x8b\xe5\x90\x8e eval \xe5\xb0\xb1\xe4\xb8\x8d\xe7\x88\x86"
            "\xe6\x98\xbe\xe5\xad\x98\xe4\xba\x86", account, OomCause::kFragmentation},
           {"OOM on resume only: Trainer loads optimizer.pt (11GB) straight to GPU", opt, OomCause::kOptimizerState},
           {"DeepSpeed ZeRO-1 still OOMs when it allocates the fp32 optimizer states", opt, OomCause::kOptimizerState},
           {"holding all 4 million text pairs in memory as python strings takes ~35GB", data, OomCause::kCpuRam},
           {"process got killed, yet GPU shows 40000MiB / 81920MiB used with nothing running", left,
            OomCause::kOtherProcess},
           {"loading the 70B gguf with llama.cpp exhausts my system RAM and it starts swapping", ram, OomCause::kCpuRam},
           {"num_workers 8 -> 2 and the RAM stopped blowing up, epochs complete fine now", account, OomCause::kCpuRam},
           {"max_split_size_mb:128 got rid of the fragmentation crash for me", account, OomCause::kFragmentation},
           {"Processing 1080p videos, the RAM OOMs after a minute.", ram, OomCause::kCpuRam}}) {
    EXPECT_TRUE(cites(first(diagnose_log(t.line + "\n" + message, without)), t.what, t.cause)) << t.line;
  }
  for (const std::string line : {"All the memory goes to GPU 0 only.", "Only the memory of the first GPU increases.",
                                 "Only cuda:0 fills up and crashes, GPUs 1-7 barely use anything.",
                                 "The first GPU fills up completely while GPU 1 stays almost empty.",
                                 "YOLOv8 with device=0,1 still loads everything on GPU 0 and crashes there.",
                                 "rank 0's card is at 79GB/80GB, the rest at 45GB, and it's rank 0 that crashes",
                                 "I have GPU 0 and GPU 1, but only GPU 0 memory is used."}) {
    const auto ds = diagnose_log(line + "\n" + message, without);
    ASSERT_FALSE(ds.empty()) << line;
    bool uneven = false;
    for (const auto& f : ds[0].findings) uneven = uneven || f.category == OomCause::kMultiGpuImbalance;
    EXPECT_TRUE(uneven) << line;
  }
  for (const std::string line : {"Only the first GPU is used for evaluation by design; memory on others stays idle.",
                                 "The first GPU runs hotter because it sits right above the other one, which stays idle.",
                                 "I put everything on cuda:0 and it crashes.",  // one GPU, no other named
                                 "I only have one GPU (GPU 0) and memory usage is 20 GB during training.",
                                 "Only GPU 0 is visible in my container and memory usage is 20 GB."}) {
    const auto ds = diagnose_log(line + "\n" + message, without);
    ASSERT_FALSE(ds.empty()) << line;
    EXPECT_FALSE(cites(ds[0], "one GPU holds more than the others", OomCause::kMultiGpuImbalance)) << line;
  }
  // zh growth and trouble, alone: 显存一直在涨 (GPU memory keeps rising), 显存无法释放 (cannot be freed),
  // 显存一直增加，不正常 (keeps increasing, abnormal); and "keeps increasing constantly", "the GPU memory is
  // full and I cannot train".
  for (const std::string line : {"GPU memory keeps increasing constantly during training.",
                                 "The GPU memory is full and I cannot train.",
                                 "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x80\xe7\x9b\xb4\xe5\xa2\x9e\xe5\x8a\xa0\xef\xbc\x8c"
                                 "\xe4\xb8\x8d\xe6\xad\xa3\xe5\xb8\xb8",
                                 "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x80\xe7\x9b\xb4\xe5\x9c\xa8\xe6\xb6\xa8\xe3\x80\x82",
                                 "\xe6\x98\xbe\xe5\xad\x98\xe6\x97\xa0\xe6\xb3\x95\xe9\x87\x8a\xe6\x94\xbe\xe3\x80\x82"}) {
    const auto ds = diagnose_log("\n" + line + "\n");
    ASSERT_EQ(ds.size(), 1u) << line;
    EXPECT_EQ(ds[0].oom->family, "mentioned") << line;
  }
}

// After held14's score (tests/data/oom-corpus/README.md item 13): TensorFlow before 1.1 printed
// "OOM when allocating tensor of shape [16384] and type float"; memory trouble told in more words.
TEST(DiagnoseKinds11, TensorFlowsOlderShapeForm) {
  const auto rs = parse_oom_log(
      "ResourceExhaustedError (see above for traceback): OOM when allocating tensor of shape [16384] and type float\n");
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].family, "tensorflow");
  ASSERT_TRUE(rs[0].requested_bytes.has_value());
  EXPECT_EQ(*rs[0].requested_bytes, 16384 * 4);
  const auto two = parse_oom_log("OOM when allocating tensor of shape [563354, 256] and type float\n");
  ASSERT_EQ(two.size(), 1u);
  ASSERT_TRUE(two[0].requested_bytes.has_value());
  EXPECT_EQ(*two[0].requested_bytes, int64_t{563354} * 256 * 4);
}

TEST(DiagnoseKinds11, MemoryTroubleInMoreWords) {
  for (const std::string line : {
           "\xe5\x9c\xa8\xe5\x81\x9a\xe8\xaf\x86\xe5\x88\xab\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xef\xbc\x8c\xe6\x9c\x89\xe5\x86\x85"
           "\xe5\xad\x98\xe6\xb3\x84\xe6\xbc\x8f",  // 在做识别的时候，有内存泄漏 (a host memory leak while recognising)
           "\xe6\x8e\xa8\xe7\x90\x86\xe7\x9a\x84\xe8\xbf\x87\xe7\xa8\x8b\xe4\xb8\xad\xe6\x98\xbe\xe5\xad\x98\xe4\xbc\x9a\xe6\xb3\x84"
           "\xe9\x9c\xb2",  // 推理的过程中显存会泄露 (GPU memory leaks during inference)
           "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f",  // 显存不够 (not enough GPU memory)
           "It creates the output file, then starts allocating RAM until I get a stack overload.",
           "Rapidly Increasing VRAM Use in Chat Mode", "It seems my gpu (2060) doesnt have enough vram.",
           "The weights do not fit in the memory of a single 48GB GPU.",
           "I have 24 GB of RAM and it gets completely full."}) {
    const auto ds = diagnose_log("\n" + line + "\n");
    ASSERT_EQ(ds.size(), 1u) << line;
    EXPECT_EQ(ds[0].oom->family, "mentioned") << line;
    EXPECT_EQ(ds[0].oom->line, 2) << line;
  }
  for (const std::string line : {"\xe6\xb2\xa1\xe6\x9c\x89\xe5\x86\x85\xe5\xad\x98\xe6\xb3\x84\xe6\xbc\x8f",  // 没有内存泄漏 (no leak)
                                 "Memory increases quickly with the sequence length.", "Freezing the backbone saves memory.",
                                 "The model fits in memory now.", "The RAM is not full.",
                                 "Allocating 2 GB of memory until the first step is normal."}) {
    EXPECT_TRUE(diagnose_log("\n" + line + "\n").empty()) << line;
  }
}

// The thirteenth pass (tests/data/oom-corpus/README.md item 17): memory told short in other
// words is a report ("lack of system memory", "memory blow-ups", "a lot of GPU memory" where it
// should not go); a saving or a bandwidth is not. Another application on the GPU is another process.
TEST(DiagnoseKinds13, MemoryTroubleToldShortAndOtherApps) {
  for (const std::string line : {"The worker crashed with a bus error due to lack of host memory.",
                                 "we see memory blowups whenever the validation loop starts",
                                 "The cached attention maps take a lot of GPU memory during inference."}) {
    const auto ds = diagnose_log("\n" + line + "\n");
    ASSERT_EQ(ds.size(), 1u) << line;
    EXPECT_EQ(ds[0].oom->family, "mentioned") << line;
  }
  for (const std::string line : {"Training is slow for lack of memory bandwidth.",
                                 "Gradient checkpointing saves a lot of memory here.",
                                 "Flash attention frees a lot of GPU memory for larger batches."}) {
    EXPECT_TRUE(diagnose_log("\n" + line + "\n").empty()) << line;
  }
  const DiagnoseOptions without = rules_alone();
  const auto d = first(diagnose_log(
      "RuntimeError: CUDA error: out of memory\nAnother application was holding most of the VRAM while it trained.\n",
      without));
  EXPECT_TRUE(cites(d, "other jobs on the GPU", OomCause::kOtherProcess));
}

// After held17's score (tests/data/oom-corpus/README.md item 17; not tested apart): the memory
// "overflowing" is an OOM told in words; a video format's height ("1080p") is an input's resolution.
TEST(DiagnoseKinds13, AfterHeld17sScore) {
  for (const std::string line : {"Decoding keeps the graph, which causes memory overflow on long inputs.",
                                 "the GPU memory overflows as soon as validation starts"}) {
    const auto ds = diagnose_log("\n" + line + "\n");
    ASSERT_EQ(ds.size(), 1u) << line;
    EXPECT_EQ(ds[0].oom->family, "mentioned") << line;
  }
  EXPECT_TRUE(diagnose_log("\nAn integer overflow in the memory size check was fixed upstream.\n").empty());
  const DiagnoseOptions without = rules_alone();
  const auto d = first(diagnose_log("RuntimeError: CUDA error: out of memory\nIt fails on a single 2160p frame.\n", without));
  EXPECT_TRUE(cites(d, "a long input (sequence length / resolution): 2160p", OomCause::kActivationsSeqlen));
  const auto code = first(diagnose_log("RuntimeError: CUDA error: out of memory\nmodel = load('resnet1080', pretrained=True)\n", without));
  EXPECT_FALSE(cites_text(code, "a long input (sequence length / resolution)"));
}

// The review of the thirteenth pass (item 17): its readings in the reviewer's sentences. Memory
// short, overflowing or taken is read word by word, with denials, prevention, checks, fp16's
// overflow, modifiers ("memory pinning", "memory-efficient"), a device's size and savings left
// out; another app needs the GPU held; a video height needs an input named and no display.
TEST(DiagnoseKinds13, AReviewersSentences) {
  for (const std::string line : {"The GPU memory is overflowing after a few batches.",
                                 "The activations overflow the GPU memory at batch size 64.",
                                 "It fails because of lack of GPU memory, not bandwidth.", "My GPU lacks memory for the 13B model.",
                                 "The model is lacking GPU memory on a T4.", "The dataloader workers use a lot of CUDA memory.",
                                 "The cached features eat lots of VRAM.",
                                 "Training gets slower and the cached features take a lot of GPU memory."}) {
    const auto ds = diagnose_log("\n" + line + "\n");
    ASSERT_EQ(ds.size(), 1u) << line;
    EXPECT_EQ(ds[0].oom->family, "mentioned") << line;
  }
  for (const std::string line :
       {"There is no memory overflow, the run finished fine.", "The memory overflow check passed for all ranks.",
        "Paged attention prevents memory overflow in long contexts.", "step 120: param overflow detected, skipping update | memory 10.2 GB",
        "Histogram overflow bins use extra memory.", "The issue is the lack of memory pinning in the dataloader.",
        "It fails due to lack of memory-efficient attention on V100.", "There is no lack of GPU memory here, 60 GB are free.",
        "The A100 has a lot of memory, 80 GB.", "An H100 gives you a lot of GPU memory to work with.",
        "We have lots of memory on this node (2 TB RAM).", "Quantization to 4-bit cuts a lot of memory.",
        "DeepSpeed ZeRO-3 offloads a lot of GPU memory to CPU.", "Using bf16 helps to save lots of memory.",
        "With ZeRO you can free lots of GPU memory.", "The KV cache occupies a lot of GPU memory by design; that is expected."}) {
    EXPECT_TRUE(diagnose_log("\n" + line + "\n").empty()) << line;
  }
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  for (const std::string line : {"Please test with another app version before filing.",
                                 "Another application of this method is image segmentation.",
                                 "I also tried it in another application (ComfyUI) and it works there.",
                                 "No other app is using the GPU (checked nvidia-smi)."}) {
    EXPECT_FALSE(cites(first(diagnose_log(message + line + "\n", without)), "other jobs on the GPU", OomCause::kOtherProcess))
        << line;
  }
  for (const std::string line : {"We render the preview at 720p.", "youtube-dl -f 1080p", "Monitor at 2160p, GPU RTX 4090."}) {
    EXPECT_FALSE(cites_text(first(diagnose_log(message + line + "\n", without)), "a long input (sequence length / resolution): "))
        << line;
  }
  for (const std::string line : {"Frames are 1080p60 from a dashcam.", "The input is 1920x1080p video."}) {
    EXPECT_TRUE(cites(first(diagnose_log(message + line + "\n", without)), "a long input (sequence length / resolution): ",
                      OomCause::kActivationsSeqlen))
        << line;
  }
}

// The expandable_segments form of the retry warning: fragmentation weighed below the plain
// warning's (the setting is its remedy), the page told as a page, and the note that says so.
TEST(DiagnoseKinds13, ExpandableSegmentsWarning) {
  const DiagnoseOptions without = rules_alone();
  const Diagnosis mapped = first(diagnose_log(
      "expandable_segments: memory mapping failed with OOM on device 0 while trying to map 20971520 bytes (free: 4521984, "
      "total: 85031714816)\n",
      without));
  const Diagnosis plain = first(diagnose_log(
      "memory allocation failed with OOM on device 0 while trying to allocate 20971520 bytes (free: 4521984, total: "
      "85031714816).\n",
      without));
  // Weighed down so far that it may drop out of the candidates (score 0 then).
  const Finding* mapped_fragmentation = get(mapped, OomCause::kFragmentation);
  const Finding* plain_fragmentation = get(plain, OomCause::kFragmentation);
  ASSERT_NE(plain_fragmentation, nullptr);
  EXPECT_LT(mapped_fragmentation ? mapped_fragmentation->score : 0.0, plain_fragmentation->score - 0.1);
  EXPECT_TRUE(cites_text(mapped, "page of an expandable segment could not be mapped"));
  EXPECT_FALSE(cites_text(mapped, "failed allocation of"));
  EXPECT_TRUE(std::any_of(mapped.notes.begin(), mapped.notes.end(),
                          [](const std::string& n) { return n.find("expandable_segments:True is on") != std::string::npos; }));
  EXPECT_TRUE(std::none_of(plain.notes.begin(), plain.notes.end(),
                           [](const std::string& n) { return n.find("expandable_segments:True is on") != std::string::npos; }));
}

// After held18's score (item 18; not tested apart): with a quarter of a small device or more in
// this process's tensors and the rest held outside its allocator, the working set stays a
// candidate beside the memory held outside.
TEST(DiagnoseKinds13, AfterHeld18sScore) {
  const DiagnoseOptions without = rules_alone();
  const Diagnosis d = first(diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 300.00 MiB (GPU 0; 3.95 GiB total capacity; 1.50 GiB already "
      "allocated; 20.00 MiB free; 1.55 GiB reserved in total by PyTorch)\n",
      without));
  ASSERT_GE(d.findings.size(), 3u);
  EXPECT_EQ(d.findings[0].category, OomCause::kOtherProcess);
  const int batch = rank_of(d, OomCause::kActivationsBatch);
  EXPECT_GE(batch, 0);
  EXPECT_LT(batch, 3);
}

// An accelerator's own allocator (tests/data/oom-corpus/README.md item 19): tt-metal's free total
// that holds the request while no block does is fragmentation, rated by what joining the pieces
// gives back; OpenCL's limit on one allocation is a limit, not memory pressure.
TEST(DiagnoseKinds14, AcceleratorAllocators) {
  const DiagnoseOptions without = rules_alone();
  auto tt = [&](const std::string& free, const std::string& largest) {
    return first(diagnose_log("TT_FATAL: Out of Memory: Not enough space to allocate 1200000000 B DRAM buffer across 12 "
                              "banks, where each bank needs to store 100000000 B, but bank size is 1000000000 B (allocated: "
                              "700000000 B, free: " + free + " B, largest free block: " + largest + " B)\n",
                              without));
  };
  const Diagnosis roomy = tt("300000000", "60000000");
  ASSERT_FALSE(roomy.findings.empty());
  EXPECT_EQ(roomy.findings[0].category, OomCause::kFragmentation);
  EXPECT_STREQ(roomy.findings[0].confidence(), "high");
  const Diagnosis tight = tt("120000000", "60000000");
  EXPECT_EQ(tight.findings[0].category, OomCause::kFragmentation);
  EXPECT_STREQ(tight.findings[0].confidence(), "medium");
  const Diagnosis whole = tt("90000000", "90000000");  // no room in all: not the pieces
  EXPECT_NE(whole.findings[0].category, OomCause::kFragmentation);
  const Finding* pieces = get(whole, OomCause::kFragmentation);
  EXPECT_TRUE(pieces == nullptr || pieces->score < 0.5);

  const Diagnosis cl = first(diagnose_log(
      "[GPU] Exceeded max size of memory object allocation: requested 6442450944 bytes, but max alloc size supported by "
      "device is 4294959104 bytes.\n",
      without));
  ASSERT_FALSE(cl.findings.empty());
  EXPECT_EQ(cl.findings[0].category, OomCause::kOther);
  EXPECT_LT(rank_of(cl, OomCause::kActivationsBatch), 3);
}

// The review of the accelerator families (tests/data/oom-corpus/README.md item 19): tt-metal's
// fragmentation weighs each bank's share (page-rounded, above the request) against each bank's
// free memory, and needs no largest-block figure; a buffer larger than the device, a region with
// no memory and Vulkan's limit on one allocation are told as such; the fixes and probes are a
// native runtime's, never PyTorch's.
TEST(DiagnoseKinds14, AcceleratorAllocatorsReviewed) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)); };
  const Diagnosis rounded = top(
      "TT_FATAL: Out of Memory: Not enough space to allocate 3294625792 B DRAM buffer across 12 banks, where each bank "
      "needs to store 274686208 B, but bank size is 1071821792 B (allocated: 797221792 B, free: 274600000 B, largest free "
      "block: 200000000 B)\n");
  const Finding* pieces = get(rounded, OomCause::kFragmentation);
  EXPECT_TRUE(pieces == nullptr || pieces->score < 0.5);
  const Diagnosis older = top(
      "Out of Memory: Not enough space to allocate 201326592 B DRAM buffer across 8 banks, where each bank needs to store "
      "25165824 B, but bank size is 4273390016 B (allocated: 4081641664 B, free: 191748352 B)\n");
  EXPECT_EQ(older.findings[0].category, OomCause::kFragmentation);
  const Diagnosis larger = top(
      "Out of Memory: Not enough space to allocate 44000000000 B DRAM buffer across 8 banks, where each bank needs to "
      "store 5500000000 B, but bank size is 4273390016 B\n");
  EXPECT_EQ(larger.findings[0].category, OomCause::kActivationsSeqlen);
  EXPECT_LT(rank_of(larger, OomCause::kActivationsBatch), 3);
  const Diagnosis region = top(
      "Out of Memory: Not enough space to allocate 1024 B L1_SMALL buffer across 64 banks, where each bank needs to store "
      "16 B, but bank size is 0 B\n");
  EXPECT_EQ(region.findings[0].category, OomCause::kOther);
  EXPECT_NE(region.findings[0].fix.find("l1_small_size"), std::string::npos);
  const Diagnosis limit = top(
      "ggml_vulkan: Device memory allocation of size 2166360064 failed.\n"
      "ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory\n");
  EXPECT_EQ(limit.findings[0].category, OomCause::kOther);
  EXPECT_EQ(limit.framework, "native");
  const Diagnosis vk = top(
      "ggml_vulkan: Device memory allocation of size 4294967296 failed.\n"
      "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n");
  EXPECT_EQ(vk.framework, "native");
  // llama.cpp's weights not fitting while it loads them (alloc_tensor_range): the model, first.
  const Diagnosis weights = top(
      "load_tensors: loading model tensors, this can take a while... (mmap = true)\n"
      "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 144817.04 MiB on device 0: cudaMalloc failed: out of memory\n"
      "alloc_tensor_range: failed to allocate CUDA0 buffer of size 151851672576\n"
      "llama_model_load: error loading model: unable to allocate CUDA0 buffer\n");
  EXPECT_EQ(weights.findings[0].category, OomCause::kStaticModelTooLarge);
  EXPECT_EQ(weights.framework, "native");
  for (const Diagnosis* d : {&vk, &older, &larger}) {
    for (const Finding& f : d->findings) {
      for (const std::string& text : {f.fix, f.probe}) {
        for (const char* pytorch : {"torch", "PYTORCH_CUDA_ALLOC_CONF", "CUDA_VISIBLE_DEVICES", "oomkit train"}) {
          EXPECT_EQ(text.find(pytorch), std::string::npos) << cause_name(f.category) << ": " << text;
        }
      }
    }
  }
}

// The failure told gone after a change ("... and my error disappeared", "made the OOM go away",
// "the crash went away") is an account of the fix (tests/data/oom-corpus/README.md item 15); a
// fix of a trouble that is not memory ("fixed the NaN loss", "the import error is gone") is not
// the OOM's, nor is a failure that never went away.
TEST(DiagnoseKinds12, TheFailureToldGone) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  const std::string what = "the user's account of the fix or the cause";
  struct Told {
    std::string line;
    OomCause cause;
  };
  for (const Told& t : std::vector<Told>{
           {"I added \"with torch.no_grad()\" into the pretest function and my error disappeared.",
            OomCause::kEvalWithoutNoGrad},
           {"setting batch_size to 2 made the OOM go away", OomCause::kActivationsBatch},
           {"after I set num_workers=0 the crash went away", OomCause::kCpuRam},
           {"reducing the batch size fixed the OOM but the loss is NaN now", OomCause::kActivationsBatch}}) {
    const auto d = first(diagnose_log(message + t.line + "\n", without));
    EXPECT_TRUE(cites(d, what, t.cause)) << t.line;
  }
  for (const std::string line : {"reducing the batch size fixed the NaN loss, learning is stable now",
                                 "fixed by downgrading numpy to 1.26, the import error is gone",
                                 "Increasing num_workers to 8 fixed the dataloader bottleneck.",
                                 "lowering max_split_size_mb the error never went away",
                                 "reducing the batch size did not make the OOM go away",
                                 "How do I make the OOM go away with batch size 8?",
                                 "\xe6\x94\xb9\xe4\xba\x86" "batch size\xe4\xb9\x8b\xe5\x90\x8e\xe7\xb2\xbe\xe5\xba\xa6\xe4\xb8\x8b"
                                 "\xe9\x99\x8d\xe4\xba\x86\xe4\xb8\x8d\xe5\xb0\x91"}) {  // 改了batch size之后精度下降了不少
    EXPECT_FALSE(cites_text(first(diagnose_log(message + line + "\n", without)), what)) << line;
  }
}

// Readings added before held15's score (tests/data/oom-corpus/README.md item 15): a framework's
// memory pool taking the GPU from another user, independent runs sharing one GPU, and a chat's
// context growing turn by turn; each with near misses read as no such evidence.
TEST(DiagnoseKinds12, OtherUsersAndChatTurnsInWords) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  struct Told {
    std::string line, what;
    OomCause cause;
  };
  const std::string pool = "a framework's memory pool", runs = "several independent runs on the same GPU",
                    chat = "memory grows with the chat's turns";
  for (const Told& t : std::vector<Told>{
           {"This is probably due to TensorFlow pre-allocating the entire VRAM by default, leaving no space for PyTorch.", pool,
            OomCause::kOtherProcess},
           {"Recent TF breaks JAX on GPU by eating all memory", pool, OomCause::kOtherProcess},
           {"JAX preallocates most of the GPU by default, starving the cuda backend so the tests fail.", pool,
            OomCause::kOtherProcess},
           {"I'm running two training jobs on the same GPU and the second one OOMs", runs, OomCause::kOtherProcess},
           {"Concurrent eval processes collide on the same physical GPUs.", runs, OomCause::kOtherProcess},
           {"\xe6\x88\x91\xe4\xbb\xac\xe5\x8d\x95\xe5\x8d\xa1\xe9\x83\xa8\xe7\xbd\xb2\xe5\xa4\x9a\xe4\xb8\xaa"
            "\xe6\xa8\xa1\xe5\x9e\x8b\xef\xbc\x8c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f",  // 我们单卡部署多个模型，显存不够
            runs, OomCause::kOtherProcess},
           {"CUDA out of memory after few messages in the chat?", chat, OomCause::kGenerationKvCache},
           {"With each successive prompt, another 200-400MB of VRAM is used.", chat, OomCause::kGenerationKvCache},
           {"\xe7\xbb\x8f\xe8\xbf\x87\xe5\xa4\x9a\xe8\xbd\xae\xe5\xaf\xb9\xe8\xaf\x9d\xe5\x90\x8e\xef\xbc\x8c\xe6\x98\xbe\xe5\xad\x98"
            "\xe7\x88\x86\xe6\x8e\x89\xe4\xba\x86",  // 经过多轮对话后，显存爆掉了
            chat, OomCause::kGenerationKvCache}}) {
    const auto d = first(diagnose_log(message + t.line + "\n", without));
    EXPECT_TRUE(cites(d, t.what, t.cause)) << t.line;
  }
  for (const Told& m : std::vector<Told>{
           {"TensorFlow preallocates the GPU by default.", pool, OomCause::kOtherProcess},
           {"JAX preallocation is not the problem here.", pool, OomCause::kOtherProcess},
           {"cfg.gpu_options.allow_growth = True", pool, OomCause::kOtherProcess},
           {"DDP starts multiple processes, all on the same GPU", runs, OomCause::kOtherProcess},
           {"I load two models on the same GPU", runs, OomCause::kOtherProcess},
           {"Per prompt we use 4 GPUs.", chat, OomCause::kGenerationKvCache},
           {"Each response takes 10 seconds on my GPU", chat, OomCause::kGenerationKvCache},
           {"The chat template is applied to each message.", chat, OomCause::kGenerationKvCache}}) {
    EXPECT_FALSE(cites_text(first(diagnose_log(message + m.line + "\n", without)), m.what)) << m.line;
  }
}

// After held15's score (tests/data/oom-corpus/README.md item 15): batch size 1 told to work is
// not "fails even at batch size 1"; a TensorFlow tensor whose first dimension is 1 holds one
// sample, its long axis the input's length; a cuDNN workspace told too large is the library's.
TEST(DiagnoseKinds12, AfterHeld15sScore) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  const auto worked = first(diagnose_log(message + "Thanks, batch_size=1 worked for me on my titan v.\n", without));
  EXPECT_FALSE(cites_text(worked, "fails even at batch size 1"));
  EXPECT_TRUE(cites(worked, "the user's account of the fix or the cause", OomCause::kActivationsBatch));
  const auto failed = first(diagnose_log(message + "It still fails even with batch_size=1.\n", without));
  EXPECT_TRUE(cites(failed, "fails even at batch size 1", OomCause::kStaticModelTooLarge));

  const auto one = first(diagnose_log(
      "ResourceExhaustedError: OOM when allocating tensor with shape[1,1,100000,512] and type float on "
      "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
      without));
  ASSERT_FALSE(one.findings.empty());
  EXPECT_EQ(one.findings.front().category, OomCause::kActivationsSeqlen);
  const auto hundred = first(diagnose_log(
      "ResourceExhaustedError: OOM when allocating tensor with shape[100,4096,32] and type float on "
      "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
      without));
  ASSERT_FALSE(hundred.findings.empty());
  EXPECT_EQ(hundred.findings.front().category, OomCause::kActivationsBatch);

  EXPECT_TRUE(cites(first(diagnose_log(message + "Sometimes the cuDNN implementation of convolutions is trying to use too "
                                                 "large workspace.\n",
                                       without)),
                    "workspace told too large", OomCause::kOther));
  EXPECT_FALSE(cites_text(first(diagnose_log(message + "cuDNN workspace size is not the problem here.\n", without)),
                            "workspace told too large"));
}

// After held16's score (tests/data/oom-corpus/README.md item 16): "multi-turn" with memory named
// is no chat history growing unless growth is told.
TEST(DiagnoseKinds12, MultiTurnWithoutGrowth) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  const std::string chat = "memory grows with the chat's turns";
  const auto spike = first(diagnose_log(
      message + "Long multi-turn RL rollouts can spike the trainer's activation memory past what the trainer has left.\n",
      without));
  EXPECT_FALSE(cites_text(spike, chat));
  EXPECT_TRUE(cites(first(diagnose_log(message + "With multi-turn chat the memory keeps growing until OOM.\n", without)), chat,
                    OomCause::kGenerationKvCache));
}

// A review of the twelfth pass and its after-score changes (tests/data/oom-corpus/README.md item
// 16): sentences a fresh reader wrote, each read or not read as the reading's kind says; and the
// line that threw (a Chinese count at the end of a line, 单卡多).
TEST(DiagnoseKinds12, AReviewersSentences) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA error: out of memory\n";
  const std::string account = "the user's account of the fix or the cause", pool = "a framework's memory pool",
                    runs = "several independent runs on the same GPU", chat = "memory grows with the chat's turns",
                    workspace = "workspace told too large", one = "fails even at batch size 1";
  struct Told {
    std::string line, what;
  };
  auto cited = [&](const std::string& line, const std::string& what) {
    return cites_text(first(diagnose_log(message + line + "\n", without)), what);
  };

  for (const Told& t : std::vector<Told>{
           {"Setting max_split_size_mb:128 made the OOM disappear.", account},
           {"After lowering the batch size the CUDA out of memory error is gone.", account},
           {"Enabling gradient checkpointing fixed it, accuracy is unchanged.", account},
           {"tf reserves almost all of the GPU memory, so the other notebook runs out of memory.", pool},
           {"\xe5\x8d\x95\xe5\x8d\xa1\xe5\xa4\x9a\xe6\x9c\x8d\xe5\x8a\xa1\xef\xbc\x8c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f",
            runs},  // 单卡多服务，显存不够
           {"Every new message in the chat adds about 300MB of VRAM until it crashes.", chat},
           {"cuBLAS asks for a huge workspace", workspace},
           {"With batch size 1 on my workstation the GPU is maxed out.", one}}) {
    EXPECT_TRUE(cited(t.line, t.what)) << t.line;
  }
  for (const Told& m : std::vector<Told>{
           {"About 8GB of GPU memory just disappeared after 10 epochs, I suspect a leak.", account},
           {"I hoped the crash would go away with expandable_segments but it still crashes.", account},
           {"The warning about num_workers went away but the OOM is still there.", account},
           {"The OOM goes away if you lower the batch size, try that.", account},
           {"I set TF_FORCE_GPU_ALLOW_GROWTH=true so tensorflow does not preallocate anymore, but torch still OOMs.", pool},
           {"The TF model uses almost all the GPU memory because the batch is 512, nothing else is running.", pool},
           {"Is it possible to run two jobs on one GPU?", runs},
           {"We run two jobs, each on one GPU of the node, and only rank 0 OOMs.", runs},
           {"\xe5\x8d\x95\xe5\x8d\xa1\xe5\xa4\x9a\xe8\xbf\x9b\xe7\xa8\x8b\xe8\xae\xad\xe7\xbb\x83\xe5\xbe\x88\xe6\x85\xa2",
            runs},  // 单卡多进程训练很慢 (slow, no memory named)
           {"Each round of training increases memory by 1GB, this is a leak in the data loader.", chat},
           {"We train on multi-turn dialogue data and the memory grows when the batch is larger.", chat},
           {"Each prompt is about 2000 tokens and the memory is fine.", chat},
           {"The convolution output is huge but the workspace is fine.", workspace},
           {"With batch size 1 it works, but batch size 2 gives CUDA OOM.", one},
           {"bs=1 runs fine, bs=2 fails.", one},
           {"batch_size=1 works even on my 8GB card.", one}}) {
    EXPECT_FALSE(cited(m.line, m.what)) << m.line;
  }
  // A count at the very end of a line (单卡多, 我们单卡多) threw std::out_of_range once.
  for (const std::string line : {"\xe5\x8d\x95\xe5\x8d\xa1\xe5\xa4\x9a", "\xe6\x88\x91\xe4\xbb\xac\xe5\x8d\x95\xe5\x8d\xa1\xe5\xa4\x9a",
                                 "\xe6\x98\xbe\xe5\xad\x98\xe5\x8d\x95\xe5\x8d\xa1\xe4\xb8\xa4\xe4\xb8\xaa"}) {
    EXPECT_NO_THROW(diagnose_log(message + line + "\n", without)) << line;
  }
}

// Session 23 (tests/data/oom-corpus/README.md item 21): the user's prose after the OOM message on
// the message's own line is read as the user's words; the message's own sentences after it are
// not. Words of the user's account: a tiled decode, other applications holding the GPU, a run
// that "works well" after the change.
TEST(DiagnoseKinds14, ProseAfterMessageAndAccounts) {
  const DiagnoseOptions without = rules_alone();
  const Diagnosis tail = first(diagnose_log(
      "torch.cuda.OutOfMemoryError: CUDA out of memory. But the paper used a 3090, why does this happen? I run a smaller "
      "picture is normal, but the original 1080p test set reports an error\n",
      without));
  ASSERT_FALSE(tail.findings.empty());
  EXPECT_EQ(tail.findings[0].category, OomCause::kActivationsSeqlen);
  // The message's own advice ("If reserved but unallocated memory is large ... to avoid
  // fragmentation") after "out of memory" is not the user's.
  const Diagnosis own = first(diagnose_log(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.64 GiB "
      "of which 21.81 MiB is free. Including non-PyTorch memory, this process has 23.60 GiB memory in use. Of the "
      "allocated memory 22.90 GiB is allocated by PyTorch, and 300.00 MiB is reserved by PyTorch but unallocated. If "
      "reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
      "fragmentation.  See documentation for Memory Management\n",
      without));
  ASSERT_FALSE(own.findings.empty());
  EXPECT_NE(own.findings[0].category, OomCause::kFragmentation);
  for (const Finding& f : own.findings) {
    for (const std::string& e : f.evidence) EXPECT_EQ(e.find("user's"), std::string::npos) << e;
  }
  const Diagnosis apps = first(diagnose_log(
      "RuntimeError: CUDA error: out of memory\n"
      "Some of the memory of the GPU was held by other applications, after a restart it runs fine.\n",
      without));
  EXPECT_EQ(apps.findings[0].category, OomCause::kOtherProcess);
  // A batch of 2-4 with a large plane after it: one sample's resolution, not the batch; a 3x3
  // convolution kernel [3,3,256,256] is no plane.
  auto tf = [&](const std::string& shape) {
    return first(diagnose_log("ResourceExhaustedError: OOM when allocating tensor with shape[" + shape +
                                  "] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
                              without));
  };
  EXPECT_EQ(tf("4,32,1024,1024").findings.front().category, OomCause::kActivationsSeqlen);
  EXPECT_EQ(tf("1,270,480,256").findings.front().category, OomCause::kActivationsSeqlen);
  EXPECT_NE(tf("3,3,256,256").findings.front().category, OomCause::kActivationsSeqlen);
  EXPECT_NE(tf("3,3,2048,4096").findings.front().category, OomCause::kActivationsSeqlen);
  EXPECT_EQ(tf("16,12,512,512").findings.front().category, OomCause::kActivationsBatch);
  // Host RAM killed, and the log tells the loss summed with its graph: the leak is the cause.
  const Diagnosis kept = first(diagnose_log(
      "Killed\n"
      "In the second epoch the program is killed. I changed \"total_loss += loss\" to \"total_loss += loss.item()\" and "
      "the memory stays flat.\n",
      without));
  ASSERT_FALSE(kept.findings.empty());
  EXPECT_EQ(kept.findings[0].category, OomCause::kLeakAcrossSteps);
  EXPECT_LE(rank_of(kept, OomCause::kCpuRam), 1);
  const Diagnosis killed = first(diagnose_log("Killed\nThe dataset is 40 GB and I load it all into a list.\n", without));
  EXPECT_EQ(killed.findings[0].category, OomCause::kCpuRam);
  const Diagnosis tiles = first(diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 6.00 GiB total capacity; 3.10 GiB already "
      "allocated; 1.20 GiB free; 3.50 GiB reserved in total by PyTorch)\n"
      "I switched the VAE to tiled decoding and now it works well.\n",
      without));
  EXPECT_EQ(tiles.findings[0].category, OomCause::kActivationsSeqlen);
}

// After held21's score (tests/data/oom-corpus/README.md item 21): the user's accounts that were
// missed ("... and no longer have an error", "I have to split the document", "Solved. Didn't have
// enough CPU memory"), a change that grew something and worked is no growth, a table's rows x
// columns is no resolution, Paddle Fluid's start-up pool above the free memory is memory held
// elsewhere, and a model that failed to load is the model's size.
TEST(DiagnoseKinds14, AfterHeld21sScore) {
  const DiagnoseOptions without = rules_alone();
  const std::string message = "RuntimeError: CUDA out of memory.\n";
  const Diagnosis fewer = first(diagnose_log(
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 608.00 MiB (GPU 0; 8.00 GiB total capacity; 1.64 "
      "GiB already allocated; 0 bytes free; 2.25 GiB reserved in total by PyTorch)\n"
      "I reduced --batch_size from 32 to 16 and no longer have an error.\n",
      without));
  EXPECT_TRUE(cites(fewer, "the user's account of the fix or the cause", OomCause::kActivationsBatch));
  EXPECT_EQ(fewer.findings[0].category, OomCause::kActivationsBatch);
  const Diagnosis split = first(diagnose_log(message + "I had to split the document into two pieces of 20 sentences.\n", without));
  EXPECT_TRUE(cites(split, "the user's account of the fix or the cause", OomCause::kActivationsSeqlen));
  // The review (item 21): a question, a requirement, a change that made it worse, a failure still
  // told, an expectation are no account.
  for (const char* no : {"Do I have to split the document?", "I have to crop the images to 2048x2048 as required by the dataset.",
                         "I had to add gradient checkpointing and now it uses even more memory.",
                         "After I reduced the batch size it doesn't error out, the kernel just dies.",
                         "I resized all images to 512, normally that works well with 12GB.",
                         "It works well here but not on other people's machines."}) {
    EXPECT_FALSE(cites_text(first(diagnose_log(message + no + "\n", without)), "the user's account of the fix or the cause"))
        << no;
  }
  EXPECT_TRUE(cites_text(first(diagnose_log(message + "Generating 2048x2048 images throws this error, 1024x1024 works fine.\n",
                                            without)),
                         "a long input"));
  EXPECT_TRUE(cites_text(first(diagnose_log(message + "I increased the num_workers and it works fine for a few hundred steps, "
                                                      "then the memory keeps increasing every step until it crashes.\n",
                                            without)),
                         "memory grows step after step"));
  // Tensors kept under no_grad keep no graph; a fix told as failed is no leak found.
  const Diagnosis nograd = first(diagnose_log(
      "with torch.no_grad(): val_loss += criterion(out, y)\n"
      "RuntimeError: [enforce fail at alloc_cpu.cpp:73] . DefaultCPUAllocator: can't allocate memory: you tried to allocate "
      "21474836480 bytes. Error code 12 (Cannot allocate memory)\n",
      without));
  EXPECT_EQ(nograd.findings[0].category, OomCause::kCpuRam);
  const Diagnosis denied = first(diagnose_log(
      "Killed\nI already changed \"total_loss += loss\" to \"total_loss += loss.item()\" but the process is still killed.\n",
      without));
  EXPECT_EQ(denied.findings[0].category, OomCause::kCpuRam);
  // ComfyUI's tips under its OOM are its words, not the user's.
  EXPECT_FALSE(cites_text(first(diagnose_log("torch.OutOfMemoryError: Allocation on device \n"
                                             "This error means you ran out of memory on your GPU.\n\n"
                                             "TIPS: If the workflow worked before you might have accidentally set the batch_size "
                                             "to a large number.\n",
                                             without)),
                          "the user's account"));
  // vLLM's own advice after its message ("Please try lowering ...") is not the user's.
  EXPECT_FALSE(cites_text(first(diagnose_log("RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy "
                                             "requests. Please try lowering `max_num_seqs` or `gpu_memory_utilization` when "
                                             "initializing the engine.\n",
                                             without)),
                          "the user's account"));
  const Diagnosis host = first(diagnose_log(message + "Solved. Didn't have enough CPU memory.\n", without));
  EXPECT_TRUE(cites(host, "the user's account of the fix or the cause", OomCause::kCpuRam));
  const Diagnosis swap = first(diagnose_log(
      "Error during retraining: Out of memory\nIncreasing the swap from 1GB to 4GB did the trick, it uses most of the 4GB ram.\n",
      without));
  EXPECT_FALSE(cites_text(swap, "memory grows step after step"));
  EXPECT_EQ(swap.findings[0].category, OomCause::kCpuRam);
  EXPECT_TRUE(cites_text(first(diagnose_log(message + "The memory keeps increasing every step until it crashes.\n", without)),
                         "memory grows step after step"));
  EXPECT_FALSE(cites_text(first(diagnose_log(message + "My data: AnnData object with n_obs x n_vars = 38225 x 6829\n", without)),
                          "a long input"));
  EXPECT_TRUE(cites_text(first(diagnose_log(message + "The input image is 3296x2400.\n", without)), "a long input"));
  const Diagnosis pool = first(diagnose_log(
      "paddle.fluid.core.EnforceNotMet: enforce allocating <= available failed, 14802874401 > 12088311552\n", without));
  ASSERT_FALSE(pool.findings.empty());
  EXPECT_EQ(pool.findings[0].category, OomCause::kOtherProcess);
  EXPECT_NE(pool.findings[0].fix.find("FLAGS_fraction_of_gpu_memory_to_use"), std::string::npos);
  EXPECT_EQ(pool.framework, "paddle");
  for (const Finding& f : pool.findings) {
    EXPECT_EQ(f.fix.find("torch"), std::string::npos) << f.fix;
    EXPECT_EQ(f.fix.find("llama.cpp"), std::string::npos) << f.fix;
    EXPECT_EQ(f.probe.find("torch"), std::string::npos) << f.probe;
  }
  const Diagnosis load = first(diagnose_log("Model loading failed: Allocation on device\n", without));
  ASSERT_FALSE(load.findings.empty());
  EXPECT_EQ(load.findings[0].category, OomCause::kStaticModelTooLarge);
}

// After held22's score (tests/data/oom-corpus/README.md item 22): the JVM's heap is host RAM with
// the JVM's own fix; ggml's context arena is a size the program chose; the process "gets killed"
// is the OOM killer; memory "reserved but unallocated" told is fragmentation; an hour of audio is
// a long input; a code line turning the KV cache off is no generation (a sentence telling it as
// the fix is); a quantizer's calibration is no generation and its max_*_len settings are lengths;
// RAM "growth" is growth.
TEST(DiagnoseKinds15, AfterHeld22sScore) {
  const DiagnoseOptions without = rules_alone();
  // The first cause ranked for `log` (at() fails the test when nothing is ranked).
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  const Diagnosis jvm = first(diagnose_log(
      "Running the indexer on 40 files\njava.lang.OutOfMemoryError: Java heap space\n\tat com.example.Index.build(Index.java:88)\n",
      without));
  ASSERT_FALSE(jvm.findings.empty());
  EXPECT_EQ(jvm.findings[0].category, OomCause::kCpuRam);
  EXPECT_NE(jvm.findings[0].fix.find("-Xmx"), std::string::npos) << jvm.findings[0].fix;
  EXPECT_EQ(jvm.framework, "native");

  const Diagnosis arena = first(diagnose_log(
      "ggml_new_tensor_impl: not enough space in the context's memory pool (needed 536879104, available 536870912)\n", without));
  ASSERT_FALSE(arena.findings.empty());
  EXPECT_EQ(arena.findings[0].category, OomCause::kOther);
  EXPECT_EQ(arena.verdict(), "other");
  EXPECT_EQ(arena.framework, "native");

  EXPECT_EQ(top("Out of memory in preprocessing\nWhen I start the preprocessing the python process got killed after a few "
                "minutes.\n"),
            OomCause::kCpuRam);
  // Not a kill denied, nor the user killing another process.
  for (const char* not_killed : {"CUDA out of memory during training\nThe process wasn't killed, it just raised the error.\n",
                                 "CUDA out of memory during training\nI killed the other process and it still fails.\n"}) {
    EXPECT_NE(top(not_killed), OomCause::kCpuRam) << not_killed;
  }

  EXPECT_EQ(top("Training OOMs at the optimizer step\nnvidia-smi and memory_summary show reserved but unallocated memory "
                "around 9 GiB right before it, even though the step itself isn't large.\n"),
            OomCause::kFragmentation);
  EXPECT_NE(top("CUDA out of memory during training\nIf reserved but unallocated memory is large try setting "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.\n"),
            OomCause::kFragmentation);

  for (const char* hour : {"CUDA out of memory\nTranscribing a 2-hour recording of a meeting in one go fails at once.\n",
                           "CUDA out of memory\n\xe8\xbd\xac\xe5\x86\x99\xe4\xb8\x80\xe5\xb0\x8f\xe6\x97\xb6\xe7\x9a\x84\xe9\x9f\xb3\xe9\xa2\x91\xe5\xb0\xb1\xe6\x8a\xa5\xe9\x94\x99\n"}) {
    EXPECT_EQ(top(hour), OomCause::kActivationsSeqlen) << hour;
  }

  const std::string calib =
      "OOM when quantizing Llama-3-70B\n"
      "model = AutoAWQForCausalLM.from_pretrained(path, use_cache=False)\n"
      "model.quantize(tokenizer, quant_config=cfg, calib_data=data, max_calib_seq_len=16384)\n"
      "It runs out of GPU memory.\n";
  const Diagnosis q = first(diagnose_log(calib, without));
  ASSERT_FALSE(q.findings.empty());
  EXPECT_EQ(q.findings[0].category, OomCause::kActivationsSeqlen);
  EXPECT_NE(q.findings[0].category, OomCause::kGenerationKvCache);
  // use_cache=False told as the fix in a sentence: the cache was on.
  const Diagnosis told = first(diagnose_log(
      "OOM when fine-tuning Llama-2 7B with FSDP at micro batch 8\nThe key fix was to set `use_cache=False` in from_pretrained; "
      "after that it trains.\n",
      without));
  EXPECT_GE(rank_of(told, OomCause::kGenerationKvCache), 0);

  // The review's inputs: a kill by the user or a scheduler, "reserved but unallocated" told as small
  // or asked about, a corpus counted in hours, use_cache=False set for fine-tuning, a temperature's
  // calibration, growth denied, the JVM's thread limit and a quoted exception name.
  const std::string cuda =
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity; 21.00 "
      "GiB already allocated; 1.50 GiB free; 21.10 GiB reserved in total by PyTorch)\n";
  for (const char* other : {"The job gets killed for exceeding the walltime limit of the queue.\n",
                            "Then the process was killed by me with kill -9.\n",
                            "Reserved but unallocated memory is only 20 MiB, which is small.\n",
                            "What does \"reserved but unallocated\" mean in this message?\n",
                            "Whisper was trained on 680,000 hours of audio; my clips are 5 seconds long.\n",
                            "Memory shows no growth across epochs, it is flat.\n"}) {
    EXPECT_EQ(top(cuda + other), OomCause::kActivationsBatch) << other;
  }
  const Diagnosis tuning = first(diagnose_log(
      "Fine-tuning llama-2-13b. I set use_cache=False in the config as the warning says, and gradient checkpointing on.\n" +
          cuda,
      without));
  EXPECT_NE(tuning.findings.at(0).category, OomCause::kGenerationKvCache);
  const Diagnosis temperature = first(diagnose_log(
      "Serving Llama-3-8B for chat. We run a calibration of the temperature first, then generate with "
      "max_new_tokens=4096.\n" + cuda,
      without));
  EXPECT_EQ(temperature.findings.at(0).category, OomCause::kGenerationKvCache);
  const Diagnosis threads = first(diagnose_log("java.lang.OutOfMemoryError: unable to create new native thread\n", without));
  EXPECT_EQ(threads.findings.at(0).category, OomCause::kOther);
  const auto quoted = diagnose_log(
      "The javadoc says the method may throw java.lang.OutOfMemoryError if the buffer is too large.\n" + cuda, without);
  ASSERT_EQ(quoted.size(), 1u);
  EXPECT_EQ(quoted[0].oom->family, "pytorch1");

  const Diagnosis growth = first(diagnose_log(
      "DefaultCPUAllocator: not enough memory: you tried to allocate 93321840 bytes.\n"
      "During training my RAM shows continued growth every epoch until it stops.\n",
      without));
  EXPECT_GE(rank_of(growth, OomCause::kLeakAcrossSteps), 0);
  EXPECT_LE(rank_of(growth, OomCause::kLeakAcrossSteps), 2);
}

// After held23's score (tests/data/oom-corpus/README.md item 23): "out of memory" misspelled by
// one letter is still told; an input compared as larger or longer than a size is a large input; an
// input's duration of 30 s or more is long; weights made fp32 where half precision was meant, and a
// second model kept resident in VRAM, are static memory. Also three ways of telling an OOM
// without its message.
TEST(DiagnoseKinds16, AfterHeld23sScore) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  for (const char* typo : {"Inference runns ot of memory with large volumes\n", "The training goes out of memroy at epoch 3\n",
                           "i get oout of memory on the gpu\n"}) {
    EXPECT_EQ(diagnose_log(typo, without).size(), 1u) << typo;
  }
  // Words that are no misspelling: "out of memory" itself is read elsewhere, "one of memory's"
  // and "put of memory" are different words, a number or identifier glued on is none.
  for (const char* none : {"This is one of memory's oddities.\n", "The price of memos went up.\n",
                           "see layout_of_memory_map in the docs\n", "v2ot of memory counters\n"}) {
    EXPECT_TRUE(diagnose_log(none, without).empty()) << none;
  }
  // Found in leave-one-part-out misses of held12, held20 and held21: TensorFlow's exception named
  // alone, an allocation that could not be made, data too big to load into memory.
  for (const char* told : {"Fine-tuning on ROCStories with the default args\nThen I got ResourceExhaustedError\n",
                           "ResNet50 at batch size 512: the GPU could not allocate enough memory\n",
                           "Data too big to load into memory\nMy machine has 8G memory\n"}) {
    EXPECT_EQ(diagnose_log(told, without).size(), 1u) << told;
  }
  EXPECT_TRUE(diagnose_log("grpc error: StatusCode.RESOURCE_EXHAUSTED (quota)\n", without).empty());
  EXPECT_EQ(top("sliding_window_inference runs out of GPU memory\nevaluate a network with images larger than 512x512x256\n"),
            OomCause::kActivationsSeqlen);
  EXPECT_EQ(top("prompt_logprobs=1 gives an OOM\nif the input is excessively long (exceeding 900 tokens), it fails\n"),
            OomCause::kActivationsSeqlen);
  EXPECT_NE(top("CUDA out of memory at batch 64\nthe loss is very large at the start (12 per token)\n"),
            OomCause::kActivationsSeqlen);
  EXPECT_EQ(top("TTS training\nthe pretraining dataset has max duration 56 seconds that would hit OOM\n"),
            OomCause::kActivationsSeqlen);
  // Ordinary clips, or the run's own time, are no long input.
  for (const char* not_long : {"TTS training hits OOM\nclips of 15 s duration each\n",
                               "TTS training hits OOM\nthe epoch duration is 300 seconds\n"}) {
    EXPECT_NE(top(not_long), OomCause::kActivationsSeqlen) << not_long;
  }
  EXPECT_EQ(top("FP8 training causes OOM\nThe new Linear module is created with param_dtype=torch.float32 when the fp16 "
                "model is converted.\n"),
            OomCause::kStaticModelTooLarge);
  EXPECT_NE(top("CUDA out of memory at batch 64\nThe logits get an fp32 upcast in the loss layer.\n"),
            OomCause::kStaticModelTooLarge);
  EXPECT_EQ(top("CUDA out of memory on the next generation at max resolution\nOnce enabled, the face restorer would take "
                "up some of the VRAM.\n"),
            OomCause::kStaticModelTooLarge);
  EXPECT_NE(top("CUDA out of memory on the next generation\nAnother program would take up some of the VRAM.\n"),
            OomCause::kStaticModelTooLarge);
}

// After held24's score (tests/data/oom-corpus/README.md item 24): the machine running out or
// stalling is host RAM; "killed due to out of memory" is the OOM killer; the model's loading said to
// eat the memory is static memory; CuPy's pool with a limit ranks its cached blocks first.
TEST(DiagnoseKinds17, AfterHeld24sScore) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  for (const char* host : {"ERROR: Looks like the system ran out of memory\nI used a laptop with 16GB RAM\n",
                           "Inference causes an OOM issue. As a result, the system is becoming extremely unresponsive.\n"}) {
    EXPECT_EQ(top(host), OomCause::kCpuRam) << host;
  }
  // Said of a GPU, or the machine not running out.
  EXPECT_NE(top("On the same machine the gradio UI runs without running out of memory; example code fails with CUDA out "
                "of memory.\n"),
            OomCause::kCpuRam);
  const auto killed = diagnose_log("the tasks were always killed due to out of memory if I ran two tasks\n", without);
  ASSERT_EQ(killed.size(), 1u);
  EXPECT_EQ(killed[0].oom->family, "oom_killer");
  EXPECT_EQ(diagnose_log("the job was killed due to out of memory on the GPU\n", without).at(0).oom->family, "mentioned");
  EXPECT_EQ(top("Cannot generate with m2m_100\nthe model loading will eat all the memory on the smaller instance; with the "
                "larger one I keep getting CUDA out-of-memory errors\n"),
            OomCause::kStaticModelTooLarge);
  const Diagnosis pool = first(diagnose_log(
      "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 805,306,368 bytes (allocated so far: 536,870,912 bytes, "
      "limit set to: 1,073,741,824 bytes).\n",
      without));
  EXPECT_EQ(pool.findings.at(0).category, OomCause::kFragmentation);
  EXPECT_NE(pool.findings.at(0).fix.find("free_all_blocks"), std::string::npos);
  EXPECT_EQ(pool.framework, "cupy");
  const Diagnosis over = first(diagnose_log(
      "Out of memory allocating 2,147,483,648 bytes (allocated so far: 0 bytes, limit set to: 1,073,741,824 bytes).\n",
      without));
  EXPECT_EQ(over.findings.at(0).category, OomCause::kOther);

  // The review's inputs: what these rules must not read.
  const Diagnosis under = first(diagnose_log(
      "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 1,024 bytes (allocated so far: 2,048 bytes, limit set to: "
      "17,179,869,184 bytes).\n",
      without));
  EXPECT_NE(under.findings.at(0).category, OomCause::kFragmentation);  // the limit was not reached: the device refused
  EXPECT_NE(diagnose_log("XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 17179869184 bytes.\n", without)
                .at(0)
                .oom->subsystem,
            "cupy");
  for (const char* none : {"add a put of memory statistics to the dashboard\n",
                           "    except tf.errors.ResourceExhaustedError:\n",
                           "Make sure the GPU can allocate enough memory before you start training (see the FAQ).\n"}) {
    EXPECT_TRUE(diagnose_log(none, without).empty()) << none;
  }
  for (const char* not_host : {"With a long system prompt the model runs out of memory after a few turns\n",
                               "My machine learning model runs out of memory during training\n",
                               "I train on the server with a frozen backbone and hit OOM at batch size 64\n",
                               "My laptop doesn't freeze anymore, but training still hits OOM\n"}) {
    EXPECT_NE(top(not_host), OomCause::kCpuRam) << not_host;
  }
  EXPECT_EQ(top("Your system has run out of application memory.\n"), OomCause::kCpuRam);
  for (const char* not_static :
       {"CUDA out of memory at batch 64\nMixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)\n",
        "CUDA out of memory at batch 64\nThe layer norm is upcast to fp32 inside each layer for stability.\n",
        "CUDA out of memory at batch 64\nChrome and the desktop compositor take up some of the VRAM.\n",
        "CUDA out of memory\nModel loading takes about 2 minutes; then generation runs out of GPU memory at 16k tokens\n"}) {
    EXPECT_NE(top(not_static), OomCause::kStaticModelTooLarge) << not_static;
  }
  for (const char* not_long : {"CUDA out of memory at batch 256\nThe docker image is very large (12 GB) on this node\n",
                               "CUDA out of memory at batch 256\nsentences longer than 128 tokens are truncated\n",
                               "CUDA out of memory at batch 64\nTraining duration: 3600 s on 4 GPUs\n"}) {
    EXPECT_NE(top(not_long), OomCause::kActivationsSeqlen) << not_long;
  }
  for (const char* longer : {"CUDA out of memory\nSome audio files have a duration of 2 minutes\n",
                             "CUDA out of memory\nDuration: 00:01:45.32, bitrate: 256 kb/s\n"}) {
    EXPECT_EQ(top(longer), OomCause::kActivationsSeqlen) << longer;
  }
}

// Carried over from session 25's review (tests/data/oom-corpus/README.md item 25): TensorFlow's
// exception named in prose beside the word "exception" is a report (only Python's `except` clause
// is code); data too big to load, told as the reason for a way around already taken, is no report;
// a kill told beside an accelerator's OOM is that device's, not the host's RAM.
TEST(DiagnoseKinds18, CarriedOverFromSession25) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  for (const char* told : {"Training stops with a ResourceExhaustedError exception after epoch 2\n",
                           "The exception raised was tf.errors.ResourceExhaustedError\n"}) {
    EXPECT_EQ(diagnose_log(told, without).size(), 1u) << told;
  }
  for (const char* code : {"    except tf.errors.ResourceExhaustedError:\n",
                           "except (ValueError, tf.errors.ResourceExhaustedError) as e:\n",
                           "        except ResourceExhaustedError as err:  # retry with a smaller batch\n"}) {
    EXPECT_TRUE(diagnose_log(code, without).empty()) << code;
  }
  for (const char* design : {"The dataset is too big to load into memory, so I use streaming.\n",
                             "The corpus is too large to load into RAM, hence we read it in chunks.\n",
                             "The file is too big to fit in memory, which is why I'm using mmap.\n"}) {
    EXPECT_TRUE(diagnose_log(design, without).empty()) << design;
  }
  for (const char* failure : {"The dataset is too big to load into memory, so I get an error.\n",
                              "Data too big to load into memory\nMy machine has 8G memory\n"}) {
    EXPECT_EQ(diagnose_log(failure, without).size(), 1u) << failure;
  }
  for (const char* device : {"The training task on the Ascend NPU was killed due to out of memory.\n",
                             "The job on the TPU was killed because it ran out of memory.\n"}) {
    const auto ds = diagnose_log(device, without);
    ASSERT_EQ(ds.size(), 1u) << device;
    EXPECT_NE(ds[0].oom->family, "oom_killer") << device;
    EXPECT_NE(ds[0].oom->device, "cpu") << device;
    EXPECT_NE(top(device), OomCause::kCpuRam) << device;
  }
  EXPECT_EQ(diagnose_log("The training task on the Ascend NPU ran out of memory.\n", without).at(0).oom->device, "npu");
  // A kill with no accelerator named stays the host's.
  EXPECT_EQ(top("The training process was killed after the third epoch.\nRAM use rose to 60 GB before that.\n"),
            OomCause::kCpuRam);
}

// After held25's score (tests/data/oom-corpus/README.md item 25): R's memory errors are host RAM;
// memory piling up over repeats is a leak; the dataset cached in memory by tf.data is host RAM; one
// request larger than an 80 GB card, with no capacity printed, is the tensor itself; memory past
// its limit, told, is a report; an allocator's arena that cannot free its blocks is fragmentation.
TEST(DiagnoseKinds18, AfterHeld25sScore) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  auto ranked = [&](const std::string& log, OomCause c) {
    const auto& f = first(diagnose_log(log, without)).findings;
    for (size_t i = 0; i < f.size(); ++i) {
      if (f[i].category == c) return static_cast<int>(i);
    }
    return -1;
  };
  EXPECT_EQ(top("> obj <- ScaleData(obj, features = all.genes)\nError: vector memory exhausted (limit reached?)\n"),
            OomCause::kCpuRam);
  EXPECT_EQ(top("Error: cannot allocate vector of size 12.5 Gb\n"), OomCause::kCpuRam);
  EXPECT_EQ(top("When searching for hyperparameters, GPU memory use piles up and crashes the session.\n"),
            OomCause::kLeakAcrossSteps);
  EXPECT_EQ(top("The usage of data.cache() causes the run out of memory.\nMy server has 64GB memories.\n"), OomCause::kCpuRam);
  EXPECT_EQ(top("Training runs out of memory\nIt will cache both the train_data and the validation_data in memory.\n"),
            OomCause::kCpuRam);
  // A cache to a file, the KV cache or the allocator's cache is no dataset in RAM.
  for (const char* not_data : {"Training runs out of memory\nds = ds.cache('/tmp/train.cache') caches the dataset to disk\n",
                               "CUDA out of memory\nthe KV cache of the dataset's longest prompt fills the memory\n"}) {
    EXPECT_NE(top(not_data), OomCause::kCpuRam) << not_data;
  }
  const auto huge = first(diagnose_log("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 214.66 GiB.\n", without));
  EXPECT_EQ(huge.findings.at(0).category, OomCause::kActivationsSeqlen);
  // A small request with no capacity is no such tensor.
  EXPECT_NE(first(diagnose_log("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.\n", without))
                .findings.at(0)
                .category,
            OomCause::kActivationsSeqlen);
  EXPECT_EQ(diagnose_log("It causes the memory to exceed its limit after training for a few epochs.\n", without).size(), 1u);
  EXPECT_TRUE(diagnose_log("The limit is 64 GiB; usage stays well below it.\n", without).empty());
  EXPECT_LE(ranked("Second run fails to allocate memory\nWe still have the smaller blocks from the first run allocated, as "
                   "BFCArena has no logic to free those.\n",
                   OomCause::kFragmentation),
            1);
  // A project named ...arena is no allocator's arena.
  EXPECT_NE(top("CUDA out of memory in pdearena training\nthe blocks of the model are free to change\n"),
            OomCause::kFragmentation);
}

// A fresh helper's review of this session's rules (tests/data/oom-corpus/README.md item 25): what
// they must and must not read.
TEST(DiagnoseKinds18, Session26Review) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  // Python's except clause over lines, or in Python 2's form, is code; prose holding "except" is not.
  for (const char* code : {"    except (\n        tf.errors.ResourceExhaustedError,\n    ):\n",
                           "    except tf.errors.ResourceExhaustedError, e:\n        batch_size //= 2\n"}) {
    EXPECT_TRUE(diagnose_log(code, without).empty()) << code;
  }
  for (const char* prose : {"Except for the very first epoch, every epoch ends with a ResourceExhaustedError on my RTX 3090.\n",
                            "All my runs finish except the ones with the large UNet, which fail with ResourceExhaustedError:\n"}) {
    EXPECT_EQ(diagnose_log(prose, without).size(), 1u) << prose;
  }
  // A way around taken by anyone is no report; one that failed in turn is.
  for (const char* design : {"The corpus is too big to fit in memory, so the script streams it from disk line by line.\n",
                             "Our embeddings matrix is too large to load into RAM, hence the use of np.memmap in the loader.\n"}) {
    EXPECT_TRUE(diagnose_log(design, without).empty()) << design;
  }
  for (const char* failed : {"The CSV (60 GB) is too big to load into memory, so I tried loading it with chunksize=10**6, but the "
                             "Jupyter kernel dies after about 40 chunks.\n",
                             "The dataset is too big to fit into memory, which is why I'm using tf.data. Training runs fine for 5 "
                             "epochs, then the machine freezes and the RAM usage is at 100%.\n"}) {
    EXPECT_EQ(diagnose_log(failed, without).size(), 1u) << failed;
  }
  // The host's kill, the GPU named away from it; the host's RAM named beside a TPU.
  const auto host_kill = diagnose_log(
      "The process gets killed (out of memory) while loading the checkpoint with torch.load, even though the GPU has 80GB "
      "free.\n",
      without);
  ASSERT_EQ(host_kill.size(), 1u);
  EXPECT_EQ(host_kill[0].oom->family, "oom_killer");
  EXPECT_EQ(diagnose_log("Our TPU v3-8 VM ran out of memory (host RAM, 335GB) while building the tf.data pipeline.\n", without)
                .at(0)
                .oom->device,
            "cpu");
  // R's message quoted in code or advice is no report; R's own two-line error is.
  for (const char* quoted : {"    if (grepl(\"cannot allocate vector of size\", conditionMessage(e))) {\n",
                             "If you see \"vector memory exhausted (limit reached?)\" on macOS, add R_MAX_VSIZE=100Gb.\n"}) {
    EXPECT_TRUE(diagnose_log(quoted, without).empty() || diagnose_log(quoted, without)[0].oom->subsystem != "r") << quoted;
  }
  EXPECT_EQ(diagnose_log("Error in h(simpleError(msg, call)) : \n  error in evaluating the argument 'x' in selecting a method "
                         "for function 'as.matrix': cannot allocate vector of size 512.0 Mb\n",
                         without)
                .at(0)
                .oom->requested_bytes,
            int64_t{512} << 20);
  // Piles of something is no growth.
  EXPECT_NE(top("The box has piles of RAM (512GB), yet every epoch the job hits CUDA out of memory at the same step.\n"),
            OomCause::kLeakAcrossSteps);
  // tf.data's idioms; a denial or the HF disk cache is no dataset in RAM.
  EXPECT_EQ(top("ds_train = ds_train.cache()\nThe notebook kernel dies with out of memory halfway through epoch 1.\n"),
            OomCause::kCpuRam);
  for (const char* not_cached :
       {"I'm not using .cache() on the dataset at all; still the GPU runs out of memory at step 1: CUDA out of memory.\n",
        "The dataset is cached in ~/.cache/huggingface/datasets; both splits are 40GB.\nFine-tuning fails with CUDA out of "
        "memory on the first step.\n"}) {
    EXPECT_NE(top(not_cached), OomCause::kCpuRam) << not_cached;
  }
  // A larger device named: no claim that the request exceeds it.
  EXPECT_NE(top("8x AMD Instinct MI300X (192 GB HBM3 each)\ntorch.OutOfMemoryError: HIP out of memory. Tried to allocate 96.00 "
                "GiB.\n"),
            OomCause::kActivationsSeqlen);
  // A limit of tokens or files, denied, or told as a rule is no report.
  for (const char* none : {"GPU memory is fine (12 of 24 GB used), but the prompt exceeds the limit of 77 tokens.\n",
                           "The memory never exceeds the limit: it stays around 30GB of the 64GB cgroup.\n",
                           "Note: when the memory exceeds the limit set by --max-memory, the tool spills to disk.\n"}) {
    EXPECT_TRUE(diagnose_log(none, without).empty()) << none;
  }
  // Arenas: a denial, a game's arena, a benchmark add no fragmentation; chunks that cannot merge do.
  auto arena_read = [&](const std::string& log) {
    const std::vector<Diagnosis> ds = diagnose_log(log, without);
    for (const Finding& f : first(ds).findings) {
      for (const std::string& e : f.evidence) {
        if (e.find("an allocator's arena") != std::string::npos) return true;
      }
    }
    return false;
  };
  for (const char* not_arena :
       {"It's not fragmentation in the BFC arena: the blocks are all in use.\ntorch.OutOfMemoryError: CUDA out of memory. "
        "Tried to allocate 6.00 GiB. GPU 0 has a total capacity of 23.64 GiB of which 3.10 GiB is free.\n",
        "Training a PPO agent in the multi-agent Arena environment (free-for-all mode, 8 agents).\nCUDA out of memory\n",
        "The interpreter runs out of memory in the tensor arena: Arena size is too small for all buffers.\n"}) {
    EXPECT_FALSE(arena_read(not_arena)) << not_arena;
  }
  EXPECT_TRUE(arena_read("Second run fails to allocate memory\nWe still have the smaller blocks from the first run allocated, as "
                         "BFCArena has no logic to free those.\n"));
  EXPECT_EQ(top("Failed to allocate memory for requested buffer of size 838860800\nThe BFC arena grows to "
                "the size of the largest input and never shrinks; the chunks it freed can't be merged for the bigger request.\n"),
            OomCause::kFragmentation);
}

// Carried over from session 26's review (tests/data/oom-corpus/README.md item 26): tracebacks under
// torchrun's per-rank prefix are read as tracebacks; a huge request while ZeRO flattens the
// parameters is the model's, not an activation; a pod's, a container's or a Spark driver's memory
// limit is host RAM; vLLM's frames build no autograd graph; the evidence names the identifier that
// named evaluation.
TEST(DiagnoseKinds19, CarriedOverFromSession26) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  const std::string zero =
      "[rank0]: Traceback (most recent call last):\n"
      "[rank0]:   File \"/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/zero/stage_1_and_2.py\", line 366, in "
      "__init__\n"
      "[rank0]:     self.bit16_groups_flat.append(self.flatten_dense_tensors_aligned(\n"
      "[rank0]:   File \"/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/zero/stage_1_and_2.py\", line 599, in "
      "flatten_dense_tensors_aligned\n"
      "[rank0]:     return self.flatten(align_dense_tensors(tensor_list, alignment))\n"
      "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.52 GiB.\n";
  const Diagnosis z = first(diagnose_log(zero, without));
  EXPECT_EQ(z.findings.at(0).category, OomCause::kStaticModelTooLarge);
  EXPECT_EQ(z.phase, "model_load");
  // The same frames without the prefix, and under "[default0]:", read the same.
  std::string plain = zero, dflt = zero;
  for (size_t p; (p = plain.find("[rank0]: ")) != std::string::npos;) plain.erase(p, 9);
  for (size_t p; (p = dflt.find("[rank0]")) != std::string::npos;) dflt.replace(p, 7, "[default0]");
  EXPECT_EQ(first(diagnose_log(plain, without)).phase, "model_load");
  EXPECT_EQ(first(diagnose_log(dflt, without)).phase, "model_load");
  // A request that large in the forward pass stays the tensor itself.
  EXPECT_EQ(top("[rank0]:   File \"train.py\", line 80, in forward\n[rank0]:     scores = q @ k.transpose(-2, -1)\n"
                "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.52 GiB.\n"),
            OomCause::kActivationsSeqlen);
  // A container's or a cluster node's limit is the host's RAM; a GPU named beside it is the GPU's.
  for (const char* host :
       {"After a few epochs the memory exceeds its limit and the pod is restarted. Requests: 16Gi, limits: 16Gi.\n",
        "Our Databricks driver crashes: memory usage exceeded the limit (driver node has 28 GB) in toPandas().\n",
        "The container runs out of memory while tokenizing the dataset with num_proc=16.\n"}) {
    const auto ds = diagnose_log(host, without);
    ASSERT_EQ(ds.size(), 1u) << host;
    EXPECT_EQ(ds[0].oom->device, "cpu") << host;
    EXPECT_EQ(top(host), OomCause::kCpuRam) << host;
  }
  EXPECT_EQ(diagnose_log("Inside the docker container the GPU runs out of memory at batch 32.\n", without).at(0).oom->device,
            "cuda");
  // TensorFlow's executor.cc is no Spark executor.
  EXPECT_NE(diagnose_log("2024-01-02 W tensorflow/core/common_runtime/executor.cc:1197] the model runs out of memory\n", without)
                .at(0)
                .oom->device,
            "cpu");
  // A traceback through vLLM: no evaluation phase from the script's name above it.
  const Diagnosis v = first(diagnose_log(
      "[rank0]: Traceback (most recent call last):\n"
      "[rank0]:   File \"/home/user/test_llama.py\", line 21, in <module>\n"
      "[rank0]:     llm = LLM(model=path, max_num_seqs=256)\n"
      "[rank0]:   File \"/usr/local/lib/python3.10/dist-packages/vllm/worker/worker.py\", line 195, in "
      "determine_num_available_blocks\n"
      "[rank0]:     self.model_runner.profile_run()\n"
      "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 0 has a total capacity of 44.52 "
      "GiB of which 1.20 GiB is free.\n",
      without));
  EXPECT_NE(v.phase, "eval");
  EXPECT_NE(v.findings.at(0).category, OomCause::kEvalWithoutNoGrad);
  // The evidence of a weak evaluation word names it, an identifier included.
  const std::vector<Diagnosis> eval_word = diagnose_log("run_pretraining.py OOM\n  --do_eval=True \\\n", without);
  // More memory needed than there is, both sizes told, is a report; the other way round, disk
  // space or a supposition is none.
  for (const char* short_of : {"Error: model needs 207.42 GiB, host has 30.60 GiB\n",
                               "The model requires 24 GB of VRAM but only 16 GB is available\n"}) {
    EXPECT_EQ(diagnose_log(short_of, without).size(), 1u) << short_of;
  }
  EXPECT_EQ(diagnose_log("The model requires 24 GB of VRAM but only 16 GB is available\n", without).at(0).oom->device, "cuda");
  for (const char* fits : {"The 7B model needs 14 GB in fp16 and my GPU has 24 GB\n",
                           "Download requires 40 GB but only 10 GB of disk space left\n",
                           "If the model needs 24 GB and I have 16 GB, will it run?\n"}) {
    EXPECT_TRUE(diagnose_log(fits, without).empty()) << fits;
  }
  bool named = false;
  for (const Finding& f : first(eval_word).findings) {
    for (const std::string& e : f.evidence) {
      EXPECT_EQ(e.find("the word ''"), std::string::npos) << e;
      named = named || e.find("the word 'do_eval'") != std::string::npos;
    }
  }
  EXPECT_TRUE(named);
}

// A fresh helper's review of session 27's rules (tests/data/oom-corpus/README.md item 26): ranks
// printed interleaved keep their own tracebacks; other launchers' prefixes; a huge flattening
// request is the model's; a GPU named by its model in a pod; ONNX Runtime's arena (wrapped, its
// provider named before it, quoted in advice, the CPU's arena, its frames and session creation);
// R's older Chinese wording and rpy2's re-raise; a setting that turns evaluation off.
TEST(DiagnoseKinds19, Session27Review) {
  const DiagnoseOptions without = rules_alone();
  const std::string tail = " has a total capacity of 79.15 GiB of which 612.00 MiB is free. Of the allocated memory 76.20 GiB is "
                           "allocated by PyTorch, and 1.71 GiB is reserved by PyTorch but unallocated.\n";
  const std::vector<Diagnosis> two = diagnose_log(
      "[rank0]: Traceback (most recent call last):\n[rank1]: Traceback (most recent call last):\n"
      "[rank0]:   File \"/workspace/train.py\", line 171, in main\n[rank1]:   File \"/workspace/train.py\", line 198, in main\n"
      "[rank0]:     loss.backward()\n[rank1]:     optimizer.step()\n"
      "[rank0]:   File \"/opt/conda/lib/python3.10/site-packages/torch/_tensor.py\", line 522, in backward\n"
      "[rank1]:   File \"/opt/conda/lib/python3.10/site-packages/torch/optim/adamw.py\", line 177, in step\n"
      "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0" + tail +
          "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 1" + tail,
      without);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].phase, "backward");
  EXPECT_EQ(two[1].phase, "optimizer_step");
  // pdsh's host before the rank, mpirun's "[job,rank]<stderr>:".
  for (const char* prefix : {"worker-1: [rank0]: ", "[1,0]<stderr>: "}) {
    const std::string p = prefix;
    const std::string log = p + "Traceback (most recent call last):\n" + p + "  File \"train.py\", line 88, in train\n" + p +
                            "    optimizer.step()\n" + p +
                            "  File \"/usr/lib/python3/dist-packages/torch/optim/adam.py\", line 141, in step\n" + p +
                            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0" + tail;
    EXPECT_EQ(first(diagnose_log(log, without)).phase, "optimizer_step") << prefix;
  }
  // A request beyond the capacity while ZeRO flattens the parameters: the model's, no activation.
  const Diagnosis flat = first(diagnose_log(
      "  File \"/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/zero/stage_1_and_2.py\", line 880, in "
      "flatten_dense_tensors_aligned\n    return self.flatten(align_dense_tensors(tensor_list, alignment))\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 121.88 GiB. GPU 0" + tail,
      without));
  EXPECT_EQ(flat.findings.at(0).category, OomCause::kStaticModelTooLarge);
  for (const Finding& f : flat.findings) {
    if (f.category == OomCause::kActivationsSeqlen || f.category == OomCause::kActivationsBatch) {
      for (const std::string& e : f.evidence) EXPECT_EQ(e.find("exceeds the whole capacity"), std::string::npos) << e;
    }
  }
  // A pod whose GPU is named by its model, an NPU's device memory: not the host's.
  for (const char* device : {"The pod is restarted: out of memory on the A100 after 300 steps.\n",
                             "On the Ascend NPU pod the device memory exceeds its limit and the pod is restarted.\n"}) {
    EXPECT_NE(diagnose_log(device, without).at(0).oom->device, "cpu") << device;
  }
  // ONNX Runtime: wrapped before its size; its provider named before the message or on the line above.
  const std::string ort = "Status Message: bfc_arena.cc:376 AllocateRawInternal Failed to allocate memory for requested buffer";
  EXPECT_EQ(first(diagnose_log(ort + "\n of size 2147483648\n", without)).oom->requested_bytes, int64_t{2147483648});
  const Diagnosis cpu = first(diagnose_log("[CPUExecutionProvider] " + ort + " of size 6442450944\n", without));
  EXPECT_EQ(cpu.oom->family, "host_alloc");
  EXPECT_EQ(cpu.findings.at(0).category, OomCause::kCpuRam);
  EXPECT_EQ(first(diagnose_log("[E:onnxruntime:Default, cuda_call.cc:116 CudaCall] CUDA failure 2: out of memory ; GPU=0 ; "
                               "file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_allocator.cc\n" +
                                   ort + " of size 536870912\n",
                               without))
                .oom->device,
            "cuda");
  for (const Diagnosis& d : diagnose_log("Tip: if you see \"Failed to allocate memory for requested buffer of size 4294967296\", "
                                         "set gpu_mem_limit in the provider options.\n",
                                         without)) {
    EXPECT_NE(d.oom->subsystem, "onnxruntime");
  }
  const std::string ort_frames =
      "Traceback (most recent call last):\n  File \"/app/infer.py\", line 31, in <module>\n"
      "  File \"/usr/local/lib/python3.10/dist-packages/onnxruntime/capi/onnxruntime_inference_collection.py\", line 220, in run\n"
      "    return self._sess.run(output_names, input_feed, run_options)\n";
  EXPECT_NE(first(diagnose_log(ort_frames + ort + " of size 2147483648\n", without)).phase, "eval");
  EXPECT_EQ(first(diagnose_log("Traceback (most recent call last):\n"
                               "  File \"/usr/local/lib/python3.10/dist-packages/onnxruntime/capi/"
                               "onnxruntime_inference_collection.py\", line 483, in _create_inference_session\n"
                               "    sess.initialize_session(providers, provider_options, disabled_optimizers)\n" +
                                   ort + " of size 524288000\n",
                               without))
                .phase,
            "model_load");
  // R: the older Chinese catalogue's 矢量, and rpy2's re-raise.
  const Diagnosis r_zh = first(diagnose_log(
      "\xe9\x94\x99\xe8\xaf\xaf: \xe6\x97\xa0\xe6\xb3\x95\xe5\x88\x86\xe9\x85\x8d\xe5\xa4\xa7\xe5\xb0\x8f\xe4\xb8\xba"
      "512.0 Mb\xe7\x9a\x84\xe7\x9f\xa2\xe9\x87\x8f\n",  // 错误: 无法分配大小为512.0 Mb的矢量
      without));
  EXPECT_EQ(r_zh.oom->subsystem, "r");
  EXPECT_EQ(r_zh.oom->requested_bytes, int64_t{512} << 20);
  EXPECT_EQ(first(diagnose_log("rpy2.rinterface_lib.embedded.RRuntimeError: Error: cannot allocate vector of size 2.1 Gb\n",
                               without))
                .oom->subsystem,
            "r");
  // A setting that turns evaluation off is no evaluation word.
  const std::vector<Diagnosis> off = diagnose_log("run.py OOM\n  --do_eval False \\\n", without);
  for (const Finding& f : first(off).findings) {
    for (const std::string& e : f.evidence) EXPECT_EQ(e.find("do_eval"), std::string::npos) << e;
  }
}

// After held26's score (tests/data/oom-corpus/README.md item 26): torch.no_grad told as the fix
// makes the graph said to be kept, or the memory said to grow with it, eval_without_no_grad; an
// image's size set by --height / --width is weighed as a printed resolution.
TEST(DiagnoseKinds19, AfterHeld26sScore) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  EXPECT_EQ(top("CUDA out of memory\nIt is necessary to add the torch.no_grad decorator. Otherwise, PyTorch will capture the grad "
                "graph by default, leading to a gradual increase in memory usage.\n"),
            OomCause::kEvalWithoutNoGrad);
  EXPECT_EQ(top("fix: wrap post-quantization generation in torch.no_grad()\nevery decode step retained a full backward-pass graph "
                "it never uses.\nCUDA out of memory\n"),
            OomCause::kEvalWithoutNoGrad);
  // A fix told as failed, or no no_grad at all: the kept graph stays a leak.
  for (const char* leak : {"CUDA out of memory\nI added torch.no_grad() but it still fails.\nThe loop keeps the graph of every "
                           "batch in a list.\n",
                           "CUDA out of memory\nThe loop keeps the graph of every batch in a list.\n"}) {
    EXPECT_EQ(top(leak), OomCause::kLeakAcrossSteps) << leak;
  }
  EXPECT_EQ(top("mflux-generate-fill \\\n  --height 5712 \\\n  --width 4284 \\\n[METAL] Command buffer execution failed: "
                "Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n"),
            OomCause::kActivationsSeqlen);
  // A small image, or a window's size, is no large input.
  EXPECT_NE(top("python gen.py --height 512 --width 512\nCUDA out of memory\n"), OomCause::kActivationsSeqlen);
}

// A fresh helper's review of the rules made after held26's score: DuckDB's wording only for a
// block or data and not on a GPU; a no_grad fix already applied, asked, told as failed on the next
// line, or beside training's own kept graph moves nothing; markup, widgets and tile flags are no
// input size; more needed than there is, supposed, asked, resolved or of disk space, is no report.
TEST(DiagnoseKinds19, AfterHeld26Review) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  for (const char* gpu : {"Out of Memory Error: could not allocate texture of size 2.0 GiB on device CUDA (RTX 3070)\n",
                          "Out of Memory Error: failed to allocate data of size 1.0 GiB (GPU: 7.8 GiB/8.0 GiB used)\n"}) {
    for (const Diagnosis& d : diagnose_log(gpu, without)) EXPECT_NE(d.oom->subsystem, "duckdb") << gpu;
  }
  for (const char* leak :
       {"Wrapping the eval in torch.no_grad() fixed the eval OOM last week, thanks!\nNow during training memory grows each "
        "step with gradient accumulation, the graph for backward is kept until optimizer.step()\nCUDA out of memory\n",
        "> it is necessary to add the torch.no_grad decorator to your predict function\nThanks, I tried that, still OOM. "
        "Memory grows each call, looks like the graph is kept.\nCUDA out of memory\n",
        "Is torch.no_grad missing here? Memory grows every step, and the autograd graph might be kept.\nCUDA out of memory\n"}) {
    EXPECT_EQ(top(leak), OomCause::kLeakAcrossSteps) << leak;
  }
  const std::string oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.\n";
  for (const char* not_input : {"<img src=\"out.png\" height=\"2048\" width=\"2048\">\n",
                                "chat = gr.Chatbot(height=1024, width=1280)\n",
                                "python sample.py --tile-height 2048 --tile-width 2048 --height 768 --width 768\n"}) {
    const std::vector<Diagnosis> ds = diagnose_log(std::string(not_input) + oom, without);
    for (const Finding& f : first(ds).findings) {
      for (const std::string& e : f.evidence) EXPECT_EQ(e.find("set (width / height)"), std::string::npos) << not_input;
    }
  }
  for (const char* none :
       {"Tip: in case the model requires 24 GB of VRAM but only 16 GB is available, pass --lowvram.\n",
        "Does the model require 24 GB of VRAM when only 16 GB is available on my card?\n",
        "Previously it said the model needs 24 GB but only 16 GB is available; with the 4-bit GGUF it runs fine now.\n",
        "The wheel needs 3.2 GB but only 1.1 GB is available on /tmp.\n"}) {
    EXPECT_TRUE(diagnose_log(none, without).empty()) << none;
  }
}

// Whether the first report of `log` (rules alone) has a piece of evidence holding `needle`, on a
// finding of `cause` (any cause when none is given).
bool evidence_holds(const std::string& log, const std::string& needle, std::optional<OomCause> cause = std::nullopt) {
  const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
  if (ds.empty()) return false;
  for (const Finding& f : ds.front().findings) {
    if (cause && f.category != *cause) continue;
    for (const std::string& e : f.evidence) {
      if (e.find(needle) != std::string::npos) return true;
    }
  }
  return false;
}

// Each log of `told` gives one report, rules alone (a failure told in words, read as one).
void expect_each_reports(std::initializer_list<const char*> told) {
  for (const char* log : told) EXPECT_EQ(diagnose_log(log, rules_alone()).size(), 1u) << log;
}

// No log of `none` gives a report, rules alone (asked, supposed, denied or another meaning).
void expect_none_reports(std::initializer_list<const char*> none) {
  for (const char* log : none) EXPECT_TRUE(diagnose_log(log, rules_alone()).empty()) << log;
}

// The first-ranked cause of the first report of `log`, rules alone (nullopt with no report or no finding).
std::optional<OomCause> top_cause(const std::string& log) {
  const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
  if (ds.empty() || ds.front().findings.empty()) return std::nullopt;
  return ds.front().findings.front().category;
}

// The phase of the first report of `log`, rules alone ("" with no report).
std::string first_phase(const std::string& log) {
  const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
  return ds.empty() ? std::string() : ds.front().phase;
}

// No text of `texts`, after `prefix`, gives evidence holding `needle` (rules alone).
void expect_evidence_absent(const std::string& prefix, std::initializer_list<const char*> texts, const std::string& needle) {
  for (const char* t : texts) EXPECT_FALSE(evidence_holds(prefix + t, needle)) << t;
}

// A PyTorch 2 message of 1.50 GiB on a 23.64 GiB device, 21.30 GiB allocated (the tests below).
const std::string kPytorch2Oom =
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 23.64 GiB of "
    "which 1.00 GiB is free. Of the allocated memory 21.30 GiB is allocated by PyTorch, and 300.50 MiB is reserved by "
    "PyTorch but unallocated.\n";

// The phase of kPytorch2Oom under a one-frame traceback whose code line is `code`.
std::string phase_under(const std::string& code) {
  return first_phase("Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n    " + code + "\n" +
                     kPytorch2Oom);
}

// Session 28, before held27: evaluation named as not run is no evaluation word; a code line that
// only assigns to a loss word ("logits = model(x)") is the forward, not the loss.
TEST(DiagnoseKinds20, EvaluationNotRunAndLogitsAssigned) {
  const std::string& oom = kPytorch2Oom;
  auto word_evidence = [&](const std::string& log) {
    return evidence_holds(log, "log line 1:", OomCause::kEvalWithoutNoGrad);
  };
  for (const char* denied : {"We train with LoRA and we never evaluate during training.\n",
                             "Training without evaluation, batch size 4.\n", "no validation at all, just training\n",
                             "I didn't run eval at all.\n"}) {
    EXPECT_FALSE(word_evidence(denied + oom)) << denied;
  }
  for (const char* told : {"It fails when we evaluate after epoch 1.\n", "no OOM in training, only in validation\n"}) {
    EXPECT_TRUE(word_evidence(told + oom)) << told;
  }
  auto phase = [](const std::string& code) { return phase_under(code); };
  EXPECT_EQ(phase("logits = model(input_ids)"), "forward");
  EXPECT_EQ(phase("loss, logits = self.net(x)"), "forward");
  EXPECT_EQ(phase("loss = F.cross_entropy(logits.view(-1, V), y)"), "loss");
  EXPECT_EQ(phase("out = self.lm_head(hidden)"), "loss");
  // A field read from the model's output is the forward's (session 29); a method called on a loss is the loss.
  EXPECT_EQ(phase("loss = model(**batch).loss"), "forward");
  EXPECT_EQ(phase("logits = model(x)[\"logits\"]"), "forward");
  EXPECT_EQ(phase("loss = F.cross_entropy(out, y).mean()"), "loss");
}

// After held27's one score (in-sample for held27): kinds its misses showed.
TEST(DiagnoseKinds20, AfterHeld27sScore) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) {
    const std::vector<Diagnosis> ds = diagnose_log(log, without);
    return first(ds).findings.at(0).category;
  };
  // TensorFlow's variable initializer: no step has run; a few bytes failing there means a full device.
  const std::string init =
      "ResourceExhaustedError (see above for traceback): OOM when allocating tensor of shape [1024] and type float\n"
      "\t [[Node: flownet_c/conv6/biases/Adam/Initializer/zeros = Const[dtype=DT_FLOAT, value=Tensor<type: float "
      "shape: [1024] values: 0 0 0...>, _device=\"/job:localhost/replica:0/task:0/gpu:0\"]()]]\n";
  {
    const std::vector<Diagnosis> ds = diagnose_log(init, without);
    EXPECT_EQ(first(ds).phase, "model_load");
    EXPECT_EQ(first(ds).findings.at(0).category, OomCause::kOtherProcess);
  }
  // A gradient op's node is no initializer.
  {
    std::string step = init;
    step.replace(step.find("flownet_c/conv6/biases/Adam/Initializer/zeros"), 45, "gradients/flownet_c/conv6/Conv2D_grad/Conv2DBackpropInput");
    const std::vector<Diagnosis> ds = diagnose_log(step, without);
    EXPECT_NE(first(ds).phase, "model_load");
  }
  // Paddle Inference's predictor creation loads the model.
  EXPECT_EQ(first_phase("Traceback (most recent call last):\n  File \"tools/infer/utility.py\", line 307, in create_predictor\n"
                        "    predictor = inference.create_predictor(config)\nRuntimeError: ResourceExhaustedError:\n\n"
                        "Out of memory error on GPU 0. Cannot allocate 2.250000kB memory on GPU 0, available memory is "
                        "only 0.000000B.\n"),
            "model_load");
  // PostgreSQL: palloc's 1 GB cap (no memory setting cures it) and a backend's failed malloc; a
  // title naming the failure above the sized message is one report.
  {
    const std::vector<Diagnosis> ds = diagnose_log(
        "Index build error: `invalid memory alloc request size` >= 1GB\nCREATE INDEX ON embed USING ivfflat (vec);\n"
        "ERROR:  invalid memory alloc request size 1073774812\n",
        without);
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_EQ(ds[0].oom->subsystem, "postgres");
    EXPECT_EQ(ds[0].oom->requested_bytes.value_or(0), 1073774812);
    EXPECT_EQ(ds[0].findings.at(0).category, OomCause::kOther);
    EXPECT_EQ(ds[0].framework, "native");
  }
  {
    const std::vector<Diagnosis> ds =
        diagnose_log("ERROR:  out of memory\nDETAIL:  Failed on request of size 8192 in memory context \"ExprContext\".\n", without);
    EXPECT_EQ(first(ds).oom->requested_bytes.value_or(0), 8192);
    EXPECT_EQ(first(ds).findings.at(0).category, OomCause::kCpuRam);
  }
  // A fix told with a command line's hyphenated knob.
  const std::string xla = "Original error: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1078460416 bytes.\n";
  EXPECT_EQ(top("Changing batch-size from 128 to 32 fixed it.\n" + xla), OomCause::kActivationsBatch);
  // zh: memory said to keep growing during training.
  EXPECT_EQ(top("\xe8\xae\xad\xe7\xbb\x83\xe8\xbf\x87\xe7\xa8\x8b\xe4\xb8\xad\xe5\x86\x85\xe5\xad\x98\xe5\x8d\xa0\xe7\x94\xa8"
                "\xe4\xb8\x80\xe7\x9b\xb4\xe5\xa2\x9e\xe5\x8a\xa0\n"),  // 训练过程中内存占用一直增加
            OomCause::kLeakAcrossSteps);
  // The whole model on one device, said to exceed its memory (en, zh); not asked or denied.
  const std::string oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.\n";
  for (const char* beyond : {"Models that exceed a single GPU memory cannot be trained.\n",
                             "ZeRO-3 still gathers all parameters onto a single card.\n",
                             "\xe5\xa7\x8b\xe7\xbb\x88\xe4\xbc\x9a\xe5\xb0\x86\xe6\x89\x80\xe6\x9c\x89\xe5\x8f\x82\xe6\x95\xb0"
                             "\xe6\x94\xb6\xe9\x9b\x86\xe5\x88\xb0\xe5\x8d\x95\xe5\x8d\xa1\xe6\x8e\xa8\xe7\x90\x86\n"}) {  // 始终会将所有参数收集到单卡推理
    EXPECT_EQ(top(beyond + oom), OomCause::kStaticModelTooLarge) << beyond;
  }
  for (const char* not_told : {"Is the model larger than a single GPU memory?\n", "The model is not larger than one GPU.\n"}) {
    const std::vector<Diagnosis> ds = diagnose_log(not_told + oom, without);
    for (const Finding& f : first(ds).findings) {
      for (const std::string& e : f.evidence) EXPECT_EQ(e.find("said to exceed"), std::string::npos) << not_told;
    }
  }
}

// Mends from a fresh helper's review of the rules above (/tmp/review28, 120 inputs).
TEST(DiagnoseKinds20, Session28Review) {
  const DiagnoseOptions without = rules_alone();
  const std::string& oom = kPytorch2Oom;
  auto phase = [](const std::string& code) { return phase_under(code); };
  EXPECT_EQ(phase("loss = self.criterion(outputs, targets)"), "loss");
  EXPECT_EQ(phase("loss = loss_fn(pred, y)"), "loss");
  EXPECT_EQ(phase("loss = torch.nn.functional.nll_loss(log_probs, target)"), "loss");
  // "No idea," denies nothing; a skip told as the fix points at evaluation.
  auto eval_evidence = [&](const std::string& line) {
    return evidence_holds(line + oom, "log line 1:", OomCause::kEvalWithoutNoGrad);
  };
  EXPECT_TRUE(eval_evidence("No idea, evaluation OOMs every time after the first epoch.\n"));
  EXPECT_TRUE(eval_evidence("If I skip the evaluation, training runs fine for days.\n"));
  // A numberless PyTorch title on line 1 and the sized message below: one report, at the sized
  // message's line (session 39: the title names the failure, the message's own line is the report's;
  // it was line 1).
  {
    const std::vector<Diagnosis> ds = diagnose_log("RuntimeError: CUDA out of memory\n\nI fine-tune a 7B model.\n" + oom, without);
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_EQ(ds[0].oom->line, 4);
    EXPECT_EQ(ds[0].oom->occurrences, 1);
    EXPECT_TRUE(ds[0].oom->requested_bytes.has_value());
  }
  // TensorFlow's initializer node under a Python traceback's message.
  EXPECT_EQ(first_phase("Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n    sess.run(init_op)\n"
                        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
                        "shape[512] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"
                        "\t [[{{node conv6/biases/Initializer/zeros}}]]\n"),
            "model_load");
  // Paddle raises its GPU allocator's error as Python's MemoryError: one report, the GPU's, at the load.
  {
    const std::vector<Diagnosis> ds = diagnose_log(
        "Traceback (most recent call last):\n  File \"infer.py\", line 40, in <module>\n    predictor = "
        "create_predictor(config)\nMemoryError: \n\n--------------------------------------\nC++ Traceback (most recent "
        "call last):\n--------------------------------------\n0   paddle_infer::CreatePredictor(paddle::AnalysisConfig "
        "const&)\n\n----------------------\nError Message Summary:\n----------------------\nResourceExhaustedError: \n\n"
        "Out of memory error on GPU 0. Cannot allocate 256.000000B memory on GPU 0, 12.500000MB memory has been allocated "
        "and available memory is only 0.000000B.\n",
        without);
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_EQ(ds[0].oom->family, "paddle");
    EXPECT_EQ(ds[0].phase, "model_load");
  }
  // Chinese: denied, asked or supposed; another subject.
  auto static_told = [&](const std::string& line) { return evidence_holds(line + oom, "said to exceed"); };
  EXPECT_FALSE(static_told("\xe6\xa8\xa1\xe5\x9e\x8b\xe6\xb2\xa1\xe6\x9c\x89\xe8\xb6\x85\xe8\xbf\x87\xe5\x8d\x95\xe5\x8d\xa1"
                           "\xe6\x98\xbe\xe5\xad\x98\xef\xbc\x8c\xe5\x8f\xaa\xe6\x9c\x89" "7B\n"));  // 模型没有超过单卡显存，只有7B
  EXPECT_FALSE(static_told("\xe6\xa8\xa1\xe5\x9e\x8b\xe6\x98\xaf\xe5\x90\xa6\xe8\xb6\x85\xe8\xbf\x87\xe5\x8d\x95\xe5\x8d\xa1"
                           "\xe6\x98\xbe\xe5\xad\x98\xef\xbc\x9f\n"));  // 模型是否超过单卡显存？
  EXPECT_FALSE(static_told("\xe6\x95\xb0\xe6\x8d\xae\xe9\x9b\x86\xe8\xb6\x85\xe8\xbf\x87\xe5\x8d\x95\xe5\x8d\xa1\xe6\x98\xbe"
                           "\xe5\xad\x98\n"));  // 数据集超过单卡显存
  EXPECT_FALSE(static_told("The activations, not the model, exceed one GPU's memory.\n"));
  EXPECT_FALSE(static_told("I don't think the model exceeds a single GPU's memory.\n"));
  EXPECT_FALSE(static_told("Models larger than one card's memory can run with FSDP, and ours is only 3B.\n"));
  EXPECT_TRUE(static_told("\xe8\xb7\x91\xe4\xb8\x8d\xe8\xb5\xb7\xe6\x9d\xa5\xe8\xb6\x85\xe8\xbf\x87\xe5\x8d\x95\xe5\x8d\xa1"
                          "\xe6\x98\xbe\xe5\xad\x98\xe7\x9a\x84\xe6\xa8\xa1\xe5\x9e\x8b\xe3\x80\x82\xe5\x8d\xb3\xe4\xbd\xbf"
                          "\xe8\xae\xbe\xe7\xbd\xae\xe4\xba\x86\xe4\xb9\x9f\xe6\xb2\xa1\xe7\x94\xa8\n"));  // 跑不起来超过单卡显存的模型。即使设置了也没用
  // zh growth denied or asked is no leak evidence.
  for (const char* not_told : {"\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6\xe6\x98\xbe\xe5\xad\x98\xe6\xb2\xa1\xe6\x9c\x89\xe4\xb8\x80"
                               "\xe7\x9b\xb4\xe5\xa2\x9e\xe5\x8a\xa0\n",  // 训练时显存没有一直增加
                               "\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6\xe6\x98\xbe\xe5\xad\x98\xe6\x98\xaf\xe4\xb8\x8d\xe6\x98\xaf"
                               "\xe4\xb8\x80\xe7\x9b\xb4\xe5\x9c\xa8\xe5\xa2\x9e\xe5\x8a\xa0\xef\xbc\x9f\n"}) {  // 训练时显存是不是一直在增加？
    const std::vector<Diagnosis> ds = diagnose_log(std::string(not_told) + oom, without);
    for (const Finding& f : first(ds).findings) {
      for (const std::string& e : f.evidence) EXPECT_EQ(e.find("memory grows step after step"), std::string::npos) << not_told;
    }
  }
  // Batch size 1 told as the fix is no "fails even at batch size 1".
  EXPECT_EQ(first(diagnose_log("Micro batch size 1 fixed it.\n" + oom, without)).findings.at(0).category,
            OomCause::kActivationsBatch);
}

// Database servers' own out-of-memory messages (review28's near misses): reports of their own,
// framework native, no PyTorch fixes.
TEST(DiagnoseKinds20, DatabaseMessages) {
  const DiagnoseOptions without = rules_alone();
  struct Case {
    const char* log;
    const char* subsystem;
    OomCause first;
    int64_t requested;  // 0: none printed
  };
  const Case cases[] = {
      {"psql:load.sql:12: ERROR:  out of memory\n", "postgres", OomCause::kCpuRam, 0},
      {"2024-05-01 10:00:00.123 UTC [42] FATAL:  out of memory\n", "postgres", OomCause::kCpuRam, 0},
      {"mysqld: Out of memory (Needed 1048576 bytes)\n", "mysql", OomCause::kCpuRam, 1048576},
      {"ERROR 1041 (HY000): Out of memory; check if mysqld or some other process uses all available memory; if not, you "
       "may have to use 'ulimit' to allow mysqld to use more memory or you can add more swap space\n",
       "mysql", OomCause::kCpuRam, 0},
      {"(error) OOM command not allowed when used memory > 'maxmemory'.\n", "redis", OomCause::kOther, 0},
      {"sqlite3.OperationalError: out of memory\n", "sqlite", OomCause::kCpuRam, 0},
      {"Error: SQLITE_NOMEM: out of memory\n", "sqlite", OomCause::kCpuRam, 0},
      {"Runtime error near line 3: out of memory (7)\n", "sqlite", OomCause::kCpuRam, 0},
      {"called `Result::unwrap()` on an `Err` value: SqliteFailure(Error { code: OutOfMemory, extended_code: 7 }, "
       "Some(\"out of memory\"))\n",
       "sqlite", OomCause::kCpuRam, 0},
  };
  for (const Case& c : cases) {
    const std::vector<Diagnosis> ds = diagnose_log(c.log, without);
    ASSERT_EQ(ds.size(), 1u) << c.log;
    EXPECT_EQ(ds[0].oom->subsystem, c.subsystem) << c.log;
    EXPECT_EQ(ds[0].framework, "native") << c.log;
    EXPECT_EQ(ds[0].findings.at(0).category, c.first) << c.log;
    EXPECT_EQ(ds[0].oom->requested_bytes.value_or(0), c.requested) << c.log;
  }
  // The sqlite3 shell's other errors near a line are no memory.
  EXPECT_TRUE(diagnose_log("Error near line 3: no such table: x\n", without).empty());
  // Not a database's: one space after the level is CUDA's or PyTorch's.
  EXPECT_NE(first(diagnose_log("RuntimeError: CUDA error: out of memory\n", without)).oom->subsystem, "postgres");
}

// Session 29: "runs on PyTorch 0.3, OOMs on 0.4" needs a version named after "torch", not an OOM
// message's own figures ("torch.OutOfMemoryError: ... of which 0.31 MiB is free" then "0.43 MiB").
TEST(DiagnoseKinds20, TorchVersionNotReadFromFigures) {
  const std::string figures =
      "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of "
      "79.15 GiB of which 0.31 MiB is free. Of the allocated memory 0.45 GiB is allocated by PyTorch, and 0.40 MiB is "
      "reserved by PyTorch but unallocated.\n"
      "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 1 has a total capacity of "
      "79.15 GiB of which 0.43 MiB is free. Of the allocated memory 0.31 GiB is allocated by PyTorch, and 0.30 MiB is "
      "reserved by PyTorch but unallocated.\n";
  EXPECT_FALSE(evidence_holds(figures, "runs on PyTorch 0.3"));
  for (const char* named : {"It ran on pytorch 0.3.1; with torch==0.4.0 it fails:\n",
                            "PyTorch version 0.3 was fine.\nNow on torch v0.4 it runs out of memory:\n"}) {
    EXPECT_TRUE(evidence_holds(std::string(named) + kPytorch2Oom, "runs on PyTorch 0.3", OomCause::kEvalWithoutNoGrad)) << named;
  }
  // The other way round (review29): it fails on 0.3 and runs fine on 0.4; or a training step's
  // backward with both versions named somewhere.
  EXPECT_FALSE(evidence_holds("This OOMs on PyTorch 0.3.1 but runs fine on PyTorch 0.4.0.\n" + kPytorch2Oom,
                              "runs on PyTorch 0.3"));
  EXPECT_FALSE(evidence_holds("torch 0.4.1 installed; the checkpoint is in the torch 0.3 format.\n"
                              "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                              "    loss.backward()\n" + kPytorch2Oom,
                              "runs on PyTorch 0.3"));
}

// for_each_diagnosis() hands over diagnose_log()'s reports, in its order, one at a time, with
// their index and the log's count (how `oomkit diagnose` prints a log of 100k reports).
TEST(DiagnoseLog, ForEachDiagnosisHandsOverDiagnoseLogsReports) {
  const std::string log = "step 10 | mem 20.1 GiB\nstep 11 | mem 21.3 GiB\n" + kPytorch2Oom +
                          "Traceback (most recent call last):\n  File \"eval.py\", line 9, in <module>\n    out = model(x)\n" +
                          "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 1; 15.78 GiB total capacity; "
                          "13.10 GiB already allocated; 1.02 GiB free; 13.50 GiB reserved in total by PyTorch)\n" +
                          "Killed\n";
  const std::vector<Diagnosis> all = diagnose_log(log);
  ASSERT_EQ(all.size(), 3u);
  size_t seen = 0;
  for_each_diagnosis(log, {}, [&](size_t index, size_t count, Diagnosis&& d) {
    EXPECT_EQ(index, seen);
    EXPECT_EQ(count, all.size());
    ASSERT_LT(index, all.size());
    EXPECT_EQ(oom_report_json(d).dump(), oom_report_json(all[index]).dump()) << index;
    ++seen;
  });
  EXPECT_EQ(seen, all.size());
  bool called = false;
  for_each_diagnosis("epoch 1 done\n", {}, [&](size_t, size_t, Diagnosis&&) { called = true; });
  EXPECT_FALSE(called);
}

// The innermost of the loss and forward frames names the phase: HF Trainer's compute_loss()
// calling the model fails in the forward; "loss = criterion(out, y)" down to F.cross_entropy in
// the loss.
TEST(DiagnoseKinds20, InnermostOfLossAndForwardFrames) {
  const std::string hf =
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/site-packages/transformers/trainer.py\", line 2654, in training_step\n"
      "    loss = self.compute_loss(model, inputs)\n"
      "  File \"/usr/lib/python3/site-packages/transformers/trainer.py\", line 2679, in compute_loss\n"
      "    outputs = model(**inputs)\n"
      "  File \"/usr/lib/python3/site-packages/torch/nn/modules/module.py\", line 1501, in _call_impl\n"
      "    return forward_call(*args, **kwargs)\n"
      "  File \"/usr/lib/python3/site-packages/transformers/models/llama/modeling_llama.py\", line 292, in forward\n"
      "    hidden_states = self.mlp(hidden_states)\n" +
      kPytorch2Oom;
  EXPECT_EQ(first_phase(hf), "forward");
  const std::string criterion =
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 40, in <module>\n"
      "    out = model(x)\n"
      "  File \"train.py\", line 41, in <module>\n"
      "    loss = criterion(out, y)\n"
      "  File \"/usr/lib/python3/site-packages/torch/nn/functional.py\", line 3029, in cross_entropy\n"
      "    return torch._C._nn.cross_entropy_loss(input, target, weight)\n" +
      kPytorch2Oom;
  EXPECT_EQ(first_phase(criterion), "loss");
}

// Session 29, held28's kinds (each with a made-up input):
// TensorRT's allocator failing, told on three lines, is one report with the size its warning prints.
TEST(DiagnoseKinds21, TensorRtAllocatorIsOneReport) {
  const std::string log =
      "[I] engine creating...\n"
      "[06/01/2024-10:00:00] [E] [TRT] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)\n"
      "[06/01/2024-10:00:00] [W] [TRT] Requested amount of GPU memory (2147483648 bytes) could not be allocated. There "
      "may not be enough free memory for allocation to succeed.\n"
      "[06/01/2024-10:00:01] [E] [TRT] 2: [executionContext.cpp::ExecutionContext::470] Error Code 2: OutOfMemory (no "
      "further information)\n";
  const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].oom->subsystem, "tensorrt");
  EXPECT_EQ(ds[0].oom->device, "cuda");
  EXPECT_EQ(ds[0].oom->requested_bytes.value_or(0), 2147483648);
  EXPECT_EQ(ds[0].framework, "native");
  // The builder's "Error Code 2: OutOfMemory" alone is a report too, without a size.
  const auto alone = diagnose_log("[TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error Code 2: OutOfMemory "
                                  "(no further information)\n",
                                  rules_alone());
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].oom->subsystem, "tensorrt");
  EXPECT_FALSE(alone[0].oom->requested_bytes.has_value());
}

// One host array of 1 TiB .. 1 PiB (numpy's n x n over n items): more than a host's RAM, host RAM
// first and a shape bug the runner-up, no verdict; 1 PiB and more stays impossible.
TEST(DiagnoseKinds21, TebibyteHostArrayIsRamFirstShapeBugSecond) {
  const auto ds = diagnose_log(
      "numpy.core._exceptions.MemoryError: Unable to allocate 5.70 TiB for an array with shape (884901, 884901) and "
      "data type float64\n",
      rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].findings.at(0).category, OomCause::kCpuRam);
  EXPECT_EQ(rank_of(ds[0], OomCause::kOther), 1);
  EXPECT_TRUE(ds[0].ambiguous());
  EXPECT_NE(ds[0].findings.at(0).fix.find("sparse"), std::string::npos);
}

// An LLM named with its size for inference, the message without figures, the GPU named with its
// size ("8 A100-40Gs", plural): the 16-bit weights against one such GPU.
TEST(DiagnoseKinds21, NamedModelAgainstTheNamedGpu) {
  DiagnoseOptions described = rules_alone();
  described.described = true;
  for (const char* gpus : {"my node is 8 A100-40Gs", "my GPU is an A100 40GB"}) {
    const std::string log = std::string("Serving runs out of memory\nI serve meta-llama/Llama-2-70b-hf with vllm and get "
                                        "OOM; ") + gpus + ".\n";
    const auto ds = diagnose_log(log, described);
    ASSERT_EQ(ds.size(), 1u) << gpus;
    bool weights = false;
    for (const Finding& f : ds[0].findings) {
      for (const std::string& e : f.evidence) weights = weights || (f.category == OomCause::kStaticModelTooLarge &&
                                                                     e.find("16-bit weights") != std::string::npos);
    }
    EXPECT_TRUE(weights) << gpus;
  }
}

// Fragmentation told as what happened to the memory is the user's account; PyTorch's hint, an
// allocator's percentage, a piece of something, a question or a condition are not.
TEST(DiagnoseKinds21, FragmentationInTheUsersWords) {
  const std::string& oom = kPytorch2Oom;
  for (const char* told : {"Those persistent allocations fragment the caching allocator, so the buffer cannot be placed.\n",
                           "During decoding the CUDA memory seems to get fragmented over time.\n",
                           "Clearly there is enough memory, but due to fragmentation it cannot allocate 1.86G.\n"}) {
    EXPECT_TRUE(evidence_holds(told + oom, "fragmentation, in the user's words", OomCause::kFragmentation)) << told;
  }
  for (const char* not_told : {"If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.\n",
                               "HLO temp 41.19G (24.2% utilization, 0.7% fragmentation (293.84M))\n",
                               "Each rank holds a fragment of GPU memory for its threads.\n",
                               "Could this be memory fragmentation?\n",
                               "If the cause is memory fragmentation, maybe cuda_malloc_async helps.\n",
                               "We split long audio into shorter fragments to save memory.\n"}) {
    EXPECT_FALSE(evidence_holds(not_told + oom, "fragmentation, in the user's words")) << not_told;
  }
}

// review29's mends: lm_head under PyTorch's own nn frames is still the loss phase; SQLITE_NOMEM in
// C code is no report, the old sqlite3 shell's "Error: near line N: out of memory" is SQLite's;
// TensorRT's skipped tactics are no report, TensorRT 10's "Requested size was N bytes" is read;
// an fp8 checkpoint is a quantization (no 16-bit weights evidence).
TEST(DiagnoseKinds21, Review29Mends) {
  const std::string lm_head =
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/site-packages/transformers/trainer.py\", line 2784, in compute_loss\n"
      "    outputs = model(**inputs)\n"
      "  File \"/usr/lib/python3/site-packages/transformers/models/llama/modeling_llama.py\", line 820, in forward\n"
      "    logits = self.lm_head(hidden_states)\n"
      "  File \"/usr/lib/python3/site-packages/torch/nn/modules/module.py\", line 1501, in _call_impl\n"
      "    return forward_call(*args, **kwargs)\n"
      "  File \"/usr/lib/python3/site-packages/torch/nn/modules/linear.py\", line 114, in forward\n"
      "    return F.linear(input, self.weight, self.bias)\n" +
      kPytorch2Oom;
  EXPECT_EQ(first_phase(lm_head), "loss");
  const DiagnoseOptions without = rules_alone();
  const auto code = diagnose_log("switch (rc) {\n  case SQLITE_NOMEM: return DB_FATAL; /* SQLITE_NOMEM: out of memory */\n"
                                 "sqlite3.OperationalError: database is locked\n",
                                 without);
  for (const Diagnosis& d : code) EXPECT_NE(d.oom->subsystem, "sqlite");
  const auto shell = diagnose_log("Error: near line 12: out of memory\n", without);
  ASSERT_EQ(shell.size(), 1u);
  EXPECT_EQ(shell[0].oom->subsystem, "sqlite");
  EXPECT_TRUE(diagnose_log("[TRT] [W] Skipping tactic 0x0 due to insufficient memory on requested size of 8589934592 "
                           "detected for tactic 0x1.\n[TRT] [I] Engine built in 210.3 seconds.\n",
                           without)
                  .empty());
  const auto trt10 = diagnose_log("[TRT] [E] [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory "
                                  "(Requested size was 4294967296 bytes.)\n",
                                  without);
  ASSERT_EQ(trt10.size(), 1u);
  EXPECT_EQ(trt10[0].oom->requested_bytes.value_or(0), 4294967296);
  // An engine runs without autograd: no evaluation-without-no_grad candidate under "infer.py".
  const auto engine = diagnose_log("[TRT] [E] 2: [executionContext.cpp::ExecutionContext::410] Error Code 2: OutOfMemory "
                                   "(no further information)\nTraceback (most recent call last):\n  File \"infer.py\", "
                                   "line 40, in <module>\n    context = engine.create_execution_context()\n",
                                   without);
  ASSERT_EQ(engine.size(), 1u);
  EXPECT_EQ(rank_of(engine[0], OomCause::kEvalWithoutNoGrad), -1);
  DiagnoseOptions described = without;
  described.described = true;
  const auto fp8 = diagnose_log("Serving runs out of memory\nI serve meta-llama/Llama-2-70b-hf with vllm --quantization fp8 "
                                "on my A100 80GB GPU and get OOM.\n",
                                described);
  ASSERT_EQ(fp8.size(), 1u);
  for (const Finding& f : fp8[0].findings) {
    for (const std::string& e : f.evidence) EXPECT_EQ(e.find("16-bit weights"), std::string::npos) << e;
  }
}

// Whether a serving log ("Serving runs out of memory" + `body`, read as described, rules alone)
// gets the named LLM's 16-bit weights as static_model_too_large evidence against the GPU it names.
bool weights_evidence(const std::string& body) {
  DiagnoseOptions described = rules_alone();
  described.described = true;
  const auto ds = diagnose_log("Serving runs out of memory\n" + body, described);
  if (ds.size() != 1) return false;
  for (const Finding& f : ds[0].findings) {
    for (const std::string& e : f.evidence) {
      if (f.category == OomCause::kStaticModelTooLarge && e.find("16-bit weights") != std::string::npos) return true;
    }
  }
  return false;
}

// review29's model names (CodeLlama, Yi, deepseek, Mixtral's 8x7B) are read with their sizes; a
// tensor-parallel size set splits the weights over its GPUs (no one-GPU evidence), one named as
// not used does not.
TEST(DiagnoseKinds21, Review29ModelNamesAndTensorParallel) {
  EXPECT_TRUE(weights_evidence("vllm serve codellama/CodeLlama-34b-Instruct-hf on my A100 40GB GPU: OOM.\n"));
  EXPECT_TRUE(weights_evidence("vllm serve 01-ai/Yi-34B-Chat on a 48GB A6000 GPU: OOM.\n"));
  EXPECT_TRUE(weights_evidence("vllm serve mistralai/Mixtral-8x7B-Instruct-v0.1 on one H100 80GB GPU: OOM.\n"));
  EXPECT_FALSE(weights_evidence("vllm serve Qwen/Qwen2-72B on 8x H100 80GB GPUs, tensor_parallel_size=8: OOM.\n"));
  EXPECT_FALSE(weights_evidence("vllm serve Qwen/Qwen2-72B --tensor-parallel-size 8 on H100 80GB GPUs: OOM.\n"));
  EXPECT_TRUE(weights_evidence("vllm serve Qwen/Qwen2-72B on an H100 80GB GPU; I can't use tensor_parallel_size=8.\n"));
  // A GPU of one memory size named without it: its catalogue capacity (H100: 80 GB; a Colab T4 GPU:
  // 16 GB); "T4" without a GPU word is not read as one, nor is an A100 (40 or 80 GB).
  EXPECT_TRUE(weights_evidence("Running meta-llama/Llama-2-70b-hf with vLLM on a single H100 for generation: OOM.\n"));
  EXPECT_TRUE(weights_evidence("Running meta-llama/Llama-2-13b-hf with vLLM on a Colab T4 GPU for generation: OOM.\n"));
  EXPECT_FALSE(weights_evidence("Running meta-llama/Llama-2-13b-hf with vLLM; block T4 of the pipeline: OOM.\n"));
  EXPECT_FALSE(weights_evidence("Running meta-llama/Llama-2-70b-hf with vLLM on a single A100 for generation: OOM.\n"));
  // Every name read resolves in the catalogue (a missing one would throw from find_gpu()).
  for (const char* gpu : {"H100", "H200", "B200", "A10G", "L40S", "MI300X", "A6000", "RTX 3090", "RTX 4090", "RTX 5090", "T4",
                          "L4"}) {
    EXPECT_NO_THROW(weights_evidence(std::string("Running Llama-2-70b with vLLM on one ") + gpu + " GPU: OOM.\n")) << gpu;
    // 130 GiB of 16-bit weights: above every one of these but B200's and MI300X's (about 180 GiB).
    const bool holds = std::string(gpu) == "B200" || std::string(gpu) == "MI300X";
    EXPECT_EQ(weights_evidence(std::string("Running meta-llama/Llama-2-70b-hf with vLLM on one ") + gpu + " GPU: OOM.\n"),
              !holds)
        << gpu;
  }
}

// Session 30, before held29 (review29's carried items): a code line calling the model object
// itself is the forward, whatever is read from its output; a builder or a method of the model is not.
TEST(DiagnoseKinds22, CallOfTheModelObjectIsTheForward) {
  EXPECT_EQ(phase_under("out = model(x)[0]"), "forward");
  EXPECT_EQ(phase_under("out = model(x)"), "forward");
  EXPECT_EQ(phase_under("outputs = self.model(**inputs)"), "forward");
  EXPECT_EQ(phase_under("net(images)"), "forward");
  EXPECT_EQ(phase_under("loss = model(**batch).loss.mean()"), "forward");
  EXPECT_EQ(phase_under("logits = model(x).logits.float()"), "forward");
  EXPECT_EQ(phase_under("loss = criterion(model(x), y)"), "loss");
  EXPECT_EQ(phase_under("model = build_model(cfg)"), "");
  EXPECT_EQ(phase_under("model = model.to(device)"), "model_load");
}

// Session 30, before held29: a size tagged as the host's on the line naming the GPU ("64GB RAM",
// "RAM: 128GB", "32 GB DDR4") is not the GPU's; the GPU's own RAM ("24GB GPU RAM") is.
TEST(DiagnoseKinds22, HostTaggedSizeIsNotTheGpus) {
  EXPECT_TRUE(weights_evidence("vllm serve meta-llama/Llama-2-13b-hf on my RTX 3090 24GB GPU with 128GB RAM: OOM.\n"));
  EXPECT_TRUE(weights_evidence("vllm serve meta-llama/Llama-2-13b-hf, GPU: RTX 3090 24GB, RAM: 128GB: OOM.\n"));
  EXPECT_TRUE(weights_evidence("vllm serve meta-llama/Llama-2-13b-hf on one GPU (24 GB), 128 GB of system memory: OOM.\n"));
  EXPECT_TRUE(weights_evidence("vllm serve meta-llama/Llama-2-13b-hf on an RTX 3090 with 24GB GPU RAM: OOM.\n"));
  EXPECT_FALSE(weights_evidence("vllm serve meta-llama/Llama-2-13b-hf on an RTX 6000 GPU with 96GB GPU RAM: OOM.\n"));
}

// Session 30, before held29: c10's DefaultCPUAllocator is host RAM (device "cpu"); numpy failing in
// a log that never names PyTorch is a numpy program, its fixes worded without PyTorch's settings.
TEST(DiagnoseKinds22, HostAllocatorDeviceAndNumpyFramework) {
  const std::string dca =
      "RuntimeError: [enforce fail at alloc_cpu.cpp:73] . DefaultCPUAllocator: can't allocate memory: you tried to "
      "allocate 4398046511104 bytes. Error code 12 (Cannot allocate memory)\n";
  EXPECT_EQ(first(diagnose_log(dca)).oom->device, "cpu");
  const std::string np =
      "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 298. GiB for an array with shape (200000, 200000) "
      "and data type float64\n";
  const Diagnosis alone = first(diagnose_log(np));
  EXPECT_EQ(alone.framework, "numpy");
  EXPECT_EQ(alone.findings.at(0).category, OomCause::kCpuRam);
  EXPECT_EQ(alone.findings.at(0).fix.find("oomkit train"), std::string::npos);
  EXPECT_EQ(first(diagnose_log("import torch\n" + np)).framework, "pytorch");
}

// After held29's one score (in-sample for held29): kinds its misses showed.
// What the device lacks beyond this process's own use (capacity - free - "this process has") is
// other processes' memory, listed or not.
TEST(DiagnoseKinds22, UnlistedMemoryOutsideThisProcess) {
  auto top = [](const std::string& msg) { return first(diagnose_log(msg)).findings.at(0).category; };
  const std::string unlisted =
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 234.00 MiB. GPU 0 has a total capacity of "
      "80 GiB of which 176.38 MiB is free. Process 4683 has 11.05 GiB memory in use. Process 16753 has 1.71 GiB "
      "memory in use. Including non-PyTorch memory, this process has 18.80 GiB memory in use. Of the allocated memory "
      "18.26 GiB is allocated by PyTorch, and 30.10 MiB is reserved by PyTorch but unallocated.\n";
  const Diagnosis d = first(diagnose_log(unlisted));
  EXPECT_EQ(d.findings.at(0).category, OomCause::kOtherProcess);
  EXPECT_FALSE(d.ambiguous());  // 61 GiB of 80 held outside this process, not only the 12.76 GiB listed
  EXPECT_NE(d.findings.at(0).evidence.at(0).find("outside this process"), std::string::npos);
  // The device filled by this process itself: the listed one is small and nothing is unaccounted for.
  const std::string own =
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
      "79.15 GiB of which 1.10 GiB is free. Process 4683 has 1.05 GiB memory in use. Including non-PyTorch memory, "
      "this process has 76.90 GiB memory in use. Of the allocated memory 74.26 GiB is allocated by PyTorch, and "
      "1.10 GiB is reserved by PyTorch but unallocated.\n";
  EXPECT_NE(top(own), OomCause::kOtherProcess);
  // NVML attributing 0 bytes to this process (containers): nothing is read from it.
  const std::string zero =
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
      "79.15 GiB of which 1.10 GiB is free. Process 4683 has 1.05 GiB memory in use. Including non-PyTorch memory, "
      "this process has 0 bytes memory in use. Of the allocated memory 74.26 GiB is allocated by PyTorch, and "
      "1.10 GiB is reserved by PyTorch but unallocated.\n";
  EXPECT_NE(top(zero), OomCause::kOtherProcess);
}

// A code line casting the model's weights to another dtype is the model's setup (static memory),
// not an activation's cast.
TEST(DiagnoseKinds22, WeightsCastIsTheModelsSetup) {
  EXPECT_EQ(phase_under("param.data = param.data.to(torch.float32)"), "model_load");
  EXPECT_EQ(phase_under("model = model.float()"), "model_load");
  EXPECT_EQ(phase_under("self.model.half()"), "model_load");
  EXPECT_EQ(phase_under("module.weight.data = module.weight.data.to(dtype=torch.float32)"), "model_load");
  EXPECT_NE(phase_under("logits = logits.float()"), "model_load");
  EXPECT_NE(phase_under("hidden_states = hidden_states.to(torch.float32)"), "model_load");
}

// One long piece of speech, music or text is a long input; two models (or two copies of one)
// resident at once is static memory, in English or Chinese, not a second copy of optimizer state.
TEST(DiagnoseKinds22, LongPieceAndTwoModelsAtOnce) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  const std::string oom = "RuntimeError: CUDA out of memory.\n";
  EXPECT_EQ(top("CUDA out of memory occurs when we synthesize a long song.\n" + oom), OomCause::kActivationsSeqlen);
  EXPECT_EQ(top("It fails on a long lecture recording.\n" + oom), OomCause::kActivationsSeqlen);
  EXPECT_EQ(top("The metric keeps two models on the GPU at the same time, so Flux no longer fits.\n" + oom),
            OomCause::kStaticModelTooLarge);
  EXPECT_EQ(top("\xe9\x9c\x80\xe8\xa6\x81\xe5\x90\x8c\xe6\x97\xb6\xe5\x8a\xa0\xe8\xbd\xbd\xe4\xb8\xa4\xe4\xb8\xaa"
                "\xe9\xa2\x84\xe8\xae\xad\xe7\xbb\x83\xe6\xa8\xa1\xe5\x9e\x8b\n" + oom),  // 需要同时加载两个预训练模型
            OomCause::kStaticModelTooLarge);
  EXPECT_NE(top("Our inference compares both models, one after the other.\n" + oom), OomCause::kStaticModelTooLarge);
  EXPECT_NE(top("With caching we are keeping it twice as fast.\n" + oom), OomCause::kStaticModelTooLarge);
  EXPECT_NE(top("Do I run both models at once on the GPU? No, one after another.\n" + oom), OomCause::kStaticModelTooLarge);
}

// zh 内存溢出 ("memory overflow") alone is the generic name of an out-of-memory error, not the host's
// RAM; with the system's memory named (系统内存溢出) it is.
TEST(DiagnoseKinds22, GenericChineseOutOfMemoryNamesNoDevice) {
  const DiagnoseOptions without = rules_alone();
  auto top = [&](const std::string& log) { return first(diagnose_log(log, without)).findings.at(0).category; };
  const std::string tf = "ResourceExhaustedError: OOM when allocating tensor with shape[128,1,596,256]\n";
  EXPECT_NE(top("\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\xe9\x97\xae\xe9\xa2\x98\n" + tf), OomCause::kCpuRam);
  EXPECT_EQ(top("\xe7\xb3\xbb\xe7\xbb\x9f\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\xe4\xba\x86\nKilled\n"), OomCause::kCpuRam);
}

// Session 31 (review30's findings): a traceback frame that only passes the moved or cast model on
// ("trainer.fit(model.float(), dm)") is not where it failed: the frames under it say the phase.
std::string phase_of_frames(const std::string& frames) {
  return first_phase("Traceback (most recent call last):\n" + frames + kPytorch2Oom);
}

TEST(DiagnoseKinds23, OuterCallerIsNotThePhase) {
  const std::string module_call =
      "  File \"/usr/lib/python3/site-packages/torch/nn/modules/module.py\", line 1511, in _wrapped_call_impl\n"
      "    return self._call_impl(*args, **kwargs)\n";
  const std::string autograd =
      "  File \"/usr/lib/python3/site-packages/torch/_tensor.py\", line 522, in backward\n"
      "    torch.autograd.backward(\n"
      "  File \"/usr/lib/python3/site-packages/torch/autograd/__init__.py\", line 266, in backward\n"
      "    _engine_run_backward(\n";
  EXPECT_EQ(phase_of_frames("  File \"main.py\", line 30, in <module>\n    trainer.fit(model.float(), datamodule=dm)\n"
                            "  File \"lit.py\", line 41, in training_step\n    out = self.model(**batch)\n" + module_call),
            "forward");
  EXPECT_EQ(phase_of_frames("  File \"main.py\", line 30, in <module>\n    metrics = evaluate(model.half(), val_loader)\n"
                            "  File \"main.py\", line 12, in evaluate\n    logits = model(images)\n" + module_call),
            "eval");
  EXPECT_EQ(phase_of_frames("  File \"main.py\", line 30, in <module>\n    train(model.half(), loader)\n"
                            "  File \"main.py\", line 12, in train\n    loss.backward()\n" + autograd),
            "backward");
  // The load's own frames under it: still the load.
  EXPECT_EQ(phase_of_frames("  File \"main.py\", line 30, in <module>\n    model = model.to(device)\n"
                            "  File \"/usr/lib/python3/site-packages/torch/nn/modules/module.py\", line 1152, in to\n"
                            "    return self._apply(convert)\n"),
            "model_load");
  // Backward called at the end of a line whose forward runs first: the forward's frames under it.
  EXPECT_EQ(phase_of_frames("  File \"main.py\", line 30, in <module>\n"
                            "    scaler.scale(criterion(model(x), y)).backward()\n" + module_call),
            "forward");
  EXPECT_EQ(phase_of_frames("  File \"main.py\", line 30, in <module>\n    model(x).sum().backward()\n" + autograd),
            "backward");
  EXPECT_EQ(phase_under("out = model.module(x)"), "forward");
}

// A batch or a new tensor moved to the device is not the model's load.
TEST(DiagnoseKinds23, DataMovedIsNotTheModelsLoad) {
  for (const char* data : {"return torch.stack(tensors).cuda()", "images, labels = images.cuda(), labels.cuda()",
                           "batch = {k: v.to(device) for k, v in batch.items()}",
                           "input_ids = batch['input_ids'].to(device)"}) {
    EXPECT_NE(phase_under(data), "model_load") << data;
  }
  for (const char* model : {"model = Net(cfg).cuda()", "model = AutoModelForCausalLM.from_pretrained(path).to(device)",
                            "self.pipe = Pipeline.from_pretrained(path).to(\"cuda\")"}) {
    EXPECT_EQ(phase_under(model), "model_load") << model;
  }
}

// numpy before 1.18 printed no size ("Unable to allocate array with shape (...) and data type
// float64"): the shape's product times the dtype's size, as TensorFlow's shape[...].
TEST(DiagnoseKinds23, OldNumpyMessageSizedFromItsShape) {
  const auto rs = parse_oom_log(
      "    arr = np.ones((50000, 50000, 8))\n"
      "MemoryError: Unable to allocate array with shape (50000, 50000, 8) and data type float64\n");
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].family, "host_alloc");
  EXPECT_EQ(rs[0].subsystem, "numpy");
  EXPECT_EQ(rs[0].requested_bytes.value_or(0), int64_t{50000} * 50000 * 8 * 8);
  const auto one_d = parse_oom_log("MemoryError: Unable to allocate array with shape (100000000000,) and data type int32\n");
  ASSERT_EQ(one_d.size(), 1u);
  EXPECT_EQ(one_d[0].requested_bytes.value_or(0), int64_t{400000000000});
}

// Host-RAM failures get fixes of the program that failed: numpy's array in parts (no torch.no_grad:
// an array holds no graph), a checkpoint read into RAM without a second copy, SQLite's rows
// stepped through in any binding; the GPU's size is not weighed against a host allocation; and
// TensorFlow's own fragmentation hint under every BFC OOM is not the user's account.
TEST(DiagnoseKinds23, HostFailuresGetTheirProgramsFix) {
  const Diagnosis preds = first(diagnose_log(
      "Traceback (most recent call last):\n"
      "  File \"/work/callbacks.py\", line 30, in on_validation_epoch_end\n"
      "    all_preds = np.concatenate(self.preds)\n"
      "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 12.0 GiB for an array with shape (3000000, 1024) and "
      "data type float32\n",
      rules_alone()));
  EXPECT_EQ(preds.findings.at(0).category, OomCause::kCpuRam);
  EXPECT_NE(preds.findings.at(0).fix.find("Build the array in parts"), std::string::npos);
  for (const Finding& f : preds.findings) EXPECT_NE(f.category, OomCause::kEvalWithoutNoGrad);
  const Diagnosis numpy_alone = first(diagnose_log(
      "MemoryError: Unable to allocate 18.6 GiB for an array with shape (50000, 50000) and data type float64\n"));
  EXPECT_EQ(numpy_alone.findings.at(0).fix.find("torch"), std::string::npos);
  EXPECT_EQ(numpy_alone.findings.at(0).fix.find("llama.cpp"), std::string::npos);
  const Diagnosis load = first(diagnose_log(
      "System: RTX 3090 24GB, 64GB RAM\n"
      "Traceback (most recent call last):\n  File \"load.py\", line 8, in <module>\n    sd = torch.load(\"llama-30b.bin\")\n"
      "RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to "
      "allocate 65536000000 bytes.\n",
      rules_alone()));
  EXPECT_EQ(load.findings.at(0).category, OomCause::kCpuRam);
  EXPECT_EQ(load.findings.at(0).fix.rfind("Load without a full copy in host RAM", 0), 0u);
  EXPECT_FALSE(load.ambiguous());
  for (const Finding& f : load.findings) {
    for (const std::string& e : f.evidence) EXPECT_EQ(e.find("GPU the log names"), std::string::npos) << e;
  }
  const Diagnosis rusqlite = first(diagnose_log(
      "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: SqliteFailure(Error { code: OutOfMemory, "
      "extended_code: 7 }, None)'\n"));
  EXPECT_NE(rusqlite.findings.at(0).fix.find("query_map"), std::string::npos);
  const std::string tf =
      "2026-01-12 11:02:11.000 W tensorflow/core/common_runtime/bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran out of "
      "memory trying to allocate 100.00GiB (rounded to 107374182400)requested by op MatMul\n"
      "If the cause is memory fragmentation maybe the environment variable 'TF_GPU_ALLOCATOR=cuda_malloc_async' will "
      "improve the situation. \n";
  EXPECT_FALSE(evidence_holds(tf, "", OomCause::kFragmentation));
  EXPECT_TRUE(evidence_holds(tf + "I fixed it with: docker run --env TF_GPU_ALLOCATOR=cuda_malloc_async\n",
                             "allocator settings", OomCause::kFragmentation));
}

// A user's folder named after a framework is no traceback through it; other processes on the GPU
// of a single-process script are not read as this job's own ranks; training told in Chinese (训练,
// 微调; not 预训练 "pre-trained") is training; a processor's model after "CPU" in a hardware listing
// is not host memory.
TEST(DiagnoseKinds23, FolderNamesRanksChineseTrainingAndCpuModel) {
  const std::string frames =
      "Epoch 3 finished, running validation...\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/u/vllm-experiments/train.py\", line 201, in validate\n"
      "    outputs = model(**val_batch)\n";
  EXPECT_NE(first(diagnose_log(frames + kPytorch2Oom, rules_alone())).framework, "vllm");
  const std::string others =
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB "
      "of which 1.10 GiB is free. Process 31337 has 10.00 GiB memory in use. Including non-PyTorch memory, this process "
      "has 40.00 GiB memory in use. Of the allocated memory 38.50 GiB is allocated by PyTorch, and 0.50 GiB is reserved "
      "by PyTorch but unallocated.\n";
  auto multi_score = [](const Diagnosis& d) {
    for (const Finding& f : d.findings) {
      if (f.category == OomCause::kMultiGpuImbalance) return f.score;
    }
    return 0.0;
  };
  EXPECT_LT(multi_score(first(diagnose_log(others, rules_alone()))), 0.3);
  EXPECT_GE(multi_score(first(diagnose_log("torchrun --nproc_per_node 4 train.py\n" + others, rules_alone()))), 0.3);
  DiagnoseOptions described = rules_alone();
  described.described = true;
  auto kv_evidence = [&](const std::string& text) {
    const std::vector<Diagnosis> ds = diagnose_log(text, described);
    if (ds.empty()) return false;
    for (const Finding& f : ds.front().findings) {
      for (const std::string& e : f.evidence) {
        if (e.find("without training") != std::string::npos) return true;
      }
    }
    return false;
  };
  // 训练 ChatGLM-6B 的时候报内存溢出，显卡是 RTX 3090，batch size 设为 8。
  EXPECT_FALSE(kv_evidence("\xe8\xae\xad\xe7\xbb\x83 ChatGLM-6B \xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xe6\x8a\xa5\xe5\x86\x85"
                           "\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\xef\xbc\x8c\xe6\x98\xbe\xe5\x8d\xa1\xe6\x98\xaf RTX 3090\xef"
                           "\xbc\x8c" "batch size 8\n"));
  // 加载预训练模型 ChatGLM-6B 推理时报内存溢出 (loading the pre-trained model for inference)
  EXPECT_TRUE(kv_evidence("\xe5\x8a\xa0\xe8\xbd\xbd\xe9\xa2\x84\xe8\xae\xad\xe7\xbb\x83\xe6\xa8\xa1\xe5\x9e\x8b ChatGLM-6B "
                          "\xe6\x8e\xa8\xe7\x90\x86\xe6\x97\xb6\xe6\x8a\xa5\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\n"));
  // 配置：CPU i9-13900K，显卡 RTX 4090 24GB。微调 Qwen-7B 时报内存溢出。
  const std::vector<Diagnosis> spec = diagnose_log(
      "\xe9\x85\x8d\xe7\xbd\xae\xef\xbc\x9a" "CPU i9-13900K\xef\xbc\x8c\xe6\x98\xbe\xe5\x8d\xa1 RTX 4090 24GB\xe3\x80\x82"
      "\xe5\xbe\xae\xe8\xb0\x83 Qwen-7B \xe6\x97\xb6\xe6\x8a\xa5\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\xe3\x80\x82\n",
      described);
  ASSERT_FALSE(spec.empty());
  EXPECT_NE(spec.front().oom->device, "cpu");
  const std::vector<Diagnosis> cpu_run = diagnose_log("Got CPU OOM while running inference on my laptop.\n", described);
  ASSERT_FALSE(cpu_run.empty());
  EXPECT_EQ(cpu_run.front().oom->device, "cpu");
}

// After held30's one score (in-sample for held30): kinds its misses showed.
// A count or setting the user raised is no memory growth; a leak told as the cause of a host OOM
// kill leads (below a verdict: a sentence); growth told in Chinese with 随着 (as ... goes on) is
// growth, and a Chinese denial (没 ...) is no host-RAM account.
TEST(DiagnoseKinds23, GrowthObjectsLeakToldAndChineseGrowth) {
  const std::string kill =
      "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=5.0. Some of your processes may have been killed by "
      "the cgroup out-of-memory handler.\n";
  EXPECT_FALSE(evidence_holds("An earlier PR addressed this by increasing the number of nodes for all jobs, even though "
                              "that isn't needed for most of them. Let's reduce the memory used instead.\n" + kill,
                              "memory grows step after step"));
  EXPECT_TRUE(evidence_holds("GPU memory keeps increasing every epoch until it crashes.\n" + kill,
                             "memory grows step after step"));
  const Diagnosis told = first(diagnose_log(
      "While deploying we saw the pods getting oomkilled on stream retries.\n"
      "The OOM was happening due to goroutine leak in the upstream client.\n" + kill,
      rules_alone()));
  EXPECT_EQ(told.findings.at(0).category, OomCause::kLeakAcrossSteps);
  EXPECT_TRUE(told.ambiguous());  // told, not measured
  // 随着迭代次数的增加内存的使用量也在增加，最后崩溃。(memory use rises as the iterations do, then it crashes)
  const std::string zh =
      "\xe9\x9a\x8f\xe7\x9d\x80\xe8\xbf\xad\xe4\xbb\xa3\xe6\xac\xa1\xe6\x95\xb0\xe7\x9a\x84\xe5\xa2\x9e\xe5\x8a\xa0\xe5\x86\x85"
      "\xe5\xad\x98\xe7\x9a\x84\xe4\xbd\xbf\xe7\x94\xa8\xe9\x87\x8f\xe4\xb9\x9f\xe5\x9c\xa8\xe5\xa2\x9e\xe5\x8a\xa0\xef\xbc\x8c"
      "\xe6\x9c\x80\xe5\x90\x8e\xe5\xb4\xa9\xe6\xba\x83\xe3\x80\x82\n";
  EXPECT_TRUE(evidence_holds(zh + kill, "memory grows step after step", OomCause::kLeakAcrossSteps));
  // 目前没发生过因为内存泄露而导致的程序崩溃现象。(no crash from a memory leak so far)
  EXPECT_FALSE(evidence_holds("\xe7\x9b\xae\xe5\x89\x8d\xe6\xb2\xa1\xe5\x8f\x91\xe7\x94\x9f\xe8\xbf\x87\xe5\x9b\xa0\xe4\xb8\xba"
                              "\xe5\x86\x85\xe5\xad\x98\xe6\xb3\x84\xe9\x9c\xb2\xe8\x80\x8c\xe5\xaf\xbc\xe8\x87\xb4\xe7\x9a\x84"
                              "\xe7\xa8\x8b\xe5\xba\x8f\xe5\xb4\xa9\xe6\xba\x83\xe7\x8e\xb0\xe8\xb1\xa1\xe3\x80\x82\n" + kill,
                              "host RAM runs out, in the user's words"));
}

// A platform's cap on one allocation (IPEX on Arc: 4 GiB) and a device request of 16 TiB or more
// (over 50 times any accelerator) are `other`: no free or cached memory would serve them.
TEST(DiagnoseKinds23, SingleAllocationCapAndSizesBeyondAnyDevice) {
  const Diagnosis arc = first(diagnose_log(
      "RuntimeError: Current platform can NOT allocate memory block with size larger than 4GB! Tried to allocate 7.03 GiB "
      "(GPU 0; 15.91 GiB total capacity; 2.29 GiB already allocated; 2.50 GiB reserved in total by PyTorch)\n",
      rules_alone()));
  EXPECT_EQ(arc.oom->max_allocation_bytes.value_or(0), int64_t{4} << 30);
  EXPECT_EQ(arc.findings.at(0).category, OomCause::kOther);
  const Diagnosis huge = first(diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 1048475.67 GiB (GPU 0; 23.69 GiB total capacity; 3.12 GiB "
      "already allocated; 19.55 GiB free; 3.27 GiB reserved in total by PyTorch)\n",
      rules_alone()));
  EXPECT_EQ(huge.findings.at(0).category, OomCause::kOther);
  const Diagnosis large = first(diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 TiB (GPU 0; 79.15 GiB total capacity; 3.12 GiB "
      "already allocated; 70.55 GiB free; 3.27 GiB reserved in total by PyTorch)\n",
      rules_alone()));
  EXPECT_NE(large.findings.at(0).category, OomCause::kOther);  // 2 TiB: a real (if huge) tensor as often
}

// Causes told in words held30's misses showed: fragmentation told as the root cause (above a
// resume's circumstances), a device placement told as the cause (multi-GPU), the input's
// resolution told as what decides the fit (not an option not taken).
TEST(DiagnoseKinds23, RootCausePlacementAndResolutionTold) {
  DiagnoseOptions described = rules_alone();
  described.described = true;
  auto top = [&](const std::string& text) {
    const std::vector<Diagnosis> ds = diagnose_log(text, described);
    return ds.empty() || ds.front().findings.empty() ? OomCause::kOther : ds.front().findings.front().category;
  };
  EXPECT_EQ(top("Resuming a large FSDP run from a mid-run checkpoint OOMs with a large contiguous-allocation failure. "
                "The root cause is heap fragmentation seeded by the checkpoint load, not a real memory shortage.\n"),
            OomCause::kFragmentation);
  EXPECT_EQ(top("Fix OOM when splitting model across multiple GPUs\nIt runs out of memory with model-parallelism set up. "
                "This happens due to inadequate default device placement of gradient ops.\n"),
            OomCause::kMultiGpuImbalance);
  EXPECT_EQ(top("CUDA out of memory on 8 V100 32G GPUs. It seems we need to use the r101 resolution, instead of the r50 "
                "one, to fit into 32G of V100.\n"),
            OomCause::kActivationsSeqlen);
  EXPECT_FALSE(evidence_holds("Can't go lower unless I reduce resolution below 512, so it runs out of memory.\n" + kPytorch2Oom,
                              "resolution told as what decides the fit"));
}

// TensorFlow Lite Micro's tensor arena (a size the program fixed at build time) is `other`, its
// request read; dlib's "Error while calling cudaMalloc ... out of memory" is a CUDA runtime report.
TEST(DiagnoseKinds23, TfliteMicroArenaAndDlibCudaMalloc) {
  const auto arena = parse_oom_log(
      "Failed to allocate tail memory. Requested: 40, available 0, missing: 40 Failed to allocate tail memory. Requested: "
      "12, available 0, missing: 12 Unable to allocate TfLiteAffineQuantization.\n");
  ASSERT_FALSE(arena.empty());
  EXPECT_EQ(arena[0].subsystem, "tflm_arena");
  EXPECT_EQ(arena[0].requested_bytes.value_or(0), 40);
  const Diagnosis needed = first(diagnose_log(
      "Arena size is too small for all buffers. Needed 412336 but only 307200 was available.\n", rules_alone()));
  EXPECT_EQ(needed.oom->requested_bytes.value_or(0), 412336);
  EXPECT_EQ(needed.findings.at(0).category, OomCause::kOther);
  const auto dlib = parse_oom_log(
      "Error while calling cudaMalloc(&data, new_size*sizeof(float)) in file /home/user/dlib/dlib/dnn/gpu_data.cpp:191. "
      "code: 2, reason: out of memory\n");
  ASSERT_EQ(dlib.size(), 1u);
  EXPECT_EQ(dlib[0].family, "cuda_error_oom");
  EXPECT_EQ(dlib[0].device, "cuda");
  EXPECT_TRUE(parse_oom_log("Error while calling cudaMalloc(&data, n) in file x.cpp:28. code: 700, reason: an illegal "
                            "memory access was encountered\n").empty());
}

// review31's mends: the model moved with any device argument (args.device, rank, f"cuda:{rank}",
// accelerator.device) is the load, a module whose name holds a data word too; a tokenizer's output
// is a batch; Keras' model.fit(..., validation_data=...) trains; growth denied ("does not keep
// increasing") and Chinese memory told stable are no growth; 训练集 (the training set) and 没有训练
// (no training) are no training; the TF hint wrapped onto a second line is TensorFlow's.
TEST(DiagnoseKinds23, Review31Mends) {
  for (const char* load : {"model = model.to(args.device)", "model.to(rank)", "model = DDP(model.to(rank), device_ids=[rank])",
                           "model.to(f\"cuda:{local_rank}\")", "text_encoder.to(accelerator.device, dtype=weight_dtype)",
                           "self.model = self.model.to(self.device)", "data_model = DataModel(cfg).cuda()",
                           "model = nn.DataParallel(model).cuda()", "inputs_encoder = InputsEncoder(vocab).cuda()"}) {
    EXPECT_EQ(phase_under(load), "model_load") << load;
  }
  EXPECT_NE(phase_under("enc = tokenizer(texts, return_tensors=\"pt\", padding=True).to(device)"), "model_load");
  EXPECT_NE(phase_under("x = x.to(torch.float16)"), "model_load");
  EXPECT_NE(phase_under("history = model.fit(train_ds, epochs=20, validation_data=val_ds)"), "eval");
  EXPECT_FALSE(evidence_holds("Memory does not keep increasing between steps; it OOMs at the first step.\n" + kPytorch2Oom,
                              "memory grows step after step"));
  const std::string kill = "Killed\n";
  // 内存没有泄漏，随着 epoch 增加内存也稳定 (no leak; as the epochs go by memory stays stable)
  EXPECT_FALSE(evidence_holds("\xe5\x86\x85\xe5\xad\x98\xe6\xb2\xa1\xe6\x9c\x89\xe6\xb3\x84\xe6\xbc\x8f\xef\xbc\x8c\xe9\x9a\x8f"
                              "\xe7\x9d\x80 epoch \xe5\xa2\x9e\xe5\x8a\xa0\xe5\x86\x85\xe5\xad\x98\xe4\xb9\x9f\xe7\xa8\xb3\xe5\xae\x9a\n" + kill,
                              "memory grows step after step"));
  // 显存稳定在6G。内存不断在增加，最后程序挂掉。(GPU memory stable; host memory keeps increasing)
  EXPECT_TRUE(evidence_holds("\xe6\x98\xbe\xe5\xad\x98\xe7\xa8\xb3\xe5\xae\x9a\xe5\x9c\xa8" "6G\xe3\x80\x82\xe5\x86\x85\xe5\xad\x98"
                             "\xe4\xb8\x8d\xe6\x96\xad\xe5\x9c\xa8\xe5\xa2\x9e\xe5\x8a\xa0\xef\xbc\x8c\xe6\x9c\x80\xe5\x90\x8e"
                             "\xe7\xa8\x8b\xe5\xba\x8f\xe6\x8c\x82\xe6\x8e\x89\xe3\x80\x82\n" + kill,
                             "memory grows step after step"));
  DiagnoseOptions described = rules_alone();
  described.described = true;
  auto kv = [&](const std::string& text) {
    const std::vector<Diagnosis> ds = diagnose_log(text, described);
    for (const Finding& f : first(ds).findings) {
      for (const std::string& e : f.evidence) {
        if (e.find("without training") != std::string::npos) return true;
      }
    }
    return false;
  };
  // Qwen-7B 推理时显存溢出，我用的是训练集里的样本做测试。(inference; samples from the training set)
  EXPECT_TRUE(kv("Qwen-7B \xe6\x8e\xa8\xe7\x90\x86\xe6\x97\xb6\xe6\x98\xbe\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\xef\xbc\x8c\xe6\x88\x91"
                 "\xe7\x94\xa8\xe7\x9a\x84\xe6\x98\xaf\xe8\xae\xad\xe7\xbb\x83\xe9\x9b\x86\xe9\x87\x8c\xe7\x9a\x84\xe6\xa0\xb7"
                 "\xe6\x9c\xac\xe5\x81\x9a\xe6\xb5\x8b\xe8\xaf\x95\xe3\x80\x82\n"));
  // 模型没有训练过程，纯推理：Qwen-14B 显存不足。(no training, pure inference)
  EXPECT_TRUE(kv("\xe6\xa8\xa1\xe5\x9e\x8b\xe6\xb2\xa1\xe6\x9c\x89\xe8\xae\xad\xe7\xbb\x83\xe8\xbf\x87\xe7\xa8\x8b\xef\xbc\x8c\xe7\xba"
                 "\xaf\xe6\x8e\xa8\xe7\x90\x86\xef\xbc\x9a" "Qwen-14B \xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3\xe3\x80\x82\n"));
  const std::string tf_wrapped =
      "2026-01-12 11:02:11.000 W tensorflow/core/common_runtime/bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran out of "
      "memory trying to allocate 4.00GiB (rounded to 4294967296)requested by op Conv2D\n"
      "If the cause is memory fragmentation maybe the environment variable\n"
      "'TF_GPU_ALLOCATOR=cuda_malloc_async' will improve the situation.\n";
  EXPECT_FALSE(evidence_holds(tf_wrapped, "", OomCause::kFragmentation));
}

// A checkpoint read into host RAM gets the load fix in HF's and vLLM's words too (no DataLoader
// advice before a DataLoader exists); a folder of the user's that holds the script and is named
// after a framework ("/home/u/tensorflow/train.py") does not set the framework.
TEST(DiagnoseKinds23, LoadFixesAndScriptFolders) {
  const Diagnosis hf = first(diagnose_log(
      "from transformers import AutoModelForCausalLM\n"
      "Traceback (most recent call last):\n  File \"load.py\", line 3, in <module>\n"
      "    model = AutoModelForCausalLM.from_pretrained(\"meta-llama/Llama-2-70b-hf\")\n"
      "RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to "
      "allocate 65536000000 bytes.\n",
      rules_alone()));
  EXPECT_EQ(hf.findings.at(0).category, OomCause::kCpuRam);
  EXPECT_EQ(hf.findings.at(0).fix.find("DataLoader"), std::string::npos);
  EXPECT_NE(hf.findings.at(0).fix.find("low_cpu_mem_usage"), std::string::npos);
  const std::string torch_oom =
      "Traceback (most recent call last):\n  File \"/home/u/tensorflow/train.py\", line 40, in <module>\n"
      "    out = net(x)\n" + kPytorch2Oom;
  EXPECT_EQ(first(diagnose_log(torch_oom, rules_alone())).framework, "pytorch");
  const std::string installed =
      "Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n    model.fit(x, y)\n"
      "  File \"/usr/lib/python3/dist-packages/keras/engine/training.py\", line 1184, in fit\n"
      "    tmp_logs = self.train_function(iterator)\n"
      "ResourceExhaustedError: OOM when allocating tensor with shape[128,1,596,256] and type float\n";
  EXPECT_EQ(first(diagnose_log(installed, rules_alone())).framework, "tensorflow");
}

// Node's better-sqlite3 ("SqliteError: out of memory", code 'SQLITE_NOMEM') is SQLite's report, its
// fix in that binding's words; a launch told as one process (nproc_per_node=1, world_size=1) is no
// multi-GPU evidence.
TEST(DiagnoseKinds23, NodeSqliteAndOneProcessLaunch) {
  const Diagnosis node = first(diagnose_log(
      "SqliteError: out of memory\n"
      "    at Database.prepare (/home/u/app/node_modules/better-sqlite3/lib/methods/wrappers.js:5:21) {\n"
      "  code: 'SQLITE_NOMEM'\n}\n",
      rules_alone()));
  EXPECT_EQ(node.oom->subsystem, "sqlite");
  EXPECT_EQ(node.findings.at(0).category, OomCause::kCpuRam);
  EXPECT_NE(node.findings.at(0).fix.find("stmt.iterate()"), std::string::npos);
  EXPECT_FALSE(evidence_holds("torchrun --nproc_per_node=1 train.py\n" + kPytorch2Oom, "several ranks / GPUs"));
  EXPECT_TRUE(evidence_holds("torchrun --nproc_per_node=16 train.py\n" + kPytorch2Oom, "several ranks / GPUs"));
}

// A setting told raised before the failure is evidence for that setting's cause: the rise in words
// ("increased", "bumped", "a larger batch size") or in numbers ("changed --max-length to 4096 (was
// 1024)"), with a failure in its clause or the next; not advice, a question, what a fix allows, a
// fall in numbers, or a rise told of runs that finished.
TEST(DiagnoseKinds24, SettingRaisedBeforeTheFailure) {
  const std::string raised = "a setting raised before the failure";
  EXPECT_TRUE(evidence_holds("I increased max_seq_len from 512 to 2048 and now training OOMs.\n" + kPytorch2Oom, raised,
                             OomCause::kActivationsSeqlen));
  EXPECT_TRUE(evidence_holds("Since I changed --max-length to 4096 (was 1024), it OOMs in the first step.\n" + kPytorch2Oom,
                             raised, OomCause::kActivationsSeqlen));
  EXPECT_TRUE(evidence_holds("After bumping the batch size to 64 the run crashes.\n" + kPytorch2Oom, raised,
                             OomCause::kActivationsBatch));
  EXPECT_TRUE(evidence_holds("With a larger batch size it runs out of memory at once.\n" + kPytorch2Oom, raised,
                             OomCause::kActivationsBatch));
  EXPECT_TRUE(evidence_holds("I raised num_ctx from 8192 to 32k and ollama now fails with out of memory.\n" + kPytorch2Oom,
                             raised, OomCause::kGenerationKvCache));
  // Not told as happened, or not a rise, or the failure is not the rise's.
  for (const char* line : {"Try increasing max_seq_len if it OOMs.", "Should I increase the batch size? It OOMs now?",
                           "no_grad around the forward is required to allow larger batch sizes not to OOM.",
                           "I changed the batch size from 64 to 16 and it still OOMs.",
                           "Other runs finished fine with higher batch sizes up to 320. This one crashed.",
                           "I didn't increase the batch size, yet it OOMs."}) {
    EXPECT_FALSE(evidence_holds(std::string(line) + "\n" + kPytorch2Oom, raised)) << line;
  }
}

// The machine told to have no GPU ("GPU: none", collect_env's "Is CUDA available: False", "CPU
// only") beside a message that names no device: host RAM. Not the GPU's memory told ("no GPU
// memory left"), advice ("try CPU only") or a message naming CUDA.
TEST(DiagnoseKinds24, NoGpuToldIsHostRam) {
  const std::string host = "the log tells the machine has no GPU";
  for (const char* env : {"OS: Ubuntu 22.04, torch 2.1, GPU: none", "Is CUDA available: False",
                          "I do not have a GPU at all.", "Installed with conda install pytorch cpuonly -c pytorch"}) {
    const Diagnosis d = first(diagnose_log(std::string(env) + "\nRuntimeError: out of memory\n", rules_alone()));
    ASSERT_FALSE(d.findings.empty()) << env;
    EXPECT_EQ(d.findings.front().category, OomCause::kCpuRam) << env;
  }
  EXPECT_FALSE(evidence_holds("There is no GPU memory left after loading.\nRuntimeError: out of memory\n", host));
  EXPECT_FALSE(evidence_holds("Should I try CPU only?\nRuntimeError: out of memory\n", host));
  EXPECT_FALSE(evidence_holds("Is CUDA available: False\nRuntimeError: CUDA error: out of memory\n", host));
}

// Reports of families outside PyTorch's allocator that were read as none: Dask's nanny restarting a
// worker above its memory budget (host RAM, in Dask's knobs), Emscripten's heap cap (a link-time cap,
// both wordings, with the sizes), TensorFlow Lite Micro's arena told without its numbers, cuBLAS's
// handle not created (under TensorFlow's / XLA's stream executor: other processes first) and the
// GPU's memory told used up in Chinese (耗完 / 用完).
TEST(DiagnoseKinds24, DaskWasmTflmCublasHandleAndUsedUp) {
  const Diagnosis dask = first(diagnose_log(
      "distributed.nanny - WARNING - Worker exceeded 95% memory budget. Restarting\n", rules_alone()));
  ASSERT_TRUE(dask.oom);
  EXPECT_EQ(dask.oom->subsystem, "dask_nanny");
  EXPECT_EQ(dask.findings.at(0).category, OomCause::kCpuRam);
  EXPECT_NE(dask.findings.at(0).fix.find("memory_limit"), std::string::npos);
  EXPECT_EQ(dask.findings.at(0).fix.find("DataLoader"), std::string::npos);

  const Diagnosis wasm = first(diagnose_log(
      "Cannot enlarge memory, requested 2148487168 bytes, but the limit is 2147483648 bytes!\n", rules_alone()));
  ASSERT_TRUE(wasm.oom);
  EXPECT_EQ(wasm.oom->requested_bytes, int64_t{2148487168});
  EXPECT_EQ(wasm.oom->allowed_bytes, int64_t{2147483648});
  EXPECT_EQ(wasm.findings.at(0).category, OomCause::kOther);
  EXPECT_NE(wasm.findings.at(0).fix.find("MAXIMUM_MEMORY"), std::string::npos);
  const Diagnosis wasm_old = first(diagnose_log(
      "Cannot enlarge memory arrays to size 17014784 bytes (OOM). Either (1) compile with -s INITIAL_MEMORY=X with X "
      "higher than the current value 16777216, (2) compile with -s ALLOW_MEMORY_GROWTH=1\n",
      rules_alone()));
  ASSERT_TRUE(wasm_old.oom);
  EXPECT_EQ(wasm_old.oom->requested_bytes, int64_t{17014784});
  EXPECT_EQ(wasm_old.findings.at(0).category, OomCause::kOther);

  const Diagnosis tflm = first(diagnose_log(
      "V2 wake word models fail at runtime with:\n  Failed to resize buffer...\n  Failed to allocate tensors for the "
      "streaming model\n",
      rules_alone()));
  ASSERT_TRUE(tflm.oom);
  EXPECT_EQ(tflm.oom->subsystem, "tflm_arena");
  EXPECT_EQ(tflm.findings.at(0).category, OomCause::kOther);
  EXPECT_NE(oom_report_text(tflm).find("] other: The tensor arena"), std::string::npos) << oom_report_text(tflm);

  const Diagnosis xla = first(diagnose_log(
      "2021-05-16 03:52:49.141806: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_blas.cc:226] failed to "
      "create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED\n",
      rules_alone()));
  ASSERT_TRUE(xla.oom);
  EXPECT_EQ(xla.findings.at(0).category, OomCause::kOtherProcess);
  EXPECT_NE(xla.findings.at(0).fix.find("XLA_PYTHON_CLIENT_PREALLOCATE"), std::string::npos);
  const Diagnosis torch_handle = first(diagnose_log(
      "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n", rules_alone()));
  ASSERT_TRUE(torch_handle.oom);
  EXPECT_EQ(torch_handle.findings.at(0).category, OomCause::kOther);

  // 用独立进程做推理会把显存都耗完 (inference in its own process uses up all the GPU memory)
  const Diagnosis zh = first(diagnose_log(
      "\xe7\x94\xa8\xe7\x8b\xac\xe7\xab\x8b\xe8\xbf\x9b\xe7\xa8\x8b\xe5\x81\x9a\xe6\x8e\xa8\xe7\x90\x86\xe4\xbc\x9a\xe6\x8a"
      "\x8a\xe6\x98\xbe\xe5\xad\x98\xe9\x83\xbd\xe8\x80\x97\xe5\xae\x8c\n",
      rules_alone()));
  EXPECT_TRUE(zh.oom);
}

// Prose read by kind: growth told with the count of repeats ("as the number of inferences
// increases, the allocated memory also increases"), a constant increment, "leakage"; a leak only
// asked about is no leak told; memory told never freed during the run; training denied while the
// memory is held (inference keeping its graph); the other GPUs told free while one fills; a load
// asked about ("... when loading the model ?") is not where it failed.
TEST(DiagnoseKinds24, GrowthFreedTrainingDeniedOtherGpusFree) {
  const std::string grows = "memory grows step after step";
  EXPECT_TRUE(evidence_holds("As the number of inference increases, the amount of allocated memory also increase.\n" +
                                 kPytorch2Oom,
                             grows, OomCause::kLeakAcrossSteps));
  EXPECT_TRUE(evidence_holds("Monitoring the GPU memory I saw a constant incremental of the use of its memory.\n" +
                                 kPytorch2Oom,
                             grows, OomCause::kLeakAcrossSteps));
  EXPECT_TRUE(evidence_holds("I found memory leakage (not GPU memory, but RAM) when inference.\n" + kPytorch2Oom, grows,
                             OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("Does your demo.py have a memory leak? It fails on the second image.\n" + kPytorch2Oom,
                              grows));
  EXPECT_TRUE(evidence_holds("I don't think anything is freed ever.\n" + kPytorch2Oom, "never to be freed",
                             OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("The memory is never freed after the process is killed.\n" + kPytorch2Oom,
                              "never to be freed"));
  EXPECT_TRUE(evidence_holds("I don't know why it shows 14.37 GiB allocated when not even training.\n" + kPytorch2Oom,
                             "no training told", OomCause::kEvalWithoutNoGrad));
  EXPECT_TRUE(evidence_holds("This throws a CUDA OOM error even if the other GPUs are free.\n" + kPytorch2Oom,
                             "the other GPUs told free", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds("Are the other GPUs free?\n" + kPytorch2Oom, "the other GPUs told free"));
  EXPECT_FALSE(evidence_holds("The other GPUs are not free either.\n" + kPytorch2Oom, "the other GPUs told free"));
  EXPECT_FALSE(evidence_holds("Or is there a way to give a value for max_memory when loading the model ?\n" + kPytorch2Oom,
                              "fails while loading"));
  EXPECT_TRUE(evidence_holds("It fails while loading the model onto the GPU.\n" + kPytorch2Oom, "fails while loading"));
}

// A lowered length that did not help weighs against the sequence length, not the batch; and the
// evaluation finding's title in a framework whose loop evaluates without a graph (HF Trainer) names
// the outputs kept, not a missing no_grad.
TEST(DiagnoseKinds24, ShorterInputDidNotHelpAndEvalTitle) {
  EXPECT_TRUE(evidence_holds("I reduced max_seq_len from 2048 to 512 and it still OOMs.\n" + kPytorch2Oom,
                             "a shorter input did not help"));
  EXPECT_FALSE(evidence_holds("I reduced max_seq_len from 2048 to 512 and it still OOMs.\n" + kPytorch2Oom,
                              "a smaller batch did not help"));
  EXPECT_TRUE(evidence_holds("I reduced the batch size from 32 to 8 and it still OOMs.\n" + kPytorch2Oom,
                             "a smaller batch did not help"));
  const Diagnosis hf = first(diagnose_log(
      "  File \"/usr/lib/python3/site-packages/transformers/trainer.py\", line 2900, in evaluate\n"
      "    output = eval_loop(\n"
      "  File \"/usr/lib/python3/site-packages/transformers/trainer.py\", line 3100, in evaluation_loop\n"
      "    preds_host = logits if preds_host is None else nested_concat(preds_host, logits, padding_index=-100)\n" +
          kPytorch2Oom,
      rules_alone()));
  bool seen = false;
  for (const Finding& f : hf.findings) {
    if (f.category != OomCause::kEvalWithoutNoGrad) continue;
    seen = true;
    EXPECT_NE(f.title.find("the Trainer evaluates under no_grad"), std::string::npos) << f.title;
  }
  EXPECT_TRUE(seen);
}

// review32's findings, mended by kind: a rise undone or only supposed is no rise told; the rise in
// numbers with an arrow or "(previously M)"; growth counted against layers / GPUs / tokens is no
// repeat; a leak denied and memory told shrinking are no growth; "never freed?" asked; training
// denied of an idle notebook or a load; other GPUs free because unused, or the job moved there; the
// user ruling other processes out; "Failed to resize buffer" of another buffer; Chinese "not used
// up" and 显卡内存 (the graphics card's memory); Emscripten's cap at wasm32's ceiling; Dask's worker
// warning with its sizes.
TEST(DiagnoseKinds24, Review32Mends) {
  const std::string raised = "a setting raised before the failure";
  EXPECT_FALSE(evidence_holds("Before the failure I had increased the batch size to 32, but I reverted it to 8 and it still "
                              "OOMs.\n" + kPytorch2Oom, raised));
  EXPECT_FALSE(evidence_holds("If I increase the batch size to 64 it will crash, so I keep it at 8.\n" + kPytorch2Oom, raised));
  EXPECT_TRUE(evidence_holds("batch_size: 16 -> 32 and now it OOMs.\n" + kPytorch2Oom, raised, OomCause::kActivationsBatch));
  EXPECT_TRUE(evidence_holds("I changed batch_size to 32 (previously 8) and now it crashes.\n" + kPytorch2Oom, raised,
                             OomCause::kActivationsBatch));
  const std::string grows = "memory grows step after step";
  for (const char* line : {"As the number of layers increases, memory increases.",
                           "As the number of GPUs increases, memory per GPU decreases, but it still fails.",
                           "There is no memory leakage; memory is flat at 20 GB each step.",
                           "I checked and I do not think it is a memory leak."}) {
    EXPECT_FALSE(evidence_holds(std::string(line) + "\n" + kPytorch2Oom, grows)) << line;
  }
  EXPECT_FALSE(evidence_holds("The memory in the test set is never freed? I saw it in a blog.\n" + kPytorch2Oom,
                              "never to be freed"));
  EXPECT_FALSE(evidence_holds("I am not even training, the notebook is idle, but 20 GB stays allocated from an earlier cell.\n" +
                                  kPytorch2Oom,
                              "no training told"));
  EXPECT_FALSE(evidence_holds("The model is not even training yet; it fails at model.to('cuda') with 20 GB.\n" + kPytorch2Oom,
                              "no training told"));
  EXPECT_FALSE(evidence_holds("The other GPUs are free because I only set CUDA_VISIBLE_DEVICES=0.\n" + kPytorch2Oom,
                              "the other GPUs told free"));
  EXPECT_FALSE(evidence_holds("The other GPUs are free, so I moved the job to GPU 3 and it still fails there.\n" + kPytorch2Oom,
                              "the other GPUs told free"));
  EXPECT_FALSE(evidence_holds("Is another process on it? No, only this one; nvidia-smi shows no other process.\n" + kPytorch2Oom,
                              "other jobs on the GPU"));
  EXPECT_TRUE(diagnose_log("ValueError: Failed to resize buffer for image: cannot resize 4096x4096 PIL image\n",
                           rules_alone())
                  .empty());
  // 显存没有用完，但是还是报错 (the GPU's memory was not used up, yet it errors)
  EXPECT_TRUE(diagnose_log("\xe6\x98\xbe\xe5\xad\x98\xe6\xb2\xa1\xe6\x9c\x89\xe7\x94\xa8\xe5\xae\x8c\xef\xbc\x8c\xe4\xbd\x86"
                           "\xe6\x98\xaf\xe8\xbf\x98\xe6\x98\xaf\xe6\x8a\xa5\xe9\x94\x99\n",
                           rules_alone())
                  .empty());
  // 显卡内存被吃光了 (the graphics card's memory was eaten up): not host RAM
  const Diagnosis card = first(diagnose_log(
      "\xe6\x98\xbe\xe5\x8d\xa1\xe5\x86\x85\xe5\xad\x98\xe8\xa2\xab\xe5\x90\x83\xe5\x85\x89\xe4\xba\x86\n", rules_alone()));
  ASSERT_FALSE(card.findings.empty());
  EXPECT_NE(card.findings.front().category, OomCause::kCpuRam);
  const Diagnosis wasm64 = first(diagnose_log(
      "Cannot enlarge memory, requested 4294967296 bytes, but the limit is 4294967296 bytes!\n", rules_alone()));
  EXPECT_NE(wasm64.findings.at(0).fix.find("MEMORY64"), std::string::npos);
  EXPECT_EQ(wasm64.findings.at(0).fix.find("MAXIMUM_MEMORY=4GB"), std::string::npos);
  const Diagnosis dask = first(diagnose_log(
      "distributed.worker - WARNING - Memory use is high but worker has no data to store to disk. Perhaps some other process "
      "is leaking memory?  Process memory: 3.91 GiB -- Worker memory limit: 4.00 GiB\n",
      rules_alone()));
  ASSERT_TRUE(dask.oom);
  EXPECT_EQ(dask.findings.at(0).category, OomCause::kCpuRam);
  EXPECT_EQ(dask.oom->allowed_bytes, int64_t{4} << 30);
  EXPECT_EQ(dask.framework, "dask");
}

// The no-GPU machine told of another run or machine (review32): not host RAM.
TEST(DiagnoseKinds24, NoGpuOfAnotherRunOrMachine) {
  const std::string host = "the log tells the machine has no GPU";
  EXPECT_FALSE(evidence_holds("Training works without a GPU, but on the GPU it fails:\nRuntimeError: out of memory\n", host));
  EXPECT_FALSE(evidence_holds("My laptop has no GPU, so I moved to the server with an A100 80GB. There:\n"
                              "RuntimeError: out of memory\n",
                              host));
}

// Sizes at int64's edge (review32): 2^63 - 1 bytes and 2^63 - 2^40 bytes fit (not flagged), 2^63
// does not; leading zeros carry no size; a count with thousands separators is read whole.
TEST(DiagnoseKinds24, SizesAtInt64sEdge) {
  auto requested = [](const std::string& message) {
    const std::vector<OomRecord> r = parse_oom_log(message);
    EXPECT_EQ(r.size(), 1u) << message;
    return r.empty() ? OomRecord{} : r.front();
  };
  const std::string cpu = "RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: "
                          "you tried to allocate ";
  const OomRecord max = requested(cpu + "9223372036854775807 bytes.");
  EXPECT_EQ(max.requested_bytes, std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(max.size_overflow);
  const OomRecord beyond = requested(cpu + "9223372036854775808 bytes.");
  EXPECT_TRUE(beyond.size_overflow);
  const OomRecord grouped = requested(cpu + "1,073,741,824 bytes.");
  EXPECT_EQ(grouped.requested_bytes, int64_t{1} << 30);
  const OomRecord zeros = requested(cpu + "000000000000000000000001073741824 bytes.");
  EXPECT_EQ(zeros.requested_bytes, int64_t{1} << 30);
  EXPECT_FALSE(zeros.size_overflow);
  const OomRecord tib = requested("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8388607.00 TiB. GPU 0 has a "
                                  "total capacity of 79.15 GiB of which 1.20 GiB is free.");
  EXPECT_EQ(tib.requested_bytes, (int64_t{8388607}) << 40);
  EXPECT_FALSE(tib.size_overflow);
}

// The message as shown (review32): TensorFlow's / XLA's log prefix after the timestamp (": E
// file.cc:226] ") is not part of it; the user's sentence above a one-line message is not glued to it
// (only a line holding the report's size is); a CUDA runtime error and cuBLAS's are on the GPU (HIP's
// on a ROCm GPU), cuBLAS under TF's / XLA's stream executor on their "gpu" device.
TEST(DiagnoseKinds24, MessageShownAndDeviceNamed) {
  const std::vector<OomRecord> tf = parse_oom_log(
      "2021-05-16 03:52:49.141806: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_blas.cc:226] failed to "
      "create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED\n");
  ASSERT_EQ(tf.size(), 1u);
  EXPECT_EQ(tf[0].message, "failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED");
  EXPECT_EQ(tf[0].device, "gpu");
  const std::vector<OomRecord> glued = parse_oom_log(
      "GPU: none detected by nvidia-smi after driver update, but torch sees GPU 0\nRuntimeError: CUDA error: out of memory\n");
  ASSERT_EQ(glued.size(), 1u);
  EXPECT_EQ(glued[0].message, "RuntimeError: CUDA error: out of memory");
  EXPECT_EQ(glued[0].device, "cuda");
  const std::vector<OomRecord> hip = parse_oom_log("RuntimeError: HIP error: hipErrorOutOfMemory\n");
  ASSERT_EQ(hip.size(), 1u);
  EXPECT_EQ(hip[0].device, "hip");
  const std::vector<OomRecord> torch_cublas =
      parse_oom_log("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n");
  ASSERT_EQ(torch_cublas.size(), 1u);
  EXPECT_EQ(torch_cublas[0].device, "cuda");
}

// Memory told to grow with the tokens or requests held is the KV cache (not a leak); the GPU's memory
// in traditional script (顯存) is read as the simplified (显存); TFLM's fix names how much is missing.
TEST(DiagnoseKinds24, KvGrowthTraditionalScriptTflmMissing) {
  EXPECT_TRUE(evidence_holds("As the number of tokens generated increases, memory increases.\n" + kPytorch2Oom,
                             "grow with the tokens / sequences held", OomCause::kGenerationKvCache));
  EXPECT_FALSE(evidence_holds("As the number of tokens generated increases, memory increases.\n" + kPytorch2Oom,
                              "memory grows step after step"));
  // 顯存用完了，訓練中斷。 (the GPU's memory was used up, training stopped)
  const Diagnosis zh = first(diagnose_log(
      "\xe9\xa1\xaf\xe5\xad\x98\xe7\x94\xa8\xe5\xae\x8c\xe4\xba\x86\xef\xbc\x8c\xe8\xa8\x93\xe7\xb7\xb4\xe4\xb8\xad\xe6\x96\xb7"
      "\xe3\x80\x82\n",
      rules_alone()));
  ASSERT_TRUE(zh.oom);
  EXPECT_EQ(zh.oom->device, "cuda");
  const Diagnosis tflm = first(diagnose_log(
      "Failed to allocate tail memory. Requested: 80000, available 70000, missing: 10000\n", rules_alone()));
  EXPECT_NE(tflm.findings.at(0).fix.find("(10000 bytes, 9.77 KiB)"), std::string::npos) << tflm.findings.at(0).fix;
}

// cuBLAS's handle not created beside a CUDA kernel's assertion or an index out of range (review32):
// the assert left the context unusable, not memory: no report.
TEST(DiagnoseKinds24, CublasHandleAfterAnAssertIsNoOom) {
  EXPECT_TRUE(parse_oom_log("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n"
                            "../aten/src/ATen/native/cuda/Indexing.cu:1146: indexSelectLargeIndex: block: [0,0,0], thread: "
                            "[0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n")
                  .empty());
  EXPECT_TRUE(parse_oom_log("RuntimeError: CUDA error: device-side assert triggered\nRuntimeError: CUDA error: "
                            "CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n")
                  .empty());
  EXPECT_EQ(parse_oom_log("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n")
                .size(),
            1u);
}

// review32b: PyTorch 2.x's hint under every CUDA error ("Compile with `TORCH_USE_CUDA_DSA` to
// enable device-side assertions.") and a Python "list index out of range" are no kernel assert;
// absl's log prefix ("E0000 00:00:1712345678.901234   12345 cuda_blas.cc:190] ") is stripped and
// marks TF's / XLA's device; a log record of its own above a one-line message (TF's "Sum Total of
// in-use chunks: 7.50GiB") is not glued into it.
TEST(DiagnoseKinds24, Review32bMends) {
  EXPECT_EQ(parse_oom_log("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n"
                          "CUDA kernel errors might be asynchronously reported at some other API call.\n"
                          "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n")
                .size(),
            1u);
  EXPECT_EQ(parse_oom_log("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n"
                          "IndexError: list index out of range\n")
                .size(),
            1u);
  const std::vector<OomRecord> absl = parse_oom_log(
      "E0000 00:00:1712345678.901234   12345 cuda_blas.cc:190] failed to create cublas handle: "
      "CUBLAS_STATUS_NOT_INITIALIZED\n");
  ASSERT_EQ(absl.size(), 1u);
  EXPECT_EQ(absl[0].message, "failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED");
  EXPECT_EQ(absl[0].device, "gpu");
  const std::vector<OomRecord> tf = parse_oom_log(
      "2021-05-16 03:52:49.141806: I tensorflow/core/common_runtime/bfc_allocator.cc:1040] Sum Total of in-use chunks: "
      "7.50GiB\n"
      "2021-05-16 03:52:49.141900: E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to allocate 3.50G "
      "(3758096384 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n");
  ASSERT_FALSE(tf.empty());
  EXPECT_EQ(tf.back().message.find("Sum Total"), std::string::npos) << tf.back().message;
}

// The driver's code spelled out after it ("CUDA_ERROR_OUT_OF_MEMORY: out of memory") is one report
// with the whole message, sized from the byte count before it (review32b).
TEST(DiagnoseKinds24, DriverCodeSpelledOutIsOneReport) {
  const std::vector<OomRecord> jax = parse_oom_log(
      "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to allocate 1073741824 bytes for new constant: "
      "CUDA_ERROR_OUT_OF_MEMORY: out of memory\n");
  ASSERT_EQ(jax.size(), 1u);
  EXPECT_EQ(jax[0].family, "cuda_error_oom");
  EXPECT_EQ(jax[0].requested_bytes, int64_t{1} << 30);
  EXPECT_NE(jax[0].message.find("CUDA_ERROR_OUT_OF_MEMORY: out of memory"), std::string::npos) << jax[0].message;
}

// Chinese (review32): 内存耗完了，但是显存还有很多 (the RAM ran out, the GPU's memory has plenty) is the
// host's; 加载模型的时候显存被吃光 (the GPU's memory eaten up while loading the model) is the load.
TEST(DiagnoseKinds24, ChineseHostNotGpuAndModelLoad) {
  const Diagnosis host = first(diagnose_log(
      "\xe5\x86\x85\xe5\xad\x98\xe8\x80\x97\xe5\xae\x8c\xe4\xba\x86\xef\xbc\x8c\xe4\xbd\x86\xe6\x98\xaf\xe6\x98\xbe\xe5\xad\x98"
      "\xe8\xbf\x98\xe6\x9c\x89\xe5\xbe\x88\xe5\xa4\x9a\xe3\x80\x82\n",
      rules_alone()));
  ASSERT_TRUE(host.oom);
  EXPECT_EQ(host.oom->device, "cpu");
  EXPECT_TRUE(evidence_holds("\xe5\x8a\xa0\xe8\xbd\xbd\xe6\xa8\xa1\xe5\x9e\x8b\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xe6\x98\xbe"
                             "\xe5\xad\x98\xe8\xa2\xab\xe5\x90\x83\xe5\x85\x89\n",
                             "fails while loading the model (zh)", OomCause::kStaticModelTooLarge));
}

// ROCm's twins of cuBLAS's and cuDNN's allocation failures (review32b): hipBLAS's, rocBLAS's and
// MIOpen's, on a HIP device, worded with their own names.
TEST(DiagnoseKinds25, RocmBlasAllocationFailures) {
  const std::vector<OomRecord> hipblas =
      parse_oom_log("RuntimeError: HIP error: HIPBLAS_STATUS_ALLOC_FAILED when calling `hipblasCreate(handle)`\n");
  ASSERT_EQ(hipblas.size(), 1u);
  EXPECT_EQ(hipblas[0].family, "cublas_alloc_failed");
  EXPECT_EQ(hipblas[0].device, "hip");
  const std::vector<OomRecord> init =
      parse_oom_log("RuntimeError: CUDA error: HIPBLAS_STATUS_NOT_INITIALIZED when calling `hipblasCreate(handle)`\n");
  ASSERT_EQ(init.size(), 1u);
  EXPECT_EQ(init[0].subsystem, "cublas_init");
  EXPECT_EQ(init[0].device, "hip");
  const std::vector<OomRecord> miopen = parse_oom_log("MIOpen Error: miopenStatusAllocFailed\n");
  ASSERT_EQ(miopen.size(), 1u);
  EXPECT_EQ(miopen[0].family, "cudnn_alloc_failed");
  EXPECT_EQ(miopen[0].device, "hip");
  const Diagnosis tf = first(diagnose_log(
      "2021-05-16 03:52:49.141806: E tensorflow/stream_executor/rocm/rocm_blas.cc:300] failed to create rocBLAS handle: "
      "rocblas_status_memory_error\n",
      rules_alone()));
  ASSERT_TRUE(tf.oom);
  EXPECT_EQ(tf.oom->family, "cublas_alloc_failed");
  ASSERT_FALSE(tf.findings.empty());
  EXPECT_NE(tf.findings.front().title.find("hipBLAS / rocBLAS"), std::string::npos) << tf.findings.front().title;
}

// TensorFlow's BFC warning that says it is no failure ("The caller indicates that this is not a
// failure") is no report, in the OOM families' heads or in words (review32b).
TEST(DiagnoseKinds25, BfcNotAFailureWarningIsNoReport) {
  EXPECT_TRUE(parse_oom_log("W0000 00:00:1712345678.901234   12345 bfc_allocator.cc:291] Allocator (GPU_0_bfc) ran out of "
                            "memory trying to allocate 4.00GiB with freed_by_count=0. The caller indicates that this is not "
                            "a failure, but this may mean that there could be performance gains if more memory were "
                            "available.\n")
                  .empty());
  EXPECT_TRUE(diagnose_log("2021-05-16 03:52:49.141806: W tensorflow/core/common_runtime/bfc_allocator.cc:291] Allocator "
                           "(GPU_0_bfc) ran out of memory trying to allocate 4.00GiB with freed_by_count=0. The caller "
                           "indicates that this is not a failure, but this may mean that there could be performance gains "
                           "if more memory were available.\n",
                           rules_alone())
                  .empty());
}

// A request printed negative (a corrupted size: one that wrapped past int64 in a product) is an impossible
// size, kept as printed (review32), not dropped and read as host RAM.
TEST(DiagnoseKinds25, NegativeRequestIsImpossible) {
  const Diagnosis d = first(diagnose_log(
      "RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to "
      "allocate -8589934592 bytes.\n",
      rules_alone()));
  ASSERT_TRUE(d.oom);
  EXPECT_TRUE(d.oom->size_overflow);
  EXPECT_EQ(d.oom->requested_printed, "-8589934592bytes");
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings.front().category, OomCause::kOther);
  EXPECT_NE(d.findings.front().evidence.front().find("-8589934592 bytes is negative"), std::string::npos);
}

// Inference told in Chinese (review32): 每次推理显存都会用光 (the GPU's memory used up at every inference)
// is evidence of inference, as "during inference" is; 推理速度 (inference speed) is not.
TEST(DiagnoseKinds25, ChineseInferenceTold) {
  EXPECT_TRUE(evidence_holds("\xe6\xaf\x8f\xe6\xac\xa1\xe6\x8e\xa8\xe7\x90\x86\xe6\x98\xbe\xe5\xad\x98\xe9\x83\xbd\xe4\xbc\x9a"
                             "\xe7\x94\xa8\xe5\x85\x89\xef\xbc\x8c" "batch size=16 \xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\n",
                             "inference / evaluation, in the user's words", OomCause::kEvalWithoutNoGrad));
  EXPECT_FALSE(evidence_holds("\xe6\x8e\xa8\xe7\x90\x86\xe9\x80\x9f\xe5\xba\xa6\xe5\xbe\x88\xe6\x85\xa2\xef\xbc\x8c"
                              "\xe6\x98\xbe\xe5\xad\x98\xe7\x94\xa8\xe5\x85\x89\xe4\xba\x86\n",
                              "inference / evaluation, in the user's words", OomCause::kEvalWithoutNoGrad));
}

// held32's kinds, each with made-up text of its own (not the corpus report's).
// "More and more" memory over repeats is growth step after step; more and more processes are not.
TEST(DiagnoseKinds26, MoreAndMoreMemoryIsGrowth) {
  EXPECT_TRUE(evidence_holds("The trainer takes more and more RAM with every new trial until the box swaps.\n",
                             "memory grows step after step", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("There are more and more processes on my GPUs each day and CUDA runs out of memory.\n",
                              "memory grows step after step", OomCause::kLeakAcrossSteps));
}

// A dataframe's memory told is host RAM (pandas / polars hold their frames there); an import is not.
TEST(DiagnoseKinds26, DataframeMemoryIsHostRam) {
  EXPECT_TRUE(evidence_holds("Joining the two pandas frames eats all the memory.\nMemoryError\n",
                             "a dataframe's memory told", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("df = pd.DataFrame(np.zeros((n, m)))  # memory: n*m*8 bytes\nMemoryError\n",
                              "a dataframe's memory told", OomCause::kCpuRam));
}

// The items one call asks for are its batch; items counted over a run are not.
TEST(DiagnoseKinds26, ItemsPerCallAreTheBatch) {
  const std::string oom = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  EXPECT_TRUE(evidence_holds("Asking for 16 images from the endpoint gives this:\n" + oom,
                             "the number of items one call asks for", OomCause::kActivationsBatch));
  EXPECT_TRUE(evidence_holds("It crashes when I render 12 videos at once.\n" + oom, "the number of items one call asks for",
                             OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds("After it renders 15 pictures it fails.\n" + oom, "the number of items one call asks for",
                              OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds("Requesting 1 sample gives this:\n" + oom, "the number of items one call asks for",
                              OomCause::kActivationsBatch));
}

// A container's OOM in words (Docker, ECS, Korean 컨테이너) is host RAM, unless a GPU is named.
TEST(DiagnoseKinds26, ContainerOomIsHostRam) {
  const std::optional<OomRecord> docker = mentioned_oom("Docker OOM every few minutes on our API service\n");
  ASSERT_TRUE(docker);
  EXPECT_EQ(docker->device, "cpu");
  // 컨테이너가 OOM으로 종료됩니다 (the container ends because of OOM)
  const std::optional<OomRecord> ko = mentioned_oom(
      "\xec\xbb\xa8\xed\x85\x8c\xec\x9d\xb4\xeb\x84\x88\xea\xb0\x80 OOM\xec\x9c\xbc\xeb\xa1\x9c \xec\xa2\x85\xeb\xa3\x8c"
      "\xeb\x90\xa9\xeb\x8b\x88\xeb\x8b\xa4\n");
  ASSERT_TRUE(ko);
  EXPECT_EQ(ko->device, "cpu");
  const std::optional<OomRecord> gpu = mentioned_oom("In the docker container the GPU runs out of memory (OOM) at step 3\n");
  ASSERT_TRUE(gpu);
  EXPECT_NE(gpu->device, "cpu");
}

// A setting that places the work or caps its memory, told to have no effect, is a library bug
// (other); a remedy told not to help is not read so.
TEST(DiagnoseKinds26, PlacementSettingIgnored) {
  EXPECT_TRUE(evidence_holds("Passing device='cpu' has no effect, the model still fills the GPU memory and OOMs.\n",
                             "told to have no effect", OomCause::kOther));
  // use_gpu=False 不起作用 (has no effect), 显存一直涨 (the GPU memory keeps rising)
  EXPECT_TRUE(evidence_holds("use_gpu=False \xe4\xb8\x8d\xe8\xb5\xb7\xe4\xbd\x9c\xe7\x94\xa8\xef\xbc\x8c\xe6\x98\xbe\xe5\xad\x98"
                             "\xe4\xb8\x80\xe7\x9b\xb4\xe6\xb6\xa8\xe7\x9b\xb4\xe5\x88\xb0 OOM\n",
                             "told to have no effect", OomCause::kOther));
  EXPECT_FALSE(evidence_holds("Setting expandable_segments:True had no effect, still CUDA out of memory.\n",
                              "told to have no effect", OomCause::kOther));
  EXPECT_FALSE(evidence_holds("Is CUDA_VISIBLE_DEVICES ignored here? I get CUDA out of memory.\n",
                              "told to have no effect", OomCause::kOther));
}

// HotSpot's commit warning and its error report's native allocation line: one report, the JVM's,
// sized, worded as memory the JVM reserved and could not commit (not a heap to raise).
TEST(DiagnoseKinds26, JvmNativeCommitFailure) {
  const std::string log =
      "OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00000000c0000000, 1073741824, 0) failed; "
      "error='Not enough space' (errno=12)\n"
      "#\n"
      "# There is insufficient memory for the Java Runtime Environment to continue.\n"
      "# Native memory allocation (mmap) failed to map 1073741824 bytes for committing reserved memory.\n";
  const std::vector<OomRecord> r = parse_oom_log(log);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].subsystem, "jvm");
  EXPECT_EQ(r[0].requested_bytes, int64_t{1} << 30);
  const Diagnosis d = first(diagnose_log(log, rules_alone()));
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings.front().category, OomCause::kCpuRam);
  EXPECT_NE(d.findings.front().evidence.front().find("could not commit 1.00 GiB"), std::string::npos)
      << d.findings.front().evidence.front();
}

// PyTorch 1.x's "cached" (the free split blocks of partly used segments) far above the request is
// fragmentation ranked first, but no verdict by the numbers alone.
TEST(DiagnoseKinds26, FragmentationByNumbersAloneIsNoVerdict) {
  const Diagnosis d = first(diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 11.00 GiB total capacity; 4.00 GiB already "
      "allocated; 300.00 MiB free; 5.50 GiB cached)\n",
      rules_alone()));
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings.front().category, OomCause::kFragmentation);
  EXPECT_TRUE(d.ambiguous());
}

// review33's mends, each with an input of its own.
// An allocator setting already set or tried without effect is evidence against fragmentation: the
// allocator's figures then stay at medium, no verdict.
TEST(DiagnoseKinds26, AllocatorSettingTriedIsNoFragmentationEvidence) {
  const std::string oom =
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 39.39 GiB of "
      "which 500.00 MiB is free. Of the allocated memory 26.00 GiB is allocated by PyTorch, and 12.00 GiB is reserved by "
      "PyTorch but unallocated.\n";
  for (const char* told : {"I have had PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True set from the start.\n",
                           "Tried max_split_size_mb:64 as suggested, it did not help.\n"}) {
    const Diagnosis d = first(diagnose_log(std::string(told) + oom, rules_alone()));
    ASSERT_FALSE(d.findings.empty());
    EXPECT_TRUE(d.ambiguous()) << told;
  }
  EXPECT_FALSE(evidence_holds("I tried expandable_segments:True and it fixed it.\n" + oom, "without effect",
                              OomCause::kFragmentation));
}

// A dataframe on the GPU (cuDF, "on the GPU") is no host RAM; RMM's MemoryError over a CUDA error is
// one GPU report.
TEST(DiagnoseKinds26, GpuDataframeIsNotHostRam) {
  EXPECT_FALSE(evidence_holds("The cudf join of both frames runs out of GPU memory.\nMemoryError\n",
                              "a dataframe's memory told", OomCause::kCpuRam));
  const std::vector<OomRecord> rmm = parse_oom_log(
      "MemoryError: std::bad_alloc: out_of_memory: CUDA error at: /opt/conda/include/rmm/mr/device/"
      "cuda_memory_resource.hpp:60: cudaErrorMemoryAllocation out of memory\n");
  ASSERT_EQ(rmm.size(), 1u);
  EXPECT_EQ(rmm[0].device, "cuda");
}

// A negative size in a typeset minus (U+2212) is negative too; logcat's threadtime and brief
// prefixes are dropped; a hexadecimal RKNN size is read as such.
TEST(DiagnoseKinds26, TypesetMinusLogcatFormsHexSize) {
  const std::vector<OomRecord> minus = parse_oom_log(
      "RuntimeError: CUDA out of memory. Tried to allocate \xe2\x88\x92" "4.00 GiB (GPU 0; 15.90 GiB total capacity)\n");
  ASSERT_EQ(minus.size(), 1u);
  EXPECT_TRUE(minus[0].size_overflow);
  const std::vector<OomRecord> threadtime =
      parse_oom_log("11-02 08:09:10.111  4321  4388 E RKNN    : failed to malloc npu memory!, size: 0x4000000, flags: 0x2\n");
  ASSERT_EQ(threadtime.size(), 1u);
  EXPECT_EQ(threadtime[0].message.rfind("failed to malloc npu memory", 0), 0u) << threadtime[0].message;
  EXPECT_EQ(threadtime[0].requested_bytes, int64_t{64} << 20);
  const std::vector<OomRecord> brief = parse_oom_log("E/RKNN  ( 4321): failed to malloc npu memory!, size: 1048576\n");
  ASSERT_EQ(brief.size(), 1u);
  EXPECT_EQ(brief[0].message.rfind("failed to malloc npu memory", 0), 0u) << brief[0].message;
}

// HotSpot's commit warning with another C library's ENOMEM text ('Not enough space') is a report;
// two JVMs' failures of other sizes are two reports.
TEST(DiagnoseKinds26, JvmCommitWordingsAndTwoJvms) {
  const std::vector<OomRecord> one = parse_oom_log(
      "Java HotSpot(TM) 64-Bit Server VM warning: INFO: os::commit_memory(0x0000000080000000, 2147483648, 0) failed; "
      "error='Not enough space' (errno=12)\n");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].requested_bytes, int64_t{2} << 30);
  EXPECT_TRUE(parse_oom_log("OpenJDK 64-Bit Server VM warning: os::commit_memory(0x00007f00, 4096, 0) failed; "
                            "error='Invalid argument' (errno=22)\n")
                  .empty());
  const std::vector<OomRecord> two = parse_oom_log(
      "[a] OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00000000c0000000, 2147483648, 0) failed; "
      "error='Cannot allocate memory' (errno=12)\n"
      "[b] OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00000000d0000000, 268435456, 0) failed; "
      "error='Cannot allocate memory' (errno=12)\n");
  EXPECT_EQ(two.size(), 2u);
}

// TensorFlow's "not a failure" warning wrapped over two lines is still no report; Korean 메모리 부족
// (out of memory) in a container is a host report; a pod in another clause is not where it ran out.
TEST(DiagnoseKinds26, WrappedBfcWarningKoreanAndPodClause) {
  EXPECT_TRUE(diagnose_log("2022-01-01 00:00:00.000001: W tensorflow/core/common_runtime/bfc_allocator.cc:290] Allocator "
                           "(GPU_0_bfc) ran out of memory trying to allocate 1.10GiB with freed_by_count=0.\n"
                           "The caller indicates that this is not a failure, but may mean that there could be performance "
                           "gains if more memory were available.\n",
                           rules_alone())
                  .empty());
  // 도커에서 돌리면 메모리 부족으로 멈춥니다 (run in Docker, it stops for lack of memory)
  const std::optional<OomRecord> ko = mentioned_oom(
      "\xeb\x8f\x84\xec\xbb\xa4\xec\x97\x90\xec\x84\x9c \xeb\x8f\x8c\xeb\xa6\xac\xeb\xa9\xb4 \xeb\xa9\x94\xeb\xaa\xa8\xeb\xa6\xac"
      " \xeb\xb6\x80\xec\xa1\xb1\xec\x9c\xbc\xeb\xa1\x9c \xeb\xa9\x88\xec\xb6\xa5\xeb\x8b\x88\xeb\x8b\xa4\n");
  ASSERT_TRUE(ko);
  EXPECT_EQ(ko->device, "cpu");
  const std::optional<OomRecord> pod =
      mentioned_oom("Preprocessing happens in its own pod; the trainer then runs out of memory at epoch 4.\n");
  ASSERT_TRUE(pod);
  EXPECT_NE(pod->device, "cpu");
}

// Android's runtime (ART) prints the request and the heap's free bytes in its OutOfMemoryError; a
// figure printed negative ("-512.00 MiB free") is dropped, not read as 512 MiB.
TEST(DiagnoseKinds26, AndroidRuntimeSizesAndNegativeFigure) {
  const std::vector<OomRecord> art = parse_oom_log(
      "java.lang.OutOfMemoryError: Failed to allocate a 67108880 byte allocation with 16777216 free bytes and 48MB until OOM\n");
  ASSERT_EQ(art.size(), 1u);
  EXPECT_EQ(art[0].requested_bytes, int64_t{67108880});
  EXPECT_EQ(art[0].free_bytes, int64_t{16777216});
  const std::vector<OomRecord> neg = parse_oom_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 6.90 GiB already "
      "allocated; -256.00 MiB free; 7.00 GiB reserved in total by PyTorch)\n");
  ASSERT_EQ(neg.size(), 1u);
  EXPECT_FALSE(neg[0].free_bytes.has_value());
  EXPECT_EQ(neg[0].requested_bytes, int64_t{20} << 20);
}

// held33's kinds, each with made-up text of its own.
// Another GPU chosen and the work told landing on the first is the wrong device (multi-GPU
// placement), not a setting the library ignores.
TEST(DiagnoseKinds27, WorkLandsOnTheFirstGpu) {
  const std::string oom = "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB\n";
  EXPECT_TRUE(evidence_holds("I start it with --gpu 2 on the server.\nnvidia-smi shows the process always uses GPU 0.\n" + oom,
                             "another GPU chosen", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds("I start it with --gpu 2 on the server.\nIs it using GPU 0 anyway?\n" + oom,
                              "another GPU chosen", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds("nvidia-smi shows the process always uses GPU 0.\n" + oom, "another GPU chosen",
                              OomCause::kMultiGpuImbalance));
  const Diagnosis d = first(diagnose_log(
      "I start it with --gpu 2 on the server.\nnvidia-smi shows the process always uses GPU 0.\n" + oom, rules_alone()));
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings.front().category, OomCause::kMultiGpuImbalance);
  EXPECT_NE(d.findings.front().title.find("though another was chosen"), std::string::npos) << d.findings.front().title;
}

// Host memory told to keep filling each epoch, a buffer never cleared: growth step after step, and
// a leak (host RAM stays first where a kill is told: in the corpus, host growth until a kill is as
// often a dataset or a DataLoader's copies as a leak).
TEST(DiagnoseKinds27, KeepsFillingAndNeverClearedAreGrowth) {
  const std::string log =
      "Training gets killed after a few epochs on a 64 GB box.\n"
      "Watching top, the replay buffer is never cleared and memory keeps filling up at every epoch.\n";
  EXPECT_TRUE(evidence_holds(log, "memory grows step after step", OomCause::kLeakAcrossSteps));
  EXPECT_TRUE(evidence_holds(log, "memory told never to be freed", OomCause::kLeakAcrossSteps));
}

// ncnn's "vkAllocateMemory failed -1" where the log tells the GPU's memory ran out is the device's.
TEST(DiagnoseKinds27, VulkanHostCodeWithVramTold) {
  const std::vector<OomRecord> told = parse_oom_log("Out of VRAM when upscaling a 4096px image\nvkAllocateMemory failed -1\n");
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0].family, "device_alloc");
  const std::vector<OomRecord> bare = parse_oom_log("vkAllocateMemory failed -1\n");
  ASSERT_EQ(bare.size(), 1u);
  EXPECT_EQ(bare[0].subsystem, "vulkan_host");
}

// Android's runtime throwing its OutOfMemoryError in logcat is a report, sized; "memory outage" and
// "out of VRAM" name an OOM in words.
TEST(DiagnoseKinds27, AndroidRuntimeThrowAndOomWords) {
  const std::vector<OomRecord> art = parse_oom_log(
      "11-02 08:09:10.111 4321-4321/com.example.app E/art: Throwing OutOfMemoryError \"Failed to allocate a 52428816 byte "
      "allocation with 4194304 free bytes and 40MB until OOM\"\n");
  ASSERT_EQ(art.size(), 1u);
  EXPECT_EQ(art[0].requested_bytes, int64_t{52428816});
  const Diagnosis d = first(diagnose_log(
      "E/art: Throwing OutOfMemoryError \"Failed to allocate a 52428816 byte allocation with 4194304 free bytes and 40MB "
      "until OOM\"\n",
      rules_alone()));
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings.front().category, OomCause::kCpuRam);
  EXPECT_NE(d.findings.front().fix.find("android:largeHeap"), std::string::npos) << d.findings.front().fix;
  EXPECT_TRUE(mentioned_oom("With 8 GPUs we still get a memory outage at the third layer.\n"));
  EXPECT_TRUE(mentioned_oom("The renderer runs out of VRAM on large scenes.\n"));
}

// Inputs up to a length told to work and a longer one to fail: the input's length.
TEST(DiagnoseKinds27, ShortInputsWorkLongerFails) {
  EXPECT_TRUE(evidence_holds("Summaries work for documents up to 3000 tokens, but a 9000-token report fails with:\n"
                             "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB\n",
                             "inputs up to a length told to work", OomCause::kActivationsSeqlen));
}

// Session 34. A log that names no framework, with a message that is not one of PyTorch's own, gets
// PyTorch's wording by default and says so; TensorFlow named only by its module in code ("tf.data")
// is TensorFlow.
TEST(DiagnoseFramework, AssumedWhenTheLogNamesNone) {
  const Diagnosis killed = first(diagnose_log("Training on the full set.\nKilled\n", rules_alone()));
  EXPECT_EQ(killed.framework, "pytorch");
  EXPECT_TRUE(killed.framework_assumed);
  EXPECT_NE(oom_report_text(killed).find("(assumed: the log names no framework"), std::string::npos);
  EXPECT_EQ(oom_report_json(killed).value("framework_assumed", false), true);
  // PyTorch's own message names PyTorch.
  const Diagnosis torch = first(diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 6.00 GiB already "
      "allocated; 10.00 MiB free; 6.50 GiB reserved in total by PyTorch)\n",
      rules_alone()));
  EXPECT_FALSE(torch.framework_assumed);
  EXPECT_EQ(oom_report_json(torch).value("framework_assumed", true), false);
  // The generic "<word> out of memory" head is not PyTorch's wording.
  EXPECT_TRUE(first(diagnose_log("Error: Out of memory\n", rules_alone())).framework_assumed);
  // A framework named as not used is not the log's.
  EXPECT_TRUE(first(diagnose_log("I don't use TensorFlow here.\nKilled\n", rules_alone())).framework_assumed);
  const Diagnosis tf = first(diagnose_log("ds = tf.data.Dataset.from_tensor_slices(x).shuffle(1000000)\nKilled\n", rules_alone()));
  EXPECT_EQ(tf.framework, "tensorflow");
  EXPECT_FALSE(tf.framework_assumed);
  // "tf" without the module's dot is not TensorFlow ("TF32 off", "tf idf").
  EXPECT_TRUE(first(diagnose_log("tf idf features on the full corpus\nKilled\n", rules_alone())).framework_assumed);
}

// held34's kinds, each with made-up text of its own.
// Three or more processes each holding one CUDA context's worth (within 10%) on the failing GPU,
// in a job with several ranks: the ranks each initialise CUDA on this GPU (multi-GPU placement),
// above other processes; without ranks in the log, low as before.
TEST(DiagnoseKinds28, EqualContextsOfRanksOnOneGpu) {
  const std::string oom =
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of 23.65 GiB "
      "of which 21.25 MiB is free. Process 2201 has 820.00 MiB memory in use. Process 2202 has 820.00 MiB memory in use. "
      "Process 2203 has 818.00 MiB memory in use. Including non-PyTorch memory, this process has 21.20 GiB memory in use. "
      "Of the allocated memory 20.10 GiB is allocated by PyTorch, and 500.00 MiB is reserved by PyTorch but unallocated.\n";
  EXPECT_EQ(top_cause("torchrun --nproc_per_node 4 train.py\n[rank2] world_size=4\n" + oom), OomCause::kMultiGpuImbalance);
  EXPECT_TRUE(evidence_holds("torchrun --nproc_per_node 4 train.py\n[rank2] world_size=4\n" + oom, "one CUDA context apiece",
                             OomCause::kMultiGpuImbalance));
  EXPECT_EQ(top_cause(oom), OomCause::kOtherProcess);
  // Other jobs' memory differs: no context reading.
  const std::string mixed =
      "torchrun --nproc_per_node 4 train.py\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of 23.65 GiB "
      "of which 21.25 MiB is free. Process 2201 has 9.00 GiB memory in use. Process 2202 has 820.00 MiB memory in use. "
      "Process 2203 has 3.00 GiB memory in use. Including non-PyTorch memory, this process has 10.00 GiB memory in use.\n";
  EXPECT_FALSE(evidence_holds(mixed, "one CUDA context apiece"));
}

// Batch sizes above a bound told to fail: the batch; a success above a bound is not.
TEST(DiagnoseKinds28, BatchSizesAboveABoundFail) {
  EXPECT_TRUE(evidence_holds("Every run crashes with CUDA out of memory for batch sizes above 96 on the 16 GB card.\n",
                             "batch sizes above a bound", OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds("It trains with batch size over 2000 without any memory issues, but the other model fails.\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB\n",
                              "batch sizes above a bound"));
  EXPECT_FALSE(evidence_holds("I use batch size=1. Larger than that gives an OOM error on the point count.\n",
                              "batch sizes above a bound"));
}

// A diffusion model's VAE decoding the whole image or video: its resolution; memory that rises and
// falls within a run is not growth.
TEST(DiagnoseKinds28, VaeDecodeAndRiseThenFall) {
  const std::string log =
      "Generating 1080p clips: memory increases first and then decreases during the sampling steps, and the run dies "
      "with an out of memory error in the final VAE decode.\n";
  EXPECT_TRUE(evidence_holds(log, "the VAE decoding the whole image", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds(log, "memory grows step after step"));
  EXPECT_EQ(top_cause(log), OomCause::kActivationsSeqlen);
}

// Host memory in words: Python's MemoryError cut short, a machine's memory beyond any GPU's, a data
// engine that runs in host memory with no accelerator in the log.
TEST(DiagnoseKinds28, HostMemoryInWords) {
  const Diagnosis cut = first(diagnose_log("W0101 op_kernel.cc:1733] RESOURCE_EXHAUSTED: MemoryError: Unable to al\n", rules_alone()));
  ASSERT_TRUE(cut.oom.has_value());
  EXPECT_EQ(cut.oom->device, "cpu");
  const Diagnosis nodes = first(diagnose_log(
      "The segmentation step runs out of memory even on our 2TB nodes once the scene has 300k cells.\n", rules_alone()));
  ASSERT_TRUE(nodes.oom.has_value());
  EXPECT_EQ(nodes.oom->device, "cpu");
  ASSERT_FALSE(nodes.findings.empty());
  EXPECT_EQ(nodes.findings.front().category, OomCause::kCpuRam);
  EXPECT_EQ(top_cause("Joining two parquet files in DuckDB with memory_limit='8GB'.\nThe query stops with an Out of Memory error.\n"), OomCause::kCpuRam);
  EXPECT_FALSE(evidence_holds("Loading the rows from SQLite into a tensor on the GPU.\nRuntimeError: CUDA out of memory.\n",
                              "a data engine that runs in host memory"));
}

// Arrays told to persist from one iteration to the next, references held on to: a leak; an
// allocator switch told to have solved it: fragmentation.
TEST(DiagnoseKinds28, PersistentArraysAndAllocatorSwitch) {
  EXPECT_EQ(top_cause("The scan wrapper keeps persistent device buffers across training iterations until XLA runs out of memory.\n"), OomCause::kLeakAcrossSteps);
  EXPECT_FALSE(evidence_holds("Are the arrays persistent across iterations? The GPU runs out of memory.\n",
                              "told kept from one iteration"));
  EXPECT_EQ(top_cause("My net OOMs after an hour of small allocations. I set PYTORCH_NO_CUDA_MEMORY_CACHING=1 and it solved the problem.\n"
      "RuntimeError: CUDA out of memory.\n"), OomCause::kFragmentation);
}

// CTranslate2's CUDA check (faster-whisper, OpenNMT): one report on the GPU, its own line quoted,
// not PyTorch's caching allocator with the next line glued on.
TEST(DiagnoseKinds28, CTranslate2CudaCheck) {
  const std::vector<OomRecord> r = parse_oom_log(
      "  File \"faster_whisper/transcribe.py\", line 130, in __init__\n"
      "RuntimeError: CUDA failed with error out of memory\n"
      "[1234] Failed to execute script 'main' due to unhandled exception!\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].family, "cuda_error_oom");
  EXPECT_EQ(r[0].subsystem, "ctranslate2");
  EXPECT_EQ(r[0].device, "cuda");
  EXPECT_EQ(r[0].message, "RuntimeError: CUDA failed with error out of memory");
}

// A cause or a fix guessed ("the solution seems to be ...") is not the user's account of one.
TEST(DiagnoseKinds28, GuessedSolutionIsNoAccount) {
  EXPECT_FALSE(evidence_holds("The solution seems to be to lower the batch_size, but where do I set it?\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 300.00 MiB\n",
                              "the user's account of the fix or the cause"));
  EXPECT_TRUE(evidence_holds("The solution was to lower the batch_size to 4.\n"
                             "RuntimeError: CUDA out of memory. Tried to allocate 300.00 MiB\n",
                             "the user's account of the fix or the cause"));
}

// review34's findings on held34's kinds, mended.
TEST(DiagnoseKinds28, Review34Mends) {
  // Python's MemoryError: one report per line, the device's head where the line names CUDA / a
  // GPU, and a numpy message cut before "for an array" still a report.
  auto only = [](const std::string& log) { return diagnose_log(log, rules_alone()); };
  const auto out = only("MemoryError: out of memory\n");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].oom->message, "MemoryError: out of memory");
  EXPECT_EQ(out[0].oom->occurrences, 1);
  const auto badalloc = only("MemoryError: std::bad_alloc\n");
  ASSERT_EQ(badalloc.size(), 1u);
  EXPECT_EQ(badalloc[0].oom->occurrences, 1);
  const auto gpu = only("MemoryError: CUDA out of memory on GPU 0\n");
  ASSERT_EQ(gpu.size(), 1u);
  EXPECT_NE(gpu[0].oom->device, "cpu");
  const auto cut = only("MemoryError: Unable to allocate 3.64 GiB\n");
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0].oom->device, "cpu");
  // A sum of accelerators' memory, HBM or a disk is not the host's.
  EXPECT_NE(first(only("Using an MI300X node with 1.5TB of HBM, it still runs out of memory.\n")).oom->device, "cpu");
  EXPECT_NE(first(only("Our node has a 512GB NVMe scratch disk; the job runs out of memory.\n")).oom->device, "cpu");
  EXPECT_NE(first(only("On a 4 x 80GB machine (320GB total) the model still OOMs at sequence length 32k.\n")).oom->device, "cpu");
  // Persistence denied; "held onto".
  EXPECT_FALSE(evidence_holds("Training runs out of GPU memory. The buffers are not persistent across iterations.\n",
                              "told kept from one iteration"));
  EXPECT_TRUE(evidence_holds("Something held onto the array references, so the GPU ran out of memory.\n",
                             "told kept from one iteration", OomCause::kLeakAcrossSteps));
  // A bound told to succeed.
  EXPECT_FALSE(evidence_holds("No OOM with batch sizes higher than 64 on the A100.\nRuntimeError: CUDA out of memory.\n",
                              "batch sizes above a bound"));
  // VAE tiling named in code counts; VAE slicing (the batch's remedy) does not.
  EXPECT_TRUE(evidence_holds("The run dies with an out of memory error in the final VAE decode.\n",
                             "the VAE decoding the whole image", OomCause::kActivationsSeqlen));
  EXPECT_TRUE(evidence_holds("pipe.enable_vae_tiling() fixed the out of memory error in the decode.\n",
                             "the VAE decoding the whole image", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("VAE slicing decodes one image at a time; without it the decode runs out of memory.\n",
                              "the VAE decoding the whole image"));
  // Growth told in another clause of the line stands beside a rise and fall.
  EXPECT_TRUE(evidence_holds("Memory keeps increasing every epoch; within an epoch it increases first and then decreases.\n"
                             "RuntimeError: CUDA out of memory.\n",
                             "memory grows step after step", OomCause::kLeakAcrossSteps));
  // This process listed under its own PID beside three equal contexts.
  EXPECT_TRUE(evidence_holds(
      "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of "
      "79.15 GiB of which 512.00 MiB is free. Process 1111 has 75.2 GiB memory in use. Process 2222 has 1.02 GiB memory "
      "in use. Process 3333 has 1.02 GiB memory in use. Process 4444 has 1.02 GiB memory in use.\n[rank1]: step 10\n",
      "one CUDA context apiece", OomCause::kMultiGpuImbalance));
  // CTranslate2's reports are worded as a native runtime's, not PyTorch's.
  EXPECT_EQ(first(only("from faster_whisper import WhisperModel\nRuntimeError: CUDA failed with error out of memory\n")).framework,
            "native");
}

// Session 34, before held35: a command line above "Killed" is not glued to it; a table pasted
// after a one-line message is not the message's; the word prior does not add host RAM beside an
// accelerator's own allocation failure.
TEST(DiagnoseKinds29, MessagesKeptToThemselves) {
  const auto killed = parse_oom_log("CUDA_VISIBLE_DEVICES=0 python run.py\nKilled\n");
  ASSERT_EQ(killed.size(), 1u);
  EXPECT_EQ(killed[0].message, "Killed");
  const auto table = parse_oom_log(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.64 GiB "
      "of which 1.10 GiB is free.\n"
      "nvidia-smi:\n"
      "+------------------------------------------+\n"
      "|    0   N/A  N/A     10001      C   python    19000MiB |\n");
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0].message.find("nvidia-smi"), std::string::npos) << table[0].message;
  EXPECT_EQ(table[0].message.find('|'), std::string::npos) << table[0].message;
}

TEST(DiagnoseKinds29, WordsDoNotMoveADeviceFailureToTheHost) {
  // A model whose words for "terminate ... throwing ... instance" are host RAM's.
  const WordPriorModel host = WordPriorModel::train(
      {{"terminate called after throwing an instance of std::bad_alloc", OomCause::kCpuRam},
       {"terminate called after throwing an instance, the machine swapped", OomCause::kCpuRam},
       {"reduce the batch size for the activations", OomCause::kActivationsBatch},
       {"a longer sequence length of tokens", OomCause::kActivationsSeqlen}});
  DiagnoseOptions o;
  o.word_prior = &host;
  const std::vector<Diagnosis> ds = diagnose_log(
      "terminate called after throwing an instance of 'std::runtime_error'\n"
      "  what():  CUDA failed with error out of memory\n",
      o);
  ASSERT_EQ(ds.size(), 1u);
  for (const Finding& f : ds[0].findings) EXPECT_NE(f.category, OomCause::kCpuRam);
}

// held35's kinds, each with made-up text of its own.
TEST(DiagnoseKinds30, CutAndLibraryCudaMessages) {
  // ggml's failing buffer line cut before "cudaMalloc failed": the same report, sized.
  const auto cut = parse_oom_log(
      "[error] llama.cpp: ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 1: cudaMa\n");
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0].requested_bytes, int64_t{4096} << 20);
  EXPECT_EQ(cut[0].device, "cuda:1");
  // Thrust's device algorithm and MXNet's mshadow check failing for memory: the GPU's.
  const auto thrust = parse_oom_log(
      "terminate called after throwing an instance of 'thrust::system::system_error'\n  what():  parallel_for failed: "
      "out of memory\n");
  ASSERT_EQ(thrust.size(), 1u);
  EXPECT_EQ(thrust[0].device, "cuda");
  EXPECT_EQ(thrust[0].subsystem, "thrust");
  const auto mx = parse_oom_log(
      "MXNetError: [10:11:12] src/storage/./pooled_storage_manager.h: Check failed: err == cudaSuccess (2 vs. 0) "
      "Name: MapPlanKernel ErrStr:out of memory\n");
  ASSERT_EQ(mx.size(), 1u);
  EXPECT_EQ(mx[0].family, "cuda_error_oom");
  EXPECT_EQ(mx[0].device, "cuda");
}

TEST(DiagnoseKinds30, AccountsAndSettingsInWords) {
  // Batch size 1 as a command's flag is a setting, not a failure told at batch 1.
  EXPECT_FALSE(evidence_holds("python infer.py --video in.mp4 --batch_size 1 --resolution 1080\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                              "fails even at batch size 1"));
  EXPECT_TRUE(evidence_holds("It fails even with batch_size 1 on the 8 GB card.\n"
                             "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                             "fails even at batch size 1"));
  // "Fix a leak" titled: the account of a leak.
  EXPECT_EQ(top_cause("Fix a leak in the op cache\nThe cache kept every traced graph, so training ran out of memory.\n"),
            OomCause::kLeakAcrossSteps);
  // A finished stage's model told unloaded before the next: two models resident at once.
  EXPECT_TRUE(evidence_holds("This PR fixes the CUDA OOM in the two-stage demo.\n- Unload the captioning model before "
                             "the diffusion stage starts\n",
                             "a finished stage's model told unloaded before the next", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds("The models are never unloaded before the next run, so the GPU runs out of memory.\n",
                              "a finished stage's model told unloaded before the next"));
  // The operating system's OOM in words: host memory.
  const Diagnosis os = first(diagnose_log("Building the index on 40M rows causes an OS OOM after an hour.\n", rules_alone()));
  ASSERT_TRUE(os.oom.has_value());
  EXPECT_EQ(os.oom->device, "cpu");
}

// review35's findings, mended.
TEST(DiagnoseKinds30, Review35Mends) {
  // Any batch flag written as a flag is a setting.
  EXPECT_FALSE(evidence_holds("torchrun run_clm.py --per_device_train_batch_size 1 --block_size 4096\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                              "fails even at batch size 1"));
  // macOS's and iOS's OOM are not the operating system's OOM killer.
  const Diagnosis mac = first(diagnose_log("Training on macOS OOM with the default settings.\n", rules_alone()));
  ASSERT_TRUE(mac.oom.has_value());
  EXPECT_NE(mac.oom->device, "cpu");
  // A leak of a secret is not a memory leak's account.
  EXPECT_FALSE(evidence_holds("Fix a leak of the API token into the logs\nRuntimeError: CUDA out of memory.\n",
                              "the user's account of the fix or the cause", OomCause::kLeakAcrossSteps));
  // The quoted message is never cut inside a UTF-8 character.
  std::string log = "RuntimeError: CUDA out of memory. ";
  while (log.size() < 420) log += "\xe6\x98\xbe\xe5\xad\x98";  // 显存, three bytes each
  log += "\n";
  const std::string text = oom_report_text(first(diagnose_log(log, rules_alone())));
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    ASSERT_NE(n, 0u) << "a continuation byte where a character starts, at " << i;
    ASSERT_LE(i + n, text.size()) << "a character cut at the end";
    for (size_t k = 1; k < n; ++k) ASSERT_EQ(static_cast<unsigned char>(text[i + k]) >> 6, 2u) << "at " << i + k;
    i += n;
  }
}

// "Too long" said of time is no input's length; of an input it is.
TEST(DiagnoseKinds30, TooLongOfTimeIsNoLength) {
  EXPECT_FALSE(evidence_holds("The cached results lived too long, so the GPU ran out of memory.\n", "long inputs"));
  EXPECT_FALSE(evidence_holds("Each epoch takes too long and then the GPU runs out of memory.\n", "long inputs"));
  EXPECT_TRUE(evidence_holds("When the prompt is too long the GPU runs out of memory.\n", "long inputs",
                             OomCause::kActivationsSeqlen));
}

// A shell's "Killed" after a scheduler's stop (SLURM's time limit, scancel, PBS walltime) is the
// scheduler's SIGKILL, not the OOM killer; after Ctrl-C it may be the user's kill -9 (no verdict).
TEST(DiagnoseKinds31, KilledAfterAStopIsNoOomKiller) {
  const Diagnosis slurm = first(diagnose_log(
      "epoch 3 step 5000 loss 2.13\n"
      "slurmstepd: error: *** JOB 1234 ON node07 CANCELLED AT 2024-03-01T12:00:03 DUE TO TIME LIMIT ***\n"
      "Killed\n",
      rules_alone()));
  ASSERT_TRUE(slurm.oom.has_value());
  ASSERT_FALSE(slurm.findings.empty());
  EXPECT_EQ(slurm.findings.front().category, OomCause::kOther);
  EXPECT_EQ(slurm.verdict(), "other");
  const Diagnosis pbs = first(diagnose_log("=>> PBS: job killed: walltime 7230 exceeded limit 7200\nKilled\n", rules_alone()));
  EXPECT_EQ(pbs.findings.front().category, OomCause::kOther);
  // Ctrl-C, then Killed: host RAM stays first, without a verdict.
  const Diagnosis interrupted = first(diagnose_log(
      "^CTraceback (most recent call last):\n  File \"train.py\", line 8, in <module>\nKeyboardInterrupt\nKilled\n",
      rules_alone()));
  EXPECT_EQ(interrupted.findings.front().category, OomCause::kCpuRam);
  EXPECT_EQ(interrupted.verdict(), "ambiguous");
  // The kernel's own report names memory: the scheduler's stop elsewhere does not move it.
  const Diagnosis kernel = first(diagnose_log(
      "slurmstepd: error: *** JOB 99 ON node1 CANCELLED AT 2024-03-01T12:00:03 DUE TO TIME LIMIT ***\n"
      "Out of memory: Killed process 4711 (python) total-vm:80000000kB, anon-rss:60000000kB, file-rss:0kB\n",
      rules_alone()));
  EXPECT_EQ(kernel.findings.front().category, OomCause::kCpuRam);
  // A bare Killed with nothing else stays host RAM, high.
  const Diagnosis bare = first(diagnose_log("python train.py\nKilled\n", rules_alone()));
  EXPECT_EQ(bare.verdict(), "cpu_ram");
}

// Batch size 1 written as code or a config on a line that tells no failure is the run's setting,
// not "fails even at batch size 1"; in a sentence it is the user's account.
TEST(DiagnoseKinds31, BatchOneInCodeIsASetting) {
  const std::string oom = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  EXPECT_FALSE(evidence_holds("args = TrainingArguments(output_dir=\"out\", per_device_train_batch_size=1)\n" + oom,
                              "fails even at batch size 1"));
  EXPECT_FALSE(evidence_holds("config.yaml:\n  batch_size: 1\n  max_seq_len: 2048\n" + oom, "fails even at batch size 1"));
  EXPECT_FALSE(evidence_holds("GPUS=1 BATCH_SIZE=1 sh finetune.sh\n" + oom, "fails even at batch size 1"));
  EXPECT_TRUE(evidence_holds("How do I solve it with the batch_size = 1.\n" + oom, "fails even at batch size 1"));
  EXPECT_TRUE(evidence_holds("train(batch_size=1)  # still OOM\n" + oom, "fails even at batch size 1"));
}

// held36's kinds (made-up inputs).
TEST(DiagnoseKinds31, HostReportsOfOtherStacks) {
  // Julia's OutOfMemoryError() is host RAM; a module's exception of the same name is not Julia's.
  const Diagnosis julia = first(diagnose_log("ERROR: OutOfMemoryError()\nStacktrace:\n [1] Array\n", rules_alone()));
  ASSERT_TRUE(julia.oom.has_value());
  EXPECT_EQ(julia.oom->subsystem, "julia");
  EXPECT_EQ(julia.findings.front().category, OomCause::kCpuRam);
  const auto module = diagnose_log("except torch.cuda.OutOfMemoryError():\n", rules_alone());
  EXPECT_TRUE(module.empty() || !module.front().oom || module.front().oom->subsystem != "julia");
  // A dask job or a CI runner, no accelerator anywhere: host RAM first.
  for (const char* log : {"Computing the climatology with dask runs out of memory.\n",
                          "The GitHub Actions job runs out of memory while building the index.\n"}) {
    const Diagnosis d = first(diagnose_log(log));
    ASSERT_FALSE(d.findings.empty()) << log;
    EXPECT_EQ(d.findings.front().category, OomCause::kCpuRam) << log;
  }
  // "actions" alone names no CI runner.
  EXPECT_FALSE(evidence_holds("The agent's actions run out of memory.\n", "CI runner"));
}

TEST(DiagnoseKinds31, TensorFlowSizesWithoutADtype) {
  // TF 0.x printed the shape proto.
  const Diagnosis proto = first(diagnose_log(
      "ResourceExhaustedError: OOM when allocating tensor with shape dim { size: 2000 } dim { size: 64 } dim { size: 64 }\n"));
  ASSERT_TRUE(proto.oom.has_value());
  EXPECT_EQ(proto.oom->tensor_shape, "2000,64,64");
  EXPECT_EQ(proto.oom->requested_bytes, 2000LL * 64 * 64 * 4);  // float32 assumed
  EXPECT_TRUE(proto.oom->dtype_assumed);
  // The message cut after "and type": BFC's rounded request before it gives the element size.
  const Diagnosis cut = first(diagnose_log(
      "W bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.91GiB (rounded to 2048000000)"
      "requested by op Cast\n"
      "ResourceExhaustedError: OOM when allocating tensor with shape[256000000] and type\n"));
  ASSERT_TRUE(cut.oom.has_value());
  EXPECT_EQ(cut.oom->dtype, "8-byte");
  EXPECT_FALSE(cut.oom->dtype_assumed);
  EXPECT_EQ(cut.oom->requested_bytes, 2048000000LL);
  // No element size fits the rounding: float32 stays assumed.
  const Diagnosis misfit = first(diagnose_log(
      "W Allocator (GPU_0_bfc) ran out of memory trying to allocate 3.00GiB (rounded to 3221225472)requested by op X\n"
      "ResourceExhaustedError: OOM when allocating tensor with shape[1000] and type\n"));
  ASSERT_TRUE(misfit.oom.has_value());
  EXPECT_TRUE(misfit.oom->dtype_assumed);
}

TEST(DiagnoseKinds31, AccountsOfCapsCodeAndEarlierObjects) {
  // "accelerator" as a word is no HF Accelerate; its class in code is.
  EXPECT_EQ(first(diagnose_log("jax.devices() shows one accelerator.\nRESOURCE_EXHAUSTED: Out of memory while trying "
                               "to allocate 1073741824 bytes.\n")).framework,
            "jax");
  EXPECT_EQ(first(diagnose_log("loss = model(x)\naccelerator.backward(loss)\nRuntimeError: CUDA out of memory. Tried to "
                               "allocate 2.00 GiB\n")).framework,
            "accelerate");
  // A cap on the memory told with its size.
  EXPECT_TRUE(evidence_holds("The pinned host pool is capped at 16 GB by default, so the results do not fit.\n"
                             "The job runs out of memory.\n",
                             "a cap on the memory told", OomCause::kOther));
  EXPECT_FALSE(evidence_holds("The prompt is capped at 512 tokens and memory still runs out.\nout of memory\n",
                              "a cap on the memory told"));
  // The fix shown as code under a sentence pointing at it.
  EXPECT_TRUE(evidence_holds("The line should be replaced with the following code:\n```\nwith torch.inference_mode():\n"
                             "    out = net(batch)\n```\nRuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n",
                             "the user's fix, shown as code", OomCause::kEvalWithoutNoGrad));
  EXPECT_FALSE(evidence_holds("Here is my loop:\n```\nwith torch.inference_mode():\n    out = net(batch)\n```\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n",
                              "the user's fix, shown as code"));
  // The previous model or session kept when the next is made.
  EXPECT_TRUE(evidence_holds("The previous engine is still alive when the loop builds a new engine.\nout of memory\n",
                             "an earlier run's objects kept", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("The old laptop runs out of memory.\n", "an earlier run's objects kept"));
}

// review36's findings, mended.
TEST(DiagnoseKinds31, Review36Mends) {
  // The scheduler's stop explains a kill only right before it, with no new command between and no
  // kill for memory told anywhere.
  const Diagnosis new_run = first(diagnose_log(
      "slurmstepd: error: *** JOB 5 ON n1 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***\n"
      "$ python train.py\nstep 10 loss 3.1\nKilled\n", rules_alone()));
  EXPECT_EQ(new_run.findings.front().category, OomCause::kCpuRam);
  const Diagnosis memory_too = first(diagnose_log(
      "slurmstepd: error: Detected 1 oom_kill event in StepId=5.batch.\n"
      "slurmstepd: error: *** JOB 5 ON n1 CANCELLED AT 2024-01-01T00:00:00 ***\nKilled\n", rules_alone()));
  EXPECT_EQ(memory_too.findings.front().category, OomCause::kCpuRam);
  // The banner's date is no size glued to the Killed line.
  const Diagnosis banner = first(diagnose_log(
      "slurmstepd: error: *** JOB 5 ON n1 CANCELLED AT 2024-03-01T12:00:00 DUE TO TIME LIMIT ***\n"
      "/var/spool/slurm/job5/slurm_script: line 9: 4242 Killed python train.py\n", rules_alone()));
  ASSERT_TRUE(banner.oom.has_value());
  EXPECT_EQ(banner.oom->message.find("CANCELLED"), std::string::npos) << banner.oom->message;
  // A Ctrl-C of an earlier attempt leaves a later kill high.
  const Diagnosis later = first(diagnose_log("^CKeyboardInterrupt\npython train.py --num_workers 16\nKilled\n", rules_alone()));
  EXPECT_EQ(later.verdict(), "cpu_ram");
  // Julia: a bare OutOfMemoryError() in a Python traceback is no Julia report; CUDA.jl's is the GPU's.
  const auto py = diagnose_log("Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\nOutOfMemoryError()\n",
                               rules_alone());
  EXPECT_TRUE(py.empty() || !py.front().oom || py.front().oom->subsystem != "julia");
  const Diagnosis cuda_jl = first(diagnose_log("ERROR: Out of GPU memory trying to allocate 2.000 GiB\n", rules_alone()));
  ASSERT_TRUE(cuda_jl.oom.has_value());
  EXPECT_EQ(cuda_jl.oom->device, "cuda");
  EXPECT_EQ(cuda_jl.oom->requested_bytes, 2 * kGiB);
  const auto flux = diagnose_log("julia> m = Chain(Dense(10, 10)) |> gpu\nERROR: OutOfMemoryError()\n", rules_alone());
  EXPECT_TRUE(flux.empty() || !flux.front().oom || flux.front().oom->subsystem != "julia");
  // no_grad told as the fix is the user's account, not no_grad in the program.
  const Diagnosis fixed = first(diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 23.65 GiB total capacity; 21.80 GiB already "
      "allocated; 1.10 GiB free; 22.10 GiB reserved in total by PyTorch)\n"
      "Solved: wrapping the validation loop in torch.no_grad() fixed it.\n", rules_alone()));
  EXPECT_EQ(fixed.findings.front().category, OomCause::kEvalWithoutNoGrad);
  // Batch size 1 as a flag on a line telling the failure; "reduced ... to 1" told.
  EXPECT_TRUE(evidence_holds("Setting --per_device_train_batch_size 1 still gives OOM.\nout of memory\n",
                             "fails even at batch size 1"));
  EXPECT_TRUE(evidence_holds("I reduced batch size to 1 and still got the same error.\nout of memory\n",
                             "fails even at batch size 1"));
  // An earlier run's objects told gone are no leak.
  EXPECT_FALSE(evidence_holds("The old session no longer exists when the new session starts.\nout of memory\n",
                              "an earlier run's objects kept"));
  // TensorFlow 1.x's BFC size without its rounding gives the element size; another tensor's failure
  // is a report of its own; TF 0.x's dtype and device after the shape proto.
  const Diagnosis tf1 = first(diagnose_log(
      "W Allocator (GPU_0_bfc) ran out of memory trying to allocate 256.00MiB.  Current allocation summary follows.\n"
      "ResourceExhaustedError: OOM when allocating tensor with shape[16384,8192] and type\n"));
  ASSERT_TRUE(tf1.oom.has_value());
  EXPECT_EQ(tf1.oom->requested_bytes, 256 * kMiB);
  EXPECT_EQ(tf1.oom->device, "gpu:0");
  const auto two = diagnose_log(
      "ResourceExhaustedError: OOM when allocating tensor with shape[1024,1024] and type float\n"
      "ResourceExhaustedError: OOM when allocating tensor with shape[4096,4096] and type float\n");
  EXPECT_EQ(two.size(), 2u);
  const Diagnosis tf0 = first(diagnose_log(
      "W Resource exhausted: OOM when allocating tensor with shape dim { size: 64 } dim { size: 1024 } and type half on /gpu:0\n"));
  ASSERT_TRUE(tf0.oom.has_value());
  EXPECT_EQ(tf0.oom->dtype, "half");
  EXPECT_EQ(tf0.oom->device, "gpu:0");
  EXPECT_EQ(tf0.oom->requested_bytes, 64 * 1024 * 2);
  // "@travis" is a person; CuPy names an accelerator; Lightning's CUDAAccelerator() is no HF Accelerate.
  EXPECT_FALSE(evidence_holds("Thanks @travis for the report.\nThe run goes out of memory.\n", "CI runner"));
  EXPECT_FALSE(evidence_holds("We compute with dask over cupy arrays.\nThe run goes out of memory.\n", "CI runner"));
  EXPECT_NE(first(diagnose_log("trainer = Trainer(accelerator=CUDAAccelerator())\nRuntimeError: CUDA out of memory. "
                               "Tried to allocate 2.00 GiB\n")).framework,
            "accelerate");
}

// ClickHouse's memory tracker: a query's limit is its cap (other), the server's total is host RAM.
TEST(DiagnoseKinds31, ClickHouseMemoryLimit) {
  const Diagnosis query = first(diagnose_log(
      "Code: 241. DB::Exception: Memory limit (for query) exceeded: would use 9.32 GiB (attempt to allocate chunk of "
      "4194304 bytes), maximum: 9.31 GiB.: While executing AggregatingTransform. (MEMORY_LIMIT_EXCEEDED)\n",
      rules_alone()));
  ASSERT_TRUE(query.oom.has_value());
  EXPECT_EQ(query.oom->subsystem, "clickhouse");
  EXPECT_EQ(query.oom->requested_bytes, 4194304);
  ASSERT_TRUE(query.oom->allowed_bytes.has_value());
  EXPECT_NEAR(static_cast<double>(*query.oom->allowed_bytes), 9.31 * kGiB, 0.005 * kGiB);
  EXPECT_EQ(query.findings.front().category, OomCause::kOther);
  const Diagnosis total = first(diagnose_log(
      "DB::Exception: Memory limit (total) exceeded: would use 28.01 GiB (attempt to allocate chunk of 8388608 bytes), "
      "maximum: 28.00 GiB. (MEMORY_LIMIT_EXCEEDED)\n",
      rules_alone()));
  EXPECT_EQ(total.findings.front().category, OomCause::kCpuRam);
}

// held37's kinds (made-up inputs).
TEST(DiagnoseKinds32, StacksAndTheirBuffers) {
  // llama.cpp naming the KV cache's buffer: the context, not the weights.
  const Diagnosis kv = first(diagnose_log(
      "E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 0: cudaMalloc failed: out of memory\n"
      "E alloc_tensor_range: failed to allocate CUDA0 buffer of size 8589934592\n"
      "E llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache\n",
      rules_alone()));
  ASSERT_FALSE(kv.findings.empty());
  EXPECT_EQ(kv.findings.front().category, OomCause::kGenerationKvCache);
  // No torch, and TensorFlow's predict or an ONNX Runtime session: no evaluation graph is kept.
  const Diagnosis keras = first(diagnose_log(
      "ResourceExhaustedError in predict_function\nprob = model.predict(volume)\nGraph execution error: OOM\n",
      rules_alone()));
  EXPECT_EQ(keras.framework, "tensorflow");
  for (const Finding& f : keras.findings) EXPECT_NE(f.category, OomCause::kEvalWithoutNoGrad);
  const Diagnosis ort = first(diagnose_log(
      "Memory grows with every inference call of Ort::Session::Run() in onnxruntime until it runs out of memory.\n",
      rules_alone()));
  for (const Finding& f : ort.findings) EXPECT_NE(f.category, OomCause::kEvalWithoutNoGrad);
  // With torch named, inference without no_grad stays a candidate.
  const Diagnosis torch_eval = first(diagnose_log(
      "import torch\npreds = model.predict(batch)\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
      rules_alone()));
  bool eval = false;
  for (const Finding& f : torch_eval.findings) eval = eval || f.category == OomCause::kEvalWithoutNoGrad;
  EXPECT_TRUE(eval);
  // A notebook merely named is no other process; a kernel holding the GPU is.
  EXPECT_FALSE(evidence_holds("I reused the jupyter notebook from the docs.\nout of memory\n", "other jobs on the GPU"));
  EXPECT_TRUE(evidence_holds("Another jupyter kernel still holds the GPU.\nout of memory\n", "other jobs on the GPU",
                             OomCause::kOtherProcess));
  // GPUs of unequal memory given equal shares.
  EXPECT_TRUE(evidence_holds("The model is split half-by-half across two GPUs with different VRAM.\nout of memory\n",
                             "GPUs of unequal memory given equal shares", OomCause::kMultiGpuImbalance));
}

// review37's findings, mended.
TEST(DiagnoseKinds32, Review37Mends) {
  // TensorFlow's exception names the framework only where nothing else does, and only opening its line.
  EXPECT_EQ(first(diagnose_log("Coming from TensorFlow's ResourceExhaustedError, now in PyTorch:\nRuntimeError: CUDA out "
                               "of memory. Tried to allocate 512.00 MiB\n")).framework,
            "pytorch");
  EXPECT_EQ(first(diagnose_log("def train_function(model):\n    pass\nRuntimeError: CUDA out of memory. Tried to allocate "
                               "512.00 MiB\n")).framework,
            "pytorch");
  // ClickHouse's newer wording, and a chunk printed with a unit.
  const Diagnosis ch = first(diagnose_log(
      "Code: 241. DB::Exception: (total) memory limit exceeded: would use 30.01 GiB (attempt to allocate chunk of 4.00 MiB "
      "bytes), current RSS: 29.9 GiB, maximum: 30.00 GiB. (MEMORY_LIMIT_EXCEEDED)\n",
      rules_alone()));
  ASSERT_TRUE(ch.oom.has_value());
  EXPECT_EQ(ch.oom->subsystem, "clickhouse");
  EXPECT_EQ(ch.oom->requested_bytes, 4 * kMiB);
  // llama.cpp's KV-cache line only as its own output, not in a sentence.
  EXPECT_FALSE(evidence_holds("I did not see 'failed to allocate buffer for kv cache' this time.\n"
                              "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9000.00 MiB on device 0: cudaMalloc "
                              "failed: out of memory\n",
                              "KV cache's buffer"));
  // A function's own record above a failure is not glued into its quoted message.
  const Diagnosis glued = first(diagnose_log(
      "llama_kv_cache_init:      CUDA0 KV buffer size =  4096.00 MiB\n"
      "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9000.00 MiB on device 0: cudaMalloc failed: out of memory\n",
      rules_alone()));
  ASSERT_TRUE(glued.oom.has_value());
  EXPECT_EQ(glued.oom->message.find("kv_cache_init"), std::string::npos) << glued.oom->message;
  // Jupyter named without a word of holding; unequal GPUs denied.
  EXPECT_FALSE(evidence_holds("The Jupyter kernel died. I closed all notebooks.\nout of memory\n", "other jobs on the GPU"));
  EXPECT_FALSE(evidence_holds("I split it half-by-half across two GPUs with the same VRAM, no different VRAM here.\n"
                              "out of memory\n",
                              "GPUs of unequal memory"));
}

// held38's kinds (made-up inputs).
TEST(DiagnoseKinds32, BeamsAndObjectCollectives) {
  // More beams, more memory: the KV cache of each beam, not a leak.
  EXPECT_TRUE(evidence_holds("When I raise num_beams to 8 the GPU memory keeps increasing until it runs out.\nout of memory\n",
                             "each beam keeps its own KV cache", OomCause::kGenerationKvCache));
  // An object collective in the traceback: every rank's data on the current device.
  const Diagnosis gather = first(diagnose_log(
      "Traceback (most recent call last):\n"
      "  File \"eval.py\", line 40, in evaluate\n"
      "    results = all_gather(preds)\n"
      "  File \"dist.py\", line 12, in all_gather\n"
      "    torch.distributed.all_gather_object(out, data)\n"
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
      rules_alone()));
  ASSERT_FALSE(gather.findings.empty());
  EXPECT_EQ(gather.findings.front().category, OomCause::kMultiGpuImbalance);
  // Named in a sentence it is no traceback.
  EXPECT_FALSE(evidence_holds("Checkpointing fails with OOM during dist.gather_object() in the planner, in words.\n"
                              "out of memory\n",
                              "an object collective"));
}

// review38's findings, mended.
TEST(DiagnoseKinds32, Review38Mends) {
  const std::string oom = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  // num_beams named is no raise; 128 of them is a large beam search.
  EXPECT_FALSE(evidence_holds("Setup: T5-large, num_beams=4 for generation.\n" + oom, "KV cache"));
  EXPECT_TRUE(evidence_holds("gen = model.generate(**batch, num_beams=128)\n" + oom, "logged num_beams=128",
                             OomCause::kGenerationKvCache));
  EXPECT_FALSE(evidence_holds("I reduced num_beams to 1 and the GPU memory still kept increasing.\n" + oom,
                              "more beams, more memory"));
  // A user's function named like a collective, a comment, or a log that calls set_device.
  const std::string tb = "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n";
  EXPECT_FALSE(evidence_holds(tb + "    res = myutils.gather_objects_safe(x)\n" + oom, "an object collective"));
  EXPECT_FALSE(evidence_holds(tb + "    # dist.all_gather_object(out, x)\n" + oom, "an object collective"));
  EXPECT_FALSE(evidence_holds("torch.cuda.set_device(local_rank)\n" + tb + "    dist.all_gather_object(out, x)\n" + oom,
                              "an object collective"));
  EXPECT_TRUE(evidence_holds(tb + "    dist.all_gather_object(out, x)\n" + oom, "an object collective",
                             OomCause::kMultiGpuImbalance));
}

// MLX's allocators and llama.cpp's loader and CPU buffers, as they print them.
TEST(DiagnoseKinds33, MlxAndLlamaCppBuffers) {
  // A buffer above Metal's maxBufferLength: the request and the per-buffer limit.
  const Diagnosis big = first(diagnose_log(
      "RuntimeError: [metal::malloc] Attempting to allocate 134668044288 bytes which is greater than the maximum allowed "
      "buffer size of 86586540032 bytes.\n",
      rules_alone()));
  ASSERT_TRUE(big.oom.has_value());
  EXPECT_EQ(big.oom->family, "device_alloc");
  EXPECT_EQ(big.oom->subsystem, "mlx");
  EXPECT_EQ(big.oom->device, "mps");
  EXPECT_EQ(big.oom->requested_bytes, 134668044288);
  EXPECT_EQ(big.oom->max_allocation_bytes, 86586540032);
  ASSERT_FALSE(big.findings.empty());
  EXPECT_EQ(big.findings.front().category, OomCause::kOther);
  // The older and the newer device allocator's words; the count of buffers is no size.
  const Diagnosis old = first(diagnose_log(
      "libc++abi: terminating due to uncaught exception of type std::runtime_error: [malloc_or_wait] Unable to allocate "
      "4294967296 bytes.\n"));
  ASSERT_TRUE(old.oom.has_value());
  EXPECT_EQ(old.oom->subsystem, "mlx");
  EXPECT_EQ(old.oom->requested_bytes, int64_t{4} << 30);
  const Diagnosis count = first(diagnose_log("RuntimeError: [metal::malloc] Resource limit (499000) exceeded.\n", rules_alone()));
  ASSERT_TRUE(count.oom.has_value());
  EXPECT_FALSE(count.oom->requested_bytes.has_value());
  ASSERT_FALSE(count.findings.empty());
  EXPECT_EQ(count.findings.front().category, OomCause::kOther);
  // A sentence about MLX's words is no report.
  EXPECT_TRUE(parse_oom_log("Is '[malloc] unable to allocate' ever raised on CUDA?\n").empty());
  // llama.cpp's loader: a device's buffer type is the weights on the device, the CPU's is host RAM.
  const Diagnosis gpu = first(diagnose_log(
      "Error: 500 Internal Server Error: llama runner process has terminated: error loading model: unable to allocate "
      "CUDA0 buffer\n",
      rules_alone()));
  ASSERT_TRUE(gpu.oom.has_value());
  EXPECT_EQ(gpu.oom->device, "cuda:0");
  ASSERT_FALSE(gpu.findings.empty());
  EXPECT_EQ(gpu.findings.front().category, OomCause::kStaticModelTooLarge);
  const Diagnosis cpu = first(diagnose_log(
      "ggml_aligned_malloc: insufficient memory (attempted to allocate 24576.00 MB)\n"
      "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 25769803776\n"
      "llama_model_load: error loading model: unable to allocate CPU buffer\n",
      rules_alone()));
  ASSERT_TRUE(cpu.oom.has_value());
  EXPECT_EQ(cpu.oom->family, "host_alloc");
  EXPECT_EQ(cpu.oom->requested_bytes, int64_t{24576} << 20);
  ASSERT_FALSE(cpu.findings.empty());
  EXPECT_EQ(cpu.findings.front().category, OomCause::kCpuRam);
  EXPECT_EQ(diagnose_log("ggml_aligned_malloc: insufficient memory (attempted to allocate 24576.00 MB)\n"
                         "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 25769803776\n")
                .size(),
            1u);
  // The CPU buffer llama.cpp then names as its KV cache's: the cache first, host RAM listed; no
  // dense-array fix for ggml's 64 GiB.
  const Diagnosis kv = first(diagnose_log(
      "llama_new_context_with_model: n_ctx      = 524288\n"
      "ggml_aligned_malloc: insufficient memory (attempted to allocate 65536.00 MB)\n"
      "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 68719476736\n"
      "llama_kv_cache_init: failed to allocate buffer for kv cache\n",
      rules_alone()));
  ASSERT_GE(kv.findings.size(), 2u);
  EXPECT_EQ(kv.findings.front().category, OomCause::kGenerationKvCache);
  EXPECT_EQ(kv.findings[1].category, OomCause::kCpuRam);
  EXPECT_EQ(kv.findings[1].fix.find("dense"), std::string::npos) << kv.findings[1].fix;
  // The graph allocator's wording without a buffer type's function before it is not ggml's.
  EXPECT_TRUE(parse_oom_log("We failed to allocate buffer of size 1024 in our own pool.\n").empty());
}

// held39's kinds: memory trouble told in other words, a notebook's kernel dying, the zh leak,
// XLA's pool lowered as the fix, TensorFlow's CPU tensor, the kernel's words quoted beside a GPU.
TEST(DiagnoseKinds33, Held39Kinds) {
  // All of the memory taken, in words: a report on the host when the machine's memory is named.
  const std::vector<OomRecord> none = parse_oom_log("it using all machine's memory(>200G)\n");
  EXPECT_TRUE(none.empty());
  const std::optional<OomRecord> all = mentioned_oom("when training, it using all machine's memory(>200G)\n");
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->device, "cpu");
  EXPECT_FALSE(mentioned_oom("TensorFlow uses all GPU memory by default.\n").has_value());
  // zh: memory overloaded.
  EXPECT_TRUE(mentioned_oom("\xe5\xaf\xbc\xe8\x87\xb4\xe6\x9c\xac\xe5\x9c\xb0\xe6\xb5\x8b\xe8\xaf\x95\xe5\x86\x85\xe5\xad\x98"
                            "\xe8\xbf\x87\xe8\xbd\xbd\n")
                  .has_value());  // 导致本地测试内存过载
  // A notebook's kernel dying: Jupyter's dialog anywhere; in other words only where a notebook is
  // named, and not a CUDA kernel.
  const std::optional<OomRecord> died = mentioned_oom("The kernel appears to have died. It will restart automatically.\n");
  ASSERT_TRUE(died.has_value());
  EXPECT_EQ(died->family, "mentioned");  // the likely reason, not a kill the log shows
  EXPECT_EQ(died->device, "cpu");
  EXPECT_TRUE(mentioned_oom("In Jupyter Notebook:\nthe kernel dies while filling up the shuffle buffer\n").has_value());
  EXPECT_FALSE(mentioned_oom("the kernel dies while filling up the shuffle buffer\n").has_value());
  EXPECT_FALSE(mentioned_oom("In Jupyter Notebook:\nthe CUDA kernel crashed with an illegal instruction\n").has_value());
  // zh: a leak of the memory told (内存泄漏) reads as "memory leak" does; denied (未出现) it does not.
  EXPECT_TRUE(evidence_holds("cpu\xe7\x89\x88\xe6\x9c\xac\xe6\x9c\x89\xe5\x86\x85\xe5\xad\x98\xe6\xb3\x84\xe6\xbc\x8f\n",
                             "memory grows step after step", OomCause::kLeakAcrossSteps));  // cpu版本有内存泄漏
  EXPECT_FALSE(evidence_holds("out of memory\n\xe4\xbf\xae\xe6\x94\xb9\xe5\x90\x8e\xef\xbc\x8c\xe6\x9c\xaa\xe5\x87\xba\xe7\x8e\xb0"
                              "\xe5\x86\x85\xe5\xad\x98\xe6\xb3\x84\xe6\xbc\x8f\n",
                              "memory grows step after step"));  // 修改后，未出现内存泄漏
  // XLA's pool lowered as the fix: what runs beside it in the process needed the memory.
  const Diagnosis xla = first(diagnose_log(
      "NCCL out of memory on dual 2080ti training\n"
      "Setting env variable XLA_PYTHON_CLIENT_MEM_FRACTION=0.85 fixed the problem on the 2080Ti system.\n",
      rules_alone()));
  ASSERT_FALSE(xla.findings.empty());
  EXPECT_EQ(xla.findings.front().category, OomCause::kOther);
  // TensorFlow's CPU device failing a tensor of the step: host RAM first, its batch and length next.
  const Diagnosis tf = first(diagnose_log(
      "ResourceExhaustedError (see above for traceback): OOM when allocating tensor with shape[1024,98,98] and type float on "
      "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu\n",
      rules_alone()));
  ASSERT_GE(tf.findings.size(), 3u);
  EXPECT_EQ(tf.findings[0].category, OomCause::kCpuRam);
  EXPECT_EQ(tf.findings[1].category, OomCause::kActivationsBatch);
  // The kernel's words quoted beside the GPU are the user's naming, not ENOMEM printed; printed they are.
  const std::string quoted =
      "I ran it on a tesla K40 GPU with 12G video ram but still encountered \"cannot allocate memory\" error.\n";
  EXPECT_TRUE(parse_oom_log(quoted).empty());
  ASSERT_TRUE(mentioned_oom(quoted).has_value());
  EXPECT_EQ(mentioned_oom(quoted)->device, "cuda");
  EXPECT_FALSE(evidence_holds(quoted, "host RAM:"));
  const std::vector<OomRecord> printed = parse_oom_log("OSError: [Errno 12] Cannot allocate memory\n");
  ASSERT_EQ(printed.size(), 1u);
  EXPECT_EQ(printed.front().subsystem, "enomem");
}

// review39's findings, mended.
TEST(DiagnoseKinds33, Review39Mends) {
  // Denied, explained as a default, or told another cause: no report.
  for (const char* text : {"It doesn't use all the RAM, only 4GB of 64GB.\n",
                           "After upgrading to 2.1 it no longer eats up all the RAM. Thanks, closing.\n",
                           "vLLM takes all the GPU memory because gpu_memory_utilization defaults to 0.9.\n",
                           "There is no memory leak; memory stays flat at 8 GB.\n",
                           "\xe8\xbf\x99\xe6\xac\xa1\xe6\xb2\xa1\xe6\x9c\x89\xe5\x86\x85\xe5\xad\x98\xe8\xbf\x87\xe8\xbd\xbd\n",  // 这次没有内存过载
                           "\xe6\x8e\xa8\xe7\x90\x86\xe6\x97\xb6\xe6\xb2\xa1\xe6\x9c\x89\xe5\x87\xba\xe7\x8e\xb0\xe5\x86\x85\xe5\xad\x98"
                           "\xe6\xb3\x84\xe6\xbc\x8f\n",  // 推理时没有出现内存泄漏
                           "After the fix, the Jupyter kernel no longer dies. Closing.\n",
                           "I am on Colab. The kernel keeps dying: Kernel restarted due to a CUDA error: device-side assert.\n",
                           "Jupyter on Ubuntu: the nvidia kernel module crashes and nvidia-smi finds no devices.\n"}) {
    EXPECT_FALSE(mentioned_oom(text).has_value()) << text;
  }
  // Told in other words: usage at 100%, all of a size, used up.
  EXPECT_TRUE(mentioned_oom("RAM usage goes to 100% while tokenizing the dataset, then the process is gone.\n").has_value());
  EXPECT_TRUE(mentioned_oom("Memory usage keeps climbing until it uses all 64GB and the machine locks up.\n").has_value());
  // Colab's own notice is the host's; a killed program in zh (被杀掉) is the kill.
  const std::optional<OomRecord> colab = mentioned_oom("Your session crashed after using all available RAM.\n");
  ASSERT_TRUE(colab.has_value());
  EXPECT_EQ(colab->device, "cpu");
  // Jupyter's dialog under its title: the sentence that tells the death.
  const std::optional<OomRecord> dialog =
      mentioned_oom("Kernel Restarting\nThe kernel for train.ipynb appears to have died. It will restart automatically.\n");
  ASSERT_TRUE(dialog.has_value());
  EXPECT_EQ(dialog->line, 2);
  // A title naming the OOM on no device takes the device of the body's line naming it.
  const std::optional<OomRecord> titled =
      mentioned_oom("train.py dies with OutOfMemoryError\nThe train script dies with OutOfMemoryError in opencv allocation.\n");
  ASSERT_TRUE(titled.has_value());
  EXPECT_EQ(titled->line, 1);
  EXPECT_EQ(titled->device, "cpu");
  // A raised XLA fraction is no pool starving what runs beside it; a lowered one is.
  const std::string xla = "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate "
                          "2147483648 bytes.\n";
  EXPECT_FALSE(evidence_holds(xla + "I raised the env variable XLA_PYTHON_CLIENT_MEM_FRACTION=.95 and it works now on my system.\n",
                              "the user's account", OomCause::kOther));
  EXPECT_TRUE(evidence_holds(xla + "Setting env variable XLA_PYTHON_CLIENT_MEM_FRACTION=0.5 fixed the problem on my system.\n",
                             "the user's account", OomCause::kOther));
  // XLA's CPU device is the host.
  const std::vector<OomRecord> xla_cpu = parse_oom_log(
      "ResourceExhaustedError: OOM when allocating tensor with shape[1024,1024,1024] and type float on "
      "/job:localhost/replica:0/task:0/device:XLA_CPU:0 by allocator cpu\n");
  ASSERT_EQ(xla_cpu.size(), 1u);
  EXPECT_EQ(xla_cpu.front().device, "cpu:0");
  // MLX: "[malloc]" on Metal; the buffer-size words wrapped, or quoted without the tag; a command
  // line before the error is not the error's.
  const std::vector<OomRecord> plain = parse_oom_log("python -m mlx_lm.generate --model m\nRuntimeError: [malloc] Unable to allocate 1073741824 bytes.\n");
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain.front().device, "mps");
  EXPECT_EQ(plain.front().message.find("mlx_lm"), std::string::npos) << plain.front().message;
  const std::vector<OomRecord> wrapped = parse_oom_log(
      "RuntimeError: [metal::malloc] Attempting to allocate 21474836480 bytes which is greater than the\n"
      "maximum allowed buffer size of 17179869184 bytes.\n");
  ASSERT_EQ(wrapped.size(), 1u);
  EXPECT_EQ(wrapped.front().max_allocation_bytes, int64_t{16} << 30);
  const std::vector<OomRecord> untagged = parse_oom_log(
      "Using mlx I get: Attempting to allocate 21474836480 bytes which is greater than the maximum allowed buffer size of "
      "17179869184 bytes. Any ideas?\n");
  ASSERT_EQ(untagged.size(), 1u);
  EXPECT_EQ(untagged.front().requested_bytes, int64_t{20} << 30);
  // llama.cpp's CPU buffer type alone keeps its size; the loader's line after it is the same report.
  const std::vector<OomRecord> cpu = parse_oom_log(
      "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 34359738368\n"
      "llama_model_load: error loading model: unable to allocate CPU buffer\n");
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu.front().requested_bytes, int64_t{32} << 30);
  // ENOMEM's words quoted beside a GPU but with errno 12 or the host named stay the host's.
  const std::vector<OomRecord> host = parse_oom_log(
      "On an A100 with 80GB of GPU memory, torch.load says \"Cannot allocate memory (12)\"; the host has 16GB.\n");
  ASSERT_EQ(host.size(), 1u);
  EXPECT_EQ(host.front().subsystem, "enomem");
}

// held40's kinds: a list growing on the GPU, CUDA contexts in worker processes, llama.cpp's split
// told off, two models at once in other words, a per-allocation limit the message says was passed.
TEST(DiagnoseKinds33, Held40Kinds) {
  const std::string oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  EXPECT_TRUE(evidence_holds("Removing the cpu() call allows a large list to grow on gpu, eventually causing OOM.\n" + oom,
                             "a list of the run's tensors", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("The list of outputs does not grow on the gpu any more.\n" + oom, "a list of the run's tensors"));
  // "GPU->CPU memory transfer" is a copy, not the host's memory.
  EXPECT_FALSE(evidence_holds(oom + "This can be fixed by moving the gather, which performs GPU->CPU memory transfer, to update.\n",
                              "the user's account", OomCause::kCpuRam));
  EXPECT_TRUE(evidence_holds("Constructing the backend called torch.cuda.set_device, creating a ~520 MiB CUDA context in every "
                             "worker.\n" + oom,
                             "CUDA contexts in worker processes", OomCause::kOtherProcess));
  EXPECT_FALSE(evidence_holds("Workers now skip CUDA setup without creating a context.\n" + oom, "CUDA contexts in worker"));
  EXPECT_TRUE(evidence_holds("Misc. bug: tensor split drifts from requested -ts ratio and results in OOM\n" + oom,
                             "split over the devices", OomCause::kMultiGpuImbalance));
  EXPECT_TRUE(evidence_holds(oom + "There is just not enough memory for both the Whisper and the alignment model.\n",
                             "two models' weights", OomCause::kStaticModelTooLarge));
  // "persistent workers" are no persistent arrays.
  EXPECT_FALSE(evidence_holds("The loaders run with persistent workers and each step uses the same memory.\n" + oom,
                              "arrays / references told kept"));
  // The message saying the per-allocation limit was passed puts the cap first, before a KV cache
  // allocated earlier.
  const Diagnosis vk = first(diagnose_log(
      "llama_kv_cache_unified:    Vulkan0 KV buffer size =  6564.00 MiB\n"
      "ggml_vulkan: Device memory allocation of size 4757131264 failed.\n"
      "ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory\n",
      rules_alone()));
  ASSERT_FALSE(vk.findings.empty());
  EXPECT_EQ(vk.findings.front().category, OomCause::kOther);
}

// review40's findings, mended.
TEST(DiagnoseKinds33, Review40Mends) {
  const std::string oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  // A list of other things, or growing with the batch or the layers, is no list of the run's tensors.
  for (const char* line : {"The list of supported GPUs grows with every release; ours is on it.\n",
                           "The list of layers grows on the GPU as I add more transformer blocks.\n",
                           "A large list of tensors on the GPU grows when I increase the batch size from 8 to 64.\n",
                           "We blacklist nodes and the blacklist grows on gpu nodes.\n",
                           "If we kept the outputs, the list would grow on the GPU.\n"}) {
    EXPECT_FALSE(evidence_holds(line + oom, "a list of the run's tensors")) << line;
  }
  // CUDA contexts in workers told avoided, by design or as documentation: no reading.
  for (const char* line : {"In the docs: 'creating a CUDA context in every worker wastes memory', so we use num_workers=0.\n",
                           "Creating a CUDA context in every worker is what vLLM does on purpose: one worker per GPU.\n",
                           "We avoid creating a CUDA context in each worker.\n"}) {
    EXPECT_FALSE(evidence_holds(line + oom, "CUDA contexts in worker")) << line;
  }
  // A shortage for two models told in a full sentence is read; plenty of memory, or loading them one
  // at a time, is not.
  EXPECT_TRUE(evidence_holds(oom + "There is not enough memory for both the Whisper and the alignment model.\n",
                             "two models' weights", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds(oom + "There is plenty of memory for both the Whisper and the alignment model.\n",
                              "two models' weights"));
  EXPECT_FALSE(evidence_holds(oom + "We don't load all models at the same time.\n", "two models' weights"));
  // A copy to the host told in a fix is no account of host RAM, however it is spelled.
  EXPECT_FALSE(evidence_holds(oom + "Fix: reduce device-to-host memory transfers; we now copy to host memory only at the end.\n",
                              "the user's account", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds(oom + "Fix: fewer gpu -> cpu memory transfers; host memory copies only at epoch end.\n",
                              "the user's account", OomCause::kCpuRam));
  // The per-allocation limit passed ranks first at medium, not high.
  const Diagnosis vk = first(diagnose_log(
      "ggml_vulkan: Device memory allocation of size 4757131264 failed.\n"
      "ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory\n",
      rules_alone()));
  ASSERT_FALSE(vk.findings.empty());
  EXPECT_EQ(vk.findings.front().category, OomCause::kOther);
  EXPECT_LT(vk.findings.front().score, 0.75);
}

// PyTorch 2.x's "this process has X" covering all the device holds but the free: the memory outside
// the caching allocator is this process's other libraries', not other processes' (review40).
TEST(DiagnoseKinds33, OutsideTheAllocatorInsideThisProcess) {
  const Diagnosis d = first(diagnose_log(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 79.15 GiB "
      "of which 210.00 MiB is free. Including non-PyTorch memory, this process has 78.90 GiB memory in use. Of the "
      "allocated memory 48.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\n",
      rules_alone()));
  bool other = false, other_process = false;
  for (const Finding& f : d.findings) {
    other = other || (f.category == OomCause::kOther && f.title.find("other libraries") != std::string::npos);
    other_process = other_process || (f.category == OomCause::kOtherProcess && f.score >= 0.5);
  }
  EXPECT_TRUE(other);
  EXPECT_FALSE(other_process);
}

// held41's kinds: markdown bold around a size, Metal's buffer validation, an error-check macro's
// CUDA error 2, AMReX's arena, MemoryError and the memory "out" in prose, zh kept on the GPU.
TEST(DiagnoseKinds33, Held41Kinds) {
  const std::vector<OomRecord> bold = parse_oom_log(
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate **137.36 GiB.** GPU 0 has a total capacity of "
      "47.54 GiB of which 44.17 GiB is free.\n");
  ASSERT_EQ(bold.size(), 1u);
  ASSERT_TRUE(bold.front().requested_bytes.has_value());
  EXPECT_NEAR(static_cast<double>(*bold.front().requested_bytes), 137.36 * kGiB, 0.005 * kGiB);
  const std::vector<OomRecord> metal = parse_oom_log(
      "-[MTLDebugDevice newBufferWithBytesNoCopy:length:options:deallocator:]:700: failed assertion `Buffer Validation\n"
      "newBufferWith*:length 0x86004000 must not exceed 2048 MB.\n");
  ASSERT_EQ(metal.size(), 1u);
  EXPECT_EQ(metal.front().requested_bytes, 0x86004000);
  EXPECT_EQ(metal.front().max_allocation_bytes, int64_t{2048} << 20);
  EXPECT_TRUE(parse_oom_log("The rule is that a batch must not exceed 2048 MB.\n").empty());
  const Diagnosis amrex = first(diagnose_log(
      "amrex::Abort::0::CUDA error 2 in file ../../../../amrex/Src/Base/AMReX_Arena.cpp line 169: out of memory !!!\n",
      rules_alone()));
  ASSERT_TRUE(amrex.oom.has_value());
  EXPECT_EQ(amrex.oom->family, "cuda_error_oom");
  ASSERT_FALSE(amrex.findings.empty());
  EXPECT_EQ(amrex.findings.front().category, OomCause::kOther);
  EXPECT_TRUE(parse_oom_log("CUDA error 2 in file kernel.cu line 3: invalid argument\n").empty());
  EXPECT_TRUE(mentioned_oom("I'm trying to get data, but keep getting MemoryError.\n").has_value());
  EXPECT_TRUE(mentioned_oom("when i run the test detection, the gpu memory is out.\n").has_value());
  // zh: intermediate results told kept on the GPU (怀疑是保存了一些中间量在gpu上，导致显存不足).
  EXPECT_TRUE(evidence_holds("\xe6\x80\x80\xe7\x96\x91\xe6\x98\xaf\xe4\xbf\x9d\xe5\xad\x98\xe4\xba\x86\xe4\xb8\x80\xe4\xba\x9b"
                             "\xe4\xb8\xad\xe9\x97\xb4\xe9\x87\x8f\xe5\x9c\xa8gpu\xe4\xb8\x8a\xef\xbc\x8c\xe5\xaf\xbc\xe8\x87\xb4"
                             "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3\n"
                             "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                             "tensors told kept on the GPU", OomCause::kLeakAcrossSteps));
}

// review41's findings, mended.
TEST(DiagnoseKinds33, Review41Mends) {
  // This process's non-PyTorch memory and other processes' weighed each by its own size, without a
  // step at an edge: 1.05 GiB outside this process cannot explain a 2 GiB request.
  const Diagnosis edge = first(diagnose_log(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of "
      "which 500.00 MiB is free. Including non-PyTorch memory, this process has 77.60 GiB memory in use. Of the allocated "
      "memory 60.10 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\n",
      rules_alone()));
  ASSERT_FALSE(edge.findings.empty());
  EXPECT_EQ(edge.findings.front().category, OomCause::kOther);
  for (const Finding& f : edge.findings) EXPECT_NE(f.category, OomCause::kOtherProcess);
  // MemoryError or the memory "out" in a sentence: not denied, asked, supposed, "out of date", or code.
  for (const char* text : {"If you keep getting MemoryError, try reducing the chunk size.\n",
                           "I no longer get a MemoryError after the fix.\n",
                           "The gpu memory out of date warning shows on start.\n",
                           "Do you keep getting MemoryError too?\n"}) {
    EXPECT_FALSE(mentioned_oom(text).has_value()) << text;
  }
  // zh: parameters or a dataset kept on the GPU, or the keeping denied, are no leak.
  EXPECT_FALSE(evidence_holds("\xe6\xa8\xa1\xe5\x9e\x8b\xe5\x8f\x82\xe6\x95\xb0\xe4\xbf\x9d\xe5\xad\x98\xe5\x9c\xa8gpu\xe4\xb8\x8a\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                              "tensors told kept on the GPU"));  // 模型参数保存在gpu上
  EXPECT_FALSE(evidence_holds("\xe6\x88\x91\xe4\xb8\x8d\xe4\xbf\x9d\xe5\xad\x98\xe4\xb8\xad\xe9\x97\xb4\xe7\xbb\x93\xe6\x9e\x9c"
                              "\xe5\x9c\xa8gpu\xe4\xb8\x8a\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                              "tensors told kept on the GPU"));  // 我不保存中间结果在gpu上
  // Metal's own assertion lines are not evidence; an error macro's message runs to its words; any
  // markdown around a figure is dropped.
  EXPECT_FALSE(evidence_holds("-[MTLDebugDevice newBufferWithBytesNoCopy:length:options:deallocator:]:700: failed assertion "
                              "`Buffer Validation\nnewBufferWith*:length 0x86004000 must not exceed 2048 MB.\n",
                              "long"));
  const std::vector<OomRecord> macro =
      parse_oom_log("amrex::Abort::0::CUDA error 2 in file AMReX_Arena.cpp line 169: out of memory !!!\n");
  ASSERT_EQ(macro.size(), 1u);
  EXPECT_NE(macro.front().message.find("out of memory"), std::string::npos) << macro.front().message;
  const std::vector<OomRecord> ticks = parse_oom_log(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate `2.00 GiB`. GPU 0 has a total capacity of ***23.65 GiB*** "
      "of which 1.10 GiB is free.\n");
  ASSERT_EQ(ticks.size(), 1u);
  EXPECT_EQ(ticks.front().requested_bytes, int64_t{2} << 30);
  ASSERT_TRUE(ticks.front().total_capacity_bytes.has_value());
}

// The one report parse_oom_log() finds in `text` (a test failure where it finds none or several).
OomRecord one_report(const std::string& text) {
  const std::vector<OomRecord> r = parse_oom_log(text);
  EXPECT_EQ(r.size(), 1u) << text;
  return r.empty() ? OomRecord{} : r.front();
}

// held42's kinds (tests/data/oom-corpus-held42/), each on made-up text.
TEST(DiagnoseKinds33, Held42Kinds) {
  // Kubernetes' OOMKilled as two words is the cgroup's kill, over host RAM; an accelerator's OOM
  // that "killed" a run is not.
  const std::optional<OomRecord> pod = mentioned_oom("The exporter pod keeps restarting with OOM Killed.\n");
  ASSERT_TRUE(pod.has_value());
  EXPECT_EQ(pod->family, "oom_killer");
  EXPECT_EQ(pod->device, "cpu");
  const std::optional<OomRecord> cuda = mentioned_oom("The CUDA OOM killed my training run after an hour.\n");
  ASSERT_TRUE(cuda.has_value());
  EXPECT_NE(cuda->family, "oom_killer");
  // Host-only compute named (joblib's workers, scikit-learn) and no accelerator anywhere: host RAM.
  const std::string joblib = "Out of memory\nI use joblib's Parallel to parse 100k JSON files on a 64GB machine.\n";
  EXPECT_TRUE(evidence_holds(joblib, "host-only compute", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds(joblib + "The results go to the GPU with CUDA afterwards.\n", "host-only compute"));
  // Tokens counted as they are generated: the KV cache; an input cut to a length is not.
  EXPECT_TRUE(evidence_holds("Falcon-40B inference runs out of memory\nAfter 1000 tokens, the GPU runs out of memory.\n",
                             "generated tokens", OomCause::kGenerationKvCache));
  EXPECT_FALSE(evidence_holds("CUDA out of memory\nIt still fails after truncating to 2048 tokens.\n", "generated tokens"));
  // A belief told as mistaken is no account of the fix; no_grad said in use weighs against its absence.
  EXPECT_FALSE(evidence_holds("CUDA out of memory (when using many frames)\nIt works fine with 20 images. I thought that using "
                              "`with torch.no_grad():` freed the memory every time.\n",
                              "the user's account", OomCause::kEvalWithoutNoGrad));
  // A load onto the CPU told as the fix, with DistributedDataParallel in the traceback: every rank
  // restored the checkpoint onto cuda:0; not a model too large, and not without several ranks.
  const std::string resume =
      "Cuda out of memory on resume\nLoading the model first to cpu fixes the problem:\n"
      "resume_dict = torch.load(path, map_location='cpu')\nTraceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.7/site-packages/torch/nn/parallel/distributed.py\", line 705, in forward\n"
      "    output = self.module(*inputs[0], **kwargs[0])\n"
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n";
  EXPECT_TRUE(evidence_holds(resume, "a load onto the CPU told as the fix", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds(resume, "fails while loading / placing the model"));
  EXPECT_FALSE(evidence_holds("Cuda out of memory on resume\nLoading the model first to cpu fixes the problem.\n",
                              "a load onto the CPU told as the fix"));
  EXPECT_FALSE(evidence_holds("Cuda out of memory on resume\nLoading the model to cpu did not fix it.\n"
                              "torchrun --nproc_per_node=4 train.py\n",
                              "a load onto the CPU told as the fix"));
  // Full fine-tuning with Adam of a named model whose 16-bit weights and gradients fit the named GPU
  // and whose 16 bytes per parameter do not: the optimizer state. Not with LoRA, nor when the
  // weights and gradients alone fill the GPU.
  const std::string full = "I finetune llama2-7b on one GPU (80GB) at batch size 1.\nThen I get CUDA out of memory.\n";
  EXPECT_TRUE(evidence_holds(full, "full fine-tuning of the named model", OomCause::kOptimizerState));
  EXPECT_FALSE(evidence_holds("I use LoRA with rank 8.\n" + full, "full fine-tuning of the named model"));
  EXPECT_FALSE(evidence_holds("I finetune llama2-13b on one GPU (40GB) at batch size 1.\nThen I get CUDA out of memory.\n",
                              "full fine-tuning of the named model"));
  // The Vulkan spec's descriptions of its two codes, as Rust's ash prints them, with the failing
  // call's byte count.
  const OomRecord vk = one_report(
      "Error: arena did not fit this device: backend: rebar allocate_memory(2147302400): A device memory allocation has "
      "failed\n");
  EXPECT_EQ(vk.family, "device_alloc");
  EXPECT_EQ(vk.device, "vulkan");
  EXPECT_EQ(vk.requested_bytes, 2147302400);
  const OomRecord vk_host = one_report("vkCreateBuffer: A host memory allocation has failed.\n");
  EXPECT_EQ(vk_host.subsystem, "vulkan_host");
}

// review42's findings, mended.
TEST(DiagnoseKinds33, Review42Mends) {
  // A kill denied is no kill; the CUDA OOM on the line stays the report.
  const std::optional<OomRecord> not_killed =
      mentioned_oom("The pod was not OOM Killed; it exited with code 1. CUDA out of memory appears in the log.\n");
  ASSERT_TRUE(not_killed.has_value());
  EXPECT_NE(not_killed->family, "oom_killer");
  // A load onto the CPU told as the fix ("map_location" without "load" on its line, after the
  // report), with ranks counted by torchrun, mp.spawn's nprocs or accelerate's --num_processes.
  EXPECT_TRUE(evidence_holds("torchrun --nproc_per_node=8 train.py --resume ckpt.pt\n"
                             "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB "
                             "total capacity; 76.10 GiB already allocated; 1.00 GiB free; 77.00 GiB reserved in total by "
                             "PyTorch)\nPassing map_location='cpu' to torch.load fixed it.\n",
                             "a load onto the CPU told as the fix", OomCause::kMultiGpuImbalance));
  const std::string spawn =
      "mp.spawn(train, nprocs=4)\nTraceback (most recent call last):\n  File \"train.py\", line 30, in train\n"
      "    state = torch.load(\"ckpt.pt\")\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 23.69 GiB total capacity; "
      "21.90 GiB already allocated; 500.00 MiB free; 22.10 GiB reserved in total by PyTorch)\n"
      "Loading the checkpoint to cpu first fixes it.\n";
  EXPECT_EQ(top_cause(spawn), OomCause::kMultiGpuImbalance);
  EXPECT_TRUE(evidence_holds(spawn, "(a load onto the CPU is told as the fix)", OomCause::kStaticModelTooLarge));
  // The fine-tuning arithmetic: over the GPUs counted in words where a sharding is named (FSDP; since
  // review43, not under plain DDP), against the message's capacity where it prints one (since
  // review56; before, not where the message has figures), not with SGD or an offloaded optimizer,
  // and with LoRA denied.
  EXPECT_TRUE(evidence_holds("Full fine-tuning of Llama-2-13B with FSDP on 2x A100 80GB: CUDA out of memory.\n",
                             "full fine-tuning of the named model", OomCause::kOptimizerState));
  EXPECT_TRUE(evidence_holds("Full fine-tuning of Llama-2-7B without LoRA on one A100 80GB: CUDA out of memory.\n",
                             "full fine-tuning of the named model", OomCause::kOptimizerState));
  EXPECT_FALSE(evidence_holds("Full fine-tuning of Llama-2-7B with plain SGD on one A100 80GB: CUDA out of memory.\n",
                              "full fine-tuning of the named model"));
  EXPECT_TRUE(evidence_holds("Full fine-tuning of Llama-2-7B on one A100 80GB:\n"
                             "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB "
                             "total capacity; 78.10 GiB already allocated; 20.00 MiB free; 78.20 GiB reserved in total by "
                             "PyTorch)\n",
                             "per GPU of 79.15 GiB", OomCause::kOptimizerState));
  // scikit-learn by its own name; cuML (RAPIDS, on the GPU) named is an accelerator.
  EXPECT_TRUE(evidence_holds("My scikit-learn pipeline runs out of memory when fitting a RandomForest on 10M rows.\n",
                             "host-only compute", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("Swapped sklearn for cuML's RandomForest; now it runs out of memory on the device.\n",
                              "host-only compute"));
  // Tokens of something else are no generated tokens; tokens of sampling are; a rate is no length.
  EXPECT_FALSE(evidence_holds("Fine-tuning: after 2000 tokens per sequence the GPU runs out of memory.\n", "generated tokens"));
  EXPECT_FALSE(evidence_holds("OOM after 4096 tokens in the prompt; generation never starts.\n", "generated tokens"));
  EXPECT_TRUE(evidence_holds("It runs out of memory after 3000 tokens of sampling in my decoding loop.\n", "generated tokens",
                             OomCause::kGenerationKvCache));
  EXPECT_FALSE(evidence_holds("Training runs at 1000 tokens/s; after 20 minutes the GPU runs out of memory.\n", "a long input"));
  // A remedy told as already in use is not the fix.
  EXPECT_FALSE(evidence_holds("CUDA out of memory during validation. I already use torch.no_grad(), and reducing the eval "
                              "batch size fixed it.\n",
                              "the user's account", OomCause::kEvalWithoutNoGrad));
  // Vulkan: the last call before the words, never a hex count as 0; ash's and vulkano's Debug forms.
  const OomRecord two = one_report(
      "allocate_memory(1048576) ok; allocate_memory(4294967296) failed: A device memory allocation has failed.\n");
  EXPECT_EQ(two.requested_bytes, int64_t{4} << 30);
  const OomRecord hex = one_report("allocate_memory(0x40000000) -> A device memory allocation has failed.\n");
  EXPECT_FALSE(hex.requested_bytes.has_value());
  for (const char* text : {"called `Result::unwrap()` on an `Err` value: ERROR_OUT_OF_DEVICE_MEMORY\n",
                           "Err(OomError(OutOfDeviceMemory))\n"}) {
    const OomRecord r = one_report(text);
    EXPECT_EQ(r.device, "vulkan") << text;
  }
  // joblib's loky executor: a worker killed by the OS for its memory.
  const OomRecord loky = one_report(
      "joblib.externals.loky.process_executor.TerminatedWorkerError: A worker process managed by the executor was "
      "unexpectedly terminated. This could be caused by a segmentation fault while calling the function or by an excessive "
      "memory usage causing the Operating System to kill the worker.\n");
  EXPECT_EQ(loky.family, "oom_killer");
}

// held43's kinds (tests/data/oom-corpus-held43/), each on made-up text.
TEST(DiagnoseKinds33, Held43Kinds) {
  // A container's SIGKILL as users tell it: "error code 137"; not another number.
  const OomRecord docker = one_report("Under load the container crashes with error code 137\n");
  EXPECT_EQ(docker.family, "oom_killer");
  EXPECT_EQ(docker.device, "cpu");
  EXPECT_TRUE(parse_oom_log("The build stopped with error code 1370\n").empty());
  // MegEngine's CUDA allocator: one report with its request, free and total, on its device.
  const OomRecord mgb = one_report(
      "11 16:42:50[mgb] ERR cudaMalloc failed while requesting 57933824 bytes (55.250MiB) of memory; error: out of "
      "memory(last_err=2(out of memory) device=1 mem_free=29.312MiB mem_tot=24220.312MiB)\n");
  EXPECT_EQ(mgb.subsystem, "megengine");
  EXPECT_EQ(mgb.device, "cuda:1");
  EXPECT_EQ(mgb.requested_bytes, 57933824);
  ASSERT_TRUE(mgb.total_capacity_bytes.has_value());
  EXPECT_NEAR(static_cast<double>(*mgb.total_capacity_bytes), 24220.312 * (1 << 20), 1 << 20);
  ASSERT_TRUE(mgb.free_bytes.has_value());
  // ggml's scratch buffer, sized by the program like its context arena.
  const OomRecord scratch = one_report(
      "ggml_new_tensor_impl: not enough space in the scratch memory pool (needed 173910528, available 150994944)\n");
  EXPECT_EQ(scratch.subsystem, "ggml_context");
  EXPECT_EQ(scratch.requested_bytes, 173910528);
  // Several GPUs asked for and the work told on the first one only.
  EXPECT_TRUE(evidence_holds("CUDA out of memory\ntest.py provides multi-GPU testing, but with -d 4 the program requests "
                             "memory on only GPU 0 which leads to OOM.\n",
                             "several GPUs asked for", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds("CUDA out of memory\nMy multi-GPU job runs fine; the OOM is on GPU 0 during eval.\n",
                              "several GPUs asked for"));
}

// review43's findings, mended.
TEST(DiagnoseKinds33, Review43Mends) {
  // "error code 137" only where a run is told ending with it; not asked, after a kill -9 or a docker
  // stop, nor defined as something else; Docker's "OOMKilled":false is no kill.
  for (const char* text : {"Is error code 137 always an out-of-memory kill? It never crashed.\n",
                           "I killed the hung training with kill -9 and it exited with error code 137.\n",
                           "The container stops with error code 137 every time I run docker stop.\n",
                           "Error code 137 in the docs table means invalid argument for our API.\n",
                           "{\"Status\":\"exited\",\"OOMKilled\":false,\"ExitCode\":137}\n"}) {
    const std::vector<OomRecord> r = parse_oom_log(text);
    for (const OomRecord& x : r) EXPECT_NE(x.family, "oom_killer") << text;
  }
  // MegEngine's cudaMalloc failing for another reason is no OOM; the line above is not its message.
  EXPECT_TRUE(parse_oom_log("[mgb] ERR cudaMalloc failed while requesting 57933824 bytes (55.250MiB) of memory; error: invalid "
                            "argument(last_err=1(invalid argument) device=0 mem_free=20000.000MiB mem_tot=24220.312MiB)\n")
                  .empty());
  const OomRecord glued = one_report(
      "step 120 peak 20000MiB\n[mgb] ERR cudaMalloc failed while requesting 57933824 bytes (55.250MiB) of memory; error: out "
      "of memory(last_err=2(out of memory) device=0 mem_free=29.312MiB mem_tot=24220.312MiB)\n");
  EXPECT_EQ(glued.message.find("step 120"), std::string::npos) << glued.message;
  // The fine-tuning arithmetic splits over the GPUs only where a sharding is named: plain DDP keeps a
  // whole copy on each GPU, and GPUs the machine has need not share the model.
  EXPECT_FALSE(evidence_holds("I fully fine-tune Mistral 7B with DistributedDataParallel on 4 RTX 3090 cards and get CUDA out "
                              "of memory.\n",
                              "full fine-tuning of the named model"));
  EXPECT_TRUE(evidence_holds("The server has 8 GPUs but I fully fine-tune Mistral 7B on one A100 80GB: CUDA out of memory.\n",
                             "26.08 GiB per GPU", OomCause::kOptimizerState));
  EXPECT_TRUE(evidence_holds("Full fine-tuning of Llama-2-13B with DeepSpeed ZeRO-3 on 2x A100 80GB: CUDA out of memory.\n",
                             "24.21 GiB per GPU", OomCause::kOptimizerState));
  // The work told on GPU 0 in other words, the others idle.
  EXPECT_TRUE(evidence_holds("I set CUDA_VISIBLE_DEVICES=0,1,2,3 to use all GPUs, but nvidia-smi shows everything on GPU 0 "
                             "and GPUs 1-3 are idle.\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                             "several GPUs asked for", OomCause::kMultiGpuImbalance));
}

// held44's kinds (tests/data/oom-corpus-held44/), each on made-up text.
TEST(DiagnoseKinds33, Held44Kinds) {
  // The OOM killer as one word, told picking a process: host RAM.
  const std::optional<OomRecord> picked = mentioned_oom("We have seen cases where the OOMKiller picks the exporter pod.\n");
  ASSERT_TRUE(picked.has_value());
  EXPECT_EQ(picked->device, "cpu");
  // A PR's title telling a load onto the CPU "to avoid GPU OOMs", the model sharded across GPUs
  // counted in words below it; the line about map_location is no failure while loading.
  const std::string pr =
      "fix(training): load model on CPU to avoid GPU OOMs\n"
      "The current behaviour uses implicit map_location=None, which reloads the model onto the device it was saved from.\n"
      "We hit OOM errors when reloading weights of a model sharded across 8 GPUs.\n";
  EXPECT_TRUE(evidence_holds(pr, "a load onto the CPU told as the fix", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds(pr, "fails while loading / placing the model"));
  // A framework's cap on the process's share of the GPU, removed as the fix: the cap.
  EXPECT_TRUE(evidence_holds("The notebook gives OOM on a 16 GB GPU.\nI can avoid OOM if I comment out "
                             "os.environ[\"TF_MEMORY_ALLOCATION\"] = \"0.7\". It works fine then.\n",
                             "the user's account", OomCause::kOther));
}

// review44's findings, mended.
TEST(DiagnoseKinds33, Review44Mends) {
  // The OOM killer named acting is a host kill; denied, it is none, and no host-RAM evidence.
  for (const char* text : {"the OOMKiller picks the operator\n", "After ~2 hours the OOMKiller kills the trainer process.\n"}) {
    const std::optional<OomRecord> r = mentioned_oom(text);
    ASSERT_TRUE(r.has_value()) << text;
    EXPECT_EQ(r->family, "oom_killer") << text;
  }
  EXPECT_FALSE(evidence_holds("The OOMKiller never fired (dmesg is empty); the trainer crashed with:\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 4.00 GiB\n",
                              "host RAM:"));
  // "error code 137" from an API is no kill.
  for (const OomRecord& r : parse_oom_log("API returned error code 137: rate limited.\n")) EXPECT_NE(r.family, "oom_killer");
  // GPUs the run does not use, another run's, or a CPU load tried in vain: no ranks' checkpoint.
  for (const char* text : {"I have 4 GPUs in the box but run on one. map_location='cpu' fixed it.\n",
                           "Model card: trained on 64 GPUs. I fine-tune it on my laptop; map_location='cpu' fixed it.\n",
                           "I tried loading the model on CPU to avoid GPU OOMs but it still OOMs on 2 GPUs.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(text) + "RuntimeError: CUDA out of memory. Tried to allocate 4.00 GiB\n",
                                "a load onto the CPU told as the fix"))
        << text;
  }
  // A cap removed as the fix in other words; the prompt's chunk lowered as the fix.
  EXPECT_TRUE(evidence_holds("I can avoid OOM if I comment out os.environ['TF_MEMORY_ALLOCATION'] = '0.7'\n",
                             "the user's account", OomCause::kOther));
  EXPECT_TRUE(evidence_holds("[METAL] Command buffer execution failed: Insufficient Memory "
                             "(00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n"
                             "Lowering prefill_step_size from 2048 to 256 avoids the crash.\n",
                             "the user's account", OomCause::kActivationsSeqlen));
  // A command line's flags above a one-line report are not its message; MegEngine's "on gpu3:0".
  const OomRecord metal = one_report(
      "mlx_lm.generate --model mlx-community/Llama-3-70B-4bit --prompt long.txt\n"
      "[METAL] Command buffer execution failed: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n");
  EXPECT_EQ(metal.message.find("mlx_lm"), std::string::npos) << metal.message;
  const OomRecord gpu3 = one_report(
      "[mgb] ERR cudaMalloc failed while requesting 536870912 bytes (512.000MiB) of memory on gpu3:0; error: out of "
      "memory(mem_free=20.000MiB mem_tot=81050.000MiB)\n");
  EXPECT_EQ(gpu3.device, "cuda:3");
  // Tokens told generated after the count.
  EXPECT_TRUE(evidence_holds("It still crashes after 3000 generated tokens.\nCUDA out of memory\n", "generated tokens",
                             OomCause::kGenerationKvCache));
}

// The read of session 37's change: what it found, mended.
TEST(DiagnoseKinds33, ReadOfChange37) {
  // "OOM killer" alone is no act ("killer" holds "kill"): only a verb after its name.
  const std::optional<OomRecord> named = mentioned_oom("Is the OOMKiller configured on this node? It ran out of memory.\n");
  if (named) {
    EXPECT_NE(named->family, "oom_killer");
  }
  // A rate in words is no length; a card's number or nvidia-smi's index is no GPU count.
  EXPECT_FALSE(evidence_holds("It runs at 1500 tokens per second, then CUDA out of memory.\n", "a long input"));
  EXPECT_TRUE(evidence_holds("|   2  NVIDIA A100-SXM4-80GB  On |\nFull fine-tuning of Llama-2-7B on one A100 80GB: CUDA out "
                             "of memory.\n",
                             "full fine-tuning of the named model", OomCause::kOptimizerState));
  // A shortage told with "not" is the host's RAM told, not a denial.
  EXPECT_TRUE(evidence_holds("The node does not have enough system RAM; the host ran out of memory.\n", "host RAM",
                             OomCause::kCpuRam));
  // joblib's worker death with a segfault's exit code is no kill for memory.
  for (const OomRecord& r : parse_oom_log("TerminatedWorkerError: A worker process managed by the executor was unexpectedly "
                                          "terminated. This could be caused by a segmentation fault while calling the "
                                          "function or by an excessive memory usage causing the Operating System to kill "
                                          "the worker. The exit codes of the workers are {SIGSEGV(-11)}\n")) {
    EXPECT_NE(r.family, "oom_killer");
  }
  // A tensor-parallel size of 1 shards nothing: no split of the fine-tuning arithmetic.
  EXPECT_FALSE(evidence_holds("Full fine-tuning of Llama-2-13B with tensor_parallel_size=1 on 2x A100 80GB: CUDA out of memory.\n",
                              "full fine-tuning of the named model"));
}

// Session 38: items carried from earlier reviews, mended.
TEST(DiagnoseKinds33, CarriedMends38) {
  // A contrast inside a sentence is a clause's end: the side that denies a remedy does not undo the
  // other side's fix.
  const std::string oom =
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.69 GiB total capacity; 20.10 GiB "
      "already allocated; 1.50 GiB free; 21.00 GiB reserved in total by PyTorch)\n";
  EXPECT_TRUE(evidence_holds(oom + "Wrapping the validation loop in torch.no_grad() fixed it, while empty_cache did nothing.\n",
                             "the user's account", OomCause::kEvalWithoutNoGrad));
  EXPECT_TRUE(evidence_holds(oom + "Reducing num_workers to 0 solved it, though gradient checkpointing did not help.\n",
                             "the user's account", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds(oom + "Reducing num_workers to 0 solved it, though gradient checkpointing did not help.\n",
                              "the user's account", OomCause::kActivationsBatch));
  EXPECT_TRUE(evidence_holds(oom + "The OOM is gone with gradient checkpointing, whereas expandable_segments did nothing.\n",
                             "the user's account", OomCause::kActivationsBatch));
  // No comma, no contrast: "fixed it while training" is one clause, still denied by its "not".
  EXPECT_FALSE(evidence_holds(oom + "Gradient checkpointing did not fix it while training.\n", "the user's account"));
  // A sentence around a call or an assignment is the user's account, not code; code is not.
  EXPECT_TRUE(evidence_holds(oom + "Removing torch.cuda.set_per_process_memory_fraction(0.8) fixed the OOM.\n",
                             "the user's account", OomCause::kOther));
  EXPECT_TRUE(evidence_holds(oom + "Setting os.environ['PYTORCH_CUDA_ALLOC_CONF'] = 'expandable_segments:True' fixed it.\n",
                             "the user's account", OomCause::kFragmentation));
  EXPECT_FALSE(evidence_holds(oom + "fixed = torch.cuda.set_per_process_memory_fraction(0.8)\n", "the user's account"));
  EXPECT_FALSE(evidence_holds(oom + "Trainer(fixed=True, gradient_checkpointing=True).\n", "the user's account"));
  // MLX's and MegEngine's allocators: frameworks of their own, whose fixes name their knobs, not
  // llama.cpp's (-ngl, -c) nor oomkit's flags; a native runtime's probes.
  const Diagnosis mlx = first(diagnose_log(
      "mlx_lm.generate --model mlx-community/Llama-3-70B-4bit --prompt long.txt\n"
      "libc++abi: terminating due to uncaught exception of type std::runtime_error: [metal::malloc] Attempting to allocate "
      "34359738368 bytes which is greater than the maximum allowed buffer size of 28991029248 bytes.\n",
      rules_alone()));
  const Diagnosis mgb = first(diagnose_log(
      "[mgb] ERR cudaMalloc failed while requesting 411041792 bytes (392.000MiB) of memory; error: out of memory("
      "last_err=2(out of memory) device=0 mem_free=100.312MiB mem_tot=24220.312MiB)\n",
      rules_alone()));
  EXPECT_EQ(mlx.framework, "mlx");
  EXPECT_EQ(mgb.framework, "megengine");
  for (const Diagnosis* d : {&mlx, &mgb}) {
    for (const Finding& f : d->findings) {
      EXPECT_EQ(f.fix.find("llama.cpp"), std::string::npos) << f.fix;
      EXPECT_EQ(f.fix.find("oomkit train"), std::string::npos) << f.fix;
      EXPECT_EQ(f.probe.find("torch.cuda"), std::string::npos) << f.probe;
    }
  }
  auto fix_of = [](const Diagnosis& d, OomCause c) {
    for (const Finding& f : d.findings) {
      if (f.category == c) return f.fix;
    }
    return std::string();
  };
  EXPECT_NE(fix_of(mlx, OomCause::kActivationsBatch).find("mlx_lm.lora --batch-size"), std::string::npos);
  EXPECT_NE(fix_of(mgb, OomCause::kActivationsBatch).find("megengine.dtr"), std::string::npos);
}

// held45's kinds (tests/data/oom-corpus-held45/), each on made-up text.
TEST(DiagnoseKinds33, Held45Kinds) {
  // R's message in its other catalogues, with its binary sizes (fr prints octets: Go, Mo); quoted
  // inline as the error got; not as advice.
  const std::pair<const char*, int64_t> r_messages[] = {
      {"Erreur : impossible d'allouer un vecteur de taille 26.8 Go\n", static_cast<int64_t>(26.8 * 1073741824.0 + 0.5)},
      {"Erreur dans f(x) : impossible d\xe2\x80\x99" "allouer un vecteur de taille 216.8 Mo\n", static_cast<int64_t>(216.8 * 1048576.0 + 0.5)},
      {"Fehler: kann Vektor der Gr\xc3\xb6\xc3\x9f" "e 26.8 GB nicht allozieren\n", static_cast<int64_t>(26.8 * 1073741824.0 + 0.5)},
      {"Error: no se puede ubicar un vector de tama\xc3\xb1o  3.2 Gb\n", static_cast<int64_t>(3.2 * 1073741824.0 + 0.5)},
      {"Erro: n\xc3\xa3o \xc3\xa9 poss\xc3\xadvel alocar vetor de tamanho 1.5 Gb\n", static_cast<int64_t>(1.5 * 1073741824.0 + 0.5)},
      {"Errore: non \xc3\xa8 possibile allocare un vettore di dimensione 2.1 Gb\n", static_cast<int64_t>(2.1 * 1073741824.0 + 0.5)},
      {"\xe9\x8c\xaf\xe8\xaa\xa4: \xe7\x84\xa1\xe6\xb3\x95\xe9\x85\x8d\xe7\xbd\xae\xe5\xa4\xa7\xe5\xb0\x8f\xe7\x82\xba 8.9 Gb "
       "\xe7\x9a\x84\xe5\x90\x91\xe9\x87\x8f\n",
       static_cast<int64_t>(8.9 * 1073741824.0 + 0.5)},
      {"I would like to fit the model but get this error: `Error: cannot allocate vector of size 38.6 Gb`\n",
       static_cast<int64_t>(38.6 * 1073741824.0 + 0.5)},
  };
  for (const auto& [text, bytes] : r_messages) {
    const OomRecord r = one_report(text);
    EXPECT_EQ(r.subsystem, "r") << text;
    ASSERT_TRUE(r.requested_bytes.has_value()) << text;
    EXPECT_NEAR(static_cast<double>(*r.requested_bytes), static_cast<double>(bytes), 1.0) << text;
  }
  EXPECT_TRUE(parse_oom_log("If you see `Error: cannot allocate vector of size 3 Gb` add RAM.\n").empty());
  // Python's bare MemoryError as a title above numpy's sized one: one report, the sized one.
  const OomRecord titled = one_report(
      "MemoryError\nI run explain() and get:\nnumpy.core._exceptions.MemoryError: Unable to allocate 5.38 PiB for an array "
      "with shape (8796093022208, 86) and data type float64\n");
  EXPECT_EQ(titled.subsystem, "numpy");
  EXPECT_EQ(titled.line, 3);  // the sized message's own line (session 39; it was the title's, 1)
  // A size no host has, asked for as the printed shape and dtype say: host RAM first, a shape bug
  // second; not a corrupted size. A PiB that the shape does not explain stays impossible.
  EXPECT_EQ(top_cause("numpy.core._exceptions.MemoryError: Unable to allocate 5.38 PiB for an array with shape "
                      "(8796093022208, 86) and data type float64\n"),
            OomCause::kCpuRam);
  EXPECT_TRUE(evidence_holds("numpy.core._exceptions.MemoryError: Unable to allocate 5.38 PiB for an array with shape "
                             "(1000, 86) and data type float64\n",
                             "no device or host has 1 PiB", OomCause::kOther));
  // MemoryError named as what happened, in a title or a sentence: a host report.
  const std::optional<OomRecord> told = mentioned_oom("input_data.py MemoryError with 512MB RAM and zero swap.\n");
  ASSERT_TRUE(told.has_value());
  EXPECT_EQ(told->device, "cpu");
  EXPECT_FALSE(mentioned_oom("How do I catch the MemoryError exception if it happens?\n").has_value());
  // Memory growth as a noun that goes on.
  EXPECT_TRUE(mentioned_oom("There was an issue with a slow but steady memory growth during the TDVP step.\n").has_value());
  EXPECT_FALSE(mentioned_oom("The memory growth setting of TensorFlow is on.\n").has_value());
  // OpenCL's own allocation failures.
  EXPECT_EQ(one_report("[GPU] clEnqueueNDRangeKernel, error code: -5 CL_OUT_OF_RESOURCES\n").subsystem, "opencl");
  EXPECT_EQ(one_report("[GPU] clEnqueueWriteBuffer, error code: -4 CL_MEM_OBJECT_ALLOCATION_FAILURE\n").subsystem, "opencl");
  // Windows' "shared GPU memory" is the host RAM a GPU borrows, not a GPU shared with other jobs.
  EXPECT_FALSE(evidence_holds("CUDA out of memory.\nThe model loads at 5.19 GB into 17.63 GB of available shared GPU memory.\n",
                              "other jobs on the GPU"));
  EXPECT_TRUE(evidence_holds("CUDA out of memory.\nI don't want to delete everything as it is a shared GPU used by other users.\n",
                             "other jobs on the GPU"));
  // The OS named killing the process, in the active voice, on a line that asks something else.
  EXPECT_TRUE(evidence_holds("Memory usage increasing continuously\nAfter 8k iterations, the OS kills the process. Can you "
                             "please help me out?\n",
                             "the process was killed", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("Memory usage increasing continuously\nDoes the OS kill the process?\n", "the process was killed"));
  // The KV cache's own allocation told failing.
  EXPECT_TRUE(evidence_holds("Not enough memory with a 16 GB GPU\nException on allocation of the GPU KV cache in "
                             "CreateSharedKvBuffers.\n",
                             "the KV cache's own allocation", OomCause::kGenerationKvCache));
  EXPECT_FALSE(evidence_holds("Not enough memory with a 16 GB GPU\nThe KV cache allocation is not the problem here.\n",
                              "the KV cache's own allocation"));
  // ggml's graph allocator after its Vulkan backend's chunk: one failure; the compute buffers grow
  // with the input outside llama.cpp, with its context and micro-batch in it; not above the
  // device's limit on one allocation.
  const std::string vk =
      "ggml_vulkan: Device memory allocation of size 3303014400 failed.\n"
      "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n"
      "ggml_gallocr_reserve_n_impl: failed to allocate Vulkan0 buffer of size 8611430400\n";
  EXPECT_EQ(parse_oom_log(vk).size(), 1u);
  EXPECT_EQ(top_cause("vae decode of a 4 minute song\n" + vk), OomCause::kActivationsSeqlen);
  EXPECT_TRUE(evidence_holds("llama_new_context_with_model: n_ctx = 32768\n" + vk, "llama.cpp could not reserve its compute buffers",
                             OomCause::kGenerationKvCache));
  EXPECT_FALSE(evidence_holds(
      "ggml_vulkan: Device memory allocation of size 4831838208 failed.\n"
      "ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory\n"
      "ggml_gallocr_reserve_n: failed to allocate Vulkan0 buffer of size 4831838208\n",
      "compute buffers"));
  // An engine's token budget left out of a component's sizing: the library ignores the setting. A
  // memory size hard-coded in the library (a pool, a cache limit); not a batch hard-coded.
  struct Told {
    const char* line;
    const char* needle;
    bool holds;
  };
  for (const Told& t : {Told{"Currently the warmup doesn't take into account the max-num-batched-tokens, so we OOM.",
                             "told to have no effect", true},
                        Told{"Does the warmup take into account the max-num-batched-tokens?", "told to have no effect", false},
                        Told{"Metal OOM on small Macs: hardcoded mx.set_cache_limit(32GB) is not device-scaled.",
                             "hard-coded in the library", true},
                        Told{"The library has a hardcoded 32GB pool reservation that fails.", "hard-coded in the library", true},
                        Told{"The embedding batch size is hardcoded to 256 and takes 20 GB.", "hard-coded in the library",
                             false}}) {
    const std::string log = std::string(t.line) + "\nCUDA out of memory\n";
    EXPECT_EQ(evidence_holds(log, t.needle, t.holds ? std::optional<OomCause>(OomCause::kOther) : std::nullopt), t.holds)
        << t.line;
  }
}

// review45's findings, mended.
TEST(DiagnoseKinds33, Review45Mends) {
  // MegEngine's graph allocator's own message, and MegEngine or MLX named anywhere in a log that
  // never names torch: their frameworks, their fixes.
  const OomRecord mgb = one_report(
      "RuntimeError: out of memory while requesting 68719476736 bytes; you can try setting MGB_CUDA_RESERVE_MEMORY to "
      "reserve all memory\n");
  EXPECT_EQ(mgb.subsystem, "megengine");
  EXPECT_EQ(mgb.requested_bytes.value_or(0), int64_t{68719476736});
  EXPECT_EQ(first(diagnose_log("import megengine as mge\nThe training crashed: CUDA out of memory on gpu0.\n", rules_alone()))
                .framework,
            "megengine");
  EXPECT_EQ(first(diagnose_log("$ mlx_lm.generate --model mlx-community/Llama-3-8B-4bit --prompt long.txt\n"
                               "[METAL] Command buffer execution failed: Insufficient Memory "
                               "(00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n",
                               rules_alone()))
                .framework,
            "mlx");
  EXPECT_EQ(one_report("RuntimeError: [metal::malloc] Unable to allocate 4294967296 bytes.\n").subsystem, "mlx");
  // PyTorch's own message stays PyTorch's whatever else the log names.
  EXPECT_EQ(first(diagnose_log("import mlx.core as mx\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                               rules_alone()))
                .framework,
            "pytorch");
  // R's message told inline, quoted or not, after a colon; not advice or a supposition.
  for (const char* text : {"I get this error: Error: cannot allocate vector of size 3.7 Gb\n",
                           "I get this error: \"Error: cannot allocate vector of size 3.7 Gb\" when I fit the model.\n",
                           "I would like to fit a model but get this error: `Error: cannot allocate vector of size 3.7 Gb`\n"}) {
    EXPECT_EQ(one_report(text).subsystem, "r") << text;
  }
  for (const char* text : {"On 32-bit builds you would get this error: `Error: cannot allocate vector of size 1.5 Gb`.\n",
                           "If you see \"Error: cannot allocate vector of size 3.7 Gb\", increase memory.limit().\n"}) {
    for (const OomRecord& r : parse_oom_log(text)) EXPECT_NE(r.subsystem, "r") << text;
  }
  // Python's bare MemoryError title above a CUDA OOM: one report, the CUDA one.
  const std::vector<OomRecord> titled = parse_oom_log(
      "MemoryError\nDuring training:\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
      "total capacity of 23.65 GiB of which 1.20 GiB is free.\n");
  ASSERT_EQ(titled.size(), 1u);
  EXPECT_NE(titled[0].device.rfind("cuda", 0), std::string::npos);
  // Advice naming MemoryError is no report.
  EXPECT_FALSE(mentioned_oom("To avoid a MemoryError, load the file in chunks with read_csv(chunksize=...).\n").has_value());
  // numpy's string, bytes and object dtypes have their own item sizes: the shape asks for the size.
  for (const char* dtype : {"<U1000", "|S10", "object"}) {
    const int64_t item = std::string(dtype) == "<U1000" ? 4000 : std::string(dtype) == "|S10" ? 10 : 8;
    const int64_t n = (int64_t{1} << 51) / item;
    const std::string text = fmt::format("numpy.core._exceptions.MemoryError: Unable to allocate {:.3g} PiB for an array with "
                                         "shape ({},) and data type {}\n",
                                         static_cast<double>(n * item) / 1125899906842624.0, n, dtype);
    EXPECT_EQ(top_cause(text), OomCause::kCpuRam) << text;
  }
  // "The OS kills the process" in words, asked why: a kill; asked whether, none.
  const std::optional<OomRecord> kill = mentioned_oom("After 20 minutes the OS kills the process.\n");
  ASSERT_TRUE(kill.has_value());
  EXPECT_EQ(kill->device, "cpu");
  EXPECT_TRUE(evidence_holds("CUDA out of memory\nDoes anyone know why the OS kills the process during tokenization?\n",
                             "the process was killed", OomCause::kCpuRam));
  EXPECT_FALSE(mentioned_oom("If the data is too big, the OS kills the process.\n").has_value());
  // A KV cache allocation told to succeed is no failure of it.
  EXPECT_FALSE(evidence_holds("The allocation of the GPU KV cache succeeds, but then the vision encoder runs out.\nCUDA out "
                              "of memory\n",
                              "the KV cache's own allocation"));
  // pyopencl's names without "CL_"; OpenCL's names in pasted source are no failure.
  EXPECT_EQ(one_report("pyopencl._cl.MemoryError: clEnqueueWriteBuffer failed: MEM_OBJECT_ALLOCATION_FAILURE\n").subsystem,
            "opencl");
  EXPECT_EQ(one_report("pyopencl._cl.RuntimeError: clEnqueueNDRangeKernel failed: OUT_OF_RESOURCES\n").subsystem, "opencl");
  EXPECT_TRUE(parse_oom_log("#define CL_OUT_OF_RESOURCES -5\n    case CL_OUT_OF_RESOURCES: return \"CL_OUT_OF_RESOURCES\";\n")
                  .empty());
  // A clause that opens with a concession ends at its comma; the batch halved is an account.
  EXPECT_TRUE(evidence_holds("CUDA out of memory. Tried to allocate 2.00 GiB\nEven though no_grad did not help, halving the "
                             "batch fixed it.\n",
                             "the user's account", OomCause::kActivationsBatch));
  EXPECT_TRUE(evidence_holds("CUDA out of memory. Tried to allocate 2.00 GiB\nAlthough empty_cache did not help, using "
                             "torch.no_grad() during evaluation fixed the OOM.\n",
                             "the user's account", OomCause::kEvalWithoutNoGrad));
  // A hard-coded size: its own title; not when told no longer hard-coded.
  const Diagnosis hard = first(diagnose_log(
      "CUDA out of memory\nThe library has a hardcoded 32GB pool reservation that fails on a 16 GB card.\n", rules_alone()));
  bool titled_other = false;
  for (const Finding& f : hard.findings) {
    titled_other = titled_other || (f.category == OomCause::kOther && f.title.find("hard-coded") != std::string::npos);
  }
  EXPECT_TRUE(titled_other);
  EXPECT_FALSE(evidence_holds("CUDA out of memory\nThe VMM pool is no longer hardcoded to 32GB, so that is not it.\n",
                              "hard-coded in the library"));
}

// The read of session 38's change: what it found, mended.
TEST(DiagnoseKinds33, ReadOfChange38) {
  const std::string oom = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  // The kill's own clause decides: asked why, told; an earlier question elsewhere on the line does not undo it.
  EXPECT_TRUE(evidence_holds(oom + "Why does the OS kill the process after 20 minutes?\n", "the process was killed",
                             OomCause::kCpuRam));
  EXPECT_TRUE(evidence_holds(oom + "Should I stop the other jobs? The process gets killed at step 800.\n",
                             "the process was killed", OomCause::kCpuRam));
  EXPECT_FALSE(mentioned_oom("Does Linux kills processes that use too much RAM?\n").has_value());
  // A question tacked on after a comma leaves what comes before it told.
  EXPECT_TRUE(mentioned_oom("After an hour the OS kills the process, is there a way to avoid it?\n").has_value());
  // A native runtime's own report keeps its runtime whatever else the issue names.
  EXPECT_EQ(first(diagnose_log("LM Studio with MLX runs this model fine.\nggml_backend_cuda_buffer_type_alloc_buffer: "
                               "allocating 8192.00 MiB on device 0: cudaMalloc failed: out of memory\n",
                               rules_alone()))
                .framework,
            "native");
  // The KV cache's allocation in its own clause, not an engine's pre-allocation explained.
  EXPECT_FALSE(evidence_holds(oom + "The KV cache is 2 GB. Allocating the activations then fails.\n",
                              "the KV cache's own allocation"));
  EXPECT_FALSE(evidence_holds(oom + "vLLM pre-allocates the KV cache, so nvidia-smi shows 90% used.\n",
                              "the KV cache's own allocation"));
  // A user's own words of ignoring or of time are no library ignoring a setting; nor is the user's
  // own hard-coding of a device.
  for (const char* line : {"It doesn't take long to OOM with max_model_len=32768.",
                           "I ignored the warning and set max_num_seqs to 64, still OOM."}) {
    EXPECT_FALSE(evidence_holds(oom + line + "\n", "told to have no effect")) << line;
  }
  EXPECT_FALSE(evidence_holds(oom + "I hardcoded CUDA_VISIBLE_DEVICES=0 on my 24GB 3090.\n", "hard-coded in the library"));
  EXPECT_FALSE(evidence_holds(oom + "The model uses a hardcoded max pooling of 32 GB inputs.\n", "hard-coded in the library"));
  // R's message described on a how-to page is no report.
  for (const OomRecord& r : parse_oom_log("The typical message is: Error: cannot allocate vector of size 1.2 Gb\n")) {
    EXPECT_NE(r.subsystem, "r");
  }
  // OpenCL's names in a comparison or a comment are no failure.
  EXPECT_TRUE(parse_oom_log("if (err == CL_OUT_OF_RESOURCES) {\n// CL_MEM_OBJECT_ALLOCATION_FAILURE is -4\n").empty());
  // "I" opens a sentence around code as well.
  EXPECT_TRUE(evidence_holds(oom + "I set torch.cuda.set_per_process_memory_fraction(0.5) and it fixed the OOM.\n",
                             "the user's account", OomCause::kOther));
  // numpy before 1.18 sizes a string dtype by numpy's item size.
  const OomRecord old_numpy =
      one_report("MemoryError: Unable to allocate array with shape (1000, 1000) and data type <U10\n");
  EXPECT_EQ(old_numpy.requested_bytes.value_or(0), int64_t{40000000});
  // MLX's probe for other programs is the Mac's, not an accelerator's tool.
  const Diagnosis mlx = first(diagnose_log("RuntimeError: [metal::malloc] Unable to allocate 4294967296 bytes.\n", rules_alone()));
  for (const Finding& f : mlx.findings) {
    if (f.category == OomCause::kOtherProcess) {
      EXPECT_EQ(f.probe.find("nvidia-smi"), std::string::npos) << f.probe;
    }
  }
}

// held46's kinds (tests/data/oom-corpus-held46/), each on made-up text.
TEST(DiagnoseKinds33, Held46Kinds) {
  // A question needs no '?': the whole data named in a question is no account of host RAM.
  EXPECT_FALSE(evidence_holds("OOM when allocating tensor with shape[16,64,96,96] and type float on GPU\nIt seems GPU RAM "
                              "is exhausted. How much RAM does it need to load all training data.\n",
                              "a whole dataset held in host memory"));
  // A process dying with no message, SIGKILL told as an error code, ENOMEM named: host reports.
  for (const char* text : {"When I run it, the process dies without an error message at line 450.\n",
                           "error -9 when training the model\n", "I traced the binary, it gives me the -ENOMEM.\n"}) {
    const std::optional<OomRecord> r = mentioned_oom(text);
    ASSERT_TRUE(r.has_value()) << text;
    EXPECT_EQ(r->device, "cpu") << text;
  }
  for (const char* text : {"If the job dies without an error message, check dmesg.\n", "error -90 when parsing the config\n",
                           "    if (ret == -ENOMEM) return ret;\n"}) {
    EXPECT_FALSE(mentioned_oom(text).has_value()) << text;
  }
  // RAPIDS' RMM naming its size is the GPU's, one report with a std::bad_alloc title above it.
  const OomRecord rmm = one_report(
      "[BUG] UMAP creates many std::bad_alloc errors\nException: std::bad_alloc: CUDA error (failed to allocate 240 bytes) "
      "at: /home/user/env/include/rmm/mr/device/cuda_memory_resource.hpp\n");
  EXPECT_EQ(rmm.subsystem + " " + rmm.device + " " + std::to_string(rmm.requested_bytes.value_or(0)), "rmm cuda 240");
  // The failure at a different point from run to run: the batch drawn, not memory fixed from the start.
  const std::string varies =
      "CUDA out of memory with batch size of 2\nSometimes the memory error happens right when I start training and other "
      "times it happens a couple minutes into training.\n";
  EXPECT_TRUE(evidence_holds(varies, "a different point from run to run", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds(varies, "fails at the start of training"));
  // R's message told in the user's words ("cannot allocate a vector of size"), with its size; not supposed.
  const OomRecord r_told = one_report(
      "I keep getting an error that it cannot allocate a vector of size 16.4 Gb even though I have 32 Gb available.\n");
  EXPECT_EQ(r_told.subsystem, "r");
  EXPECT_NEAR(static_cast<double>(r_told.requested_bytes.value_or(0)), 16.4 * 1073741824.0, 1.0);
  for (const OomRecord& r : parse_oom_log("If you see that it cannot allocate a vector of size 2 Gb, add RAM.\n")) {
    EXPECT_NE(r.subsystem, "r");
  }
  // A leak guessed is no growth told; fewer workers named as the fix is host RAM.
  EXPECT_FALSE(evidence_holds("RLlib crashes due to memory overflow.\nI was thinking that it might be a memory leak.\n",
                              "memory grows step after step"));
  EXPECT_TRUE(evidence_holds("RLlib crashes due to memory overflow.\nUsing fewer workers fixed it.\n", "the user's account",
                             OomCause::kCpuRam));
}

// review46's findings, mended.
TEST(DiagnoseKinds33, Review46Mends) {
  const std::string oom =
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB. GPU 0 has a total capacity of 15.77 "
      "GiB of which 100.00 MiB is free. Of the allocated memory 14.90 GiB is allocated by PyTorch, and 300.00 MiB is "
      "reserved by PyTorch but unallocated.\n";
  // A batch size written with a thousands comma is not a batch of one.
  EXPECT_FALSE(evidence_holds(oom + "The batch size of 1,024 tokens did not fit.\n", "fails even at batch size 1"));
  EXPECT_TRUE(evidence_holds(oom + "The batch size of 1,024 tokens did not fit.\n", "logged batch size 1024"));
  // RMM's whole line is one report; its pool's cap is RMM's; a bad_alloc title joins a report naming it.
  EXPECT_EQ(one_report("MemoryError: std::bad_alloc: CUDA error (failed to allocate 240 bytes) at: /opt/conda/include/rmm/"
                       "mr/device/cuda_memory_resource.hpp:70: cudaErrorMemoryAllocation out of memory\n")
                .subsystem,
            "rmm");
  EXPECT_EQ(one_report("RuntimeError: std::bad_alloc: out_of_memory: RMM failure at:/opt/conda/include/rmm/mr/device/"
                       "pool_memory_resource.hpp:196: Maximum pool size exceeded\n")
                .subsystem,
            "rmm");
  EXPECT_EQ(parse_oom_log("Title: std::bad_alloc: out of memory when calling cudf.merge\n\nMemoryError: std::bad_alloc: "
                          "out_of_memory: CUDA error at: /opt/conda/include/rmm/mr/device/cuda_memory_resource.hpp:60: "
                          "cudaErrorMemoryAllocation out of memory\n")
                .size(),
            1u);
  // llama.cpp / Ollama named: a native runtime, whatever MLX the issue mentions.
  EXPECT_EQ(first(diagnose_log("Not an MLX issue - Ollama on Linux with a 3090:\nggml_cuda_device_malloc: out of memory: CUDA "
                               "error: out of memory\n  current device: 0, in function ggml_cuda_pool_malloc at "
                               "ggml-cuda.cu:1234\n",
                               rules_alone()))
                .framework,
            "native");
  // Only the clauses that tell the fix name it: a concession's batch beside the fix is not the fix.
  const Diagnosis retracted = first(diagnose_log(
      "Removing .cpu() allows a large list to grow on gpu, eventually causing OOM. That was my first guess, but it turned "
      "out wrong: the real cause was the 8k sequence length.\n" + oom,
      rules_alone()));
  EXPECT_EQ(retracted.findings.front().category, OomCause::kActivationsSeqlen);
  // A leak only suspected is no growth told.
  for (const char* line : {"I suspect a memory leak somewhere in my training loop.", "Probably a memory leak."}) {
    EXPECT_FALSE(evidence_holds(line + std::string("\n") + oom, "memory grows step after step")) << line;
  }
  // The failure point varying between runs, in other words.
  EXPECT_FALSE(evidence_holds("It crashes at the start of training in some runs and mid-epoch in others.\n" + oom,
                              "fails at the start of training"));
  // Told kills: asked why, a question tacked on, "exits with code 137"; R's message after "throws
  // this:" and paraphrased with "can't" or "unable to"; not in an FAQ's "when you get this error:".
  for (const char* text : {"Why does the OS kill the process when I load the 70B checkpoint on CPU?\n",
                           "After the first epoch the process dies without an error message, is there a way to avoid it?\n",
                           "The job exits with code 137 after loading the model.\n"}) {
    const std::optional<OomRecord> r = mentioned_oom(text);
    ASSERT_TRUE(r.has_value()) << text;
    EXPECT_EQ(r->device, "cpu") << text;
  }
  for (const char* text : {"My script throws this: Error in rep(x, n) : cannot allocate vector of size 12.0 Gb\n",
                           "R can't allocate a vector of size 512 Mb when I run the loop, and then it stops.\n"}) {
    EXPECT_EQ(one_report(text).subsystem, "r") << text;
  }
  for (const OomRecord& r : parse_oom_log("Q: What does it mean when you get this error: Error: cannot allocate vector of size "
                                          "3.2 Gb? A: R ran out of RAM.\n")) {
    EXPECT_NE(r.subsystem, "r");
  }
  // A hard-coded pool denied is no evidence.
  EXPECT_FALSE(evidence_holds(oom + "There is no hardcoded 32GB pool in this version.\n", "hard-coded in the library"));
}

// held47's kinds (tests/data/oom-corpus-held47/), each on made-up text.
TEST(DiagnoseKinds33, Held47Kinds) {
  // Windows' paging file told changed or capped is the host's commit limit.
  EXPECT_TRUE(evidence_holds("RuntimeError: Could not allocate tensor: DML allocator out of memory!\nToday I changed the "
                             "pagefile.sys of my windows from automatic to a maximum of 8gb.\n",
                             "Windows' paging file", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("CUDA out of memory\nThe driver uses the GPU's virtual memory management API for its pool.\n",
                              "Windows' paging file"));
  // An input tensor made on the host and moved (torch.asarray(...).to(device)) is no model's load.
  EXPECT_FALSE(evidence_holds("  File \"sd_hijack_clip.py\", line 246, in process_tokens\n    tokens = "
                              "torch.asarray(remade_batch_tokens).to(devices.device)\nRuntimeError: CUDA out of memory.\n",
                              "model load / move to the device"));
  // An image named by its file format, its size written with '*': the input's resolution.
  EXPECT_TRUE(evidence_holds("Forward: out of memory\nI have 11GB on the GPU and feed the net a BMP(3968*2976).\n", "3968x2976",
                             OomCause::kActivationsSeqlen));
  // The work told not fitting on a named GPU is a report in words; not supposed.
  EXPECT_TRUE(mentioned_oom("Products-GNN does not fit on a v100\n").has_value());
  EXPECT_FALSE(mentioned_oom("If it does not fit on a v100, use the sampled variant.\n").has_value());
}

// review47's findings, mended.
TEST(DiagnoseKinds33, Review47Mends) {
  // A system call's errno -9 and a crash told beside a silent death are no kill.
  for (const char* text : {"ioctl(fd, DRM_IOCTL) failed with error -9 (Bad file descriptor)\n",
                           "The process dies without an error message; the exit code is 139 (segmentation fault).\n"}) {
    EXPECT_FALSE(mentioned_oom(text).has_value()) << text;
  }
  // An image format names the size only right before it.
  EXPECT_FALSE(evidence_holds("I plot the curve to loss.png; the embedding is 50257*768.\nCUDA out of memory\n", "50257x768"));
  // Not fitting on a named GPU: can't / unable to, a question tacked on, "if" after it: on the GPU.
  for (const char* text : {"I can't fit the 13B model on my 3090.\n", "Unable to fit the model into an A100 40GB.\n",
                           "Products-GNN does not fit on a v100 even with batch size 1. Any hints?\n",
                           "It does not fit on my RTX 4090 if I use batch size 64.\n"}) {
    const std::optional<OomRecord> r = mentioned_oom(text);
    ASSERT_TRUE(r.has_value()) << text;
    EXPECT_EQ(r->device.rfind("cuda", 0), 0u) << text << r->device;
  }
  // Windows' own commit-limit error is the host's; raising the virtual memory is no growth.
  const std::optional<OomRecord> win =
      mentioned_oom("OSError: [WinError 1455] The paging file is too small for this operation to complete.\n");
  ASSERT_TRUE(win.has_value());
  EXPECT_EQ(win->device, "cpu");
  EXPECT_FALSE(evidence_holds("I increased my virtual memory to 64GB.\nCUDA out of memory\n", "memory grows step after step"));
  // ENOMEM at the end of its line is read.
  EXPECT_TRUE(mentioned_oom("cudaMalloc failed: -ENOMEM\n").has_value());
}

// held48's kinds (tests/data/oom-corpus-held48/), each on made-up text.
TEST(DiagnoseKinds33, Held48Kinds) {
  // Caffe's CUDA_CHECK (the runtime's words right after the codes) and its host allocation (bytes);
  // Caffe named, its fixes in its own files, no PyTorch probe nor oomkit flag.
  const OomRecord check = one_report("F0512 10:11:12.123 4711 syncedmem.cpp:56] Check failed: error == cudaSuccess (2 vs. 0)  "
                                     "out of memory\n");
  EXPECT_EQ(check.family, "cuda_error_oom");
  EXPECT_EQ(check.device, "cuda");
  EXPECT_NE(check.message.find("out of memory"), std::string::npos) << check.message;
  EXPECT_TRUE(parse_oom_log("Check failed: error == cudaSuccess (2 vs. 0)  invalid device ordinal\n").empty());
  const OomRecord host = one_report("F1111 22:11:06.945 1512 syncedmem.hpp:24] Check failed: *ptr host allocation of size "
                                    "282240000 failed\n");
  EXPECT_EQ(host.family, "host_alloc");
  EXPECT_EQ(host.subsystem, "caffe");
  ASSERT_TRUE(host.requested_bytes.has_value());
  EXPECT_EQ(*host.requested_bytes, 282240000);
  const Diagnosis caffe = first(diagnose_log("net = caffe.Net('deploy.prototxt', 'vgg.caffemodel', caffe.TEST)\n"
                                             "Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n",
                                             rules_alone()));
  EXPECT_EQ(caffe.framework, "caffe");
  for (const Finding& f : caffe.findings) {
    EXPECT_EQ(f.fix.find("oomkit train"), std::string::npos) << f.fix;
    EXPECT_EQ(f.probe.find("torch.cuda"), std::string::npos) << f.probe;
    if (f.category == OomCause::kActivationsBatch) {
      EXPECT_NE(f.fix.find("iter_size"), std::string::npos) << f.fix;
    }
  }
  // ggml_init's assert on its arena's malloc: host RAM.
  const OomRecord arena = one_report("GGML_ASSERT: /home/user/ggml.c:4411: ctx->mem_buffer != NULL\n");
  EXPECT_EQ(arena.family, "host_alloc");
  EXPECT_EQ(arena.device, "cpu");
  // A title naming the OOM on no device over a kill told later: the kill is the report.
  const std::optional<OomRecord> killed =
      mentioned_oom("operator memory limit too small, OOM\n`training-operator-8569f97489-zkxbt  0/1  OOMKilled`\n");
  ASSERT_TRUE(killed.has_value());
  EXPECT_EQ(killed->family, "oom_killer");
  EXPECT_EQ(killed->line, 2);
  const std::optional<OomRecord> code = mentioned_oom("operator memory limit too small, OOM\n# never OOMKilled here\n");
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(code->line, 1);
  // OOM kills as a noun: the kernel's; not asked how to avoid.
  const std::optional<OomRecord> spate = mentioned_oom("We had a spate of OOM kills on the worker around midnight.\n");
  ASSERT_TRUE(spate.has_value());
  EXPECT_EQ(spate->family, "oom_killer");
  const std::optional<OomRecord> asked = mentioned_oom("How do I avoid OOM kills on the worker?\n");
  EXPECT_TRUE(!asked || asked->family != "oom_killer");
  // zh: the host's memory told exceeded (超内存 / 超出内存); a hyperparameter (超参数) is not.
  EXPECT_EQ(top_cause("memory error\n\xe6\x88\x91\xe6\x9c\x89" "50000\xe4\xb8\xaa\xe6\xa0\xb7\xe6\x9c\xac\xef\xbc\x8c"
                      "\xe8\xbf\x99\xe6\xa0\xb7\xe5\xb0\xb1\xe8\xb6\x85\xe5\x86\x85\xe5\xad\x98\xe4\xba\x86\xe3\x80\x82\n"),
            OomCause::kCpuRam);  // 我有50000个样本，这样就超内存了。
  EXPECT_FALSE(evidence_holds("CUDA out of memory\n\xe8\xb6\x85\xe5\x8f\x82\xe6\x95\xb0\xe5\x92\x8c\xe5\x86\x85\xe5\xad\x98"
                              "\xe6\x97\xa0\xe5\x85\xb3\n",  // 超参数和内存无关 (hyperparameters, unrelated to memory)
                              "host RAM runs out"));
  // The machine told freezing with its memory named: host RAM, a report in words.
  const std::optional<OomRecord> freeze =
      mentioned_oom("I didn't know about memory requirements for the distance matrix, so my 4GB laptop freeze.\n");
  ASSERT_TRUE(freeze.has_value());
  EXPECT_EQ(freeze->device, "cpu");
  EXPECT_FALSE(mentioned_oom("We freeze the encoder's weights to save memory.\n").has_value());
  // Batch size told small in other words still fails: not the batch first.
  EXPECT_TRUE(evidence_holds("Check failed: error == cudaSuccess (2 vs. 0)  out of memory\nI have tried batch size as small as "
                             "just 1 and it still fails.\n",
                             "fails even at batch size 1", OomCause::kStaticModelTooLarge));
  // The CPU named as where a fix moves things is not where memory ran out.
  const std::optional<OomRecord> moved = mentioned_oom("Fix checkpoint OOM by loading to CPU first\n");
  ASSERT_TRUE(moved.has_value());
  EXPECT_NE(moved->device, "cpu");
  EXPECT_EQ(mentioned_oom("The run hits a CPU OOM while tokenizing.\n")->device, "cpu");
  // R's allocator's words without a size: an R session's host memory.
  const std::optional<OomRecord> r =
      mentioned_oom("the memory shoots to 100% and I see the cannot allocate vector of size error after the update.\n");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->device, "cpu");
  // A model from before still loaded in the notebook when the next is to train: another holder.
  EXPECT_TRUE(evidence_holds("Please add a cell to stop the image generator, cause of OOM\nI can't train a new one because "
                             "the model is loaded into memory, so add a cell to unload it so we can train again.\n",
                             "still loaded in the same notebook", OomCause::kOtherProcess));
  EXPECT_FALSE(evidence_holds("CUDA out of memory\nHow do I unload the model in a notebook cell to train again?\n",
                              "still loaded in the same notebook"));
}

// review48's findings, mended.
TEST(DiagnoseKinds33, Review48Mends) {
  // A kill told later takes the title's place only as this run's: not another's, a past one, nor one
  // beside a GPU's OOM (that device is the title's).
  for (const char* text : {"OOM on A100 with batch 64\nNote: a different pod got 0/1 OOMKilled yesterday, unrelated.\n",
                           "OOM during tokenization\nIt used to be 0/1 OOMKilled, but after raising the limit that is gone.\n"}) {
    const std::optional<OomRecord> r = mentioned_oom(text);
    ASSERT_TRUE(r.has_value()) << text;
    EXPECT_EQ(r->line, 1) << text;
    EXPECT_NE(r->family, "oom_killer") << text;
  }
  const std::optional<OomRecord> beside = mentioned_oom(
      "OOM during training\nWe see OOM kills on the ingest nodes, but here the error is CUDA out of memory at step 10.\n");
  ASSERT_TRUE(beside.has_value());
  EXPECT_EQ(beside->line, 1);
  EXPECT_EQ(beside->device, "cuda");
  // Batch size 1 asked about or not wanted is no run at batch 1; conceded ("even if") it is.
  const std::string oom =
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.20 GiB (GPU 0; 15.77 GiB total capacity; "
      "13.90 GiB already allocated; 400.00 MiB free; 14.20 GiB reserved in total by PyTorch)\n";
  for (const char* line : {"Should I try a batch size as small as 1? I haven't yet, currently at 64.\n",
                           "I do not want to go down to batch size 1, that would be too slow; batch 32 fails.\n"}) {
    EXPECT_FALSE(evidence_holds(oom + line, "fails even at batch size 1")) << line;
  }
  EXPECT_TRUE(evidence_holds(oom + "But if I use my data, even though I reduce the batch size to 1 it throws.\n",
                             "fails even at batch size 1"));
  // ggml_init's assert asked about or told gone is no failure.
  EXPECT_TRUE(parse_oom_log("What does GGML_ASSERT: ggml.c:4411: ctx->mem_buffer != NULL mean? I never hit it.\n").empty());
  // Caffe: the cuDNN build told in use drops its candidate, told off raises it; Caffe2's enforce is
  // not Caffe's; Caffe's own message names Caffe beside a torch named; a negative host size wrapped.
  const std::string check = "F0512 syncedmem.cpp:71] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n";
  auto caffe_build = [&](const std::string& log) {
    const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
    for (const Finding& f : first(ds).findings) {
      if (f.title.find("without cuDNN") != std::string::npos) return f.score;
    }
    return 0.0;
  };
  EXPECT_EQ(caffe_build("We build Caffe with USE_CUDNN := 1 in Makefile.config.\n" + check), 0.0);
  EXPECT_EQ(caffe_build("I1111 layer_factory.hpp:77] Creating layer conv1 (CuDNNConvolution)\n" + check), 0.0);
  EXPECT_GT(caffe_build("# USE_CUDNN := 1\n" + check), caffe_build(check));
  EXPECT_NE(first(diagnose_log("[enforce fail at context_gpu.cu:415] error == cudaSuccess. 2 vs 0. Error at: "
                               "context_gpu.cu:415: out of memory\n",
                               rules_alone()))
                .framework,
            "caffe");
  EXPECT_EQ(first(diagnose_log("I switched from torch to caffe.\n" + check, rules_alone())).framework, "caffe");
  const Diagnosis wrapped = first(diagnose_log("Check failed: *ptr host allocation of size -1294967296 failed\n", rules_alone()));
  ASSERT_FALSE(wrapped.findings.empty());
  EXPECT_EQ(wrapped.findings.front().category, OomCause::kOther);
  // zh: the host's memory told exceeded is a report on the host; GPUs counted in Chinese ("每张卡") are not
  // the host; a supposition is none.
  const std::optional<OomRecord> zh = mentioned_oom("\xe8\xb7\x91\xe5\x88\xb0\xe4\xb8\x80\xe5\x8d\x8a\xe5\xb0\xb1\xe8\xb6\x85"
                                                    "\xe5\x86\x85\xe5\xad\x98\xe4\xba\x86\xe3\x80\x82\n");  // 跑到一半就超内存了。
  ASSERT_TRUE(zh.has_value());
  EXPECT_EQ(zh->device, "cpu");
  const std::optional<OomRecord> cards =
      mentioned_oom("8\xe5\x8d\xa1" "3090 sft OOM\n\xe6\xaf\x8f\xe5\xbc\xa0\xe5\x8d\xa1\xe5\x8f\xaa\xe5\x8d\xa0\xe7\x94\xa8\xe4\xba\x86"
                    "13G\xe5\x86\x85\xe5\xad\x98\xef\xbc\x8c\xe4\xbd\x86\xe6\x98\xaf\xe4\xbc\x9a OOM\xe3\x80\x82\n");  // 每张卡只占用了13G内存，但是会 OOM。
  ASSERT_TRUE(cards.has_value());
  EXPECT_NE(cards->device, "cpu");
  // The machine's freeze with its memory told fine is no report.
  EXPECT_FALSE(mentioned_oom("My laptop freeze when I open the tensorboard page. Memory of the model is fine.\n").has_value());
  // R's words told in a sentence or in quotes are a report on the host; asked or supposed, none.
  for (const char* text : {"R keeps saying cannot allocate vector of size and then stops.\n",
                           "I get the \"cannot allocate vector of size\" error in R when I merge two data frames.\n"}) {
    const std::optional<OomRecord> r = mentioned_oom(text);
    ASSERT_TRUE(r.has_value()) << text;
    EXPECT_EQ(r->device, "cpu") << text;
  }
  EXPECT_FALSE(mentioned_oom("What does \"cannot allocate vector of size\" mean in R?\n").has_value());
  EXPECT_FALSE(mentioned_oom("On 32-bit builds you would get this error: cannot allocate vector of size 1.5 Gb.\n").has_value());
  // A model from before still loaded in the session, paraphrased; its fix frees it in this kernel.
  const Diagnosis held = first(diagnose_log(
      oom + "The model from the previous run is still loaded in the same Jupyter session when I start training the next one.\n",
      rules_alone()));
  ASSERT_FALSE(held.findings.empty());
  EXPECT_EQ(held.findings.front().category, OomCause::kOtherProcess);
  EXPECT_NE(held.findings.front().fix.find("empty_cache"), std::string::npos) << held.findings.front().fix;
  // The title repeated in the post: one report at the post's line, no second occurrence; the post's
  // text after a message ending its line is not glued onto it.
  const OomRecord echoed = one_report("Title: RuntimeError: CUDA error: out of memory\n\nRuntimeError: CUDA error: out of memory\n");
  EXPECT_EQ(echoed.line, 3);
  EXPECT_EQ(echoed.occurrences, 1);
  for (const char* text : {"[Bug] CUDA out of memory\n### Describe the bug\nWhen I run the script:\n",
                           "CUDA out of memory. Tried to allocate 2.00 GiB\nBefore that the whole system froze for a minute.\n",
                           "CUDA out of memory. Tried to allocate 2.00 GiB\n\xe8\xa1\xa5\xe5\x85\x85\xef\xbc\x9a\xe6\x9c\x8d\xe5\x8a\xa1\xe5\x99\xa8\n"}) {
    const std::vector<OomRecord> rs = parse_oom_log(text);
    ASSERT_FALSE(rs.empty()) << text;
    EXPECT_EQ(rs.front().message.find('\n'), std::string::npos);
    for (const char* glued : {"###", "Before", "\xe8\xa1\xa5"}) {
      EXPECT_EQ(rs.front().message.find(glued), std::string::npos) << rs.front().message;
    }
  }
}

// held49's kinds (tests/data/oom-corpus-held49/), each on made-up text.
TEST(DiagnoseKinds33, Held49Kinds) {
  // The TPU runtime's "Bad hardware status": a TPU report whose true error is most often HBM outgrown.
  const OomRecord tpu = one_report("tensorflow.python.framework.errors_impl.UnavailableError: Bad hardware status: 0x1\n");
  EXPECT_EQ(tpu.device, "tpu");
  EXPECT_EQ(top_cause("UnavailableError: Bad hardware status: Queue is closed\n"), OomCause::kActivationsBatch);
  // LuaJIT's heap cap: its own limit first, the machine's RAM after it.
  const OomRecord lua = one_report("/usr/local/bin/luajit: not enough memory\n");
  EXPECT_EQ(lua.subsystem, "luajit");
  EXPECT_EQ(top_cause("th train.lua\n/usr/local/bin/luajit: not enough memory\n"), OomCause::kOther);
  // A copy kept per recompile, told as the cause: a leak across steps.
  EXPECT_TRUE(evidence_holds("XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 2.00GiB.\nIt "
                             "turned out to be due to the parameters getting copied each time a recompile was triggered.\n",
                             "kept per recompile", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory.\nThe params are copied into fp32 master "
                              "weights when the recompile is triggered once.\n",
                              "kept per recompile"));
  // A regression told; not denied.
  const std::string oom = "RuntimeError: CUDA error: out of memory\n";
  EXPECT_TRUE(evidence_holds(oom + "It worked under the initial release; after the newest release it no longer works.\n",
                             "a regression told", OomCause::kOther));
  EXPECT_FALSE(evidence_holds(oom + "I checked the older version too; it is not a regression, it worked nowhere.\n",
                              "a regression told"));
  // A setup for several GPUs run on one: the batch.
  EXPECT_TRUE(evidence_holds(oom + "I changed the gpus for a single one and ran the script on a 1080 Ti.\n",
                             "a setup for several GPUs run on one", OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds(oom + "We use 4 GPUs as in the paper.\n", "a setup for several GPUs run on one"));
  // A smaller input told not helping is no long input.
  EXPECT_FALSE(evidence_holds(oom + "Choosing smaller pictures doesn't help either.\n", "long inputs"));
}

// review49's findings, mended.
TEST(DiagnoseKinds33, Review49Mends) {
  const std::string oom =
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.69 GiB total capacity; 20.10 GiB already "
      "allocated; 1.50 GiB free; 21.00 GiB reserved in total by PyTorch)\n";
  // Several GPUs onto one only with the one GPU the destination; never a verdict by itself.
  EXPECT_FALSE(evidence_holds(oom + "We moved from a single GPU to 4 GPUs with DDP and now GPU 0 runs out.\n",
                              "a setup for several GPUs run on one"));
  EXPECT_FALSE(evidence_holds(oom + "Should I run it on one GPU instead of 4 GPUs?\n", "a setup for several GPUs run on one"));
  const Diagnosis moved = first(diagnose_log(oom + "I run it on one GPU instead of 4 GPUs.\n", rules_alone()));
  EXPECT_TRUE(moved.ambiguous());
  // A regression told as when it began; a dataset's release is none.
  EXPECT_TRUE(evidence_holds(oom + "Since upgrading to 2.3 I get this.\n", "a regression told", OomCause::kOther));
  EXPECT_TRUE(evidence_holds(oom + "One of the latest commits blew up memory requirements.\n", "a regression told"));
  EXPECT_FALSE(evidence_holds(oom + "Since the new dataset release it no longer fits.\n", "a regression told"));
  // A smaller input told not helping, in other words, speaks against the input's size.
  for (const char* line : {"Even with smaller pictures (128x128) it fails.\n",
                           "I tried smaller images and a smaller batch, neither helped.\n",
                           "Truncating to 1024 tokens does not change anything.\n"}) {
    EXPECT_FALSE(evidence_holds(oom + line, "long inputs")) << line;
    EXPECT_NE(top_cause(oom + line), OomCause::kActivationsSeqlen) << line;
  }
  // The idiom and the user's own kill are no kill for memory.
  EXPECT_FALSE(mentioned_oom("Killed two birds with one stone: faster training and lower memory\nIt trains fine.\n").has_value());
  EXPECT_FALSE(mentioned_oom("^C\nI killed it because it was too slow.\n").has_value());
  // "Bad hardware status" only as the TPU runtime raises it, not NCCL's words nor with the TPU denied.
  EXPECT_TRUE(parse_oom_log("NCCL WARN bad hardware status on 2x RTX 3090\n").empty());
  EXPECT_TRUE(parse_oom_log("Bad hardware status: 0x1 (not TPU, GPU:0 V100)\n").empty());
  // A copy per recompile: not one recompile, nor recompiles capped with the OOM still there.
  EXPECT_FALSE(evidence_holds(oom + "It turned out the params get copied each time a recompile is triggered; after adding "
                                    "cache_size_limit = 1 it still OOMs at step 0.\n",
                              "kept per recompile"));
}

// held50's kinds (tests/data/oom-corpus-held50/), each on made-up text.
TEST(DiagnoseKinds33, Held50Kinds) {
  // MXNet's convolution workspace cap: sized, the parameter's cap first, not the device's memory.
  const std::string mx = "[10:48:17] src/operator/./convolution-inl.h:296: Check failed: (param_.workspace) >= (required_size)\n"
                         "Minimum workspace size: 1228800000 Bytes\nGiven: 1073741824 Bytes\n";
  const OomRecord ws = one_report(mx);
  EXPECT_EQ(ws.subsystem, "mxnet_workspace");
  ASSERT_TRUE(ws.requested_bytes.has_value());
  EXPECT_EQ(*ws.requested_bytes, 1228800000);
  EXPECT_EQ(top_cause(mx), OomCause::kOther);
  // The cache and the free memory together covering the request: split segments, fragmentation.
  EXPECT_TRUE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 9.91 GiB (GPU 1; 31.75 GiB total capacity; "
                             "12.38 GiB already allocated; 8.59 GiB free; 21.75 GiB reserved in total by PyTorch)\n",
                             "together cover the request", OomCause::kFragmentation));
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 9.91 GiB (GPU 1; 31.75 GiB total capacity; "
                              "20.38 GiB already allocated; 1.59 GiB free; 21.75 GiB reserved in total by PyTorch)\n",
                              "together cover the request"));
  // A fix told as eliminating the issue is an account ("adding torch.cuda.empty_cache() eliminates the issue").
  EXPECT_TRUE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nAdding the "
                             "torch.cuda.empty_cache() line eliminates the issue.\n",
                             "the user's account", OomCause::kFragmentation));
  // The memory told filling up is a report in words.
  EXPECT_TRUE(mentioned_oom("Removed the dataset caching: it will unnecessarily fill up memory during training.\n").has_value());
  EXPECT_FALSE(mentioned_oom("Does the cache fill up memory if the dataset is large?\n").has_value());
}

// review50's findings, mended.
TEST(DiagnoseKinds33, Review50Mends) {
  // Another's claim reported and denied for the user is no account of the fix.
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nSomeone suggested that reducing "
                              "the batch size eliminates the issue, but for me it did not.\n",
                              "the user's account"));
  // The memory filling up supposed or feared is no report.
  for (const char* text : {"I suppose it would fill up memory if I used batch 512.\n",
                           "I worry the cache might fill up memory later on.\n"}) {
    EXPECT_FALSE(mentioned_oom(text).has_value()) << text;
  }
}

// MXNet named as a framework (a carried item): its own knobs in the fixes, no PyTorch probe nor oomkit flag.
TEST(DiagnoseKinds33, MxnetNamed) {
  const std::vector<Diagnosis> ds = diagnose_log(
      "import mxnet as mx\nnet = gluoncv.model_zoo.get_model('faster_rcnn_resnet50_v1b_voc', ctx=mx.gpu(0))\n"
      "mxnet.base.MXNetError: [10:01:02] src/storage/./pooled_storage_manager.h:157: cudaMalloc failed: out of memory\n",
      rules_alone());
  const Diagnosis& d = first(ds);
  EXPECT_EQ(d.framework, "mxnet");
  for (const Finding& f : d.findings) {
    EXPECT_EQ(f.fix.find("oomkit train"), std::string::npos) << f.fix;
    EXPECT_EQ(f.probe.find("torch.cuda"), std::string::npos) << f.probe;
    if (f.category == OomCause::kActivationsBatch) {
      EXPECT_NE(f.fix.find("MXNET_BACKWARD_DO_MIRROR"), std::string::npos) << f.fix;
    }
  }
  EXPECT_EQ(first(diagnose_log("Check failed: (param_.workspace) >= (required_size)\nMinimum workspace size: 1228800000 "
                               "Bytes\nGiven: 1073741824 Bytes\n",
                               rules_alone()))
                .framework,
            "mxnet");
  EXPECT_NE(first(diagnose_log("We do not use mxnet here.\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                               rules_alone()))
                .framework,
            "mxnet");
}

// held51's kind: a GPU named beside the host's RAM as a listed size is a hardware listing, the GPU's.
TEST(DiagnoseKinds33, Held51Kinds) {
  const std::optional<OomRecord> listed =
      mentioned_oom("Out of memory\nI was training yolov3 and got out of memory. I'm using a 1080Ti 11GB and 32GB RAM.\n");
  ASSERT_TRUE(listed.has_value());
  EXPECT_EQ(listed->device.rfind("cuda", 0), 0u) << listed->device;
  // The RAM told running out beside a GPU stays the host's.
  const std::optional<OomRecord> host =
      mentioned_oom("Out of memory\nOn my 3090 the run eats all the RAM and gets killed.\n");
  ASSERT_TRUE(host.has_value());
  EXPECT_EQ(host->device, "cpu");
}

// held52's kinds, each on inputs written for the kind (not the reports' texts).
TEST(DiagnoseKinds33, Held52Kinds) {
  // A runtime error's code name followed by its string ("cudaErrorMemoryAllocation: out of memory",
  // as CuPy and Numba print it) is one report, not two; CuPy's exception names CuPy.
  const std::vector<Diagnosis> cupy = diagnose_log(
      "x = cp.ones((40000, 40000))\ncupy.cuda.runtime.CUDARuntimeError: cudaErrorMemoryAllocation: out of memory\n",
      rules_alone());
  EXPECT_EQ(cupy.size(), 1u);
  EXPECT_EQ(first(cupy).framework, "cupy");
  EXPECT_EQ(parse_oom_log("RuntimeError: hipErrorOutOfMemory: out of memory\n").size(), 1u);
  // nvidia-smi's table header ("Volatile Uncorr. ECC") is no volatile=True.
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
                              "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n",
                              "volatile", OomCause::kEvalWithoutNoGrad));
  EXPECT_TRUE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
                             "I pass volatile=True to the Variable in my test loop.\n",
                             "volatile", OomCause::kEvalWithoutNoGrad));
  // cuDF's old error code for a failed RMM allocation is an OOM on the GPU.
  const std::vector<OomRecord> gdf = parse_oom_log("cudf.bindings.GDFError.GDFError: GDF_MEMORYMANAGER_ERROR\n");
  ASSERT_EQ(gdf.size(), 1u);
  EXPECT_EQ(gdf[0].device, "cuda");
  // Dask on GPUs (dask_cudf, LocalCUDACluster) names an accelerator: Dask's name alone is no host-only engine there.
  EXPECT_FALSE(evidence_holds("import dask_cudf\nfrom dask_cuda import LocalCUDACluster\n"
                              "cudf.bindings.GDFError.GDFError: GDF_MEMORYMANAGER_ERROR\n",
                              "no accelerator anywhere"));
  // The model's load told in Chinese with the OOM named in English (not after the load: 加载模型后).
  EXPECT_TRUE(evidence_holds("OOM\n\xe6\xaf\x8f\xe5\xbc\xa0\xe5\x8d\xa1\xe9\x83\xbd\xe5\x9c\xa8\xe5\x8a\xa0\xe8\xbd\xbd"
                             "\xe6\xa8\xa1\xe5\x9e\x8b\xe6\x97\xb6\xe5\x87\xba\xe7\x8e\xb0oom\n",  // 每张卡都在加载模型时出现oom
                             "fails while loading the model (zh)", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds("OOM\n\xe5\x8a\xa0\xe8\xbd\xbd\xe6\xa8\xa1\xe5\x9e\x8b\xe5\x90\x8e\xe8\xae\xad\xe7\xbb\x83"
                              "\xe6\x97\xb6oom\n",  // 加载模型后训练时oom
                              "fails while loading the model (zh)"));
  // Extra processes on GPU 0 in a multi-card run, told in Chinese; another user's process is not it.
  EXPECT_TRUE(evidence_holds("OOM\n\xe5\xa4\x9a\xe5\x8d\xa1\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6gpu0\xe4\xb8\x8a\xe5\xa4\x9a"
                             "\xe5\x87\xba\xe4\xb8\x89\xe4\xb8\xaa\xe8\xbf\x9b\xe7\xa8\x8b\n",  // 多卡训练时gpu0上多出三个进程
                             "extra processes on GPU 0", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds("OOM\ngpu0\xe4\xb8\x8a\xe6\x9c\x89\xe5\x85\xb6\xe4\xbb\x96\xe4\xba\xba\xe7\x9a\x84\xe8\xbf\x9b"
                              "\xe7\xa8\x8b\xef\xbc\x8c\xe5\xa4\x9a\xe5\x87\xba\xe6\x9d\xa5\xe7\x9a\x84\n",  // gpu0上有其他人的进程，多出来的
                              "extra processes on GPU 0"));
  // A KV cache allocated up front per layer by heads (a serving engine's cache manager).
  EXPECT_EQ(top_cause("    self.k_cache = [torch.empty((max_tokens, num_kv_heads, head_dim), dtype=torch.float16, "
                      "device='cuda') for _ in range(num_layers)]\n"
                      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.35 GiB total "
                      "capacity; 77.00 GiB already allocated; 1.00 GiB free; 77.10 GiB reserved in total by PyTorch)\n"),
            OomCause::kGenerationKvCache);
  // A numpy / SciPy array told failing with a memory error is host RAM; not with a GPU named on the line.
  EXPECT_EQ(top_cause("I tried to create np.zeros((200000, 200000)) and got a memory error.\n"), OomCause::kCpuRam);
  EXPECT_FALSE(evidence_holds("I tried to create np.zeros((200000, 200000)) on the GPU and got a memory error.\n",
                              "numpy / SciPy array"));
  // Darknet named: its .cfg's knobs in the fixes; its subdivisions read as the images per pass.
  const std::vector<Diagnosis> dn = diagnose_log(
      "./darknet detector train data/obj.data cfg/yolo-obj.cfg yolov4.conv.137\n"
      " Try to set subdivisions=64 in your cfg-file.\nCUDA status Error: file: ./src/dark_cuda.c : () : line: 373\n"
      "CUDA Error: out of memory\n",
      rules_alone());
  const Diagnosis& d = first(dn);
  EXPECT_EQ(d.framework, "darknet");
  ASSERT_FALSE(d.findings.empty());
  EXPECT_EQ(d.findings.front().category, OomCause::kActivationsBatch);
  EXPECT_NE(d.findings.front().fix.find("subdivisions="), std::string::npos) << d.findings.front().fix;
  // A version told fine before ("no problem with the previous version") is a regression told.
  EXPECT_TRUE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
                             "The same code had no problem with the previous version 4.x.\n",
                             "a regression told", OomCause::kOther));
  // A model's 16-bit weights and gradients beyond the one GPU the log names, in training: static.
  EXPECT_TRUE(evidence_holds("OOM training a llama model with 13B params\nI get out of memory when training on my 24GB GPU.\n",
                             "weights and gradients alone", OomCause::kStaticModelTooLarge));
  // ... not with several GPUs and no sharding named (tensor / pipeline parallelism may split it).
  EXPECT_FALSE(evidence_holds("OOM training a 68B model on 8 x H100 80GB\nI get out of memory when training.\n",
                              "weights and gradients alone"));
  // The model loaded with its optimizer's state: a training checkpoint resumed, the optimizer's.
  EXPECT_TRUE(evidence_holds("OOM on resume\nWe load the model and optimizer state dicts onto GPU 0 when loading the model, "
                             "which can OOM.\n",
                             "the optimizer's state loaded with the model", OomCause::kOptimizerState));
  // SIGKILL that a program sends is no kill of this process.
  EXPECT_FALSE(mentioned_oom("The manager sent SIGTERM but had no SIGKILL fallback, so the shard kept its GPU memory.\n")
                   .has_value() &&
               mentioned_oom("The manager sent SIGTERM but had no SIGKILL fallback, so the shard kept its GPU memory.\n")
                       ->family == "oom_killer");
  EXPECT_TRUE(mentioned_oom("The training process received SIGKILL after an hour.\n").has_value());
  // The other GPUs told far less used than the one that fills: the memory is placed unevenly.
  EXPECT_TRUE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nGPU0 is at 95% while the "
                             "other GPUs are at only 40%.\n",
                             "the other GPUs told free", OomCause::kMultiGpuImbalance));
  // A training word inside a model's hyphenated name is no training run.
  EXPECT_FALSE(evidence_holds("Model: OpenAssistant/oasst-sft-4-pythia-12b-epoch-3.5\nGPU: A10G 24GB\n"
                              "Out of memory after a few generate calls.\n",
                              "weights and gradients alone"));
}

// review52's findings, mended.
TEST(DiagnoseKinds33, Review52Mends) {
  // A KV cache allocated per layer by heads is read under a traceback's frame too.
  EXPECT_TRUE(evidence_holds("  File \"engine/cache.py\", line 41, in allocate\n"
                             "    self.value_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device=\"cuda\") "
                             "for _ in range(layer_num)]\n"
                             "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.14 GiB (GPU 0; 79.35 GiB "
                             "total capacity; 77.83 GiB already allocated; 711.19 MiB free; 77.83 GiB reserved in total by "
                             "PyTorch)\n",
                             "a KV cache allocated up front", OomCause::kGenerationKvCache));
  // "subdivisions" in another framework's words is no Darknet setting; batch=1 subdivisions=1 leaves nothing to split.
  EXPECT_FALSE(evidence_holds("Training with gradient accumulation, subdivisions of the batch are 4 microbatches\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                              "Darknet's mini-batch"));
  EXPECT_FALSE(evidence_holds("CUDA Error: out of memory\nbatch=1 subdivisions=1 in the cfg.\n", "Darknet's mini-batch"));
  // The other cards told fine (其它卡正常) are the same run's, not another user's process.
  EXPECT_TRUE(evidence_holds("OOM\n\xe5\xa4\x9a\xe5\x8d\xa1\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6" "cuda:0\xe4\xb8\x8a\xe5\xa4\x9a"
                             "\xe5\x87\xba" "7\xe4\xb8\xaa\xe8\xbf\x9b\xe7\xa8\x8b\xef\xbc\x8c\xe5\x85\xb6\xe5\xae\x83\xe5\x8d\xa1"
                             "\xe6\xad\xa3\xe5\xb8\xb8\n",  // 多卡训练时cuda:0上多出7个进程，其它卡正常
                             "extra processes on GPU 0", OomCause::kMultiGpuImbalance));
  // After the load finished (模型加载完成之后) is no failure while loading.
  EXPECT_FALSE(evidence_holds("OOM\n\xe6\xa8\xa1\xe5\x9e\x8b\xe5\x8a\xa0\xe8\xbd\xbd\xe5\xae\x8c\xe6\x88\x90\xe4\xb9\x8b\xe5"
                              "\x90\x8e\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6oom\n",  // 模型加载完成之后训练时oom
                              "fails while loading the model (zh)"));
  // CuPy 10 and later's exception path names CuPy.
  EXPECT_EQ(first(diagnose_log("cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorMemoryAllocation: out of memory\n",
                               rules_alone()))
                .framework,
            "cupy");
  // GPU 0 told holding far more than another GPU: uneven placement.
  EXPECT_TRUE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nWith nn.DataParallel the cuda:0 "
                             "memory usage is much higher than cuda:1.\n",
                             "the other GPUs told free", OomCause::kMultiGpuImbalance));
  // Idle GPUs the job does not use are no unevenness.
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nOther GPUs in the node are idle "
                              "(not used by this job).\n",
                              "the other GPUs told free"));
  // optimizer.load_state_dict in the traceback: the optimizer's state loaded, not the model.
  EXPECT_EQ(top_cause("  File \"train.py\", line 60, in resume\n    optimizer.load_state_dict(ckpt[\"optimizer\"])\n"
                      "RuntimeError: CUDA out of memory. Tried to allocate 400.00 MiB (GPU 0; 10.76 GiB total capacity; "
                      "9.80 GiB already allocated; 200.00 MiB free; 9.90 GiB reserved in total by PyTorch)\n"),
            OomCause::kOptimizerState);
  // RAPIDS (RMM's failure, cuDF named) words its fixes in partitions and RMM, not a native runtime's.
  const Diagnosis& r = first(diagnose_log("import dask_cudf\ndf = dask_cudf.read_csv('big.csv')\n"
                                          "cudf.bindings.GDFError.GDFError: GDF_MEMORYMANAGER_ERROR\n",
                                          rules_alone()));
  EXPECT_EQ(r.framework, "rapids");
  for (const Finding& f : r.findings) {
    if (f.category == OomCause::kActivationsBatch) {
      EXPECT_NE(f.fix.find("partitions"), std::string::npos) << f.fix;
    }
  }
}

// held53's kinds, each on inputs written for the kind.
TEST(DiagnoseKinds33, Held53Kinds) {
  // PyTorch holding more than the device (Windows' sysmem fallback into shared memory): the model
  // held beyond the card, static memory first.
  EXPECT_EQ(top_cause("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity "
                      "of 8.00 GiB of which 0 bytes is free. Of the allocated memory 19.20 GiB is allocated by PyTorch, and "
                      "12.00 MiB is reserved by PyTorch but unallocated.\n"),
            OomCause::kStaticModelTooLarge);
  // Fragmentation told with the allocator's own figures ("reserved but unused").
  EXPECT_TRUE(evidence_holds("Fix OOM\nThe backward still OOMed due to fragmentation: 6.2 GiB were reserved but unused.\n",
                             "fragmentation, in the user's words", OomCause::kFragmentation));
  // pandas' frames in a traceback and no accelerator anywhere: host memory.
  EXPECT_EQ(top_cause("OOM in the join step\nTraceback (most recent call last):\n  File \"join.py\", line 21, in main\n"
                      "    left = pd.read_csv(path, sep='\\t')\n"
                      "  File \"/usr/local/lib/python3.10/site-packages/pandas/io/parsers/readers.py\", line 611, in _read\n"
                      "    return parser.read(nrows)\n"),
            OomCause::kCpuRam);
  // Only one of several GPUs used, in English and Chinese; not asked, nor told as the fix.
  EXPECT_TRUE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nThe server has two GPUs but "
                             "only one GPU is used during inference.\n",
                             "only one of several GPUs used", OomCause::kMultiGpuImbalance));
  EXPECT_TRUE(evidence_holds("OOM\n\xe5\x8f\x8c\xe5\x8d\xa1\xe6\x9c\x8d\xe5\x8a\xa1\xe5\x99\xa8\xef\xbc\x8c\xe5\x8f\xaa"
                             "\xe4\xbd\xbf\xe7\x94\xa8\xe4\xba\x86\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1\n",  // 双卡服务器，只使用了一张卡
                             "only one of several GPUs used", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nIs only one GPU is used here?\n",
                              "only one of several GPUs used"));
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nThe fix: only one GPU is used "
                              "per process now.\n",
                              "only one of several GPUs used"));
  // Other VRAM consumers (the desktop, a game) named: other processes hold the GPU.
  EXPECT_TRUE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nThe estimate ignores other VRAM "
                             "consumers such as the desktop and Steam.\n",
                             "other jobs on the GPU", OomCause::kOtherProcess));
}

// review53's findings, mended.
TEST(DiagnoseKinds33, Review53Mends) {
  // Fragmentation in a general note or another problem's is not told of this failure; the bare word
  // "reserved" without the allocator's figure is no fragmentation told.
  EXPECT_FALSE(evidence_holds("RESOURCE_EXHAUSTED: Out of memory while trying to allocate 6.10GiB.\nNote: memory "
                              "fragmentation of the pool may prevent large allocations.\n",
                              "fragmentation, in the user's words"));
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nWe had memory fragmentation "
                              "last month; this is a different problem.\n",
                              "fragmentation, in the user's words"));
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nThe GPU was reserved for us to "
                              "avoid fragmentation of the schedule.\n",
                              "fragmentation, in the user's words"));
  // Each DDP rank on its own GPU is no imbalance.
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nWith DDP each process uses "
                              "only one GPU as expected.\n",
                              "only one of several GPUs used"));
  // Other GPU consumers denied are none.
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\nI checked for other GPU "
                              "consumers; there were none.\n",
                              "other jobs on the GPU"));
}

// Session 41's kinds, each on inputs written for the kind.
TEST(DiagnoseKinds34, TcmallocAndKernelRestarter) {
  // tcmalloc's large allocation that returned none is a host allocation failure with its size; one
  // that returned an address is a warning, no report.
  const auto failed = parse_oom_log("tcmalloc: large alloc 4294967296 bytes == (nil) @  0x7f3a 0x7f3b\n");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].device, "cpu");
  EXPECT_EQ(failed[0].requested_bytes, int64_t{4294967296});
  EXPECT_EQ(failed[0].requested_printed, "4294967296 bytes");
  EXPECT_TRUE(parse_oom_log("tcmalloc: large alloc 4294967296 bytes == 0x55d4e000 @  0x7f3a 0x7f3b\n").empty());
  // Jupyter's restarter finding the kernel gone is a host report; tcmalloc's large allocation near it,
  // before or after (a log viewer listing the newest first), is its request.
  const std::string notebook =
      "Colab keeps restarting\n10:20:09 PM | INFO | KernelRestarter: restarting kernel (1/5), keep random ports\n"
      "10:20:04 PM | WARNING | tcmalloc: large alloc 8589934592 bytes == 0x7f8880000000 @ 0x7f94b4551001\n";
  EXPECT_TRUE(parse_oom_log(notebook).empty());
  const auto told = mentioned_oom(notebook);
  ASSERT_TRUE(told.has_value());
  EXPECT_EQ(told->device, "cpu");
  EXPECT_EQ(told->requested_bytes, int64_t{8589934592});
  EXPECT_EQ(top_cause(notebook), OomCause::kCpuRam);
  // A GPU report's log with tcmalloc's warning in it keeps its own size.
  const auto gpu = parse_oom_log("tcmalloc: large alloc 1073741824 bytes == 0x5566 @ 0x1\nRuntimeError: CUDA out of memory. "
                                 "Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)\n");
  ASSERT_EQ(gpu.size(), 1u);
  EXPECT_EQ(gpu[0].requested_bytes, int64_t{2} << 30);
}

// held54's kinds, each on inputs written for the kind.
TEST(DiagnoseKinds34, Held54Kinds) {
  // Resuming from a checkpoint: the optimizer's state loaded onto the GPU comes first.
  EXPECT_EQ(top_cause("CUDA out of memory on resume\nThe first run trains, but when I resume the run from its checkpoint the "
                      "GPU runs out of memory.\n"),
            OomCause::kOptimizerState);
  // TensorFlow (tensorflow_datasets) imported beside JAX, not kept off the GPU: its pool takes the GPU.
  const std::string jax_tfds =
      "import jax.numpy as jnp\nimport tensorflow_datasets as tfds\nds = tfds.load('mnist')\n"
      "The apply step runs out of memory on the GPU.\n";
  EXPECT_EQ(top_cause(jax_tfds), OomCause::kOther);
  EXPECT_TRUE(evidence_holds(jax_tfds, "TensorFlow imported beside JAX", OomCause::kOther));
  EXPECT_FALSE(evidence_holds("import jax.numpy as jnp\nimport tensorflow as tf\ntf.config.set_visible_devices([], 'GPU')\n"
                              "The apply step runs out of memory on the GPU.\n",
                              "TensorFlow imported beside"));
  // A load onto GPU 0 with little of its own held, on a machine with several GPUs in the user's
  // words: each rank's torch.load restores onto GPU 0.
  EXPECT_EQ(top_cause("Resuming fails: the instance has 8 GPUs.\n  File \"main.py\", line 136, in load_model\n"
                      "    optimizer.load_state_dict(torch.load(optimizer_path))\n"
                      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 11.17 GiB total capacity; "
                      "962.69 MiB already allocated; 17.19 MiB free)\n"),
            OomCause::kMultiGpuImbalance);
  // PyTorch's bare head quoted above the message itself: one report, with the message's figures.
  const auto quoted = parse_oom_log("So it causes \"RuntimeError: CUDA out of memory.\":\n```\n  File \"main.py\", line 1\n"
                                    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 11.17 GiB total "
                                    "capacity; 962.69 MiB already allocated; 17.19 MiB free; 1.02 GiB cached)\n");
  ASSERT_EQ(quoted.size(), 1u);
  EXPECT_EQ(quoted[0].requested_bytes, int64_t{20} << 20);
  // Chinese: GPU memory uneven (显存 ... 不均衡) and the first cards full, the rest idle.
  EXPECT_EQ(top_cause("\xe9\x83\xa8\xe7\xbd\xb2\xe6\xa8\xa1\xe5\x9e\x8b\xe6\x98\xbe\xe5\xad\x98\xe9\x85\x8d\xe6\xaf\x94\xe4\xb8\x8d"
                      "\xe5\x9d\x87\xe8\xa1\xa1\xef\xbc\x8c\xe4\xbc\x9a\xe6\x8a\xa5\xe6\x98\xbe\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba\n"),
            OomCause::kMultiGpuImbalance);  // 部署模型显存配比不均衡，会报显存溢出
  EXPECT_EQ(top_cause("\xe5\x9b\x9b\xe5\xbc\xa0\xe5\x8d\xa1\xef\xbc\x8c" "0\xe5\x8d\xa1\xe6\x80\xbb\xe6\x98\xaf\xe6\x98\xbe\xe5"
                      "\xad\x98\xe6\xba\xa2\xe5\x87\xba\xef\xbc\x8c\xe5\x85\xb6\xe4\xbd\x99\xe5\x8d\xa1\xe6\x98\xbe\xe5\xad\x98"
                      "\xe5\x8d\xa0\xe7\x94\xa8\xe6\x9e\x81\xe5\xb0\x91\n"),
            OomCause::kMultiGpuImbalance);  // 四张卡，0卡总是显存溢出，其余卡显存占用极少
  // The whole model put on GPU:0 where device_map="auto" would have spread it.
  EXPECT_EQ(top_cause("Large 34B model OOM in evaluation\nThis line allocates the whole model onto GPU:0 again, should have "
                      "used `device_map=\"auto\"` when loading.\n"),
            OomCause::kMultiGpuImbalance);
  // A traceback's frame under a list's number ("1、File ..."): the model's move to the GPU read.
  EXPECT_EQ(top_cause("1\xe3\x80\x81" "File \"train.py\", line 82, in <module>\n    model = model.cuda()\n"
                      "2\xe3\x80\x81 CUDA out of memory. Tried to allocate 28.27 GiB (GPU 0; 15.77 GiB total capacity; "
                      "47.02 MiB already allocated;\n"),
            OomCause::kStaticModelTooLarge);
  // The memory full after the program ran for a time: it grew while it ran.
  EXPECT_TRUE(evidence_holds("After running for more than ten minutes, the GPU memory is full.\n",
                             "the memory full after running for a time", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("After 2 epochs it fails with CUDA out of memory.\n", "the memory full after running for a time"));
  // TensorRT's builder skipping a tactic for want of scratch memory: its warning, not the failure.
  EXPECT_EQ(top_cause("[TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] Error Code 2: OutOfMemory (no further "
                      "information)\n[TRT] [W] Requested amount of GPU memory (17179869184 bytes) could not be allocated.\n"
                      "[TRT] [W] Skipping tactic 8 due to insufficient memory on requested size of 17179869184 detected for "
                      "tactic 0x3c.\nI'm testing on a T4 GPU with 15.1GB VRAM.\n"),
            OomCause::kOther);
}

// review54's findings, mended.
TEST(DiagnoseKinds34, Review54Mends) {
  // The optimizer's saved state deserialized in the traceback (optimizer.load_state_dict(torch.load(...))).
  EXPECT_EQ(top_cause("  File \"trainer.py\", line 2437, in _load_optimizer_and_scheduler\n"
                      "    self.optimizer.load_state_dict(torch.load(os.path.join(checkpoint, OPTIMIZER_NAME)))\n"
                      "RuntimeError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 23.69 GiB total capacity; 22.10 "
                      "GiB already allocated; 180.00 MiB free; 22.40 GiB reserved in total by PyTorch)\n"),
            OomCause::kOptimizerState);
  // The resume told in a title beside the full message; the checkpoint told kept on another line.
  const std::string resume = "Resuming from checkpoint causes OOM\nRuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB "
                             "(GPU 0; 15.78 GiB total capacity; 14.20 GiB already allocated; 512.00 MiB free; 14.60 GiB "
                             "reserved in total by PyTorch)\n";
  EXPECT_EQ(top_cause(resume), OomCause::kOptimizerState);
  EXPECT_EQ(top_cause("Resuming from checkpoint causes OOM\nI found the cause: the checkpoint pickle was wasting 1GB, it is "
                      "never unloaded.\n" + resume.substr(resume.find('\n') + 1)),
            OomCause::kOther);
  // TensorFlow beside PyTorch, memory held before the model exists: TensorFlow's pool first.
  EXPECT_EQ(top_cause("import tensorflow as tf\nimport torch\nRuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB "
                      "(GPU 0; 15.78 GiB total capacity; 310.00 MiB already allocated; 240.00 MiB free; 330.00 MiB reserved "
                      "in total by PyTorch)\n"),
            OomCause::kOther);
  // XLA's BFC warning before the XlaRuntimeError for the same bytes: one report, XLA's.
  const auto jax = parse_oom_log(
      "2024-01-01 00:00:00.000000: W external/tsl/tsl/framework/bfc_allocator.cc:485] Allocator (GPU_0_bfc) ran out of "
      "memory trying to allocate 1.00GiB (rounded to 1073741824)requested by op \njaxlib.xla_extension.XlaRuntimeError: "
      "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1073741824 bytes.\n");
  ASSERT_EQ(jax.size(), 1u);
  EXPECT_EQ(jax[0].family, "xla");
  // A quoted head with its size above the message: one report.
  EXPECT_EQ(parse_oom_log("I get \"CUDA out of memory. Tried to allocate 2.00 GiB\" every time I run eval:\n"
                          "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; "
                          "12.50 GiB already allocated; 1.00 GiB free; 13.00 GiB reserved in total by PyTorch)\n")
                .size(),
            1u);
  // Several GPUs in a later sentence than "pretrained".
  EXPECT_EQ(top_cause("Loading the pretrained weights fails. The instance has 8 GPUs (A100 40GB).\n  File \"ft.py\", line 40, "
                      "in <module>\n    state = torch.load(\"model.pt\")\nRuntimeError: CUDA out of memory. Tried to allocate "
                      "200.00 MiB (GPU 0; 39.59 GiB total capacity; 120.00 MiB already allocated; 50.00 MiB free; 140.00 MiB "
                      "reserved in total by PyTorch)\n"),
            OomCause::kMultiGpuImbalance);
  // Chinese: the first cards full, the rest idle; after hours the GPU memory full.
  EXPECT_TRUE(evidence_holds("OOM\n\xe5\x89\x8d\xe4\xb8\xa4\xe5\xbc\xa0\xe5\x8d\xa1\xe8\xb7\x91\xe6\xbb\xa1\xef\xbc\x8c\xe5\x90\x8e"
                             "\xe4\xb8\xa4\xe5\xbc\xa0\xe5\x8d\xa1\xe5\x87\xa0\xe4\xb9\x8e\xe6\x97\xa0\xe5\x8d\xa0\xe7\x94\xa8\n",
                             "one GPU holds more than the others", OomCause::kMultiGpuImbalance));  // 前两张卡跑满，后两张卡几乎无占用
  EXPECT_TRUE(evidence_holds("OOM\n\xe8\xae\xad\xe7\xbb\x83\xe4\xba\x86\xe5\x87\xa0\xe4\xb8\xaa\xe5\xb0\x8f\xe6\x97\xb6\xe5\x90\x8e"
                             "\xe6\x98\xbe\xe5\xad\x98\xe5\xb0\xb1\xe6\xbb\xa1\xe4\xba\x86\n",
                             "the memory full after running for a time", OomCause::kLeakAcrossSteps));  // 训练了几个小时后显存就满了
  // English: GPU 0 against the others' smaller use.
  EXPECT_EQ(top_cause("With DataParallel on 8 GPUs, GPU 0 uses 31GB while GPUs 1-7 only use 9GB each. Then:\nRuntimeError: CUDA "
                      "out of memory. Tried to allocate 1.20 GiB (GPU 0; 31.75 GiB total capacity; 29.50 GiB already "
                      "allocated; 800.00 MiB free; 30.20 GiB reserved in total by PyTorch)\n"),
            OomCause::kMultiGpuImbalance);
  // After N epochs the memory told full: growth.
  EXPECT_TRUE(evidence_holds("After 10 epochs the GPU memory is full.\n", "the memory full after running for a time",
                             OomCause::kLeakAcrossSteps));
  // TensorRT: a finished build between the skipped tactics and the failure is the engine's run.
  EXPECT_FALSE(evidence_holds("[TRT] [W] Skipping tactic 5 due to insufficient memory on requested size of 17179869184\n"
                              "[TRT] [I] Engine generation completed in 80 seconds.\n[TRT] [E] 1: [executionContext.cpp::"
                              "ExecutionContext::564] Error Code 1: Cuda Runtime (out of memory)\n",
                              "TensorRT's builder skips a tactic"));
  // HF's pipeline() built in a numbered frame: the model's load.
  EXPECT_EQ(top_cause("1) File \"infer.py\", line 20, in <module>\n   pipe = pipeline(\"text-generation\", model=name, device=0)\n"
                      "RuntimeError: CUDA out of memory. Tried to allocate 500.00 MiB (GPU 0; 7.79 GiB total capacity; 7.20 GiB "
                      "already allocated; 100.00 MiB free; 7.30 GiB reserved in total by PyTorch)\n"),
            OomCause::kStaticModelTooLarge);
}

// held55's kinds, each on inputs written for the kind.
TEST(DiagnoseKinds34, Held55Kinds) {
  // A kernel's module failing to load out of memory: the device already taken (a framework's pool).
  const std::string cubin = "import jax\nXlaRuntimeError: INTERNAL: Failed to load in-memory CUBIN: CUDA_ERROR_OUT_OF_MEMORY: out "
                            "of memory\n";
  EXPECT_EQ(top_cause(cubin), OomCause::kOther);
  EXPECT_TRUE(evidence_holds(cubin, "a kernel's module (CUBIN) could not load", OomCause::kOther));
  // Memory growing forward pass after forward pass where nothing trains: graphs kept.
  EXPECT_EQ(top_cause("OOM after consecutive forward passes\nmodel = from_pretrained('org/model').to('cuda')\nout = model(x)\n"
                      "After every forward pass the memory consumption increases, until I eventually get OOM.\n"),
            OomCause::kEvalWithoutNoGrad);
  // unsloth's inference mode with a direct forward.
  EXPECT_TRUE(evidence_holds("OOM when accessing model().loss\nFastLanguageModel.for_inference(model)\na = model(input_ids).loss\n",
                             "the model put in inference mode (for_inference)", OomCause::kEvalWithoutNoGrad));
  // A large protein: the structure model's sequence.
  EXPECT_TRUE(evidence_holds("Small proteins work. Predicting a large protein fails:\nResource exhausted: Out of memory while "
                             "trying to allocate 12026119256 bytes.\n",
                             "long inputs, in the user's words", OomCause::kActivationsSeqlen));
  // Adapters on a named model whose frozen 16-bit weights exceed the named GPU (also in Chinese, the
  // size glued to the family's name); not where they fit.
  EXPECT_TRUE(evidence_holds("LoRA fine-tuning llama-2-13b on one RTX 4090 24GB runs out of memory\n",
                             "adapters on the named model", OomCause::kStaticModelTooLarge));
  EXPECT_EQ(top_cause("\xe5\x8f\x8c\xe5\x8d\xa1" "4090 lora\xe5\xbe\xae\xe8\xb0\x83" "Baichuan13b\xe5\x8f\x91\xe7\x94\x9f"
                      "OOM\xe9\x94\x99\xe8\xaf\xaf\n"),  // 双卡4090 lora微调Baichuan13b发生OOM错误
            OomCause::kStaticModelTooLarge);
  EXPECT_FALSE(evidence_holds("LoRA fine-tuning llama-2-7b on one RTX 4090 24GB runs out of memory\n",
                              "adapters on the named model"));
}

// review55's findings, mended.
TEST(DiagnoseKinds34, Review55Mends) {
  // The CUBIN reading: only on the report's own line, not with preallocation turned off, not the
  // warning that falls back to PTX; CuPy's moduleLoadData too.
  EXPECT_FALSE(evidence_holds("export XLA_PYTHON_CLIENT_PREALLOCATE=false\nXlaRuntimeError: INTERNAL: Failed to load in-memory "
                              "CUBIN: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n",
                              "a kernel's module (CUBIN) could not load"));
  EXPECT_FALSE(evidence_holds("W external/xla/xla/stream_executor/gpu/asm_compiler.cc] Failed to load in-memory CUBIN: "
                              "CUDA_ERROR_OUT_OF_MEMORY: out of memory (falling back to PTX)\nRESOURCE_EXHAUSTED: Out of "
                              "memory while trying to allocate 2147483648 bytes.\n",
                              "a kernel's module (CUBIN) could not load"));
  // Growth after every forward pass under no_grad / inference_mode is no graph kept.
  EXPECT_FALSE(evidence_holds("with torch.no_grad():\n    out = model(x)\nAfter every forward pass the memory consumption "
                              "increases, until I eventually get OOM.\n",
                              "(during inference)", OomCause::kEvalWithoutNoGrad));
  // for_inference: not with inference_mode shown, nor where generate() runs.
  EXPECT_FALSE(evidence_holds("FastLanguageModel.for_inference(model)\n@torch.inference_mode()\ndef score(x):\n"
                              "    return model(x).loss\nOOM when scoring\n",
                              "the model put in inference mode (for_inference)"));
  EXPECT_FALSE(evidence_holds("FastLanguageModel.for_inference(model)\nout = model.generate(ids, max_new_tokens=8192)\n"
                              "OOM when generating\n",
                              "the model put in inference mode (for_inference)"));
  // A large protein corpus is no one long input; Chinese 很大的蛋白 is.
  EXPECT_FALSE(evidence_holds("OOM pretraining on a large protein corpus\n", "long inputs, in the user's words"));
  EXPECT_TRUE(evidence_holds("OOM\n\xe9\xa2\x84\xe6\xb5\x8b\xe4\xb8\x80\xe4\xb8\xaa\xe5\xbe\x88\xe5\xa4\xa7\xe7\x9a\x84\xe8\x9b\x8b"
                             "\xe7\x99\xbd\xef\xbc\x8c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\n",  // 预测一个很大的蛋白，显存不够
                             "long inputs, in the user's words", OomCause::kActivationsSeqlen));
  // Adapters: not with QLoRA's 4-bit weights, ZeRO, FSDP or device_map spreading the layers.
  for (const char* spread : {"QLoRA (load_in_4bit=True) ", "LoRA with device_map=\"auto\" ", "LoRA with FSDP ",
                             "LoRA with deepspeed ZeRO-3 "}) {
    EXPECT_FALSE(evidence_holds(std::string(spread) + "fine-tuning llama-2-13b on RTX 4090 24GB runs out of memory\n",
                                "adapters on the named model"))
        << spread;
  }
}

// held56's kinds (session 42).
TEST(DiagnoseKinds35, Held56Kinds) {
  // A graph kept where nothing trains: a missing detach told as the cause of growth in sampling or
  // inference is evaluation without no_grad; in training it stays a leak.
  EXPECT_TRUE(evidence_holds("Memory blows up when drawing samples\nThe memory grows in sampling with every batch: it was the "
                             "missing .detach() on the drawn samples.\n",
                             "a detach told missing", OomCause::kEvalWithoutNoGrad));
  EXPECT_FALSE(evidence_holds("Memory blows up in training\nThe memory grows in sampling during training with every epoch: it "
                              "was the missing .detach() on the drawn samples.\n",
                              "a detach told missing"));
  // Full fine-tuning of a named model on one GPU whose 16-bit weights and gradients take most of it
  // (over 60%): the model's training state does not fit; not on several GPUs with no sharding named.
  EXPECT_TRUE(evidence_holds("Full fine-tuning llama-2-7b on one V100 32GB runs out of memory\n",
                             "with Adam's state (12 bytes per parameter, assumed)", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds("Full fine-tuning llama-2-7b on 16 x 40GB GPUs runs out of memory\n",
                              "with Adam's state (12 bytes per parameter, assumed)"));
  // A kill told in Chinese (被kill, 杀掉, the system's OOM), not denied, not on a line telling growth.
  EXPECT_TRUE(evidence_holds("OOM\n\xe5\x8a\xa0\xe8\xbd\xbd\xe6\xa8\xa1\xe5\x9e\x8b\xe6\x97\xb6\xe7\xa8\x8b\xe5\xba\x8f\xe8\xa2\xab"
                             "kill\xe4\xba\x86\n",  // 加载模型时程序被kill了 (the program was killed loading the model)
                             "the process was killed", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("OOM\n\xe7\xa8\x8b\xe5\xba\x8f\xe6\xb2\xa1\xe6\x9c\x89\xe8\xa2\xab" "kill\n",  // 程序没有被kill
                              "the process was killed"));
  EXPECT_FALSE(evidence_holds("OOM\n\xe5\x86\x85\xe5\xad\x98\xe6\x8c\x81\xe7\xbb\xad\xe5\xa2\x9e\xe9\x95\xbf\xe7\x9b\xb4\xe5\x88\xb0"
                              "\xe8\xa2\xab" "kill\xe6\x8e\x89\n",  // 内存持续增长直到被kill掉 (grows until killed)
                              "the process was killed"));
  // A kill told while the memory is told low: other, with its own title; not with the memory high.
  const std::string low = "Container restarts\nThe server exits with code 137 after a request. But the memory usage is low "
                          "(3GB/32GB memory).\n";
  EXPECT_EQ(top_cause(low), OomCause::kOther);
  const std::vector<Diagnosis> ds = diagnose_log(low, rules_alone());
  ASSERT_FALSE(ds.empty());
  EXPECT_NE(ds.front().findings.front().title.find("something other than memory sent the kill"), std::string::npos);
  EXPECT_FALSE(evidence_holds("The server exits with code 137 after a request. The memory usage is high (31GB/32GB).\n",
                              "a kill told while the memory is told low"));
}

// IPython / Jupyter tracebacks read as Python's: the frames and the arrow's code line, not the
// numbered context lines around it.
TEST(DiagnoseKinds35, IpythonTracebacks) {
  // IPython 8: an optimizer step's frame.
  const std::string ipython8 =
      "OutOfMemoryError                          Traceback (most recent call last)\n"
      "Cell In[12], line 9\n"
      "      7 loss = model(x).sum()\n"
      "      8 loss.backward()\n"
      "----> 9 optimizer.step()\n"
      "\n"
      "File ~/venv/lib/python3.10/site-packages/torch/optim/adam.py:141, in Adam.step(self, closure)\n"
      "    139 state = self.state[p]\n"
      "--> 141 state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)\n"
      "\n"
      "OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 7.10 GiB already "
      "allocated; 10.00 MiB free; 7.20 GiB reserved in total by PyTorch)\n";
  EXPECT_EQ(first_phase(ipython8), "optimizer_step");
  // IPython 7: a Keras model's constructor (its variables created), not the context line's backward.
  const std::string ipython7 =
      "ResourceExhaustedError                    Traceback (most recent call last)\n"
      "<ipython-input-35-1a3bbd5216b5> in <module>\n"
      "      1 x.backward()\n"
      "----> 2 model = keras.applications.resnet.ResNet50(weights=None)\n"
      "\n"
      "/usr/local/lib/python3.6/dist-packages/keras/applications/resnet.py in ResNet50(*args, **kwargs)\n"
      "     13 def ResNet50(*args, **kwargs):\n"
      "---> 14     return resnet.ResNet50(*args, **kwargs)\n"
      "\n"
      "ResourceExhaustedError: OOM when allocating tensor with shape[3,3,256,256] and type float on "
      "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n";
  EXPECT_EQ(first_phase(ipython7), "model_load");
  EXPECT_TRUE(evidence_holds(ipython7, "a Keras model built", OomCause::kStaticModelTooLarge));
}

// review56's findings, mended.
TEST(DiagnoseKinds35, Review56Mends) {
  // Growth told in sampling on one line, the missing detach on the next: the graphs kept, eval.
  EXPECT_EQ(top_cause("Memory keeps growing during sampling, about 200MB per batch, until CUDA out of memory.\n"
                      "I forgot to .detach() the logits in my sampling loop, I append them to a list.\n"
                      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 23.69 GiB total "
                      "capacity; 21.80 GiB already allocated; 300.00 MiB free; 22.10 GiB reserved in total by PyTorch)\n"),
            OomCause::kEvalWithoutNoGrad);
  // The memory told low: the host's, with no spike, growth or full memory told on the line.
  EXPECT_TRUE(evidence_holds("Process killed (SIGKILL) during checkpoint save. RAM usage looks fine, GPU memory is normal.\n",
                             "a kill told while the memory is told low", OomCause::kOther));
  EXPECT_FALSE(evidence_holds("Memory usage is normal during training, then at evaluation it spikes and the process is killed.\n",
                              "a kill told while the memory is told low"));
  EXPECT_FALSE(evidence_holds("The pod was killed, exit code 137. GPU memory usage is fine but host RAM hits 100%.\n",
                              "a kill told while the memory is told low"));
  EXPECT_FALSE(evidence_holds("The pod was killed, exit code 137. GPU memory usage is low.\n",
                              "a kill told while the memory is told low"));
  // The training arithmetic against the message's capacity: a 13B model's 16-bit weights and
  // gradients take 61% of an 80 GB GPU (static); a 7B model's exceed a 24 GB one.
  EXPECT_TRUE(evidence_holds("Full fine-tuning of a 13B model on one A100 with Adam.\nRuntimeError: CUDA out of memory. Tried "
                             "to allocate 100.00 MiB (GPU 0; 79.15 GiB total capacity; 78.50 GiB already allocated; 40.00 "
                             "MiB free; 78.70 GiB reserved in total by PyTorch)\n",
                             "per GPU of the 79.15 GiB device", OomCause::kStaticModelTooLarge));
  EXPECT_TRUE(evidence_holds("Full fine-tuning of Llama-2-7B on a 3090 with AdamW.\nRuntimeError: CUDA out of memory. Tried "
                             "to allocate 86.00 MiB (GPU 0; 23.69 GiB total capacity; 23.40 GiB already allocated; 30.00 "
                             "MiB free; 23.50 GiB reserved in total by PyTorch)\n",
                             "more than the 23.69 GiB device", OomCause::kStaticModelTooLarge));
  // A layer's add_weight on the arrow's code line: the model being built.
  EXPECT_EQ(first_phase("ResourceExhaustedError                    Traceback (most recent call last)\n"
                        "<ipython-input-4-0c6f3e1b2a9d> in build(self, input_shape)\n"
                        "      2     def build(self, input_shape):\n"
                        "----> 3         self.table = self.add_weight(shape=(50000000, 512))\n"
                        "\n"
                        "ResourceExhaustedError: OOM when allocating tensor with shape[50000000,512] and type float on "
                        "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n"),
            "model_load");
}

// held57's kinds (session 42).
TEST(DiagnoseKinds35, Held57Kinds) {
  // Long inputs told in Chinese: an input noun with 长 beside it; not 增长 (growth) nor 长度 alone.
  EXPECT_TRUE(evidence_holds("\xe5\xa4\x84\xe7\x90\x86\xe6\xaf\x94\xe8\xbe\x83\xe9\x95\xbf\xe7\x9a\x84\xe9\x9f\xb3\xe9\xa2\x91"
                             "\xe4\xbc\x9a\xe7\x88\x86\xe6\x98\xbe\xe5\xad\x98\n",  // 处理比较长的音频会爆显存
                             "long inputs, in the user's words", OomCause::kActivationsSeqlen));
  EXPECT_TRUE(evidence_holds("\xe6\x96\x87\xe6\x9c\xac\xe5\xa4\xaa\xe9\x95\xbf\xe6\x97\xb6\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d"
                             "\xe5\xa4\x9f\n",  // 文本太长时显存不够
                             "long inputs, in the user's words", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("\xe9\x9f\xb3\xe9\xa2\x91\xe9\x95\xbf\xe5\xba\xa6\xe6\x98\xaf\xe5\x9b\xba\xe5\xae\x9a\xe7\x9a\x84"
                              "\xef\xbc\x8c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\n",  // 音频长度是固定的，显存不够
                              "long inputs, in the user's words"));
  // Flash attention told not used: the eager attention's scores; not where it is the fix in use.
  EXPECT_TRUE(evidence_holds("CUDA out of memory on a long video.\nI didn't set flash_attention_2 when loading the model "
                             "(V100 not supported).\n",
                             "flash attention not used", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("CUDA out of memory on a long video.\nWith flash_attention_2 enabled it fits.\n",
                              "flash attention not used"));
  // ... and the option at the load is no failure while loading.
  EXPECT_FALSE(evidence_holds("CUDA out of memory on a long video.\nI didn't set flash_attention_2 when loading the model "
                              "(V100 not supported).\n",
                              "fails while loading / placing the model"));
  // Failing after many inputs processed one at a time: each one's memory kept.
  EXPECT_TRUE(evidence_holds("I run the encoder on one sequence at a time.\nI got the same out of memory error after running "
                             "100 sequences.\n",
                             "fails only after many inputs processed one at a time", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("I got an out of memory error after running 5 sequences.\n",
                              "fails only after many inputs processed one at a time"));
  // Memory told unable to be freed, in Chinese: a report, read as growth.
  const std::vector<Diagnosis> ds =
      diagnose_log("\xe8\xbf\x90\xe8\xa1\x8c\xe6\x97\xb6\xef\xbc\x8c\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\x83\xbd\xe9\x87\x8a"
                   "\xe6\x94\xbe\xef\xbc\x8c\xe7\x9b\xb4\xe5\x88\xb0\xe6\xad\xbb\xe6\x9c\xba\n",  // 运行时，内存不能释放，直到死机
                   rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kLeakAcrossSteps);
}

// review57's findings, mended.
TEST(DiagnoseKinds35, Review57Mends) {
  // 长 denied (不长), an upper bound (最长) or a stated length (长10秒) is no long input.
  for (const char* line : {"\xe5\x8f\xa5\xe5\xad\x90\xe4\xb8\x8d\xe9\x95\xbf\xef\xbc\x8c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5"
                           "\xa4\x9f\n",  // 句子不长，显存不够
                           "\xe6\x96\x87\xe6\x9c\xac\xe6\x9c\x80\xe9\x95\xbf" "128\xe4\xb8\xaa\xe5\xad\x97\xef\xbc\x8c\xe6\x98"
                           "\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\n",  // 文本最长128个字，显存不够
                           "\xe8\xa7\x86\xe9\xa2\x91\xe9\x95\xbf" "10\xe7\xa7\x92\xef\xbc\x8c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8"
                           "\x8d\xe5\xa4\x9f\n"}) {  // 视频长10秒，显存不够
    EXPECT_FALSE(evidence_holds(line, "long inputs, in the user's words")) << line;
  }
  // Flash attention: not where SDPA's memory-efficient kernel runs in its place, nor where the run
  // without it works.
  EXPECT_FALSE(evidence_holds("flash-attn is not installed, so I use sdpa with the mem-efficient backend. CUDA out of memory.\n",
                              "flash attention not used"));
  EXPECT_FALSE(evidence_holds("With flash attention 2 enabled it OOMs; without flash attention (eager) it actually runs fine.\n",
                              "flash attention not used"));
  // A quantifier before the count; not where one input is singled out.
  EXPECT_TRUE(evidence_holds("It fails with CUDA out of memory after processing about 200 images.\n",
                             "fails only after many inputs processed one at a time", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("It works after processing 20 files, then the 21st file (3 hours long) fails with out of memory.\n",
                              "fails only after many inputs processed one at a time"));
  // Chinese: the load told fine (没问题) or an option set at it (设置) is no failure while loading.
  EXPECT_FALSE(evidence_holds("\xe6\x88\x91\xe5\x9c\xa8\xe5\x8a\xa0\xe8\xbd\xbd\xe6\xa8\xa1\xe5\x9e\x8b\xe6\x97\xb6\xe8\xae\xbe"
                              "\xe7\xbd\xae\xe4\xba\x86 load_in_8bit=True\xef\xbc\x8c\xe5\x8a\xa0\xe8\xbd\xbd\xe6\xb2\xa1\xe9\x97"
                              "\xae\xe9\xa2\x98\xef\xbc\x8c\xe4\xbd\x86 backward \xe5\xb0\xb1 OOM\n",
                              "fails while loading the model (zh)"));
}

// held58's one parse miss: a PyTorch message pasted in prose after the user's words ("I got CUDA Out
// of Memory error message (...). `Tried to allocate ...`") is a report with its sizes; right after
// the head ("CUDA out of memory. Tried to allocate ...") it stays one report.
TEST(DiagnoseKinds35, MessagePastedInProse) {
  const std::string fields = "Tried to allocate 1.45 GiB (GPU 0; 14.73 GiB total capacity; 13.08 GiB already allocated; "
                             "785.88 MiB free; 13.08 GiB reserved in total by PyTorch).";
  for (const std::string& log : {"On a T4 I got CUDA Out of Memory error message (Pubmed dataset). `" + fields + "`\n",
                                 "RuntimeError: CUDA out of memory. " + fields + "\n"}) {
    const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
    ASSERT_EQ(ds.size(), 1u) << log;
    ASSERT_TRUE(ds.front().oom.has_value() && ds.front().oom->requested_bytes.has_value()) << log;
    EXPECT_EQ(*ds.front().oom->requested_bytes, int64_t{1556925645}) << log;
    EXPECT_EQ(ds.front().oom->family, "pytorch1") << log;
  }
}

// held58's kinds: a request many times the whole device is a shape gone wrong first; the shell
// that ran the process told killing it is the OOM killer's report; growth told in the prediction
// loop is evaluation's graph kept.
TEST(DiagnoseKinds36, Held58Kinds) {
  // 259 GiB on a 5.93 GiB card (43.7x): other first, the single tensor's candidates next; 2.5x stays
  // the input's.
  const std::string far = "RuntimeError: CUDA out of memory. Tried to allocate 259.00 GiB (GPU 0; 5.93 GiB total capacity; "
                          "108.37 MiB already allocated; 4.31 GiB free; 15.63 MiB cached)\n";
  std::vector<Diagnosis> ds = diagnose_log(far, rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_GE(ds.front().findings.size(), 2u);
  EXPECT_EQ(ds.front().findings[0].category, OomCause::kOther);
  EXPECT_EQ(ds.front().findings[1].category, OomCause::kActivationsSeqlen);
  const std::string near = "RuntimeError: CUDA out of memory. Tried to allocate 15.00 GiB (GPU 0; 5.93 GiB total capacity; "
                           "108.37 MiB already allocated; 4.31 GiB free; 15.63 MiB cached)\n";
  ds = diagnose_log(near, rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_NE(ds.front().findings.front().category, OomCause::kOther);
  // The same request against the GPU the log names (no capacity in the message).
  ds = diagnose_log("I have a GPU with 8GB.\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 400.00 GiB.\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kOther);
  // The shell told killing the process: a report, host RAM.
  ds = diagnose_log("Loading the dataset takes too much RAM so that zsh kills the process\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(ds.front().oom.has_value());
  EXPECT_EQ(ds.front().oom->family, "oom_killer");
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kCpuRam);
  EXPECT_TRUE(diagnose_log("Does zsh kill the process when it uses too much RAM?\n", rules_alone()).empty());
  // Growth told in the prediction loop, nothing training: the graphs kept.
  ds = diagnose_log("During the prediction loop it saves backprop data, and used memory is increased iteratively, "
                    "resulting in OOM errors.\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kEvalWithoutNoGrad);
}

// held59's kinds: the input's size told deciding (a lower resolution running, a threshold failing, a
// schedule's larger input where it fails, UHD video, an N x N pairwise term); a host allocation no
// machine has; host RAM figures near full; an increase asked about as the size expected; full
// fine-tuning named beside adapters; GPUs counted in Chinese and in the plural; a sharding over GPUs
// not counted; "ran of GPU memory"; a regression between versions told.
TEST(DiagnoseKinds36, Held59Kinds) {
  const std::string msg = "RuntimeError: CUDA out of memory. Tried to allocate 4.41 GiB (GPU 0; 39.59 GiB total capacity; "
                          "19.44 GiB already allocated; 4.40 GiB free; 29.15 GiB reserved in total by PyTorch)\n";
  EXPECT_TRUE(evidence_holds("I revised the resolution from 512 to 256, and it could run.\n" + msg,
                             "the input's resolution told as what decides the fit", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("I checked the resolution of each picture. Other tools run without problems.\n" + msg,
                              "the input's resolution told as what decides the fit"));
  EXPECT_TRUE(evidence_holds("Error: cudaMalloc failed with error out of memory\nWhen adjusting the mesh output, all "
                             "resolutions roughly above 768^3 fail with the exception stated above.\n",
                             "the input's resolution told as what decides the fit", OomCause::kActivationsSeqlen));
  // A schedule's larger input where it fails: not "fails only after a long run".
  const std::string schedule = "I met the following error after 5000 iterations when the resolution became 512 from 64:\n" + msg;
  EXPECT_TRUE(evidence_holds(schedule, "the input's size raised where it fails", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds(schedule, "fails only after a long run"));
  // UHD video named; a prompt's "4k" and a count are none.
  EXPECT_TRUE(evidence_holds("A 6sec 4K 30fps H264 mov file leads to out of memory error\n", "4K", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("prompt=\"a realistic detailed photo, 4k\" gives CUDA out of memory\n", "4K"));
  EXPECT_FALSE(evidence_holds("After 4k iterations of video training: CUDA out of memory\n", "4K"));
  // An N x N pairwise term in the user's words; a call's arguments are none.
  EXPECT_TRUE(evidence_holds("The layer takes over 12GB: the dist_matrix could be (4, 10000, 10000) with 10000 points.\n"
                             "CUDA out of memory\n",
                             "pairwise term", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("x = torch.zeros(4, 10000, 10000)\nCUDA out of memory\n", "pairwise term"));
  // 53 TiB asked of the host's allocator: a size computed wrong, not host RAM.
  std::vector<Diagnosis> ds = diagnose_log(
      "DefaultCPUAllocator: can't allocate memory: you tried to allocate 58395610206619 bytes. Error code 12 (Cannot "
      "allocate memory)\n",
      rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kOther);
  // Host RAM figures near full; an increase asked about as the size expected is no growth.
  const std::string ram = "We were frequently getting memory errors.\nRAM usage: 15.1 GB / 15.3 GB\nSince our dataset is 8.5 GB, "
                          "shouldn't be the memory increase approx. 9 GB or so? It loads the dataset for each process.\n";
  EXPECT_TRUE(evidence_holds(ram, "host RAM at", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds(ram, "memory grows step after step"));
  EXPECT_FALSE(evidence_holds("We were frequently getting memory errors.\nRAM usage: 8.1 GB / 15.3 GB\n", "host RAM at"));
  EXPECT_FALSE(evidence_holds("We were getting memory errors.\nGPU RAM usage: 15.1 GB / 15.3 GB\n", "host RAM at"));
  // Full fine-tuning named as the run, adapters named as what works: Adam's state does not fit.
  EXPECT_TRUE(evidence_holds("OOM issue for SFT full parameter training\nWith finetuning_type='lora' the training starts. With "
                             "finetuning_type='full' it goes OOM.\nI'm using A100 80GB.\npython src/train_sft.py "
                             "--model_name_or_path huggyllama/llama-7b --do_train --finetuning_type full --fp16\n",
                             "full fine-tuning of the named model with Adam", OomCause::kOptimizerState));
  // GPUs counted in Chinese (8卡) with ZeRO-3: the state split over them fits, no arithmetic claim.
  EXPECT_FALSE(evidence_holds("8\xe5\x8d\xa1" "3090 \xe5\x85\xa8\xe5\x8f\x82 zero3 sft Meta-Llama-3-8B-Instruct OOM\n"
                              "GPU type: NVIDIA GeForce RTX 3090 24GB\nfinetuning_type: full\ndeepspeed: ds_z3_config.json\n"
                              "do_train: true\n",
                              "training the named model"));
  // "Ran of GPU memory": the OOM told with "out" left out.
  ds = diagnose_log("Ran of GPU memory when using Imagenet but not COCO\n", rules_alone());
  EXPECT_EQ(ds.size(), 1u);
  EXPECT_TRUE(diagnose_log("It was a long run of memory tests.\n", rules_alone()).empty());
  // The latest version told failing beside another told working: a regression.
  EXPECT_TRUE(evidence_holds("The older release is operational, whereas the latest version of the trainer throws an OOM "
                             "error on the GPU.\n",
                             "a regression told", OomCause::kOther));
}

// review59's findings, mended.
TEST(DiagnoseKinds36, Review59Mends) {
  const std::string a100 = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 5 has a total capacity "
                           "of 79.15 GiB of which 2.20 GiB is free. Of the allocated memory 75.00 GiB is allocated by PyTorch, "
                           "and 1.10 GiB is reserved by PyTorch but unallocated.\n";
  // ZeRO-3 over GPUs counted (in the plural, "A100s"): the weights per GPU, not the whole model's.
  EXPECT_FALSE(evidence_holds("Full parameter training of Llama-3-70B on 8x 80GB A100s with ZeRO-3 and CPU offload.\n" + a100,
                              "16-bit weights alone"));
  // ZeRO-3 with no GPU count: no per-GPU figure either way.
  EXPECT_FALSE(evidence_holds("--finetuning_type full on Llama-3-8B with deepspeed ZeRO-3, LoRA works.\n" + a100,
                              "per GPU"));
  // Sharded over GPUs counted in Chinese ("4张3090": four 3090s), a 70B's share still exceeds each.
  EXPECT_TRUE(evidence_holds("4\xe5\xbc\xa0" "3090 deepspeed zero3 lora llama2-70b\ntorch.cuda.OutOfMemoryError: CUDA out of "
                             "memory. Tried to allocate 1.00 GiB (GPU 2; 23.69 GiB total capacity; 21.90 GiB already "
                             "allocated)\n",
                             "per GPU sharded over 4 GPUs", OomCause::kStaticModelTooLarge));
  // Full fine-tuning told as not the run.
  EXPECT_FALSE(evidence_holds("LoRA fine-tuning of Llama-2-7B, batch 4. Full fine-tuning is not what I want.\n"
                              "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total "
                              "capacity of 23.69 GiB of which 2.90 GiB is free.\n",
                              "16-bit weights and gradients"));
  // Regressions: "after upgrading ... with the old one it works fine"; in Chinese; not the reverse.
  EXPECT_TRUE(evidence_holds("After upgrading to transformers 4.46 training ran out of GPU memory; with 4.44 the same script "
                             "and batch size work fine.\n" + a100,
                             "a regression told", OomCause::kOther));
  EXPECT_TRUE(evidence_holds("\xe6\x9c\x80\xe6\x96\xb0\xe7\x89\x88\xe6\x9c\xac\xe6\x8a\xa5\xe9\x94\x99\xef\xbc\x8c\xe6\x97\xa7"
                             "\xe7\x89\x88\xe6\x9c\xac 0.2.5 \xe6\xad\xa3\xe5\xb8\xb8\xe8\xbf\x90\xe8\xa1\x8c\n" + a100,
                             "a regression told", OomCause::kOther));  // 最新版本报错，旧版本 0.2.5 正常运行
  EXPECT_FALSE(evidence_holds("The latest version works, but the older version 1.2 I need runs out of memory with batch 64.\n" +
                                  a100,
                              "a regression told"));
  // "Ran of memory" asked and taken back: no report.
  EXPECT_TRUE(diagnose_log("Did it ran of memory? No, sorry, it ran fine.\n", rules_alone()).empty());
  // A parameter's shape told is no pairwise activation.
  EXPECT_FALSE(evidence_holds("My model has a Linear layer whose weight has shape (50000, 50000).\n" + a100, "pairwise term"));
  // Memory told creeping up each step: growth.
  EXPECT_TRUE(evidence_holds("Training is fine, it fails after 4K steps; memory creeps up each step.\n" + a100,
                             "memory grows step after step", OomCause::kLeakAcrossSteps));
}

// held60's kinds: a message cut before its reserved figure whose "Process N" is this process; sentences
// before the message on its own line; the GPU used in spite of gpu=False; a kill told in Chinese;
// PaddlePaddle's host allocator; <what>_max_len lengths and a batch lowered in vain; a structure model
// named; host RAM's limit reached; a loop's memory full after a few items; a GPU's name's number; the
// batch failing "no matter how small".
TEST(DiagnoseKinds37, Held60Kinds) {
  // Cut after "allocated by PyTorch": 39.27 GiB is capacity - free and covers the allocated 37.80 GiB.
  std::vector<Diagnosis> ds = diagnose_log(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 39.39 GiB of "
      "which 120.50 MiB is free. Process 41234 has 39.27 GiB memory in use. Of the allocated memory 37.80 GiB is allocated "
      "by PyTorch\n",
      rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_NE(ds.front().findings.front().category, OomCause::kOtherProcess);
  // A process holding much less than what the device lacks is another one.
  EXPECT_TRUE(evidence_holds(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 39.39 GiB of "
      "which 120.50 MiB is free. Process 41234 has 20.00 GiB memory in use. Of the allocated memory 18.00 GiB is allocated "
      "by PyTorch\n",
      "other processes hold", OomCause::kOtherProcess));
  // The user's sentence before the message on its line.
  EXPECT_TRUE(evidence_holds("title\nI was already using 90% of my GPU memory for another job. Then I got `RuntimeError: cuda "
                             "runtime error (2) : out of memory`.\n",
                             "other jobs on the GPU", OomCause::kOtherProcess));
  // The GPU used in spite of a CPU setting; a CPU run told working is none.
  EXPECT_TRUE(evidence_holds("CUDA appears to be in use even when setting gpu=False\nRuntimeError: CUDA out of memory.\n",
                             "told to have no effect", OomCause::kOther));
  EXPECT_FALSE(evidence_holds("With gpu=False it runs on the CPU. With the GPU I get RuntimeError: CUDA out of memory.\n",
                              "told to have no effect"));
  // A kill told in Chinese: host RAM; the user's own kill is none.
  ds = diagnose_log("\xe5\x8a\xa0\xe8\xbd\xbd\xe6\x95\xb0\xe6\x8d\xae\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xe8\xbf\x9b\xe7\xa8\x8b"
                    "\xe8\xa2\xabkill\xe4\xba\x86\xef\xbc\x8c\xe5\x86\x85\xe5\xad\x98\xe5\x8f\xaa\xe6\x9c\x89" "16G\xe3\x80\x82\n",
                    rules_alone());  // 加载数据的时候进程被kill了，内存只有16G。
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kCpuRam);
  EXPECT_TRUE(diagnose_log("\xe5\xb0\x86\xe5\x90\x8e\xe5\x8f\xb0\xe4\xbb\xbb\xe5\x8a\xa1\xe6\x9d\x80\xe6\x8e\x89\xe4\xb9\x8b"
                           "\xe5\x90\x8egpu\xe5\xb9\xb6\xe6\xb2\xa1\xe6\x9c\x89\xe9\x87\x8a\xe6\x94\xbe\n",
                           rules_alone())
                  .empty());  // 将后台任务杀掉之后gpu并没有释放 (after I killed the background task)
  // PaddlePaddle's host allocator, with its size in bytes.
  ds = diagnose_log("ResourceExhaustedError: Fail to alloc memory of 564023296 size, error code is 12.\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(ds.front().oom.has_value() && ds.front().oom->requested_bytes.has_value());
  EXPECT_EQ(*ds.front().oom->requested_bytes, 564023296);
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kCpuRam);
  // passage_max_len read, the longer of two lengths on a line; a batch lowered in vain beside it.
  EXPECT_TRUE(evidence_holds("deepspeed OOM\nbatch 16, query_max_len 512, passage_max_len 8192\n"
                             "\xe5\xb0\x9d\xe8\xaf\x95\xe4\xba\x86" "batch\xe5\xbc\x80" "4\xef\xbc\x8c" "8\xef\xbc\x8c" "16"
                             "\xe9\x83\xbd\xe4\xbc\x9a\xe7\x82\xb8\n",  // 尝试了batch开4，8，16都会炸
                             "logged sequence length 8192, and a smaller batch told not helping", OomCause::kActivationsSeqlen));
  // A protein structure model named: a little weight to the input's length.
  EXPECT_TRUE(evidence_holds("Running OpenFold on a 24GB card: CUDA out of memory\n", "a protein structure model named",
                             OomCause::kActivationsSeqlen));
  // Host RAM's limit reached; a loop's memory full after a few items.
  EXPECT_TRUE(evidence_holds("Training OOM\nIt will surpass 25gb (25gb is the limit for colab pro high ram)\n",
                             "host RAM runs out", OomCause::kCpuRam));
  const std::string cpu = "RuntimeError: [enforce fail at CPUAllocator.cpp:72] data. DefaultCPUAllocator: not enough memory: you "
                          "tried to allocate 996147200 bytes.\n";
  EXPECT_TRUE(evidence_holds("Detecting 100+ images in a loop, RAM full after a few images.\n" + cpu,
                             "memory full only after a few items of a loop", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("The first image is 20000x20000 and it fails after a few seconds.\n" + cpu,
                              "memory full only after a few items of a loop"));
  // A GPU's name's number is no input size; "no matter how small" the batch: the model itself.
  const std::string k2000 = "I keep getting CUDA out of memory no matter how small batch size and max_seq_length are. I have "
                            "only one Quadro K2000 2GB.\n";
  EXPECT_FALSE(evidence_holds(k2000, "a long input"));
  EXPECT_EQ(top_cause(k2000), OomCause::kStaticModelTooLarge);
}

// review60's findings, mended.
TEST(DiagnoseKinds37, Review60Mends) {
  // This process under another PID in a cut message, holding far more than its tensors: cached or outside.
  EXPECT_TRUE(evidence_holds(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of "
      "which 1.12 GiB is free. Process 48211 has 22.52 GiB memory in use. Of the allocated memory 9.30 GiB is allocated by "
      "PyTorch\n",
      "is cached in reserved blocks or held outside PyTorch's allocator", OomCause::kFragmentation));
  // A working smaller batch named by its count alone is the batch's account, a length on the line aside.
  EXPECT_EQ(top_cause("Training on a 3090 with seq_len=1024, batch 64 OOM. Lowering to batch 32 works.\nRuntimeError: CUDA out "
                      "of memory. Tried to allocate 3.00 GiB (GPU 0; 23.69 GiB total capacity; 19.90 GiB already allocated; "
                      "2.10 GiB free; 20.50 GiB reserved in total by PyTorch)\n"),
            OomCause::kActivationsBatch);
  // Batch sizes tried in vain, listed.
  EXPECT_NE(top_cause("I tried batch size 8, 4 and 2 and it still OOMs.\nRuntimeError: CUDA out of memory.\n"),
            OomCause::kActivationsBatch);
  EXPECT_EQ(top_cause("I used batch size 8, 4 and 2 and it OOMs.\nRuntimeError: CUDA out of memory.\n"),
            OomCause::kActivationsBatch);
  // A CPU placement told ignored as an environment variable or a device_map, the use before or after it.
  EXPECT_TRUE(evidence_holds("tensorflow still allocates GPU memory even though I set CUDA_VISIBLE_DEVICES=\"\" to keep it on "
                             "CPU.\nResourceExhaustedError: OOM when allocating tensor with shape[1024,1024]\n",
                             "told to have no effect", OomCause::kOther));
  EXPECT_TRUE(evidence_holds("Even with device_map=\"cpu\" the model still uses the GPU and I get:\ntorch.OutOfMemoryError: "
                             "CUDA out of memory.\n",
                             "told to have no effect", OomCause::kOther));
  EXPECT_FALSE(evidence_holds("Is the GPU still used even with device_map=\"cpu\"?\ntorch.OutOfMemoryError: CUDA out of memory.\n",
                              "told to have no effect"));
  // PaddlePaddle's host allocator sets the framework.
  std::vector<Diagnosis> ds = diagnose_log(
      "MemoryError: std::bad_alloc\nResourceExhaustedError: Fail to alloc memory of 2147483648 size, error code is 12.\n",
      rules_alone());
  ASSERT_FALSE(ds.empty());
  EXPECT_EQ(ds.front().framework, "paddle");
  // A structure model's one large request is a sample's (its length), not B samples'.
  EXPECT_NE(top_cause("OpenFold training with the default config crashes at the first step.\nRuntimeError: CUDA out of memory. "
                      "Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; 13.10 GiB already allocated; 1.20 GiB "
                      "free; 13.40 GiB reserved in total by PyTorch)\n"),
            OomCause::kActivationsBatch);
  // Full after a few images, every image working alone: beside a JAX message too.
  EXPECT_TRUE(evidence_holds("Every image through the model works, but after a few images the memory is full:\njaxlib.xla_extension."
                             "XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1073741824 bytes.\n",
                             "memory full only after a few items of a loop", OomCause::kLeakAcrossSteps));
}

// held61's kinds: a model being quantized is no generation (its 16-bit weights are loaded first); a
// job's memory limit told exceeded is host RAM; inputs told untruncated are long.
TEST(DiagnoseKinds37, Held61Kinds) {
  const std::string quantize = "FP8 quantization of Llama 70B fails with OOM\nI've tried both TP=2 and TP=1 on H100 machines.\n";
  EXPECT_FALSE(evidence_holds(quantize, "an LLM run without training in the log"));
  EXPECT_TRUE(evidence_holds(quantize, "a model being quantized", OomCause::kStaticModelTooLarge));
  // A quantized model generating is still generation.
  EXPECT_TRUE(evidence_holds("Running the quantized Llama 70B with 4-bit quantization: CUDA out of memory\n",
                             "an LLM run without training in the log", OomCause::kGenerationKvCache));
  // A job's memory limit: found, host RAM; a GPU's limit or a question is none.
  std::vector<Diagnosis> ds = diagnose_log(
      "How to reduce memory usage?\nI requested 40G memory and many of them exceeded this memory limit even with a batch "
      "size of 4.\n",
      rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kCpuRam);
  EXPECT_FALSE(evidence_holds("The job exceeded the GPU memory limit.\nCUDA out of memory\n", "a job's memory limit"));
  EXPECT_TRUE(diagnose_log("Does the job ever exceed the memory limit?\n", rules_alone()).empty());
  // Inputs told untruncated.
  EXPECT_TRUE(evidence_holds("Untruncated text calibration produces a 16 GiB CUDA OOM\ntorch.OutOfMemoryError: CUDA out of "
                             "memory. Tried to allocate 16.00 GiB.\n",
                             "long inputs", OomCause::kActivationsSeqlen));
}

// review61's findings, mended.
TEST(DiagnoseKinds37, Review61Mends) {
  // PaddlePaddle's CUDA allocator words its failure as the host one does, with a CUDA error code.
  std::vector<Diagnosis> ds = diagnose_log(
      "ResourceExhaustedError: Fail to alloc memory of 1073741824 size, error code is 2.\n  [Hint: Expected error == "
      "cudaSuccess, but received cudaErrorMemoryAllocation.] (at /paddle/paddle/fluid/memory/allocation/cuda_allocator.cc:86)\n",
      rules_alone());
  ASSERT_FALSE(ds.empty());
  ASSERT_TRUE(ds.front().oom.has_value());
  EXPECT_EQ(ds.front().oom->device, "cuda");
  EXPECT_NE(ds.front().findings.front().category, OomCause::kCpuRam);
  // A kill asked whether is none told.
  ds = diagnose_log("Does the job get killed if it exceeded the memory limit?\n", rules_alone());
  EXPECT_TRUE(ds.empty() || ds.front().oom->family != "oom_killer");
  // A quantization done before a generation that fails is no quantization run.
  EXPECT_FALSE(evidence_holds("After quantizing the model to int8, I run model.generate(input_ids, max_new_tokens=8192):\n"
                              "RuntimeError: CUDA out of memory.\n",
                              "a model being quantized"));
  // A GPU named far from the job's limit is where the work was going; a GPU's limit is found.
  EXPECT_TRUE(evidence_holds("The pod exceeded its memory limit when loading the 7B checkpoint with torch.load before moving "
                             "it to the GPU.\n",
                             "a job's memory limit told exceeded", OomCause::kCpuRam));
  EXPECT_EQ(diagnose_log("The job exceeded the GPU memory limit on the A100.\n", rules_alone()).size(), 1u);
  // A quantizer's calibration told in Chinese (校准).
  EXPECT_TRUE(evidence_holds("\xe5\xaf\xb9 Qwen3-8B \xe5\x81\x9a INT4 \xe9\x87\x8f\xe5\x8c\x96\xef\xbc\x88" "AWQ "
                             "\xe6\xa0\xa1\xe5\x87\x86\xef\xbc\x89\ntorch.OutOfMemoryError: CUDA out of memory.\n",
                             "a model being quantized", OomCause::kStaticModelTooLarge));
}

// held62's kinds (a fresh held-apart part, first look 52.0% / 80.0%), each on inputs written here.
TEST(DiagnoseKinds38, Held62Kinds) {
  // Training told by "pretraining" and a training batch setting: a named model's full training
  // against the GPU the user names (weights + gradients + Adam's state).
  EXPECT_TRUE(evidence_holds("Pretraining Falcon-7B on one A100 80GB runs out of memory\nglobal_train_batch_size = 1\n",
                             "full fine-tuning of the named model with Adam", OomCause::kOptimizerState));
  EXPECT_FALSE(evidence_holds("Loading the pretrained Falcon-7B on one A100 80GB runs out of memory\n",
                              "full fine-tuning of the named model with Adam"));
  // A sharding named as not used on several GPUs: each holds a whole copy.
  EXPECT_TRUE(evidence_holds("I pretrain a 30B model on 8 A100 40GB GPUs and it runs out of memory. I am not using FSDP.\n",
                             "16-bit weights and gradients alone", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds("I pretrain a 30B model on 8 A100 40GB GPUs and it runs out of memory.\n",
                              "16-bit weights and gradients alone"));
  // An LLM in a compound name with its size; the device ran out while PyTorch held less than the
  // 16-bit weights: still loading.
  const std::string loading =
      "Running the MiniGPT_Vicuna 13B demo:\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 86.00 MiB "
      "(GPU 0; 31.74 GiB total capacity; 22.10 GiB already allocated; 54.88 MiB free; 22.38 GiB reserved in total by "
      "PyTorch)\n";
  EXPECT_TRUE(evidence_holds(loading, "it was still loading them", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds("Running the dfc_llama demo:\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
                              "allocate 86.00 MiB (GPU 0; 23.65 GiB total capacity; 22.10 GiB already allocated; 54.88 MiB "
                              "free; 22.38 GiB reserved in total by PyTorch)\n",
                              "an LLM run without training"));
  // Ray's memory monitor: a host-RAM kill.
  std::vector<Diagnosis> ds = diagnose_log(
      "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(ds.front().oom.has_value());
  EXPECT_EQ(ds.front().oom->subsystem, "ray_memory_monitor");
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kCpuRam);
  // Tensors allocated again at different sizes: fragmentation.
  EXPECT_TRUE(evidence_holds("CUDA out of memory after a few batches.\nThe collate function reallocates the padding "
                             "buffers at different sizes every batch.\n",
                             "tensors allocated again at different sizes", OomCause::kFragmentation));
  // Memory not freed after a finished run, in the same notebook: a leak, not another process.
  EXPECT_TRUE(evidence_holds("CUDA out of memory in the second cell.\nThe GPU memory is not freed after the first "
                             "trainer.train() finishes.\n",
                             "held after a finished run", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("CUDA out of memory.\nThe GPU memory is not freed after I kill the process.\n",
                              "held after a finished run"));
  // Each process with its own copy of the data in host RAM.
  EXPECT_TRUE(evidence_holds("The program ran out of memory and crashed.\nEvery rank loads its own copy of the dataset "
                             "into memory, 8 x 60G.\n",
                             "its own copy of the data", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("Out of memory.\nEvery rank loads its own copy of the dataset onto the GPU memory.\n",
                              "its own copy of the data"));
}

// review62's findings, mended.
TEST(DiagnoseKinds38, Review62Mends) {
  // The second name of a denied pair, and a denial in Chinese: no sharding, PyTorch's fixes.
  std::vector<Diagnosis> ds = diagnose_log(
      "Full fine-tune of Llama-2-13b-hf on 4x A100 40GB with torchrun (DDP). I am not using FSDP or deepspeed.\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 100.00 MiB (GPU 2; 39.39 GiB total capacity; "
      "38.70 GiB already allocated; 52.00 MiB free; 38.90 GiB reserved in total by PyTorch)\n",
      rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().framework, "pytorch");
  EXPECT_TRUE(evidence_holds("Full fine-tune of Llama-2-13b-hf on 4x A100 40GB with torchrun (DDP). I am not using FSDP or "
                             "deepspeed.\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 100.00 MiB (GPU 2; "
                             "39.39 GiB total capacity; 38.70 GiB already allocated; 52.00 MiB free; 38.90 GiB reserved in "
                             "total by PyTorch)\n",
                             "48.43 GiB per GPU", OomCause::kStaticModelTooLarge));
  ds = diagnose_log("\xe6\x88\x91\xe6\xb2\xa1\xe6\x9c\x89\xe7\x94\xa8 deepspeed\xef\xbc\x8c\xe5\x85\xa8\xe5\x8f\x82\xe5\xbe\xae"
                    "\xe8\xb0\x83 chatglm2-6b\xe3\x80\x82\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                    "108.00 MiB\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().framework, "pytorch");
  // A model split over GPUs (tensor_parallel_size, device_map="auto"): each holds its share.
  EXPECT_FALSE(evidence_holds("Serving Llama-2-70b-chat with vLLM on 4x A100 80GB, tensor_parallel_size=4.\n"
                              "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB "
                              "total capacity; 73.10 GiB already allocated; 1.20 GiB free; 76.00 GiB reserved in total by "
                              "PyTorch)\n",
                              "16-bit weights alone"));
  // A folder named pretrain is no training.
  EXPECT_FALSE(evidence_holds("python inference.py --model_name_or_path ./pretrain/Llama-2-13b-chat --max_new_tokens 512\n"
                              "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 270.00 MiB (GPU 0; 39.39 GiB "
                              "total capacity; 38.80 GiB already allocated; 120.00 MiB free; 39.00 GiB reserved in total by "
                              "PyTorch)\n",
                              "training the named model"));
  // Ray's object store full: a report, host RAM, Ray's framework.
  ds = diagnose_log("ray.exceptions.ObjectStoreFullError: Failed to put object in object store because it is full.\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().framework, "ray");
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kCpuRam);
  // Keras's fit() as the finished run; truncation forgotten as untruncated inputs.
  EXPECT_TRUE(evidence_holds("ResourceExhaustedError: OOM when allocating tensor\nThe GPU memory is not freed after the first "
                             "model.fit finishes.\n",
                             "held after a finished run", OomCause::kLeakAcrossSteps));
  EXPECT_TRUE(evidence_holds("I forgot truncation=True and the documents are 60k tokens long.\ntorch.cuda.OutOfMemoryError: "
                             "CUDA out of memory. Tried to allocate 21.46 GiB\n",
                             "long inputs", OomCause::kActivationsSeqlen));
}

// held63's kinds (a fresh held-apart part, first look 39.1% / 65.2%), each on inputs written here.
TEST(DiagnoseKinds38, Held63Kinds) {
  // The memory asked whether short where an error is shown elsewhere: a report; no error told, none.
  std::vector<Diagnosis> ds = diagnose_log("the errors are in the screenshot below\nis GPU memory not enough?\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->line, 2);
  EXPECT_TRUE(diagnose_log("Before I buy it: is my VRAM too small for SDXL?\n", rules_alone()).empty());
  EXPECT_EQ(diagnose_log("It stops with an error (screenshot). Is my VRAM too small for SDXL?\n", rules_alone()).size(), 1u);
  // A rendering context competing with the model for the GPU: other.
  EXPECT_TRUE(evidence_holds("The evaluation fails at start-up because the CUDA context and the OpenGL renderer compete "
                             "for limited GPU memory.\n",
                             "a rendering context told competing", OomCause::kOther));
  // Equal contexts apiece where the user counts the GPUs ("5* RTX4090"): the ranks on GPU 0.
  const std::string contexts =
      "my resource is 5* RTX4090 (24G)\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 252.00 MiB. GPU "
      "0 has a total capacity of 23.65 GiB of which 62.19 MiB is free. Including non-PyTorch memory, this process has "
      "384.00 MiB memory in use. Process 11 has 636.00 MiB memory in use. Process 12 has 384.00 MiB memory in use. Process "
      "13 has 384.00 MiB memory in use. Process 14 has 21.44 GiB memory in use. Process 15 has 384.00 MiB memory in use. Of "
      "the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.\n";
  EXPECT_EQ(top_cause(contexts), OomCause::kMultiGpuImbalance);
  std::string one_gpu = contexts;
  one_gpu.replace(one_gpu.find("5* RTX4090"), 10, "a RTX4090");
  EXPECT_EQ(top_cause(one_gpu), OomCause::kOtherProcess);
  // Other models told working: the failing one's size.
  EXPECT_TRUE(evidence_holds("Device was lost during reload. This can happen due to insufficient memory.\nOnly Llama 3.1 "
                             "fails, all other models are working fine.\n",
                             "it depends on which model is loaded", OomCause::kStaticModelTooLarge));
  // torch-directml's message: a device report with its request.
  ds = diagnose_log("RuntimeError: Could not allocate tensor with 58982400 bytes. There is not enough GPU video memory "
                    "available!\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(ds.front().oom.has_value());
  EXPECT_EQ(ds.front().oom->device, "dml");
  EXPECT_EQ(ds.front().oom->requested_bytes, 58982400);
  EXPECT_EQ(ds.front().framework, "pytorch");
}

// review63's findings, mended.
TEST(DiagnoseKinds38, Review63Mends) {
  // The memory asked whether short, in Chinese after an error told in Chinese; not where the error is
  // denied, nor a low-VRAM failure asked to be documented.
  EXPECT_EQ(diagnose_log("\xe8\xae\xad\xe7\xbb\x83\xe5\x88\xb0\xe7\xac\xac" "3\xe4\xb8\xaa epoch \xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99"
                         "\xe6\x8a\xa5\xe9\x94\x99\xe4\xba\x86\nbatch_size=32, \xe6\x98\xaf\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d"
                         "\xe5\xa4\x9f\xe5\x90\x97\xef\xbc\x9f\n",
                         rules_alone())
                .size(),
            1u);
  EXPECT_TRUE(diagnose_log("Is GPU memory too small the reason you used 8 A100s? Just curious, no error on my side.\n",
                           rules_alone())
                  .empty());
  EXPECT_TRUE(diagnose_log("## Feature request\nPlease document a low-VRAM failure mode for the tiled VAE decoder.\n",
                           rules_alone())
                  .empty());
  // A renderer told on the same GPU as the cause: other, not the ranks on GPU 0.
  EXPECT_EQ(top_cause("RuntimeError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 7.79 GiB total capacity; 5.12 "
                      "GiB already allocated; 118.00 MiB free; 5.40 GiB reserved in total by PyTorch)\nI think this happens "
                      "because the habitat-sim renderer (EGL) is also on GPU 0 and takes ~2GB.\n"),
            OomCause::kOther);
  // nvidia-smi's process rows: equal contexts apiece on GPU 0 are the ranks.
  EXPECT_EQ(top_cause("Training on 4 GPUs with accelerate.\nRuntimeError: CUDA out of memory. Tried to allocate 500.00 MiB "
                      "(GPU 0; 79.15 GiB total capacity; 77.80 GiB already allocated; 300.00 MiB free; 78.10 GiB reserved "
                      "in total by PyTorch)\n|    0   N/A  N/A     7001      C   /usr/bin/python3    76544MiB |\n|    0   N/A  "
                      "N/A     7002      C   /usr/bin/python3      512MiB |\n|    0   N/A  N/A     7003      C   "
                      "/usr/bin/python3      512MiB |\n|    0   N/A  N/A     7004      C   /usr/bin/python3      512MiB |\n"),
            OomCause::kMultiGpuImbalance);
  // Two GPUs told and the other one's context on GPU 0.
  EXPECT_EQ(top_cause("Training on 2*GTX1080ti with torch.distributed.launch.\nRuntimeError: CUDA out of memory. Tried to "
                      "allocate 64.00 MiB (GPU 0; 10.92 GiB total capacity; 9.80 GiB already allocated; 12.00 MiB free; 9.95 "
                      "GiB reserved in total by PyTorch). Process 3301 has 420.00 MiB memory in use.\n"),
            OomCause::kMultiGpuImbalance);
  // The first card full and the second normal, in Chinese.
  EXPECT_TRUE(evidence_holds("\xe7\x94\xa8\xe4\xba\x86\xe4\xb8\xa4\xe5\xbc\xa0RTX3090\xe5\x81\x9a" "DDP\xef\xbc\x8c\xe7\xac\xac"
                             "\xe4\xba\x8c\xe5\xbc\xa0\xe5\x8d\xa1\xe6\x98\xbe\xe5\xad\x98\xe5\xbe\x88\xe6\xad\xa3\xe5\xb8\xb8\xef"
                             "\xbc\x8c\xe7\xac\xac\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1\xe7\x88\x86\xe4\xba\x86\ntorch.cuda."
                             "OutOfMemoryError: CUDA out of memory.\n",
                             "the other GPUs told free while one fills", OomCause::kMultiGpuImbalance));
  // "Other models work" about a version is no model's size.
  EXPECT_FALSE(evidence_holds("After upgrading to 0.4.2, fine-tuning fails with OOM at step 300. All other models are "
                              "working fine with the previous version.\nRuntimeError: CUDA out of memory.\n",
                              "it depends on which model is loaded"));
  // ZeRO stage 0 shards nothing: a whole copy per GPU.
  EXPECT_TRUE(evidence_holds("Full fine-tuning Mistral-7B with DeepSpeed ZeRO stage 0 (no sharding), 8x A100 40GB, Adam.\n"
                             "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB (GPU 5; 39.39 GiB "
                             "total capacity; 38.20 GiB already allocated; 210.00 MiB free; 38.60 GiB reserved in total by "
                             "PyTorch)\n",
                             "per GPU", OomCause::kStaticModelTooLarge));
}

// held64's kinds (a fresh held-apart part, first look 46.2% / 53.8%), each on inputs written here.
TEST(DiagnoseKinds38, Held64Kinds) {
  // TensorFlow's BFC "Stats:" block alone: a report with its limit; a cap where the GPU named is far larger.
  const std::string stats = "Memory Limit Issue\nLimit:                       536870912\nInUse:                       "
                            "536786944\nMaxInUse:                    536800512\nI have 24 GB VRAM and only 5 gb is used.\n";
  std::vector<Diagnosis> ds = diagnose_log(stats, rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(ds.front().oom.has_value());
  EXPECT_EQ(ds.front().oom->allowed_bytes, 536870912);
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kOther);
  // A summary far below its limit (printed at exit) is none.
  EXPECT_TRUE(diagnose_log("Limit:                       22548578304\nInUse:                        1073741824\n", rules_alone())
                  .empty());
  // A run told no longer possible within a size: a report; a complaint of speed is none.
  EXPECT_EQ(diagnose_log("I'm no longer able to run FEVER on a 1024-dim model with 32GB of memory.\n", rules_alone()).size(),
            1u);
  EXPECT_TRUE(diagnose_log("I'm no longer able to run the test suite with 32GB of memory in under an hour, it is slow.\n",
                           rules_alone())
                  .empty());
  // PyTorch's "Tried to allocate" quoted in prose: the request.
  ds = diagnose_log("The second call can OOM even though each task runs fine alone.\nIt crashed on MMLU with \"Tried to "
                    "allocate 31.50 GiB\".\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->requested_bytes, int64_t{33822867456});
  // Idle workers holding the GPU: other processes; a GPU sitting idle is none of that.
  EXPECT_TRUE(evidence_holds("CUDA out of memory after a few rounds.\nThe workers go to Ray::IDLE mode and rest in GPUs, the "
                             "occupied GPU memory keeps increasing.\n",
                             "idle worker processes", OomCause::kOtherProcess));
  EXPECT_FALSE(evidence_holds("CUDA out of memory after a few rounds.\nThe GPU sits idle between batches and the GPU memory "
                              "keeps increasing.\n",
                              "idle worker processes"));
  // A second model failing where one alone fits: a leak; two at the same time are not.
  EXPECT_TRUE(evidence_holds("CUDA out of memory.\nThis will oom during the second model, even though 1 model is just fine.\n",
                             "a second model or run fails", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("CUDA out of memory.\nTwo runs at the same time: the second one OOMs though one alone is just "
                              "fine.\n",
                              "a second model or run fails"));
}

// held65's kinds (a fresh held-apart part, first look 53.8% / 61.5%), each on inputs written here.
TEST(DiagnoseKinds39, Held65Kinds) {
  // Ray's pre-2.0 memory monitor: the node's host RAM.
  std::vector<Diagnosis> ds = diagnose_log(
      "ray.exceptions.RayTaskError(RayOutOfMemoryError): ray::PPO.train() (pid=1234, ip=10.0.0.1)\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(ds.front().oom.has_value());
  EXPECT_EQ(ds.front().oom->subsystem, "ray_memory_monitor");
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kCpuRam);
  ds = diagnose_log("ray.memory_monitor.RayOutOfMemoryError: More than 95% of the memory on node ip-10-0-0-1 is used "
                    "(30.53 / 31.42 GB).\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->subsystem, "ray_memory_monitor");
  // Memory allotted to a job: host RAM; a GPU named on the line is not that.
  const std::string job = "Out of memory error on cluster\nAfter ~10 hours I get an out of memory error. I am allocating 32 "
                          "GB of memory for the job.\n";
  EXPECT_TRUE(evidence_holds(job, "memory allotted to a job", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("Out of memory error on cluster\nI am allocating 32 GB of GPU memory for the job.\n",
                              "memory allotted to a job"));
  // Memory growing as the input grows: the input's length, not a leak.
  const std::string longer = "Long input makes oom\nWhen the length of the input increases, the GPU memory consumption "
                             "grows rapidly, and it quickly leads to an OOM error.\n";
  EXPECT_TRUE(evidence_holds(longer, "grow as the input grows", OomCause::kActivationsSeqlen));
  EXPECT_EQ(top_cause(longer), OomCause::kActivationsSeqlen);
  EXPECT_FALSE(evidence_holds("CUDA out of memory\nThe GPU memory grows every epoch while the input length stays the "
                              "same.\n",
                              "grow as the input grows"));
  // "to mitigate" tells the fix: the length setting named.
  EXPECT_EQ(top_cause("stack_llama: add parameter to control max_length (to mitigate OOM errors)\nAs I only have 24 Gb "
                      "VRAM, I run out of memory when training the reward model.\n"),
            OomCause::kActivationsSeqlen);
  // dask-cuda's workers' RMM pools: other processes; not where the pool tells its own cap.
  const std::string pool = "cluster = LocalCUDACluster(CUDA_VISIBLE_DEVICES='0', rmm_pool_size='14.5 GB')\n"
                           "model = model.fit(df, y)\n"
                           "distributed.utils - ERROR - std::bad_alloc: CUDA error at: "
                           "/opt/conda/include/rmm/mr/device/cuda_memory_resource.hpp:70: cudaErrorMemoryAllocation out of "
                           "memory\n";
  EXPECT_TRUE(evidence_holds(pool, "dask-cuda's workers", OomCause::kOtherProcess));
  EXPECT_FALSE(evidence_holds(pool + "RMM failure at: /opt/conda/include/rmm/mr/device/pool_memory_resource.hpp:196: "
                                     "Maximum pool size exceeded\n",
                              "dask-cuda's workers"));
  // A leak told while a script that runs a trained model runs: evaluation keeping its graph.
  EXPECT_EQ(top_cause("memory leak\nI ran your script play.py in the folder scripts. I found that there is a slow but fatal "
                      "GPU memory leak problem.\n"),
            OomCause::kEvalWithoutNoGrad);
  EXPECT_EQ(top_cause("memory leak\nI ran train.py for 3 epochs. I found that there is a slow but fatal GPU memory leak "
                      "problem.\n"),
            OomCause::kLeakAcrossSteps);
  // Memory told high or unfriendly as the complaint: a report.
  EXPECT_EQ(diagnose_log("About high cuda memory allocation with too long context length\nThe kernel computes the whole "
                         "context at once.\n",
                         rules_alone())
                .size(),
            1u);
}

// review65's findings (a fresh reviewer's made-up inputs against held65's readings), mended by kind.
TEST(DiagnoseKinds39, Review65Mends) {
  // A job's allotment beside a CUDA OOM is not where memory ran out.
  EXPECT_FALSE(evidence_holds("I allocated 64GB of RAM to the job on our cluster. Training crashes with\nRuntimeError: CUDA "
                              "out of memory. Tried to allocate 512.00 MiB (GPU 0; 10.76 GiB total capacity; 9.80 GiB "
                              "already allocated; 120.00 MiB free; 9.90 GiB reserved in total by PyTorch)\n",
                              "memory allotted to a job"));
  // The workers' pools are not read for a worker's host RAM (no device allocation failed).
  EXPECT_FALSE(evidence_holds("cluster = LocalCUDACluster(rmm_pool_size=\"30GB\", device_memory_limit=\"28GB\")\n"
                              "distributed.nanny - WARNING - Worker exceeded 95% memory budget. Restarting\n",
                              "dask-cuda's workers"));
  // Growth with the input only asked, then denied: not read.
  EXPECT_FALSE(evidence_holds("Memory grows as the epoch goes on and the input size increases with each curriculum stage? "
                              "No - the input is fixed 224x224. Memory increases every epoch until:\nRuntimeError: CUDA "
                              "out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.79 GiB total capacity; 7.20 GiB "
                              "already allocated)\n",
                              "grow as the input grows"));
  // "no leak" is not the word 'leak'.
  EXPECT_FALSE(evidence_holds("python demo.py crashes immediately at model load, no leak:\ntorch.cuda.OutOfMemoryError: "
                              "CUDA out of memory. Tried to allocate 136.00 MiB (GPU 0; 5.79 GiB total capacity; 5.60 GiB "
                              "already allocated)\n",
                              "the word 'leak'"));
  // Memory told quadratic in the sequence's length: the input's length.
  EXPECT_EQ(top_cause("The current implementation is memory-unfriendly: the full attention matrix is materialized for every "
                      "head, so memory is quadratic in sequence length.\n"),
            OomCause::kActivationsSeqlen);
  // A run told no longer possible within a memory size: a report.
  EXPECT_EQ(diagnose_log("Fine-tuning 7B with LoRA used to work, now it is no longer possible within 24GB of memory after "
                         "upgrading transformers.\n",
                         rules_alone())
                .size(),
            1u);
  // The kernel's anon-rss retyped with its unit: read in that unit (kB, as the kernel prints it, otherwise).
  std::vector<Diagnosis> ds = diagnose_log("Killed\ndmesg: Out of memory: Killed process 9912 (python) total-vm:98GB, "
                                           "anon-rss:61GB\n",
                                           rules_alone());
  ASSERT_FALSE(ds.empty());
  ASSERT_TRUE(ds.back().oom.has_value());
  EXPECT_EQ(ds.back().oom->rss_bytes, int64_t{61} << 30);
  ds = diagnose_log("Out of memory: Killed process 9912 (python) total-vm:102760000kB, anon-rss:63963408kB, file-rss:0kB\n",
                    rules_alone());
  ASSERT_FALSE(ds.empty());
  EXPECT_EQ(ds.back().oom->rss_bytes, int64_t{63963408} * 1024);
}

// A read of held65's change (a fresh helper on the diff), mended: each reading only where its words say so.
TEST(DiagnoseKinds39, Read46Mends) {
  // Ray's monitor only by its exception's name, not a share of a node's memory in prose.
  EXPECT_TRUE(diagnose_log("Our training uses about 60% of the memory on node 3, which is fine.\n", rules_alone()).empty());
  // anon-rss with a fraction and a unit.
  std::vector<Diagnosis> ds = diagnose_log(
      "Out of memory: Killed process 4242 (python) total-vm:70000000kB, anon-rss:61.5GB, file-rss:0kB\n", rules_alone());
  ASSERT_FALSE(ds.empty());
  EXPECT_EQ(ds.back().oom->rss_bytes, int64_t{66035122176});  // 61.5 GiB
  // The workers' pools beside PyTorch's own CUDA OOM (the client starved): read.
  EXPECT_TRUE(evidence_holds("cluster = LocalCUDACluster(rmm_pool_size=\"24GB\")\ntorch.cuda.OutOfMemoryError: CUDA out of "
                             "memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity; 21.00 GiB already "
                             "allocated)\n",
                             "dask-cuda's workers", OomCause::kOtherProcess));
  // Input growth: "as" as a word before the input, in the memory's own sentence.
  EXPECT_FALSE(evidence_holds("CUDA out of memory.\nGPU memory usage grows every epoch; my dataset has inputs growing in "
                              "number over time.\n",
                              "grow as the input grows"));
  EXPECT_FALSE(evidence_holds("CUDA out of memory.\nGPU memory usage grows every step until it crashes. As the inputs grow "
                              "I also see it get slower.\n",
                              "grow as the input grows"));
  // A leak told beside growth denied for another phase keeps the word 'leak'.
  EXPECT_TRUE(evidence_holds("CUDA out of memory.\nLooks like a leak in validation: it does not increase during training, "
                             "only in the val loop.\n",
                             "leak", OomCause::kLeakAcrossSteps));
  // "program per job" is no memory allotted.
  EXPECT_FALSE(evidence_holds("We run one program per job, each reading 20GB of data from disk.\nKilled\n",
                              "memory allotted to a job"));
  // Memory told not quadratic.
  EXPECT_FALSE(evidence_holds("CUDA out of memory.\nFlashAttention makes memory linear instead of quadratic in sequence "
                              "length, so I expected this to fit.\n",
                              "quadratic"));
  // A script only mentioned, or fine-tuning: no phase without training.
  EXPECT_EQ(top_cause("CUDA out of memory.\nGPU memory keeps growing every step while fine-tuning with finetune.py (I have "
                      "not run eval.py yet).\n"),
            OomCause::kLeakAcrossSteps);
}

// held66's kinds (a fresh held-apart part, first look 30.8% / 65.4%), each on inputs written here.
TEST(DiagnoseKinds39, Held66Kinds) {
  // The model's layers told all on one GPU that then runs out: one GPU holds more than the others; a
  // single card holding the model as expected is not that.
  const std::string oom_512 = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB\n";
  EXPECT_TRUE(evidence_holds("OOM when running on two GPUs\nThe pipeline loads fine, but the layers are all on the first "
                             "gpu, so it runs out of memory there while GPU 1 stays at 2 GiB.\n" + oom_512,
                             "one GPU holds more than the others", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds("OOM on one GPU\nI have a single card, and the model is all on one gpu as expected.\n" + oom_512,
                              "one GPU holds more than the others"));
  // A diffusers pipeline run: its __call__ is under no_grad, so an inference frame keeps outputs, not graphs.
  const std::string run = "Traceback (most recent call last):\n  File \"test_sdxl.py\", line 9, in <module>\n    image = "
                          "pipe(prompt, height=2048, width=2048).images[0]\ntorch.cuda.OutOfMemoryError: CUDA out of memory. "
                          "Tried to allocate 8.00 GiB\n";
  const std::string built = "SDXL runs out of memory\nfrom diffusers import StableDiffusionXLPipeline\npipe = "
                            "StableDiffusionXLPipeline.from_pretrained(\"sdxl-base\", torch_dtype=torch.float16).to(\"cuda\")\n";
  EXPECT_TRUE(evidence_holds(built + run, "(under no_grad: outputs kept, not graphs)", OomCause::kEvalWithoutNoGrad));
  EXPECT_FALSE(evidence_holds("SDXL runs out of memory\n" + run, "(under no_grad: outputs kept, not graphs)"));
  // A video's decoder or its latents decoded, told without the word VAE: the decode's resolution; slicing is not.
  const std::string whole_video = "the VAE decoding the whole image / video at once";
  const std::string oom_6 = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB\n";
  EXPECT_TRUE(evidence_holds("Text to video OOM\nSampling finishes, then in the video decoder step OOM on my 24GB card.\n" + oom_6,
                             whole_video, OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("Text to video OOM\nDecoding the latents one frame at a time with slicing still fails.\n" + oom_6,
                              whole_video));
  // An export that quantizes (GPTQ at export) loads the 16-bit weights: static memory first; QLoRA's
  // training flag is no such export.
  const std::string message = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 40.00 MiB (GPU 0; 22.19 "
                              "GiB total capacity; 21.04 GiB already allocated; 38.50 MiB free; 21.46 GiB reserved in total "
                              "by PyTorch)\n";
  const std::string exported = "export of a GPTQ model fails\npython export_model.py --model_name_or_path llama-13b-sft "
                               "--export_quantization_bit 4 --export_quantization_dataset c4.json --export_dir out\n" +
                               message;
  EXPECT_TRUE(evidence_holds(exported, "a model being quantized", OomCause::kStaticModelTooLarge));
  EXPECT_EQ(top_cause(exported), OomCause::kStaticModelTooLarge);
  EXPECT_FALSE(evidence_holds("QLoRA training fails\npython train.py --model_name_or_path llama-13b --quantization_bit 4 "
                              "--lora_target q_proj,v_proj\n" +
                                  message,
                              "a model being quantized"));
  // A point cloud's points counted: the input's size; denied, not read.
  const std::string oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB\n";
  EXPECT_TRUE(evidence_holds("Scene too big\nI am processing a point cloud with 120k points on a 3090.\n" + oom,
                             "a point cloud's points", OomCause::kActivationsSeqlen));
  EXPECT_EQ(top_cause("Scene too big\nMy point clouds are quite large, ~2 million points each.\n" + oom),
            OomCause::kActivationsSeqlen);
  EXPECT_FALSE(evidence_holds("Scene too big\nMy point cloud has not too many points, about 5k points, and the batch is 64.\n" +
                                  oom,
                              "a point cloud's points"));
  // A native library's byte count on the line after its "-> out of memory": the request; a warning after a
  // sentence that names the failure is not.
  std::vector<Diagnosis> ds =
      diagnose_log("Clustering fails\n/src/kmcuda.cc:300 -> out of memory\nfailed to allocate 2147483648 bytes for centroids\n",
                   rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(ds.front().oom.has_value());
  EXPECT_EQ(ds.front().oom->requested_bytes, int64_t{2147483648});
  ds = diagnose_log("Clustering fails with an out of memory error\nWarning: failed to allocate 2147483648 bytes of pinned "
                    "memory, retrying with pageable memory\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_FALSE(ds.front().oom->requested_bytes.has_value());
}

// A read of held66's change (a fresh helper on the diff), mended: each reading only where its words say so.
TEST(DiagnoseKinds39, Read47Mends) {
  // bitsandbytes quantizing as the model loads is no quantization run, and QLoRA's weights stay 4-bit.
  const std::string qlora =
      "QLoRA SFT of Llama-2-70B OOM on A100 80GB\nllamafactory-cli train --stage sft --model_name_or_path "
      "meta-llama/Llama-2-70b-hf --finetuning_type lora --quantization_bit 4 --cutoff_len 4096\n[INFO] "
      "llamafactory.model.model_utils.quantization:143 >> Quantizing model to 4 bit with bitsandbytes.\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 0 has a total capacity of 79.15 GiB of "
      "which 1.02 GiB is free. Including non-PyTorch memory, this process has 78.12 GiB memory in use. Of the allocated "
      "memory 76.40 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.\n";
  EXPECT_FALSE(evidence_holds(qlora, "16-bit weights alone"));
  EXPECT_FALSE(evidence_holds(qlora, "a model being quantized"));
  // A quantizer at load set off ("--load_in_8bit False") leaves an export's model at 16 bits.
  EXPECT_TRUE(evidence_holds("GPTQ export of my SFT model fails\npython export_model.py --model_name_or_path llama-2-70b-sft "
                             "--export_quantization_bit 4 --export_quantization_dataset c4.json --load_in_8bit False\n"
                             "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 40.00 MiB (GPU 0; 79.15 GiB "
                             "total capacity; 78.04 GiB already allocated; 38.50 MiB free; 78.46 GiB reserved in total by "
                             "PyTorch)\n",
                             "16-bit weights alone", OomCause::kStaticModelTooLarge));
  // An export's quantization set to null is no export that quantizes.
  EXPECT_FALSE(evidence_holds("llamafactory-cli chat OOM with Llama-2-13B on a 4090\nmodel_name_or_path: "
                              "meta-llama/Llama-2-13b-chat-hf\nexport_quantization_bit: null\ntorch.cuda.OutOfMemoryError: "
                              "CUDA out of memory. Tried to allocate 270.00 MiB\n",
                              "a model being quantized"));
  // A pipeline built only to save the model after the traceback puts no frame under no_grad; one imported
  // from diffusers.pipelines and built from a single file, then called, does.
  EXPECT_FALSE(evidence_holds("Fine-tuning the SD 1.5 UNet runs out of memory in my validation loop\nTraceback (most recent "
                              "call last):\n  File \"train_unet.py\", line 471, in main\n    val_loss = evaluate(unet, "
                              "val_loader)\n  File \"train_unet.py\", line 388, in evaluate\n    model_pred = unet(noisy_latents, "
                              "timesteps, encoder_hidden_states).sample\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried "
                              "to allocate 1.50 GiB\nAfter training the script saves a pipeline with\npipeline = "
                              "StableDiffusionPipeline.from_pretrained(args.pretrained_model_name_or_path, unet=unet)\n",
                              "(under no_grad"));
  EXPECT_TRUE(evidence_holds("Flux img2img OOM at 1536px\nfrom diffusers.pipelines.flux import FluxImg2ImgPipeline\npipe = "
                             "FluxImg2ImgPipeline.from_single_file(\"flux1-dev.safetensors\").to(\"cuda\")\nTraceback (most "
                             "recent call last):\n  File \"infer_flux.py\", line 14, in <module>\n    image = pipe(prompt, "
                             "image=init, height=1536, width=1536).images[0]\ntorch.cuda.OutOfMemoryError: CUDA out of memory. "
                             "Tried to allocate 4.50 GiB\n",
                             "(under no_grad: outputs kept, not graphs)", OomCause::kEvalWithoutNoGrad));
  // The weights all on one GPU: only of several GPUs, failing there ("room" is no OOM); the first card too.
  const std::string oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  EXPECT_FALSE(evidence_holds("Long context OOM on a single RTX 4090\nI only have one card, so the model weights are all on "
                              "one gpu, and at 16k tokens it runs out of memory.\n" + oom,
                              "one GPU holds more than the others"));
  EXPECT_FALSE(evidence_holds("Inference OOM with long prompts\nThe model weights are all on the same gpu and there is still "
                              "plenty of room left after loading.\n" + oom,
                              "one GPU holds more than the others"));
  EXPECT_TRUE(evidence_holds("Pipeline parallel inference OOM\nIt seems the model weights are all on the first card, so the "
                             "first card ran out of memory during inference.\n" + oom,
                             "one GPU holds more than the others", OomCause::kMultiGpuImbalance));
  // A hardware video decoder, a latent attention while decoding, and a decode one frame at a time are no VAE
  // decoding the whole video.
  for (const char* text :
       {"I read the clips with the NVDEC hardware video decoder and training crashes after a few iterations.\n",
        "The model uses multi-head latent attention, yet decoding a 64k-token prompt still runs out of memory.\n",
        "I already set decode_chunk_size=1 so the latents are decoded one frame at a time, and it still runs out of memory.\n"}) {
    EXPECT_FALSE(evidence_holds("OOM\n" + std::string(text) + oom, "the VAE decoding the whole image / video at once")) << text;
  }
  // Points counted in words; a score's points are no point cloud's size.
  EXPECT_TRUE(evidence_holds("OOM on outdoor scans\nMy point clouds are big, millions of points per scan, and training runs "
                             "out of memory at the first step.\n" + oom,
                             "a point cloud's points", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("OOM with the new backbone\nThe new point cloud backbone is 2 points better in mIoU, but it runs "
                              "out of memory at batch size 16.\n" + oom,
                              "a point cloud's points"));
  // A native byte count only after a program's check line (a sentence ending in "out of memory" is none),
  // never 0 bytes, and after a check line ending in a full stop.
  std::vector<Diagnosis> ds = diagnose_log("k-means on 50M embeddings runs out of memory\nWarning: failed to allocate "
                                           "2147483648 bytes of pinned memory, retrying with pageable memory\n",
                                           rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_FALSE(ds.front().oom->requested_bytes.has_value());
  ds = diagnose_log("kmeans_cuda crashes\n/src/kmcuda.cc:456 -> out of memory\nfailed to allocate 0 bytes for bounds\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_FALSE(ds.front().oom->requested_bytes.has_value());
  ds = diagnose_log("kmeans_cuda crashes\n/src/kmcuda.cc:456 -> out of memory.\nfailed to allocate 9453759777 bytes for "
                    "bounds\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->requested_bytes, int64_t{9453759777});
}

// held67's kinds (a fresh held-apart part, first look 34.6% / 65.4%), each on inputs written here.
TEST(DiagnoseKinds39, Held67Kinds) {
  // A crash written "crush", told of a program: a report; "crushes the numbers" is none.
  std::vector<Diagnosis> ds =
      diagnose_log("Runtime crushes after RAM usage goes over 25GB\nEvery time the kernel crushes after system RAM goes over "
                   "25GB.\n",
                   rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->device, "cpu");
  EXPECT_TRUE(diagnose_log("Notebook slow\nThe page crushes the numbers into a chart and RAM stays at 2GB.\n", rules_alone())
                  .empty());
  // "memory overflow" names the OOM; a later line's CPU memory is the title's device.
  ds = diagnose_log("Training reports a memory overflow error\nRunning train.py, a CPU memory overflow is always reported "
                    "after the first epoch.\n",
                    rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->device, "cpu");
  // The failing allocation retold in prose beside the OOM: the request; a count without a unit is none.
  ds = diagnose_log("Serving fails\nThen I got OOM on each gpu: allocate 512Mib but 300.5 MiB left\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->requested_bytes, int64_t{512} << 20);
  ds = diagnose_log("Serving fails\nThen I got OOM on each gpu: allocate 2 more buffers did not help\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_FALSE(ds.front().oom->requested_bytes.has_value());
  // A loss named for evaluation taken backward (MAML's outer loss) in a test-named script: a training step.
  const std::string maml = "Memory leak in my MAML loop\nTraceback (most recent call last):\n  File \"/home/user/maml_test.py\", "
                           "line 88, in main\n    evaluation_loss.backward()\n  File \"/usr/lib/python3/site-packages/torch/"
                           "_tensor.py\", line 307, in backward\n    torch.autograd.backward(self, gradient, retain_graph)\n"
                           "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 5.79 GiB total capacity; "
                           "3.60 GiB already allocated; 77.56 MiB free; 3.62 GiB reserved in total by PyTorch)\n";
  EXPECT_FALSE(evidence_holds(maml, "traceback: evaluation / inference"));
  EXPECT_NE(top_cause(maml), OomCause::kEvalWithoutNoGrad);
  // A batch as large as the whole dataset; one capped with min() is not.
  const std::string class_means = "Exemplar selection OOM\nCUDA out of memory when computing class means:\n    x, _ = ";
  const std::string whole_set = "a batch as large as the whole dataset";
  EXPECT_TRUE(evidence_holds(class_means + "next(iter(DataLoader(train_set, batch_size=len(train_set))))\n", whole_set,
                             OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds(class_means + "next(iter(DataLoader(train_set, batch_size=min(64, len(train_set)))))\n",
                              whole_set));
  // Adapters merged into the model: its whole weights; a merged model only loaded is not a merge.
  EXPECT_TRUE(evidence_holds("peft merge OOM on one A100\nmodel = model.merge_and_unload() runs out of memory with CUDA out of "
                             "memory.\n",
                             "adapters merged into the model", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds("Inference OOM\nI load the merged model after merging the LoRA, then generation runs out of "
                              "memory.\ntorch.cuda.OutOfMemoryError: CUDA out of memory.\n",
                              "adapters merged into the model"));
  // A cloud machine's type: host RAM, where the log names no accelerator.
  const std::string job = "OOM error when running a batch prediction job\nThe job fails with an OOM error; there is no way to "
                          "set the machine type of this step.\n";
  EXPECT_TRUE(evidence_holds(job, "a cloud machine's type told", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds(job + "CUDA out of memory.\n", "a cloud machine's type told"));
  // Tokens routed unevenly over the experts' GPUs: one GPU holds more.
  EXPECT_TRUE(evidence_holds("How to avoid OOM in MoE training\nWith expert parallelism the router sends more tokens to one GPU "
                             "early in training, and that device runs out of memory.\n",
                             "tokens routed unevenly", OomCause::kMultiGpuImbalance));
  // A screenshot's image tag (its width, a date, a web address holding "length") is no long input.
  EXPECT_FALSE(evidence_holds("OOM in deployment\n<img width=\"1375\" alt=\"Screenshot 2023-08-07 at 5 04 59 PM\" "
                              "src=\"https://github.com/org/extending-the-context-length-repo/assets/1234/abc\">\n"
                              "torch.cuda.OutOfMemoryError: CUDA out of memory.\n",
                              "a long input"));
}

// A read of held67's change (a fresh helper on the diff), mended: each reading only where its words say so.
TEST(DiagnoseKinds39, Read47SecondMends) {
  // "crushes" as praise is no crash; a denied memory overflow is no report.
  EXPECT_TRUE(diagnose_log("Switched to the streaming loader. Honestly it crushes the old one: RAM usage went from 14GB to 3GB.\n",
                           rules_alone())
                  .empty());
  EXPECT_TRUE(diagnose_log("Training hangs at step 300\nThere is no memory overflow, RAM stays at 6GB and GPU memory at 10GB.\n",
                           rules_alone())
                  .empty());
  // "allocate 2 batches" is no size, and a budget meant is no failed request.
  for (const char* text : {"OOM with larger images\nI get OOM on the GPU when I allocate 2 batches of 1024x1024 images at once.\n",
                           "vLLM OOM on startup\nvLLM should allocate 20GiB for the KV cache, but I still get OOM on the 24GB "
                           "card.\n"}) {
    const std::vector<Diagnosis> ds = diagnose_log(text, rules_alone());
    ASSERT_EQ(ds.size(), 1u) << text;
    EXPECT_FALSE(ds.front().oom->requested_bytes.has_value()) << text;
  }
  // The attempt told before the size is the failing one.
  std::vector<Diagnosis> ds =
      diagnose_log("CUDA OOM: Trying to allocate 2548.47 GiB when processing the 500k dataset on an 80GB H100\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(ds.front().oom->requested_bytes.has_value());
  // A collate function's batch_size = len(batch) is no whole-dataset batch.
  EXPECT_FALSE(evidence_holds("def collate(batch):\n    batch_size = len(batch)\n    return torch.stack(batch)\n"
                              "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                              "a batch as large as the whole dataset"));
  // More tokens in a prompt on a single GPU running an MoE model is no routing imbalance.
  EXPECT_FALSE(evidence_holds("Mixtral OOM with long prompts\nI'm running Mixtral-8x7B (MoE) on a single RTX 4090. With more "
                              "tokens in the prompt the GPU runs out of memory.\ntorch.cuda.OutOfMemoryError: CUDA out of "
                              "memory. Tried to allocate 1.50 GiB\n",
                              "tokens routed unevenly"));
  // "machine translation" is no machine type; an accelerator on the machine's line is the GPU's.
  EXPECT_FALSE(evidence_holds("MemoryError when training a larger machine translation model\nMemoryError\n",
                              "a cloud machine's type told"));
  EXPECT_FALSE(evidence_holds("Vertex AI custom job OOM\nmachineType: n1-highmem-8, acceleratorType: NVIDIA_TESLA_V100\n"
                              "RuntimeError: out of memory\n",
                              "a cloud machine's type told"));
  // Adapters merged in other words.
  EXPECT_TRUE(evidence_holds("OOM when merging the QLoRA adapters\nThe process dies with \"Killed\" while merging the qlora "
                             "adapters into the base model.\n",
                             "adapters merged into the model"));
  // A date after a month's name, an unquoted image width, a card's number: no long input.
  for (const char* text : {"Since the release on Aug 7, 2023 training runs out of memory.\n",
                           "<img width=1375 alt=\"context length\" src=\"https://github.com/user-attachments/assets/5f1e2a\">\n",
                           "Training with sequence length 512 runs out of memory on my 3090.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(text) + "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 "
                                                    "MiB\n",
                                "a long input"))
        << text;
  }
}

// held68's kinds (a fresh held-apart part, first look 56.0% / 68.0%), each on inputs written here.
TEST(DiagnoseKinds39, Held68Kinds) {
  // TH's CPU allocator pasted without its "$ Torch: " head: its whole-GB count, host RAM.
  std::vector<Diagnosis> ds = diagnose_log(
      "not enough memory: you tried to allocate 3GB\nI keep hitting this error while training CycleGAN on the CPU.\n",
      rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->family, "th_cpu_allocator");
  EXPECT_EQ(ds.front().oom->requested_bytes, int64_t{3} << 30);
  EXPECT_EQ(ds.front().findings.front().category, OomCause::kCpuRam);
  // ... and c10's DefaultCPUAllocator's words without its head: its exact byte count.
  ds = diagnose_log("not enough memory: you tried to allocate 9437184 bytes\nMy pagefile was small.\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->family, "cpu_default_allocator");
  EXPECT_EQ(ds.front().oom->requested_bytes, int64_t{9437184});
  // Memory told to fluctuate follows the inputs' sizes; growth alone stays a leak.
  const std::string oom = "RuntimeError: CUDA error: out of memory\n";
  EXPECT_EQ(top_cause("OOM on a custom dataset\nEven with imgs_per_gpu=1 the memory grows to around 8G and fluctuates for a "
                      "while until finally OOM.\n" + oom),
            OomCause::kActivationsSeqlen);
  EXPECT_EQ(top_cause("OOM on a custom dataset\nThe memory grows every iteration until finally OOM.\n" + oom),
            OomCause::kLeakAcrossSteps);
  // A batch size in a launch script's name; "_bs" in a name that is no script or config is none.
  EXPECT_TRUE(evidence_holds("I'm running ./scripts/launch_BigGAN_bs256x8.sh and getting the following error:\nRuntimeError: "
                             "CUDA out of memory. Tried to allocate 768.00 MiB (GPU 0; 7.44 GiB total capacity; 5.47 GiB "
                             "already allocated; 487.56 MiB free; 1.07 GiB cached)\n",
                             "logged batch size 256", OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds("I'm running the model named resnet_bs256 and getting the following error:\nRuntimeError: CUDA out "
                              "of memory. Tried to allocate 768.00 MiB\n",
                              "logged batch size 256"));
}

// A read of held68's change (a fresh helper on the diff), mended: each reading only where its words say so.
TEST(DiagnoseKinds39, Read47ThirdMends) {
  const std::string oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  // Fluctuation denied, another measure's, or beside a rise every epoch: the leak stays.
  for (const char* text : {"GPU memory doesn't fluctuate, it keeps increasing after every iteration until OOM.\n",
                           "The loss fluctuates a lot, and GPU memory keeps increasing every epoch until it runs out.\n",
                           "Memory fluctuates a little but keeps increasing after every epoch until it finally crashes.\n"}) {
    EXPECT_EQ(top_cause(std::string(text) + oom), OomCause::kLeakAcrossSteps) << text;
  }
  // c10's messages without their head: the other wording, and a count beyond int64 flagged.
  std::vector<Diagnosis> ds = diagnose_log(
      "RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. can't allocate memory: you tried to allocate 268435456 bytes. "
      "Error code 12 (Cannot allocate memory)\n",
      rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds.front().oom->family, "cpu_default_allocator");
  EXPECT_EQ(ds.front().oom->requested_bytes, int64_t{268435456});
  ds = diagnose_log("RuntimeError: not enough memory: you tried to allocate 18446744065119617024 bytes.\n", rules_alone());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(ds.front().oom->size_overflow);
  // Batch sizes in script names after "-" and as "bsz"; a decoding script's beam size is none.
  for (const char* script : {"scripts/finetune-llama7b-bs32.sh", "examples/train_bsz32.sh"}) {
    EXPECT_TRUE(evidence_holds("$ bash " + std::string(script) + "\n" + oom, "logged batch size 32")) << script;
  }
  EXPECT_FALSE(evidence_holds("$ bash scripts/decode_bs32.sh\n" + oom, "logged batch size 32"));
}

// held69's kinds (a fresh held-apart part, first look 48.0% / 72.0%), each on inputs written here.
TEST(DiagnoseKinds39, Held69Kinds) {
  const std::string oom = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  // A document told large is the input's length (in the prose before the error's words).
  const std::string coref = "Coref training: CUDA out of memory\nI noticed that applying the model to large document causes out "
                            "of memory error. The library doesn't truncate it.\n";
  EXPECT_TRUE(evidence_holds(coref, "long inputs", OomCause::kActivationsSeqlen));
  EXPECT_EQ(top_cause(coref), OomCause::kActivationsSeqlen);
  // ... not documentation, nor documents truncated to a bound.
  EXPECT_FALSE(evidence_holds("Encoding OOM\nI followed the large documentation and encode short entries, which causes out "
                              "of memory error. It doesn't help to wait.\n" + oom,
                              "long inputs"));
}

// held70's kinds (a fresh held-apart part, first look 28.0% / 48.0%), each on inputs written here.
TEST(DiagnoseKinds40, Held70Kinds) {
  const std::string oom = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  // "fit" as the English verb is no training: a served model is not fine-tuned with Adam; Lightning's
  // and Keras' fit() call is.
  const std::string serving = "Running Llama-2-7b on one A100 80GB GPU, the model should fit in memory.\n" + oom;
  EXPECT_FALSE(evidence_holds(serving, "full fine-tuning of the named model"));
  EXPECT_TRUE(evidence_holds("Running Llama-2-7b on one A100 80GB GPU with model.fit(x, y).\n" + oom,
                             "full fine-tuning of the named model", OomCause::kOptimizerState));
  // A cloud machine's listing, its vCPUs then its memory, sizes the host, not the GPU.
  EXPECT_TRUE(evidence_holds("Training Llama-2-13b, full fine-tuning.\nI rent a GPU VM: Standard_NC24ads_A100_v4 (24 vcpus, "
                             "220 GiB memory) with an A100 GPU 80GB\n" + oom,
                             "of the 80.00 GiB the log names"));
  // ... not a GPU's size listed after the CPUs.
  EXPECT_TRUE(evidence_holds("Training Llama-2-13b, full fine-tuning.\nI rent a GPU VM (8 vCPUs, 1x A100 80GB)\n" + oom,
                             "of the 80.00 GiB the log names"));
  // The Hugging Face template's "PyTorch version (GPU?): ... (False)": no GPU, the host's RAM.
  const std::string asr = "Transcribing a file fails with out of memory\n";
  EXPECT_TRUE(evidence_holds(asr + "- PyTorch version (GPU?): 1.13.1 (False)\n", "the machine has no GPU", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds(asr + "- PyTorch version (GPU?): 1.13.1 (True)\n", "the machine has no GPU"));
  EXPECT_FALSE(evidence_holds(asr + "- PyTorch version (GPU?): 2.0.1 (True)\n- Tensorflow version (GPU?): 2.12.0 (False)\n",
                              "the machine has no GPU"));
  // "valid" qualifying data ("valid_labels") is no validation function; "validate_epoch" is one.
  EXPECT_FALSE(evidence_holds("Tracker runs out of GPU memory\nThe step function with valid_labels runs out of memory.\n",
                              "fails in an evaluation function"));
  EXPECT_TRUE(evidence_holds("Tracker runs out of GPU memory\nThe validate_epoch function runs out of memory.\n",
                             "fails in an evaluation function", OomCause::kEvalWithoutNoGrad));
  // The memory told gone as "soon out" is an OOM told in words.
  const std::vector<Diagnosis> soon = diagnose_log(
      "Training on 4 GPUs at 11 GB each.\nAt the start the GPU memory is at 6 GB, but the GPU memory is soon out.\n", rules_alone());
  ASSERT_EQ(soon.size(), 1u);
  EXPECT_EQ(soon.front().oom->family, "mentioned");
  EXPECT_EQ(soon.front().oom->line, 2);
  EXPECT_TRUE(diagnose_log("The old weights are kept on the CPU, so that GPU memory is already out on the CPU.\n", rules_alone())
                  .empty());
  // Growth only asked about, as a setting's effect, is no growth seen.
  EXPECT_FALSE(evidence_holds("When I set max_len to 4096, will it increase the memory required for each step?\n" + oom,
                              "memory grows step after step"));
  EXPECT_TRUE(evidence_holds("The memory keeps increasing after every step.\n" + oom, "memory grows step after step"));
  EXPECT_TRUE(evidence_holds("Why does the GPU memory keep increasing after every epoch?\n" + oom, "memory grows step after step"));
  // A recording told large is a long input; a large collection of them is not one.
  EXPECT_TRUE(evidence_holds("Transcribing large wav files (65 MB each) gives an out of memory error.\n", "long inputs",
                             OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("Fine-tuning on a large wav dataset gives an out of memory error.\n", "long inputs"));
  EXPECT_TRUE(evidence_holds("Transcribing large mp4 files gives an out of memory error.\n", "long inputs"));
  // ... nor the GPU's video memory.
  EXPECT_FALSE(evidence_holds("I need a GPU with larger video memory, training gives an out of memory error.\n", "long inputs"));
  // Text Generation Inference's shard failing to start: the weights' load.
  const std::string tgi = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 15.77 GiB total "
                          "capacity; 15.37 GiB already allocated; 13.62 MiB free; 15.40 GiB reserved in total by PyTorch)\n";
  EXPECT_TRUE(evidence_holds(tgi + "Error: ShardCannotStart\n", "shard failed to start", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds(tgi, "shard failed to start"));
  EXPECT_TRUE(evidence_holds("text-generation-launcher: Shard 0 failed to start\n" + tgi, "shard failed to start"));
  // A Jetson board's GPU allocates from the board's RAM.
  EXPECT_TRUE(evidence_holds("On my Jetson Nano 2GB even the tiny model causes an out of memory error.\n", "Jetson board",
                             OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("On my laptop even the tiny model causes an out of memory error.\n", "Jetson board"));
  // ENOMEM's message retold with a space is the host's; Intel's Arc cap, "can NOT allocate memory block", is not.
  const std::vector<Diagnosis> retold =
      diagnose_log("The memory consumption kept increasing and finally caused a \"can not allocate memory\" error.\n", rules_alone());
  ASSERT_FALSE(retold.empty());
  EXPECT_EQ(retold.front().oom->device, "cpu");
  const std::vector<Diagnosis> arc = diagnose_log(
      "On my Arc A770 I get \"can NOT allocate memory block with size larger than 4GB\" and the run is out of memory.\n",
      rules_alone());
  ASSERT_FALSE(arc.empty());
  EXPECT_NE(arc.front().oom->device, "cpu");
}

// held71's kinds (a fresh held-apart part, first look 35.0% / 65.0%), each on inputs written here.
TEST(DiagnoseKinds40, Held71Kinds) {
  // Colab's notice of a session that used all its RAM, as its Korean, Japanese and Spanish pages print
  // it: the host's RAM, a report of its own.
  for (const char* notice :
       {"Colab에서 모델을 불러오면 \"사용 가능한 RAM을 모두 사용한 후 세션이 다운되었습니다\" 라고 나옵니다.\n",
        "Colabで \"使用可能な RAM をすべて使用した後で、セッションがクラッシュしました。\" と表示されます\n",
        "En Colab: \"Tu sesión falló después de usar toda la RAM disponible.\"\n",
        "No Colab: \"Sua sessão falhou após usar toda a RAM disponível.\"\n"}) {
    const std::vector<Diagnosis> ds = diagnose_log(notice, rules_alone());
    ASSERT_EQ(ds.size(), 1u) << notice;
    EXPECT_EQ(ds.front().oom->device, "cpu") << notice;
  }
  // ... not the same words asked or wished for ("how do I use all the available RAM?", "I want to use
  // all the RAM").
  for (const char* near : {"¿Cómo usar toda la RAM disponible?\n", "Colabで RAMをすべて使用したいです\n",
                           "RAM을 모두 사용하고 싶습니다\n"}) {
    EXPECT_TRUE(diagnose_log(near, rules_alone()).empty()) << near;
  }
  // A program only guessing its crash was out of memory: a crash of another cause is a candidate.
  EXPECT_TRUE(evidence_holds("ERROR: Previous attempt to load model resulted in crash for `model.bin` most likely due to out of "
                             "memory.\n",
                             "only guesses the crash was out of memory", OomCause::kOther));
  EXPECT_FALSE(evidence_holds("The app crashed due to out of memory while loading the model.\n", "only guesses"));
  // ... nor a kill with the same guess: the kill is the OOM's own evidence.
  EXPECT_FALSE(evidence_holds("Container terminated by SIGKILL, possibly due to Out Of Memory.\n", "only guesses"));
  // An issue template's unchecked box names nothing the run used; a checked one does.
  const std::string oom = "The trainer runs out of memory.\n### Related Components\n";
  EXPECT_FALSE(evidence_holds(oom + "- [ ] docker\n- [ ] circleci\n", "CI runner"));
  EXPECT_TRUE(evidence_holds(oom + "- [x] docker\n- [x] circleci\n", "CI runner"));
  // ... unless the user wrote settings on it.
  EXPECT_TRUE(evidence_holds(oom + "- [ ] My own modified scripts (batch_size=64)\n", "logged batch size 64"));
  // The GPUs' size told in the plural ("two 80GB GPUs", "8*80G GPUs") is the GPU the log names; RAM
  // beside them is not.
  for (const char* gpus : {"two 80GB GPUs", "8*80G GPUs", "8 GPUs with 80GB each"}) {
    EXPECT_TRUE(evidence_holds("Serving llama-2-70b on " + std::string(gpus) + ", it runs out of memory.\n",
                               "against the 80.00 GiB GPU the log names", OomCause::kStaticModelTooLarge))
        << gpus;
  }
  // Not a size the GPUs do not own: the host's, a total, the model's.
  for (const char* not_gpu : {"4 GPUs and 64GB RAM", "4 GPUs (96GB total)", "2 GPUs, as the model needs 140GB"}) {
    EXPECT_FALSE(evidence_holds("Serving llama-2-70b on " + std::string(not_gpu) + ", it runs out of memory.\n",
                                "the GPU the log names"))
        << not_gpu;
  }
}

// held72's kinds (a fresh held-apart part, first look 57.7% / 69.2%), each on inputs written here.
TEST(DiagnoseKinds40, Held72Kinds) {
  // C++'s bad_alloc named without "std::" is an OOM told; a name holding it, C++ around it, a question or
  // a denial is not.
  const std::vector<Diagnosis> bad = diagnose_log("I keep confronting a `bad_alloc` error on the GPU.\n", rules_alone());
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad.front().oom->device, "cuda");
  for (const char* not_told : {"The my_bad_alloc_counter grows.\n", "} catch (bad_alloc& e) {\n", "#include <new>   // bad_alloc\n",
                               "Does this function ever throw bad_alloc?\n",
                               "Note: this library never throws bad_alloc.\n"}) {
    EXPECT_TRUE(diagnose_log(not_told, rules_alone()).empty()) << not_told;
  }
  // Theano's CUDA allocation, alone or raised as Python's MemoryError: the device's report, its three counts.
  for (const char* head : {"", "MemoryError: "}) {  // (its CNMeM pool's words below)
    const std::vector<Diagnosis> theano = diagnose_log(
        std::string(head) + "Error allocating 1000000000 bytes of device memory (out of memory). Driver report 5000000 bytes "
                            "free and 4000000000 bytes total\n",
        rules_alone());
    ASSERT_EQ(theano.size(), 1u) << head;
    EXPECT_EQ(theano.front().oom->subsystem, "theano") << head;
    EXPECT_EQ(theano.front().oom->requested_bytes, 1000000000) << head;
    EXPECT_EQ(theano.front().oom->free_bytes, 5000000) << head;
    EXPECT_EQ(theano.front().oom->total_capacity_bytes, 4000000000) << head;
  }
  const std::vector<Diagnosis> cnmem = diagnose_log(
      "MemoryError: Error allocating 1073741824 bytes of device memory (CNMEM_STATUS_OUT_OF_MEMORY).\n", rules_alone());
  ASSERT_EQ(cnmem.size(), 1u);
  EXPECT_EQ(cnmem.front().oom->subsystem, "theano");
  EXPECT_EQ(cnmem.front().oom->requested_bytes, int64_t{1} << 30);
  // CatBoost's GPU pool: MB of 1024 x 1024 bytes, also pasted without its head; not a sentence with the
  // same words.
  const std::vector<Diagnosis> cat = diagnose_log("Error: Out of memory. Requested 2048 MB; Free 1000.5 MB\n", rules_alone());
  ASSERT_EQ(cat.size(), 1u);
  EXPECT_EQ(cat.front().oom->subsystem, "catboost");
  EXPECT_EQ(cat.front().oom->requested_bytes, int64_t{2048} << 20);
  const std::vector<Diagnosis> pasted = diagnose_log("`Requested 5696 MB; Free 3958.169335 MB\"`\n", rules_alone());
  ASSERT_EQ(pasted.size(), 1u);
  EXPECT_EQ(pasted.front().oom->subsystem, "catboost");
  for (const char* prose : {"We requested 300 MB; free space was 2 GB\n",
                            "The job requested 300 MB; free 200 MB was left on the scratch disk, so it stopped copying.\n"}) {
    EXPECT_TRUE(diagnose_log(prose, rules_alone()).empty()) << prose;
  }
  // The GPU's RAM told with "of" is not the host's.
  EXPECT_FALSE(evidence_holds("Translating runs until it exhausts the available RAM of GPU and then crashes.\n",
                              "host RAM runs out"));
  EXPECT_TRUE(evidence_holds("Translating runs until it exhausts the available RAM of the machine and then crashes.\n",
                             "host RAM runs out"));
  // ... only as whole words, and not a GPU machine's RAM.
  for (const char* host : {"I run the program on the GPU, and it used over 12G RAM and crashed.\nKilled\n",
                           "The RAM on the GPU server ran out and it crashed.\nKilled\n"}) {
    EXPECT_TRUE(evidence_holds(host, "host RAM runs out")) << host;
  }
  // A failure after a few iterations is no long run; after hundreds it is.
  const std::string oom = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  EXPECT_FALSE(evidence_holds("It trains, but only after 5 iterations, then ran out of memory.\n" + oom, "after a long run"));
  EXPECT_TRUE(evidence_holds("It trains, but only after 500 iterations, then ran out of memory.\n" + oom, "after a long run"));
  EXPECT_TRUE(evidence_holds("It ran fine for 20000 iterations, validating every 10 steps, then it crashed.\n" + oom,
                             "after a long run"));
}

TEST(DiagnoseKinds40, Held73Kinds) {
  // Batch size 1 told as the one setting that keeps the OOM away runs at 1: no failure at batch 1 is read.
  const std::string oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1000.00 MiB.\n";
  for (const char* kept_away :
       {"I set the micro batch size to 1, as it was the only value that did not cause an OOM exception.\n",
        "I found that a batch size of 1 was the only suitable value to prevent OOM errors.\n",
        "With batch size 1 the run goes through without running out of memory.\n"}) {
    EXPECT_FALSE(evidence_holds(kept_away + oom, "fails even at batch size 1")) << kept_away;
  }
  // ... but not where it is told failing still, or only tried to keep it away.
  for (const char* failing : {"Even with batch size 1 it runs out of memory, so the only way to avoid OOM is a smaller model.\n",
                              "Even batch size 1 crashes with out of memory.\n",
                              "I can't run batch size 1 without getting an OOM error.\n",
                              "Setting the batch size to 1 has not prevented the OOM errors.\n",
                              "With batch size 1, the process gets killed without any error message.\n"}) {
    EXPECT_TRUE(evidence_holds(failing + oom, "fails even at batch size 1")) << failing;
  }
}

TEST(DiagnoseKinds40, Held74Kinds) {
  // V8's failures (Node.js, a browser): an ArrayBuffer's backing store or the JavaScript heap, host memory.
  for (const char* v8 : {"llama2c-worker.js:25 Uncaught RangeError: Array buffer allocation failed\n",
                         "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n"}) {
    const std::vector<Diagnosis> js = diagnose_log(v8, rules_alone());
    ASSERT_EQ(js.size(), 1u) << v8;
    EXPECT_EQ(js.front().oom->family, "host_alloc") << v8;
    EXPECT_EQ(js.front().oom->subsystem, "v8") << v8;
    EXPECT_EQ(top_cause(v8), OomCause::kCpuRam) << v8;
  }
  // A volume's depth told in slices, 64 or more, is one large input; a few slices are not.
  const std::string tf_oom = "ResourceExhaustedError: OOM when allocating tensor\n";
  EXPECT_TRUE(evidence_holds("I apply my trained CARE 3D model to tiff files with 217 Slices.\n" + tf_oom, "long inputs"));
  EXPECT_TRUE(evidence_holds("Prediction on a 300-slice stack fails.\n" + tf_oom, "long inputs"));
  for (const char* not_one : {"Prediction on a stack of 3 slices fails.\n",
                              "The volumes have 155 slices each; I train a 2D U-Net on single slices, batch 32.\n",
                              "Training on a TPU v4-128 slice fails.\n"}) {
    EXPECT_FALSE(evidence_holds(not_one + tf_oom, "long inputs")) << not_one;
  }
  // A user's sentence telling CUDA's own OOM keeps the report's words from ranking host RAM first.
  const std::vector<Diagnosis> told = diagnose_log(
      "I am attempting to train on the dataset using the pre-trained weights with an NVIDIA 3090 GPU on the server "
      "machine. However, I encountered a CUDA out of memory error.\n");
  ASSERT_EQ(told.size(), 1u);
  for (const Finding& f : told.front().findings) EXPECT_NE(f.category, OomCause::kCpuRam);
  // ... not where it is denied.
  const std::vector<Diagnosis> denied = diagnose_log(
      "I am attempting to train on the dataset using the pre-trained weights with an NVIDIA 3090 GPU on the server "
      "machine. This is not a CUDA out of memory error, the machine runs out.\n");
  ASSERT_EQ(denied.size(), 1u);
  EXPECT_TRUE(std::any_of(denied.front().findings.begin(), denied.front().findings.end(),
                          [](const Finding& f) { return f.category == OomCause::kCpuRam; }));
  // A failure told at batch size 1 while the tensors hold under half the device: one sample's size first.
  // (A sentence with no word of failure: the batch-1 reading weighs the model's size alone.)
  auto at_one = [](const char* allocated) {
    return "Decreasing the batch size to 1, Python throws:\nRuntimeError: CUDA out of memory. Tried to allocate 564.00 MiB "
           "(GPU 0; 2.00 GiB total capacity; " + std::string(allocated) + " already allocated; 547.37 MiB free; 34.05 MiB cached)\n";
  };
  EXPECT_TRUE(evidence_holds(at_one("709.95 MiB"), "fails even at batch size 1", OomCause::kStaticModelTooLarge));
  EXPECT_EQ(top_cause(at_one("709.95 MiB")), OomCause::kActivationsSeqlen);
  // ... with most of the device in tensors, the model's size stays first.
  EXPECT_EQ(top_cause(at_one("1.40 GiB")), OomCause::kStaticModelTooLarge);
  // Batch size 1 told as where it already stands.
  EXPECT_TRUE(evidence_holds("For testing batch size is already 1, and it still fails.\n" + tf_oom,
                             "fails even at batch size 1"));
  // An attribution method turns each input into a batch.
  EXPECT_TRUE(evidence_holds("ig = IntegratedGradients(model)\nattr = ig.attribute(image, target=3)\n"
                             "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB\n",
                             "an attribution method", OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds("Switching from IntegratedGradients to Saliency fixed it.\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB\n",
                              "an attribution method"));
  // .item() on a line that is not about the loss keeps no loss tensor.
  EXPECT_FALSE(evidence_holds("bbox = [[i.min().item(), i.max().item() + 1] for i in nonzero_idx]\n"
                              "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB\n",
                              "loss tensors kept"));
  EXPECT_TRUE(evidence_holds("losses.append(loss) instead of loss.item()\n"
                             "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB\n",
                             "loss tensors kept"));
}

TEST(DiagnoseKinds40, Held75Kinds) {
  // The host's RAM named, then told short by a pronoun in the next clause; not asked.
  const std::string oom = "Too many training images, memory overflow\n";
  EXPECT_TRUE(evidence_holds(oom + "My computer has 60G RAM but it is still not enough.\n", "host RAM runs out"));
  for (const char* not_host : {"I have 32 GB of RAM, but it's not enough?\n", "My RTX 3090 has 24GB RAM but it is not enough.\n",
                               "I have 32GB RAM but this 6GB card is too small.\n", "I have 32GB RAM but it is not too small.\n"}) {
    EXPECT_FALSE(evidence_holds(oom + not_host, "host RAM runs out")) << not_host;
  }
  // The THC state's first allocation failing (THCTensorRandom.cu) is the context's creation: the device
  // was full before the process, whatever the load frame above it.
  const std::string thc =
      "  File \"train.py\", line 40, in <module>\n    model = tacotron2(hparams).cuda()\n"
      "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/THCTensorRandom.cu:25\n";
  EXPECT_TRUE(evidence_holds(thc, "random generators' states could not be allocated", OomCause::kOtherProcess));
  EXPECT_EQ(top_cause(thc), OomCause::kOtherProcess);
  // The caching allocator's closing advice pasted alone is its OOM message, cut at the head.
  const std::vector<Diagnosis> tail = diagnose_log(
      "I keep getting errors during training like:\nallocated memory try setting max_split_size_mb to avoid "
      "fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n",
      rules_alone());
  ASSERT_EQ(tail.size(), 1u);
  EXPECT_EQ(tail.front().oom->device, "cuda");
  // torch.cuda.memory_summary() pasted: PyTorch's peak far under the GPU the user names, or its reserved
  // memory far above its allocated.
  const std::string summary_head =
      "I ran out of memory on my 11GB GTX 1080 Ti.\ntorch.cuda.OutOfMemoryError: CUDA out of memory.\n"
      "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
      "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n";
  EXPECT_TRUE(evidence_holds(summary_head + "| Allocated memory      |    972 MiB |   2160 MiB |   1358 GiB |   1358 GiB |\n",
                             "PyTorch's peak was 2.11 GiB of the 11.00 GiB device", OomCause::kOtherProcess));
  EXPECT_FALSE(evidence_holds(summary_head + "| Allocated memory      |    9720 MiB |   10160 MiB |   1358 GiB |   1358 GiB |\n",
                              "PyTorch's peak"));
  EXPECT_TRUE(evidence_holds(summary_head + "| Allocated memory      |    1062 MB |    4877 MB |   89299 MB |   88237 MB |\n"
                                            "| GPU reserved memory   |   12420 MB |   12420 MB |   16924 MB |    4504 MB |\n",
                             "cached in reserved blocks", OomCause::kFragmentation));
  // ... not a table of the run's start (its peaks zero) where a later one is nearer; not beside a
  // message with figures of its own (they decide).
  const std::string table = "|                  PyTorch CUDA memory summary, device ID 0                 |\n";
  EXPECT_TRUE(evidence_holds(table + "| Allocated memory      |       0 B  |       0 B  |       0 B  |       0 B  |\n" +
                                 std::string(50, '\n') + summary_head +
                                 "| Allocated memory      |    972 MiB |   2160 MiB |   1358 GiB |   1358 GiB |\n",
                             "PyTorch's peak was 2.11 GiB"));
  EXPECT_FALSE(evidence_holds("I ran out of memory on my 11GB GTX 1080 Ti.\n"
                              "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB (GPU 0; 11.00 GiB "
                              "total capacity; 2.10 GiB already allocated; 8.50 GiB free; 2.20 GiB reserved in total by PyTorch)\n"
                              "| Allocated memory      |    972 MiB |   2160 MiB |   1358 GiB |   1358 GiB |\n",
                              "PyTorch's peak"));
  // The caching allocator's advice asked about is no report.
  EXPECT_TRUE(diagnose_log("Should I try setting max_split_size_mb to avoid fragmentation?\n", rules_alone()).empty());
}

TEST(DiagnoseKinds40, Held76Kinds) {
  // A title naming the GPU's memory: a bare "RAM" below it is that memory, not the host's; not a line
  // naming the host's (CPU, system, swap) or Colab.
  const std::vector<Diagnosis> gpu_ram =
      diagnose_log("GPU RAM and cv_maxlen\nWhen I raised cv_maxlen, I faced ram issues during validation.\n", rules_alone());
  ASSERT_EQ(gpu_ram.size(), 1u);
  EXPECT_EQ(gpu_ram.front().oom->device, "cuda");
  for (const char* host : {"When I raised cv_maxlen, I faced cpu ram issues during validation.\n",
                           "When I raised cv_maxlen, system ram issues came up.\n"}) {
    const std::vector<Diagnosis> h = diagnose_log(std::string("GPU RAM and cv_maxlen\n") + host, rules_alone());
    ASSERT_EQ(h.size(), 1u) << host;
    EXPECT_EQ(h.front().oom->device, "cpu") << host;
  }
  const std::vector<Diagnosis> no_title = diagnose_log("Issue\nWhen I raised cv_maxlen, I faced ram issues.\n", rules_alone());
  ASSERT_EQ(no_title.size(), 1u);
  EXPECT_EQ(no_title.front().oom->device, "cpu");
  // "didn't face any issue" after a change is its success: the change (cropping the input) told as the fix.
  EXPECT_TRUE(evidence_holds("CUDA out of memory during validation.\nso i cropped the wav files to 4secs and didn't face any "
                             "issue.\n",
                             "the user's account of the fix or the cause: so i cropped", OomCause::kActivationsSeqlen));
  // (A title that names a RAM of its own beside the GPU's, "GPU memory and RAM", leaves the bare "RAM" below
  // it the host's.)
  const std::vector<Diagnosis> own_ram =
      diagnose_log("GPU memory and RAM of my box\nWhen I raised cv_maxlen, I faced ram issues.\n", rules_alone());
  ASSERT_FALSE(own_ram.empty());
  EXPECT_EQ(own_ram.front().oom->device, "cpu");
  // One GPU told unable to hold a model of billions of parameters: a report, static memory first; not asked,
  // supposed, or of tokens.
  for (const char* told : {"A single GPU cannot load the 70B model.\n",
                           "\xe5\xa6\x82\xe4\xbd\x95\xe4\xbd\xbf\xe7\x94\xa8\xe5\xa4\x9a\xe5\x8d\xa1\xe8\xbf\x90\xe8\xa1\x8c\xef\xbc\x8c"
                           "\xe5\x8d\x95\xe5\x8d\xa1\xe6\x97\xa0\xe6\xb3\x95\xe5\x8a\xa0\xe8\xbd\xbd" "70b"
                           "\xe6\xa8\xa1\xe5\x9e\x8b\n"}) {  // 如何使用多卡运行，单卡无法加载70b模型
    EXPECT_EQ(top_cause(std::string("Merge\n") + told), OomCause::kStaticModelTooLarge) << told;
  }
  for (const char* not_told : {"Can a single GPU load the 70B model?\n", "If one GPU cannot load the 70B model, use two.\n",
                               "A single GPU cannot load 70b tokens of data at once.\n"}) {
    EXPECT_TRUE(diagnose_log(std::string("Merge\n") + not_told, rules_alone()).empty()) << not_told;
  }
  // zh: a named GPU blown (撑爆 / 爆了) is memory trouble; not a gradient's explosion (梯度爆炸) nor denied.
  EXPECT_EQ(diagnose_log("T=8\xe7\x9b\xb4\xe6\x8e\xa5\xe6\x8a\x8a" "3090\xe6\x92\x91\xe7\x88\x86\xe4\xba\x86\n",  // T=8直接把3090撑爆了
                         rules_alone())
                .size(),
            1u);
  EXPECT_TRUE(diagnose_log("3090\xe4\xb8\x8a\xe6\xa2\xaf\xe5\xba\xa6\xe7\x88\x86\xe4\xba\x86\n",  // 3090上梯度爆了
                           rules_alone())
                  .empty());
  EXPECT_TRUE(diagnose_log("3090\xe6\xb2\xa1\xe7\x88\x86\xe4\xba\x86\n", rules_alone()).empty());  // 3090没爆了 (denied)
  EXPECT_TRUE(diagnose_log("T=8\xe4\xb9\x9f\xe6\xb2\xa1\xe6\x92\x91\xe7\x88\x86" "3090\n",  // T=8也没撑爆3090 (denied)
                           rules_alone())
                  .empty());
  // (A gradient named in another clause of the line leaves the GPU's clause read.)
  EXPECT_EQ(diagnose_log("T=8\xe7\x9b\xb4\xe6\x8e\xa5\xe6\x8a\x8a" "3090\xe6\x92\x91\xe7\x88\x86\xe4\xba\x86\xef\xbc\x8c"
                         "\xe5\xbc\x80\xe4\xba\x86\xe6\xa2\xaf\xe5\xba\xa6\xe7\xb4\xaf\xe7\xa7\xaf\xe4\xb9\x9f\xe4\xb8\x8d\xe8\xa1\x8c\n",
                         rules_alone())  // T=8直接把3090撑爆了，开了梯度累积也不行
                .size(),
            1u);
  // A model told small in millions of parameters lowers static memory; not asked or supposed.
  const std::string tiny = "CUDA out of memory.\nThe GPU uses 8GB VRAM although the generator has about 1.8M parameters only.\n";
  auto static_score = [](const std::string& log) {
    const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
    if (ds.empty()) return -1.0;
    for (const Finding& f : ds.front().findings) {
      if (f.category == OomCause::kStaticModelTooLarge) return f.score;
    }
    return 0.0;
  };
  const double plain = static_score("CUDA out of memory.\nThe GPU uses 8GB VRAM although the generator is small.\n");
  ASSERT_GT(plain, 0.0);
  EXPECT_LT(static_score(tiny), plain);
  for (const auto& [told, plain_line] : std::vector<std::pair<std::string, std::string>>{
           {"Does a generator of 1.8M parameters need 8GB VRAM?", "Does a generator of that size need 8GB VRAM?"},
           {"The GPU uses 8GB VRAM and the generator has 700M parameters.",
            "The GPU uses 8GB VRAM and the generator has many parameters."},
           {"The GPU uses 8GB VRAM and the generator has 1,200 million parameters.",
            "The GPU uses 8GB VRAM and the generator has many parameters."},
           {"The GPU uses 8GB VRAM although LoRA adds only 4M parameters.",
            "The GPU uses 8GB VRAM although LoRA adds only a few parameters."}}) {
    const double base = static_score("CUDA out of memory.\n" + plain_line + "\n");
    ASSERT_GT(base, 0.0) << plain_line;
    EXPECT_EQ(static_score("CUDA out of memory.\n" + told + "\n"), base) << told;
  }
}

TEST(DiagnoseKinds40, Held77Kinds) {
  // An RL agent's replay memory named, the memory told growing in words: host RAM filling, ahead of a leak;
  // not beside a CUDA OOM message.
  const std::string replay = "Possible memory leak while running DeepQ for Atari games?\nIt keeps increasing until there's no "
                             "memory left.\n";
  EXPECT_EQ(top_cause(replay), OomCause::kCpuRam);
  EXPECT_TRUE(evidence_holds(replay, "replay memory is named", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("My DQN replay buffer is on the GPU.\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
                              "allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 6.90 GiB already allocated)\n",
                              "replay memory is named"));
  // Data told larger than the available RAM is a report of host memory; not denied or asked.
  const std::vector<Diagnosis> larger =
      diagnose_log("Inference loads all steps\nYou cannot run a rollout whose data is larger than the available RAM.\n",
                   rules_alone());
  ASSERT_EQ(larger.size(), 1u);
  EXPECT_EQ(larger.front().oom->device, "cpu");
  EXPECT_TRUE(diagnose_log("Notes\nThe dataset is not larger than the available RAM.\n", rules_alone()).empty());
  EXPECT_TRUE(diagnose_log("Notes\nThe dataset is not much larger than the available RAM.\n", rules_alone()).empty());
  EXPECT_TRUE(diagnose_log("Notes\nIt uses no more than the available memory.\n", rules_alone()).empty());
  EXPECT_TRUE(diagnose_log("Notes\nIs the dataset larger than the available RAM?\n", rules_alone()).empty());
  // A model told not freed after a run, or loaded again instead of reused: a leak across runs.
  EXPECT_TRUE(evidence_holds("CUDA runs out of memory after generating a bunch of depth maps\nIt's not de-allocating the model "
                             "when finished, it does not seem to reuse the already loaded model.\n",
                             "not freed after a run", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("CUDA out of memory\nWhy is it not freeing the model?\n", "not freed after a run"));
  EXPECT_FALSE(evidence_holds("CUDA out of memory\nDo not reuse the loaded model across processes.\n", "not freed after a run"));
  // Many atoms in a clause that is neither asked nor negated: the input's size.
  EXPECT_TRUE(evidence_holds("GPU out of memory problem\nI have 1216 atoms in a frame. Is there any way to fix it?\n",
                             "a system of many atoms", OomCause::kActivationsSeqlen));
  EXPECT_TRUE(evidence_holds("CUDA out of memory\nI want to run a million atom simulation with MACE.\n", "a system of many atoms"));
  // (Not few atoms, asked, nor "atomic".)
  for (const char* not_many : {"It worked for water, which has 192 atoms.\n", "Can 5000 atoms fit?\n",
                               "The kernel does 4096 atomic adds.\n", "One million atomic operations run.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string("GPU out of memory problem\n") + not_many, "a system of many atoms")) << not_many;
  }
  // A longer forecast horizon, also on a line negated in another clause.
  EXPECT_TRUE(evidence_holds("Run out of memory\nIt fails with an out of memory error when I predict over a longer lead time. "
                             "The memory is not released after each step.\n",
                             "long inputs, in the user's words", OomCause::kActivationsSeqlen));
  // A traceback's folder of the user's before the environment's site-packages names no phase.
  const std::string env_path =
      "Traceback (most recent call last):\n  File \"/home/user/eval_io/proj/.venv/lib/python3.12/site-packages/flash_attn/"
      "flash_attn_interface.py\", line 96, in _flash_attn_forward\n    out = flash_attn_gpu.fwd(q, k, v)\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity; "
      "20.10 GiB already allocated; 1.20 GiB free; 21.00 GiB reserved in total by PyTorch)\n";
  EXPECT_FALSE(evidence_holds(env_path, "evaluation", OomCause::kEvalWithoutNoGrad));
  // TensorFlow 1.x's variables' initializer run in the traceback: the variables, before any step.
  EXPECT_TRUE(evidence_holds("Resource exhausted: OOM when allocating tensor with shape[1792,241084]\n"
                             "Traceback (most recent call last):\n  File \"train.py\", line 153, in main\n"
                             "    sess.run(tf.global_variables_initializer())\n",
                             "the variables' initializer run", OomCause::kStaticModelTooLarge));
}

TEST(DiagnoseKinds40, Held78Kinds) {
  // A point cloud's voxel / grid size told with the failure: the input's size; not asked alone.
  EXPECT_TRUE(evidence_holds("Grid size\nMy cuda gets OOM when I use grid size of 0.05 for Waymo. Can I use 0.1?\n",
                             "voxel / grid size told with the failure", OomCause::kActivationsSeqlen));
  for (const char* not_told : {"Does a grid size of 0.05 for Waymo cause OOM?\n",
                               "My CUDA kernel ran out of memory when the grid size is 65535 threads.\n"}) {
    ASSERT_EQ(diagnose_log(std::string("Grid size\n") + not_told + "CUDA out of memory.\n", rules_alone()).size(), 1u);
    EXPECT_FALSE(evidence_holds(std::string("Grid size\n") + not_told + "CUDA out of memory.\n",
                                "voxel / grid size told with the failure"))
        << not_told;
  }
  // Vulkan told running out: the GPU's memory (device "vulkan"), the report's words do not make it the host's.
  const std::vector<Diagnosis> vulkan =
      diagnose_log("\"Vulkan ran out of memory!\" error\nmy laptop has 3 gigabytes of VRAM\n", rules_alone());
  ASSERT_EQ(vulkan.size(), 1u);
  EXPECT_EQ(vulkan.front().oom->device, "vulkan");
  // (Not Vulkan left for the CPU: "After switching from Vulkan to CPU, it still runs out of memory".)
  const std::vector<Diagnosis> left =
      diagnose_log("llama.cpp\nAfter switching from Vulkan to CPU, it still runs out of memory.\n", rules_alone());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_NE(left.front().oom->device, "vulkan");
  // The model told on the CPU while the GPU's memory is taken: a library's default device (other, its own
  // title); the complaint itself is a report. Not asked.
  const std::string cpu_model = "foolbox automatically consumes GPU memory\nEven when my model is set to CPU, when I define "
                                "fmodel, it will still take my GPU memory.\n";
  const std::vector<Diagnosis> on_cpu = diagnose_log(cpu_model, rules_alone());
  ASSERT_EQ(on_cpu.size(), 1u);
  ASSERT_FALSE(on_cpu.front().findings.empty());
  EXPECT_EQ(on_cpu.front().findings.front().category, OomCause::kOther);
  EXPECT_NE(on_cpu.front().findings.front().title.find("places its tensors on the GPU"), std::string::npos);
  for (const char* not_told : {"Why does it still take GPU memory when the model is on the CPU?\n",
                               "Even though I move every output of the model to the CPU, GPU memory still grows because I "
                               "store the graph.\n",
                               "Even with the optimizer offload and the model on the CPU, GPU memory is still fully used.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string("CUDA out of memory\n") + not_told, "the model told on the CPU")) << not_told;
  }
  // TensorFlow's "Graph execution error" and "keep getting" the error are no graph kept across steps.
  EXPECT_FALSE(evidence_holds("Graph Execution Errors\nI am trying to interpolate 5760x3048 images, but I keep getting an out "
                              "of memory/graph execution error.\n",
                              "the autograd graph kept across steps"));
  EXPECT_TRUE(evidence_holds("CUDA out of memory\nI keep the graph of every batch in a list for logging.\n",
                             "the autograd graph kept across steps", OomCause::kLeakAcrossSteps));
  EXPECT_TRUE(evidence_holds("CUDA out of memory\nI keep getting OOM because I keep the graph of every batch.\n",
                             "the autograd graph kept across steps", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds("CUDA out of memory\nI keep getting this error from the graph code.\n",
                              "the autograd graph kept across steps"));
}

TEST(DiagnoseKinds40, Held80Kinds) {
  // A reading's absence, on a log that still yields a report (evidence_holds() is false without one).
  auto lacks = [](const std::string& log, const std::string& needle) {
    return !diagnose_log(log, rules_alone()).empty() && !evidence_holds(log, needle);
  };
  const std::string cuda_msg =
      "RuntimeError: CUDA out of memory. Tried to allocate 38.00 MiB (GPU 0; 23.69 GiB total capacity; 12.51 GiB already "
      "allocated; 36.75 MiB free; 12.58 GiB reserved in total by PyTorch)\n";
  // The next item of a loader moved to the device is a batch, not the model's load.
  EXPECT_TRUE(lacks("Traceback (most recent call last):\n  File \"train.py\", line 108, in train\n"
                    "    batch = next(train_iterator).to(args.device)\n" + cuda_msg,
                    "model load / move to the device"));
  EXPECT_TRUE(evidence_holds("Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n"
                             "    net = build(cfg).to(args.device)\n" + cuda_msg,
                             "model load / move to the device"));
  // Swap told set up beside the failure: the host's RAM; not asked, denied, none, nor in a log naming a GPU.
  const std::string swap = "swap told set up beside the failure";
  EXPECT_TRUE(evidence_holds("Memory limited\nIt reminded me that I don't have enough memory.\nMy pc has 16GB, and I set "
                             "swap area as 16 GB, but the problem existed still.\n",
                             swap, OomCause::kCpuRam));
  EXPECT_TRUE(evidence_holds("Out of memory\nThe machine has 8GB of swap and it still runs out of memory.\n", swap,
                             OomCause::kCpuRam));
  for (const char* not_set_up : {"Should I increase the swap size?\n", "I don't use any swap space.\n",
                                 "The box has 32GB RAM with 0 GB swap.\n",
                                 "After I swap the optimizer to Adafactor it still runs out.\n"}) {
    EXPECT_TRUE(lacks(std::string("Out of memory\n") + not_set_up, swap)) << not_set_up;
  }
  EXPECT_TRUE(lacks(cuda_msg + "System: Ubuntu 22.04, 64GB RAM and 16GB swap.\n", swap));
  // All of the host's RAM told taken, behind a denial across a hyphen dash; not a reading taken.
  EXPECT_TRUE(evidence_holds("Training memory consumption\nHowever, I couldn't do it - after the training started, all 32 "
                             "gigs of RAM I have available were taken.\n",
                             "host RAM runs out, in the user's words", OomCause::kCpuRam));
  EXPECT_TRUE(lacks("Out of memory\nThe RAM readings were taken with psutil every second.\n", "host RAM runs out"));
  // (A dash in a question leaves it asked: "Is the RAM exhausted - or is it the VRAM?")
  EXPECT_TRUE(lacks("Out of memory\nIs the system RAM exhausted by the loader - or is it the VRAM?\n", "host RAM runs out"));
  // "batchsize" (one word) lowered in vain, after the message quoted in the same line: static memory
  // first, where the same line without it leaves the batch first.
  const std::string quoted = "CUDA out of memory.\nHello, I met the `torch.cuda.OutOfMemoryError: CUDA out of memory.` For "
                             "this problem, my GPU is RTX 3090 with 24G memory";
  EXPECT_EQ(top_cause(quoted + ", but the above error still occurs when I try to reduce the batchsize to `2`.\n"),
            OomCause::kStaticModelTooLarge);
  EXPECT_EQ(top_cause(quoted + ".\n"), OomCause::kActivationsBatch);
  // "random" telling when it fails, not a method's or a data's word.
  const std::string random = "OOMs at random with the same work";
  for (const char* told : {"Training OOMs randomly with the same data and I get out of memory errors.\n",
                           "After a random number of steps it runs out of memory.\n",
                           "The out of memory errors seem random.\n"}) {
    EXPECT_TRUE(evidence_holds(std::string("CUDA OOM\n") + told, random, OomCause::kFragmentation)) << told;
  }
  for (const char* data : {"I use ROCKET to generate the random features for a much larger dataset and I get a CUDA out of "
                           "memory error.\n",
                           "With this random augmentation the GPU runs out of memory.\n",
                           "I create data with np.random.rand(20000, 20000) and get out of memory.\n",
                           "The input is random noise of shape (64,3,512,512) and it runs out of memory.\n",
                           "With randomly initialized weights it runs out of memory.\n"}) {
    EXPECT_TRUE(lacks(std::string("CUDA out of memory error\n") + data, random)) << data;
  }
  // Memory told against what an HPC job requested: the host's RAM; not where a GPU is named, nor
  // the HPC's memory told without a limit reached.
  const std::string hpc = "memory told against an HPC job's";
  EXPECT_TRUE(evidence_holds("Postprocessing memory issue\nMemory usage increases from 20 gb during inference to the maximum "
                             "amount that I've requested from my HPC after inference has finished.\nout of memory\n",
                             hpc, OomCause::kCpuRam));
  EXPECT_TRUE(lacks("CUDA out of memory\nOn our HPC the GPU memory of the A100 fills up.\n", hpc));
  EXPECT_TRUE(lacks("Out of memory\nOur HPC has plenty of memory for this job.\n", hpc));
  EXPECT_TRUE(lacks(cuda_msg + "The HPC kills the job when it exceeds its memory limit.\n", hpc));
  // tcmalloc's large-allocation warning told with the host running out: the host's, its size the
  // request; a warning alone (a success) is not.
  const std::vector<Diagnosis> tc = diagnose_log(
      "Running out of memory\nI'm running out of memory on Colab, which warns: tcmalloc: large alloc 2617409536 bytes\n",
      rules_alone());
  ASSERT_EQ(tc.size(), 1u);
  EXPECT_EQ(tc.front().oom->device, "cpu");
  EXPECT_EQ(tc.front().oom->requested_bytes.value_or(0), 2617409536);
  const std::vector<Diagnosis> ok = diagnose_log(
      "Out of memory when fine-tuning\ntcmalloc: large alloc 1073741824 bytes == 0x55a1c000 @ 0x7f01\nThe GPU memory fills up "
      "at generate()\n",
      rules_alone());
  ASSERT_FALSE(ok.empty());
  EXPECT_FALSE(ok.front().oom->requested_bytes.has_value());
  // TensorFlow's BFC chunk summary pasted alone is its allocator's dump on a failed allocation.
  EXPECT_EQ(diagnose_log("Error when running the example\n2021-02-17 11:56:21.533532: I tensorflow/core/common_runtime/"
                         "bfc_allocator.cc:1034] 1 Chunks of size 314572800 totalling 300.00MiB\n",
                         rules_alone())
                .size(),
            1u);
  // A run told impossible even with a sized memory is a report; another limit's, none.
  EXPECT_EQ(diagnose_log("About memory usage\nIs it normal that even with 48Go VRAM i cannot run the reverse process with a "
                         "small batch of 2 ?\n",
                         rules_alone())
                .size(),
            1u);
  for (const char* other : {"Even with 48GB VRAM I cannot run it faster than 2 it/s.\n",
                            "Even with 4 GPUs and 80GB memory each I cannot train because of an NCCL timeout.\n"}) {
    EXPECT_TRUE(diagnose_log(std::string("About speed\n") + other, rules_alone()).empty()) << other;
  }
}

TEST(DiagnoseKinds40, Held81Kinds) {
  auto lacks = [](const std::string& log, const std::string& needle) {
    return !diagnose_log(log, rules_alone()).empty() && !evidence_holds(log, needle);
  };
  // The failure told while the dataset loads: the host's RAM, not the model's load; the model's own
  // load stays the model's.
  const std::string data_load = "fails while the dataset loads";
  const std::string dataset = "High memory usage\nI was getting an Out Of Memory error while loading the dataset when I had "
                              "50GB of memory available but 100GB were enough.\n";
  EXPECT_TRUE(evidence_holds(dataset, data_load, OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds(dataset, "fails while loading / placing the model"));
  for (const char* told : {"The process gets killed while loading the training dataset.\n",
                           "It runs out of memory when reading all the datasets.\n"}) {
    EXPECT_TRUE(evidence_holds(std::string("Out of memory\n") + told, data_load, OomCause::kCpuRam)) << told;
  }
  EXPECT_TRUE(evidence_holds("CUDA out of memory\nIt runs out of memory while loading the model onto the GPU.\n",
                             "fails while loading / placing the model", OomCause::kStaticModelTooLarge));
  // (Not asked, denied, without a failure, onto the GPU, nor the dataset's model.)
  for (const char* not_told : {"While loading the dataset, how much RAM does it need?\n",
                               "It OOMs when loading the model, not when loading the dataset.\n",
                               "Training is slow while loading the data.\n",
                               "It runs out of memory while loading the data onto the GPU.\n",
                               "It runs out of memory when loading the dataset's model.\n"}) {
    EXPECT_TRUE(lacks(std::string("Out of memory\n") + not_told, data_load)) << not_told;
  }
  // A sensor's or an image's calibration is no model being quantized; a model's calibration on a
  // dataset, with its settings, is.
  EXPECT_TRUE(lacks("Memory loss during calibration of Hyperspectral Image\nIt always runs out of memory.\n",
                    "a model being quantized"));
  for (const char* model : {"OOM during calibration of Qwen3-8B\nCUDA out of memory.\n",
                            "OOM during calibration of Qwen2.5-72B on the pile calibration dataset\nCUDA out of memory.\n",
                            "OOM during calibration of Llama-3-70B with maximum sequence length 4096\nCUDA out of memory.\n"}) {
    EXPECT_TRUE(evidence_holds(model, "a model being quantized", OomCause::kStaticModelTooLarge)) << model;
  }
  // A memory-allocation failure named in prose is a report; denied, asked, guessed or a fix's title, none.
  EXPECT_EQ(diagnose_log("Windows - CPU mode memory allocation issue\nWhen I ran the final command I got the memory "
                         "allocation issue.\n",
                         rules_alone())
                .size(),
            1u);
  for (const char* not_told : {"Is this a memory allocation issue?\n", "It is not a memory allocation error, the file is missing.\n",
                               "It's probably a memory allocation issue in the tokenizer.\n",
                               "Fix memory allocation issues on Windows (#123)\n"}) {
    EXPECT_TRUE(diagnose_log(std::string("Segfault on start\n") + not_told, rules_alone()).empty()) << not_told;
  }
}

TEST(DiagnoseKinds40, Held82Kinds) {
  // A message quoted without its sizes, the request retold a line below: the request read.
  const std::vector<Diagnosis> retold = diagnose_log(
      "questions regard training the model\nthe resolution of input image is so large that the runtime error \"CUDA out of "
      "memory\" always occurs in training.\nI found that the forward step get_affinity() tried to allocate 40GiB, so how "
      "can I reduce it\n",
      rules_alone());
  ASSERT_FALSE(retold.empty());
  EXPECT_EQ(retold.front().oom->requested_bytes.value_or(0), int64_t{40} << 30);
  // (Behind a progress bar's frames, which share one line number: the report's own line and the next three.)
  const std::vector<Diagnosis> behind_bar = diagnose_log(
      "epoch 1:  10%\repoch 1:  20%\repoch 1:  30%\repoch 1:  40%\repoch 1:  50%\nthe runtime error \"CUDA out of memory\" "
      "always occurs in training.\nget_affinity() tried to allocate 40GiB, so how can I reduce it\n",
      rules_alone());
  ASSERT_FALSE(behind_bar.empty());
  EXPECT_EQ(behind_bar.back().oom->requested_bytes.value_or(0), int64_t{40} << 30);
  // (A count is no size; another report's record below is not the user's prose.)
  for (const char* no_size : {"It tried to allocate 1 billion elements for the affinity.\n",
                              "W tensorflow/core/common_runtime/bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran out of memory "
                              "trying to allocate 1.00GiB (rounded to 1073741824).\n"}) {
    const std::vector<Diagnosis> ds =
        diagnose_log(std::string("the runtime error \"CUDA out of memory\" always occurs in training.\n") + no_size, rules_alone());
    ASSERT_FALSE(ds.empty()) << no_size;
    EXPECT_FALSE(ds.front().oom->requested_bytes.has_value()) << no_size;
  }
  // A memory-allocation failure named in one clause of a long line is a report, whatever another
  // clause supposes.
  EXPECT_EQ(diagnose_log("Add flag to compute masks on CPU\nWhen the GPU version of the mask computation is run, this can "
                         "result in a huge GPU memory spike and allocation failure. If I tile the input image it works.\n",
                         rules_alone())
                .size(),
            1u);
  for (const char* not_memory : {"There is plenty of free memory and no allocation failure, but the loss becomes NaN.\n",
                                 "IP address allocation failed even with plenty of memory.\n",
                                 "Pinned host memory allocation failed, falling back to pageable memory.\n",
                                 "This PR fixes it. Memory allocation failure when batch > 64.\n"}) {
    EXPECT_TRUE(diagnose_log(std::string("Training diverges\n") + not_memory, rules_alone()).empty()) << not_memory;
  }
  // A shape mismatch asked about is no shape bug told.
  const std::string oom = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 6.00 GiB total capacity; "
                          "5.29 GiB already allocated; 0 bytes free; 5.36 GiB reserved in total by PyTorch)\n";
  EXPECT_FALSE(evidence_holds(oom + "Will the shape mismatch cause an error?\n", "a shape bug, in the user's words"));
  EXPECT_TRUE(evidence_holds(oom + "The shapes are clearly incompatible, but instead of a shape error it tries to allocate.\n",
                             "a shape bug, in the user's words", OomCause::kOther));
  EXPECT_TRUE(evidence_holds(oom + "The shapes are clearly incompatible, but instead of a shape error it tries to allocate. Is "
                                   "this expected?\n",
                             "a shape bug, in the user's words", OomCause::kOther));
  // SciPy's sparse solver running out is the host's memory.
  const std::vector<Diagnosis> umf = diagnose_log(
      "Failed with UMFPACK_ERROR_out_of_memory\nscipy.sparse.linalg.spsolve needs too much memory on my images.\n",
      rules_alone());
  ASSERT_FALSE(umf.empty());
  EXPECT_EQ(umf.front().oom->device, "cpu");
  const std::vector<Diagnosis> superlu = diagnose_log("Solver crash\nSuperLU runs out of memory on the Laplacian.\n", rules_alone());
  ASSERT_FALSE(superlu.empty());
  EXPECT_EQ(superlu.front().oom->device, "cpu");
  const std::vector<Diagnosis> cupy =
      diagnose_log("Solver crash\ncupyx.scipy.sparse.linalg.spsolve runs out of memory on the Laplacian.\n", rules_alone());
  ASSERT_FALSE(cupy.empty());
  EXPECT_NE(cupy.front().oom->device, "cpu");
}

TEST(DiagnoseKinds40, Held83Kinds) {
  // Failing at batch size 1 only after many steps: the model fit for them (one larger sample), not
  // static memory; failing at batch size 1 from the start stays static memory's.
  const std::string oom = "CUDA out of memory. Tried to allocate 294.00 MiB (GPU 0; 10.73 GiB total capacity; 9.28 GiB "
                          "already allocated; 280.00 MiB free; 9.40 GiB reserved in total by PyTorch)\n";
  const std::string late = oom + "Even when batch size = 1, after 55000 iters training, OOM is suddenly thrown out.\n";
  EXPECT_TRUE(evidence_holds(late, "fails at batch size 1 only late", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds(late, "fails even at batch size 1"));
  for (const char* early : {"It fails even with batch size 1 at the first step.\n",
                            "After hours of trying, even batch size 1 runs out of memory at the first step.\n",
                            "I suddenly can't even load the model: batch size 1 fails on the first forward pass.\n",
                            "After 100 epochs of tuning, batch size 1 still fails at the first step.\n",
                            "Afterwards I trained 300 epochs with batch size 1 and it crashes immediately.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + early, "fails even at batch size 1", OomCause::kStaticModelTooLarge)) << early;
    EXPECT_FALSE(evidence_holds(oom + early, "fails at batch size 1 only late")) << early;
  }
  EXPECT_TRUE(evidence_holds(oom + "With batch size 1 it runs out of memory after about 3000 steps.\n",
                             "fails at batch size 1 only late", OomCause::kActivationsSeqlen));
  EXPECT_TRUE(evidence_holds(oom + "With batch size 1 it runs out of memory after 55k iterations.\n",
                             "fails at batch size 1 only late", OomCause::kActivationsSeqlen));
}

TEST(DiagnoseKinds40, Held84Kinds) {
  // Memory told short in other words, a title asking what memory the work needs beside an error the
  // post tells, a run told impossible on a machine of a size: reports in prose.
  expect_each_reports({"How much gpu memory does this code need?\nMy machine is 1080ti, which is running short of gpu memory.\n",
                       "GPU memory required to train 8x8 patch models\nEverytime I train them I get the following error\n"
                       "Traceback (most recent call last):\n  File \"main.py\", line 3, in <module>\n",
                       "How much RAM?\nI'm unable to process data on machine with 64GB RAM.\n"});
  expect_none_reports({"GPU memory required to train 8x8 patch models\nIs it 16 GB or 32 GB per GPU?\n",
                       "Reduce the memory needed for training\nThis PR fixes an error in the docs.\n",
                       "Missing param required for LoRA config\nTypeError: missing 1 required positional argument\n",
                       "Log how much GPU memory is used per step\nTraceback (most recent call last):\n",
                       "How much gpu memory does this code need?\nThe plots show the mean squared error.\n",
                       "Ideas?\nI'm running short of ideas on how to reduce memory.\n",
                       "Fits\nWe're not short on VRAM, the model only takes 6GB of 24GB.\n",
                       "Tips\nTip: if you're short on VRAM, pass --lowvram.\n",
                       "Results\nThe method falls short of memory savings reported in the paper.\n",
                       "Bandwidth\nWe are short on memory bandwidth.\n"});
  // Chinese: the GPU's memory slowly rising epoch after epoch, asked why: the rise is told.
  const std::string zh = "\xe6\x88\x91\xe7\x9a\x84GPU\xe5\x8d\xa0\xe7\x94\xa8\xe6\x98\xbe\xe5\xad\x98\xef\xbc\x8c\xe5\x9c\xa8"
                         "\xe6\xaf\x8f\xe8\xbf\x9b\xe8\xa1\x8c\xe4\xb8\x80\xe4\xb8\xaa""epoch\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99"
                         "\xef\xbc\x8c\xe9\x83\xbd\xe4\xbc\x9a\xe6\x85\xa2\xe6\x85\xa2\xe5\xa2\x9e\xe5\x8a\xa0\xe8\xbf\x99\xe6"
                         "\x98\xaf\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88\xef\xbc\x9f\n";  // 我的GPU占用显存，在每进行一个epoch的时候，都会慢慢增加这是为什么？
  const std::vector<Diagnosis> zh_grows = diagnose_log("Title\n" + zh, rules_alone());
  ASSERT_EQ(zh_grows.size(), 1u);
  EXPECT_EQ(zh_grows.front().oom->line, 2);
  // Chinese: a rise asked why but denied, or of a setting the user raises, is no growth.
  for (const std::string& no : {std::string("\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88\xe6\x98\xbe\xe5\xad\x98\xe6\xb2\xa1"
                                           "\xe6\x9c\x89\xe6\x85\xa2\xe6\x85\xa2\xe5\xa2\x9e\xe5\x8a\xa0\xef\xbc\x9f\n"),  // 为什么显存没有慢慢增加？
                               std::string("\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\xe6\x97\xb6\xe6\x88\x91"
                                           "\xe9\x80\x90\xe6\xad\xa5\xe5\xa2\x9e\xe5\x8a\xa0""batch size\n")}) {  // 显存不够时我逐步增加batch size
    EXPECT_FALSE(evidence_holds("Title\n" + no, "memory grows")) << no;
  }
  // ... nor memory following a setting, nor one rise, asked why: no report.
  for (const std::string& no : {std::string("\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88\xe9\x9a\x8f\xe7\x9d\x80""batch size"
                                            "\xe5\xa2\x9e\xe5\x8a\xa0\xe6\x98\xbe\xe5\xad\x98\xe4\xb9\x9f\xe5\xa2\x9e"
                                            "\xe5\x8a\xa0\xef\xbc\x9f\n"),  // 为什么随着batch size增加显存也增加？
                                std::string("\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88\xe6\x8d\xa2\xe6\x88\x90""fp32"
                                            "\xe5\x90\x8e\xe6\x98\xbe\xe5\xad\x98\xe6\xb6\xa8\xe4\xba\x86\xe5\xbe\x88"
                                            "\xe5\xa4\x9a\xef\xbc\x9f\n")}) {  // 为什么换成fp32后显存涨了很多？
    EXPECT_TRUE(diagnose_log("Title\n" + no, rules_alone()).empty()) << no;
  }
  // "kept rising": growth told going on; "kept" of something else is none.
  EXPECT_TRUE(evidence_holds("GPU memory usage kept rising\nThe GPU memory allocated kept rising until an OOM error.\n",
                             "memory grows step after step", OomCause::kLeakAcrossSteps));
  EXPECT_FALSE(evidence_holds(std::string("CUDA out of memory\nI kept everything else the same and GPU memory usage increased "
                                          "to 20GB when I disabled checkpointing.\n"),
                              "memory grows step after step"));
  // Batch size 1 told through a pronoun.
  const std::string oom = "CUDA out of memory. Tried to allocate 294.00 MiB (GPU 0; 10.73 GiB total capacity; 9.28 GiB "
                          "already allocated; 280.00 MiB free; 9.40 GiB reserved in total by PyTorch)\n";
  EXPECT_TRUE(evidence_holds(oom + "My first idea to fix it was decreasing batch size, but it is already 1.\n",
                             "fails even at batch size 1", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds(oom + "Should I lower the batch size, or is it already 1 in the config?\n",
                              "fails even at batch size 1"));
  EXPECT_FALSE(evidence_holds(oom + "I lowered the batch size, but it's already 16 and still fails.\n",
                              "fails even at batch size 1"));
  for (const char* not_one : {"I lowered the batch size to 2, but the memory limit is already 1.5 GB.\n",
                              "I set batch size to 32 and it was already 1 epoch in when it crashed.\n",
                              "I decreased the batch size and the learning rate, but it is already 1e-5.\n"}) {
    EXPECT_FALSE(evidence_holds(oom + not_one, "fails even at batch size 1")) << not_one;
  }
  EXPECT_TRUE(evidence_holds(oom + "I'd lower the batch size, but it's already 1, so I can't go lower.\n",
                             "fails even at batch size 1", OomCause::kStaticModelTooLarge));
  // An image's size set by abbreviated settings.
  EXPECT_TRUE(evidence_holds(oom + "I'm running out of memory with `max_h = 1792`, `max_w = 1344` and `max_d = 256`.\n",
                             "an input of 1344x1792 set", OomCause::kActivationsSeqlen));
  // A TensorFlow tensor whose first dimension is far above any batch: not told as "the batch".
  const std::string tf = "Resource exhausted: OOM when allocating tensor with shape[150528,32] and type float on "
                         "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n";
  EXPECT_TRUE(evidence_holds(tf, "is far above most batches", OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds(tf, "is usually the batch"));
  EXPECT_FALSE(evidence_holds("Resource exhausted: OOM when allocating tensor with shape[65536,128] and type float on "
                              "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
                              "is far above any batch"));
  // The host's RAM named in a later line whose "don't" belongs to another verb; the dataset built.
  const std::vector<Diagnosis> host =
      diagnose_log("Running out of memory (125gb) when building my dataset\nWhat I don't understand is that it runs out of "
                   "125gb ram during the 'Building inputs and labels' phase.\n",
                   rules_alone());
  ASSERT_FALSE(host.empty());
  EXPECT_EQ(host.front().oom->device, "cpu");
  EXPECT_TRUE(evidence_holds("Running out of memory (125gb) when building my dataset\n", "fails while the dataset loads",
                             OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("CUDA out of memory when building the model\n", "fails while the dataset loads"));
  const std::vector<Diagnosis> denied =
      diagnose_log("Out of memory error\nThe job doesn't run out of 64gb ram, it fails on the GPU.\n", rules_alone());
  ASSERT_FALSE(denied.empty());
  EXPECT_NE(denied.front().oom->device, "cpu");
  // The repository's defaults trained on one GPU; the user's sentence that runs into the message.
  EXPECT_TRUE(evidence_holds("About GPU memory\nHi, when I use a single TITAN X to train the model with default settings, "
                             "it just comes out with RuntimeError: CUDA out of memory.\n",
                             "trained with the default settings on one GPU", OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds("About GPU memory\nIf I train with default settings on a single GPU, will it fit?\nRuntimeError: "
                              "CUDA out of memory.\n",
                              "trained with the default settings on one GPU"));
  for (const char* not_one : {"I train with the default settings on 4 GPUs and it fails on a single image.\n",
                              "I train with the default settings on a single node with 8 GPUs.\n",
                              "I changed the default settings and train on one GPU.\n",
                              "Traceback (most recent call last): File \"train.py\", line 10, in <module> trainer.fit(model, "
                              "default_config, single gpu) RuntimeError: CUDA out of memory.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string("OOM\n") + not_one + "RuntimeError: CUDA out of memory.\n",
                                "trained with the default settings on one GPU"))
        << not_one;
  }
  EXPECT_TRUE(evidence_holds("OOM\nTraining the networks with the default config on one GPU gives CUDA out of memory.\n",
                             "trained with the default settings on one GPU", OomCause::kActivationsBatch));
  EXPECT_TRUE(evidence_holds("OOM\nI get an error when I train on a single GPU with the default settings: RuntimeError: CUDA "
                             "out of memory.\n",
                             "trained with the default settings on one GPU", OomCause::kActivationsBatch));
  // A later line's failure denied after its words.
  const std::vector<Diagnosis> bf16 =
      diagnose_log("Out of memory error\nWith bf16, CUDA out of memory doesn't occur on the 3090.\n", rules_alone());
  ASSERT_FALSE(bf16.empty());
  EXPECT_NE(bf16.front().oom->device, "cuda");
}

TEST(DiagnoseKinds40, Held85Kinds) {
  // Reports in prose: the shortage asked why in Chinese, "memory" misspelt, a memory failure named, a
  // title naming the memory requirement beside a run told failed.
  for (const std::string& told :
       {std::string("Title\n\xe8\xae\xad\xe7\xbb\x83\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88""24G"
                    "\xe7\x9a\x84\xe6\x98\xbe\xe5\xad\x98\xe8\xbf\x98\xe4\xb8\x8d\xe5\xa4\x9f\xe7\x94\xa8\xef\xbc\x9f\n"),  // 训练的时候为什么24G的显存还不够用？
        std::string("How can I change the parameters if the cuda memery is not enough?\nEven with batch size 1 it still raises "
                    "this error.\n"),
        std::string("Huge memory usage\nIn a loop the memory would be accumulated and finally caused memory failure.\n"),
        std::string("GPU Memory requirement\nI only have a 2080Ti GPU and I failed to run the example. What can I change?\n")}) {
    EXPECT_EQ(diagnose_log(told, rules_alone()).size(), 1u) << told;
  }
  expect_none_reports({"GPU Memory requirement\nHow much do I need for the 7B model?\n",
                       "GPU memory requirements\nAlso the demo gives ImportError: cannot import name 'LlamaTokenizer'.\n",
                       "Notes\nNo memory failure occurs with batch size 8, but this might have caused memory failure on "
                       "small GPUs.\n",
                       "GPU memory requirements\nTraceback (most recent call last):\nImportError: cannot import name "
                       "'LlamaTokenizer'\n",
                       "Title\n\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88TensorFlow\xe4\xb8\x80\xe8\xbf\x90\xe8\xa1\x8c"
                       "\xe6\x98\xbe\xe5\xad\x98\xe5\xb0\xb1\xe5\x8d\xa0\xe6\xbb\xa1\xe4\xba\x86\xef\xbc\x9f\n",  // 为什么TensorFlow一运行显存就占满了？
                       "GPU Memory requirement\nIf it fails to run on my card, what should I do?\n",
                       "Notes\nThe memo is not enough to explain the design.\n"});
  // Growth along epochs is still growth (the epoch is no setting raised); a rise asked why of the
  // loss is no memory's.
  EXPECT_TRUE(evidence_holds("Title\n\xe9\x9a\x8f\xe7\x9d\x80""epoch\xe7\x9a\x84\xe5\xa2\x9e\xe5\x8a\xa0\xef\xbc\x8c"
                             "\xe6\x98\xbe\xe5\xad\x98\xe4\xb9\x9f\xe5\x9c\xa8\xe4\xb8\x8d\xe6\x96\xad\xe5\xa2\x9e"
                             "\xe5\x8a\xa0\xef\xbc\x8c\xe6\x9c\x80\xe5\x90\x8e""OOM\n",  // 随着epoch的增加，显存也在不断增加，最后OOM
                             "memory grows step after step", OomCause::kLeakAcrossSteps));
  EXPECT_TRUE(diagnose_log("Title\n\xe6\x98\xbe\xe5\xad\x98""8G\xef\xbc\x8c\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88"
                           "\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6""loss\xe4\xb8\x80\xe7\x9b\xb4\xe5\xa2\x9e\xe5\x8a\xa0"
                           "\xef\xbc\x9f\n",  // 显存8G，为什么训练时loss一直增加？
                           rules_alone())
                  .empty());
  // A TensorFlow shape quoted with spaces between its dimensions: read apart, a 3-D volume.
  const std::vector<Diagnosis> spaced = diagnose_log(
      "OOM when allocating tensor with shape [1 160 192 224 48] and type float on /job:localhost/replica:0/task:0/device:GPU:0 "
      "by allocator GPU_0_bfc\n",
      rules_alone());
  ASSERT_EQ(spaced.size(), 1u);
  EXPECT_EQ(spaced.front().oom->requested_bytes.value_or(0), int64_t{1} * 160 * 192 * 224 * 48 * 4);
  EXPECT_TRUE(evidence_holds("OOM when allocating tensor with shape[1,117,100,255,64] and type float on "
                             "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
                             "the size is in its other axes", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("OOM when allocating tensor with shape[2,96,96,96,64] and type float on "
                              "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
                              "the size is in its other axes"));
  // Batch size 1 told to work in the piece after "when ..."; a smaller batch "with no luck"; the one
  // setting it runs with.
  const std::string oom = "CUDA out of memory. Tried to allocate 294.00 MiB (GPU 0; 10.73 GiB total capacity; 9.28 GiB "
                          "already allocated; 280.00 MiB free; 9.40 GiB reserved in total by PyTorch)\n";
  EXPECT_FALSE(evidence_holds(oom + "When I reduced the batch size to 1, it can work.\n", "fails even at batch size 1"));
  for (const char* still : {"When I reduced the batch size to 1, it works for a while and then crashes.\n",
                            "When I reduced the batch size to 1, it works for a while, then crashes.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + still, "fails even at batch size 1", OomCause::kStaticModelTooLarge)) << still;
  }
  EXPECT_TRUE(evidence_holds(oom + "When I reduced the batch size to 1, it still fails.\n", "fails even at batch size 1",
                             OomCause::kStaticModelTooLarge));
  EXPECT_TRUE(evidence_holds(oom + "I tried to reduce the size of batch but no luck.\n", "a smaller batch did not help"));
  EXPECT_TRUE(evidence_holds(oom + "It can only run if batch_size is adjusted to 8.\n", "the user's account of the fix",
                             OomCause::kActivationsBatch));
  // A named model's 16-bit weights nearly all that PyTorch holds on a small card.
  EXPECT_TRUE(evidence_holds("How big will sqlcoder-7B occupy a memory, 16G memory can't be used, and 7B's LLM can run.\n"
                             "torch.cuda.OutOfMemoryError: CUDA out of "
                             "memory. Tried to allocate 124.00 MiB. GPU 0 has a total capacity of 15.77 GiB of which 112.12 "
                             "MiB is free. Including non-PyTorch memory, this process has 15.66 GiB memory in use. Of the "
                             "allocated memory 14.08 GiB is allocated by PyTorch, and 698.53 MiB is reserved by PyTorch but "
                             "unallocated.\n",
                             "the model leaves too little room", OomCause::kStaticModelTooLarge));
}

TEST(DiagnoseKinds40, Held86Kinds) {
  // A problem told as there, with a question mark after it (problem_told_there()): the kill is told,
  // not asked; "is there a problem ...?" asks.
  const std::vector<Diagnosis> there = diagnose_log(
      "Title\nWhen I load the index, there has always been the problem of the process being killed without any message ?\n",
      rules_alone());
  ASSERT_EQ(there.size(), 1u);
  ASSERT_FALSE(there.front().findings.empty());
  EXPECT_EQ(there.front().findings.front().category, OomCause::kCpuRam);
  for (const char* asked : {"Title\nIs there a problem with the process being killed?\n",
                            "Title\nDoes the process get killed when there is an error in the data loader?\n"}) {
    EXPECT_TRUE(diagnose_log(asked, rules_alone()).empty()) << asked;
  }
  // A run told aborted or terminated beside the memory it took; not the user's own abort.
  EXPECT_EQ(diagnose_log("Title\nLoading the dataset used 30G memory in a minute and the job was aborted.\n", rules_alone()).size(),
            1u);
  for (const char* other : {"Title\nI aborted the job when memory reached 30G.\n",
                            "Title\nMemory was at 12 GB when the job was terminated by Slurm at the 24h time limit.\n"}) {
    EXPECT_TRUE(diagnose_log(other, rules_alone()).empty()) << other;
  }
  // A second copy of a program needs its count beside it: "multiple GPUs or ... a TPU v3-8 instance"
  // counts GPUs; "2 LLM instances" are two copies.
  const std::string oom = "RuntimeError: CUDA out of memory.\n";
  for (const char* one : {"I want to parallelise across multiple GPUs or use a TPU v3-8 instance.\n",
                          "When I execute the first block of the notebook it loads the model, and when I execute the second it fails.\n",
                          "I train with DDP on two AWS g5 instances.\n",
                          "Environment: Ubuntu 22.04.2 LTS, kernel 6.5, driver 535.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(one) + oom, "another program's copy")) << one;
  }
  EXPECT_TRUE(evidence_holds("If 2 LLM instances are allocated in the same test case, the second one runs out of memory.\n" + oom,
                             "another program's copy", OomCause::kOtherProcess));
  // Chinese: 在测试<what>时 (when testing it): evaluation told.
  EXPECT_TRUE(evidence_holds("\xe5\x9c\xa8\xe6\xb5\x8b\xe8\xaf\x95""coco\xe6\x97\xb6\xe6\x80\xbb\xe6\x98\xaf"
                             "out of memory\n",  // 在测试coco时总是out of memory
                             "inference / evaluation, in the user's words", OomCause::kEvalWithoutNoGrad));
  EXPECT_FALSE(evidence_holds("\xe5\x9c\xa8\xe6\xb5\x8b\xe8\xaf\x95""coco\xe7\x9a\x84\xe6\x97\xb6\xe9\x97\xb4"
                              "out of memory\n",  // 在测试coco的时间 (the test's duration)
                              "inference / evaluation, in the user's words"));
  // An upgrade told as when the change came, against the earlier version's use.
  EXPECT_TRUE(evidence_holds("When I used version 1.2, I could train with batch 64. But when I upgrade to 1.3, only batch 16 "
                             "fits.\n" + oom,
                             "a regression told", OomCause::kOther));
  // (Not new hardware, nor a bigger model.)
  for (const char* other : {"When I used my old GTX 1080 it ran out of memory, but when I upgraded to a 4090 it works.\n",
                            "When using batch size 8 it fits, but when I upgrade to the 13B model it fails.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(other) + oom, "a regression told")) << other;
  }
  // The convolution algorithm the library picks, told as what takes the memory.
  EXPECT_TRUE(evidence_holds("It seems cuDNN is selecting the fastest convolution algorithms for each new input size, which takes "
                             "more memory.\n" + oom,
                             "the convolution algorithm the library picks", OomCause::kOther));
  for (const char* other : {"Which convolution algorithm does cuDNN select here? It takes memory.\n",
                            "We use a greedy algorithm to select which layers to move to cuda to save memory.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(other) + oom, "the convolution algorithm")) << other;
  }
  // The model made smaller and the failure goes on: static memory weighed down.
  EXPECT_TRUE(evidence_holds("I reduced the batch size to 1 and the backbone to ResNet-18, but it still runs out of memory.\n" + oom,
                             "the model told made smaller and the failure goes on", OomCause::kStaticModelTooLarge));
  for (const char* other : {"If I switch the backbone to ResNet-18, will it still run out of memory?\n",
                            "I switched the backbone to a larger ResNet-152 and it still runs out of memory.\n",
                            "With a smaller backbone it trains fine, but the default config still runs out of memory.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(other) + oom, "the model told made smaller")) << other;
  }
  // An image's size in a chain of dimensions: C x H x W, B x C x H x W, H x W x C.
  for (const char* dims : {"It runs out of memory with 3x640x640 input images.\n", "The input is a 16x3x640x640 tensor of images.\n",
                           "My images are 640x640x3 and it runs out of memory.\n"}) {
    EXPECT_TRUE(evidence_holds(std::string(dims) + oom, "a long input (sequence length / resolution): 640x640",
                               OomCause::kActivationsSeqlen))
        << dims;
  }
  EXPECT_FALSE(evidence_holds("The conv kernel is 3x3x512x512 and it fails.\n" + oom, "a long input"));
  // Second reviewer's cases: a smaller backbone that fixed it, "instance segmentation", an upgrade of
  // the RAM, cuDNN's benchmark turned off, Chinese 同时 (at the same time) and 测试的时候, a printed
  // message before the OOM on its line.
  EXPECT_FALSE(evidence_holds("Switching to a smaller backbone fixed it, but I still want to use ViT-H.\n" + oom,
                              "the model told made smaller"));
  EXPECT_FALSE(evidence_holds("I train two instance segmentation models on one GPU.\n" + oom, "another program's copy"));
  EXPECT_FALSE(evidence_holds("When using 16GB of RAM the job was killed, but when I upgraded to 64GB RAM it still fails.\n" + oom,
                              "a regression told"));
  EXPECT_FALSE(evidence_holds("I set cudnn.benchmark = False, so cuDNN does not pick the fastest algorithm, yet memory runs out.\n" +
                                  oom,
                              "the convolution algorithm"));
  EXPECT_FALSE(evidence_holds("\xe6\x88\x91\xe5\x9c\xa8\xe6\xb5\x8b\xe8\xaf\x95\xe9\x9b\x86\xe4\xb8\x8a\xe5\x90\x8c\xe6\x97\xb6"
                              "\xe8\xae\xad\xe7\xbb\x83\xe4\xb8\xa4\xe4\xb8\xaa\xe6\xa8\xa1\xe5\x9e\x8b\n" + oom,  // 我在测试集上同时训练两个模型
                              "inference / evaluation, in the user's words"));
  EXPECT_TRUE(evidence_holds("\xe6\xb5\x8b\xe8\xaf\x95\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xe6\x80\xbb\xe6\x98\xaf\xe6\x98\xbe"
                             "\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\n",  // 测试的时候总是显存不够
                             "inference / evaluation, in the user's words", OomCause::kEvalWithoutNoGrad));
  EXPECT_FALSE(evidence_holds("RuntimeError: CUDA error: device-side assert triggered while evaluating. Later RuntimeError: CUDA out "
                              "of memory. Tried to allocate 20.00 MiB\n",
                              "evaluat"));
}

TEST(DiagnoseKinds40, Held87Kinds) {
  // The memory's limit told by what fits: a setting lowered to fit a card, the largest batch that
  // fits on a GPU named, zh 只能开到 batchsize (can only go up to); not asked or beside a layout.
  for (const char* told : {"Title\nThe default batch size 512 is way too large. I decrease it to 8 to fit in my RTX card (24 GB), "
                           "is there anything that I missed?\n",
                           "Title\nOn one 2080ti the largest batch size that fits is 4.\n",
                           "Title\n\xe6\x88\x91\xe4\xb8\x80\xe5\xbc\xa0""3090\xe5\x8f\xaa\xe8\x83\xbd\xe5\xbc\x80\xe5\x88\xb0"
                           "batchsize=2\n"}) {  // 我一张3090只能开到batchsize=2
    EXPECT_EQ(diagnose_log(told, rules_alone()).size(), 1u) << told;
  }
  expect_none_reports({"Title\nI reduced the image size to fit in the paper's layout.\n",
                       "Title\nWhat is the largest batch size that fits on a 3090?\n",
                       "Title\nIf I reduce the batch to 2 to fit on the GPU, will it converge?\n"});
  // zh: more memory needed than the machine has, in two sentences: 机器内存32G。提示需要52G的内存。
  const std::vector<Diagnosis> zh_needs =
      diagnose_log("Title\n\xe6\x9c\xba\xe5\x99\xa8\xe5\x86\x85\xe5\xad\x98""32G\xe3\x80\x82\xe6\x8f\x90\xe7\xa4\xba"
                   "\xe9\x9c\x80\xe8\xa6\x81""52G\xe7\x9a\x84\xe5\x86\x85\xe5\xad\x98\xe3\x80\x82\n",
                   rules_alone());
  ASSERT_EQ(zh_needs.size(), 1u);
  EXPECT_EQ(zh_needs.front().oom->line, 2);
  // ... not asked: 显存只有8G，需要12G的显存吗？ (is 12G needed?)
  EXPECT_TRUE(diagnose_log("Title\n\xe6\x98\xbe\xe5\xad\x98\xe5\x8f\xaa\xe6\x9c\x89""8G\xef\xbc\x8c\xe9\x9c\x80\xe8\xa6\x81"
                           "12G\xe7\x9a\x84\xe6\x98\xbe\xe5\xad\x98\xe5\x90\x97\xef\xbc\x9f\n",
                           rules_alone())
                  .empty());
  // The data named in one sentence and loaded through a pronoun in the next: the host's load.
  EXPECT_TRUE(evidence_holds("The video files are about 12 GB each. Loading them with the provided script crashes.\n"
                             "RuntimeError: out of memory\n",
                             "fails while the dataset loads", OomCause::kCpuRam));
  EXPECT_FALSE(evidence_holds("The weights are about 12 GB. Loading them with the provided script crashes.\n"
                              "RuntimeError: out of memory\n",
                              "fails while the dataset loads"));
  EXPECT_FALSE(evidence_holds("The checkpoint files are about 12 GB. Loading them in the notebook crashes.\n"
                              "RuntimeError: out of memory\n",
                              "fails while the dataset loads"));
  // A code-reading helper's counter-examples: advice, "slower", a document's figure, a supposition, other
  // memories or uses compared, a question on the line: no report.
  for (const char* none :
       {"Title\nYou have to reduce the batch size to fit in GPU memory.\n",
        "Title\nTraining is slower than expected, but the model manages to fit in my 3090's memory.\n",
        "Title\nAccording to the README, the largest batch size that fits on a V100 is 32.\n",
        "Title\nI had to lower the learning rate to fit on the GPU cluster schedule.\n",
        // 如果你的显卡只能开到batchsize=1，可以用梯度累积 (if your card only goes up to batch 1, accumulate)
        "Title\n\xe5\xa6\x82\xe6\x9e\x9c\xe4\xbd\xa0\xe7\x9a\x84\xe6\x98\xbe\xe5\x8d\xa1\xe5\x8f\xaa\xe8\x83\xbd\xe5\xbc\x80"
        "\xe5\x88\xb0""batchsize=1\xef\xbc\x8c\xe5\x8f\xaf\xe4\xbb\xa5\xe7\x94\xa8\xe6\xa2\xaf\xe5\xba\xa6\xe7\xb4\xaf"
        "\xe7\xa7\xaf\n",
        // 环境：内存16G，显卡3090（24G显存）。运行需要20G显存。 (the host's 16G is no GPU memory)
        "Title\n\xe7\x8e\xaf\xe5\xa2\x83\xef\xbc\x9a\xe5\x86\x85\xe5\xad\x98""16G\xef\xbc\x8c\xe6\x98\xbe\xe5\x8d\xa1"
        "3090\xef\xbc\x88""24G\xe6\x98\xbe\xe5\xad\x98\xef\xbc\x89\xe3\x80\x82\xe8\xbf\x90\xe8\xa1\x8c\xe9\x9c\x80\xe8\xa6\x81"
        "20G\xe6\x98\xbe\xe5\xad\x98\xe3\x80\x82\n",
        // 训练需要24G显存，推理时显存8G就够了。 (inference: 8G is enough)
        "Title\n\xe8\xae\xad\xe7\xbb\x83\xe9\x9c\x80\xe8\xa6\x81""24G\xe6\x98\xbe\xe5\xad\x98\xef\xbc\x8c\xe6\x8e\xa8"
        "\xe7\x90\x86\xe6\x97\xb6\xe6\x98\xbe\xe5\xad\x98""8G\xe5\xb0\xb1\xe5\xa4\x9f\xe4\xba\x86\xe3\x80\x82\n"}) {
    EXPECT_TRUE(diagnose_log(none, rules_alone()).empty()) << none;
  }
}

TEST(DiagnoseKinds40, Held88Kinds) {
  const std::string cuda_oom = "RuntimeError: CUDA out of memory.\n";
  // The system told killing the process in other words than the word table's: the host's kill.
  EXPECT_TRUE(evidence_holds("Title\nI ran the script and the system ended it by killing the process because of OOM (I have 32GB)\n",
                             "the process was killed", OomCause::kCpuRam));
  EXPECT_TRUE(evidence_holds("Title\nOn my Mac, macOS keeps killing python when the merge runs, out of memory.\n",
                             "the process was killed", OomCause::kCpuRam));
  // ... not denied between the killer and the kill, nor a kill by hand.
  EXPECT_FALSE(evidence_holds("Title\nThe kernel is not killing it, yet the run stops with an OOM.\n" + cuda_oom,
                              "the process was killed", OomCause::kCpuRam));
  // A model being pruned is no generation: no KV-cache reading from the LLM's name.
  EXPECT_FALSE(evidence_holds("Pruning Llama-2-7B with the Taylor pruner\nIt fails with an OOM.\n" + cuda_oom,
                              "an LLM run without training", OomCause::kGenerationKvCache));
  EXPECT_TRUE(evidence_holds("Running Llama-2-7B on my prompts\nIt fails with an OOM.\n" + cuda_oom,
                             "an LLM run without training", OomCause::kGenerationKvCache));
  // zh: the batch set to 1 and the failure going on (train_batch_size我设成1了，还是out of memory).
  EXPECT_TRUE(evidence_holds("Title\ntrain_batch_size\xe6\x88\x91\xe8\xae\xbe\xe6\x88\x90""1\xe4\xba\x86\xef\xbc\x8c"
                             "\xe8\xbf\x98\xe6\x98\xaf""out of memory\n" + cuda_oom,
                             "fails even at batch size 1", OomCause::kStaticModelTooLarge));
  // ... not 16, and not where it works (batch设成16了，还是oom / batch设成1了，可以跑).
  EXPECT_FALSE(evidence_holds("Title\nbatch\xe8\xae\xbe\xe6\x88\x90""16\xe4\xba\x86\xef\xbc\x8c\xe8\xbf\x98\xe6\x98\xaf""oom\n" +
                                  cuda_oom,
                              "fails even at batch size 1", OomCause::kStaticModelTooLarge));
  // The batch's name as one word, and the batch lowered to 1 with words between, a shortfall told.
  for (const char* one : {"Title\nI have a 48GB card, even batchsize=1 can't run.\n",
                          "Title\nI tried to reduce the batch size of the inference to just 1, but it is not enough.\n"}) {
    EXPECT_TRUE(evidence_holds(std::string(one) + cuda_oom, "fails even at batch size 1", OomCause::kStaticModelTooLarge)) << one;
  }
  for (const char* not_one : {"Title\nI reduced the batch size to 16 and the learning rate to 1e-4.\n",
                              "Title\nI lowered the batch size to 1.5 GB of activations.\n",
                              "Title\nIf I reduce the batch size to 1, will it fit?\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(not_one) + cuda_oom, "fails even at batch size 1", OomCause::kStaticModelTooLarge))
        << not_one;
  }
  // The code reviewers' counter-examples: batch 1 told working (也不报错了: no error any more), asked
  // (吗), another setting's 1 in the batch's sentence, the lowering that fixed it, advice not tried.
  for (const char* no : {"Title\nbatch_size\xe8\xae\xbe\xe4\xb8\xba""1\xe5\x90\x8e\xe4\xb9\x9f\xe4\xb8\x8d\xe6\x8a\xa5"
                         "\xe9\x94\x99\xe4\xba\x86\n",  // batch_size设为1后也不报错了
                         "Title\n\xe8\xaf\xb7\xe9\x97\xae""batch\xe8\xae\xbe\xe4\xb8\xba""1\xe4\xb9\x9f\xe4\xbc\x9a""oom"
                         "\xe5\x90\x97\xef\xbc\x9f\n",  // 请问batch设为1也会oom吗？
                         "Title\nbatch_size=4\xef\xbc\x8c\xe5\xad\xa6\xe4\xb9\xa0\xe7\x8e\x87\xe6\x94\xb9\xe6\x88\x90""1e-5"
                         "\xef\xbc\x8c\xe8\xbf\x98\xe6\x98\xaf""oom\n",  // batch_size=4，学习率改成1e-5，还是oom
                         "Title\nI reduced the batch size to 8 and num_workers to 1, still OOM.\n",
                         "Title\nI reduced the batch size of the inference to just 1 and now it works, but it is slow.\n",
                         "Title\nThe maintainers suggested lowering the batch size down to 1, which I did not try yet.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(no) + cuda_oom, "fails even at batch size 1", OomCause::kStaticModelTooLarge)) << no;
  }
  // ... nor a kill prevented or supposed, nor a compute kernel "killing" the memory.
  for (const char* no : {"Title\nTo prevent the OS from killing the job I lowered the workers, but it fails.\n",
                         "Title\nIf the kernel had killed it there would be a line in dmesg.\n",
                         "Title\nThe attention kernel is killing my GPU memory.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(no) + cuda_oom, "the process was killed", OomCause::kCpuRam)) << no;
  }
  // A host-side library's memory-saving switch told as the fix: the host's RAM.
  EXPECT_TRUE(evidence_holds("Title\nThe reduction step runs out of memory. Adding low_memory=True to umap.UMAP solves the issue.\n",
                             "the user's account of the fix or the cause", OomCause::kCpuRam));
  // ... not generate()'s low_memory, which saves the GPU's memory.
  EXPECT_FALSE(evidence_holds("Title\nPassing low_memory=True to model.generate() fixed the OOM for me.\n" + cuda_oom,
                              "the user's account of the fix or the cause", OomCause::kCpuRam));
  // A figure of use is not the device's size: "take up almost 40GB VRAM per GPU" on a 48GB card.
  // (The named model's estimate would set the weights against the 40GB; with the 48GB card named
  // first and glued to its family's prefix, the card's size is the one kept.)
  const std::vector<Diagnosis> usage = diagnose_log(
      "Title\nFine-tuning llama-7b, batch size 2 already takes up almost 40GB VRAM per GPU.\n" + cuda_oom, rules_alone());
  ASSERT_EQ(usage.size(), 1u);
  for (const Finding& f : usage.front().findings) {
    for (const std::string& e : f.evidence) EXPECT_EQ(e.find("40.00 GiB the log names"), std::string::npos) << e;
  }
  // The failure told in words in a log that names no accelerator: the host's RAM a candidate; a GPU
  // glued to its family's prefix ("rtx4090") is an accelerator named.
  EXPECT_TRUE(evidence_holds("Title\nI used the script to create the npz files. Then the program runs out of 32G memory.\n",
                             "the log names no accelerator anywhere", OomCause::kCpuRam));
  for (const char* gpu : {"Title\nOn my rtx4090 the demo runs out of memory.\n", "Title\nMy 3090 runs out of memory.\n",
                          "Title\nWith fp16 and batch size 8 on my 2070 Super, out of memory.\n",
                          "Title\nFine-tuning on 2x3090 runs out of memory.\n", "Title\nOn a GeForce 1660 it runs out of memory.\n",
                          "Title\nThe training stops with out of memory:\n  File \"/opt/torch/cuda/__init__.py\", line 3, in f\n"}) {
    EXPECT_FALSE(evidence_holds(gpu, "the log names no accelerator anywhere", OomCause::kCpuRam)) << gpu;
  }
  // (A resolution is no card: "1920x1080 frames".)
  EXPECT_TRUE(evidence_holds("Title\nDecoding 1920x1080 frames into numpy arrays runs out of memory.\n",
                             "the log names no accelerator anywhere", OomCause::kCpuRam));
  // CUDA's illegal memory access printed, the OOM only the user's reading of it: not memory pressure.
  EXPECT_EQ(top_cause("Title\nI encountered \"RuntimeError: CUDA error: an illegal memory access was encountered\". I found that "
                      "this indicates CUDA out of memory. Any suggestion?\n"),
            OomCause::kOther);
  // ... not a cascade after an OOM printed first, nor the words alone ("the illegal memory access issue").
  for (const char* no : {"Title\nRuntimeError: CUDA error: out of memory\nwhat():  CUDA error: an illegal memory access was "
                         "encountered\n",
                         "Title\nAt first I thought this was the illegal memory access issue, but the GPU simply runs out of memory "
                         "at max_length 4096.\n"}) {
    EXPECT_FALSE(evidence_holds(no, "illegal memory access (cudaErrorIllegalAddress", OomCause::kOther)) << no;
  }
  // A library choosing the first GPU itself though another was chosen; a model of the same program
  // on it is the placement's own work, not another process.
  EXPECT_TRUE(evidence_holds("Title\nIf cuda:0 is occupied by an embedding model and you place the reranker on cuda:1, it will "
                             "detect the GPU and then attempt to use cuda:0, leading to an out-of-memory issue.\n",
                             "another GPU chosen", OomCause::kMultiGpuImbalance));
  // Documents' vectors are no long input.
  EXPECT_FALSE(evidence_holds("OOM when applying UMAP to large document vectors\n", "long inputs", OomCause::kActivationsSeqlen));
  EXPECT_TRUE(evidence_holds("OOM when applying the coreference model to a large document\n", "long inputs",
                             OomCause::kActivationsSeqlen));
  // Various batch sizes tried, none of them succeeding: the batch lowered in vain.
  const std::string figures =
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 11.17 GiB total capacity; 10.60 GiB already "
      "allocated; 10.56 MiB free; 10.70 GiB reserved in total by PyTorch)\n";
  EXPECT_TRUE(evidence_holds("Title\nI also tried various batch size: 16, 8, 6. None of them succeeded.\n" + figures,
                             "a smaller batch did not help", OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds("Title\nI also tried various batch sizes: 16, 8, 6. All of them worked.\n" + figures,
                              "a smaller batch did not help", OomCause::kActivationsBatch));
}

TEST(DiagnoseKinds40, Held89Kinds) {
  // Reports in words: TensorFlow's exception named with a one-letter slip or in prose; more memory
  // than the machine has ("then" for "than"); the RAM told exceeding as the trouble; all the VRAM
  // "cost" by a step.
  expect_each_reports({"Title\nIssue while training with Resource Exchaust Error on the png dataset.\n",
                       "Title\nI appear to be trying to use more VRAM then I have after about 4 hours.\n",
                       "Title\nI met a RAM exceeding problem when I use gKDR on a 40k dimensional dataset.\n",
                       "Title\nIn my case, caching latents cost all my 11G VRAM plus 16G shared RAM.\n"});
  expect_none_reports({"Title\ngRPC returned StatusCode.RESOURCE_EXHAUSTED: the quota was reached.\n",
                       "Title\nMy cloud function hits a 429 resource exhausted error on Firestore writes.\n",
                       "Title\nTo avoid a resource exhuasted error, set allow_growth.\n",
                       "Title\nPlease support models that need more RAM than the machine has.\n",
                       "Title\nIt would be nice to get a warning before memory exceeding issues happen.\n",
                       "Title\nWould the resource exhausted error go away with a smaller batch?\n",
                       "Title\nIf it uses more VRAM than I have, will it spill to the CPU?\n",
                       "Title\nThe docs explain what a resource is and how we exhaust the search space.\n"});
  const std::string cuda_oom = "RuntimeError: CUDA out of memory.\n";
  // zh: the batch set to the lowest 1 (设为最低1), the failure going on: as at batch size 1; the resolution
  // lowered in vain (即便设为512x512 我还是 ... out of memory) is no long input.
  const std::string zh = "Title\n\xe6\x88\x91\xe5\xb7\xb2\xe7\xbb\x8f\xe5\xb0\x86""batch_size\xe8\xae\xbe\xe4\xb8\xba"
                         "\xe6\x9c\x80\xe4\xbd\x8e""1\xe4\xba\x86\xef\xbc\x8c\xe5\x8d\xb3\xe4\xbe\xbf\xe8\xae\xbe\xe4\xb8\xba"
                         "512x512 \xe6\x88\x91\xe8\xbf\x98\xe6\x98\xaf\xe6\x94\xb6\xe5\x88\xb0\xe4\xba\x86""CUDA out of memory\n";
  EXPECT_TRUE(evidence_holds(zh, "fails even at batch size 1", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds(zh, "long inputs", OomCause::kActivationsSeqlen));
  // ... but training told fine at 512 and failing at 1024 (之前512分辨率训练正常，改成1024分辨率后就爆显存了) is
  // the resolution's, and a concession of the batch (即使batch size设为1，分辨率2048x2048也会爆显存) lowers
  // no input.
  for (const char* res : {"Title\n\xe4\xb9\x8b\xe5\x89\x8d""512\xe5\x88\x86\xe8\xbe\xa8\xe7\x8e\x87\xe8\xae\xad\xe7\xbb\x83"
                          "\xe6\xad\xa3\xe5\xb8\xb8\xef\xbc\x8c\xe6\x94\xb9\xe6\x88\x90""1024\xe5\x88\x86\xe8\xbe\xa8"
                          "\xe7\x8e\x87\xe5\x90\x8e\xe5\xb0\xb1\xe7\x88\x86\xe6\x98\xbe\xe5\xad\x98\xe4\xba\x86\n",
                          "Title\n\xe5\x8d\xb3\xe4\xbd\xbf""batch size\xe8\xae\xbe\xe4\xb8\xba""1\xef\xbc\x8c\xe5\x88\x86"
                          "\xe8\xbe\xa8\xe7\x8e\x87""2048x2048\xe4\xb9\x9f\xe4\xbc\x9a\xe7\x88\x86\xe6\x98\xbe\xe5\xad\x98\n"}) {
    EXPECT_TRUE(evidence_holds(std::string(res) + cuda_oom, "long inputs", OomCause::kActivationsSeqlen)) << res;
  }
  // A model's knowledge edited (MEMIT, EasyEdit) is no generation.
  EXPECT_FALSE(evidence_holds("Running MEMIT on llama-7b\nI got OOM on a 46GB A40 GPU.\n" + cuda_oom,
                              "an LLM run without training", OomCause::kGenerationKvCache));
  // ... unless the edited model is then generating (max_new_tokens named).
  EXPECT_TRUE(evidence_holds("Chatting with llama-7b after MEMIT\nAnswers with max_new_tokens=2048 crash.\n" + cuda_oom,
                             "an LLM run without training", OomCause::kGenerationKvCache));
  // Memory left free is not the card's size; the first card out while the others are free is an
  // imbalance.
  const std::string uneven =
      "Title\nWith vicuna-7b, card 0 would be out of memory when executing compute_u.py, while cards 1 and 2 still had 12G of "
      "free memory.\n";
  EXPECT_TRUE(evidence_holds(uneven, "the other GPUs told free while one fills", OomCause::kMultiGpuImbalance));
  EXPECT_FALSE(evidence_holds(uneven, "12.00 GiB GPU the log names", OomCause::kStaticModelTooLarge));
  // ... not a run on one GPU by choice.
  EXPECT_FALSE(evidence_holds("Title\nI set CUDA_VISIBLE_DEVICES=0 and train on GPU 0 only. GPU 0 runs out of memory at batch 256 "
                              "but GPU 1 is free.\n" + cuda_oom,
                              "the other GPUs told free while one fills", OomCause::kMultiGpuImbalance));
  // CUDA's caching host allocator failing: pinned host memory, the host's RAM.
  EXPECT_EQ(top_cause("Title\nRuntimeError: cuda runtime error (2) : out of memory at "
                      "/opt/conda/conda-bld/pytorch/work/aten/src/THC/THCCachingHostAllocator.cpp:278\n"),
            OomCause::kCpuRam);
  EXPECT_EQ(top_cause("Title\nRuntimeError: CUDA error: out of memory\nException raised from allocate at "
                      "../aten/src/ATen/cuda/CachingHostAllocator.cpp:410 (most recent call first):\n"),
            OomCause::kCpuRam);
}

TEST(DiagnoseKinds40, Held90Kinds) {
  // Reports in words: all of the memory taken, told as whole or entire; the memory met as a wall.
  expect_each_reports({"Title\nThe following code consumed my whole RAM.\n",
                       "Title\nLoading the session takes my whole RAM on the Jetson Nano.\n",
                       "Title\nThe sampler eats up the entire GPU memory after an hour.\n",
                       "Title\nA user ran it with a mem-mapped array and hit a RAM bottleneck.\n",
                       "Title\nWe ran into the GPU memory limit at step 40.\n",
                       "Title\nI ran into the 16GB memory limit of the T4.\n",
                       "Title\nWe're hitting memory limits with 8 frames per clip.\n",
                       "Title\nThe training consumes entire RAM after 2 epochs.\n"});
  expect_none_reports({"Title\nIt doesn't take my whole RAM, only a few GB.\n",
                       "Title\nThe whole RAM is free while the job waits.\n",
                       "Title\nWe never hit a memory bottleneck with this loader.\n",
                       "Title\nWhen the job runs into a RAM limit, the cache spills to disk.\n",
                       "Title\nThe CPU is the bottleneck: we hit a compute wall, the RAM is fine.\n",
                       // (a review's counter-examples: asked, wished, supposed, told by others, another noun)
                       "Title\nWill this use the entire GPU memory?\n",
                       "Title\nI want it to use the whole GPU memory for the cache.\n",
                       "Title\nIt's supposed to use the whole GPU memory (gpu_memory_utilization=0.9).\n",
                       "Title\nThe script took the whole memory dump file and parsed it fine.\n",
                       "Title\nUnless we hit the RAM ceiling, this is fine.\n",
                       "Title\nThe docs say the scheduler runs into the memory limit rarely.\n"});
  // Dask's nanny restarting a worker above a budget printed far below its default (terminate 0) is the
  // setting; above its default 95% it is the worker's host RAM.
  const std::string dask = "distributed.nanny.memory - WARNING - Worker tls://10.0.0.1:34937 (pid=129) exceeded {}% memory budget. "
                           "Restarting...\n";
  EXPECT_EQ(top_cause("Title\n" + fmt::format(fmt::runtime(dask), 0)), OomCause::kOther);
  EXPECT_EQ(top_cause("Title\n" + fmt::format(fmt::runtime(dask), 95)), OomCause::kCpuRam);
  // ... not the words retold without the nanny's restart.
  EXPECT_FALSE(evidence_holds("Title\nThe dashboard said 'exceeded 30% memory budget' but I see no restarts.\n",
                              "terminate fraction", OomCause::kOther));
  // An export traced at an example input of batch 1 whose volume is large: the input's size, and the
  // model saved "to onnx format" is no checkpoint being saved.
  const std::string cuda_oom = "RuntimeError: CUDA out of memory.\n";
  const std::string onnx = "Title\nI have a question about saving the model to onnx format.\n"
                           "dummy_input = torch.randn(1, 1, 128, 128, 128, device='cuda')\n"
                           "torch.onnx.export(model, dummy_input, \"net.onnx\", verbose=True)\n"
                           "The colab runs out of GPU memory. 16GB is not enough!\n";
  EXPECT_TRUE(evidence_holds(onnx, "an example input at batch 1 whose size is its resolution (128x128x128)",
                             OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds(onnx, "fails while saving a checkpoint", OomCause::kOther));
  EXPECT_TRUE(evidence_holds("Title\nThe job fails when saving the model with torch.save(model, path).\n" + cuda_oom,
                             "fails while saving a checkpoint", OomCause::kOther));
  for (const char* small : {"x = torch.randn(1, 3, 224, 224)\n", "x = torch.randn(8, 3, 1024, 1024)\n",
                            "x = torch.randn(1, 4096, 4096)\n", "w = torch.zeros(1, 512, 512, 512, 512)\n",
                            "x = torch.rand(1, 3, 512, 512)\n", "kv = torch.empty(1, 32, 8192, 128, dtype=torch.float16)\n",
                            "I did not use torch.randn(1, 3, 1024, 1024); the images are 256x256 at batch 128.\n"}) {
    EXPECT_FALSE(evidence_holds("Title\n" + std::string(small) + cuda_oom, "an example input at batch 1")) << small;
  }
  // An LLM exported (torch.onnx.export in its traceback) is no generation: the export holds its weights.
  const std::string llm_export = "Title\nExporting Qwen-7b on a 3090 runs out of memory\n"
                                 "  File \"export_qwen.py\", line 109, in export_qwen_to_single_onnx\n"
                                 "    torch.onnx.export(\n" + cuda_oom;
  EXPECT_FALSE(evidence_holds(llm_export, "an LLM run without training", OomCause::kGenerationKvCache));
  EXPECT_TRUE(evidence_holds(llm_export, "a model being exported", OomCause::kStaticModelTooLarge));
  // ... and one told in words as the failing run, the named model's weights against the device.
  const std::string told_export = "Title\nExporting Baichuan-13B to ONNX runs out of memory.\n"
                                  "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.70 GiB total capacity; "
                                  "20.10 GiB already allocated)\n";
  EXPECT_TRUE(evidence_holds(told_export, "16-bit weights alone are about", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds(told_export, "an LLM run without training", OomCause::kGenerationKvCache));
  // A shell's variable, an export told done or beside the point, keeps the generation reading.
  for (const char* aside : {"export ORT_TENSORRT_FP16_ENABLE=1\n", "Later I plan to convert it to ONNX.\n",
                            "Mistral-7B served with the TensorRT engine I exported last week OOMs at batch 16.\n",
                            "Exporting it to ONNX is not the problem; inference with 32 prompts OOMs.\n"}) {
    EXPECT_TRUE(evidence_holds("Title\nLlama-2-7b inference with batch 32 prompts\n" + std::string(aside) + cuda_oom,
                               "an LLM run without training", OomCause::kGenerationKvCache))
        << aside;
  }
  // A save then a conversion is still a checkpoint saved.
  EXPECT_TRUE(evidence_holds("Title\nOOM while saving the model with save_pretrained before converting to tflite\n" + cuda_oom,
                             "fails while saving a checkpoint", OomCause::kOther));
  // ... but a model converted before it is served is not the run that failed.
  EXPECT_FALSE(evidence_holds("Title\nI convert the bert model to TorchScript with torch.jit.trace and serve it; above batch 5 "
                              "it OOMs.\n" + cuda_oom,
                              "a model being exported"));
  // Accounts: the batch lowered as what let the run start; ZeRO-3 (the weights sharded) as what works.
  EXPECT_TRUE(evidence_holds("Title\nI only succeeded in starting the training when I set the batch size to 3.\n" + cuda_oom,
                             "the user's account", OomCause::kActivationsBatch));
  EXPECT_TRUE(evidence_holds("Title\nTraining caused an OOM. So, I switched from ZeRO-2 to ZeRO-3, and I found that this works.\n" +
                                 cuda_oom,
                             "the user's account", OomCause::kStaticModelTooLarge));
  // ... not a load that went through before the failure, nor a fix that works only sometimes.
  EXPECT_FALSE(evidence_holds("Title\nLoading the checkpoint succeeded; the OOM comes in the first forward with batch size 8.\n" +
                                  cuda_oom,
                              "the user's account"));
  EXPECT_FALSE(evidence_holds("Title\nLowering max_split_size_mb succeeds sometimes, but not always.\n" + cuda_oom,
                              "the user's account"));
  // Python's digit separators in a setting (PEP 515).
  EXPECT_TRUE(evidence_holds("Title\nout = sample(model, device='cuda', num_samples=50_000, batch_size=10_000)\n" + cuda_oom,
                             "logged batch size 10000", OomCause::kActivationsBatch));
}

TEST(DiagnoseKinds40, Held91Kinds) {
  // A failure told in its own sentence, a question in the next one of the same line.
  expect_each_reports({"Title\nEach epoch converts all pictures into features, which leads to insufficient video memory. How do I "
                       "solve this problem\n",
                       "Title\nCPU memory usage increases every time until CPU memory is used up. Is this caused by the hashmap? "
                       "How can I fix it?\n",
                       // zh: the GPU told filled (GPU基本上24G占满)
                       "Title\n\xe8\x80\x8c\xe4\xb8\x94GPU\xe5\x9f\xba\xe6\x9c\xac\xe4\xb8\x8a""24G"
                       "\xe5\x8d\xa0\xe6\xbb\xa1\xe3\x80\x82\n"});
  expect_none_reports({"Title\nHow do I stop memory from growing? It is not a leak.\n",
                       "Title\nIf the model does not fit in GPU memory, accelerate offloads layers. How do I enable that?\n",
                       // zh: the GPU's utilisation full (GPU利用率占满) is a busy GPU
                       "Title\nGPU\xe5\x88\xa9\xe7\x94\xa8\xe7\x8e\x87\xe5\x8d\xa0\xe6\xbb\xa1\xe3\x80\x82\n"});
  // At batch size 1, one request of half the device or more is one tensor of the sample, not the weights.
  const std::string pairwise =
      "Title\n    dist = -2 * torch.matmul(xyz1, xyz2.permute(0, 2, 1))\n"
      "RuntimeError: CUDA out of memory. Tried to allocate 14.21 GiB (GPU 0; 22.38 GiB total capacity; 14.25 GiB already "
      "allocated; 7.34 GiB free; 14.29 GiB reserved in total by PyTorch)\n"
      "I have set batch_size=1, but it doesn't work.\n";
  EXPECT_TRUE(evidence_holds(pairwise, "at batch size 1 one request of 14.21 GiB", OomCause::kActivationsSeqlen));
  EXPECT_NE(top_cause(pairwise), OomCause::kStaticModelTooLarge);
  // ... a small request at batch size 1 keeps the static reading.
  EXPECT_EQ(top_cause("Title\nRuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.92 GiB total capacity; "
                      "7.78 GiB already allocated; 4.44 MiB free; 7.79 GiB reserved in total by PyTorch)\n"
                      "I have set batch_size=1, but it doesn't work.\n"),
            OomCause::kStaticModelTooLarge);
  // torch.no_grad()'s decorator in the report's traceback: the words do not add evaluation without no_grad.
  const std::string decorated =
      "Runtime Error in Match halfway\n"
      "RuntimeError                              Traceback (most recent call last)\n"
      "<ipython-input-5-2265bc492996> in <module>()\n"
      "----> 1 match_features.main(matcher_conf, sfm_pairs, feature_conf['output'], outputs)\n"
      "~/anaconda3/lib/python3.6/site-packages/torch/autograd/grad_mode.py in decorate_no_grad(*args, **kwargs)\n"
      "     49                 return func(*args, **kwargs)\n"
      "~/code/hloc/match_features.py in main(conf, pairs, features, export_dir, exhaustive)\n"
      "---> 99         pred = model(data)\n"
      "~/anaconda3/lib/python3.6/site-packages/torch/nn/modules/module.py in __call__(self, *input, **kwargs)\n"
      "    532             result = self.forward(*input, **kwargs)\n"
      "RuntimeError: CUDA out of memory.\n";
  auto eval_words = [](const std::string& log) {
    const std::vector<Diagnosis> ds = diagnose_log(log);
    if (ds.empty()) return false;
    for (const Finding& f : ds.front().findings) {
      for (const std::string& e : f.evidence) {
        if (f.category == OomCause::kEvalWithoutNoGrad && e.find("resemble the corpus") != std::string::npos) return true;
      }
    }
    return false;
  };
  EXPECT_FALSE(eval_words(decorated));
  // (The same report through a plain frame: the words do add it.)
  std::string plain = decorated;
  plain.replace(plain.find("torch/autograd/grad_mode.py in decorate_no_grad"), 48, "hloc/utils/runner.py in run_match");
  EXPECT_TRUE(eval_words(plain));
  // A smaller batch told not fixing it ("reducing the batch size doesn't fix the error").
  for (const char* in_vain : {"I changed the size of the batch size in train.py, but it doesn't fix the problem\n",
                              "Reducing the batch size does not fix the error.\n"}) {
    EXPECT_TRUE(evidence_holds(in_vain + kPytorch2Oom, "a smaller batch did not help")) << in_vain;
  }
}

TEST(DiagnoseKinds40, Held92Kinds) {
  // vLLM's KV-cache budget error as users shorten it.
  const auto kv = parse_oom_log("Title\nValueError: 1.75 GiB KV cache is needed, available 0.13 GiB\n");
  ASSERT_EQ(kv.size(), 1u);
  EXPECT_EQ(kv[0].family, "vllm_kv_cache");
  ASSERT_TRUE(kv[0].requested_bytes.has_value());
  EXPECT_NEAR(static_cast<double>(*kv[0].requested_bytes), 1.75 * static_cast<double>(kGiB), 0.01 * kGiB);
  // zh 超显存 (the GPU's memory exceeded), also as what a setting did after a condition's 的话; a
  // condition that supposes the shortage itself reports none.
  expect_each_reports({"Title\n\xe9\x97\xae\xe9\xa2\x98\xe5\xb0\xb1\xe6\x98\xaf\xe4\xbc\x9a\xe8\xb6\x85\xe6\x98\xbe\xe5\xad\x98\n",
                       "Title\n\xe6\x88\x91\xe5\x9c\xa8""8\xe5\xbc\xa0""3090\xe4\xb8\x8a\xe8\xae\xad\xe7\xbb\x83\xe5\xa6\x82\xe6\x9e\x9c"
                       "\xe4\xbd\xbf\xe7\x94\xa8zero2\xe7\x9a\x84\xe8\xaf\x9d\xe4\xbc\x9a\xe8\xb6\x85\xe6\x98\xbe\xe5\xad\x98\n"});
  // 如果显存不够的话，可以用zero3 (if the GPU's memory is not enough, zero3 can be used)
  EXPECT_TRUE(diagnose_log("Title\n\xe5\xa6\x82\xe6\x9e\x9c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\xe7\x9a\x84\xe8\xaf\x9d"
                           "\xef\xbc\x8c\xe5\x8f\xaf\xe4\xbb\xa5\xe7\x94\xa8zero3\n",
                           rules_alone())
                  .empty());
  // Free far above the request on a host with little RAM: the host's commit limit is a candidate.
  const std::string commit =
      "Title\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 14.00 MiB. GPU 0 has a total capacty of "
      "6.00 GiB of which 3.55 GiB is free. Of the allocated memory 1.36 GiB is allocated by PyTorch, and 77.12 MiB is "
      "reserved by PyTorch but unallocated.\n"
      "I'm running on a Desktop with 8GB RAM and a NVIDIA GeForce RTX 2060 with 6GB VRAM.\n";
  EXPECT_TRUE(evidence_holds(commit, "commits host memory", OomCause::kCpuRam));
  std::string roomy = commit;
  roomy.replace(roomy.find("8GB RAM"), 7, "64GB RAM");
  EXPECT_FALSE(evidence_holds(roomy, "commits host memory", OomCause::kCpuRam));
  // An image-generation app generating, not training: the image's resolution before the batch.
  const std::string app = "Title\nRunning SDXL in Fooocus on my 11GB card.\n" + kPytorch2Oom;
  EXPECT_TRUE(evidence_holds(app, "image-generation app or pipeline named", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("Title\nTraining a ControlNet for SDXL on my 24GB card.\n" + kPytorch2Oom,
                              "image-generation app or pipeline named"));
  EXPECT_FALSE(evidence_holds("Title\ncomfyui==0.3.1\n" + kPytorch2Oom, "image-generation app or pipeline named"));
  // A call's result detached in the user's code, nothing trained and no no_grad shown.
  const std::string detached = "Title\n    output = vae(tensor_o).sample.detach().cpu().numpy()\n" + kPytorch2Oom;
  EXPECT_TRUE(evidence_holds(detached, "forward's output detached", OomCause::kEvalWithoutNoGrad));
  EXPECT_FALSE(evidence_holds("Title\n    out = fake.detach().cpu()\n" + kPytorch2Oom, "forward's output detached"));
  EXPECT_FALSE(evidence_holds("Title\nwith torch.no_grad():\n    output = vae(tensor_o).sample.detach().cpu().numpy()\n" +
                                  kPytorch2Oom,
                              "forward's output detached"));
  EXPECT_FALSE(evidence_holds("Title\n    fake = netG(noise).detach()\n    loss.backward()\n    optimizer.step()\n" +
                                  kPytorch2Oom,
                              "forward's output detached"));
  // One input told working, the later ones failing: not one input alone failing.
  EXPECT_FALSE(evidence_holds("Title\nI can run instructpix2pix on exactly one image and it works very well. On all "
                              "subsequent images, it errors trying to allocate 30MB of VRAM.\n" + kPytorch2Oom,
                              "one input alone fails"));
  EXPECT_TRUE(evidence_holds("Title\nEven a single image errors trying to allocate 30MB of VRAM.\n" + kPytorch2Oom,
                             "one input alone fails"));
}

// A reviewer's counter-examples to held92's round, each read as it should be.
TEST(DiagnoseKinds40, Held92Counterexamples) {
  // vLLM's short form needs its size's unit before it: prose is no second report.
  EXPECT_EQ(parse_oom_log("Title\nWith 32k context much more KV cache is needed, available VRAM is only 24 GB.\n").size(), 0u);
  // The host's commit limit: not on Linux, not from a GPU's "16GB RAM", not from RAM told used.
  const std::string oom =
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 14.00 MiB. GPU 0 has a total capacty of 6.00 GiB "
      "of which 3.55 GiB is free. Of the allocated memory 1.36 GiB is allocated by PyTorch, and 77.12 MiB is reserved by "
      "PyTorch but unallocated.\n";
  for (const char* host : {"Ubuntu 22.04, 8GB RAM, RTX 2060 6GB\n", "GPU: Tesla T4 with 16GB RAM\n",
                           "The python process already uses 12GB RAM before the crash.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string("Title\n") + host + oom, "commits host memory")) << host;
  }
  // zh: a condition's consequence asked (会不会), hedged (可能) or an ASCII word holding "oom" (bloom) is
  // still a supposition; 没有超显存 (did not exceed) denies.
  for (const char* none :
       {"Title\n\xe6\x83\xb3\xe9\x97\xae\xe4\xb8\x80\xe4\xb8\x8b\xe5\xa6\x82\xe6\x9e\x9c\xe5\xbc\x80zero2\xe7\x9a\x84"
        "\xe8\xaf\x9d\xe4\xbc\x9a\xe4\xb8\x8d\xe4\xbc\x9a\xe8\xb6\x85\xe6\x98\xbe\xe5\xad\x98\n",
        "Title\n\xe5\xa6\x82\xe6\x9e\x9cmax_length\xe8\xae\xbe\xe6\x88\x90""8192\xe7\x9a\x84\xe8\xaf\x9d\xe5\x8f\xaf"
        "\xe8\x83\xbd\xe4\xbc\x9a\xe8\xb6\x85\xe6\x98\xbe\xe5\xad\x98\n",
        "Title\n\xe5\xa6\x82\xe6\x9e\x9c\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\xe7\x9a\x84\xe8\xaf\x9d"
        "\xe6\x8d\xa2\xe6\x88\x90""bloom-560m\n",
        "Title\nbatch_size=4\xe7\x9a\x84\xe6\x97\xb6\xe5\x80\x99\xe6\xb2\xa1\xe6\x9c\x89\xe8\xb6\x85\xe6\x98\xbe"
        "\xe5\xad\x98\n"}) {
    EXPECT_TRUE(diagnose_log(none, rules_alone()).empty()) << none;
  }
  // ... and the same report in traditional script is one (的話 ... 超顯存).
  EXPECT_EQ(diagnose_log("Title\n\xe5\xa6\x82\xe6\x9e\x9c\xe4\xbd\xbf\xe7\x94\xa8zero2\xe7\x9a\x84\xe8\xa9\xb1\xe6\x9c\x83"
                         "\xe8\xb6\x85\xe9\xa1\xaf\xe5\xad\x98\n",
                         rules_alone())
                .size(),
            1u);
  // An image-generation app beside a batch named, a training script or a package list: no weight.
  for (const char* not_app : {"Title\nComfyUI with SDXL: I queue a batch of 8 images and it fails.\n",
                              "Title\naccelerate launch train_dreambooth_lora_sdxl.py --resolution=1024\n",
                              "Title\ncontrolnet-aux 0.0.7\n"}) {
    EXPECT_FALSE(evidence_holds(not_app + kPytorch2Oom, "image-generation app or pipeline named")) << not_app;
  }
  // A detach after a tensor method or a constructor, with autograd turned off otherwise, or in a step
  // with a loss: no forward's graph read.
  for (const char* not_forward :
       {"Title\n    label = torch.tensor(self.labels[idx]).clone().detach()\n",
        "Title\n    preds.append(pred.cpu().detach().numpy())\n",
        "Title\ntorch.set_grad_enabled(False)\n    image = vae.decode(latents).sample.detach()\n",
        "Title\n    z1 = target(x1).detach()\n    l = byol_loss(p1, z1)\n"}) {
    EXPECT_FALSE(evidence_holds(not_forward + kPytorch2Oom, "forward's output detached")) << not_forward;
  }
  // One input failing, told "without success" or "on these networks": the words are no success.
  for (const char* fails : {"Title\nI tried with one single image without success, it still runs out of memory.\n",
                            "Title\nEven a single image crashes with out of memory on these networks.\n"}) {
    EXPECT_TRUE(evidence_holds(fails + kPytorch2Oom, "one input alone fails")) << fails;
  }
  // A batch size "not fixed" (variable) or one the user "can't fix" at a value: no smaller batch in vain.
  for (const char* not_in_vain : {"Title\nI use a bucketed sampler, so the batch size is not fixed: long utterances get "
                                  "smaller batches.\n",
                                  "Title\nReducing the batch size to 8 fixed the OOM. But I can't fix the batch size at 8 "
                                  "for the paper's numbers.\n"}) {
    EXPECT_FALSE(evidence_holds(not_in_vain + kPytorch2Oom, "a smaller batch did not help")) << not_in_vain;
  }
}

TEST(DiagnoseKinds40, Session54Mends) {
  // "fine" as the first half of a compound ("fine-tuning", "fine tune", "fine-grained") tells no
  // success (fine_told()): the model made smaller with the failure going on is read on a line that
  // says "fine-tuning", as on one that says "training"; "runs fine" is still a success.
  const std::string oom =
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.69 GiB total capacity; 22.10 GiB already "
      "allocated; 10.56 MiB free; 22.50 GiB reserved in total by PyTorch)\n";
  for (const char* how : {"fine-tuning", "training", "fine tuning"}) {
    const std::string log = std::string("I reduced the batch size to 1 and the backbone to ResNet50 for ") + how +
                            ". Despite these adjustments, the model still consumes 23 GB and fails.\n" + oom;
    EXPECT_TRUE(evidence_holds(log, "the model told made smaller and the failure goes on", OomCause::kStaticModelTooLarge))
        << how;
  }
  EXPECT_FALSE(evidence_holds("I switched to a smaller backbone and it runs fine now, but the old one still fails.\n" + oom,
                              "the model told made smaller and the failure goes on", OomCause::kStaticModelTooLarge));
  // A free figure beyond int64 (saturated) beside a cache of a few MiB: the cache-plus-free sum and
  // the request's multiples saturate or divide instead of overflowing (fuzz_smoke's finding: UBSan,
  // "68534927 + 9223372036854775807" in classify.cpp); the report is read and ranked.
  const std::vector<Diagnosis> huge_free = diagnose_log(
      "RuntimeError: CUDA out of memory. Tried to allocate 88.00 MiB (GPU 0; 7.93 GiB total capacity; 6.82 GiB already "
      "allocated; 68.50 Mi3333333333333333333333333333333333333333333333333333333333333B free; 65.36 MiB cached)\n",
      rules_alone());
  ASSERT_EQ(huge_free.size(), 1u);
  EXPECT_FALSE(huge_free.front().findings.empty());
}

TEST(DiagnoseKinds40, Session53Mends) {
  // memory_growth_prose() reads "memory" misspelt through memory_spelled() (any one-letter slip, not
  // a list of three): the growth told is a report of its own.
  for (const char* slip : {"The GPU memmory keeps growing step after step.\n", "The GPU memery keeps growing step after step.\n",
                           "The GPU memroy keeps growing step after step.\n"}) {
    const std::vector<Diagnosis> d = diagnose_log(std::string("Title\n") + slip, rules_alone());
    ASSERT_EQ(d.size(), 1u) << slip;
    EXPECT_EQ(d.front().oom->line, 2) << slip;
  }
  EXPECT_TRUE(diagnose_log("Title\nThe GPU memeroy keeps growing step after step.\n", rules_alone()).empty());  // two slips
  // memory_told_short() finds the memory's name with memory_named_near(): a modifier ("memory-bound")
  // or "memory layout" is not memory told short.
  expect_none_reports({"Kernels\nWe are short on memory-bound kernels for this op.\n",
                       "Docs\nThe docs are short on memory layout details.\n",
                       "Results\nWe are short of memory efficiency compared to the paper.\n"});
  EXPECT_EQ(diagnose_log("Help\nWe are short on the VRAM we need for the 13B model.\n", rules_alone()).size(), 1u);
  // The prose before a message on its line ends where message_head() finds the message's words, also
  // where Chinese runs into it with no space ("...会导致torch.cuda.OutOfMemoryError"): the long output
  // told before it is read.
  const std::string zh_long = "lora\xe5\xbe\xae\xe8\xb0\x83\xe7\x9a\x84""dataset\xe4\xb8\xad\xef\xbc\x8c\xe5\xa6\x82\xe6\x9e\x9c"
                              "output\xe8\xbf\x87\xe9\x95\xbf\xef\xbc\x88""1000\xe4\xb8\xaa\xe5\xad\x97\xe5\xb7\xa6\xe5\x8f\xb3"
                              "\xef\xbc\x89\xef\xbc\x8c\xe4\xbc\x9a\xe5\xaf\xbc\xe8\x87\xb4torch.cuda.OutOfMemoryError: CUDA out of "
                              "memory\n";  // lora微调的dataset中，如果output过长（1000个字左右），会导致torch.cuda.OutOfMemoryError
  EXPECT_TRUE(evidence_holds(zh_long, "long inputs, in the user's words", OomCause::kActivationsSeqlen));
  // ... and an "error" far before the message no longer cuts it short: the sentence before is read.
  EXPECT_TRUE(evidence_holds("I hit an error when the output is too long (~1000 characters), torch.cuda.OutOfMemoryError: "
                             "CUDA out of memory.\n",
                             "long inputs, in the user's words", OomCause::kActivationsSeqlen));
  // The last session's unmended findings. A bare Chinese why-question after the clause that tells the
  // rise ("显存一直增加，这是为什么？") asks why of that rise: growth told.
  const std::vector<Diagnosis> zh_why =
      diagnose_log("Title\n\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x80\xe7\x9b\xb4\xe5\xa2\x9e\xe5\x8a\xa0\xef\xbc\x8c"
                   "\xe8\xbf\x99\xe6\x98\xaf\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88\xef\xbc\x9f\n",
                   rules_alone());
  ASSERT_EQ(zh_why.size(), 1u);
  EXPECT_EQ(zh_why.front().oom->line, 2);
  // A title asking what memory the work needs: the need bound to the memory's clause, and a printed
  // exception of a kind that cannot be the memory's (ModuleNotFoundError) is no failure shown.
  expect_none_reports({"How much RAM is used for inference, and do I need a GPU?\nRuntimeError: the run stopped\n",
                       "How much gpu memory does this code need?\nModuleNotFoundError: No module named 'xformers'\n"});
  EXPECT_EQ(diagnose_log("How much gpu memory does this code need?\nRuntimeError: the run stopped\n", rules_alone()).size(), 1u);
  // "21 gpu hours" is no single GPU.
  const std::string oom = "RuntimeError: CUDA out of memory.\n";
  EXPECT_TRUE(evidence_holds("I train with the default settings on one GPU.\n" + oom, "trained with the default settings on one GPU",
                             OomCause::kActivationsBatch));
  EXPECT_FALSE(evidence_holds("I train with the default settings for 21 gpu hours.\n" + oom,
                              "trained with the default settings on one GPU"));
  // A TensorFlow tensor's volume names the volume as what decided, not its longest axis.
  EXPECT_TRUE(evidence_holds("OOM when allocating tensor with shape[1,117,100,255,64] and type float on "
                             "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
                             "(a volume of 2983500 elements)", OomCause::kActivationsSeqlen));
}

TEST(DiagnoseKinds40, Session53FinalRead) {
  const std::string oom = "RuntimeError: CUDA out of memory.\n";
  // Whole words in model_made_smaller_yet_fails(): "networks" tells no success ("works").
  EXPECT_TRUE(evidence_holds("I reduced the batch size to 1 and the backbone to ResNet50 for my networks. Despite these "
                             "adjustments, the program still consumes 23 GB.\n" + oom,
                             "the model told made smaller", OomCause::kStaticModelTooLarge));
  // A convolution's words, not "converges" or "conversation".
  EXPECT_FALSE(evidence_holds("I chose the PPO algorithm and the training converges slowly, then GPU memory runs out.\n" + oom,
                              "the convolution algorithm"));
  // A weight's shape on a line that names an input is no image.
  EXPECT_FALSE(evidence_holds("The input to the conv layer has weight 3x3x512x512.\n" + oom, "a long input"));
  // A cloud machine's instance, an object's instance: no other program's copy.
  for (const char* one : {"I launched another instance with a bigger GPU and got the same error.\n",
                          "I created a second instance of the model class to compare outputs.\n"}) {
    EXPECT_FALSE(evidence_holds(std::string(one) + oom, "another program's copy")) << one;
  }
  // "I see that ..." is the writer's own; a document's figure is not.
  EXPECT_EQ(diagnose_log("Title\nI see that on my 3090 the largest batch size that fits is 4.\n", rules_alone()).size(), 1u);
}

TEST(DiagnoseKinds40, Session51FinalRead) {
  auto lacks = [](const std::string& log, const std::string& needle) {
    return !diagnose_log(log, rules_alone()).empty() && !evidence_holds(log, needle);
  };
  const std::string oom = "CUDA out of memory. Tried to allocate 294.00 MiB (GPU 0; 10.73 GiB total capacity; 9.28 GiB "
                          "already allocated; 280.00 MiB free; 9.40 GiB reserved in total by PyTorch)\n";
  // Late at batch size 1: batch size 1 itself (not 16), the early veto in the count's clause only.
  EXPECT_TRUE(lacks(oom + "Even with batch size 1 it runs out of memory. With batch size 16 it ran out of memory after 2000 "
                          "steps.\n",
                    "fails at batch size 1 only late"));
  EXPECT_TRUE(evidence_holds(oom + "Even with batch size 1 it runs out of memory after 3 epochs, though the first epoch "
                                   "completes.\n",
                             "fails at batch size 1 only late", OomCause::kActivationsSeqlen));
  // The model's load named beside a dataset's load denied stays the model's.
  EXPECT_TRUE(evidence_holds("CUDA out of memory\nIt OOMs when loading the model, not when loading the dataset.\n",
                             "fails while loading / placing the model", OomCause::kStaticModelTooLarge));
  // The dataset's load and the HPC reading on lines with none of the word table's words.
  EXPECT_TRUE(evidence_holds("Out of memory\nWhile reading the CSV files the process ran out of memory.\n",
                             "fails while the dataset loads", OomCause::kCpuRam));
  EXPECT_TRUE(evidence_holds("Out of memory\nI requested 64GB of memory from our HPC cluster and still ran out.\n",
                             "memory told against an HPC job's", OomCause::kCpuRam));
  EXPECT_TRUE(lacks("Out of memory\nI have 64GB RAM and plenty of room while loading the dataset.\n",
                    "fails while the dataset loads"));
  EXPECT_TRUE(evidence_holds("Out of memory\nThere is not enough memory while loading the dataset.\n",
                             "fails while the dataset loads", OomCause::kCpuRam));
  // "random" as a whole word before its noun; "were taken" only of all the memory.
  for (const char* data : {"Creating random CUDA tensors of size (50000, 50000) gives CUDA out of memory.\n",
                           "I sample random points from each scan and get CUDA out of memory.\n"}) {
    EXPECT_TRUE(lacks(std::string("CUDA out of memory error\n") + data, "OOMs at random with the same work")) << data;
  }
  EXPECT_TRUE(lacks("Out of memory\nAll RAM measurements were taken with psutil every second.\n", "host RAM runs out"));
  // A shape bug told after a question about it; swap denied in its clause.
  EXPECT_TRUE(evidence_holds(oom + "Is this a shape mismatch? The shapes mismatch and it still tries to allocate 300 GiB.\n",
                             "a shape bug, in the user's words", OomCause::kOther));
  for (const char* no_swap : {"I don't have a swap file and 16 GB of RAM.\n", "I didn't set up swap space, 8 GB only.\n"}) {
    EXPECT_TRUE(lacks(std::string("Out of memory\n") + no_swap, "swap told set up beside the failure")) << no_swap;
  }
  // The allocation-failure report: some failures counted, the user's own "fix", a heading.
  for (const char* told : {"The CUDA memory pool logged 10 allocation failures before the crash.\n",
                           "I tried to fix the memory allocation error by lowering the batch, but it still happens.\n",
                           "## Memory allocation error on 4 GPUs\n"}) {
    EXPECT_EQ(diagnose_log(std::string("Crash on start\n") + told, rules_alone()).size(), 1u) << told;
  }
  // The older "tried to allocate" reader: no number joined across a space, no count read as bytes.
  const std::vector<Diagnosis> joined =
      diagnose_log("It runs out of memory\nIt tried to allocate 2 40GiB buffers at once.\n", rules_alone());
  ASSERT_FALSE(joined.empty());
  EXPECT_NE(joined.front().oom->requested_bytes.value_or(0), int64_t{240} << 30);
}

// held93's kinds, each read on a text of its own.
TEST(DiagnoseKinds40, Held93Kinds) {
  // A GPU told absent ("without GPU", "with just CPU"): no GPU ran out; what ran out is the host's RAM.
  const std::string no_gpu = "Training - Out of Memory Error without GPU\nWhen I train with just CPU I get a memory error.\n";
  const std::vector<Diagnosis> cpu = diagnose_log(no_gpu, rules_alone());
  ASSERT_FALSE(cpu.empty());
  ASSERT_TRUE(cpu[0].oom.has_value());
  EXPECT_NE(cpu[0].oom->device, "cuda");
  EXPECT_EQ(top_cause(no_gpu), OomCause::kCpuRam);
  const std::vector<Diagnosis> gpu = diagnose_log("Training - Out of Memory Error, no GPU memory left\n", rules_alone());
  ASSERT_FALSE(gpu.empty());
  EXPECT_EQ(gpu[0].oom->device, "cuda");
  // CUDA_VISIBLE_DEVICES beside a command's flag ("--reset") tells no setting ignored.
  const std::string pytorch1 =
      "RuntimeError: CUDA out of memory. Tried to allocate 36.00 MiB (GPU 0; 8.00 GiB total capacity; 6.08 GiB already "
      "allocated; 0 bytes free; 6.81 GiB reserved in total by PyTorch)\n";
  EXPECT_FALSE(evidence_holds("Title\nI run `CUDA_VISIBLE_DEVICES=0 python tasks/run.py --exp_name x --reset`\n" + pytorch1,
                              "is not the one the job ran on"));
  EXPECT_TRUE(evidence_holds("Title\nMy mistake: CUDA_VISIBLE_DEVICES was set wrong, it still runs on GPU 0\n" + pytorch1,
                             "is not the one the job ran on"));
  // A rollback to an older version that made the failure go away: the newer version's change.
  EXPECT_TRUE(evidence_holds("Title\n" + kPytorch2Oom + "When I switched back to v0.3.7 this problem went away.\n",
                             "a rollback to an older version", OomCause::kOther));
  EXPECT_FALSE(evidence_holds("Title\n" + kPytorch2Oom + "When I switched back to fp32 this problem went away.\n",
                              "a rollback to an older version"));
  EXPECT_FALSE(evidence_holds("Title\n" + kPytorch2Oom + "Going back to 1.9.0 did not help, it still fails.\n",
                              "a rollback to an older version"));
  // An update named as when the failures began.
  EXPECT_TRUE(evidence_holds("Title\n" + kPytorch2Oom + "I updated to build 1.3.9 of the wrapper and everything OOMs now.\n",
                             "a regression told", OomCause::kOther));
  // "overloads the memory of the GPU" reports an out-of-memory failure.
  EXPECT_EQ(diagnose_log("Mask generation\nWith ~1000 masks it overloads the memory of the GPU.\n", rules_alone()).size(), 1u);
  // nvidia-smi listing only the desktop's graphics processes: no other job's memory.
  const std::string smi =
      "Check failed: error == cudaSuccess (2 vs. 0) out of memory\n"
      "|    0      1187      G   /usr/lib/xorg/Xorg                           169MiB |\n"
      "|    0      9513      G   /usr/bin/plasmashell                          81MiB |\n";
  EXPECT_NE(top_cause(smi), OomCause::kOtherProcess);
  // zh: the batch lowered in vain or failing however it is set.
  EXPECT_TRUE(evidence_holds("Title\n" + pytorch1 + "\xe4\xb8\x8d\xe7\xae\xa1""batchsize\xe8\xae\xbe\xe7\xbd\xae\xe5\xa4\x9a"
                             "\xe5\xb0\x91\xe9\x83\xbd\xe4\xbc\x9a\xe6\x8a\xa5\xe9\x94\x99\n",  // 不管batchsize设置多少都会报错
                             "fails however small the batch", OomCause::kStaticModelTooLarge));
  EXPECT_TRUE(evidence_holds("Title\n" + pytorch1 + "\xe6\x8a\x8a batchsize\xe8\xae\xbe\xe4\xb8\xba""1\xef\xbc\x8c\xe5\x8f\xaa"
                             "\xe6\x9c\x89""1\xe5\xbc\xa0\xe5\x8d\xa1\xef\xbc\x8c""oom\n",  // 把 batchsize设为1，只有1张卡，oom
                             "fails even at batch size 1"));
  EXPECT_FALSE(evidence_holds("Title\n" + pytorch1 + "batchsize\xe8\xae\xbe\xe4\xb8\xba""1\xe5\xb0\xb1\xe4\xb8\x8d\xe4\xbc\x9a"
                              "oom\xe4\xba\x86\n",  // batchsize设为1就不会oom了 (at 1 it does not OOM)
                              "fails even at batch size 1"));
  // A resume told as what the user does after each failure is not a failure at the resume.
  EXPECT_FALSE(evidence_holds("Title\n" + pytorch1 + "At the end of the next epoch it goes out of memory again, and then I "
                              "have to resume the training again and again from the checkpoint.\n",
                              "fails when resuming from a checkpoint"));
  // A video format's height inside a model's folder is no input's resolution.
  EXPECT_FALSE(evidence_holds("Title\n--dit \"ckpts/hunyuan-video-t2v-720p/transformers/model_states_fp8.pt\" \\\n" + pytorch1,
                              "a long input (sequence length / resolution)"));
  EXPECT_TRUE(evidence_holds("Title\nUpscaling a 1080p video\n" + pytorch1, "a long input (sequence length / resolution)"));
  // Variable-length batches told peaking past the memory: the longest inputs.
  EXPECT_TRUE(evidence_holds("Title\n" + pytorch1 + "SQuAD's variable-length batches spike some steps past 80 GiB.\n",
                             "variable-length batches", OomCause::kActivationsSeqlen));
  // zh: recordings told minutes long.
  EXPECT_TRUE(evidence_holds("Title\n" + pytorch1 + "\xe6\x80\xbb\xe5\x85\xb1\xe6\x9c\x89""52\xe6\x9d\xa1\xe6\x95\xb0\xe6\x8d\xae"
                             "\xef\xbc\x8c\xe6\x9c\x80\xe9\x95\xbf\xe4\xb8\xba""11\xe5\x88\x86\xe9\x92\x9f\n",  // 总共有52条数据，最长为11分钟
                             "long inputs", OomCause::kActivationsSeqlen));
  EXPECT_FALSE(evidence_holds("Title\n" + pytorch1 + "\xe8\xb7\x91\xe4\xba\x86""10\xe5\x88\x86\xe9\x92\x9f\xe5\x90\x8e"
                              "\xe8\xa7\x86\xe9\xa2\x91\xe5\xa4\x84\xe7\x90\x86\xe5\xb4\xa9\xe4\xba\x86\n",  // 跑了10分钟后视频处理崩了
                              "long inputs"));
  // A set of prompts is no chat's turn.
  EXPECT_FALSE(evidence_holds("Title\n" + kPytorch2Oom + "Memory usage increases with each successive prompt set until it crashes.\n",
                              "chat's turns"));
}

// A reviewer's counter-examples to held93's round, each read as it should be.
TEST(DiagnoseKinds40, Held93Counterexamples) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  // A rollback's target is a version: not a card, a size, a count; not denied; "reverted back to" too.
  for (const char* not_version : {"When I switched back to V100 nodes the job works.\n",
                                  "When I went back to 512x512 images it works again.\n",
                                  "Going back to 2 GPUs solved it.\n",
                                  "Downgrading to 2.0.1 hasn't fixed it either, the memory grows every step.\n",
                                  "Downgrading to 2.0.1 fixed nothing.\n"}) {
    EXPECT_FALSE(evidence_holds(oom + not_version, "a rollback to an older version")) << not_version;
  }
  EXPECT_TRUE(evidence_holds(oom + "I reverted back to 0.3.7 and the problem went away.\n", "a rollback to an older version"));
  // CUDA_VISIBLE_DEVICES: a function's name, a path, a denial or the user's own doubt are no setting ignored.
  for (const char* not_ignored : {"CUDA_VISIBLE_DEVICES=0 python bench.py  # calls torch.cuda.reset_peak_memory_stats()\n",
                                  "CUDA_VISIBLE_DEVICES=0 python train.py --config configs/wrong_labels.yaml\n",
                                  "I set CUDA_VISIBLE_DEVICES=1 and there is no mistake there.\n",
                                  "I don't know what I'm doing wrong, I run CUDA_VISIBLE_DEVICES=0,1 torchrun train.py\n"}) {
    EXPECT_FALSE(evidence_holds(oom + not_ignored, "is not the one the job ran on")) << not_ignored;
  }
  // zh: a batch lowered and now running is no batch lowered in vain (batch已经降到2了，现在可以正常训练，不会oom了).
  EXPECT_FALSE(evidence_holds(oom + "batch\xe5\xb7\xb2\xe7\xbb\x8f\xe9\x99\x8d\xe5\x88\xb0""2\xe4\xba\x86\xef\xbc\x8c\xe7\x8e\xb0"
                              "\xe5\x9c\xa8\xe5\x8f\xaf\xe4\xbb\xa5\xe6\xad\xa3\xe5\xb8\xb8\xe8\xae\xad\xe7\xbb\x83\xef\xbc\x8c"
                              "\xe4\xb8\x8d\xe4\xbc\x9a""oom\xe4\xba\x86\n",
                              "a smaller batch did not help"));
  // zh: however the batch is set, the memory told growing is growth's (无论batch设多少，显存都会一直涨到爆).
  EXPECT_FALSE(evidence_holds(oom + "\xe6\x97\xa0\xe8\xae\xba""batch\xe8\xae\xbe\xe5\xa4\x9a\xe5\xb0\x91\xef\xbc\x8c\xe6\x98\xbe"
                              "\xe5\xad\x98\xe9\x83\xbd\xe4\xbc\x9a\xe4\xb8\x80\xe7\x9b\xb4\xe6\xb6\xa8\xe5\x88\xb0\xe7\x88\x86\n",
                              "fails however small the batch"));
  // An overload supposed or told gone is no report.
  EXPECT_TRUE(diagnose_log("Feature request\nSaving all masks in a list could cause memory overload.\n", rules_alone()).empty());
  EXPECT_TRUE(diagnose_log("Question\nIt no longer overloads the memory of the GPU since v1.2, thanks!\n", rules_alone()).empty());
  // nvidia-smi's GPU row far above its process rows: processes the table cannot see (another container's).
  const std::string hidden =
      "Check failed: error == cudaSuccess (2 vs. 0) out of memory\n"
      "| 30%   45C    P2   110W / 350W |  22870MiB / 24576MiB |      0%      Default |\n"
      "|    0      1187      G   /usr/lib/xorg/Xorg                           169MiB |\n"
      "|    0      9513      G   /usr/bin/plasmashell                          81MiB |\n";
  std::string shown = hidden;
  shown.replace(shown.find("22870MiB"), 8, "  250MiB");
  const auto rank_of_other = [](const std::string& log) {
    const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
    for (size_t i = 0; !ds.empty() && i < ds.front().findings.size(); ++i) {
      if (ds.front().findings[i].category == OomCause::kOtherProcess) return i;
    }
    return size_t{99};
  };
  EXPECT_LT(rank_of_other(hidden), rank_of_other(shown));
  // A resume that fails is read as one, even when the user "needs" it.
  const std::string pytorch1 =
      "RuntimeError: CUDA out of memory. Tried to allocate 36.00 MiB (GPU 0; 8.00 GiB total capacity; 6.08 GiB already "
      "allocated; 0 bytes free; 6.81 GiB reserved in total by PyTorch)\n";
  EXPECT_TRUE(evidence_holds("Title\n" + pytorch1 + "I need to resume training from checkpoint-5000, but it runs out of memory "
                             "right when the optimizer state is loaded.\n",
                             "fails when resuming from a checkpoint"));
  // "1080p/30fps" is the input's format, not a model's path.
  EXPECT_TRUE(evidence_holds("Title\nGenerating 1080p/30fps video with the upscaler\n" + pytorch1,
                             "a long input (sequence length / resolution)"));
  // zh: minutes the run took are no recording's length (处理这个视频花了40分钟).
  EXPECT_FALSE(evidence_holds("Title\n" + pytorch1 + "\xe5\xa4\x84\xe7\x90\x86\xe8\xbf\x99\xe4\xb8\xaa\xe8\xa7\x86\xe9\xa2\x91"
                              "\xe8\x8a\xb1\xe4\xba\x86""40\xe5\x88\x86\xe9\x92\x9f\n",
                              "long inputs"));
  // An upgrade of hardware, or one that still fails, is no regression.
  for (const char* not_regression : {"I upgraded to a 4090; before I could only run the 7B model, now the 13B OOMs.\n",
                                     "I upgraded to 64GB of system RAM last week and it still OOMs now.\n"}) {
    EXPECT_FALSE(evidence_holds(oom + not_regression, "a regression told")) << not_regression;
  }
  // Megatron's --recompute-activations named as the fix: activation checkpointing.
  EXPECT_TRUE(evidence_holds(oom + "Setting --recompute-activations fixed it, thanks.\n", "", OomCause::kActivationsBatch));
}

// held94's round (kinds read from its first look): "multi-" before no device, batch 1 told as what
// works, a machine that halted, a run impossible even at batch 1, batch 1 failing only eventually, a
// package's build, other people sharing the GPU, zh exits asked about memory, an inference loop's
// outputs kept, no_grad proposed as code, "still" said of a failure, CuPy's older message.
TEST(DiagnoseKinds40, Held94Kinds) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  // "multi-" before no device, process or node names no several GPUs.
  EXPECT_FALSE(evidence_holds(oom + "Every multi-concept run needs more memory than one concept.\n", "several ranks / GPUs"));
  EXPECT_FALSE(evidence_holds(oom + "I train a multi-label classifier.\n", "several ranks / GPUs"));
  EXPECT_TRUE(evidence_holds(oom + "I train on a multi-GPU node.\n", "several ranks / GPUs"));
  EXPECT_TRUE(evidence_holds(oom + "It only happens in multi node runs.\n", "several ranks / GPUs"));
  // Batch size 1 told as the only setting that works ("only when ..., it works"): no failure at batch 1.
  const std::string only_when = oom + "Using batchsize=4, image_size=512. Only when I set batchsize to 1 and image_size=224, it "
                                      "works, why is this?\n";
  EXPECT_FALSE(evidence_holds(only_when, "fails even at batch size 1"));
  EXPECT_TRUE(evidence_holds(oom + "Even when I set batchsize to 1, it fails.\n", "fails even at batch size 1"));
  // A machine that halted over memory: a report, the host's RAM.
  const std::string halted = "My system halted\nThe code takes a large sum of memory and it makes my computer system halted.\n";
  EXPECT_EQ(diagnose_log(halted, rules_alone()).size(), 1u);
  EXPECT_EQ(top_cause(halted), OomCause::kCpuRam);
  // A run told impossible even at a batch of one: a report, static memory first.
  const std::string even_one = "Strange\nFor FastGAN I can train with batch=6 on the 8G 2080. With ProjectedGAN I cannot run "
                               "with even batch=1.\n";
  EXPECT_EQ(diagnose_log(even_one, rules_alone()).size(), 1u);
  EXPECT_EQ(top_cause(even_one), OomCause::kStaticModelTooLarge);
  expect_none_reports({"Slow\nI cannot run even with batch=1 in under an hour.\n",
                       "Question\nCan't I train even with batch=1?\n", "Note\nI cannot run it even with batch=16.\n"});
  // A batch setting of any spelling set to 1, with the failure told: batch 1 fails.
  EXPECT_TRUE(evidence_holds(oom + "I tried change \"batch_size_per_gpu\" to 1, but I got the same error.\n",
                             "fails even at batch size 1"));
  EXPECT_FALSE(evidence_holds(oom + "batch: 1\nlr: 0.001\n", "fails even at batch size 1"));
  // Batch 1 failing only eventually: one larger sample or memory kept, not the model.
  EXPECT_TRUE(evidence_holds(oom + "I eventually get out of memory error even with a batch size of 1.\n",
                             "fails at batch size 1 only late", OomCause::kActivationsSeqlen));
  // A package's build: its compiler jobs on the host.
  const std::string build =
      "Memory leakage during `Building wheels for collected packages` for flash-attn==2.0.1\nOn a machine with 39 GB of "
      "CPU memory the build rapidly takes up all the memory and causes the machine to crash.\n";
  EXPECT_TRUE(evidence_holds(build, "a package's build", OomCause::kCpuRam));
  EXPECT_EQ(top_cause(build), OomCause::kCpuRam);
  EXPECT_FALSE(evidence_holds(oom + "Building wheels finished, then training OOMs on the GPU memory.\n", "a package's build"));
  // Other people sharing the GPU, hogging its memory: another process.
  EXPECT_TRUE(evidence_holds(oom + "I have to share GPUs with other people and sometimes their scripts hog up all the GPU "
                                   "memory.\n",
                             "other jobs on the GPU", OomCause::kOtherProcess));
  EXPECT_FALSE(evidence_holds(oom + "Other people have the same problem with the GPU memory.\n", "other jobs on the GPU"));
  // zh: memory asked about beside a run that exits by itself (自动退出): a report.
  EXPECT_EQ(diagnose_log("\xe5\xbe\xae\xe8\xb0\x83\xe8\xae\xad\xe7\xbb\x83\xe6\x97\xb6\xe8\x87\xaa\xe5\x8a\xa8\xe9\x80\x80\xe5\x87\xba\n"
                         "8x v100 (16G) \xe6\x98\xaf\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\xe5\x90\x97\xef\xbc\x9f\n",
                         rules_alone())
                .size(),
            1u);  // 微调训练时自动退出 / 8x v100 (16G) 是内存不够吗？
  // A forward pass's outputs appended in an inference loop, autograd on: evaluation without no_grad.
  const std::string loop =
      "features failed in loop\nit raised memory error.\n```\nmodel.eval()\nloop = []\nfor i in range(10):\n"
      "    rep = model.extract_features(wav)[0]\n    loop.append(rep)\n```\n";
  EXPECT_TRUE(evidence_holds(loop, "appended to a list in an inference loop", OomCause::kEvalWithoutNoGrad));
  EXPECT_EQ(top_cause(loop), OomCause::kEvalWithoutNoGrad);
  for (const char* kept : {"    loop.append(rep.cpu())\n", "    loop.append(rep.item())\n"}) {
    std::string cut = loop;
    cut.replace(cut.find("    loop.append(rep)\n"), 21, kept);
    EXPECT_FALSE(evidence_holds(cut, "appended to a list in an inference loop")) << kept;
  }
  std::string under_no_grad = loop;
  under_no_grad.replace(under_no_grad.find("loop = []"), 9, "torch.set_grad_enabled(False)\nwith torch.no_grad():");
  EXPECT_FALSE(evidence_holds(under_no_grad, "appended to a list in an inference loop"));
  // no_grad proposed as the fix, as code below a sentence that proposes it.
  const std::string proposed =
      "Suggestion to edit readme\nCUDA ran out of memory very soon: the activations for the entire graph were stored. Maybe "
      "it makes sense to edit the simple starting script as below.\n\n```\nimport torch\nupstream = load().to('cuda')\n"
      "wavs = [torch.zeros(160000) for _ in range(16)]\nwith torch.no_grad():\n    reps = upstream(wavs)\n```\n";
  EXPECT_TRUE(evidence_holds(proposed, "the user's fix, shown as code", OomCause::kEvalWithoutNoGrad));
  std::string shown = proposed;
  shown.replace(shown.find("Maybe it makes sense to edit the simple starting script as below."), 66, "My code is as below.");
  EXPECT_FALSE(evidence_holds(shown, "the user's fix, shown as code"));
  // "still" said of a failure tells no memory held after a process ended.
  EXPECT_FALSE(evidence_holds("Title\nout of memory on the GPU. When I switch to CPU, the process is still killed.\n",
                              "GPU memory a finished process left behind"));
  EXPECT_TRUE(evidence_holds("Title\nout of memory. After I killed the job, nvidia-smi still shows 20GB used.\n",
                             "GPU memory a finished process left behind"));
  // CuPy <= 6's message (Chainer 5): the request and the pool's bytes (the total less the request).
  const std::vector<Diagnosis> cupy = diagnose_log(
      "Exception in main training loop: out of memory to allocate 205520896 bytes (total 16068929536 bytes)\n", rules_alone());
  ASSERT_EQ(cupy.size(), 1u);
  ASSERT_TRUE(cupy[0].oom.has_value());
  EXPECT_EQ(cupy[0].oom->subsystem, "cupy");
  EXPECT_EQ(cupy[0].oom->requested_bytes.value_or(0), 205520896);
  EXPECT_EQ(cupy[0].oom->reserved_bytes.value_or(0), int64_t{16068929536} - 205520896);
  const std::vector<Diagnosis> other = diagnose_log("Out of memory to allocate 4096 bytes for data element on line 12.\n",
                                                    rules_alone());
  ASSERT_EQ(other.size(), 1u);
  EXPECT_NE(other[0].oom->subsystem, "cupy");
}

// A helper's counter-examples to held94's round (texts it wrote to break the new readings), mended.
// held95's round (tests/data/oom-corpus/README.md, item 95): each kind read from a held95 miss.
TEST(DiagnoseKinds40, Held95Kinds) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  // Reports in words the parser missed: MemoryError closing a title, "Tried to allocate" with an amount
  // in words, "get kill", a memory shortage named, the GPU memory unable to support a setting.
  for (const char* told : {"seq2seq MemoryError\nTraceback (most recent call last):\n  File \"train.py\", line 52\n",
                           "torch.cdist Tried to allocate huge amount of GPU memory during the forward process\n",
                           "conversion of llama2 70b get kill\nRAM: 20G\n",
                           "Feature extraction\nI encountered a memory shortage issue while extracting features on a 64GB "
                           "server.\n",
                           "Question of GPU Memory\nThe gpu memory can not support the commented batch size 8 for each gpu.\n"}) {
    EXPECT_EQ(diagnose_log(told, rules_alone()).size(), 1u) << told;
  }
  auto record = [](const std::string& log) {
    const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
    return ds.size() == 1 && ds[0].oom ? *ds[0].oom : OomRecord{};
  };
  EXPECT_EQ(record("conversion of llama2 70b get kill\n").family, "oom_killer");
  EXPECT_EQ(record("seq2seq MemoryError\n").device, "cpu");
  expect_none_reports({"Docs\nHow do I catch a MemoryError\n", "Docs\nIt should not raise MemoryError\n",
                       "Question\nDoes it get kill?\n", "Note\nThe pool tried to allocate buffers lazily.\n",
                       "Note\nThere is no memory shortage here.\n", "Note\nMy GPU cannot support bf16.\n"});
  // A kill that bounds a holding, or an object destroyed, is no kill; the GPU's memory used up, which
  // killed the run, is the GPU's failure.
  expect_none_reports({"Leak\nthis gpu space is not freed until the process is killed.\n",
                       "Leak\nit is not released after the object is killed.\n"});
  EXPECT_EQ(record("Growth\nRAM kept increasing until the process was killed.\n").family, "oom_killer");
  const OomRecord gpu_kill =
      record("Growth\nthe gpu memory usage kept increasing until it is used up which killed the training process.\n");
  EXPECT_EQ(gpu_kill.family, "mentioned");
  EXPECT_EQ(gpu_kill.device, "cuda");
  // A recording told minutes long: a long input.
  for (const char* minutes : {"then i use a 5min.wav instead, it oom\n", "I feed a 10-minute video.\n",
                              "It holds 3 minutes of audio.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + minutes, "long inputs, in the user", OomCause::kActivationsSeqlen)) << minutes;
  }
  EXPECT_FALSE(evidence_holds(oom + "Each epoch takes 5 min on the audio set.\n", "long inputs, in the user"));
  // A fix supposed ("could be fixed by reducing batch size") is no account of the fix.
  EXPECT_FALSE(evidence_holds(oom + "This could be fixed by reducing batch size.\n", "the user's account of the fix"));
  EXPECT_TRUE(evidence_holds(oom + "Reducing the batch size fixed it.\n", "the user's account of the fix"));
  // Next to nothing allocated beside a large request: no graph kept, evaluation no verdict.
  const std::string eval_empty =
      "CUDA out of memory when evaluating result\nTraceback (most recent call last):\n  File \"eval_completion.py\", line 56, in "
      "compute_4_metrics\nRuntimeError: CUDA out of memory. Tried to allocate 4.69 GiB (GPU 0; 11.77 GiB total capacity; 29.38 "
      "MiB already allocated; 3.85 GiB free; 40.00 MiB reserved in total by PyTorch)\n";
  const Diagnosis d = first(diagnose_log(eval_empty));
  EXPECT_TRUE(d.ambiguous());
  EXPECT_NE(d.findings.front().category, OomCause::kEvalWithoutNoGrad);
  // Outputs appended in a loop over a pretrained model's forward (no eval(), nothing trained).
  const std::string pretrained =
      "Out of memory issue\nThrough a for loop I am applying longformer to each document; memory grows.\n"
      "model = Longformer.from_pretrained(base_dir, config=config)\nout = []\nfor pg in pages:\n"
      "    ids = tokenize(pg)\n    mask = make_mask(ids)\n    ids = pad(ids)\n    mask = pad(mask)\n"
      "    output = model(ids, attention_mask=mask)\n    out.append(output[1])\n";
  EXPECT_TRUE(evidence_holds(pretrained, "appended to a list in an inference loop", OomCause::kEvalWithoutNoGrad));
  // A checkpoint's conversion script is no generation; its CPU flag told ignored is the library's bug.
  const std::string convert =
      "Parameter --load_model_on_cpu is ignored by llama convert_checkpoint.py\n```\npython convert_checkpoint.py --model_dir "
      "mistralai/Mixtral-8x7B-Instruct-v0.1 --load_model_on_cpu\n```\nThe script is using the GPUs, also leading to OOM\n";
  EXPECT_FALSE(evidence_holds(convert, "an LLM run without training"));
  EXPECT_EQ(top_cause(convert), OomCause::kOther);
}

// A helper's counter-examples to held95's round, mended (tests/data/oom-corpus/README.md, item 95).
TEST(DiagnoseKinds40, Held95Counterexamples) {
  // No report: a test's expected MemoryError, the error told gone, an allocation told expected or up
  // front, a kill signal or a kill switch, a shortage ruled out or a market's.
  expect_none_reports(
      {"test_alloc_huge fails: expects MemoryError\nThe test asserts that allocating a 1 PB buffer raises.\n",
       "No more MemoryError\nThanks for the fix, the preprocessing now finishes without a MemoryError\n",
       "Slow first step\nAt startup the allocator tries to allocate a lot of memory for the workspace; that is expected and "
       "it fits.\n",
       "nvidia-smi shows 90% used\nJAX tries to allocate a large amount of GPU memory up front (75% by default).\n",
       "Graceful shutdown\nthe trainer process gets kill signals from the cloud agent 30 s after the notice.\n",
       "Feature\nWe got kill -9 support into the launcher last week.\n",
       "Illegal memory access\nMemory shortage is ruled out: the GPU has 80 GB and only 12 GB are in use.\n",
       "Which card\nBecause of the global DRAM and memory shortage, 80GB cards are hard to get.\n"});
  // Reports: "except" as an English word, VRAM for memory, VRAM unable to support, a shortage of GPU
  // memory, a cloud instance killed.
  for (const char* told : {"Dataset.map on 40M rows\nEverything works except the final concatenation, which fails with MemoryError\n",
                           "cdist on 100k points\ntorch.cdist tried to allocate a huge amount of VRAM during the forward pass.\n",
                           "batch size 16 on 3060\nMy VRAM can not support batch size 16, so I train with 4.\n",
                           "features\nI encountered a shortage of GPU memory while extracting visual features.\n"}) {
    EXPECT_EQ(diagnose_log(told, rules_alone()).size(), 1u) << told;
  }
  const std::string instance = "Workers eat memory\nThe training instance was killed after RAM usage hit 100% in epoch 3.\n";
  EXPECT_EQ(top_cause(instance), OomCause::kCpuRam);
  // A GPU told fine, the machine's memory or the workers' running out: the kill stays the host's.
  for (const char* host : {"Workers\nMy 3090 has plenty of free VRAM. The dataloader workers: memory usage kept increasing "
                           "until it was used up, which killed the training process.\n",
                           "Stops\nGPU memory is fine (9 of 24 GB) but the machine's memory runs out after a few epochs and "
                           "the process gets killed, no traceback.\n"}) {
    const std::vector<Diagnosis> ds = diagnose_log(host, rules_alone());
    ASSERT_EQ(ds.size(), 1u) << host;
    EXPECT_EQ(ds[0].oom->family, "oom_killer") << host;
  }
  // "my host has" is the host's memory; "mp3" is a medium; a fix told done after "could be solved" is the
  // account; "maybe ... can be fixed" is a guess.
  EXPECT_TRUE(evidence_holds("Loading\nLoading the 70B checkpoint runs out of memory, my host has only 32GB of memory.\n",
                             "host RAM", OomCause::kCpuRam));
  EXPECT_TRUE(evidence_holds("Whisper OOM\nTranscribing a 45 minute mp3 runs out of CUDA memory on my 24 GB card.\n",
                             "long inputs, in the user", OomCause::kActivationsSeqlen));
  const std::string oom = "Title\n" + kPytorch2Oom;
  EXPECT_TRUE(evidence_holds(oom + "I found the issue could be solved by reducing the batch size to 4, which I did, and "
                                   "training now runs fine.\n",
                             "the user's account of the fix"));
  EXPECT_FALSE(evidence_holds(oom + "Maybe this can be fixed by reducing the batch size to 4.\n", "the user's account of the fix"));
  // A tokenizer's from_pretrained is no model; an image opened in the loop is no forward pass.
  const std::string images = "Loading images\n```python\nmodel = CLIPModel.from_pretrained(\"clip\").cuda()\nimages = []\n"
                             "for path in paths:\n    img = Image.open(path).convert(\"RGB\")\n    images.append(img)\n```\n"
                             "The python process is killed by the OOM killer.\n";
  EXPECT_FALSE(evidence_holds(images, "appended to a list in an inference loop"));
  std::string tokens = images;
  tokens.replace(tokens.find("model = CLIPModel"), 17, "tok = AutoTokenizer");
  tokens.replace(tokens.find("img = Image.open(path).convert(\"RGB\")"), 36, "img = tok(path, return_tensors=\"pt\")");
  EXPECT_FALSE(evidence_holds(tokens, "appended to a list in an inference loop"));
  // A script converting PDFs is no checkpoint's conversion; a setting of no effect told expected is no
  // bug; diffusers' enable_sequential_cpu_offload() told of no effect is.
  EXPECT_TRUE(evidence_holds("Llama 7B OOM\n$ python convert_pdfs.py docs/ && python chat.py --model llama-7b\n" +
                                 kPytorch2Oom,
                             "an LLM run without training"));
  EXPECT_NE(top_cause("cpu_offload with FSDP\ncpu_offload has no effect on activations, as the docs say, so for seq len 32k I "
                      "still run out of memory; that is expected.\n" + kPytorch2Oom),
            OomCause::kOther);
  EXPECT_EQ(top_cause("offload\nAfter torch.compile, pipe.enable_sequential_cpu_offload() has no effect: the whole UNet stays on "
                      "the GPU.\n" + kPytorch2Oom),
            OomCause::kOther);
}

TEST(DiagnoseKinds40, Held94Counterexamples) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  // "multi-worker" / "multi-process" loading and a Multi-Instance GPU slice name no several GPUs.
  expect_evidence_absent(oom, {"Setup: one GPU, a multi-worker DataLoader (num_workers=8).\n",
                              "Data loading is multi-process (8 workers), trained on one RTX 4090.\n",
                              "The A100 is partitioned with Multi-Instance GPU and the job gets one 3g.20gb slice.\n"},
                         "several ranks / GPUs");
  // Batch 1 told working on the CPU says nothing of the GPU, where it fails.
  EXPECT_TRUE(evidence_holds(oom + "On the GPU even batch_size=1 gives OOM; only when I run with batch_size=1 on the CPU, it "
                                   "works.\n",
                             "fails even at batch size 1"));
  // "halts" with an object or a span is no machine stalling.
  expect_none_reports({"Job stops\nThe cluster's queue system halts my job after 4 hours. Memory usage is at 40% when it "
                       "stops.\n",
                       "Early stop\nThe system halts training after 3 epochs without improvement, memory usage stays at 6 GB.\n"});
  EXPECT_NE(top_cause(oom + "When the GPU runs out, my computer halts for a minute, then the traceback prints. Memory on the "
                            "host is 64 GB and mostly free.\n"),
            OomCause::kCpuRam);
  // Impossible even at batch 1 because of another failure, or at "batch 1", the first batch: no report.
  expect_none_reports({"Can't train on 2 GPUs\nI cannot train even with batch size 1, it always stops with\nRuntimeError: "
                       "Expected all tensors to be on the same device\n",
                       "fp16\nWith fp16 I can't train even with batch_size=1: the loss is nan after the first step.\n",
                       "Dataset\nThe custom dataset cannot process even batch 1, it raises KeyError: 'label'.\n"});
  // An index, a count, another phase's batch or a progress count set to 1 is no batch of one.
  expect_evidence_absent(oom, {"Config: batch_size_per_gpu=64, eval_batch_size_per_gpu=1. It fails at step 0 of training.\n",
                              "The error is raised at batch_idx=1 every time, after 6 full epochs.\n",
                              "Epoch 2/20 - batch: 1/1563 - loss: 0.4821 - failed with the OOM above.\n"},
                         "fails even at batch size 1");
  // A batch setting of another spelling told working at 1.
  EXPECT_FALSE(evidence_holds(oom + "With \"train_micro_batch_size_per_gpu\": 1 it trains fine for 3 epochs, with 2 it "
                                    "fails with the OOM above.\n",
                              "fails even at batch size 1"));
  // "eventually" of the user's tries, the failure told at once: not late.
  EXPECT_FALSE(evidence_holds(oom + "I kept lowering it and eventually set batch size 1, but it still OOMs right away at the "
                                    "first step.\n",
                              "fails at batch size 1 only late"));
  // A build named as an install step, or told done: no build's memory.
  expect_evidence_absent(oom, {"Install: git clone the repo, then python setup.py develop to compile the custom ops.\n",
                              "I installed flash-attn with MAX_JOBS=4 pip install flash-attn, which went fine.\n",
                              "The log shows Building wheels for collected packages: deepspeed ... done, memory is fine.\n"},
                         "a package's build");
  // "other people" denied, sharing a problem, or "ShareGPT": no other job on the GPU.
  expect_evidence_absent(oom, {"The GPU is in my own desktop and is not shared with other people; nothing else uses its "
                                 "memory.\n",
                                 "I share the same GPU memory problem as other people in #1234.\n",
                                 "Other people fine-tuning on the ShareGPT data report the same GPU OOM.\n"}, "other jobs on the GPU");
  // zh: a crash denied (没有崩溃) is no failure told beside the memory asked about.
  expect_none_reports({"\xe6\x8e\xa8\xe7\x90\x86\xe9\x80\x9f\xe5\xba\xa6\xe5\xbe\x88\xe6\x85\xa2\n\xe7\xa8\x8b\xe5\xba\x8f\xe6\xb2\xa1"
                       "\xe6\x9c\x89\xe5\xb4\xa9\xe6\xba\x83\xef\xbc\x8c\xe5\xb0\xb1\xe6\x98\xaf\xe6\x85\xa2\xe3\x80\x82\n"
                       "\xe6\x98\xaf\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f\xe5\x90\x97\xef\xbc\x9f\n"});
  // 推理速度很慢 / 程序没有崩溃，就是慢。/ 是显存不够吗？
  // An inference loop appending a number, under autograd turned off, or a loop variable: no graphs kept.
  const std::string msg = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; "
                          "6.61 GiB already allocated; 12.56 MiB free; 6.72 GiB reserved in total by PyTorch)\n";
  for (const char* code : {"model.eval()\npreds = []\nfor img in loader:\n    pred = model(img.cuda()).argmax(1).item()\n"
                           "    preds.append(pred)\n",
                           "model.eval()\ntorch.set_grad_enabled(False)\nfeats = []\nfor x in loader:\n"
                           "    f = model.forward_features(x.cuda())\n    feats.append(f)\n",
                           "model.eval()\npaths = []\nfor name in sorted(os.listdir(img_dir)):\n    paths.append(name)\n"}) {
    EXPECT_FALSE(evidence_holds("Title\n```\n" + std::string(code) + "```\n" + msg, "appended to a list in an inference loop"))
        << code;
  }
  // "should be enough ... as below" and a fix told failed "as below" show the code that failed.
  EXPECT_FALSE(evidence_holds(oom + "24 GB should be enough for a 7B LoRA, but it fails at the first step. My training script "
                                    "is as below:\n```\nmodel.gradient_checkpointing_enable()\n```\n",
                              "the user's fix, shown as code"));
  EXPECT_FALSE(evidence_holds(oom + "I applied the solution from #812, it did not help; the validation loop is as below:\n"
                                    "```\nwith torch.no_grad():\n    out = model(x)\n```\n",
                              "the user's fix, shown as code"));
  // "still not killed" / "still held after the crash": memory held after the process.
  EXPECT_TRUE(evidence_holds(oom + "After I stop the training process with Ctrl-C, it is still not killed and holds 22 GB of GPU "
                                   "memory, so the next run OOMs immediately.\n",
                             "GPU memory a finished process left behind"));
  // "no creep at all" denies growth.
  EXPECT_FALSE(evidence_holds(oom + "I logged memory_allocated() every step: there is no creep at all, it sits at 14 GB for "
                                    "3000 steps.\n",
                              "memory grows step after step"));
  // xformers downgraded, uninstalled or already on: no memory-efficient attention turned on as the fix.
  for (const char* xf : {"Fixed it by downgrading xformers to 0.0.20, the new wheel was built for another torch.\n",
                         "Solved: uninstalling xformers fixed it.\n",
                         "xformers memory efficient attention was already on; what fixed it was CPU offload.\n"}) {
    EXPECT_NE(top_cause(oom + xf), OomCause::kActivationsSeqlen) << xf;
  }
  EXPECT_EQ(top_cause(oom + "Enabling xformers memory efficient attention fixed it.\n"), OomCause::kActivationsSeqlen);
}

TEST(DiagnoseKinds41, Held96Kinds) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  auto record = [](const std::string& log) {
    const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
    return ds.size() == 1 && ds[0].oom ? *ds[0].oom : OomRecord{};
  };
  // Messages the parser missed: faiss's old cudaMalloc failure with its byte count and no error code,
  // the MPS allocator's buffer over maxBufferLength, XLA's constant it could not place.
  const OomRecord faiss =
      record("Failed to cudaMalloc\nFaiss assertion failed; details: Failed to cudaMalloc 4294967296 bytes\n");
  EXPECT_EQ(faiss.family, "cuda_error_oom");
  EXPECT_EQ(faiss.requested_bytes, int64_t{4294967296});
  const OomRecord mps = record("Invalid buffer size\nI get `RuntimeError: Invalid buffer size: 70.96 GB` on long videos.\n");
  EXPECT_EQ(mps.device, "mps");
  EXPECT_EQ(mps.requested_bytes, static_cast<int64_t>(70.96 * 1024 * 1024 * 1024));
  EXPECT_EQ(first(diagnose_log("Invalid buffer size\nRuntimeError: Invalid buffer size: 70.96 GB\n")).framework, "pytorch");
  const OomRecord xla = record(
      "eval\njaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to allocate 98697216 bytes for new constant\n");
  EXPECT_EQ(xla.family, "xla");
  EXPECT_EQ(xla.requested_bytes, int64_t{98697216});
  // Reports in words: memory "out of" with its object left off, VRAM told not sufficient, a card told
  // blown in Chinese.
  expect_each_reports({"Question\nthe gpu memory is out of, what model are you using?\n",
                       "Large models\nA single GPU's VRAM isn't sufficient to accommodate such large models.\n",
                       "The memory cost.\n我用A6000都跑不了，一张卡一张图都爆。\n"});
  expect_none_reports({"Note\nfailed to cudaMalloc 4096 bytes (error 46 all CUDA-capable devices are busy or unavailable)\n",
                       "Note\nInvalid buffer size: the argument must be positive\n",
                       "Sync\nThe memory is out of sync with the disk.\n",
                       "Tuning\nThe learning rate is not sufficient to converge.\n"});
  // nn.Module.to's convert() body pasted alone: the model moved onto the device.
  const std::string moved =
      "Will it run on 12GB cards?\nreturn t.to(device, dtype if t.is_floating_point() or t.is_complex() else None, "
      "non_blocking)\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 12.00 GiB total "
      "capacity; 11.29 GiB already allocated; 0 bytes free; 11.32 GiB reserved in total by PyTorch)\n";
  EXPECT_EQ(first(diagnose_log(moved)).phase, "model_load");
  EXPECT_EQ(top_cause(moved), OomCause::kStaticModelTooLarge);
  // A model named with its size and run without training: its 16-bit weights against the device.
  const std::string named =
      "EVA CLIP 8B GPU out of memory\nmodel = AutoModel.from_pretrained(path, torch_dtype=torch.float16).to('cuda').eval()\n"
      "When running the EVA CLIP 8B model the following error comes\n"
      "OutOfMemoryError: CUDA out of memory. Tried to allocate 32.00 MiB. GPU 0 has a total capacity of 14.75 GiB of which "
      "5.06 MiB is free. Of the allocated memory 14.52 GiB is allocated by PyTorch, and 127.44 MiB is reserved by PyTorch "
      "but unallocated.\n";
  EXPECT_TRUE(evidence_holds(named, "the named model's 16-bit weights alone", OomCause::kStaticModelTooLarge));
  std::string small = named;
  for (size_t p = small.find("8B"); p != std::string::npos; p = small.find("8B")) small.replace(p, 2, "1B");
  EXPECT_FALSE(evidence_holds(small, "the named model's 16-bit weights alone"));
  // Batch 1 in Chinese named 批次, the failure going on.
  EXPECT_TRUE(evidence_holds("训练问题\n单gpu训练，批次设置为1但是依旧出现显存不足的情况\n", "fails even at batch size 1",
                             OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds("训练问题\n批次设置为1之后就不会显存不足了\n", "fails even at batch size 1"));
  // Full training of a named model whose Adam state exceeds any one GPU, no device sized.
  EXPECT_TRUE(evidence_holds("support 14B full training\nWhen training a 14B-parameter model (DiT), encountering CUDA Out Of "
                             "Memory errors\n",
                             "more than any single GPU holds", OomCause::kStaticModelTooLarge));
  EXPECT_FALSE(evidence_holds("support 1B full training\nWhen training a 1B-parameter model (DiT), encountering CUDA Out Of "
                              "Memory errors\n",
                              "more than any single GPU holds"));
  EXPECT_FALSE(evidence_holds("LoRA on 14B\nWhen training LoRA adapters on a 14B-parameter model, encountering CUDA Out Of "
                              "Memory errors\n",
                              "more than any single GPU holds"));
  // A video told by its count of frames, 100 or more: a long input; not a rate, a stride or frames one at a time.
  for (const char* frames : {"Videos which are more than 300 frames run into a memory error.\n",
                             "Cuda OOM (1k+ frame video) on A100\n", "for example w: 1944, h: 1944, frame number: 1680\n"}) {
    EXPECT_TRUE(evidence_holds(oom + frames, "long inputs, in the user", OomCause::kActivationsSeqlen)) << frames;
  }
  expect_evidence_absent(oom, {"The camera records 120 frames per second and memory runs out.\n",
                               "I save a checkpoint every 500 frames and memory runs out.\n",
                               "Each of the 500 frames is processed alone and memory runs out.\n"},
      "long inputs, in the user");
  // The model's call appended in a loop under a pretrained model built by its constructor.
  const std::string appended =
      "Memory leak in decoding process\nMemory usage grows over time eventually resulting in OOM.\n```\n"
      "# Instantiate a pretrained EnCodec model\nmodel = EncodecModel.encodec_model_24khz()\nframes = []\n"
      "for offset in range(0, 1440000, 480):\n    encoded = model._encode_frame(wav[:, :, offset: offset + 480])\n"
      "    frames.append(model._decode_frame(encoded))\n```\n";
  EXPECT_TRUE(evidence_holds(appended, "appended to a list in an inference loop", OomCause::kEvalWithoutNoGrad));
  std::string no_grad = appended;
  no_grad.insert(no_grad.find("for offset"), "torch.set_grad_enabled(False)\nwith torch.no_grad():\n");
  EXPECT_FALSE(evidence_holds(no_grad, "appended to a list in an inference loop"));
  // Growth told going on past a fix tried.
  EXPECT_TRUE(evidence_holds(oom + "I add torch.cuda.empty_cache() and gc.collect(). However, the memory still increases.\n",
                             "memory grows step after step", OomCause::kLeakAcrossSteps));
}

TEST(DiagnoseKinds41, Held96Counterexamples) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  // Messages: faiss's cudaMalloc with a reason after its byte count, other libraries' "Invalid buffer
  // size", XLA's constant placed (logged, not failed) are no reports.
  expect_none_reports({"faiss\ndetails: Failed to cudaMalloc 1024 bytes: an illegal memory access was encountered\n",
                       "faiss\ndetails: Failed to cudaMalloc 67108864 bytes (operation not permitted when stream is capturing)\n",
                       "png\nlibpng error: IDAT: Invalid buffer size: 4096 (expected 16384)\n",
                       "grpc\ngrpc: Invalid buffer size: 0\n",
                       "xla\nI0412 gpu_executable.cc:512] Allocated 98697216 bytes for new constant\n"});
  // Words: a wrapped "is out of" / "date", speed or a cache call "not sufficient", a question, 爆 in 爆火 /
  // 爆杀 / 爆出.
  expect_none_reports({"Cache\nAfter the update the copy in GPU memory is out of\ndate until the server restarts.\n",
                       "FAQ\nCalling torch.cuda.empty_cache() is not sufficient to free GPU memory still referenced.\n",
                       "Speed\nThe memory bandwidth of the T4 is not sufficient for real-time decoding.\n",
                       "Question\nIs 24GB of VRAM not sufficient for the 7B model?\n", "购卡建议\n4090也爆火了，现在根本买不到\n",
                       "速度\n单卡4090推理速度直接爆杀A100\n", "NCCL\n双卡和单卡都爆出同样的 NCCL timeout 错误\n"});
  EXPECT_EQ(diagnose_log("Multi\n多卡训练也爆\n", rules_alone()).size(), 1u);
  // A user's helper of convert()'s shape moves a batch, not the model.
  const std::string helper =
      "Batch OOM\ndef move(t, device, dtype): return t.to(device, dtype if t.is_floating_point() else None, "
      "non_blocking=True)\nIt fails on the 40th batch:\n" + kPytorch2Oom;
  EXPECT_NE(first(diagnose_log(helper)).phase, "model_load");
  // A dataset's or a teacher's size is no size of the model that runs.
  expect_evidence_absent(oom, {"I use the ViT-L/14 model, pretrained on LAION-2B, to embed images.\n",
                               "Our encoder was distilled from an 8B teacher; the student is 300M params.\n"},
      "the named model's");
  // Chinese batch-1: 批量 as bulk with another count set to 1, an accumulation's or a logging interval's count.
  expect_evidence_absent("", {"显存\n批量推理的并发数改为1了，但是依旧出现显存不足\n", "显存\n梯度累积批次设置为1，但是依旧出现显存不足\n",
                              "显存\n日志打印间隔批次设置为1，训练到一半显存不足\n"},
      "fails even at batch size 1");
  EXPECT_TRUE(evidence_holds("显存\n批处理大小设置为1但是依旧出现显存不足\n", "fails even at batch size 1"));
  // Full training only where told full: not a teacher distilled, a token count, a frozen backbone.
  expect_evidence_absent("", {"Distill\nI am distilling a 70B teacher into a 1B student model; only the student is trained. "
                              "CUDA out of memory\n",
                              "Pretrain\nPretraining a small model on 14B tokens runs CUDA out of memory\n",
                              "Probe\nTraining only a linear probe on a frozen 14B-parameter backbone model: CUDA out of memory\n"},
      "more than any single GPU holds");
  // Frames sampled, a test that passed, an ffmpeg progress line, a regression, a data frame: no long input.
  expect_evidence_absent(oom, {"I sample 8 frames uniformly from each 300-frame clip before passing them to the model.\n",
                               "frame= 1680 fps= 25 q=28.0 size= 10240kB\n",
                               "In v0.2 I could process 1000 frames without any issue; since v0.3 a 16-frame clip fails.\n",
                               "Loading the annotations into a data frame: 150000 rows\n"}, "long inputs, in the user");
  for (const char* frames : {"Videos with more than 300 frames run out of memory every time.\n",
                             "I am on the latest upstream main. Videos with more than 300 frames run out of memory.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + frames, "long inputs, in the user")) << frames;
  }
  // The model's call cut from the graph, or a path built under the comment: no outputs kept.
  const std::string detached =
      "Decode\n# Instantiate a pretrained EnCodec model\nmodel = EncodecModel.encodec_model_24khz()\nframes = []\n"
      "for offset in range(0, 1440000, 480):\n    frames.append(model._decode_frame(codes).detach().cpu())\n" + kPytorch2Oom;
  EXPECT_FALSE(evidence_holds(detached, "appended to a list in an inference loop"));
  const std::string paths =
      "Files\n# Download the pretrained model\nmodel_dir = Path(snapshot_download(repo))\nfiles = []\nfor name in names:\n"
      "    files.append(model_dir.joinpath(name))\n" + kPytorch2Oom;
  EXPECT_FALSE(evidence_holds(paths, "appended to a list in an inference loop"));
  // "still grows" with the input's size or as expected: no leak.
  expect_evidence_absent(oom, {"With gradient checkpointing on, memory still grows quadratically with the sequence length.\n",
                               "Even with flash attention the memory still increases linearly with batch size, as expected.\n"},
      "memory grows step after step");
}

// The variants the held96 reviewer found missed: a card counted by its digits, a model's size in words,
// frames counted in Chinese or by a named count, the model held on self or appended by "+= [...]",
// growth told "still goes up / climbing" or 一直在涨.
TEST(DiagnoseKinds41, Held96ReviewerMisses) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  EXPECT_EQ(diagnose_log("多卡训练问题\n8卡训练也爆，batch size 已经是1了。\n", rules_alone()).size(), 1u);
  const std::string worded =
      "EVA CLIP GPU out of memory\nmodel = AutoModel.from_pretrained(path, torch_dtype=torch.float16).to('cuda').eval()\n"
      "When running the 8 billion parameter EVA CLIP model the following error comes\n"
      "OutOfMemoryError: CUDA out of memory. Tried to allocate 32.00 MiB. GPU 0 has a total capacity of 14.75 GiB of which "
      "5.06 MiB is free. Of the allocated memory 14.52 GiB is allocated by PyTorch, and 127.44 MiB is reserved by PyTorch "
      "but unallocated.\n";
  EXPECT_TRUE(evidence_holds(worded, "the named model's 16-bit weights alone", OomCause::kStaticModelTooLarge));
  std::string hyphened = worded;
  hyphened.replace(hyphened.find("8 billion parameter"), 19, "8-billion-parameter");
  EXPECT_TRUE(evidence_holds(hyphened, "the named model's 16-bit weights alone"));
  EXPECT_TRUE(evidence_holds("support 14B full training\nWhen training a 14 billion parameter model (DiT), encountering CUDA "
                             "Out Of Memory errors\n",
                             "more than any single GPU holds"));
  // (A count of tokens in words is no model's size.)
  EXPECT_FALSE(evidence_holds("support full training\nWhen training on 14 billion tokens, encountering CUDA Out Of Memory "
                              "errors\n",
                              "more than any single GPU holds"));
  for (const char* frames : {"超过300帧的视频就会显存不足。\n", "frame_count = 1680, the model runs out of memory.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + frames, "long inputs, in the user", OomCause::kActivationsSeqlen)) << frames;
  }
  expect_evidence_absent(oom, {"每帧单独处理，处理到第500帧时显存不足。\n", "视频帧率是300帧/秒。\n", "从视频中抽帧，每个视频抽300帧。\n",
                               "frame_count = 16, the model runs out of memory.\n"},
      "long inputs, in the user");
  const std::string on_self =
      "Memory leak in decoding process\nMemory usage grows over time eventually resulting in OOM.\n```\n"
      "# Instantiate a pretrained EnCodec model\nself.model = EncodecModel.encodec_model_24khz()\nframes = []\n"
      "for offset in range(0, 1440000, 480):\n    encoded = self.model._encode_frame(wav[:, :, offset: offset + 480])\n"
      "    frames.append(self.model._decode_frame(encoded))\n```\n";
  EXPECT_TRUE(evidence_holds(on_self, "appended to a list in an inference loop", OomCause::kEvalWithoutNoGrad));
  std::string added = on_self;
  added.replace(added.find("frames.append(self.model._decode_frame(encoded))"), 49, "frames += [self.model._decode_frame(encoded)]");
  EXPECT_TRUE(evidence_holds(added, "appended to a list in an inference loop"));
  std::string added_detached = added;
  added_detached.replace(added_detached.find("(encoded)]"), 10, "(encoded).detach()]");
  EXPECT_FALSE(evidence_holds(added_detached, "appended to a list in an inference loop"));
  for (const char* still : {"I add torch.cuda.empty_cache() and gc.collect(). However, the memory still goes up.\n",
                            "I add torch.cuda.empty_cache() and gc.collect(). However, the memory is still climbing.\n",
                            "I add torch.cuda.empty_cache() and gc.collect(). However, the memory keeps going up.\n",
                            "I add torch.cuda.empty_cache() and gc.collect()，但是显存还是一直在涨。\n"}) {
    EXPECT_TRUE(evidence_holds(oom + still, "memory grows step after step", OomCause::kLeakAcrossSteps)) << still;
  }
  // "goes up" once, to a peak, is no growth.
  expect_evidence_absent(oom, {"During the backward pass the memory goes up to 22 GB.\n"}, "memory grows step after step");
}

// held97's kinds: PaddlePaddle's DataLoader bus error, ResourceExhaustedError told in words or as a title
// alone, the CUDA error cut short, memory told not large enough; a recording told hours long and a text
// told by its hundreds of words; batch size 1 told running ("an epoch takes 4 hrs"); a failure "before
// training finishes" is no load.
TEST(DiagnoseKinds42, Held97Kinds) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  auto record = [](const std::string& log) {
    const std::vector<Diagnosis> ds = diagnose_log(log, rules_alone());
    return ds.size() == 1 && ds[0].oom ? *ds[0].oom : OomRecord{};
  };
  const OomRecord bus = record("Bus\nERROR: Unexpected BUS error encountered in DataLoader worker. This might be caused by "
                               "insufficient shared memory (shm), please check whether use_shared_memory is set\n");
  EXPECT_EQ(bus.family, "oom_killer");
  EXPECT_EQ(top_cause("Bus\nERROR: Unexpected BUS error encountered in DataLoader worker. This might be caused by "
                      "insufficient shared memory (shm)\n"),
            OomCause::kCpuRam);
  expect_each_reports({"inaccurate detection\nif I change the resize process, i got resource exhausted error.\n",
                       "ResourceExhaustedError\nDear maintainer,\nI have the following error while running your code.\n",
                       "Large sets\nIt fails with CUDA out of mem error.\n",
                       "Long audio\nIn ESPNet2, either my gpu memory nor my cpu memory isn't large enough to run the code.\n"});
  expect_none_reports({"Quota\nThe API returned a resource exhausted error (quota exceeded, HTTP 429).\n",
                       "Handling\nHow to handle a resource exhausted error in a retry loop?\n",
                       "Code\nexcept ResourceExhaustedError:\n",
                       "Sizing\nIf 32 GB memory is not large enough, what's the right memory size for my study?\n"});
  // A message below a retelling stays the report: "results in a resource exhausted error" in prose
  // waits for every other reading.
  const std::vector<Diagnosis> retold = diagnose_log(
      "fastmri\nRunning the workload w torchrun results in a resource exhausted error.\n"
      "W tensorflow/core/framework/op_kernel.cc:1733] RESOURCE_EXHAUSTED: MemoryError: Unable to allocate 2.00 GiB\n",
      rules_alone());
  ASSERT_EQ(retold.size(), 1u);
  ASSERT_TRUE(retold[0].oom);
  EXPECT_EQ(retold[0].oom->line, 3);
  // Long inputs: a recording hours long, a text of hundreds of words.
  for (const char* longer : {"The time length of my audio file is more than 1 hour, so there are some problems.\n",
                             "I am trying to transcribe a 3-hour audio file.\n",
                             "I tried to compute this with a sentence of 350 words and got GPU OOM.\n",
                             "The prompt is a text of 2,000 words and the GPU runs out of memory.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + longer, "long inputs, in the user", OomCause::kActivationsSeqlen)) << longer;
  }
  expect_evidence_absent(oom, {"I fine-tune on 100 hours of speech data from one recording studio.\n",
                               "After 5 hours of training on the audio dataset it crashes.\n",
                               "Each sentence has 350 words at most.\n",
                               "PROGRESS: at sentence #1133940000, processed 5642208802 words\n",
                               "A sentence of 120 words fails too.\n"},
      "long inputs, in the user");
  // Batch size 1 told running, by an epoch's time: no "fails even at batch size 1".
  EXPECT_FALSE(evidence_holds(oom + "With batch size = 1, an epoch takes 4 hrs, thus 3000 epochs = 500 days.\n",
                              "fails even at batch size 1"));
  EXPECT_TRUE(evidence_holds(oom + "Even with batch size 1 it still runs out of memory.\n", "fails even at batch size 1"));
  // "Before training finishes" is during training, not the model's load.
  EXPECT_FALSE(evidence_holds(oom + "With lots of VRAM you might not run out before training finishes.\n",
                              "fails while loading / placing the model"));
  EXPECT_TRUE(evidence_holds(oom + "It runs out of memory before training, while loading the model.\n",
                             "fails while loading / placing the model"));
}

// A code-reading helper's counter-examples to the held97 round (and to 211b65c's readings): the false
// firings it found and the variants it found missed, a sample of each.
TEST(DiagnoseKinds42, Held97Counterexamples) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  // Reports: an API's limit, a condition or a feature asked for are none; the wording's variants are.
  expect_none_reports({"Gemini chat model fails\nUsing ChatGoogleGenerativeAI in a LangChain agent loop; after about 10 calls "
                       "it keeps throwing resource exhausted error.\n",
                       "DeepSpeed\nWhen the GPU memory isn't large enough, DeepSpeed offloads the optimizer; is that done "
                       "automatically?\n",
                       "Feature\nPlease fall back to CPU automatically in case the GPU memory is not large enough.\n"});
  expect_each_reports({"Bus\nSetting use_shared_memory=True, training dies:\nERROR: Unexpected BUS error encountered in "
                       "DataLoader worker.\nRuntimeError: DataLoader 1 workers exit unexpectedly, pids: 23051\n",
                       "tf.errors.ResourceExhaustedError\nTraining my model on the full images.\n",
                       "Training\nI got a ResourceExhausted error on the second epoch.\n",
                       "Training\nIt fails with CUDA out-of-mem error.\n",
                       "Card\nMy GPU memory isn\xe2\x80\x99t large enough for the 13B model.\n",
                       "Card\nMy VRAM isn't big enough for the 13B model.\n",
                       "Card\nMy GPU memory wasn't large enough for the 13B model.\n"});
  // A distillation's teacher counted in words is no model that runs.
  EXPECT_FALSE(evidence_holds("Distill\nI am distilling a 70 billion parameter teacher into a 1 billion parameter student "
                              "on an A100 80 GB at batch 64.\n" + kPytorch2Oom,
                              "the named model's"));
  EXPECT_TRUE(evidence_holds("support 14B full training\nWhen training a 14 billion trainable parameters model, encountering "
                             "CUDA Out Of Memory errors\n",
                             "more than any single GPU holds"));
  // Growth: "goes up to" a peak, a setting raised, a rise denied (不存在涨) or told now (现在涨到) are none; "went
  // up every epoch" and 不停地涨 are.
  expect_evidence_absent(oom, {"Memory usage goes up to 22 GB during model loading and then it keeps crashing at the first step.\n",
                               "As I keep going up in image resolution, the memory goes up.\n",
                               "显存占用一直很平稳，不存在涨的情况，但是第一步就爆显存。\n",
                               "一直用这个脚本推理，现在涨到显存22G就爆了。\n"},
      "memory grows step after step");
  for (const char* grows : {"GPU memory went up every epoch: 10 GB, 14 GB, 18 GB, then OOM in epoch 4.\n",
                            "训练过程中显存不停地涨，最后爆显存。\n"}) {
    EXPECT_TRUE(evidence_holds(oom + grows, "memory grows step after step", OomCause::kLeakAcrossSteps)) << grows;
  }
  // Frames: an index (第300帧), one frame at a time, a progress log's count are no long input.
  expect_evidence_absent(oom, {"视频推理每次都是处理到第300帧左右就报错。\n",
                               "I open the video with cv2 (frame_count = 1680) and run YOLO on one frame at a time.\n",
                               "[video] frame_count=1680 gpu_mem=11.1GB\n"},
      "long inputs, in the user");
  for (const char* frames : {"300多帧的视频就会显存不足。\n", "The clip has a frame count of 1680 and runs out of memory.\n",
                             "frameCount = 1680, and the model runs out of memory.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + frames, "long inputs, in the user")) << frames;
  }
  // Hours and words: the run's or the user's time, a stream, a chunk's or a cap's size, text to write are none.
  expect_evidence_absent(oom, {"I have spent 5 hours debugging this OOM with my audio file.\n",
                               "I run the detector on the RTSP camera video and about an hour later it crashes.\n",
                               "I split the document into chunks of 500 words and memory grows with every chunk.\n",
                               "The input is truncated to 400 words.\n",
                               "I ask the model to write a 2000 word essay.\n"},
      "long inputs, in the user");
  for (const char* longer : {"My inputs are around 2000 words long.\n", "It is a 5k-word document.\n",
                             "The document has 2000+ words.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + longer, "long inputs, in the user")) << longer;
  }
  // Batch size 1 running told by a speed; a load's time is no step's.
  EXPECT_FALSE(evidence_holds(oom + "With batch_size=1 training runs at 3.2 s/it, but batch_size=2 gives OOM.\n",
                              "fails even at batch size 1"));
  EXPECT_TRUE(evidence_holds(oom + "Even with batch size 1, each run took 5 minutes to load the checkpoint and then it OOMs "
                                   "at the very first step.\n",
                             "fails even at batch size 1"));
  // "Before training has finished / is complete / reaches ..." is during training; "before training finishes
  // its setup" is before it.
  expect_evidence_absent(oom, {"It crashes in epoch 7, before training has finished.\n",
                               "It crashes before training is complete.\n",
                               "It crashes before training reaches the last epoch.\n"},
      "fails while loading / placing the model");
  EXPECT_TRUE(evidence_holds(oom + "It crashes right after the model is loaded, before training finishes its setup.\n",
                             "fails while loading / placing the model"));
  // Appended outputs: "+=[" without spaces, with a space inside, or extend([...]).
  const std::string base =
      "Decode\n# Instantiate a pretrained EnCodec model\nself.model = EncodecModel.encodec_model_24khz()\nframes = []\n"
      "for c in codes:\n    APPEND\n" + kPytorch2Oom;
  for (const char* line : {"frames+=[self.model._decode_frame(c)]", "frames += [ self.model._decode_frame(c) ]",
                           "frames.extend([self.model._decode_frame(c)])"}) {
    std::string log = base;
    log.replace(log.find("APPEND"), 6, line);
    EXPECT_TRUE(evidence_holds(log, "appended to a list in an inference loop")) << line;
  }
}

// Misses the held97 reviewer listed and session 61 left open, mended in session 62 before any held98
// text was read: memory that "goes up and up" on a line with no other gate word, another measure going up
// (the loss, a count of workers) read as growth, and a recording's hours written "2h", "1.5 hrs" or as one
// file's "3 hours of audio".
TEST(DiagnoseKinds43, Held97ReviewerMisses) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  for (const char* grows : {"Memory goes up and up every iteration until it OOMs around step 3000.\n",
                            "My memory went up every epoch.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + grows, "memory grows step after step", OomCause::kLeakAcrossSteps)) << grows;
  }
  expect_evidence_absent(oom, {"The loss keeps going up after epoch 2 and then the GPU memory runs out.\n",
                               "The number of dataloader workers keeps going up and then the memory runs out.\n"},
      "memory grows step after step");
  for (const char* hours : {"I have a single file with 3 hours of audio.\n", "My audio is a 2h recording of a meeting.\n",
                            "My audio file is 1.5 hrs long.\n", "The video is a 3hr lecture.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + hours, "long inputs, in the user", OomCause::kActivationsSeqlen)) << hours;
  }
  // A dataset's hours, the run's own time, a share of hours are none.
  expect_evidence_absent(oom, {"I fine-tune on 300 hours of audio from the LibriSpeech files.\n",
                               "The recording job crashed after 2h of running.\n",
                               "We transcribe 24h of meeting audio each day, one 10-minute file at a time.\n"},
      "long inputs, in the user");
}

// held98's round by kind (session 62): a regression told as "since last update" or as the versions up to
// one working; a recording's hours "of duration"; the CUDA error named with underscores; PyTorch's CPU
// allocator or the JVM's heap named as what failed.
TEST(DiagnoseKinds43, Held98Kinds) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  EXPECT_TRUE(evidence_holds("Since last update OOM\n" + kPytorch2Oom + "Used to work just fine before\n", "a regression told",
                             OomCause::kOther));
  EXPECT_TRUE(evidence_holds(oom + "Version 0.9.11 and earlier seems to work fine.\n", "a regression told"));
  expect_evidence_absent(oom, {"Since the last update of the dataset the loader runs out of memory.\n",
                               "Earlier I tried it and it seems to work fine with batch 4.\n"},
      "a regression told");
  EXPECT_TRUE(evidence_holds(oom + "The issue arises with audio files close of above 2 hours of duration.\n",
                             "long inputs, in the user", OomCause::kActivationsSeqlen));
  expect_each_reports({"Minimum GPU memory\nOn a 12GB 3060 I always ran into CUDA_OUT_OF_MEMORY error no matter what I do.\n"});
  expect_none_reports({"Trainer\nWe added a retry_cuda_out_of_memory_handler hook to the trainer.\n"});
  EXPECT_EQ(top_cause("BB3\nWhen I tried to shard bb3_30B it throws an error that cpuallocator cannot allocate enough memory. I "
                      "have a machine with 60GB of RAM and 60GB of GPU memory.\n"),
            OomCause::kCpuRam);
  EXPECT_EQ(top_cause("OutOfMemoryError: Java heap space\nThe recommender fails on the full matrix.\n"), OomCause::kCpuRam);
}

// The held98 reviewer's counter-examples to the readings above (session 62), mended: memory named just
// before "goes up" is the subject whatever measure the clause names first; another measure going up (a
// length, the batch size, a norm, perplexity, a reward) is none, nor a rise by a size at a load or one
// that comes back down; hours in a model's name, a dataset's total, the run's time or a limit are no
// recording's; the user's own script or post updated is no regression, while "since the new update",
// "after the last update" and "and below work fine" are; the CUDA error's name with "_ERROR" or as
// "OUT_OF_MEMORY error" is a report, a counter's "cuda_out_of_memory: 0" is none; the CPU allocator or the
// JVM's heap denied or set against the GPU's failure is no host report; the JVM's other messages without
// their package are its messages.
TEST(DiagnoseKinds43, Held98Counterexamples) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  for (const char* grows : {"Every time I call loss.backward() the GPU memory goes up and up.\n",
                            "I store the loss in a list and memory goes up every iteration.\n",
                            "When computing accuracy on each batch the memory goes up every iteration.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + grows, "memory grows step after step", OomCause::kLeakAcrossSteps)) << grows;
  }
  expect_evidence_absent(oom, {"I use a curriculum: the max sequence length goes up every epoch (512, 1024, 2048).\n",
                               "The batch size goes up every 1000 steps (batch size warmup) and then it crashes.\n",
                               "The gradient norm goes up every step before the crash.\n",
                               "The reward goes up every iteration, but then the GPU runs out of memory.\n",
                               "Memory went up by 14GB when I loaded the model, then the first step crashes.\n",
                               "Memory goes up at the start of every step and comes back down at the end of it.\n"},
      "memory grows step after step");
  expect_evidence_absent(oom, {"I fine-tune facebook/wav2vec2-base-960h on my own audio clips.\n",
                               "Training on LibriSpeech 960h audio with batch 16.\n",
                               "I trained for 12h on the audio files and then it crashed.\n",
                               "My SLURM job has a 4h time limit; the audio clips are about 10 seconds each.\n",
                               "I have a manifest file with 300 hours of audio.\n"},
      "long inputs, in the user");
  for (const char* hours : {"Transcribing a 2h recording fails.\n", "Whisper crashes on a 3 hrs recording.\n",
                            "I have one recording containing 3 hours of audio.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + hours, "long inputs, in the user", OomCause::kActivationsSeqlen)) << hours;
  }
  expect_evidence_absent(oom, {"Since the last update of my training script I doubled the batch size to 64.\n",
                               "EDIT 2: since the last update I also tried batch size 1, same error.\n"},
      "a regression told");
  for (const char* told : {"Since the new update I get this error with the same settings.\n",
                           "After the last update I get this error with the same settings.\n",
                           "Version 0.9.11 and below work fine with the same settings.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + told, "a regression told")) << told;
  }
  expect_each_reports({"Training\nI keep getting CUDA_OUT_OF_MEMORY_ERROR when training llama-7b with batch size 8.\n",
                       "Training\nGot a CUDA OUT_OF_MEMORY error when training llama-7b with batch size 8.\n"});
  expect_none_reports({"Hang\nMy stats show cuda_out_of_memory: 0 and num_alloc_retries: 0, but training still hangs at step 0.\n"});
  for (const char* gpu : {"It's not the cpu allocator, the GPU itself runs out of memory when loading llama-13b.\n",
                          "I already gave the Java heap space 32g with -Xmx32g, but the GPU still runs out of memory.\n",
                          "I no longer get OutOfMemoryError: Java heap space after -Xmx32g; now the 4090 runs out of GPU "
                          "memory.\n"}) {
    EXPECT_NE(top_cause(std::string("Spark\n") + gpu), OomCause::kCpuRam) << gpu;
  }
  EXPECT_EQ(top_cause("Spark executor\nOutOfMemoryError: GC overhead limit exceeded\n"), OomCause::kCpuRam);
  EXPECT_EQ(top_cause("Spark executor\nOutOfMemoryError: Direct buffer memory\n"), OomCause::kCpuRam);
}

// The held98 reviewer's counter-examples that session 62 left open: memory "of" something told going up is
// the memory's growth; "per batch" is a repeat; hours and minutes written together; the versions up to one
// told fine with no "version" word; the failure's name told absent or searched for and not found is no report.
TEST(DiagnoseKinds43, Held98ReviewerLeft) {
  const std::string oom = "Title\n" + kPytorch2Oom;
  for (const char* grows : {"The memory of each dataloader worker goes up every iteration until it crashes.\n",
                            "The allocated memory goes up by about 50MB per batch.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + grows, "memory grows step after step", OomCause::kLeakAcrossSteps)) << grows;
  }
  expect_evidence_absent(oom, {"The number of workers goes up every epoch (1, 2, 4).\n",
                               "The batch size goes up by 8 per epoch until it crashes.\n"},
      "memory grows step after step");
  for (const char* hours : {"Whisper large-v3 on a 2h30m podcast crashes.\n", "A 1h45min recording fails.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + hours, "long inputs, in the user", OomCause::kActivationsSeqlen)) << hours;
  }
  expect_evidence_absent(oom, {"Release v2h3 of the tool, one recording of 10 seconds.\n"}, "long inputs, in the user");
  EXPECT_TRUE(evidence_holds(oom + "0.9.11 and older are fine; 0.9.12 runs out of memory with the same config.\n",
                             "a regression told"));
  expect_evidence_absent(oom, {"The images are 512 and older GPUs are fine with it.\n"}, "a regression told");
  expect_none_reports({"Hang\nI grep'd the log for CUDA_OUT_OF_MEMORY and found nothing; training just hangs at step 0.\n",
                       "Hang\nNo CUDA_OUT_OF_MEMORY error is raised, training just hangs at step 0.\n",
                       "Hang\nThere is no OOM, training just hangs at step 0.\n"});
  expect_each_reports({"Training\nI can't train it without OOM on a V100 with batch size 8.\n",
                       "Training\nIt is difficult to train without CUDA_OUT_OF_MEMORY errors at batch size 8.\n",
                       "Training\nNo matter what batch size I use, OOM at the first step.\n"});
}

// held99's round, by kind: the memory told short, "out" or "exceeding" in other words is a report; the
// process that "kills itself" is a kill; Lua's panic on LUA_ERRMEM is LuaJIT's heap; a Markdown-escaped
// star between an image's sides; a batch of one told failing names no batch as the cause.
TEST(DiagnoseKinds43, Held99Kinds) {
  expect_each_reports({"Multi-GPU\nHow do I use two A100s when one A100 graphics memory is insufficient?\n",
                       "Training\nThe GPU memory is not enough for the large model.\n",
                       "Training\ntry to train 1024 resolution memory out\n",
                       "Training\nMemory out \xe9\x97\xae\xe9\xa2\x98\n",
                       "Training\ncpu memory exceed during training\n",
                       "Frames\nI interpolate 4000 frames and the process kills itself after some time.\n"});
  expect_none_reports({"Offload\nWe swap memory out to disk when idle; the job hangs at step 0.\n",
                       "Allocator\nThe free memory exceeds the requested allocation, yet the job hangs at step 0.\n",
                       "Profiler\nThe memory output of the profiler is empty; the job hangs at step 0.\n",
                       "Scheduler\nIf the memory is insufficient, the scheduler waits; the job hangs at step 0.\n"});
  const auto lua = diagnose_log("Preprocess\nPANIC: unprotected error in call to Lua API (not enough memory)\n");
  ASSERT_EQ(lua.size(), 1u);
  EXPECT_EQ(lua[0].oom->subsystem, "luajit");
  EXPECT_TRUE(evidence_holds("Title\n" + kPytorch2Oom + "I am inferring a picture size \"1920\\*1080\" on a 24G GPU.\n",
                             "a long input", OomCause::kActivationsSeqlen));
  const std::string one = "Title\n" + kPytorch2Oom + "I input batchsize 1 for one gpu, but out of memory (caused by 3D convolution)\n";
  EXPECT_NE(top_cause(one), OomCause::kActivationsBatch);
  // (A batch lowered to one as the fix, or a batch of 16, is still the batch.)
  EXPECT_TRUE(evidence_holds("Title\n" + kPytorch2Oom + "Reducing the batch size to 1 fixed it (caused by the batch).\n",
                             "the user's account of the fix or the cause", OomCause::kActivationsBatch));
  EXPECT_TRUE(evidence_holds("Title\n" + kPytorch2Oom +
                                 "I set batchsize_per_gpu = 16, the memory occupation to 90%, because OOM quit the training.\n",
                             "the user's account of the fix or the cause", OomCause::kActivationsBatch));
}

// The held99 round's reviewer's counter-examples: the failure's name denied only by a word that starts right
// before it (not "Nano", "DINO", "Without LoRA OOM"), in the family heads and every pass too; the kill told
// "kills itself" by a program, not planned; a memory amount per repeat; the memory told short, out or
// exceeding only where not supposed, asked, spilled, estimated or gone; the versions up to one told by a
// version's number; "2h30"; batch size 1 told running.
TEST(DiagnoseKinds44, Held99ReviewerLeft) {
  expect_each_reports({"Jetson Nano out of memory when loading yolov8s\nIt dies at load.\n",
                       "Grounding DINO OOM on 4090\nIt dies at load.\n",
                       "Finetune\nWithout LoRA OOM right away at step 0. With LoRA r=8 it trains.\n",
                       "Data\nOn the full dataset the process eventually kills itself while building the index.\n",
                       "Training\nVRAM exceeded during training at step 312.\n",
                       "Slides\nCPU memory exceeded during feature extraction of the 40x slides; the notebook dies.\n",
                       "\xe8\xae\xad\xe7\xbb\x83\nmemory out\xe9\x97\xae\xe9\xa2\x98\n",
                       "Training\nI can't train it without OOM on a V100 with batch size 8.\n"});
  expect_none_reports({"Hang\nI didn't see any OOM, the process just stops printing.\n",
                       "Crash\nIt's not OOM, memory usage is stable at 6GB; the worker segfaults.\n",
                       "Crash\nThis isn't an out of memory problem: free -h shows 50GB available.\n",
                       "Update\nThere is still no OOM after three days of training, closing this.\n",
                       "Crash\nNo OOM here, it fails with Segmentation fault (core dumped).\n",
                       "Gone\nI grepped dmesg for \"Out of memory: Killed process\" and found nothing; the job is gone.\n",
                       "Hang\nNo CUDA_ERROR_OUT_OF_MEMORY is raised, the call just blocks forever.\n",
                       "Proposal\nWhen no step finishes for 10 minutes, the process kills itself so the launcher can restart it.\n",
                       "Scheduler\nWhen the GPU memory is insufficient, the scheduler preempts the lowest-priority requests.\n",
                       "Slow\nMaybe the GPU memory is not enough? No error is shown, just slow.\n",
                       "Segfault\nI don't think the memory is insufficient: nvidia-smi shows 20GB free. It segfaults.\n",
                       "Ray\nDuring shuffle Ray spills object store memory out, then restores it; the job finishes.\n",
                       "Estimate\nThe calculator says memory exceeds at 32k context, but it actually runs fine.\n",
                       "Advice\nIf GPU memory exceeds during training, lower the batch size.\n",
                       "Fixed\nThe RAM exceeding issue does not happen anymore, 10 epochs ran through.\n"});
  const std::string oom = "Title\n" + kPytorch2Oom;
  EXPECT_TRUE(evidence_holds(oom + "GPU memory increases by about 200MB per request until the server dies.\n",
                             "memory grows step after step", OomCause::kLeakAcrossSteps));
  expect_evidence_absent(oom, {"The GPU memory usage increases when I put more samples per batch.\n",
                               "Peak memory per batch size grows roughly linearly.\n",
                               "The memory of each dataloader worker is about 2 GB and the validation loss goes up every epoch.\n"},
      "memory grows step after step");
  for (const char* reg : {"0.9.11 and older were fine; 0.9.12 runs out of memory.\n",
                          "Everything up to 0.9.11 or earlier works fine, but 0.9.12 runs out of memory.\n"}) {
    EXPECT_TRUE(evidence_holds(oom + reg, "a regression told")) << reg;
  }
  expect_evidence_absent(oom, {"Batch sizes of 8 and below work fine, 16 runs out of memory.\n",
                               "Images of 768 and below are fine; 1024 runs out of memory.\n"},
      "a regression told");
  EXPECT_TRUE(evidence_holds(oom + "Transcribing a 2h30 podcast episode with the large model fails.\n", "long inputs, in the user",
                             OomCause::kActivationsSeqlen));
  EXPECT_NE(top_cause(oom + "I input batchsize 1 for one gpu, but out of memory (the 2D version is slower but fits).\n"),
            OomCause::kActivationsBatch);
  expect_evidence_absent(oom, {"With batch_size=1 it trains, but with batch_size=16 I get CUDA out of memory.\n",
                               "bs=1 takes 18GB, bs=2 OOMs on my 4090.\n"},
      "fails even at batch size 1");
}

// held100's round, by kind: a Chinese memory error named as what the run reported or met (报内存错误, asked
// why or not) is a report; 无法正常 / 不能正常 ("cannot ... normally") is no "normal"; the question that asks
// only for a way out after the failure is told (有办法解决吗？) does not make the failure asked; "how to run it
// without CUDA out of memory" tells the failure it wants to avoid.
TEST(DiagnoseKinds44, Held100Kinds) {
  expect_each_reports({"T\n\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88\xe4\xbd\xbf\xe7\x94\xa8\xe5\xaf\xb9\xe6\xaf\x94\xe6\x8d\x9f\xe5\xa4\xb1"
                       "\xe5\x87\xbd\xe6\x95\xb0\xe4\xbc\x9a\xe6\x8a\xa5\xe5\x86\x85\xe5\xad\x98\xe9\x94\x99\xe8\xaf\xaf\xef\xbc\x9f\n",
                       "T\nbatchsize\xef\xbc\x9d" "8\xe6\x97\xb6\xe8\xae\xad\xe7\xbb\x83\xe5\xb0\xb1\xe6\x8a\xa5" "cuda"
                       "\xe5\x86\x85\xe5\xad\x98\xe9\x94\x99\xe8\xaf\xaf\n",
                       "T\n\xe6\x8f\x90\xe5\x8f\x96\xe7\x89\xb9\xe5\xbe\x81\xe6\x97\xb6\xef\xbc\x8c\xe4\xbc\x9a\xe7\x88\x86\xe5\x86\x85"
                       "\xe5\xad\x98\xe6\x97\xa0\xe6\xb3\x95\xe6\xad\xa3\xe5\xb8\xb8\xe8\xbf\x90\xe8\xa1\x8c\xef\xbc\x8c\xe6\x9c\x89\xe5"
                       "\x8a\x9e\xe6\xb3\x95\xe8\xa7\xa3\xe5\x86\xb3\xe5\x90\x97\xef\xbc\x9f\n",
                       "T4\nhow run null text inversion in colab T4 gpu without CUDA out of memory\n"});
  expect_none_reports({"T\n\xe6\xb2\xa1\xe6\x9c\x89\xe6\x8a\xa5\xe5\x86\x85\xe5\xad\x98\xe9\x94\x99\xe8\xaf\xaf\xef\xbc\x8c"
                       "\xe5\x8f\xaa\xe6\x98\xaf\xe5\x8d\xa1\xe4\xbd\x8f\xe4\xba\x86\n",
                       "T\n\xe4\xbc\x9a\xe4\xb8\x8d\xe4\xbc\x9a\xe6\x8a\xa5\xe5\x86\x85\xe5\xad\x98\xe9\x94\x99\xe8\xaf\xaf\xef\xbc\x9f\n",
                       "Hang\nThe job finishes without CUDA out of memory now, thanks.\n"});
}
