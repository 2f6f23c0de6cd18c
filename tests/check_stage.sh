#!/usr/bin/env bash
# One stage of `make test`: runs a command, prints its output, and records how it ended for the
# summary that `make test` prints after every stage has run (tests/check_summary.sh):
#   bash tests/check_stage.sh STATUS_DIR NAME COMMAND...
# STATUS_DIR/NAME gets one line, "passed" or "FAILED (exit N)", and the wall time. Exits as the
# command did.
set -u
dir=$1 name=$2
shift 2
mkdir -p "$dir"
start=$(date +%s)
"$@"
rc=$?
seconds=$(( $(date +%s) - start ))
if [ "$rc" -eq 0 ]; then
    echo "passed in ${seconds} s" >"$dir/$name"
else
    echo "FAILED (exit $rc) after ${seconds} s" >"$dir/$name"
fi
exit "$rc"
