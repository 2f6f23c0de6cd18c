"""pip install --no-build-isolation .  — the Python module calib, built offline with Debian's setuptools,
pybind11 and NumPy (python3-setuptools, python3-pybind11, pybind11-dev, python3-numpy, libeigen3-dev,
libboost-math-dev, libboost-random-dev). The library's sources are compiled into the extension as
`make python` does (docs/python.md). CALIB_ARCH sets -march (default native: the machine it is built on);
CALIB_JOBS the parallel compile jobs (default: all cores)."""

import glob
import os
import re

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

ParallelCompile("CALIB_JOBS", default=0).install()

with open("include/calib/version.hpp") as f:
    version = re.search(r'version = "([^"]+)"', f.read()).group(1)

arch = os.environ.get("CALIB_ARCH", "native")
module = Pybind11Extension(
    "calib._calib",
    # *_mpi.cpp: the MPI layer, built only by `make mpi` (docs/scaling.md).
    sorted(glob.glob("python/src/*.cpp")) + sorted(p for p in glob.glob("lib/*/*.cpp") if not p.endswith("_mpi.cpp")),
    include_dirs=["include", "lib"],
    # NDEBUG: calib checks every size itself; the alignment is part of calib's ABI (Makefile, EIGEN_ABI).
    define_macros=[("NDEBUG", None), ("EIGEN_MAX_ALIGN_BYTES", "64")],
    extra_compile_args=["-isystem", "/usr/include/eigen3", "-O3", f"-march={arch}", "-fopenmp",
                        "-fno-semantic-interposition"],
    extra_link_args=["-fopenmp"],
    cxx_std=17,
)

setup(
    name="calib",
    version=version,
    description="Calibration errors and calibration tests of probabilistic models",
    packages=["calib"],
    package_dir={"": "python"},
    ext_modules=[module],
    cmdclass={"build_ext": build_ext},
    python_requires=">=3.8",
    install_requires=["numpy"],
)
