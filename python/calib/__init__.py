"""calib: is this probabilistic model calibrated?

Calibration errors (SKCE, UCME, ECE, CKCE) and calibration tests with p-values for the predictions of a
model on NumPy arrays (or anything numpy.asarray accepts, such as torch CPU tensors), computed by
calib's C++ library. The keyword arguments are the command line's options in snake_case with the same
values and defaults (--block-size sqrt is block_size="sqrt"); see docs/python.md.

The predictions and targets are given by name, and their family follows from the names:

    probs (n, m), labels (n,)             categorical: class probabilities (or logits=True) and labels
    probs (n,), labels (n,)               binary: P(Y = 1) and labels in {0, 1}
    mean (n,), std (n,), y (n,)           normal predictions N(mean, std^2)
    mean (n,), scale (n,), y (n,)         Laplace predictions
    mean (n, d), std (n, d), y (n, d)     mvnormal-diag: d-variate normals, diagonal covariances
    mean (n, d), cov (n, d, d), y (n, d)  mvnormal: full covariances
    weights, means, stds (n, K), y (n,)   mixture-normal: mixtures of K normals

Reading options (as the command line's): logits, one_based_labels (alias one_based),
simplex_tolerance, renormalize.

Warnings: where the command line prints "calib: warning: ..." (labels that look 1-based but are read
as 0-based, a metric that is not finite), Python issues a CalibWarning (a UserWarning) with the same
text; error messages name options in backquotes (`one_based_labels`, `logits`).

Recalibration maps (calib recalibrate fit|apply): recalibrate_fit returns a map as the JSON map file's
dict, recalibrate_apply applies one to new predictions; Recalibrator is the same as a scikit-learn
estimator (fit, predict_proba, get_params, set_params).
"""

import os as _os
import types as _types

from . import _calib
from ._calib import CalibWarning, NumericalError

NumericalError.__doc__ = ("A computation that cannot be done on these data (e.g. a singular CME covariance); the "
                          "message says what to change. A subclass of ArithmeticError.")

__version__ = _calib.version

# The arrays of every family, from the module's one table of them (python/src/arrays.cpp).
_DATA = frozenset(a for family in _calib.families() for a in family["arrays"])
_READING = frozenset(o["name"] for o in _calib.reading_options())  # the registry's reading options of arrays


def _split(arguments):
    """The keyword arguments as (arrays, reading options, method options), without the Nones. A name of
    some family's arrays given a scalar (a number or a text) is an option: a method may have an option
    of that name (scale=2 is not Laplace's scale array)."""
    import numpy
    arrays, reading, options = {}, {}, {}
    for name, value in arguments.items():
        if value is None:
            continue
        if name == "one_based":
            name = "one_based_labels"
        if name in _DATA and not isinstance(value, str) and numpy.ndim(value) > 0:
            arrays[name] = value
        elif name in _READING:
            reading[name] = value
        else:
            options[name] = value
    return arrays, reading, options


def _given(**arguments):
    """The arguments that were given (not None)."""
    return {name: value for name, value in arguments.items() if value is not None}


def _threads(command, threads):
    """threads as the library checks it for the command line (CommandSetup; 0: OMP_NUM_THREADS or all
    cores)."""
    return _calib.command_options(command, _given(threads=threads))["threads"]


def _run(operation, family, arrays, reading, options, threads):
    """The record of an operation of one model (calib._calib.run) as a dict."""
    return _calib.run(operation, family or "", [arrays], [""], reading, options, _threads(operation, threads))


def _models(models, labels, names):
    """The models of an operation that takes several (rank) as the module's list of dicts of arrays,
    and their names: `models` a list of probs arrays (sharing `labels`), a dict of them by name, or a
    list of dicts of each model's own arrays; names default to "model 0", "model 1", ..."""
    if isinstance(models, dict):
        names, models = list(models), list(models.values())
    models = [m if isinstance(m, dict) else {"probs": m, "labels": labels} for m in models]
    if names is None:
        names = [f"model {k}" for k in range(len(models))]
    return models, [str(name) for name in names]


