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
      list.push_back({{"name", g.name}, {"model", g.model}, {"stated", g.stated}, {"capacity_bytes", g.capacity_bytes}});
    }
    fmt::print("{}\n", nlohmann::json{{"gpus", list}}.dump(2));
    return 0;
  }
  fmt::print("{:<12} {:<30} {:<14} {:>17} {:>12}\n", "name", "model", "vendor states", "capacity_bytes", "capacity");
  for (const auto& g : catalog) {
    fmt::print("{:<12} {:<30} {:<14} {:>17} {:>12}\n", g.name, g.model, g.stated, g.capacity_bytes,
               format_bytes(g.capacity_bytes));
  }
  fmt::print("\nCapacities are the vendors' decimal GB (10^9 bytes). Use --memory 80GiB for a binary size.\n");
  return 0;
}
}  // namespace

Subcommand add_gpus_command(CLI::App& parent) {
  auto options = std::make_shared<GpusOptions>();
  CLI::App* app = parent.add_subcommand("gpus", "List the GPU catalog (name, stated size, capacity in bytes and GiB)");
  app->add_flag("--json", options->json, "Print the catalog as JSON");
  return {app, [options]() { return run_gpus(*options); }};
}

}  // namespace oomkit::cli
