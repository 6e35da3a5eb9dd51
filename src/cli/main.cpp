// oomkit: estimate, measure and diagnose transformer training memory.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

#include <CLI/CLI.hpp>

#include <string>

#include "commands.h"
#include "oomkit/core/error.h"
#include "oomkit/core/log.h"

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

// Output written to stdout is part of the result (`oomkit estimate --json > f.json`): a write
// that failed (a full disk, /dev/full, a closed pipe) must not end in exit 0.
int finish_stdout(int code) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int err = errno;
    std::fprintf(stderr, "error: stdout: write failed: %s\n", std::strerror(err != 0 ? err : EIO));
    return code == oomkit::kExitOk ? oomkit::kExitBadInput : code;
  }
  return code;
}

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) makes write() fail with EFBIG instead of killing the process,
  // so it is reported like a full disk.
  std::signal(SIGXFSZ, SIG_IGN);
  return finish_stdout(run(argc, argv));
}

namespace {

int run(int argc, char** argv) {
  CLI::App app{"oomkit: estimate, measure and diagnose the memory of transformer training"};
  app.set_version_flag("--version", "oomkit 0.1.0");
  app.require_subcommand(1);
  bool quiet = false;
  bool verbose = false;
  app.add_flag("-q,--quiet", quiet, "Only warnings and errors on stderr")->configurable(false);
  app.add_flag("-v,--verbose", verbose, "Debug logging");
  app.fallthrough();
  app.footer(
      "Exit codes: 0 success (estimate --check: fits), 1 any failure, 2 bad input (one 'error:' line naming the\n"
      "field), 3 train stopped by an OOM, 4 estimate --check: does not fit, 130/143 interrupted (SIGINT/SIGTERM).");

  std::vector<oomkit::cli::Subcommand> subcommands = {
      oomkit::cli::add_estimate_command(app), oomkit::cli::add_gpus_command(app),
      oomkit::cli::add_train_command(app), oomkit::cli::add_diagnose_command(app),
      oomkit::cli::add_report_command(app)};

  // CLI11 reports an unknown command as "A subcommand is required"; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string names;
    for (const auto& sub : subcommands) {
      known = known || sub.app->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub.app->get_name();
    }
    if (!known) {
      std::fprintf(stderr, "error: unknown command '%s' (commands: %s)\n", argv[1], names.c_str());
      return oomkit::kExitBadInput;
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
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    std::fprintf(stderr, "run 'oomkit --help' or 'oomkit <command> --help' for usage\n");
    return oomkit::kExitBadInput;
  }

  oomkit::log::init(quiet, verbose);
  try {
    for (auto& sub : subcommands) {
      if (sub.app->parsed()) return sub.run();
    }
  } catch (const oomkit::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    if (!e.hint().empty()) std::fprintf(stderr, "hint: %s\n", e.hint().c_str());
    return oomkit::kExitBadInput;
  } catch (const std::exception& e) {
    // fmt::print throws std::system_error ("cannot write to file") when stdout fails: that is
    // the stdout write error finish_stdout() reports, not a failure of the command.
    if (std::ferror(stdout)) return oomkit::kExitOk;
    std::fprintf(stderr, "error: %s\n", without_backtrace(e.what()).c_str());
    return oomkit::kExitFailure;
  }
  return oomkit::kExitFailure;
}

}  // namespace
