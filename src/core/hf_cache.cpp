#include "oomkit/core/hf_cache.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "oomkit/core/error.h"

namespace oomkit {
namespace {

namespace fs = std::filesystem;

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

constexpr const char* kPrefix = "models--";

}  // namespace

std::string hf_hub_cache_dir() {
  for (const char* name : {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"}) {
    if (const std::string v = env(name); !v.empty()) return v;
  }
  if (const std::string home = env("HF_HOME"); !home.empty()) return (fs::path(home) / "hub").string();
  if (const std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty()) {
    return (fs::path(xdg) / "huggingface" / "hub").string();
  }
  if (const std::string home = env("HOME"); !home.empty()) {
    return (fs::path(home) / ".cache" / "huggingface" / "hub").string();
  }
  return {};
}

std::vector<HfCachedRepo> hf_cached_repos(const std::string& hub_dir) {
  std::vector<HfCachedRepo> repos;
  std::error_code ec;
  if (hub_dir.empty() || !fs::is_directory(hub_dir, ec)) return repos;
  for (fs::directory_iterator it(hub_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(kPrefix, 0) != 0 || name.size() == std::char_traits<char>::length(kPrefix)) continue;
    std::error_code dir_ec;
    if (!fs::is_directory(it->path(), dir_ec)) continue;
    std::string repo_id = name.substr(std::char_traits<char>::length(kPrefix));
    // huggingface_hub writes repo_id.replace("/", "--"): the first "--" is the organisation's end.
    if (const size_t at = repo_id.find("--"); at != std::string::npos) repo_id.replace(at, 2, "/");
    repos.push_back({repo_id, it->path().string()});
  }
  std::sort(repos.begin(), repos.end(), [](const auto& a, const auto& b) { return a.repo_id < b.repo_id; });
  return repos;
}

std::string hf_snapshot_config(const std::string& repo_folder, const std::string& field) {
  const fs::path snapshots = fs::path(repo_folder) / "snapshots";
  std::error_code ec;
  std::ifstream ref(fs::path(repo_folder) / "refs" / "main");
  std::string commit;
  if (ref && std::getline(ref, commit)) {
    while (!commit.empty() && (commit.back() == '\r' || commit.back() == ' ')) commit.pop_back();
    const fs::path config = snapshots / commit / "config.json";
    if (commit.empty() || commit.find('/') != std::string::npos || !fs::is_regular_file(config, ec)) {
      throw InputError(field, repo_folder + ": refs/main names snapshot '" + commit + "', which has no config.json",
                       "download it again (huggingface-cli download) or pass a snapshot folder as --model DIR");
    }
    return config.string();
  }
  std::vector<std::string> found;
  for (fs::directory_iterator it(snapshots, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code file_ec;
    if (fs::is_regular_file(it->path() / "config.json", file_ec)) found.push_back((it->path() / "config.json").string());
  }
  std::sort(found.begin(), found.end());
  if (found.size() == 1) return found.front();
  if (found.empty()) {
    throw InputError(field, repo_folder + ": no snapshot holds a config.json",
                     "download it: huggingface-cli download <repo> config.json");
  }
  std::string list;
  for (const auto& f : found) list += (list.empty() ? "" : ", ") + fs::path(f).parent_path().string();
  throw InputError(field, repo_folder + ": " + std::to_string(found.size()) + " snapshots and no refs/main to choose one",
                   "pass one as --model DIR: " + list);
}

}  // namespace oomkit
