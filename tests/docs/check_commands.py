"""Runs every command of the documentation and compares what it prints with what the page shows
(`make test`):
    python3 tests/docs/check_commands.py build/bin/calib

Commands are taken from the fenced code blocks of README.md and docs/*.md, except blocks marked
```text (synopses) or with another language (```cpp, ```python, ...):
  - a line starting with "$ " is a command (continued by lines ending in a backslash); the lines
    after it, up to the next "$ " line or the end of the block, are its output as shown;
  - a line starting with "calib " or "build/bin/calib " is a command whose output is not shown.
A command ending in "# illustrative" is not run. Shown output is compared line by line: "…" in a
line stands for any text (an abbreviated value or field list), and a line that is only "…" for any
number of lines; numbers match under calib's promise about identical numbers across builds
(printed_numbers.py: a relative tolerance and the last printed digit). Shown output that starts with "calib: " is an error: the command must exit 2 and
print it on stderr; otherwise it must exit 0.

First, examples/data must be exactly what examples/data/generate.py writes. Blocks whose commands
use build/bin/calib run in the repository root; the others run in a fresh
copy of examples/data with `calib` on PATH (the docs tell the reader to cd there). The commands of
one block run in order in the same directory (so `printf ... > file` feeds the next command).
The README's C++ block must be examples/readme.cpp, whole (make test compiles and runs that file).
Prints one line per failure and "docs: N passed, M failed"; exit 1 if any failed.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import printed_numbers  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
binary = os.path.abspath(sys.argv[1])
passed, failed = 0, 0


def fail(where, message):
    global failed
    failed += 1
    print("FAIL: %s: %s" % (where, message))


def blocks(path):
    """(line number, language, lines) of each fenced block."""
    out, current, language, start = [], None, None, 0
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), start=1):
        if line.startswith("```"):
            if current is None:
                current, language, start = [], line[3:].strip(), number
            else:
                out.append((start, language, current))
                current = None
        elif current is not None:
            current.append(line)
    return out


def commands(lines):
    """(command, shown output lines or None) in the order of the block."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i].strip()
        prompted = line.startswith("$ ")
        if not prompted and not (line.startswith("calib ") or line.startswith("build/bin/calib ")):
            i += 1
            continue
        command = line[2:] if prompted else line
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1].rstrip() + " " + lines[i].strip()
        i += 1
        shown = None
        if prompted:
            shown = []
            while i < len(lines) and not lines[i].strip().startswith("$ "):
                shown.append(lines[i].rstrip())
                i += 1
            while shown and not shown[-1]:
                shown.pop()
        out.append((command, shown))
    return out


def matches(shown, actual):
    """Line-by-line comparison with "…" wildcards, numbers under the promise of printed_numbers.py."""
    text = "\n".join(shown) + "\n"
    return printed_numbers.matches(text, actual if actual.endswith("\n") else actual + "\n")


def run_block(where, block_commands):
    global passed
    in_root = any(c.startswith("build/bin/calib") for c, _ in block_commands)
    work = tempfile.mkdtemp()
    try:
        if in_root:
            cwd = ROOT
        else:
            cwd = os.path.join(work, "data")
            shutil.copytree(os.path.join(ROOT, "examples", "data"), cwd)
        bindir = os.path.join(work, "bin")
        os.makedirs(bindir)
        os.symlink(binary, os.path.join(bindir, "calib"))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), OMP_NUM_THREADS="2")
        for command, shown in block_commands:
            if command.rstrip().endswith("# illustrative"):
                continue
            run = command.replace("build/bin/calib", binary, 1) if command.startswith("build/bin/calib") else command
            result = subprocess.run(["bash", "-c", run], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
            label = "%s: %s" % (where, command[:90])
            error = bool(shown) and shown[0].startswith("calib: ")
            if result.returncode != (2 if error else 0):
                fail(label, "exit %d (expected %d): %s" % (result.returncode, 2 if error else 0, result.stderr.strip()[:300]))
                continue
            if shown and not matches(shown, result.stderr if error else result.stdout):
                fail(label, "prints\n%s\n  but the page shows\n%s" % (
                    (result.stderr if error else result.stdout).rstrip()[:1500], "\n".join(shown)))
                continue
            passed += 1
    finally:
        shutil.rmtree(work)


# The sample data are what their script writes (so that the script documents them exactly).
with tempfile.TemporaryDirectory() as fresh:
    subprocess.run([sys.executable, os.path.join(ROOT, "examples", "data", "generate.py"), fresh], check=True)
    for name in sorted(os.listdir(fresh)):
        shipped = os.path.join(ROOT, "examples", "data", name)
        if not os.path.exists(shipped) or open(shipped, "rb").read() != open(os.path.join(fresh, name), "rb").read():
            fail("examples/data/" + name, "differs from what examples/data/generate.py writes")
        else:
            passed += 1

for path in [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
    for start, language, lines in blocks(path):
        if language not in ("", "sh", "bash", "console"):
            continue
        found = commands(lines)
        if found:
            run_block("%s:%d" % (os.path.relpath(path, ROOT), start), found)

# The README's C++ program is examples/readme.cpp, whole (make test builds and runs that file).
program = open(os.path.join(ROOT, "examples", "readme.cpp"), encoding="utf-8").read().rstrip("\n").split("\n")
shown_programs = [lines for _, language, lines in blocks(os.path.join(ROOT, "README.md"))
                  if language == "cpp" and lines[:1] == program[:1]]
if shown_programs == [program]:
    passed += 1
else:
    fail("README.md", "its C++ block is not examples/readme.cpp as it is (%d blocks start like it)" % len(shown_programs))

print("docs: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
