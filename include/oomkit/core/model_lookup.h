// What `--model X` means for estimate, train and diagnose: resolve_model_config()
// (model_config.h; this header documents its full rule without touching model_config.h, which
// every LibTorch file includes) and the shipped names.
//
// resolve_model_config(name_or_path) tries, in this order:
//  1. a folder: its config.json (a Hugging Face snapshot); a cached repository folder
//     models--ORG--NAME resolves through hf_snapshot_config(). Name: the folder's (a snapshot's
//     repository NAME, not its commit hash);
//  2. an existing file: a config.json (load_model_config());
//  3. a shipped name, case-insensitive: <models_dir()>/<name>.json (gpt2, Llama-2-7B);
//  4. the Hugging Face cache (hf_cache.h: hf_hub_cache_dir()), case-insensitive: ORG/NAME, or NAME
//     alone when exactly one cached repository has it; the snapshot refs/main points to.
//     Name: NAME (it names runs/<name>-<time>).
// It throws InputError("--model") when nothing matches (the hint: suggest()'s nearest shipped or
// cached names, else where it looked), when NAME alone matches several cached repositories (the
// hint lists their ORG/NAME), for a folder without config.json, and whatever load_model_config()
// throws for the file found.
#pragma once

#include <string>
#include <vector>

namespace oomkit {

/// The shipped model names (the stems of <models_dir()>/*.json), sorted. Never throws.
std::vector<std::string> shipped_model_names();

}  // namespace oomkit
