// Shell completion and the man page from the CLI11 definition (see completion.h).
#include "completion.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <sstream>
#include <utility>

#include "oomkit/core/model_lookup.h"
#include "oomkit/core/write_file.h"
#include "oomkit/estimate/gpus.h"
#include "run_flags.h"

#ifndef OOMKIT_VERSION
#define OOMKIT_VERSION "0.0.0"
#endif

namespace oomkit::cli {
namespace {

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

// "TEXT:{fp32,bf16}" -> {"fp32", "bf16"}; no braces: empty.
std::vector<std::string> braced_values(const std::string& type_name) {
  const size_t open = type_name.find('{');
  const size_t close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  std::vector<std::string> values;
  std::stringstream in(type_name.substr(open + 1, close - open - 1));
  std::string value;
  while (std::getline(in, value, ',')) {
    if (!value.empty()) values.push_back(value);
  }
  return values;
}

FlagSpec describe_option(const CLI::Option& option) {
  FlagSpec f;
  for (const auto& s : option.get_snames()) f.names.push_back("-" + s);
  for (const auto& l : option.get_lnames()) f.names.push_back("--" + l);
  if (f.names.empty()) f.names.push_back(option.get_name(true));  // a positional
  f.takes_value = option.get_expected_max() != 0;  // add_flag() sets expected(0)
  const std::string type = option.get_type_name();
  f.values = braced_values(type);
  f.value_name = f.values.empty() ? type.substr(0, type.find(':')) : "{" + join(f.values, ",") + "}";
  const std::string base = type.substr(0, type.find(':'));
  if (base == "DIR") f.path = FlagSpec::Path::kDir;
  else if (base.find("FILE") != std::string::npos || base.find("PATH") != std::string::npos) f.path = FlagSpec::Path::kFile;
  f.help = option.get_description();
  f.default_value = option.get_default_str();
  if (option.check_lname("gpu")) {
    for (const GpuSpec& g : gpu_catalog()) f.suggestions.push_back(g.name);
  } else if (option.check_lname("model")) {
    f.suggestions = shipped_model_names();
    f.path = FlagSpec::Path::kFile;  // or a config.json / its folder
  }
  return f;
}

// The flags of one app: --help first (CLI11 declares it first), positionals apart.
void describe_options(const CLI::App& app, std::vector<FlagSpec>& flags, std::vector<FlagSpec>* positionals) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->nonpositional()) flags.push_back(describe_option(*option));
    else if (positionals != nullptr) positionals->push_back(describe_option(*option));
  }
}

// ---- bash ------------------------------------------------------------------------------------

std::string names_of(const std::vector<FlagSpec>& flags) {
  std::vector<std::string> all;
  for (const auto& f : flags) all.insert(all.end(), f.names.begin(), f.names.end());
  return join(all, " ");
}

// The `case "$prev"` arms of one command: what follows a flag that takes a value.
std::string bash_value_arms(const std::vector<FlagSpec>& flags, const std::string& indent) {
  std::string out;
  std::vector<std::string> plain;
  for (const auto& f : flags) {
    if (!f.takes_value) continue;
    const std::string pattern = join(f.names, "|");
    if (!f.values.empty()) {
      out += indent + pattern + ") COMPREPLY=($(compgen -W \"" + join(f.values, " ") + "\" -- \"$cur\")); return 0 ;;\n";
    } else if (!f.suggestions.empty()) {
      const std::string files =
          f.path == FlagSpec::Path::kFile ? " $(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null" : ")";
      out += indent + pattern + ") COMPREPLY=($(compgen -W \"" + join(f.suggestions, " ") + "\" -- \"$cur\")" + files +
             "; return 0 ;;\n";
    } else if (f.path == FlagSpec::Path::kFile) {
      out += indent + pattern + ") compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return 0 ;;\n";
    } else if (f.path == FlagSpec::Path::kDir) {
      out += indent + pattern + ") compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\")); return 0 ;;\n";
    } else {
      plain.push_back(pattern);
    }
  }
  // A number, a size or a name: nothing to offer, and no flag names either.
  if (!plain.empty()) out += indent + join(plain, "|") + ") return 0 ;;\n";
  return out;
}

// ---- zsh -------------------------------------------------------------------------------------

// Text inside a single-quoted zsh word and inside _arguments' [description]: no quote, no
// brackets, no colon (which would end the description's field).
std::string zsh_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else if (c == '[') out += '(';
    else if (c == ']') out += ')';
    else if (c == ':') out += " -";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string zsh_action(const FlagSpec& f) {
  if (!f.values.empty()) return "(" + join(f.values, " ") + ")";
  // A name or a file: _alternative offers both groups (its specs double-quoted inside the
  // single-quoted _arguments word).
  if (!f.suggestions.empty() && f.path == FlagSpec::Path::kFile) {
    return "_alternative \"names:name:(" + join(f.suggestions, " ") + ")\" \"files:file:_files\"";
  }
  if (!f.suggestions.empty()) return "(" + join(f.suggestions, " ") + ")";
  if (f.path == FlagSpec::Path::kFile) return "_files";
  if (f.path == FlagSpec::Path::kDir) return "_files -/";
  return " ";
}