def _full_name(kind, name, prefix):
    """skce(estimator="unbiased") is the estimator skce-unbiased; the full names work everywhere."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} must be a str, not {name!r}")
    return name if name.startswith(prefix) else prefix + name


class _Run:
    """The fields of every run: n, details (the method's own numbers), options and kernel (as used,
    with the values chosen on the data), family, compute_seconds (the library's time: the kernel's
    lengthscale and the method)."""

    def __init__(self, fields):
        self.n = fields["n"]
        self.details = fields["details"]
        self.options = fields["options"]
        self.kernel = fields["kernel"]
        self.family = fields["family"]
        self.compute_seconds = fields["compute_seconds"]


class Estimate(_Run):
    """A calibration-error estimate: estimator, estimate, and n, details, options, kernel, family,
    compute_seconds. float(e) is the estimate."""

    def __init__(self, fields):
        super().__init__(fields)
        self.estimator = fields["estimator"]
        self.estimate = fields["estimate"]

    def __float__(self):
        return float(self.estimate)

    def to_dict(self):
        """One flat dict with the fields of `calib estimate`'s JSON output."""
        return {"estimator": self.estimator, "estimate": self.estimate, "n": self.n, **self.details,
                **self.options, **self.kernel, "family": self.family, "compute_seconds": self.compute_seconds}

    def __repr__(self):
        return f"Estimate(estimator={self.estimator!r}, estimate={self.estimate!r}, n={self.n})"


class TestResult(_Run):
    """A calibration test: method, null (its approximation), estimator, estimate, statistic, p_value,
    alpha and reject (p_value < alpha), low_power (None, or why a test that does not reject may have
    missed a miscalibration: the block test with B below max(2, floor(sqrt(n))), a distribution-free
    bound, the CME test at fewer than 10 locations; with the stronger test to run), and n, details
    (the method's own numbers: block_size, std_error, replicates, seed, ...), options, kernel, family,
    compute_seconds. Every test is right-tailed: a small p-value speaks against calibration."""

    __test__ = False  # not a pytest class

    def __init__(self, fields):
        super().__init__(fields)
        self.method = fields["method"]
        self.null = fields["null"]
        self.estimator = fields["estimator"]
        self.estimate = fields["estimate"]
        self.statistic = fields["statistic"]
        self.p_value = fields["p_value"]
        self.alpha = fields["alpha"]
        self.reject = fields["reject"]
        self.low_power = fields.get("low_power")

    def to_dict(self):
        """One flat dict with the fields of `calib test --alpha`'s JSON output."""
        out = {"method": self.method, "null": self.null, "estimator": self.estimator, "estimate": self.estimate,
               "statistic": self.statistic, "p_value": self.p_value, "alpha": self.alpha, "reject": self.reject,
               "n": self.n, **self.details}
        if self.low_power:
            out["low_power"] = self.low_power
        for name, value in {**self.options, **self.kernel}.items():
            out.setdefault(name, value)
        out["family"] = self.family
        out["compute_seconds"] = self.compute_seconds
        return out

    def __repr__(self):
        verdict = "not calibrated" if self.reject else "no evidence against calibration"
        if not self.reject and self.low_power:
            verdict += " (a test of little power here: see low_power)"
        return (f"TestResult(method={self.method!r}, estimator={self.estimator!r}, estimate={self.estimate!r}, "
                f"statistic={self.statistic!r}, p_value={self.p_value!r}, n={self.n}, "
                f"alpha={self.alpha!r}, reject={self.reject}: {verdict})")


