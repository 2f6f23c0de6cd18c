#!/usr/bin/env bash
# The installed library as a user gets it, run by `make test`:
#   bash tests/install/run.sh
# `make install` into a temporary prefix; then examples/readme.cpp and examples/tour.cpp (the
# README's and docs/api.md's C++ examples) built through pkg-config with the user's flags — -O0, -O2
# without any -march (the library itself is built with -march=native) and -O2 -march=native — and
# through the CMake package (find_package(calib), target calib::calib) in a Debug and a native
# Release build. Every build must run and
# print the same numbers. A program that includes Eigen before calib without calib's alignment must
# fail to compile with a message saying what to do. Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

prefix="$tmp/prefix"
if make --no-print-directory install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then ok; else
    bad "make install failed: $(tail -n 5 "$tmp/install.log")"; echo "install: $passed passed, $failed failed"; exit 1
fi
for f in include/calib/calib.hpp include/calib/eigen.hpp lib/libcalib.a bin/calib lib/pkgconfig/calib.pc \
         lib/cmake/calib/calibConfig.cmake lib/cmake/calib/calibConfigVersion.cmake; do
    [ -e "$prefix/$f" ] && ok || bad "make install did not install $f"
done
[ -e "$prefix/bin/repro-neurips2019" ] && bad "make install installed a reproduction app" || ok

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags_of=$(pkg-config --cflags --libs calib) || { bad "pkg-config --cflags --libs calib failed"; flags_of=""; }
data=apps/demo/calibrated.csv

# build NAME SOURCE FLAGS...: compiles with the user's flags and pkg-config's (run in the background;
# check reports a failure).
build() {
    local name=$1 source=$2
    shift 2
    c++ -std=c++17 "$@" "$source" $flags_of -o "$tmp/$name" 2>"$tmp/$name.log"
}
# check NAME REFERENCE ARGS...: runs a built program; its output must equal REFERENCE's.
check() {
    local name=$1 reference=$2
    shift 2
    if [ ! -x "$tmp/$name" ]; then bad "$name: does not compile: $(head -c 400 "$tmp/$name.log" 2>/dev/null)"; return; fi
    if "$tmp/$name" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then ok; else
        bad "$name exited $?: $(head -c 300 "$tmp/$name.err")"; return
    fi
    if [ "$name" != "$reference" ]; then
        cmp -s "$tmp/$name.out" "$tmp/$reference.out" && ok || bad "$name prints $(cat "$tmp/$name.out"), $reference $(cat "$tmp/$reference.out")"
    fi
}

for example in readme tour; do
    build $example-O0 examples/$example.cpp -O0 & build $example-O2 examples/$example.cpp -O2 & wait
    build $example-native examples/$example.cpp -O2 -march=native
done
check readme-O2 readme-O2 "$data"
grep -q "^skce_unbiased = " "$tmp/readme-O2.out" && ok || bad "readme prints no estimate: $(cat "$tmp/readme-O2.out")"
# The README shows this run's output as comments ("# n = 400, ..."): it must be what the program prints.
sed -n 's/^# \(n = .*\|skce_unbiased = .*\)$/\1/p' README.md >"$tmp/readme-shown.out"
cmp -s "$tmp/readme-shown.out" "$tmp/readme-O2.out" && ok ||
    bad "README shows $(cat "$tmp/readme-shown.out"), examples/readme prints $(cat "$tmp/readme-O2.out")"
check tour-O2 tour-O2
grep -q "^compared 2 models" "$tmp/tour-O2.out" && ok || bad "tour did not finish: $(cat "$tmp/tour-O2.out")"
for flags in O0 native; do
    check readme-$flags readme-O2 "$data"
    check tour-$flags tour-O2
done

# The CMake package: a Debug build (-O0) and a Release build for the native instruction set.
for config in "Debug" "Release -DCMAKE_CXX_FLAGS=-march=native"; do
    dir="$tmp/cmake-${config%% *}"
    if cmake -S examples -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=$config >"$dir.log" 2>&1 &&
       cmake --build "$dir" -j 2 >>"$dir.log" 2>&1; then
        ok
        cp "$dir/readme" "$tmp/readme-cmake" && check readme-cmake readme-O2 "$data"
        cp "$dir/tour" "$tmp/tour-cmake" && check tour-cmake tour-O2
    else
        bad "the CMake consumer does not build ($config): $(tail -n 8 "$dir.log")"
    fi
done

# Eigen included first without calib's alignment, for a target whose own alignment differs (x86-64:
# 16 bytes): refused at compile time, saying what to do.
printf '#include <Eigen/Core>\n#include <calib/calib.hpp>\nint main() {}\n' >"$tmp/eigen_first.cpp"
if c++ -std=c++17 -march=x86-64 -fsyntax-only -I"$prefix/include" -isystem /usr/include/eigen3 "$tmp/eigen_first.cpp" 2>"$tmp/eigen_first.log"; then
    bad "Eigen included first with 16-byte alignment compiled"
else
    grep -q "EIGEN_MAX_ALIGN_BYTES=64" "$tmp/eigen_first.log" && ok || bad "no alignment message: $(head -c 300 "$tmp/eigen_first.log")"
fi

echo "install: $passed passed, $failed failed"
[ $failed -eq 0 ]
