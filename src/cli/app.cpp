// The parse-and-run shared by `oomkit` (main.cpp) and `oomkit-train` (train/main.cpp).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "commands.h"
#include "oomkit/core/error.h"
#include "oomkit/core/log.h"
#include "oomkit/core/suggest.h"

#ifndef OOMKIT_VERSION
#define OOMKIT_VERSION "0.0.0"
#endif

namespace oomkit::cli {

const char* const kTrainDescription =
    "Train a GPT-2 or LLaMA-family model natively in LibTorch with a per-phase memory timeline "
    "(no flags: gpt-nano on the English license texts of /usr/share/common-licenses)";

const char* const kTrainExamples =
    "Examples:\n"
    "  oomkit train                                          # gpt-nano, 400 steps (about 3 minutes on 2 cores)\n"
    "  oomkit train --steps 20 --run-dir runs/demo           # then: oomkit report runs/demo\n"
    "  oomkit train --model llama-nano --checkpointing full --steps 50\n"
    "  oomkit train --batch-size 32 --memory-limit 96MiB --on-oom recover --steps 20\n"
    "  oomkit train --model gpt-nano --steps 20 --json > summary.json";

namespace {

// c10::Error::what() appends a C++ backtrace ("Exception raised from ... frame #0 ...") after
// the message; users get the message alone (the diagnosis needs nothing more).
std::string without_backtrace(const char* what) {
  std::string text(what);
  for (const char* marker : {"\nException raised from", "Exception raised from "}) {
    const size_t at = text.find(marker);
    if (at != std::string::npos) text.erase(at);
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

bool is_global_flag(const char* arg) {
  for (const char* flag : {"-q", "--quiet", "-v", "--verbose", "-qv", "-vq"}) {
    if (std::strcmp(arg, flag) == 0) return true;
  }
  return false;
}

// Output written to stdout is part of the result (`oomkit estimate --json > f.json`): a write
// that failed (a full disk, /dev/full, a closed pipe) must not end in exit 0.
int finish_stdout(int code) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int err = errno;
    std::fprintf(stderr, "error: stdout: write failed: %s\n", std::strerror(err != 0 ? err : EIO));
    return code == kExitOk ? kExitBadInput : code;
  }
  return code;
}

// Every long and short flag name of `app` ("--batch-size", "-b").
void add_flag_names(const CLI::App& app, std::vector<std::string>& names) {
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
}

// After CLI11's "The following arguments were not expected": when one of them is a flag (the
// first in argv order), names it and the command it was given to, with the nearest flags of that
// command (and the global ones) as a hint. false: no flag among them (a stray positional).
bool report_unknown_flag(CLI::App& app, int argc, char** argv) {
  const std::vector<std::string> extras = app.remaining(true);
  const std::vector<CLI::App*> parsed = app.get_subcommands();
  const CLI::App* command = parsed.empty() ? &app : parsed.front();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-' || (std::isdigit(static_cast<unsigned char>(arg[1])) != 0)) continue;
    const std::string flag = arg.substr(0, arg.find('='));
    if (std::find(extras.begin(), extras.end(), arg) == extras.end() &&
        std::find(extras.begin(), extras.end(), flag) == extras.end()) {
      continue;
    }
    std::vector<std::string> names;
    add_flag_names(*command, names);
    if (command != &app) add_flag_names(app, names);
    names.erase(std::remove(names.begin(), names.end(), "--help-all"), names.end());
    const std::string where = command == &app ? "oomkit" : "oomkit " + command->get_name();
    std::fprintf(stderr, "error: %s: unknown flag '%s'\n", where.c_str(), flag.c_str());
    if (const std::string hint = did_you_mean(flag, names); !hint.empty()) {
      std::fprintf(stderr, "hint: %s\n", hint.c_str());
    } else {
      std::fprintf(stderr, "hint: '%s --help' lists its flags\n", where.c_str());
    }
    return true;
  }
  return false;
}

// CLI11 says "Could not convert: --steps = abc" for a value of the wrong type; name the flag,
// the value and the type it wants, with the command's help as the hint.
void report_conversion_error(const CLI::ConversionError& e, const std::vector<Subcommand>& subcommands) {
  const std::string what = e.what();
  const std::string prefix = "Could not convert: ";
  const size_t eq = what.find(" = ");
  if (what.rfind(prefix, 0) != 0 || eq == std::string::npos) {
    std::fprintf(stderr, "error: %s\n", what.c_str());
    std::fprintf(stderr, "hint: run 'oomkit --help' or 'oomkit <command> --help' for usage\n");
    return;
  }
  const std::string name = what.substr(prefix.size(), eq - prefix.size());
  std::string value = what.substr(eq + 3);
  if (value.size() > 80) value = value.substr(0, 77) + "...";
  std::string type;
  std::string command = "<command>";
  for (const auto& sub : subcommands) {
    if (!sub.app->parsed()) continue;
    command = sub.app->get_name();
    if (const CLI::Option* opt = sub.app->get_option_no_throw(name)) {
      type = opt->get_type_name();
      type = type.substr(0, type.find(':'));  // "INT:UINT" (a check's name after the colon) -> "INT"
    }
  }
  std::string wants;
  if (type == "INT") wants = " (expects an integer)";
  else if (type == "UINT") wants = " (expects a non-negative integer)";
  else if (type == "FLOAT") wants = " (expects a number)";
  else if (!type.empty()) wants = " (expects " + type + ")";
  std::fprintf(stderr, "error: %s: '%s' is not a valid value%s\n", name.c_str(), value.c_str(), wants.c_str());
  std::fprintf(stderr, "hint: run 'oomkit %s --help' for the flag's values\n", command.c_str());
}

int parse_and_run(CLI::App& app, const std::vector<Subcommand>& subcommands, int argc, char** argv) {
  // CLI11 reports an unknown command as "A subcommand is required"; name it instead.
  if (const int at = command_index(argc, argv); at > 0) {
    bool known = false;
    std::string names;
    for (const auto& sub : subcommands) {
      known = known || sub.app->get_name() == argv[at];
      names += (names.empty() ? "" : ", ") + sub.app->get_name();
    }
    if (!known) {
      std::vector<std::string> candidates;
      for (const auto& sub : subcommands) candidates.push_back(sub.app->get_name());
      std::fprintf(stderr, "error: unknown command '%s' (commands: %s)\n", argv[at], names.c_str());
      if (const std::string hint = did_you_mean(argv[at], candidates); !hint.empty()) {
        std::fprintf(stderr, "hint: %s\n", hint.c_str());
      }
      return kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    if (report_unknown_flag(app, argc, argv)) return kExitBadInput;
    std::fprintf(stderr, "error: %s\n", e.what());
    std::fprintf(stderr, "hint: run 'oomkit --help' or 'oomkit <command> --help' for usage\n");
    return kExitBadInput;
  } catch (const CLI::ConversionError& e) {
    report_conversion_error(e, subcommands);
    return kExitBadInput;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    std::fprintf(stderr, "hint: run 'oomkit --help' or 'oomkit <command> --help' for usage\n");
    return kExitBadInput;
  }

  log::init(app.get_option("--quiet")->count() > 0, app.get_option("--verbose")->count() > 0);
  try {
    for (const auto& sub : subcommands) {
      if (sub.app->parsed()) return sub.run();
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    if (!e.hint().empty()) std::fprintf(stderr, "hint: %s\n", e.hint().c_str());
    return kExitBadInput;
  } catch (const std::exception& e) {
    // fmt::print throws std::system_error ("cannot write to file") when stdout fails: that is
    // the stdout write error finish_stdout() reports, not a failure of the command.
    if (std::ferror(stdout)) return kExitOk;
    std::fprintf(stderr, "error: %s\n", without_backtrace(e.what()).c_str());
    return kExitFailure;
  }
  return kExitFailure;
}

}  // namespace

void init_app(CLI::App& app) {
  app.set_version_flag("-V,--version", "oomkit " OOMKIT_VERSION);
  app.require_subcommand(1);
  app.add_flag("-q,--quiet", "Only warnings and errors on stderr")->configurable(false);
  app.add_flag("-v,--verbose", "Debug logging");
  app.fallthrough();
  app.footer(
      "Examples:\n"
      "  oomkit train --steps 20 --run-dir runs/demo     # a short run with its memory timeline\n"
      "  oomkit report runs/demo                         # the run as an HTML page (runs/demo/report.html)\n"
      "  oomkit estimate --model llama-2-7b --gpu a100-sxm4-80gb --batch-size 1 --seq-len 4096\n"
      "  oomkit diagnose train.log                       # a log holding PyTorch's out-of-memory error\n"
      "  oomkit gpus\n"
      "\n"
      "Exit codes: 0 success (estimate --check: fits), 1 any failure, 2 bad input (one 'error:' line naming the\n"
      "field), 3 train stopped by an OOM, 4 estimate --check: does not fit, 130/143 interrupted (SIGINT/SIGTERM).");
}

int command_index(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (!is_global_flag(argv[i])) return argv[i][0] == '-' ? 0 : i;
  }
  return 0;
}

int run_app(CLI::App& app, const std::vector<Subcommand>& subcommands, int argc, char** argv) {
  // A file-size limit (ulimit -f) makes write() fail with EFBIG instead of killing the process,
  // so it is reported like a full disk.
  std::signal(SIGXFSZ, SIG_IGN);
  return finish_stdout(parse_and_run(app, subcommands, argc, argv));
}

}  // namespace oomkit::cli
