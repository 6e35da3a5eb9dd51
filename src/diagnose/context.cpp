// scan_context(): clues around an OOM in a log, and the growth regression shared with the live
// playbook.
#include <algorithm>
#include <cmath>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "oomkit/core/units.h"
#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/playbook.h"

namespace oomkit {

namespace {

constexpr auto kIcase = std::regex::ECMAScript | std::regex::icase;
constexpr int64_t kLinesBefore = 400;  // how far back clues count
constexpr int64_t kNearLines = 40;     // "just before the OOM": the traceback and the last log lines
constexpr size_t kMaxLineChars = 2000;

std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      lines.push_back(cur.size() > kMaxLineChars ? cur.substr(0, kMaxLineChars) : cur);
      cur.clear();
    } else if (c != '\r') {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) lines.push_back(cur.size() > kMaxLineChars ? cur.substr(0, kMaxLineChars) : cur);
  return lines;
}

std::optional<int64_t> size_in(const std::smatch& m, size_t num, size_t unit) {
  try {
    return parse_bytes(m[num].str() + " " + m[unit].str(), "log");
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<GrowthFit> fit_growth(const std::vector<std::pair<int64_t, int64_t>>& pts) {
  if (pts.size() < 3) return std::nullopt;
  const double n = static_cast<double>(pts.size());
  double sx = 0, sy = 0;
  for (const auto& [x, y] : pts) {
    sx += static_cast<double>(x);
    sy += static_cast<double>(y);
  }
  const double mx = sx / n, my = sy / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (const auto& [x, y] : pts) {
    const double dx = static_cast<double>(x) - mx, dy = static_cast<double>(y) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx <= 0) return std::nullopt;
  GrowthFit fit;
  fit.slope_bytes_per_step = sxy / sxx;
  fit.r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 0.0;
  fit.points = static_cast<int64_t>(pts.size());
  fit.first_bytes = pts.front().second;
  fit.last_bytes = pts.back().second;
  return fit;
}

bool is_leak(const GrowthFit& fit) {
  const double rise = static_cast<double>(fit.last_bytes - fit.first_bytes);
  return fit.points >= 4 && fit.r2 >= 0.9 && fit.slope_bytes_per_step > 0 && rise >= static_cast<double>(kMiB) &&
         rise >= 0.02 * static_cast<double>(std::max<int64_t>(fit.first_bytes, 1));
}

LogContext scan_context(std::string_view log_text, int64_t oom_line) {
  static const std::regex kEval(R"(model\.eval\(\)|\bevaluat\w*|\bvalidat\w*|\bval_loss|\bvalid_loss|\beval_loss|\beval\b|\bval\b)", kIcase);
  static const std::regex kNoGrad(R"(no_grad|inference_mode)", kIcase);
  static const std::regex kGen(R"(\.generate\(|\bgenerate\b|\bgeneration\b|past_key_values|kv[_ ]?cache|beam_search|greedy_search|\bsample\(|max_new_tokens)", kIcase);
  static const std::regex kMulti(R"(DistributedDataParallel|DataParallel|torchrun|torch\.distributed|local_rank|\[rank\d+\]|WORLD_SIZE|nccl)", kIcase);
  static const std::regex kDevice(R"((?:cuda:|GPU\s?)(\d+))", kIcase);
  static const std::regex kLoad(R"(torch\.load|load_state_dict|_cuda_deserialize|from_pretrained|map_location|load_checkpoint)", kIcase);
  static const std::regex kBackward(R"(\.backward\(|backward\(|run_backward|autograd)", kIcase);
  static const std::regex kOptim(R"(optimizer\.step|optim[/\\]adamw?\.py|_tensor_adam|exp_avg|fused_adam|FusedAdam|adam_step)", kIcase);
  static const std::regex kAttn(R"(scaled_dot_product_attention|softmax|\battn|attention|flash_attn|baddbmm)", kIcase);
  static const std::regex kStep(R"(\b(?:step|iter|iteration|it)\s*[:=#]?\s*(\d+))", kIcase);
  static const std::regex kMem(R"((?:mem\w*|allocated|reserved)[^0-9]{0,20}(\d+(?:\.\d+)?)\s*(GiB|MiB|KiB|GB|MB|KB))", kIcase);

  LogContext c;
  const std::vector<std::string> lines = split(log_text);
  const int64_t last = std::min<int64_t>(static_cast<int64_t>(lines.size()), std::max<int64_t>(oom_line, 1));
  const int64_t first = std::max<int64_t>(1, last - kLinesBefore);
  std::set<std::string> devices;
  std::vector<std::pair<int64_t, int64_t>> step_mem;
  std::set<int64_t> steps;
  auto clue = [&](int64_t n, const char* what, const std::string& line) {
    std::string shown = line.size() > 100 ? line.substr(0, 100) + "..." : line;
    c.clues.push_back(fmt::format("log line {} ({}): {}", n, what, shown));
  };
  for (int64_t n = first; n <= last; ++n) {
    const std::string& line = lines[static_cast<size_t>(n - 1)];
    const bool near = last - n <= kNearLines;
    std::smatch m;
    if (near && !c.eval && std::regex_search(line, kEval)) {
      c.eval = true;
      clue(n, "eval", line);
    }
    if (std::regex_search(line, kNoGrad)) c.no_grad_seen = true;
    if (near && !c.generation && std::regex_search(line, kGen)) {
      c.generation = true;
      clue(n, "generation", line);
    }
    if (!c.multi_gpu && std::regex_search(line, kMulti)) {
      c.multi_gpu = true;
      clue(n, "multi-GPU", line);
    }
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kDevice); it != std::sregex_iterator(); ++it) {
      devices.insert((*it)[1].str());
    }
    if (near && !c.loading && std::regex_search(line, kLoad)) {
      c.loading = true;
      clue(n, "load", line);
    }
    if (near && !c.in_backward && std::regex_search(line, kBackward)) {
      c.in_backward = true;
      clue(n, "backward", line);
    }
    if (near && !c.in_optimizer && std::regex_search(line, kOptim)) {
      c.in_optimizer = true;
      clue(n, "optimizer", line);
    }
    if (near && !c.in_attention && std::regex_search(line, kAttn)) {
      c.in_attention = true;
      clue(n, "attention", line);
    }
    std::smatch ms, mm;
    if (n < last && std::regex_search(line, ms, kStep) && std::regex_search(line, mm, kMem) && ms[1].length() < 12) {
      if (auto bytes = size_in(mm, 1, 2)) {
        const int64_t step = std::stoll(ms[1].str());
        steps.insert(step);
        step_mem.emplace_back(step, *bytes);
      }
    }
  }
  if (devices.size() >= 2 && !c.multi_gpu) {
    c.multi_gpu = true;
    c.clues.push_back(fmt::format("log: {} different GPU ids appear", devices.size()));
  }
  c.steps_seen = static_cast<int64_t>(steps.size());
  // Several ranks print their own lines: keep one value per step (the max) for the regression.
  std::sort(step_mem.begin(), step_mem.end());
  std::vector<std::pair<int64_t, int64_t>> per_step;
  for (const auto& p : step_mem) {
    if (!per_step.empty() && per_step.back().first == p.first) per_step.back().second = std::max(per_step.back().second, p.second);
    else per_step.push_back(p);
  }
  if (auto fit = fit_growth(per_step); fit && is_leak(*fit)) c.growth_per_step_bytes = fit->slope_bytes_per_step;
  return c;
}

}  // namespace oomkit
