// `oomkit diagnose LOG|-`: finds every OOM report in a log, classifies it and prints ranked
// findings; with --model and the run's settings the findings are tied to the estimator.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "run_flags.h"
#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/core/units.h"
#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/core/timeline.h"
#include "oomkit/diagnose/oom_report.h"
#include "oomkit/diagnose/word_prior.h"
#include "oomkit/diagnose/playbook.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/gpus.h"

namespace oomkit {
// Whether the oomkit-train built beside this oomkit has --attention sdpa (LibTorch >= 2.0; the
// trainer's own check is sdpa_available() in src/train/model.cpp). Set by CMake, so the torch-free
// `oomkit` knows it without loading LibTorch.
#ifdef OOMKIT_TRAINER_HAS_SDPA
constexpr bool kTrainerHasSdpa = true;
#else
constexpr bool kTrainerHasSdpa = false;
#endif
}  // namespace oomkit

namespace oomkit::cli {

namespace {

struct DiagnoseCliOptions {
  std::string log_path;  // a file, or "-" for stdin
  std::string timeline;  // an `oomkit train` timeline.jsonl: marks, budget, the oom event
  bool json = false;
  bool described = false;  // the text reports an OOM in other words: no report found = one report
  bool no_word_prior = false;  // rank by the rules alone (no corpus word-similarity evidence)
  std::string model;     // --model name or config.json path; enables the estimator
  TrainingSetup setup;   // -b, -t, --grad-accum, --checkpoint-every (run_flags.h); not given: the defaults
  SetupFlags setup_flags;  // the enum flags and --device (empty: not given)
  bool setup_given = false;  // any of them given
  std::string memory, gpu, overhead;
  int64_t dp = 0;
  int zero = -1;
  bool offload_optimizer = false;
};

// The log's bytes. A path must be a regular file (a directory, FIFO or device such as
// /dev/zero is refused before reading: it would block or never end); stdin is read up to
// kMaxLogBytes. Binary input (NUL bytes or mostly control bytes in its first 64 KiB) is refused:
// "10 OOMs found in a binary" would be a silent wrong answer. InputError (exit 2) otherwise.
constexpr size_t kMaxLogBytes = size_t{4} << 30;

void refuse_binary(const std::string& path, std::string_view text) {
  if (looks_binary(text)) {
    throw InputError(path == "-" ? "stdin" : path, "binary data, not a text log",
                     "pass the console output / traceback as text");
  }
}

std::string read_input(const std::string& path) {
  std::string text;
  if (path == "-") {
    char buf[1 << 16];
    bool checked = false;
    while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
      text.append(buf, static_cast<size_t>(std::cin.gcount()));
      if (!checked && text.size() >= (1u << 16)) {
        refuse_binary(path, text);
        checked = true;
      }
      if (text.size() > kMaxLogBytes) throw InputError("stdin", "more than 4 GiB of log", "pass the part around the OOM");
    }
    refuse_binary(path, text);
    return text;
  }
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    throw InputError(path, "cannot read the log file (no such file)", "pass a readable file, or - for stdin");
  }
  if (std::filesystem::is_directory(status)) throw InputError(path, "is a directory, not a log file", "pass a log file");
  if (!std::filesystem::is_regular_file(status)) {
    throw InputError(path, "not a regular file (a FIFO, socket or device)", "save the log to a file, or pipe it to - (stdin)");
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxLogBytes) throw InputError(path, "larger than 4 GiB", "pass the part of the log around the OOM");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot read the log file", "pass a readable file, or - for stdin");
  text.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path, "error while reading the log file");
  refuse_binary(path, text);
  return text;
}

// JSON output never throws on text from the log: invalid UTF-8 becomes U+FFFD.
std::string dump_json(const nlohmann::json& j) { return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace); }

void flush_stdout() {
  std::cout.flush();
  if (!std::cout) throw InputError("stdout", "write failed (disk full or closed pipe)");
}

