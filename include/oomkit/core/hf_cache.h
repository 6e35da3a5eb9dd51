// The local Hugging Face hub cache, read the way huggingface_hub lays it out (its
// package_reference/environment_variables and guides/manage-cache pages):
//   <hub>/models--<ORG>--<NAME>/refs/main            the commit hash `main` points to
//   <hub>/models--<ORG>--<NAME>/snapshots/<hash>/     one folder per downloaded revision
//   <hub>/models--<ORG>--<NAME>/snapshots/<hash>/config.json   (a symlink into blobs/)
// A repository without an organisation (gpt2) is models--gpt2. Nothing here downloads.
#pragma once

#include <string>
#include <vector>

namespace oomkit {

/// The hub cache folder, huggingface_hub's rule: $HF_HUB_CACHE, else $HUGGINGFACE_HUB_CACHE (its
/// older name), else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
/// $HOME/.cache/huggingface/hub. Empty variables count as unset. "" when none applies (no HOME).
/// Never throws; the folder need not exist.
std::string hf_hub_cache_dir();

/// One model repository in the cache.
struct HfCachedRepo {
  std::string repo_id;  // "meta-llama/Llama-2-7b-hf" or "gpt2", as the folder spells it
  std::string folder;   // <hub>/models--meta-llama--Llama-2-7b-hf
};

/// Every models--* folder directly under `hub_dir`, sorted by repo_id; empty when the folder does
/// not exist or cannot be read. Never throws.
std::vector<HfCachedRepo> hf_cached_repos(const std::string& hub_dir);

/// The config.json of a cached repository folder (models--ORG--NAME): the snapshot refs/main
/// names when refs/main exists, else the only snapshot holding a config.json. Throws
/// InputError(field) when refs/main names a missing snapshot or one without config.json, when
/// no snapshot has a config.json, or when several do and there is no refs/main (the hint names
/// them: pass one as --model DIR).
std::string hf_snapshot_config(const std::string& repo_folder, const std::string& field);

}  // namespace oomkit