std::string zsh_spec(const FlagSpec& f) {
  std::string help = zsh_text(f.help.empty() ? f.names.back() : f.help);
  std::string value;
  if (f.takes_value) {
    std::string message = f.values.empty() ? f.value_name : "value";
    if (message.empty()) message = "value";
    value = ":" + zsh_text(message) + ":" + zsh_action(f);
  }
  if (f.names.size() == 1) return "'" + f.names[0] + "[" + help + "]" + value + "'";
  // Aliases exclude each other: '(-b --batch-size)'{-b,--batch-size}'[help]:B: '
  return "'(" + join(f.names, " ") + ")'{" + join(f.names, ",") + "}'[" + help + "]" + value + "'";
}

// ---- man -------------------------------------------------------------------------------------

// roff text: backslashes and hyphens escaped, no line starting with a control character, and
// ASCII only (groff -Tascii has no glyph for a middle dot): the few symbols of the help texts
// spelled in ASCII, any other code point as groff's \[uXXXX].
std::string roff(const std::string& s) {
  static const std::pair<const char*, const char*> kSymbols[] = {
      {"\u00b7", "*"}, {"\u00d7", "x"}, {"\u2264", "<="}, {"\u2265", ">="}, {"\u2013", "\\-"}, {"\u2014", "\\-\\-"},
      {"\u00b2", "^2"}, {"\u2248", "~"}};
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      const size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
      const std::string symbol = s.substr(i, length);
      std::string ascii;
      for (const auto& [utf8, spelled] : kSymbols) {
        if (symbol == utf8) ascii = spelled;
      }
      if (ascii.empty()) {
        uint32_t code = length == 2 ? (c & 0x1Fu) : length == 3 ? (c & 0x0Fu) : (c & 0x07u);
        for (size_t k = 1; k < length && i + k < s.size(); ++k) code = (code << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
        char buf[16];
        std::snprintf(buf, sizeof buf, "\\[u%04X]", static_cast<unsigned>(code));
        ascii = buf;
      }
      out += ascii;
      i += length - 1;
    }
  }
  std::string lines;
  std::stringstream in(out);
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    if (!line.empty() && (line[0] == '.' || line[0] == '\'')) line = "\\&" + line;
    lines += (first ? "" : "\n") + line;
    first = false;
  }
  return lines;
}

std::string man_flag(const FlagSpec& f, bool positional) {
  std::string out = ".TP\n";
  if (positional) {
    out += "\\fI" + roff(f.names[0]) + "\\fR\n";
  } else {
    std::vector<std::string> names;
    for (const auto& n : f.names) names.push_back("\\fB" + roff(n) + "\\fR");
    out += join(names, ", ");
    if (f.takes_value && !f.value_name.empty()) out += " \\fI" + roff(f.value_name) + "\\fR";
    out += "\n";
  }
  out += roff(f.help);
  if (!f.default_value.empty()) out += " (default: " + roff(f.default_value) + ")";
  return out + "\n";
}

}  // namespace

CliSpec describe_cli(CLI::App& app) {
  CliSpec cli;
  cli.name = "oomkit";  // app.get_name() is argv[0] once parsed ("./oomkit")
  cli.description = app.get_description();
  // CLI11 keeps the version string inside the -V flag's callback (its description is "Display
  // program version information and exit"), so it is taken from the build, as init_app() sets it.
  cli.version = "oomkit " OOMKIT_VERSION;
  describe_options(app, cli.global_flags, nullptr);
  cli.footer = app.get_footer();
  for (CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_group().empty(); })) {
    CommandSpec c;
    c.name = sub->get_name();
    c.description = sub->get_description();
    describe_options(*sub, c.flags, &c.positionals);
    cli.commands.push_back(std::move(c));
  }
  return cli;
}