class Ranking:
    """Models compared on the same labels by paired bootstrap replicates, with the fields of calib
    rank's JSON: names (the models), n, options, and per estimator (results[name]): description
    (which quantity), estimates, std_errors, ranking (names, best calibrated first), lengthscales
    (kernel estimators), comparisons (first, second, difference = estimate(first) - estimate(second),
    lower, upper: the percentile interval, bootstrap_mean, probability_first_lower, verdict: "NAME is
    better calibrated" or "no clear difference")."""

    def __init__(self, fields):
        self.fields = fields
        self.names = fields["models"]
        self.n = fields["n"]
        self.options = fields["options"]
        self.compute_seconds = fields["compute_seconds"]
        self.results = fields["results"]

    def to_dict(self):
        return dict(self.fields)

    def __repr__(self):
        level = self.fields["level"]
        lines = [f"Ranking of {len(self.names)} models on n = {self.n} observations (lower is better calibrated; "
                 f"{self.fields['replicates']} paired bootstrap replicates, {100 * level:g}% intervals)"]
        for estimator, r in self.results.items():
            lines.append(f"{estimator} ({r['description']}):")
            for place, name in enumerate(r["ranking"], 1):
                k = self.names.index(name)
                lines.append(f"  {place}. {name}: {r['estimates'][k]:.6g} (s.e. {r['std_errors'][k]:.3g})")
            for p in r["comparisons"]:
                lines.append(f"  {p['first']} - {p['second']} = {p['difference']:.4g} "
                             f"[{p['lower']:.4g}, {p['upper']:.4g}]: {p['verdict']}")
        return "\n".join(lines)


def estimate(probs=None, labels=None, *, estimator, family=None, threads=None, test_locations=None, **arguments):
    arrays, reading, options = _split({"probs": probs, "labels": labels, **arguments})
    options = {"estimator": estimator, **options, **_given(test_locations=test_locations)}
    return Estimate(_run("estimate", family, arrays, reading, options, threads))


def skce(probs=None, labels=None, *, estimator="unbiased", **arguments):
    return estimate(probs, labels, estimator=_full_name("estimator", estimator, "skce-"), **arguments).estimate


def ucme(probs=None, labels=None, *, test_locations, **arguments):
    return estimate(probs, labels, estimator="ucme", test_locations=test_locations, **arguments).estimate


def ece(probs=None, labels=None, **arguments):
    return estimate(probs, labels, estimator="ece", **arguments).estimate


def ckce(probs=None, labels=None, **arguments):
    return estimate(probs, labels, estimator="ckce", **arguments).estimate


def test(probs=None, labels=None, *, method="bootstrap", alpha=0.05, family=None, threads=None, test_locations=None,
         **arguments):
    arrays, reading, options = _split({"probs": probs, "labels": labels, **arguments})
    options = {"method": method, **options, **_given(alpha=alpha, test_locations=test_locations)}
    return TestResult(_run("test", family, arrays, reading, options, threads))


test.__test__ = False  # not a pytest test


def rank(models, labels, *, names=None, family=None, threads=None, **arguments):
    arrays, reading, options = _split(arguments)
    if arrays:
        raise TypeError(f"rank takes the models' probs and one labels array, not {', '.join(arrays)}")
    models, names = _models(models, labels, names)
    return Ranking(_calib.run("rank", family or "", models, names, reading, options, _threads("rank", threads)))


def report(probs=None, labels=None, *, models=None, names=None, output=None, family=None, threads=None, **arguments):
    arrays, reading, options = _split({"probs": probs, "labels": labels, **arguments})
    if models is None:
        if names is not None:
            raise TypeError("report: names go with models=, the models' probs")
        given, names = [arrays], ["model"]
    else:
        if set(arrays) - {"labels"}:
            raise TypeError(f"report takes one model's arrays or models=, not both ({', '.join(sorted(arrays))})")
        given, names = _models(models, labels, names)
    page = "" if output is None else _os.fspath(output)
    shown = [*arrays] if models is None else ["models=...", *(["labels"] if labels is not None else [])]
    call = "calib.report(" + ", ".join(shown + [f"{k}={v!r}" for k, v in {**reading, **options}.items()]) + ")"
    fields = _calib.run("report", family or "", given, names, reading, options, _threads("report", threads), page, call)
    return {k: v for k, v in fields.items() if k not in ("details", "kernel")}


