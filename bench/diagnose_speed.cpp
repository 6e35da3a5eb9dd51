// diagnose_speed: how fast `oomkit diagnose` reads logs (issue 10 item 6). Builds two seeded
// synthetic logs in memory and times for_each_diagnosis() (as `oomkit diagnose` reads a log: each
// report printed and dropped as it is made), then diagnose_log() (every report kept) and the JSON
// of every report beside it:
//   1. a training log of --mb MB (step lines with loss/lr/memory, tqdm progress bars with CR,
//      warnings, a traceback and an OOM every ~2 MB, ANSI colour, rank prefixes);
//   2. --ooms OOM lines (PyTorch 2.x messages with seeded sizes, every one distinct).
// Prints MB/s and reports/s of for_each_diagnosis() (CPU time of the process; wall time beside
// it). With --check, exits 1 when either log is slower than the bound scaled to its size:
// 100 MB in 3 s (33.3 MB/s) and 100k OOM lines in 5 s (20k/s).
//   diagnose_speed --mb 100 --ooms 100000          # the sizes
//   diagnose_speed --mb 20 --ooms 20000 --check    # the ctest run
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/oom_report.h"

using namespace oomkit;

namespace {

std::string training_log(size_t bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::string log;
  log.reserve(bytes + 4096);
  int64_t step = 0;
  size_t next_oom = 2 << 20;
  while (log.size() < bytes) {
    const double r = u(rng);
    ++step;
    if (r < 0.70) {
      log += fmt::format("[rank{}]: 2024-05-11 14:10:{:02d},224 INFO step {} | loss {:.4f} | lr {:.2e} | mem {:.2f} GiB | "
                         "tok/s {:.0f}\n", step % 8, step % 60, step, 2.0 + u(rng), 3e-4 * u(rng), 10.0 + u(rng), 1e5 * u(rng));
    } else if (r < 0.85) {
      log += fmt::format(" {:3d}%|\x1b[32m{}\x1b[0m| {}/{} [00:{:02d}<01:00, {:.2f}it/s]\r", static_cast<int>(100 * u(rng)),
                         std::string(static_cast<size_t>(20 * u(rng)), '#'), step, 100000, step % 60, 10 * u(rng));
    } else if (r < 0.95) {
      log += "/usr/lib/python3/site-packages/torch/utils/checkpoint.py:31: UserWarning: None of the inputs have "
             "requires_grad=True. Gradients will be None\n";
    } else {
      log += fmt::format("{{'eval_loss': {:.4f}, 'eval_runtime': {:.2f}, 'epoch': {:.2f}}}\n", 2.0 + u(rng), 30 * u(rng),
                         step / 1000.0);
    }
    if (log.size() >= next_oom) {
      next_oom += 2 << 20;
      log += "Traceback (most recent call last):\n  File \"train.py\", line 120, in <module>\n    loss.backward()\n"
             "  File \"/usr/lib/python3/site-packages/torch/_tensor.py\", line 522, in backward\n";
      log += fmt::format("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {:.2f} MiB. GPU 0 has a total "
                         "capacity of 79.15 GiB of which {:.2f} MiB is free. Of the allocated memory {:.2f} GiB is "
                         "allocated by PyTorch, and {:.2f} MiB is reserved by PyTorch but unallocated.\n",
                         100 + 900 * u(rng), 50 * u(rng), 70 + 5 * u(rng), 500 * u(rng));
    }
  }
  return log;
}

std::string oom_lines(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::string log;
  for (int64_t i = 0; i < n; ++i) {
    log += fmt::format("[rank{}]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {:.2f} MiB. GPU {} has a "
                       "total capacity of 79.15 GiB of which {:.2f} MiB is free. Of the allocated memory {:.2f} GiB is "
                       "allocated by PyTorch, and {:.2f} MiB is reserved by PyTorch but unallocated.\n",
                       i % 8, 1 + 999 * u(rng), i % 8, 100 * u(rng), 60 + 15 * u(rng), 900 * u(rng));
  }
  return log;
}

// CPU time of this process: the machine may be shared (the CI and development machines run
// several builds at once), and wall time then measures the neighbours, not the diagnoser.
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

struct Timing {
  double seconds = 0;       // CPU, diagnosing as `oomkit diagnose` does: each report handed over as made
  double wall_seconds = 0;
  size_t reports = 0;
  double kept_seconds = 0;  // CPU, diagnose_log(): every report kept in one vector
  double json_seconds = 0;  // CPU, rendering every report's oom_report.json (not in the bound)
  size_t json_bytes = 0;
};

Timing run(const std::string& log) {
  Timing t;
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_seconds();
  for_each_diagnosis(log, {}, [&](size_t, size_t, Diagnosis&&) { ++t.reports; });
  const double c1 = cpu_seconds();
  const auto t1 = std::chrono::steady_clock::now();
  t.seconds = c1 - c0;
  t.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
  const std::vector<Diagnosis> ds = diagnose_log(log);
  const double c2 = cpu_seconds();
  t.kept_seconds = c2 - c1;
  for (const auto& d : ds) t.json_bytes += oom_report_json(d).dump().size();
  t.json_seconds = cpu_seconds() - c2;
  if (ds.size() != t.reports || (t.json_bytes == 0 && !ds.empty())) std::abort();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  double mb = 100;
  int64_t ooms = 100000;
  bool check = false;
  double slack = 1.0;  // --slack 0.1: check against a tenth of the bound (ctest on a loaded 2-core CI machine)
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--mb" && i + 1 < argc) mb = std::atof(argv[++i]);
    else if (a == "--ooms" && i + 1 < argc) ooms = std::atoll(argv[++i]);
    else if (a == "--check") check = true;
    else if (a == "--slack" && i + 1 < argc) slack = std::atof(argv[++i]);
    else {
      std::fprintf(stderr, "error: %s: unknown argument (use --mb N --ooms N [--check])\n", a.c_str());
      return 2;
    }
  }
  const std::string log = training_log(static_cast<size_t>(mb * 1e6), 20261130);
  const Timing a = run(log);
  const double mbps = static_cast<double>(log.size()) / 1e6 / a.seconds;
  fmt::print("training log: {:.1f} MB, {} reports, {:.3f} s CPU ({:.3f} s wall), {:.1f} MB/s "
             "(bound: 100 MB in 3 s = 33.3 MB/s)\n",
             static_cast<double>(log.size()) / 1e6, a.reports, a.seconds, a.wall_seconds, mbps);
  const std::string many = oom_lines(ooms, 7);
  const Timing b = run(many);
  const double per_s = static_cast<double>(b.reports) / b.seconds;
  fmt::print("OOM lines: {} lines ({:.1f} MB), {} reports, {:.3f} s CPU ({:.3f} s wall), {:.0f} reports/s, {:.1f} MB/s "
             "(bound: 100k in 5 s = 20000/s)\n",
             ooms, static_cast<double>(many.size()) / 1e6, b.reports, b.seconds, b.wall_seconds, per_s,
             static_cast<double>(many.size()) / 1e6 / b.seconds);
  fmt::print("every report kept (diagnose_log; not in the bound): {:.3f} s CPU for the training log, {:.3f} s for the OOM "
             "lines\n",
             a.kept_seconds, b.kept_seconds);
  fmt::print("JSON of every report (--json; not in the bound): {:.3f} s CPU for {:.1f} MB, {:.3f} s for {:.1f} MB\n",
             a.json_seconds, static_cast<double>(a.json_bytes) / 1e6, b.json_seconds, static_cast<double>(b.json_bytes) / 1e6);
  if (check) {
    bool ok = true;
    if (mbps < slack * 100.0 / 3.0) ok = false;
    if (static_cast<int64_t>(b.reports) != ooms || per_s < slack * 100000.0 / 5.0) ok = false;
    if (!ok) {
      std::fprintf(stderr, "diagnose_speed: below the issue's bound\n");
      return 1;
    }
  }
  return 0;
}
