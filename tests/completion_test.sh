#!/usr/bin/env bash
# Shell completion and the man page (issue 13 item 5), generated from the CLI definition:
# every flag that `oomkit CMD --help` lists is completed by bash (asked through the completion
# function itself) and zsh, and documented in CMD's section of the man page; the bash script
# completes command names, flag prefixes, enum values and files; the zsh script parses (when
# zsh is installed); the man page renders without groff warnings.
#   completion_test.sh OOMKIT MAN_PAGE HAS_TRAIN
set -u
exe=$1
man_page=$2
has_train=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

commands="estimate gpus diagnose report completion"
if [ "$has_train" = 1 ]; then commands="$commands train"; fi

"$exe" completion bash >"$tmp/oomkit.bash" || bad "completion bash exits non-zero"
"$exe" completion zsh >"$tmp/_oomkit" || bad "completion zsh exits non-zero"
bash -n "$tmp/oomkit.bash" || bad "bash -n rejects the bash script"

# shellcheck disable=SC1090
source "$tmp/oomkit.bash"
# complete WORD...: the completions of the last word of "oomkit WORD...", one per line.
complete_line() {
  COMP_WORDS=(oomkit "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _oomkit
  printf '%s\n' "${COMPREPLY[@]}"
}
expect_completion() {  # expect_completion WANT WORD...: WANT among the completions
  local want=$1
  shift
  complete_line "$@" | grep -qx -- "$want" || bad "'oomkit $*' does not complete to '$want' (got: $(complete_line "$@" | tr '\n' ' '))"
}
expect_no_completion() {  # expect_no_completion NOT WORD...
  local not=$1
  shift
  if complete_line "$@" | grep -qx -- "$not"; then bad "'oomkit $*' completes to '$not'"; fi
}

expect_completion estimate est
expect_completion diagnose -q di
expect_completion completion comp
expect_completion --precision estimate --model gpt2 --prec
expect_completion --batch-size estimate --batch
expect_completion bf16-mixed estimate --precision ""
expect_completion chapter estimate --precision ""
expect_completion fp16-mixed diagnose --precision fp
expect_completion zsh completion ""
expect_no_completion --precision estimate --precision ""
if [ "$has_train" = 1 ]; then
  expect_completion recover train --on-oom r
  expect_completion --memory-limit train --memory-l
  expect_no_completion chapter train --precision ""   # the trainer has no 'chapter' precision
fi
# Path flags complete files.
mkdir -p "$tmp/cwd/logs" && touch "$tmp/cwd/logs/oom-run.log"
(cd "$tmp/cwd" && complete_line diagnose --timeline logs/o) | grep -qx "logs/oom-run.log" || bad "diagnose --timeline completes no file"
(cd "$tmp/cwd" && complete_line diagnose logs/o) | grep -qx "logs/oom-run.log" || bad "diagnose LOG completes no file"
# A number takes no completion (neither flags nor files).
[ -z "$(complete_line estimate --batch-size "")" ] || bad "estimate --batch-size offers completions"

# The flags of CMD --help: the first column of the indented option lines.
flags_of() {
  "$exe" "$1" --help 2>/dev/null | grep -E '^  -' | awk '{print $1}' | tr ',' '\n' | grep -E '^-'
}
# zsh: the part of the script for one command (from "        CMD)" to its ";;").
zsh_section() {
  awk -v c="        $1)" '$0 == c {on = 1; next} on && /^          ;;/ {exit} on {print}' "$tmp/_oomkit"
}
# man: CMD's section, roff escapes removed.
man_section() {
  sed -e 's/\\-/-/g' -e 's/\\f[BIR]//g' "$man_page" |
    awk -v c=".SS \"oomkit $1\"" '$0 == c {on = 1; next} on && /^\.S[SH]/ {exit} on {print}'
}
for cmd in $commands; do
  flags=$(flags_of "$cmd")
  [ -n "$flags" ] || bad "$cmd --help lists no flags"
  bash_flags=$(complete_line "$cmd" -)
  zsh_part=$(zsh_section "$cmd")
  man_part=$(man_section "$cmd")
  [ -n "$zsh_part" ] || bad "zsh script has no section for $cmd"
  [ -n "$man_part" ] || bad "man page has no section for $cmd"
  for flag in $flags; do
    echo "$bash_flags" | grep -qx -- "$flag" || bad "bash: '$cmd $flag' is not completed"
    echo "$zsh_part" | grep -qE -- "'$flag\[|[{,]$flag[,}]" || bad "zsh: '$cmd $flag' is missing"
    # a .TP tag line: "-b, --batch-size INT" / "--model NAME|FILE"
    echo "$man_part" | grep -E '^-' | tr ',' ' ' | tr ' ' '\n' | grep -qx -- "$flag" || bad "man: '$cmd $flag' is missing"
  done
done
# The header's source field is the version `oomkit --version` prints; the top-level examples are
# an EXAMPLES section, one line each, and EXIT STATUS holds only the exit codes.
version=$("$exe" --version)
grep -qF ".TH OOMKIT 1 \"\" \"$version\"" "$man_page" || bad "man: the .TH line does not carry '$version'"
awk '/^\.SH EXIT STATUS/ { on = 1; next } /^\.SH/ { on = 0 } on' "$man_page" | grep -q "oomkit" &&
  bad "man: EXIT STATUS holds more than the exit codes"
"$exe" --help | awk '/^Examples:/ { on = 1; next } on && /^  oomkit / { sub(/^  /, ""); print; next } { on = 0 }' |
  while IFS= read -r example; do
    sed -n '/^\.SH EXAMPLES/,/^\.fi/p' "$man_page" | sed 's/\\-/-/g' | grep -qxF -- "$example" ||
      { echo "FAIL: man: example missing from EXAMPLES: $example"; exit 1; }
  done || fail=1

# The global flags.
for flag in -q --quiet -v --verbose --version -h --help; do
  complete_line - | grep -qx -- "$flag" || bad "bash: global $flag is not completed"
  grep -q -- "$flag" "$tmp/_oomkit" || bad "zsh: global $flag is missing"
  sed 's/\\-/-/g' "$man_page" | grep -q -- "$flag" || bad "man: global $flag is missing"
done

if command -v zsh >/dev/null; then
  zsh -n "$tmp/_oomkit" || bad "zsh -n rejects the zsh script"
  # Loaded for real: compinit, then the script registers _oomkit for oomkit.
  zsh -f -c "autoload -Uz compinit && compinit -u -D && source '$tmp/_oomkit' && [[ \${_comps[oomkit]} == _oomkit ]]" ||
    bad "zsh: sourcing the script does not register _oomkit"
else
  echo "note: zsh not installed; its syntax check is skipped (scripts/setup.sh installs it)"
fi

if command -v groff >/dev/null; then
  warnings=$(groff -man -Tascii -ww -z "$man_page" 2>&1)
  [ -z "$warnings" ] || bad "groff warns on the man page: $warnings"
  text=$(groff -man -Tascii -P-cbu "$man_page" 2>/dev/null)
  echo "$text" | grep -q "OOMKIT(1)" || bad "the man page does not render a header"
  echo "$text" | grep -q "EXIT STATUS" || bad "the man page has no EXIT STATUS"
  if command -v man >/dev/null; then
    MANWIDTH=100 man -l "$man_page" >/dev/null 2>"$tmp/man.err" || bad "man -l fails: $(cat "$tmp/man.err")"
  fi
else
  echo "note: groff not installed; the rendering check is skipped"
fi

# The page the build wrote is the one the binary prints now.
"$exe" man | cmp -s - "$man_page" || bad "$man_page differs from 'oomkit man' (stale build output)"

[ "$fail" -eq 0 ] && echo "completion: all checks passed"
exit "$fail"
