#!/usr/bin/env bash
# make test's stage "arch": calib's promise about identical numbers across builds
# (docs/architecture.md, "Identical numbers") on the golden set of tests/arch/golden.py:
#   bash tests/arch/run.sh CALIB PYTHONPATH OTHER_CALIB OTHER_PYTHONPATH "OTHER_UNIT_TESTS [ARGS]"
# compares this build (CALIB and its Python module) with one for another ARCH level built on the same
# machine, then with tests/arch/reference.json, the golden set as another machine printed it (its
# CPU, ARCH and date are in docs/architecture.md, "Identical numbers"); then runs the unit tests of
# the other build (2 threads), after checking that the AVX code of each build restores the vector
# registers' upper state. Ends with "N passed, M failed".
set -u
if [ $# -ne 5 ]; then
    echo "usage: bash tests/arch/run.sh CALIB PYTHONPATH OTHER_CALIB OTHER_PYTHONPATH \"OTHER_UNIT_TESTS [ARGS]\"" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python=${PYTHON:-/usr/bin/python3}
passed=0 failed=0
step() {
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $*"; fi
}
# A build whose AVX code never restores the upper halves of the vector registers (vzeroupper) makes
# every later call into glibc's SSE code pay the AVX-SSE transition penalty on Intel CPUs (exp 27x
# slower); seen once, with a precompiled header (docs/development.md, "The build's compile time").
restores_upper_state() {
    local code count
    code=$(objdump -d --no-show-raw-insn "$1") || return 1
    if ! grep -qE '%[yz]mm([0-9]|1[0-5])\b' <<<"$code"; then echo "$1: no AVX code"; return 0; fi
    count=$(grep -c vzeroupper <<<"$code")
    echo "$1: AVX code with $count vzeroupper"
    [ "$count" -gt 0 ]
}
echo "== the AVX code of each build restores the upper state"
step restores_upper_state "$1"
step restores_upper_state "$3"
step "$python" "$here/golden.py" run "$1" "$tmp/this.json" --python "$2"
step "$python" "$here/golden.py" run "$3" "$tmp/other.json" --python "$4"
echo "== this build against the build for another ARCH ($3)"
step "$python" "$here/golden.py" compare "$tmp/this.json" "$tmp/other.json"
echo "== this build against tests/arch/reference.json (another machine)"
step "$python" "$here/golden.py" compare "$here/reference.json" "$tmp/this.json"
echo "== the unit tests of the build for another ARCH"
step env OMP_NUM_THREADS=2 bash -c "$5 2>&1 | tail -n 4; exit \${PIPESTATUS[0]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