def reliability_diagram(probs, labels, *, family=None, **arguments):
    """The numbers of a reliability diagram of class predictions: a dict with event ("top-label", or
    "class k" when k is given), n, level, binning and bins, a list of dicts per bin: lower, upper
    (edges; equal-mass: the smallest and largest probability in it), count, events, mean_confidence,
    frequency (events / count) and its Clopper-Pearson interval at level (interval_lower,
    interval_upper). An empty uniform bin has count 0 and NaN for the rest. With smooth_points P > 0
    also "smooth" (bandwidth, probability, frequency, lower, upper): the curve without bins that calib
    report draws, from the 1st to the 99th percentile of the predictions (its band is the smoother's
    noise, not its bias).

    probs, labels : the class predictions (as for skce; reading options logits, one_based_labels,
        simplex_tolerance, renormalize)"""
    arrays, reading, options = _split({"probs": probs, "labels": labels, **arguments})
    return _calib.reliability_diagram(family or "", arrays, reading, options)


def corp_diagram(probs, labels, *, family=None, threads=None, **arguments):
    """The CORP reliability diagram of binary predictions, or of an `event` of class predictions
    (Dimitriadis, Gneiting & Jordan 2021; docs/math.md): a dict with event, n, level, replicates, seed,
    curve (the PAV fit's pieces: lists lower, upper, value, count), points (at each band point: x,
    recalibrated, count, consistency_lower, consistency_upper, confidence_lower, confidence_upper;
    the bands empty with replicates=0), score, mean_score, recalibrated_score, mcb, dsc and unc. With
    event="class-wise", a dict with event and classes, a list of such dicts, one per class. The same
    numbers as `calib diagram --diagram corp`; diagram(..., diagram="corp") gives them with the options
    used.

    probs, labels : the class predictions (as for skce; reading options logits, one_based_labels,
        simplex_tolerance, renormalize)"""
    return diagram(probs, labels, family=family, threads=threads, diagram="corp", **arguments).details


def pit(*, mean=None, std=None, scale=None, weights=None, means=None, stds=None, y=None, family=None):
    """The probability integral transform u_i = F_i(y_i) of univariate predictive distributions
    (normal: mean, std, y; laplace: mean, scale, y; mixture-normal: weights, means, stds, y), as a
    NumPy array; uniform on [0, 1] for a calibrated model."""
    import numpy
    arrays, _, _ = _split(dict(mean=mean, std=std, scale=scale, weights=weights, means=means, stds=stds, y=y))
    return numpy.asarray(_calib.pit(family or "", arrays, {}))


def metrics(probs=None, labels=None, *, family=None, threads=None, **arguments):
    """The evaluation metrics of Marx, Zalouk & Ermon (2023), as `calib metrics` prints them (a dict;
    docs/metrics.md). Class predictions (probs, labels): accuracy, ece_top_label, entropy, nll, and
    with features (an (n, d) array) the KCE, kce with kce_lengthscale (the individual-notion MMD with
    an RBF kernel on the features, median lengthscale). Univariate distributions (normal: mean, std,
    y; laplace: mean, scale, y; mixture-normal: weights, means, stds, y): nll, qce, qce_squared, dce
    with its threshold (default: the median of y), and with features lce_total_mean with its
    lengthscale (default: median heuristic) and, for normal forecasts, kce, kce_lengthscale,
    kce_lengthscale_y.
    The options are listed below, from the library's descriptions (features: an (n, d) array, or the
    name of a file); another option is a TypeError naming the ones that apply. An infinite NLL is
    float("inf"), with a CalibWarning "nll = inf" (as for any metric that is not finite)."""
    given, reading, options = _split({"probs": probs, "labels": labels, **arguments})
    fields = _run("metrics", family, given, reading, options, threads)
    return {**fields["details"], "n": fields["n"], "family": fields["family"], "compute_seconds": fields["compute_seconds"]}