std::string bash_completion(const CliSpec& cli) {
  const std::string fn = "_" + cli.name;
  std::vector<std::string> command_names;
  for (const auto& c : cli.commands) command_names.push_back(c.name);
  std::string out;
  out += "# bash completion for " + cli.name + "; generated by `" + cli.name +
         " completion bash` from its flag definitions.\n";
  out += "# Load it with:  source <(" + cli.name + " completion bash)\n";
  out += fn + "() {\n";
  out += "  local cur prev cmd i\n";
  out += "  COMPREPLY=()\n";
  out += "  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n";
  out += "  prev=\"\"\n";
  out += "  if ((COMP_CWORD > 0)); then prev=\"${COMP_WORDS[COMP_CWORD-1]}\"; fi\n";
  out += "  # The command: the first word after the global flags (which take no value).\n";
  out += "  cmd=\"\"\n";
  out += "  for ((i = 1; i < COMP_CWORD; i++)); do\n";
  out += "    case \"${COMP_WORDS[i]}\" in\n";
  out += "      -*) ;;\n";
  out += "      *) cmd=\"${COMP_WORDS[i]}\"; break ;;\n";
  out += "    esac\n";
  out += "  done\n";
  out += "  case \"$cmd\" in\n";
  out += "    \"\")\n";
  out += "      if [[ \"$cur\" == -* ]]; then\n";
  out += "        COMPREPLY=($(compgen -W \"" + names_of(cli.global_flags) + "\" -- \"$cur\"))\n";
  out += "      else\n";
  out += "        COMPREPLY=($(compgen -W \"" + join(command_names, " ") + "\" -- \"$cur\"))\n";
  out += "      fi\n";
  out += "      ;;\n";
  for (const auto& c : cli.commands) {
    out += "    " + c.name + ")\n";
    const std::string arms = bash_value_arms(c.flags, "        ");
    if (!arms.empty()) out += "      case \"$prev\" in\n" + arms + "      esac\n";
    const std::string flags = names_of(c.flags);
    bool positional_path = false;
    std::vector<std::string> positional_values;
    for (const auto& p : c.positionals) {
      positional_path = positional_path || p.path != FlagSpec::Path::kNone;
      positional_values.insert(positional_values.end(), p.values.begin(), p.values.end());
    }
    if (positional_path || !positional_values.empty()) {
      out += "      if [[ \"$cur\" == -* ]]; then\n";
      out += "        COMPREPLY=($(compgen -W \"" + flags + "\" -- \"$cur\"))\n";
      out += "      else\n";
      if (!positional_values.empty()) {
        out += "        COMPREPLY=($(compgen -W \"" + join(positional_values, " ") + "\" -- \"$cur\"))\n";
      } else {
        out += "        compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))\n";
      }
      out += "      fi\n";
    } else {
      out += "      COMPREPLY=($(compgen -W \"" + flags + "\" -- \"$cur\"))\n";
    }
    out += "      ;;\n";
  }
  out += "  esac\n";
  out += "  return 0\n";
  out += "}\n";
  out += "complete -F " + fn + " " + cli.name + "\n";
  return out;
}

std::string zsh_completion(const CliSpec& cli) {
  const std::string fn = "_" + cli.name;
  std::string out;
  out += "#compdef " + cli.name + "\n";
  out += "# zsh completion for " + cli.name + "; generated by `" + cli.name +
         " completion zsh` from its flag definitions.\n";
  out += "# Install it as _" + cli.name + " in a folder of $fpath, or load it with:  source <(" + cli.name +
         " completion zsh)\n\n";
  out += fn + "() {\n";
  out += "  local curcontext=\"$curcontext\" state line ret=1\n";
  out += "  typeset -A opt_args\n";
  out += "  local -a commands\n";
  out += "  commands=(\n";
  for (const auto& c : cli.commands) out += "    '" + c.name + ":" + zsh_text(c.description) + "'\n";
  out += "  )\n";
  out += "  _arguments -C \\\n";
  for (const auto& f : cli.global_flags) out += "    " + zsh_spec(f) + " \\\n";
  out += "    '1: :->command' \\\n";
  out += "    '*:: :->args' && ret=0\n";
  out += "  case $state in\n";
  out += "    command)\n";
  out += "      _describe -t commands '" + cli.name + " command' commands && ret=0\n";
  out += "      ;;\n";
  out += "    args)\n";
  out += "      case $words[1] in\n";
  for (const auto& c : cli.commands) {
    out += "        " + c.name + ")\n";
    out += "          _arguments \\\n";
    for (const auto& f : c.flags) out += "            " + zsh_spec(f) + " \\\n";
    for (const auto& p : c.positionals) {
      const std::string message = zsh_text(p.names[0]);
      out += "            '1:" + message + ":" + zsh_action(p) + "' \\\n";
    }
    out += "            && ret=0\n";
    out += "          ;;\n";
  }
  out += "      esac\n";
  out += "      ;;\n";
  out += "  esac\n";
  out += "  return ret\n";
  out += "}\n\n";
  // Loaded by compinit from $fpath, the file's body runs as the function; sourced, it
  // registers itself.
  out += "if [[ \"${zsh_eval_context[-1]}\" == loadautofunc ]]; then\n";
  out += "  " + fn + " \"$@\"\n";
  out += "else\n";
  out += "  compdef " + fn + " " + cli.name + "\n";
  out += "fi\n";
  return out;
}

