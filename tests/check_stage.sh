#!/usr/bin/env bash
# One stage of `make test`: runs a command, prints its output, and records how it ended for the
# summary that `make test` prints after every stage has run (tests/check_summary.sh):
#   bash tests/check_stage.sh STATUS_DIR NAME COMMAND...
# STATUS_DIR/NAME gets one line, "passed" or "FAILED (exit N)", and the wall time. Exits as the
# command did.
set -u
# make test runs two stages at a time beside the builds of the others, so the cores are shared: an
# OpenMP thread that spins while it waits (libgomp's default, OMP_WAIT_POLICY=active) takes the core
# from the thread it waits for. Measured on 2 cores (Intel Xeon, 2026-11-27), the unit tests beside
# two compiles: 199 s spinning, 65 s passive; on idle cores 34.6 s and 40.3 s (docs/performance.md).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
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
