// `oomkit gpus`: the GPU catalog used by `oomkit estimate --gpu NAME`.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "oomkit/core/log.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/gpus.h"

namespace oomkit::cli {

namespace {
struct GpusOptions {
  bool json = false;
};

int run_gpus(const GpusOptions& o) {
  const auto& catalog = gpu_catalog();
  if (o.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& g : catalog) {
      list.push_back({{"name", g.name},
                      {"model", g.model},
                      {"stated", g.stated},
                      {"capacity_bytes", g.capacity_bytes},
                      {"nominal", g.nominal},
                      {"source", g.source},
                      {"aliases", g.aliases}});
    }
    fmt::print("{}\n", nlohmann::json{{"gpus", list}}.dump(2));
    return 0;
  }
  fmt::print("{:<15} {:<38} {:<22} {:>16} {:>11}  {}\n", "name", "model (as CUDA names it)", "vendor states",
             "capacity_bytes", "capacity", "source");
  for (size_t i = 0; i < catalog.size(); ++i) {
    const auto& g = catalog[i];
    fmt::print("{:<15} {:<38} {:<22} {:>16} {:>11}  [{}]{}\n", g.name, g.model, g.stated, g.capacity_bytes,
               format_bytes(g.capacity_bytes), i + 1, g.nominal ? " NOMINAL" : "");
  }
  fmt::print("\nCapacities are total_memory as CUDA reports it (torch.cuda.get_device_properties(i).total_memory,\n"
             "the \"total capacity\" of PyTorch's OOM message), in bytes and GiB (2^30); it moves by up to ~0.5%\n"
             "between driver versions. NOMINAL: no public CUDA figure, the vendor's size instead.\n"
             "Use --memory SIZE for your own device's figure.\n\nSources:\n");
  for (size_t i = 0; i < catalog.size(); ++i) {
    const auto& g = catalog[i];
    std::string aliases;
    for (const auto& a : g.aliases) aliases += (aliases.empty() ? " (also: " : ", ") + a;
    if (!aliases.empty()) aliases += ")";
    fmt::print("  [{}] {}{}: {}\n", i + 1, g.name, aliases, g.source);
  }
  return 0;
}
}  // namespace

Subcommand add_gpus_command(CLI::App& parent) {
  auto options = std::make_shared<GpusOptions>();
  CLI::App* app = parent.add_subcommand("gpus", "List the GPU catalog: capacity as CUDA reports it (bytes and GiB), the vendor's size, and the source of each figure");
  app->add_flag("--json", options->json, "Print the catalog as JSON");
  app->footer(
      "Examples:\n"
      "  oomkit gpus\n"
      "  oomkit gpus --json\n"
      "  oomkit estimate --model llama-2-7b --gpu h100-sxm   # a name from this list (any case)");
  return {app, [options]() { return run_gpus(*options); }};
}

}  // namespace oomkit::cli
