# Sourced by the data-parallel test scripts (sh): kill_rank1_and_check RUN_DIR JOB ERR_FILE LABEL
# kills rank 1 of the job whose run directory is RUN_DIR (found by its RANK=1 environment), waits
# for the launcher (JOB, a background pid) and checks that the job ended nonzero (not by the
# `timeout` around it) with one line naming the dead rank in ERR_FILE. Sets fail=1 on any miss.
kill_rank1_and_check() {
  _dir="$1"; _job="$2"; _err="$3"; _label="$4"
  _victim=$(pgrep -f -- "--run-dir $_dir" | while read p; do
    if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx 'RANK=1'; then echo $p; fi; done | head -n 1)
  if [ -z "$_victim" ]; then echo "FAIL: $_label: rank 1 not found"; fail=1; kill "$_job"; fi
  [ -n "$_victim" ] && kill -9 "$_victim"
  wait "$_job"
  _rc=$?
  if [ "$_rc" -eq 0 ] || [ "$_rc" -eq 124 ]; then echo "FAIL: $_label: job exit $_rc"; fail=1; fi
  if ! grep -q '^error: rank 1 (pid [0-9]*) was killed by signal 9' "$_err"; then
    echo "FAIL: $_label: no error line naming rank 1"; cat "$_err"; fail=1
  fi
}