def reproduce(preset, probs=None, labels=None, *, family=None, threads=None, **reading):
    """One row of a published table from one model's outputs, as `calib reproduce PRESET` prints it: a
    dict with preset, source, n, one dict per table of the paper ({column: estimate or p-value}, the
    paper's column names), lengthscale (the kernel's, chosen by the preset's rule), family and
    compute_seconds. Presets: "neurips2019" (Widmann et al. 2019, the CIFAR-10 errors.csv and
    pvalues.csv of the authors' repository). The reading options of skce (one_based_labels, logits,
    ...) apply. The same conventions, without the table: preset= in estimate and test."""
    given, reading_options, options = _split({"probs": probs, "labels": labels, **reading})
    if options:
        raise TypeError(f"reproduce takes the data and the reading options, not {', '.join(options)}")
    fields = _run("reproduce", family, given, reading_options, {"preset": preset}, threads)
    return {"preset": fields["preset"], "source": fields["source"], "n": fields["n"], **fields["details"],
            "family": fields["family"], "compute_seconds": fields["compute_seconds"]}


class FittedMap(dict):
    """A recalibration map as recalibrate_fit returns it: a dict with the fields of the JSON map file
    (recalibrate_apply and json.dump take it as it is); options: the fit's options as used, given or
    their defaults (method, objective, ridge, probability_floor, max_iterations, gradient_tolerance, ...:
    the fields calib recalibrate fit prints for them); and holdout: with recalibrate_fit(holdout=F), the
    map judged on the held-out rows as calib recalibrate fit --holdout reports it (fraction, seed,
    n_fit, n_held_out, nll_before, nll_after, skce_bootstrap_p_value_before/_after, mmd_notion,
    mmd_lengthscale, mmd_before, mmd_after), else None; selection: with method="auto", the
    cross-validated choice (folds, cv_seed, score, candidates: each method's mean held-out score,
    chosen), else None; warnings: what the fit warned of as a
    calib.CalibWarning (a fit stopped by max_iterations, a map worse than the identity on the held-out
    rows), the command line's JSON field warnings."""

    def __init__(self, fields=(), options=None, holdout=None, warnings=(), selection=None):
        super().__init__(fields)
        self.options = options if options is not None else {}
        self.holdout = holdout
        self.warnings = list(warnings)
        self.selection = selection


def recalibrate_fit(probs=None, labels=None, *, method, family=None, features=None, lambda_=None, threads=None,
                    **arguments):
    """Fits a recalibration map as `calib recalibrate fit` does (docs/recalibration.md) and returns it as
    a FittedMap: a dict with the fields of the JSON map file, bitwise (method, family, parameters by
    name, objective, objective_before/after, iterations, evaluations, status, ...).

    Categorical: probs (n, m) probabilities, or logits with logits=True, and labels (reading options
    as for skce), method "temperature", "temperature-bias", "platt" (m > 2: one-vs-rest), "beta" (two
    classes: Kull et al.'s beta calibration), "vector", "matrix" (ridge=, default 1e-3), "dirichlet"
    (ridge= and intercept_ridge=, Kull et al.'s ODIR), "isotonic" (by PAV; no objective options),
    "histogram" (bins=, binning=), "venn-abers" (two classes: the inductive Venn-Abers predictor) or
    "auto" (the method of best
    mean held-out score over folds= seeded folds, cv_seed=, by selection_score= "log" or "brier"; the
    result's selection). Normal: mean, std, y, method "affine" or "affine-features" (features: one value x per
    observation). objective "nll" (default) or "nll+mmd" with lambda_ (the weight of MMD^2; the
    command line's --lambda) and notion: "canonical" (default), "top-label", "class-wise" or
    "marginal" for the categorical maps; "distribution" (default), "individual" (features= is then
    the conditioning variable, n x d) or "marginal" for the normal ones, which also take kernel_y
    ("sqexp", "sign", "moment", "pit"), lengthscale, lengthscale_y and threshold as the command
    line's --kernel-y, --lengthscale, --lengthscale-y, --threshold; every option is listed below,
    from the library's descriptions. holdout=F fits on a seeded random 1 - F of the rows and judges
    the map on the rest (seed=, default 1234; the result's holdout); threads serves that judgement's
    tests."""
    if lambda_ is not None:
        arguments["lambda"] = lambda_
    arrays, reading, options = _split({"probs": probs, "labels": labels, **arguments})
    options = {"method": method, **options, **_given(features=features)}
    import json
    fields = _run("recalibrate fit", family, arrays, reading, options, threads)
    return FittedMap(json.loads(fields["map"]), fields["options"], fields["details"].get("holdout"),
                     fields.get("warnings", ()), fields["details"].get("selection"))


