// `oomkit report RUN_DIR|TIMELINE|ESTIMATE.json|oom_report.json [-o PATH] [--format html|chrome-trace]`
#include <cstdio>
#include <memory>

#include "commands.h"
#include "oomkit/report/report.h"
#include "run_flags.h"

namespace oomkit::cli {

Subcommand add_report_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand(
      "report", "Self-contained HTML report (charts) or Chrome/Perfetto trace of a run, an estimate or a diagnosis");
  auto opts = std::make_shared<ReportOptions>();
  auto format = std::make_shared<std::string>("html");
  auto max_points = std::make_shared<int64_t>(20000);
  app->add_option("input", opts->input,
                  "Run directory of `oomkit train`, its timeline.jsonl, an `oomkit estimate --json` file "
                  "(with --sweep / --max-batch arrays) or an oom_report.json")->type_name("PATH")
      ->required();
  app->add_option("-o,--output", opts->output,
                  "Output file (default: RUN_DIR/report.html or RUN_DIR/trace.json; beside a file input)")->type_name("FILE");
  app->add_option("--format", *format, "html (default) or chrome-trace (Perfetto, chrome://tracing)");
  app->add_option("--estimate", opts->estimate_path, "An estimate JSON to show with the run (replaces the run's own)")->type_name("FILE");
  app->add_option("--oom-report", opts->oom_report_path, "An oom_report.json (default: the run directory's)")->type_name("FILE");
  app->add_option("--title", opts->html.title, "Page title");
  app->add_option("--max-points", *max_points, "Most timeline marks in the page or the trace; longer timelines keep their peaks")
      ->check(CLI::Range(int64_t{8}, int64_t{10000000}));
  app->add_option("--step", opts->html.zoom_step,
                  "Step drawn phase by phase (default: the OOM step, else the step with the highest peak)")
      ->check(non_negative_check());
  app->footer(
      "Examples:\n"
      "  oomkit report runs/demo                                   # writes runs/demo/report.html\n"
      "  oomkit report runs/demo --format chrome-trace -o trace.json\n"
      "  oomkit report estimate.json -o estimate.html              # from oomkit estimate --json > estimate.json");
  return {app, [opts, format, max_points]() -> int {
            opts->format = parse_report_format(*format);
            opts->html.max_points = static_cast<size_t>(*max_points);
            const std::string path = write_report(*opts);
            std::printf("%s\n", path.c_str());
            return 0;
          }};
}

}  // namespace oomkit::cli
