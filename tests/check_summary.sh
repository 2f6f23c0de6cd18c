#!/usr/bin/env bash
# The end of `make test`: one line per stage from what tests/check_stage.sh recorded (a stage with
# no record did not run, because something it needs failed to build), then the closing line
# "checks: N passed, M failed". Exits 1 if any stage failed or did not run.
#   bash tests/check_summary.sh STATUS_DIR STAGE...
set -u
dir=$1
shift
passed=0 failed=0
echo "== make test: one line per stage"
for stage in "$@"; do
    if [ -f "$dir/$stage" ]; then
        status=$(cat "$dir/$stage")
    else
        status="FAILED: did not run (what it needs failed to build; see above)"
    fi
    case "$status" in
        passed*) passed=$((passed + 1)) ;;
        *) failed=$((failed + 1)) ;;
    esac
    printf '  %-14s %s\n' "$stage" "$status"
done
echo "checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
