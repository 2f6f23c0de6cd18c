"""Checks the physical layering of calib (docs/architecture.md), run by `make test`:
    python3 tests/layers/check.py
  - a source in lib/<layer>/ includes internal headers ("layer/file.hpp") only of its own layer or of a
    layer below it, in the order of LAYERS;
  - apps/, examples/ and python/src/ include no internal header (only <calib/...>, their own files and apps/harness);
  - the installed headers include/calib/*.hpp do not include calib/tool/ (not installed);
  - every folder of lib/ is a known layer.
Prints one line per violation and "layers: N files checked, M violations"; exit 1 if any."""
import glob
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LAYERS = ["core", "data", "engine", "io", "kernels", "estimators", "hypothesis", "ridge", "squared_ce", "metrics", "ckce", "compare", "recalibration",
          "registry"]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
violations = []
checked = 0


def sources(pattern):
    return [p for p in glob.glob(os.path.join(ROOT, pattern), recursive=True) if p.endswith((".cpp", ".hpp", ".ipp"))]


for folder in sorted(os.listdir(os.path.join(ROOT, "lib"))):
    if os.path.isdir(os.path.join(ROOT, "lib", folder)) and folder not in LAYERS + ["install"]:
        violations.append("lib/%s: not a layer of %s" % (folder, LAYERS))

for path in sources("lib/*/*"):
    checked += 1
    layer = os.path.relpath(path, os.path.join(ROOT, "lib")).split(os.sep)[0]
    for kind, name in INCLUDE.findall(open(path, encoding="utf-8").read()):
        if kind != '"':
            continue
        target = name.split("/")[0]
        if target not in LAYERS:
            violations.append("%s: includes \"%s\", not a layered header" % (os.path.relpath(path, ROOT), name))
        elif LAYERS.index(target) > LAYERS.index(layer):
            violations.append("%s (layer %s): includes \"%s\" from the layer %s above it"
                              % (os.path.relpath(path, ROOT), layer, name, target))

for path in sources("apps/**/*") + sources("examples/*") + sources("python/src/*"):
    checked += 1
    for kind, name in INCLUDE.findall(open(path, encoding="utf-8").read()):
        internal = (kind == '"' and (name.startswith("../lib/") or name.split("/")[0] in LAYERS)) or \
            name.startswith("../../lib")
        if internal:
            violations.append("%s: includes the internal header \"%s\"" % (os.path.relpath(path, ROOT), name))

for path in sources("include/calib/*"):
    checked += 1
    for kind, name in INCLUDE.findall(open(path, encoding="utf-8").read()):
        if name.startswith("calib/tool/"):
            violations.append("%s: an installed header includes <%s>, which is not installed"
                              % (os.path.relpath(path, ROOT), name))

for v in violations:
    print("FAIL: " + v)
print("layers: %d files checked, %d violations" % (checked, len(violations)))
sys.exit(1 if violations else 0)
