"""Checks the physical layering of calib (docs/architecture.md), run by `make test`:
    python3 tests/layers/check.py
  - a source in lib/<layer>/ includes internal headers ("layer/file.hpp") and public headers
    (<calib/file.hpp>, each in the layer of PUBLIC) only of its own layer or of a layer below it, in the
    order of LAYERS;
  - a public header includes public headers of its own layer or below only;
  - every public header has a layer, and no file name of lib/registry/ is also a layer's name or the
    name of a file in another layer (going to a file by name lands in one place);
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
    "mpi.hpp": "core", "tool/random.hpp": "core",
    "data.hpp": "data",
    "npy.hpp": "io", "io.hpp": "io", "record.hpp": "io", "tool/json.hpp": "io",
    "kernels.hpp": "kernels", "mmd.hpp": "kernels",
    "estimators.hpp": "estimators", "reliability.hpp": "estimators",
    "hypothesis.hpp": "hypothesis",
    "squared_ce.hpp": "squared_ce",
    "metrics.hpp": "metrics",
    "ckce.hpp": "ckce",
    "compare.hpp": "compare", "calibration_curve.hpp": "compare", "debiased_l2.hpp": "compare",
    "smooth_ece.hpp": "compare",
    "recalibration.hpp": "recalibration", "tool/recalibration_json.hpp": "recalibration",
    "tool/synthetic.hpp": "recalibration",
    "options.hpp": "registry", "families.hpp": "registry", "registry.hpp": "registry", "calib.hpp": "registry",
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

registry_names = [os.path.splitext(os.path.basename(p))[0] for p in sources("lib/registry/*")]
other_names = set(os.path.splitext(os.path.basename(p))[0] for p in sources("lib/*/*")
                  if os.sep + "registry" + os.sep not in p)
for stem in sorted(set(registry_names)):
    if (stem in LAYERS and stem != "registry") or stem in other_names:
        violations.append("lib/registry/%s.*: shares its name with %s" % (stem, "a layer" if stem in LAYERS else
                                                                            "a file of another layer"))

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
