#!/usr/bin/env bash
# Smoke tests of the reproduction apps (build/bin/repro-*), run by `make test`:
#   bash tests/repro/run.sh build/bin
# Each app runs with --quick; its CSVs must be well-formed (a header, the same number of cells on
# every line, numbers where numbers belong, p-values in [0, 1]) and each must have a JSON sidecar
# with the documented keys. Then: the same seed gives byte-identical CSVs with 1 and 2 threads
# (timing files excepted), --resume skips finished cells without touching them, and bad options
# exit 2. Ends with "N passed, M failed" and fails if M > 0.
set -u

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: bash tests/repro/run.sh BINDIR (the directory holding repro-*)" >&2
    exit 2
fi
bindir=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

# The apps built on apps/harness (repro-ckce has its own check, tests/repro/check_ckce.sh).
apps=()
for a in repro-neurips2019 repro-iclr2021-synthetic repro-iclr2021-ols repro-iclr2021-friedman repro-validity repro-gruber-bach repro-marx repro-arena; do
    [ -x "$bindir/$a" ] && apps+=("$a")
done
[ ${#apps[@]} -eq 8 ] && ok || bad "expected the 8 harness apps in $bindir, found ${#apps[@]}"

for app in "${apps[@]}"; do
    out="$tmp/$app"
    if "$bindir/$app" --quick --quiet --threads 2 --out "$out" >"$tmp/$app.stdout" 2>"$tmp/$app.stderr"; then
        ok
    else
        bad "$app --quick exited $?: $(head -c 300 "$tmp/$app.stderr")"
        continue
    fi
    [ -s "$tmp/$app.stdout" ] && bad "$app printed on stdout (data goes to files)" || ok
    if python3 "$here/check_outputs.py" "$app" "$out"; then ok; else bad "$app: outputs are not well-formed"; fi
done

# Determinism: the same seed gives the same CSVs with 1 thread (timings excepted).
for app in "${apps[@]}"; do
    "$bindir/$app" --quick --quiet --threads 1 --out "$tmp/$app.t1" 2>/dev/null || { bad "$app --threads 1 failed"; continue; }
    differ=""
    for f in "$tmp/$app"/*.csv; do
        name=$(basename "$f")
        case "$name" in *_times.csv) continue ;; esac
        cmp -s "$f" "$tmp/$app.t1/$name" || differ="$differ $name"
    done
    [ -z "$differ" ] && ok || bad "$app: CSVs differ between 1 and 2 threads:$differ"
done

# --resume: finished cells are skipped and left untouched.
app=repro-neurips2019
if [ -x "$bindir/$app" ]; then
    before=$(cat "$tmp/$app"/M1.csv "$tmp/$app"/M1.meta.json | cksum)
    "$bindir/$app" --quick --quiet --resume --out "$tmp/$app" 2>"$tmp/resume.stderr" || bad "$app --resume failed"
    grep -q "resume: M1 is done, skipped" "$tmp/resume.stderr" && ok || bad "$app --resume did not skip M1"
    after=$(cat "$tmp/$app"/M1.csv "$tmp/$app"/M1.meta.json | cksum)
    [ "$before" = "$after" ] && ok || bad "$app --resume rewrote M1"
    # A different seed is a different cell: not skipped.
    "$bindir/$app" --quick --quiet --resume --seed 7 --out "$tmp/$app" 2>"$tmp/resume7.stderr" || bad "$app --resume --seed 7 failed"
    grep -q "skipped" "$tmp/resume7.stderr" && bad "$app --resume skipped cells of another seed" || ok
fi

# repro-marx: its two cells are skipped by --resume and left untouched (the summaries are rewritten the same).
app=repro-marx
if [ -x "$bindir/$app" ] && [ -d "$tmp/$app" ]; then
    before=$(cat "$tmp/$app"/*.csv | cksum)
    "$bindir/$app" --quick --quiet --resume --out "$tmp/$app" 2>"$tmp/resume-marx.stderr" || bad "$app --resume failed"
    [ "$(grep -c 'is done, skipped' "$tmp/resume-marx.stderr")" -eq 2 ] && ok || bad "$app --resume did not skip its 2 cells"
    after=$(cat "$tmp/$app"/*.csv | cksum)
    [ "$before" = "$after" ] && ok || bad "$app --resume changed a CSV"
fi

# Usage errors exit 2 with one line on stderr.
for args in "--reps 0" "--threads x" "--frobnicate" "--out"; do
    "$bindir/${apps[0]}" $args >/dev/null 2>"$tmp/usage.stderr"
    code=$?
    [ $code -eq 2 ] && [ "$(wc -l <"$tmp/usage.stderr")" -eq 1 ] && ok || bad "${apps[0]} $args: exit $code, stderr: $(cat "$tmp/usage.stderr")"
done
"$bindir/${apps[0]}" --help | grep -q -- "--resume" && ok || bad "${apps[0]} --help does not document --resume"

echo "repro apps: $passed passed, $failed failed"
[ $failed -eq 0 ]
