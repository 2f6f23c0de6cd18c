# calib — every entry point of the project.
#   make            library + apps          make test       every check, one summary line per stage
#   make demo       the bundled example     make test-unit  unit tests (T=NAME: test cases named *NAME*)
#   make test-slow  long statistical studies
#   make bench      benchmarks              make install    PREFIX=/usr/local
#   make bench-side calib beside scikit-learn, NumPy/SciPy and a plain SIMD loop (QUICK=1: small sizes)
#   make repro      paper experiments       make figures    docs/figures/*.png from results/
#   make study-squared-ce   which squared-CE estimator to trust (docs/squared_ce.md)
#   make deps       every Debian package    make clean      (each target installs what it uses)
#   make sanitize   ASan+UBSan tests        make fuzz       libFuzzer harnesses (FUZZ_SECONDS each)
#   make python     the Python module (build/python; PYTHON=... picks the interpreter)
#   make mpi        MPI builds of calib and the repro-* apps in build/mpi/bin (docs/scaling.md)
# Overridable: ARCH (default native, e.g. ARCH=x86-64-v2), CXX, OPT, TEST_OPT, DEFINES, PREFIX, JOBS, PYTHON; V=1
# prints the full compiler command lines.

CXX      ?= g++
ARCH     ?= native
OPT      ?= -O3
PREFIX   ?= /usr/local
BUILD    := build
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
VERSION  := 0.1.0

# Release builds leave Eigen's assertions out: calib checks every size itself and throws.
DEFINES  ?= -DNDEBUG
# Eigen's alignment is fixed at 64 bytes whatever ARCH, because it is part of calib's ABI: a program
# built with other -march flags must allocate and free Eigen data the same way (include/calib/eigen.hpp).
EIGEN_ABI := -DEIGEN_MAX_ALIGN_BYTES=64
CPPFLAGS := -Iinclude -isystem /usr/include/eigen3 $(EIGEN_ABI) $(DEFINES) -MMD -MP
# -fPIC: the library also goes into a shared object (the Python module); -fno-semantic-interposition
# keeps the calls inside it as direct, and as inlinable, as in an executable.
CXXFLAGS := -std=c++17 $(OPT) -march=$(ARCH) -fPIC -fno-semantic-interposition -fopenmp -Wall -Wextra -Wpedantic -Wshadow
# GCC 12 reports false "uninitialized" warnings inside its own AVX-512 intrinsics (__Y of
# _mm512_undefined_pd, GCC bug 105593) wherever Eigen vectorises for AVX-512. Our own code is kept
# free of these warnings by `make warnings`, which builds for AVX2 with -Werror.
ifeq ($(shell $(CXX) -march=$(ARCH) -dM -E -x c++ /dev/null 2>/dev/null | grep -c __AVX512F__),1)
CXXFLAGS += -Wno-uninitialized -Wno-maybe-uninitialized
endif
LDFLAGS  := -fopenmp
IS_GCC := $(filter 0,$(shell $(CXX) -dM -E -x c++ /dev/null 2>/dev/null | grep -c __clang__))
# The unit tests' own code is compiled at -O1 (appended, so it wins over OPT): it is mostly
# assertions and small references, the library it calls keeps OPT, and -O1 halves its compile time.
# -fexpensive-optimizations (on from -O2) also runs GCC's vzeroupper pass: without it the tests' AVX
# code (Eigen's) leaves the vector registers' upper halves in use, and every call into glibc's SSE
# code after it (exp, log, erf) paid the AVX-SSE transition penalty on an Intel Xeon: 27x per call,
# make test's unit stage 249 s instead of 57 (docs/development.md, "The build's compile time").
# (GCC's flag only: clang, which the fuzz build uses, does not take it and would warn.)
TEST_OPT ?= -O1 $(if $(IS_GCC),-fexpensive-optimizations)
# The registry's option tables and dispatch (lib/registry) and the command line's own code (apps/calib)
# compute nothing per data point: they call the library, whose loops keep OPT. At GLUE_OPT they
# compile in 25-45 % less CPU time than at -O3 (docs/development.md, "The build's compile time").
GLUE_OPT ?= -O1 $(if $(IS_GCC),-fexpensive-optimizations)
# What an object depends on beside its sources (expanded now, before any target adds to the flags).
# PRECOMPILED_HEADER=yes: lib/precompiled.hpp compiled once per build (off by default: see below).
PRECOMPILED_HEADER ?= no
BUILD_FLAGS := $(CXX) $(CPPFLAGS) $(CXXFLAGS) tests: $(TEST_OPT) glue: $(GLUE_OPT) pch: $(PRECOMPILED_HEADER)