DiagnoseOptions build_options(const DiagnoseCliOptions& o) {
  DiagnoseOptions opts;
  const bool run_flags = o.setup_given || o.dp || o.zero >= 0 || o.offload_optimizer;
  if (o.model.empty()) {
    if (run_flags) throw InputError("--model", "run settings were given without a model", "add --model gpt2 (or a config.json path)");
    if (!o.memory.empty()) parse_size_flag(o.memory, "--memory", SizeRule::kPositive);  // still validate the flags
    if (!o.gpu.empty()) find_gpu(o.gpu);
    return opts;
  }
  RunSettings run;
  run.model = resolve_model_config(o.model);
  run.setup = o.setup;
  TrainingSetup& s = run.setup;
  apply_setup_flags(o.setup_flags, s);
  if (o.dp) s.parallel.data_parallel = o.dp;
  if (o.zero >= 0) s.parallel.zero_stage = o.zero;
  s.parallel.offload_optimizer = o.offload_optimizer;
  if (!o.overhead.empty()) s.overhead_bytes = parse_size_flag(o.overhead, "--overhead", SizeRule::kZeroAllowed);
  if (!s.cuda && o.overhead.empty()) s.overhead_bytes = 0;  // --device cpu: no CUDA context
  s.validate(run.model);
  if (!o.memory.empty() && !o.gpu.empty()) throw InputError("--gpu", "give --gpu or --memory, not both");
  if (!o.memory.empty()) run.capacity_bytes = parse_size_flag(o.memory, "--memory", SizeRule::kPositive);
  if (!o.gpu.empty()) run.capacity_bytes = find_gpu(o.gpu).capacity_bytes;
  opts.run = run;
  opts.estimate = [](const ModelConfig& m, const TrainingSetup& t) { return estimate_memory(m, t); };
  return opts;
}

// --timeline: the playbook offline (no probes): leak regression over step_start marks, the
// phase that crossed the limit, the oom event's message, the budget.
int run_timeline(const DiagnoseCliOptions& o, const DiagnoseOptions& opts) {
  PlaybookInput in = playbook_input_from_timeline(read_run_records(o.timeline));
  if (!o.log_path.empty() && !in.oom) {
    auto records = parse_oom_log(read_input(o.log_path));
    if (!records.empty()) in.oom = records.front();
  }
  if (opts.run) {
    const int64_t budget = in.run.capacity_bytes;
    in.run = *opts.run;
    if (in.run.capacity_bytes <= 0) in.run.capacity_bytes = budget;
    in.estimate = opts.estimate;
  }
  if (!in.oom && in.marks.empty()) {
    std::cout << "no OOM and no marks found in " << o.timeline << "\n";
    return kExitOk;
  }
  if (!in.oom) {
    // A run that did not run out of memory: there is no failed step to diagnose, so the
    // playbook (which reads its marks as the steps before an OOM) does not run.
    const TimelineMark* peak = &in.marks.front();
    for (const TimelineMark& m : in.marks) {
      if (m.peak_allocated_bytes > peak->peak_allocated_bytes) peak = &m;
    }
    if (o.json) {
      std::cout << dump_json(nlohmann::json{{"oom", false},
                                            {"timeline", o.timeline},
                                            {"marks", in.marks.size()},
                                            {"first_step", in.marks.front().step},
                                            {"last_step", in.marks.back().step},
                                            {"peak_allocated_bytes", peak->peak_allocated_bytes},
                                            {"peak_step", peak->step},
                                            {"peak_phase", peak->phase}})
                << "\n";
    } else {
      std::cout << "no OOM in " << o.timeline << ": the run did not run out of memory (" << in.marks.size()
                << " marks, steps " << in.marks.front().step << ".." << in.marks.back().step << "; peak allocated "
                << format_bytes(peak->peak_allocated_bytes) << " at step " << peak->step << ", " << peak->phase
                << ")\n"
                << "its memory over time: oomkit report " << o.timeline << "\n";
    }
    flush_stdout();
    return kExitOk;
  }
  const PlaybookResult result = run_playbook(in, {});
  if (o.json) std::cout << dump_json(oom_report_json(result)) << "\n";
  else std::cout << oom_report_text(result);
  flush_stdout();
  return kExitOk;
}