def recalibrate_apply(recalibration_map, probs=None, *, mean=None, std=None, features=None, simplex_tolerance=None,
                      renormalize=None):
    """Applies a map (a dict as recalibrate_fit returns, or the path of a JSON map file as `calib
    recalibrate fit` writes) to new predictions, as `calib recalibrate apply` does: probs (n, m) the
    raw scores the map takes (logits or probabilities, as it was fitted) give {"probs": (n, m)
    probabilities} (a venn-abers map also "intervals": (n, 2), each row's [p0, p1] for the second
    class, whose merge is probs[:, 1]); mean and std (and features for affine-features) give {"mean":
    ..., "std": ...}.
    Probabilities are checked as every function checks them: m columns, the map's classes, entries in
    [0, 1] and rows on the simplex within simplex_tolerance (default auto: max(1e-6, m * 2^-24));
    renormalize=True divides each row by its sum first. The dict's arrays can be passed on:
    calib.test(**calib.recalibrate_apply(m, probs), labels=y)."""
    import json
    if isinstance(recalibration_map, dict):
        try:
            given = json.dumps(recalibration_map, allow_nan=False)  # the map's text: the operation's `map`
        except ValueError:
            raise ValueError("recalibration map: a value is not a finite number (NaN or infinity); a map's "
                             "parameters are finite") from None
    elif isinstance(recalibration_map, (str, _os.PathLike)):
        given = _os.fspath(recalibration_map)  # read by the library, bounded as the command line's
    else:
        raise TypeError(f"recalibration_map must be a dict or the path of a JSON map file, not {recalibration_map!r}")
    arrays = _given(probs=probs, mean=mean, std=std)
    options = {"map": given, **_given(features=features, simplex_tolerance=simplex_tolerance, renormalize=renormalize)}
    return _calib.run("recalibrate apply", "", [arrays], [""], {}, options, 0)["predictions"]


def pit_histogram(u, bins=None, level=None):
    """The PIT's counts in `bins` equal bins of [0, 1] with the tightest band [band_lower, band_upper]
    that holds each bin's count with probability >= level under uniformity (bin by bin): a dict with
    n, level, counts, band_lower, band_upper."""
    options = {name: value for name, value in dict(bins=bins, level=level).items() if value is not None}
    return _calib.pit_histogram(list(map(float, u)), options)


def interval_coverage(u, nominal=None, level=None):
    """For each nominal level tau, the fraction of targets inside the central tau-interval of their
    predicted distribution ((1 - tau)/2 <= u_i <= (1 + tau)/2), with its Clopper-Pearson interval at
    level: a dict with n, level, nominal, observed, lower, upper. nominal: a sequence of levels (or
    the command line's comma-separated text)."""
    options = {} if level is None else {"level": level}
    if nominal is not None:
        options["nominal"] = nominal if isinstance(nominal, str) else ",".join(repr(float(t)) for t in nominal)
    return _calib.interval_coverage(list(map(float, u)), options)


def estimators():
    """The estimators: a list of dicts (name, summary, title, classes_only, binary_only, univariate_only, options)."""
    return _calib.methods("estimator")