# *_mpi.cpp: the MPI layer, compiled only by `make mpi` (below).
LIB_SRC   := $(filter-out %_mpi.cpp,$(wildcard lib/*/*.cpp))
LIB_OBJ   := $(LIB_SRC:%.cpp=$(BUILD)/obj/%.o)
LIB       := $(BUILD)/lib/libcalib.a
# The report's page (apps/report), drawn by the command line and the Python module alike.
PAGE_OBJ  := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard apps/report/*.cpp))
# The CLI's objects but its process layer (processes_local.cpp here, processes_mpi.cpp in `make mpi`).
CLI_SRC   := $(filter-out apps/calib/processes_%,$(wildcard apps/calib/*.cpp))
CLI_COMMON_OBJ := $(CLI_SRC:%.cpp=$(BUILD)/obj/%.o) $(PAGE_OBJ)
CLI_OBJ   := $(CLI_COMMON_OBJ) $(BUILD)/obj/apps/calib/processes_local.o
TEST_SRC  := $(wildcard tests/*.cpp)
TEST_OBJ  := $(TEST_SRC:%.cpp=$(BUILD)/obj/%.o)
BENCH_SRC := $(wildcard apps/bench/*.cpp)
BENCH_OBJ := $(BENCH_SRC:%.cpp=$(BUILD)/obj/%.o)
# The CKCE paper's reproduction app and benchmark (docs/ckce.md).
REPRO_CKCE_OBJ := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard apps/repro-ckce/*.cpp))
REPRO_CKCE     := $(BUILD)/bin/repro-ckce
BENCH_CKCE     := $(BUILD)/bin/calib-bench-ckce
# Reproduction apps: apps/repro-NAME/*.cpp + the shared harness -> build/bin/repro-NAME (repro-ckce
# too, built by the same rule but run by its own targets).
REPRO_APPS := neurips2019 iclr2021-synthetic iclr2021-ols iclr2021-friedman validity gruber-bach marx arena
REPRO_BINS := $(REPRO_APPS:%=$(BUILD)/bin/repro-%)
# The harness without its process-group layer: cluster_local.cpp (one process) in the plain build,
# cluster_mpi.cpp in the MPI build (below).
HARNESS_OBJ := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(filter-out apps/harness/cluster_%,$(wildcard apps/harness/*.cpp)))
HARNESS_LOCAL := $(BUILD)/obj/apps/harness/cluster_local.o
REPRO_OBJ  := $(foreach a,$(REPRO_APPS),$(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard apps/repro-$(a)/*.cpp)))
GIT_REV_H  := $(BUILD)/gen/repro_git_revision.h

CLI   := $(BUILD)/bin/calib
DEMO  := $(BUILD)/bin/calib-demo
TESTS := $(BUILD)/bin/calib-tests
BENCH := $(BUILD)/bin/calib-bench
# The plain SIMD floor of the SKCE pair loop (bench/skce_floor.cpp), built for AVX2 and, when this CPU has
# AVX-512, for x86-64-v4, whatever ARCH (libcalib keeps ARCH; EIGEN_ABI makes the two link together).
FLOOR_ARCHS := x86-64-v3 $(if $(shell grep -qw avx512f /proc/cpuinfo 2>/dev/null && echo yes),x86-64-v4)
FLOOR_BINS  := $(FLOOR_ARCHS:%=$(BUILD)/bin/skce-floor-%)

# Debian packages, by what needs them (PACKAGE:FILE, the file proving it is installed). Each target
# installs only what it uses; `make deps` and `make test` (every check) install them all.
MULTIARCH := $(shell $(CXX) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
# The library and the command line (LBFGS++: the recalibration's L-BFGS, header-only).
DEBS_BUILD  := libeigen3-dev:/usr/include/eigen3/Eigen/Core \
               libboost-math-dev:/usr/include/boost/math/distributions/gamma.hpp \
               libboost-random-dev:/usr/include/boost/random/mersenne_twister.hpp \
               liblbfgspp-dev:/usr/include/LBFGS.h
DEBS_UNIT   := doctest-dev:/usr/include/doctest/doctest.h
# The Python module, and pytest for its tests.
DEBS_PYTHON := python3:/usr/bin/python3 \
               python3-dev:/usr/bin/python3-config \
               python3-numpy:/usr/lib/python3/dist-packages/numpy/__init__.py \
               pybind11-dev:/usr/include/pybind11/pybind11.h \
               python3-pybind11:/usr/lib/python3/dist-packages/pybind11/__init__.py \
               python3-setuptools:/usr/lib/python3/dist-packages/setuptools/__init__.py
# pytest, and scikit-learn: the independent reference of the isotonic fits (tests/python/test_corp.py).
DEBS_PYTEST := python3-pytest:/usr/lib/python3/dist-packages/pytest/__init__.py \
               python3-sklearn:/usr/lib/python3/dist-packages/sklearn/__init__.py
DEBS_MPI    := libopenmpi-dev:/usr/lib/$(MULTIARCH)/openmpi/include/mpi.h openmpi-bin:/usr/bin/ompi_info
DEBS_FIGURES := gnuplot-nox:/usr/bin/gnuplot
# What the checks of `make test` run besides: the report's browser test (chromium), the
# installed-library test (pkg-config, cmake), the scripts of the CLI and docs checks (python3).
DEBS_CHECKS := chromium:/usr/bin/chromium pkg-config:/usr/bin/pkg-config cmake:/usr/bin/cmake
DEBS_ALL    := $(DEBS_BUILD) $(DEBS_UNIT) $(DEBS_PYTHON) $(DEBS_PYTEST) $(DEBS_MPI) $(DEBS_FIGURES) $(DEBS_CHECKS)
# scikit-learn and SciPy, for `make bench`'s side-by-side comparison (bench/side_by_side.py); SciPy is not
# in DEBS_ALL, since no check of `make test` uses it (scikit-learn is, for the Python tests).
DEBS_BENCH  := python3-sklearn:/usr/lib/python3/dist-packages/sklearn/__init__.py \
               python3-scipy:/usr/lib/python3/dist-packages/scipy/__init__.py
# R and its packages, for `make compare-r` only (calib's clinical measures beside R's; not a dependency).
DEBS_R      := r-base-core:/usr/bin/Rscript r-cran-mass:/usr/lib/R/library/MASS/DESCRIPTION \
               r-cran-rms:/usr/lib/R/site-library/rms/DESCRIPTION

.PHONY: all deps python test test-unit test-slow demo bench install clean warnings sanitize fuzz fuzz-deps repro figures repro-ckce figures-ckce study-squared-ce compare-r
.DEFAULT_GOAL := all

all: deps-build
	$(call build_steps,build-all)

.PHONY: build-all
build-all: $(LIB) $(CLI) $(DEMO) $(REPRO_BINS) $(REPRO_CKCE)

# $(call install_debs,TARGET,PACKAGE:FILE ...): installs the packages whose file is missing (as root,
# or with sudo when it needs no password); otherwise one line naming the command to run.
define install_debs
	@missing=""; for need in $(2); do [ -e "$${need#*:}" ] || missing="$$missing $${need%%:*}"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	cmd="apt-get update && apt-get install -y --no-install-recommends$$missing"; \
	if [ "$$(id -u)" = 0 ]; then echo "make $(1): installing$$missing"; \
	  sh -c "DEBIAN_FRONTEND=noninteractive $$cmd" >/dev/null || { echo "make $(1): failed: $$cmd" >&2; exit 1; }; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then echo "make $(1): installing with sudo:$$missing"; \
	  sudo -n sh -c "DEBIAN_FRONTEND=noninteractive $$cmd" >/dev/null || { echo "make $(1): failed: sudo $$cmd" >&2; exit 1; }; \
	else echo "make $(1): missing Debian packages; run as root: $$cmd" >&2; exit 1; fi
endef

.PHONY: deps deps-build deps-unit deps-python deps-mpi deps-figures deps-bench
deps:
	$(call install_debs,deps,$(DEBS_ALL))
deps-build:
	$(call install_debs,$(or $(firstword $(MAKECMDGOALS)),all),$(DEBS_BUILD))
deps-unit: deps-build
	$(call install_debs,$(or $(firstword $(MAKECMDGOALS)),all),$(DEBS_UNIT))
deps-python: deps-build
	$(call install_debs,$(or $(firstword $(MAKECMDGOALS)),all),$(DEBS_PYTHON))
deps-mpi: deps-build
	$(call install_debs,$(or $(firstword $(MAKECMDGOALS)),all),$(DEBS_MPI))
deps-figures:
	$(call install_debs,$(or $(firstword $(MAKECMDGOALS)),all),$(DEBS_FIGURES))
deps-bench: deps-python
	$(call install_debs,$(or $(firstword $(MAKECMDGOALS)),all),$(DEBS_BENCH))

# Build output: one short line per step ("  CXX lib/skce.cpp", numbered "[k/N]" when the target
# counted its steps: build_steps below); `make V=1` prints the full commands.
V ?= 0
PROGRESS := $(BUILD)/progress
ifeq ($(V),0)
Q := @
ifdef STEPS
step = @echo "  [$$(flock $(PROGRESS).lock sh -c 'k=$$(( $$(cat $(PROGRESS) 2>/dev/null || echo 0) + 1 )); echo $$k > $(PROGRESS); echo $$k')/$(STEPS)] $(1) $(2)"
else
step = @echo "  $(1) $(2)"
endif
else
Q :=
step =
endif

# $(call build_steps,TARGETS,MAKE OPTIONS): makes TARGETS JOBS at a time, the steps numbered [k/N]
# (N counted by a dry run). Inside a make that already counts (a check that runs `make install`),
# the outer count goes on.
define build_steps
	@$(if $(STEPS),n=$(STEPS),mkdir -p $(BUILD); rm -f $(PROGRESS); \
	n=$$($(MAKE) --no-print-directory -n $(1) 2>/dev/null | grep -c '^echo "  [A-Z]* ')); \
	$(MAKE) --no-print-directory -j$(JOBS) $(2) STEPS=$$n $(1)
endef

# The library's sources, its unit tests and the fuzz harnesses include internal headers by layer
# ("engine/pairwise.hpp"); apps see only the public headers.
$(BUILD)/obj/lib/%.o $(BUILD)/obj/tests/%.o $(BUILD)/obj/fuzz/%.o: CPPFLAGS += -Ilib
$(BUILD)/obj/tests/%.o: CXXFLAGS += $(TEST_OPT)
$(BUILD)/obj/lib/registry/%.o $(BUILD)/obj/apps/calib/%.o $(BUILD)/obj/apps/report/%.o $(BUILD)/mpi/obj/apps/calib/%.o: CXXFLAGS += $(GLUE_OPT)

# Objects are rebuilt when the compiler or its flags change (ARCH=, OPT=, DEFINES=, …).
# The stamp is written when the Makefile is read (not by a rule), so that a dry run sees only the
# objects that are really out of date.
FLAGS_STAMP := $(BUILD)/obj/flags
$(shell mkdir -p $(BUILD)/obj && echo '$(BUILD_FLAGS)' > $(FLAGS_STAMP).tmp && \
  { cmp -s $(FLAGS_STAMP).tmp $(FLAGS_STAMP) && rm -f $(FLAGS_STAMP).tmp || mv $(FLAGS_STAMP).tmp $(FLAGS_STAMP); })

# Precompiled header (GCC only), OFF by default (`make PRECOMPILED_HEADER=yes` turns it on): a fresh
# clone's `make test` on 2026-11-27 built a header from which GCC 12 compiled every -O3 unit without a
# single vzeroupper, so that each glibc call after calib's AVX code ran 27x slower on an Intel Xeon
# (docs/development.md, "The build's compile time"); the same command run again gave a good header.
# lib/precompiled.hpp's third-party headers, compiled once per build with the build's flags and given
# first to every unit (-include).
# The Python module's units are compiled without it: they hide their symbols (-fvisibility=hidden),
# which the header's declarations, parsed without that flag, would not. -Winvalid-pch says so if a
# unit's flags ever make GCC ignore it. GCC also collects its garbage less often (a heap of 1 GiB
# before the first collection): 5-10 % less compile time, the same objects
# (docs/development.md, "The build's compile time").
PCH := $(if $(and $(IS_GCC),$(filter yes,$(PRECOMPILED_HEADER))),$(BUILD)/pch/precompiled.hpp)
PCH_FLAGS = $(if $(PCH),-include $(PCH) -Winvalid-pch)
CXXFLAGS += $(if $(IS_GCC),--param ggc-min-expand=100 --param ggc-min-heapsize=1048576)
$(BUILD)/pch/precompiled.hpp: lib/precompiled.hpp
	@mkdir -p $(@D)
	@cp $< $@
$(BUILD)/pch/precompiled.hpp.gch: $(BUILD)/pch/precompiled.hpp $(FLAGS_STAMP)
	$(call step,PCH,$<)
	$(Q)$(CXX) $(filter-out -MMD -MP,$(CPPFLAGS)) $(CXXFLAGS) -x c++-header $< -o $@

$(BUILD)/obj/%.o: %.cpp $(FLAGS_STAMP) $(PCH:%=%.gch)
	@mkdir -p $(@D)
	$(call step,CXX,$<)
	$(Q)$(CXX) $(CPPFLAGS) $(CXXFLAGS) $(PCH_FLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	$(call step,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(CLI): $(CLI_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(call step,LINK,$@)
	$(Q)$(CXX) $(CLI_OBJ) $(LIB) $(LDFLAGS) -o $@

$(DEMO): $(BUILD)/obj/apps/demo/main.o $(LIB)
	@mkdir -p $(@D)
	$(call step,LINK,$@)
	$(Q)$(CXX) $< $(LIB) $(LDFLAGS) -o $@

# The git revision recorded by the reproduction apps; rewritten (when the Makefile is read) only when
# it changes.
$(shell mkdir -p $(dir $(GIT_REV_H)) && rev=$$(git describe --always --dirty 2>/dev/null || echo unknown) && \
  echo "#define REPRO_GIT_REVISION \"$$rev\"" > $(GIT_REV_H).tmp && \
  { cmp -s $(GIT_REV_H).tmp $(GIT_REV_H) && rm -f $(GIT_REV_H).tmp || mv $(GIT_REV_H).tmp $(GIT_REV_H); })

# harness.cpp records the git revision; the other harness sources take the generic rule.
$(BUILD)/obj/apps/harness/harness.o: apps/harness/harness.cpp $(GIT_REV_H) $(PCH:%=%.gch)
	@mkdir -p $(@D)
	$(call step,CXX,$<)
	$(Q)$(CXX) $(CPPFLAGS) -I$(BUILD)/gen $(CXXFLAGS) $(PCH_FLAGS) -c $< -o $@

define REPRO_RULE
$(BUILD)/bin/repro-$(1): $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard apps/repro-$(1)/*.cpp)) $(HARNESS_OBJ) $(HARNESS_LOCAL) $(LIB)
	@mkdir -p $$(@D)
	$$(call step,LINK,$$@)
	$$(Q)$(CXX) $$^ $(LDFLAGS) -o $$@
endef
$(foreach a,$(REPRO_APPS) ckce,$(eval $(call REPRO_RULE,$(a))))

# ---- MPI builds (docs/scaling.md) ----------------------------------------------------------------
# build/mpi/bin holds the same programs linked with their MPI layer, compiled with the flags of
# Open MPI's wrapper (mpicxx --showme) into build/mpi/obj; the rest are the plain build's objects,
# which contain no MPI call.
MPI_DIR      := $(BUILD)/mpi
MPICXX       ?= mpicxx
# Open MPI's C++ bindings (deprecated, and not warning-free) are left out.
MPI_CPPFLAGS  = $(patsubst -I%,-isystem %,$(shell $(MPICXX) --showme:compile)) -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX
MPI_LDFLAGS   = $(filter-out -lmpi_cxx,$(shell $(MPICXX) --showme:link))
MPI_BINS     := $(MPI_DIR)/bin/calib $(REPRO_APPS:%=$(MPI_DIR)/bin/repro-%) $(MPI_DIR)/bin/repro-ckce
MPI_OBJ      := $(MPI_DIR)/obj/apps/harness/cluster_mpi.o $(MPI_DIR)/obj/apps/calib/processes_mpi.o \
                $(MPI_DIR)/obj/lib/core/processes_mpi.o

$(MPI_DIR)/obj/%.o: %.cpp $(FLAGS_STAMP) $(PCH:%=%.gch)
	@mkdir -p $(@D)
	$(call step,MPICXX,$<)
	$(Q)$(CXX) $(CPPFLAGS) $(MPI_CPPFLAGS) $(CXXFLAGS) $(PCH_FLAGS) -c $< -o $@

$(MPI_DIR)/bin/calib: $(CLI_COMMON_OBJ) $(MPI_DIR)/obj/apps/calib/processes_mpi.o $(MPI_DIR)/obj/lib/core/processes_mpi.o $(LIB)
	@mkdir -p $(@D)
	$(call step,LINK,$@)
	$(Q)$(CXX) $^ $(LDFLAGS) $(MPI_LDFLAGS) -o $@

define MPI_REPRO_RULE
$(MPI_DIR)/bin/repro-$(1): $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard apps/repro-$(1)/*.cpp)) $(HARNESS_OBJ) $(MPI_DIR)/obj/apps/harness/cluster_mpi.o $(LIB)
	@mkdir -p $$(@D)
	$$(call step,LINK,$$@)
	$$(Q)$(CXX) $$^ $(LDFLAGS) $$(MPI_LDFLAGS) -o $$@
endef
$(foreach a,$(REPRO_APPS) ckce,$(eval $(call MPI_REPRO_RULE,$(a))))

.PHONY: mpi mpi-built
mpi: deps-mpi
	$(call build_steps,mpi-built)
mpi-built: $(MPI_BINS)

$(TESTS): $(TEST_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(call step,LINK,$@)
	$(Q)$(CXX) $(TEST_OBJ) $(LIB) $(LDFLAGS) -o $@

$(BENCH): $(BENCH_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(call step,LINK,$@)
	$(Q)$(CXX) $(BENCH_OBJ) $(LIB) $(LDFLAGS) -o $@

$(BENCH_CKCE): $(BUILD)/obj/apps/bench-ckce/main.o $(LIB)
	@mkdir -p $(@D)
	$(call step,LINK,$@)
	$(Q)$(CXX) $< $(LIB) $(LDFLAGS) -o $@

$(BUILD)/bin/skce-floor-%: bench/skce_floor.cpp $(LIB) $(FLAGS_STAMP)
	@mkdir -p $(@D) $(BUILD)/obj/bench
	$(call step,CXX,$< -march=$*)
	$(Q)$(CXX) $(filter-out -MMD -MP,$(CPPFLAGS)) -Ilib -MMD -MP -MF $(BUILD)/obj/bench/skce-floor-$*.d -MT $@ \
	  -std=c++17 -O3 -march=$* -fopenmp -Wall -Wextra -Wpedantic -Wshadow \
	  -DCALIB_LIB_ARCH='"$(ARCH)"' $< $(LIB) $(LDFLAGS) -o $@
-include $(FLOOR_ARCHS:%=$(BUILD)/obj/bench/skce-floor-%.d)

# The Python module calib (python/calib, python/src) in $(BUILD)/python, for the interpreter PYTHON:
# by default /usr/bin/python3 when it has NumPy and pybind11 (a python3 found first on PATH may be
# another interpreter without them), else python3.
# Found once per make (the targets that need it run a sub-make, after their packages are installed).
ifndef PYTHON
PYTHON := $(shell for p in /usr/bin/python3 python3; do $$p -c 'import numpy, pybind11' 2>/dev/null && { command -v $$p; break; }; done)
endif
PY_SUFFIX  = $(if $(PYTHON),$(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))" 2>/dev/null))
PY_OBJ    := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard python/src/*.cpp))
PY_FILES  := $(patsubst python/%,$(BUILD)/python/%,$(wildcard python/calib/*.py))
PY_MODULE  = $(BUILD)/python/calib/_calib$(PY_SUFFIX)
$(PY_OBJ): CPPFLAGS += $(if $(PYTHON),$(patsubst -I%,-isystem %,$(shell $(PYTHON) -m pybind11 --includes 2>/dev/null)))
$(PY_OBJ): CXXFLAGS += -fvisibility=hidden
$(PY_OBJ): PCH_FLAGS :=

python: deps-python
	$(call build_steps,python-module)

.PHONY: python-module python-bench
python-module:
	@test -n "$(PYTHON)" || { echo "make python: no interpreter with NumPy and pybind11 (make python installs Debian's; or PYTHON=...)" >&2; exit 1; }
	@echo "python: $(PYTHON) ($$($(PYTHON) -c 'import sys, numpy; print("Python", sys.version.split()[0], "NumPy", numpy.__version__)'))"
	@$(MAKE) --no-print-directory PYTHON=$(PYTHON) python-built
.PHONY: python-built
python-built: $(PY_MODULE) $(PY_FILES)
	@:

$(BUILD)/python/calib/_calib%: $(PY_OBJ) $(PAGE_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(call step,LINK,$@)
	$(Q)$(CXX) -shared $(PY_OBJ) $(PAGE_OBJ) $(LIB) $(LDFLAGS) -o $@

$(BUILD)/python/calib/%.py: python/calib/%.py
	@mkdir -p $(@D)
	@cp $< $@

# make test: every check, each one a stage that starts as soon as what it runs is built, beside the
# rest of the build and the other stages (JOBS at a time; each stage's output is printed whole when
# it ends). Every stage runs even when another fails; the summary (tests/check_summary.sh) prints one
# line per stage and fails if any stage failed. The unit tests run with 2 threads so that the
# parallel paths are exercised; the CLI tests drive the built binary as a user would.
TEST_STAGES := unit cli faults edges repro repro-ckce mpi install docs layers python report arch
STATUS := $(BUILD)/checks
STAGE  := bash tests/check_stage.sh $(STATUS)
.PHONY: $(TEST_STAGES:%=check-%)
test: deps
	@rm -rf $(STATUS)
	-$(call build_steps,$(TEST_STAGES:%=check-%),-k --output-sync=target)
	@bash tests/check_summary.sh $(STATUS) $(TEST_STAGES)

# Doctest options of the unit tests: the slow suites left out, and T=NAME runs only the test cases
# whose name contains NAME (make test-unit T=mmd).
UNIT_ARGS := --test-suite-exclude='*slow*' $(if $(T),--test-case='*$(T)*')
check-unit: $(TESTS)
	@$(STAGE) unit env OMP_NUM_THREADS=2 $(TESTS) $(UNIT_ARGS)
check-cli: $(CLI)
	@$(STAGE) cli bash tests/cli/run.sh $(CLI)
# Every writer against a full disk, a failing fsync, a kill, /dev/full, a read-only target (tests/faults).
check-faults: $(CLI) $(BUILD)/bin/repro-iclr2021-ols
	@$(STAGE) faults bash tests/faults/run.sh $(CLI) $(BUILD)/bin/repro-iclr2021-ols
# Every operation, from the CLI and from Python, on inputs at the edges (n = 1, constant, one class,
# +-1e308, NaN, empty files, extreme maps): no internal error, no silent null, both front-ends alike.
check-edges: $(CLI) $(PY_FILES) $(if $(PYTHON),$(PY_MODULE))
	@$(STAGE) edges env OMP_NUM_THREADS=1 $(or $(PYTHON),python3) tests/edges/run.py $(CLI) $(BUILD)/python
check-repro: $(REPRO_BINS)
	@$(STAGE) repro bash tests/repro/run.sh $(BUILD)/bin
check-repro-ckce: $(REPRO_CKCE)
	@$(STAGE) repro-ckce bash tests/repro/check_ckce.sh $(REPRO_CKCE)
# The MPI builds against the plain ones under mpirun -np 1, 2, 3 (docs/scaling.md).
check-mpi: $(MPI_BINS) $(REPRO_BINS) $(REPRO_CKCE)
	@$(STAGE) mpi bash tests/mpi/run.sh $(MPI_DIR)/bin $(BUILD)/bin
check-install: $(LIB) $(CLI)
	@$(STAGE) install bash tests/install/run.sh
check-docs: $(CLI)
	@$(STAGE) docs python3 tests/docs/check_commands.py $(CLI)
check-layers:
	@$(STAGE) layers python3 tests/layers/check.py
# calib report: its numbers against calib test / estimate, and each demo report in headless Chromium
# (screenshots in $(BUILD)/report).
check-report: $(CLI)
	@$(STAGE) report python3 tests/report/run.py $(CLI)
# The promise about identical numbers across builds (docs/architecture.md): the golden set of
# tests/arch/golden.py from this build and from one for ARCH_OTHER (no AVX, no FMA) of the CLI and the
# Python module in $(ARCH_BUILD), built by a sub-make that continues the step count; and the unit
# tests run on that build's library (this build's test objects linked with it: the library's code is
# the other ARCH's, the tests' own is this build's), so that a check that holds only for this
# machine's instruction set fails here.
ARCH_OTHER := x86-64-v2
# That build is compiled at -O1: 20-30 % less compile time than -O3, and the promise holds across
# optimisation levels too (GCC keeps IEEE semantics at every level; the reductions' order is set by
# the vector width and by Eigen, as at -O3).
ARCH_OPT   := -O1
ARCH_BUILD := $(BUILD)/arch-$(ARCH_OTHER)
ARCH_TESTS := $(ARCH_BUILD)/bin/calib-tests
# The suite "validity" (rejection counts over 600 seeded data sets per test, whose p-values the golden
# set already pins across builds) is left out there: on the x86-64-v2 build it is 3-6x slower.
ARCH_UNIT_ARGS := --test-suite-exclude='*slow*,validity' $(if $(T),--test-case='*$(T)*')
.PHONY: arch-build
arch-build: $(TEST_OBJ)
	@$(MAKE) --no-print-directory BUILD=$(ARCH_BUILD) ARCH=$(ARCH_OTHER) OPT=$(ARCH_OPT) PROGRESS=$(PROGRESS) STEPS=$(STEPS) \
	  $(ARCH_BUILD)/bin/calib $(ARCH_BUILD)/lib/libcalib.a $(if $(PYTHON),python-built)
	$(call step,LINK,$(ARCH_TESTS))
	$(Q)$(CXX) $(TEST_OBJ) $(ARCH_BUILD)/lib/libcalib.a $(LDFLAGS) -o $(ARCH_TESTS)
check-arch: arch-build $(CLI) $(PY_FILES) $(if $(PYTHON),$(PY_MODULE))
	@$(STAGE) arch env PYTHON=$(PYTHON) bash tests/arch/run.sh $(CLI) $(BUILD)/python $(ARCH_BUILD)/bin/calib $(ARCH_BUILD)/python \
	  "$(ARCH_TESTS) $(ARCH_UNIT_ARGS)"
# The Python module's tests against the CLI's numbers (PY_MODULE names the interpreter's module file).
check-python: $(CLI) $(PY_FILES) $(if $(PYTHON),$(PY_MODULE))
	@test -n "$(PYTHON)" || { echo "check-python: no interpreter with NumPy and pybind11 (make deps)" >&2; \
	  mkdir -p $(STATUS); echo "FAILED: no interpreter with NumPy and pybind11" > $(STATUS)/python; exit 1; }
	@$(STAGE) python env PYTHONPATH=$(BUILD)/python CALIB_CLI=$(CLI) OMP_NUM_THREADS=2 $(PYTHON) -m pytest -q -p no:cacheprovider tests/python

# The unit tests alone, for the edit-compile loop (make test adds the other stages); T=NAME as above.
test-unit: deps-unit
	$(call build_steps,$(TESTS))
	OMP_NUM_THREADS=2 $(TESTS) $(UNIT_ARGS)

# The long statistical studies (level and power over hundreds of data sets: the suites "... slow").
test-slow: deps-unit
	$(call build_steps,$(TESTS))
	OMP_NUM_THREADS=2 $(TESTS) --test-suite='*slow*' $(if $(T),--test-case='*$(T)*')

# What the demo needs only: the demo program and the command line.
demo: deps-build
	$(call build_steps,$(DEMO) $(CLI))
	$(DEMO) apps/demo/calibrated.csv apps/demo/overconfident.csv
	@mkdir -p $(BUILD)/demo
	$(CLI) report --family categorical --input apps/demo/overconfident.csv --name "overconfident model (apps/demo)" \
	  --output $(BUILD)/demo/report.html --quiet

bench: python deps-bench
	$(call build_steps,$(BENCH) $(BENCH_CKCE) $(FLOOR_BINS))
	$(BENCH)
	$(BENCH_CKCE)
	@$(MAKE) --no-print-directory python-bench
	@$(MAKE) --no-print-directory side-by-side
python-bench:
	PYTHONPATH=$(BUILD)/python $(PYTHON) bench/python_overhead.py

# The side-by-side part of `make bench` alone (docs/performance.md, "Side by side with the programs users
# would run instead"): the SIMD floor program(s), then bench/side_by_side.py, one after the other, one
# thread each. QUICK=1 runs them on small sizes, to check that they work.
.PHONY: bench-side side-by-side
bench-side: python deps-bench
	$(call build_steps,$(FLOOR_BINS))
	@$(MAKE) --no-print-directory side-by-side
side-by-side:
	@for floor in $(FLOOR_BINS); do $$floor $(if $(QUICK),--quick) || exit 1; done
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=$(BUILD)/python $(PYTHON) bench/side_by_side.py \
	  $(if $(QUICK),--quick)

# The CKCE paper's synthetic experiments at paper scale into results/ckce (replicates already
# computed with the same options are kept: --resume), and their figures (docs/reproduction.md).
REPRO_CKCE_FLAGS ?= --resume
repro-ckce: deps-build
	$(call build_steps,$(REPRO_CKCE))
	$(REPRO_CKCE) --out results/ckce $(REPRO_CKCE_FLAGS)

figures-ckce: repro-ckce deps-figures
	gnuplot -e "results='results'" docs/figures/ckce.gp

repro: repro-ckce
figures: figures-ckce

# The papers' synthetic experiments at paper scale (docs/reproduction.md); results/ keeps the
# CSVs, and cells already computed with the same parameters are skipped (rm -rf results/ to redo).
REPRO_FLAGS ?= --resume
repro: deps-build
	$(call build_steps,$(REPRO_BINS))
	@for app in $(REPRO_APPS); do echo "== repro-$$app"; \
	  $(BUILD)/bin/repro-$$app --out results/$$app $(REPRO_FLAGS) || exit 1; done

# Which squared-CE estimator to trust on network-like outputs (docs/squared_ce.md): bias and spread
# against the generating model's population values, into results/study-squared-ce (replicates already
# recorded are kept; rm -rf it to redo).
study-squared-ce: python
	PYTHONPATH=$(BUILD)/python $(PYTHON) apps/study-squared-ce/run.py --out results/study-squared-ce

# Every figure of docs/reproduction.md, drawn with gnuplot from the CSVs in results/.
FIGURES_GP := $(wildcard docs/figures/*.gp)
figures: deps-figures
	@for gp in $(FIGURES_GP); do echo "gnuplot $$gp"; gnuplot -e "results='results'" $$gp || exit 1; done

# The library (built for ARCH), its headers, the CLI, calib.pc and a CMake package (find_package(calib)
# gives the target calib::calib); builds only what it installs. calib/mpi.hpp is not installed: its
# definition is in the MPI build's objects, not in libcalib.a (docs/scaling.md).
install: deps-build
	$(call build_steps,$(LIB) $(CLI))
	install -d $(DESTDIR)$(PREFIX)/include/calib $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/lib/cmake/calib
	install -m 644 $(filter-out include/calib/mpi.hpp,$(wildcard include/calib/*.hpp)) $(DESTDIR)$(PREFIX)/include/calib/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@EIGEN_ABI@|$(EIGEN_ABI)|' \
	  lib/install/calib.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/calib.pc
	sed -e 's|@VERSION@|$(VERSION)|' lib/install/calibConfig.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/calib/calibConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|' lib/install/calibConfigVersion.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/calib/calibConfigVersion.cmake

# Every source compiled for AVX2 with the default optimisation and warnings as errors (see the AVX-512
# note above), the Python module's too, and without the precompiled header: each source compiles on
# its own includes.
warnings: deps-unit deps-python
	@$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(BUILD)/warnings ARCH=x86-64-v3 OPT="$(OPT) -Werror" PCH= \
	  $(BUILD)/warnings/lib/libcalib.a $(BUILD)/warnings/bin/calib $(BUILD)/warnings/bin/calib-tests python-module \
	  $(BUILD)/warnings/bin/repro-ckce $(BUILD)/warnings/bin/calib-bench-ckce $(REPRO_APPS:%=$(BUILD)/warnings/bin/repro-%)

# ASan + UBSan build of the library, the CLI and the unit tests in $(BUILD)/sanitize (Eigen's
# assertions live: DEFINES is empty), then the unit and CLI tests on it. For developers; not in CI.
SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
sanitize: deps-unit deps-python
	@$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(BUILD)/sanitize OPT="-O1 -g $(SANITIZERS)" DEFINES= \
	  LDFLAGS="-fopenmp $(SANITIZERS)" $(BUILD)/sanitize/bin/calib $(BUILD)/sanitize/bin/calib-tests
	ASAN_OPTIONS=detect_leaks=0 OMP_NUM_THREADS=2 $(BUILD)/sanitize/bin/calib-tests --test-suite-exclude='*slow*'
	ASAN_OPTIONS=detect_leaks=0 bash tests/cli/run.sh $(BUILD)/sanitize/bin/calib

clean:
	rm -rf $(BUILD)

-include $(MPI_OBJ:.o=.d) $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BENCH_OBJ:.o=.d) $(PY_OBJ:.o=.d) $(BUILD)/obj/apps/demo/main.d \
         $(REPRO_CKCE_OBJ:.o=.d) $(BUILD)/obj/apps/bench-ckce/main.d $(REPRO_OBJ:.o=.d) $(HARNESS_OBJ:.o=.d) $(HARNESS_LOCAL:.o=.d)

# libFuzzer harnesses (fuzz/*.cpp) built with clang, ASan and UBSan in $(BUILD)/fuzz, each run for
# FUZZ_SECONDS on its seed corpus fuzz/corpus/NAME; new inputs go to $(BUILD)/fuzz/corpus/NAME and a
# crashing input to $(BUILD)/fuzz/findings/. `.ci/run` runs it after `make test`.
FUZZ_SECONDS   ?= 60
FUZZ_HARNESSES := $(basename $(notdir $(wildcard fuzz/*.cpp)))
FUZZ_NEEDS     := clang:/usr/bin/clang++ libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a \
                  libomp-14-dev:/usr/lib/llvm-14/lib/libomp.so
FUZZ_SANITIZE  := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# The CLI's objects without its main(): the option harness drives calib::cli::run_command.
CLI_CORE_OBJ   := $(filter-out $(BUILD)/obj/apps/calib/main.o,$(CLI_OBJ))

# The harnesses' objects are kept (make would delete them as intermediates of the pattern rule).
.SECONDARY: $(FUZZ_HARNESSES:%=$(BUILD)/obj/fuzz/%.o)
-include $(FUZZ_HARNESSES:%=$(BUILD)/obj/fuzz/%.d)
$(BUILD)/bin/fuzz_%: $(BUILD)/obj/fuzz/%.o $(CLI_CORE_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(call step,LINK,$@)
	$(Q)$(CXX) $^ $(LDFLAGS) -o $@

fuzz-deps:
	$(call install_debs,fuzz-deps,$(FUZZ_NEEDS))

# calib's clinical measures beside R's (rms, glm, loess) on two real data sets of MASS (tests/r/run.py,
# docs/tests.md "Beside R"): every number within its stated tolerance, or exit 1.
compare-r: deps-build
	$(call install_debs,compare-r,$(DEBS_R))
	$(call build_steps,$(CLI))
	python3 tests/r/run.py $(CLI)

# clang at -O1 cannot vectorise every `omp simd` loop and would say so for each (-Wpass-failed).
fuzz: deps-build fuzz-deps
	@$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(BUILD)/fuzz CXX=clang++ ARCH=x86-64 DEFINES= \
	  OPT="-O1 -g -Wno-pass-failed -fsanitize=fuzzer-no-link $(FUZZ_SANITIZE)" LDFLAGS="-fopenmp -fsanitize=fuzzer $(FUZZ_SANITIZE)" \
	  $(FUZZ_HARNESSES:%=$(BUILD)/fuzz/bin/fuzz_%)
	@mkdir -p $(BUILD)/fuzz/findings
	@for h in $(FUZZ_HARNESSES); do mkdir -p $(BUILD)/fuzz/corpus/$$h; log=$(BUILD)/fuzz/$$h.log; \
	  echo "fuzz $$h: $(FUZZ_SECONDS) s (log $$log)"; \
	  ASAN_OPTIONS=detect_leaks=0 OMP_NUM_THREADS=1 $(BUILD)/fuzz/bin/fuzz_$$h -max_total_time=$(FUZZ_SECONDS) \
	    -timeout=20 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/findings/$$h- \
	    $(BUILD)/fuzz/corpus/$$h fuzz/corpus/$$h >$$log 2>&1 || { tail -n 60 $$log; echo "fuzz $$h: FINDING"; exit 1; }; \
	  grep -E 'stat::number_of_executed_units|stat::new_units_added' $$log | tr '\n' ' '; \
	  echo "corpus $$(ls $(BUILD)/fuzz/corpus/$$h | wc -l) files"; done