int run_diagnose(const DiagnoseCliOptions& o) {
  const DiagnoseOptions opts = build_options(o);
  if (!o.timeline.empty()) {
    if (o.described) throw InputError("--described", "reads a log's text, not a --timeline", "give the log instead");
    return run_timeline(o, opts);
  }
  if (o.log_path.empty()) throw InputError("log", "no input", "give a log file, - for stdin, or --timeline FILE");
  const std::string text = read_input(o.log_path);
  DiagnoseOptions with_build = opts;
  with_build.sdpa_supported = kTrainerHasSdpa;
  with_build.described = o.described;
  static const WordPriorModel kNoWords;  // an empty model: no word weighs (weigh_word_prior())
  if (o.no_word_prior) with_build.word_prior = &kNoWords;
  // Each report is printed as it is made, so a log of 100k reports is never held whole (in text
  // or JSON). The JSON is the one object {"reports": [...], "source": ...} that dump_json() of it
  // all would print, byte for byte (keys sorted, two-space indent).
  size_t reports = 0;
  for_each_diagnosis(text, with_build, [&](size_t i, size_t count, Diagnosis&& d) {
    reports = count;
    if (o.json) {
      if (i == 0) std::cout << "{\n  \"reports\": [\n";
      const std::string one = dump_json(oom_report_json(d));
      std::string indented;
      indented.reserve(one.size() + one.size() / 8);
      indented += "    ";
      for (char c : one) {
        indented += c;
        if (c == '\n') indented += "    ";
      }
      std::cout << indented << (i + 1 < count ? ",\n" : "\n");
      if (i + 1 == count) std::cout << "  ],\n  \"source\": " << dump_json(nlohmann::json(o.log_path)) << "\n}\n";
    } else {
      if (count > 1) std::cout << "=== OOM " << i + 1 << " of " << count << " ===\n";
      std::cout << oom_report_text(d) << (i + 1 < count ? "\n" : "");
    }
    if (!std::cout) flush_stdout();  // a closed pipe or a full disk: stop reading the log
  });
  if (o.json && reports == 0) {
    const nlohmann::json j{{"source", o.log_path}, {"reports", nlohmann::json::array()}, {"message", "no OOM found"}};
    std::cout << dump_json(j) << "\n";
  }
  if (o.json || reports > 0) {
    flush_stdout();
    return kExitOk;
  }
  std::cout << "no OOM found in " << (o.log_path == "-" ? std::string("stdin") : o.log_path) << " ("
            << format_bytes(static_cast<int64_t>(text.size())) << " read" << (o.described ? ": the text is blank" : "")
            << ")\n";
  if (!o.described) {
    std::cerr << "hint: if the text tells of an out-of-memory failure without its message, --described reads it as one "
                 "report\n";
  }
  flush_stdout();
  return kExitOk;
}

}  // namespace

Subcommand add_diagnose_command(CLI::App& parent) {
  auto opts = std::make_shared<DiagnoseCliOptions>();
  CLI::App* app = parent.add_subcommand(
      "diagnose", "Find every out-of-memory report in a log, classify its cause and print ranked findings");
  app->footer(
      "Examples:\n"
      "  oomkit diagnose train.log                   # a log holding PyTorch's out-of-memory error\n"
      "  oomkit diagnose train.log --model llama-2-7b --batch-size 8 --seq-len 4096 --precision bf16-mixed\n"
      "  oomkit diagnose - < train.log               # or: python train.py 2>&1 | oomkit diagnose -\n"
      "  oomkit diagnose train.log --json > oom_report.json\n"
      "  oomkit diagnose --described issue.txt       # an issue's text that tells of the OOM in its own words\n"
      "  oomkit diagnose --timeline runs/demo/timeline.jsonl");
  app->add_option("log", opts->log_path, "Log file (console output, traceback, pasted issue), or - for stdin")->type_name("FILE");
  app->add_option("--timeline", opts->timeline, "An `oomkit train` timeline.jsonl: leak regression, crossing phase, the oom event")->type_name("FILE");
  app->add_flag("--json", opts->json, "Print {\"source\",\"reports\":[oom_report.json objects]}");
  app->add_flag("--described", opts->described,
                "The text reports an out-of-memory failure without its message (an issue's description): where no "
                "report is found, read the whole text as one (family \"described\", no sizes)");
  app->add_flag("--no-word-prior", opts->no_word_prior,
                "Rank by the rules alone: no evidence from the report's words resembling the labelled corpus's reports "
                "(the word prior), which otherwise orders candidates the rules leave close");
  app->add_option("--model", opts->model, "Model: shipped name (gpt2, llama-2-7b, ...), a config.json, a folder holding one or ORG/NAME in the Hugging Face cache; ties findings to the estimator")->type_name("NAME|FILE");
  add_setup_flags(app, opts->setup, opts->setup_flags, RunFlagsFor::kDiagnose);
  app->add_option("--dp", opts->dp, "Data-parallel GPUs")->check(positive_check());
  app->add_option("--zero", opts->zero, "ZeRO stage 0-3")->check(CLI::Range(0, 3));
  app->add_flag("--offload-optimizer", opts->offload_optimizer, "Optimizer state on CPU");
  app->add_option("--memory", opts->memory, std::string("Device capacity (default: from the message), ") + kSizeHelp)
      ->check(size_check(SizeRule::kPositive));
  app->add_option("--gpu", opts->gpu, "Device capacity from the catalog (oomkit gpus), e.g. a100-80gb");
  app->add_option("--overhead", opts->overhead, std::string("CUDA context + workspaces (default 500MiB; 0: none), ") + kSizeHelp)
      ->check(size_check(SizeRule::kZeroAllowed));
  return {app, [opts, app]() -> int {
            opts->setup_given = setup_flags_given(*app);
            return run_diagnose(*opts);
          }};
}

}  // namespace oomkit::cli