def methods():
    """The calibration tests: a list of dicts (name, summary, title, classes_only, binary_only, univariate_only,
    options)."""
    return _calib.methods("test")


def keep_working_memory(bytes):
    """Keep up to `bytes` of freed memory in the process's heap between calls (an integer in [0, 2**31 - 1];
    calib.default_working_memory, 64 MiB, from import; 0 returns freed memory at once).

    Each call allocates its working copies afresh and frees them at its end; kept, the next call reuses
    their pages instead of page-faulting new ones in (2.1–2.5 times faster at n = 10 000, m = 10; see
    docs/performance.md). It sets glibc's malloc thresholds, which are the whole process's; without glibc
    it does nothing (calib.can_keep_working_memory())."""
    _calib.keep_working_memory(bytes)


def release_working_memory():
    """Return the freed memory the process's malloc kept to the system now (glibc's malloc_trim)."""
    _calib.release_working_memory()


class Result(_Run):
    """The record of an operation that has no class of its own (calib._calib.operations()): its result
    fields (also as attributes: r.estimate), n, details, options, kernel, family, compute_seconds."""

    def __init__(self, fields):
        super().__init__(fields)
        self.fields = fields

    def __getattr__(self, name):
        fields = self.__dict__.get("fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(name)

    def to_dict(self):
        """One flat dict with the fields of the command line's JSON output (result, n, details, kernel,
        options, family, compute_seconds)."""
        out = {k: v for k, v in self.fields.items() if k not in ("details", "options", "kernel")}
        for part in (self.details, self.kernel, self.options):
            for name, value in part.items():
                out.setdefault(name, value)
        return out

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in self.fields.items() if not isinstance(v, dict))
        return f"Result({shown})"


def _operation_function(info):
    """calib.<name>(probs=None, labels=None, *, family=None, threads=None, **options) for an operation of
    the library without a hand-written function: the same arrays, reading options and keyword options
    as estimate(); for an operation of several models, calib.<name>(models, labels=None, *, names=None,
    ...) with the models as rank() takes them."""
    name = info["name"]

    def run(probs=None, labels=None, *, family=None, threads=None, **arguments):
        arrays, reading, options = _split({"probs": probs, "labels": labels, **arguments})
        return Result(_run(name, family, arrays, reading, options, threads))

    def run_models(models, labels=None, *, names=None, family=None, threads=None, **arguments):
        arrays, reading, options = _split(arguments)
        if arrays:
            raise TypeError(f"{name} takes the models and one labels array, not {', '.join(arrays)}")
        models, names = _models(models, labels, names)
        return Result(_calib.run(name, family or "", models, names, reading, options, _threads(name, threads)))

    function = run_models if info["max_models"] > 1 else run
    function.__name__ = function.__qualname__ = info["function"]
    function.__module__ = __name__
    return function


# Every operation of the library is a function of the package: estimate and test above, by hand (their
# result classes and defaults), the others made here.
for _info in _calib.operations():
    globals().setdefault(_info["function"], _operation_function(_info))


def can_keep_working_memory():
    """Whether keep_working_memory has an effect here (calib built against glibc)."""
    return _calib.can_keep_working_memory()


default_working_memory = _calib.default_working_memory


def families():
    """The families of predictions: a list of dicts (name, summary, arrays, classes, kernel_options)."""
    return _calib.families()


from ._docs import document as _document  # noqa: E402  (needs the functions above)

_document(globals())


def _public(name, value):
    """A function or class of calib's own whose name does not start with an underscore."""
    if name.startswith("_"):
        return False
    if isinstance(value, type):
        return value.__module__.startswith("calib")
    return isinstance(value, _types.FunctionType)


from .recalibrator import Recalibrator  # noqa: E402  (it calls the functions above)

# Every public function and class of the package, so that a new one cannot be left out.
__all__ = sorted(name for name, value in globals().items() if _public(name, value))
