"""Checks the physical layering of calib (docs/architecture.md), run by `make test`:
    python3 tests/layers/check.py
  - a source in lib/<layer>/ includes internal headers ("layer/file.hpp") and public headers
    (<calib/file.hpp>, each in the layer of PUBLIC) only of its own layer or of a layer below it, in the
    order of LAYERS;
  - a public header includes public headers of its own layer or below only;
  - every public header has a layer; a file name (without its extension) is in one layer only, counting
    the public headers in their layer, and no file is named like another layer (going to a file by
    name lands in one place);
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
# The layer of each public header: the lowest layer whose declarations it holds may be included by
# that layer and those above it (calib.hpp, the umbrella, is the top's).
PUBLIC = {
    "errors.hpp": "core", "eigen.hpp": "core", "parallel.hpp": "core", "seed.hpp": "core", "version.hpp": "core",
    "mpi.hpp": "core", "tool/random.hpp": "core", "working_memory.hpp": "core",
    "data.hpp": "data",
    "npy.hpp": "io", "io.hpp": "io", "record.hpp": "io", "tool/json.hpp": "io",
    "kernels.hpp": "kernels", "mmd.hpp": "kernels", "mmd_kinds.hpp": "kernels",
    "estimators.hpp": "estimators", "reliability.hpp": "estimators", "isotonic.hpp": "estimators",
    "corp.hpp": "estimators", "prediction_bins.hpp": "estimators", "scores.hpp": "estimators",
    "hypothesis.hpp": "hypothesis",
    "squared_ce.hpp": "squared_ce",
    "metrics.hpp": "metrics",
    "ckce.hpp": "ckce",
    "compare.hpp": "compare", "calibration_curve.hpp": "compare", "debiased_l2.hpp": "compare",
    "smooth_ece.hpp": "compare",
    "recalibration.hpp": "recalibration",
    "tool/synthetic.hpp": "recalibration", "tool/command.hpp": "registry",
    "options.hpp": "registry", "families.hpp": "registry", "registry.hpp": "registry", "operation.hpp": "registry",
    "report.hpp": "registry",
    "calib.hpp": "registry",
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
violations = []
checked = 0


def sources(pattern):
    return [p for p in glob.glob(os.path.join(ROOT, pattern), recursive=True) if p.endswith((".cpp", ".hpp", ".ipp"))]


for folder in sorted(os.listdir(os.path.join(ROOT, "lib"))):
    if os.path.isdir(os.path.join(ROOT, "lib", folder)) and folder not in LAYERS + ["install"]:
        violations.append("lib/%s: not a layer of %s" % (folder, LAYERS))

for header in sorted(glob.glob(os.path.join(ROOT, "include", "calib", "**", "*.hpp"), recursive=True)):
    name = os.path.relpath(header, os.path.join(ROOT, "include", "calib")).replace(os.sep, "/")
    if name not in PUBLIC:
        violations.append("include/calib/%s: a public header without a layer (add it to PUBLIC)" % name)


def public_layer(path, name):
    """The layer of <calib/name>, or None (a violation recorded) when it has none."""
    header = name[len("calib/"):]
    if header not in PUBLIC:
        violations.append("%s: includes <%s>, a public header without a layer" % (os.path.relpath(path, ROOT), name))
        return None
    return PUBLIC[header]


def check_upward(path, layer, name, target):
    if target is not None and LAYERS.index(target) > LAYERS.index(layer):
        violations.append("%s (layer %s): includes %s from the layer %s above it"
                          % (os.path.relpath(path, ROOT), layer, name, target))


for path in sources("lib/*/*"):
    checked += 1
    layer = os.path.relpath(path, os.path.join(ROOT, "lib")).split(os.sep)[0]
    for kind, name in INCLUDE.findall(open(path, encoding="utf-8").read()):
        if kind == "<":
            if name.startswith("calib/"):
                check_upward(path, layer, "<%s>" % name, public_layer(path, name))
            continue
        target = name.split("/")[0]
        if target not in LAYERS:
            violations.append("%s: includes \"%s\", not a layered header" % (os.path.relpath(path, ROOT), name))
        else:
            check_upward(path, layer, '"%s"' % name, target)

# Going to a file by name lands in one layer: a file's name (without its extension) is in one layer
# only — lib/<layer>/ and the public headers of that layer — and no file is named like another layer.
layers_of = {}
for path in sources("lib/*/*"):
    layers_of.setdefault(os.path.splitext(os.path.basename(path))[0], set()).add(
        os.path.relpath(path, os.path.join(ROOT, "lib")).split(os.sep)[0])
for name, layer in PUBLIC.items():
    layers_of.setdefault(os.path.splitext(os.path.basename(name))[0], set()).add(layer)
for stem, layers in sorted(layers_of.items()):
    if len(layers) > 1:
        violations.append("%s.*: a file name of the layers %s (one name, one layer)" % (stem, ", ".join(sorted(layers))))
    if stem in LAYERS and layers != {stem}:
        violations.append("%s.*: named like the layer %s, but in %s" % (stem, stem, ", ".join(sorted(layers))))

for path in sources("apps/**/*") + sources("examples/*") + sources("python/src/*"):
    checked += 1
    for kind, name in INCLUDE.findall(open(path, encoding="utf-8").read()):
        internal = (kind == '"' and (name.startswith("../lib/") or name.split("/")[0] in LAYERS)) or \
            name.startswith("../../lib")
        if internal:
            violations.append("%s: includes the internal header \"%s\"" % (os.path.relpath(path, ROOT), name))

for path in sources("include/calib/**/*"):
    checked += 1
    layer = PUBLIC.get(os.path.relpath(path, os.path.join(ROOT, "include", "calib")).replace(os.sep, "/"))
    installed = os.sep + "tool" + os.sep not in path
    for kind, name in INCLUDE.findall(open(path, encoding="utf-8").read()):
        if installed and name.startswith("calib/tool/"):
            violations.append("%s: an installed header includes <%s>, which is not installed"
                              % (os.path.relpath(path, ROOT), name))
        elif name.startswith("calib/") and layer is not None:
            check_upward(path, layer, "<%s>" % name, public_layer(path, name))

for v in violations:
    print("FAIL: " + v)
print("layers: %d files checked, %d violations" % (checked, len(violations)))
sys.exit(1 if violations else 0)