std::string man_page(const CliSpec& cli) {
  std::string upper;
  for (char c : cli.name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string out;
  out += ".\\\" Generated by `" + cli.name + " man` from the command-line definition; do not edit.\n";
  out += ".TH " + upper + " 1 \"\" \"" + roff(cli.version) + "\" \"User Commands\"\n";
  out += ".SH NAME\n";
  // "oomkit: estimate, ..." -> "oomkit \- estimate, ..."
  std::string summary = cli.description;
  if (summary.rfind(cli.name + ": ", 0) == 0) summary = summary.substr(cli.name.size() + 2);
  out += roff(cli.name) + " \\- " + roff(summary) + "\n";
  out += ".SH SYNOPSIS\n";
  out += ".B " + roff(cli.name) + "\n";
  out += "[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n";
  for (const auto& c : cli.commands) {
    out += ".br\n.B " + roff(cli.name) + " " + roff(c.name) + "\n";
    for (const auto& p : c.positionals) out += "\\fI" + roff(p.names[0]) + "\\fR ";
    out += "[\\fIOPTIONS\\fR]\n";
  }
  out += ".SH DESCRIPTION\n";
  out += roff(summary) + ".\n";
  out += "Each command's options are listed under COMMANDS; \\fB" + roff(cli.name) +
         " \\fICOMMAND\\fB \\-\\-help\\fR prints the same.\n";
  out += ".SH GLOBAL OPTIONS\n";
  for (const auto& f : cli.global_flags) out += man_flag(f, false);
  out += ".SH COMMANDS\n";
  for (const auto& c : cli.commands) {
    out += ".SS \"" + roff(cli.name + " " + c.name) + "\"\n";
    out += roff(c.description) + ".\n";
    for (const auto& p : c.positionals) out += man_flag(p, true);
    for (const auto& f : c.flags) out += man_flag(f, false);
  }
  // The footer of `oomkit --help`: "Examples:" lines (kept line by line, unfilled) and the
  // "Exit codes:" paragraph.
  std::string examples = cli.footer;
  std::string exit_codes;
  if (const size_t at = examples.find("Exit codes: "); at != std::string::npos) {
    exit_codes = examples.substr(at + 12);
    examples.erase(at);
  }
  if (examples.rfind("Examples:", 0) == 0) examples.erase(0, std::min(examples.size(), examples.find('\n') + 1));
  while (!examples.empty() && examples.back() == '\n') examples.pop_back();
  if (!examples.empty()) {
    out += ".SH EXAMPLES\n.nf\n";
    std::string line;
    for (char c : examples + "\n") {
      if (c != '\n') {
        line += c;
        continue;
      }
      const size_t first = line.find_first_not_of(' ');
      out += (first == std::string::npos ? std::string() : roff(line.substr(first))) + "\n";
      line.clear();
    }
    out += ".fi\n";
  }
  if (!exit_codes.empty()) {
    std::string joined;
    for (char c : exit_codes) joined += c == '\n' ? ' ' : c;
    out += ".SH EXIT STATUS\n" + roff(joined) + "\n";
  }
  out += ".SH SEE ALSO\n";
  out += "\\fB" + roff(cli.name) + " completion bash\\fR and \\fB" + roff(cli.name) +
         " completion zsh\\fR print the shell completion scripts.\n";
  return out;
}

Subcommand add_completion_command(CLI::App& parent) {
  auto shell = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  CLI::App* app = parent.add_subcommand("completion", "Print the bash or zsh completion script (source <(oomkit completion bash))");
  app->add_option("shell", *shell, "The shell")->required()->check(one_of({"bash", "zsh"}));
  app->add_option("-o,--output", *output, "Write the script to this file")->type_name("FILE");
  return {app, [shell, output, &parent]() -> int {
            const CliSpec cli = describe_cli(parent);
            const std::string script = *shell == "bash" ? bash_completion(cli) : zsh_completion(cli);
            if (output->empty()) std::fwrite(script.data(), 1, script.size(), stdout);
            else write_file_durably(*output, {script}, "--output");
            return 0;
          }};
}

Subcommand add_man_command(CLI::App& parent) {
  auto output = std::make_shared<std::string>();
  CLI::App* app = parent.add_subcommand("man", "Print the man page (roff), or write it to -o FILE");
  app->group("");  // hidden: not in --help, not completed, not in the man page itself
  app->add_option("-o,--output", *output, "Write the page to this file")->type_name("FILE");
  return {app, [output, &parent]() -> int {
            const std::string page = man_page(describe_cli(parent));
            if (output->empty()) std::fwrite(page.data(), 1, page.size(), stdout);
            else write_file_durably(*output, {page}, "--output");
            return 0;
          }};
}

}  // namespace oomkit::cli
