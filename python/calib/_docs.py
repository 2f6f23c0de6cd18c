"""The docstrings of calib's functions, written from the registry's descriptions of the estimators,
tests and options (the same texts as `calib estimate --help` and `calib test --help`)."""

import textwrap

from . import _calib


def _options(options, indent="    "):
    lines = []
    for o in options:
        head = f"{o['name']} : {o['metavar'] or 'bool'}"
        head += ", required" if o["required"] else (f", default {o['default']}" if o["default"] else "")
        body = o["help"] + (f"; {o['condition']}" if o["condition"] else "")
        lines.append(indent + head)
        lines += textwrap.wrap(body, 96, initial_indent=indent + "    ", subsequent_indent=indent + "    ")
    return "\n".join(lines)


_DATA = f"""\
probs, labels, mean, std, scale, cov, weights, means, stds, y : array_like
    The predictions and targets of one family (see help(calib)); the family follows from the names
    given, or from family= (categorical, binary, normal, laplace, mvnormal-diag, mvnormal,
    mixture-normal). float64 arrays are read as they are; other dtypes and layouts are converted once.
Reading options (the command line's; one_based_labels also as one_based):
{_options(_calib.reading_options())}
{_options([o for o in _calib.command_option_list("estimate") if o["name"] == "threads"], indent="")}"""


def _methods(methods):
    out = []
    for m in methods:
        only = (" (binary predictions only)" if m["binary_only"]
                else " (class predictions only)" if m["classes_only"]
                else " (univariate distributions only)" if m["univariate_only"] else "")
        out.append(f"{m['name']}: {m['summary']}{only}")
        if m["options"]:
            out.append(_options(m["options"]))
    return "\n".join(out)


def document(scope):
    estimators = {m["name"]: m for m in _calib.methods("estimator")}
    tests = _calib.methods("test")
    kernel = _options(_calib.families()[0]["kernel_options"])
    kernel_text = ("Kernel options (of the SKCE and UCME estimators and tests; the defaults are the "
                   "categorical family's, each family has its own metric and target kernel):\n" + kernel)

    def options_of(name):
        return _options(estimators[name]["options"])

    scope["estimate"].__doc__ = f"""Estimates a calibration error; returns an Estimate (float(e) is the estimate).

estimate(probs=None, labels=None, *, estimator, family=None, threads=None, test_locations=None, **options)

estimator : str
    One of the estimators below (the command line's --estimator).
test_locations : tuple or dict of arrays
    ucme only: the test locations, arrays of the data's family (a tuple in the order of its arrays).
{_DATA}

Estimators and their options:
{textwrap.indent(_methods(estimators.values()), "    ")}

{kernel_text}
"""
    scope["skce"].__doc__ = f"""The squared kernel calibration error; returns the estimate (a float).

skce(probs=None, labels=None, *, estimator="unbiased", **options)

estimator : str, default unbiased
    unbiased (O(n^2)), biased (O(n^2)) or block (O(nB)); skce-unbiased etc. work too.
{_DATA}
block_size : B|sqrt, default 2
    estimator="block" only:
{options_of("skce-block")}

{kernel_text}
"""
    scope["ucme"].__doc__ = f"""The unnormalised calibration mean embedding at test locations; returns the estimate.

ucme(probs=None, labels=None, *, test_locations, **options)

test_locations : tuple or dict of arrays
    The test locations: arrays of the data's family, e.g. (probs_j, labels_j) or (mean_j, std_j, y_j).
{_DATA}

{kernel_text}
"""
    scope["ece"].__doc__ = f"""The binned expected calibration error (class predictions); returns the estimate.

ece(probs, labels, **options)

{_DATA}
{options_of("ece")}
"""
    scope["ckce"].__doc__ = f"""The conditional kernel calibration error (class predictions); returns the estimate.

ckce(probs, labels, **options)

{_DATA}
{options_of("ckce")}
"""
    scope["test"].__doc__ = f"""Tests calibration; returns a TestResult (p_value, reject at alpha, ...).

test(probs=None, labels=None, *, method="bootstrap", alpha=0.05, family=None, threads=None,
     test_locations=None, **options)

Every test is right-tailed: a small p-value speaks against calibration.

method : str, default bootstrap
    One of the methods below (the command line's --method).
alpha : float, default 0.05
    The level: reject = p_value < alpha.
test_locations : tuple or dict of arrays
    cme only: test locations instead of drawing `locations` from the data.
{_DATA}

Methods and their options:
{textwrap.indent(_methods(tests), "    ")}

{kernel_text}
"""
    for operation in _calib.operations():
        function = scope[operation["function"]]
        if function.__doc__ is None:  # an operation without a hand-written function: from its description
            function.__doc__ = (f"{operation['summary']}; returns a Result.\n\n{function.__name__}(probs=None, labels=None, *, "
                                f"family=None, threads=None, **options)\n\n{_DATA}\n\nOptions:\n"
                                f"{_options(operation['options'])}\n")
    for name, diagram in (("corp_diagram", "corp"), ("reliability_diagram", "reliability"), ("pit_histogram", "pit"),
                          ("interval_coverage", "coverage")):
        scope[name].__doc__ += "\n\nOptions:\n" + _options(_calib.diagram_options(diagram))
    for name, operation in (("metrics", "metrics"), ("recalibrate_fit", "recalibrate fit")):
        groups = _calib.option_groups(operation)
        text = f"Options (as `calib {operation}` takes them), for family {', '.join(groups[0]['families'])}:"
        text += "\n" + _options(groups[0]["options"])
        for group in groups[1:]:
            text += f"\nFor family {', '.join(group['families'])}, these besides or instead:\n" + _options(group["options"])
        scope[name].__doc__ += "\n\n" + text
    scope["report"].__doc__ = f"""The calibration report of one model, or of several on the same labels: the command line's
`calib report`, as a dict of its numbers (the fields of `calib report --format json`: title, family,
n, alpha, intervals, models with each model's verdict, tests and estimates with their intervals,
ranking for several models, reliability_diagrams or the PIT and coverage, options, compute_seconds),
and with output= the same HTML page as the command line's (its footer names the call).

report(probs=None, labels=None, *, models=None, names=None, output=None, family=None, threads=None, **options)

probs, labels, mean, std, ... : array_like
    One model's predictions and targets, as for estimate().
models : list of array_like, or dict name -> array_like
    Instead: several models' probs on the same labels (class predictions), as rank() takes them.
names : list of str, optional
    The models' names (default: "model 0", "model 1", ...; a dict's keys); one model is "model" (or name=).
output : str or path, optional
    Where the HTML page is written (replaced whole or not at all; checked before the work).

Options (the command line's calib report):
{_options([o for o in _calib.operations() if o["name"] == "report"][0]["own_options"])}
"""
    scope["rank"].__doc__ = f"""Compares the calibration of models evaluated on the same labels; returns a Ranking.

rank(models, labels, *, names=None, family=None, threads=None, **options)

models : list of array_like, or dict name -> array_like
    Each model's probs (n, m) (or (n,) for binary predictions), on the same labels.
labels : array_like (n,)
names : list of str, optional
    The models' names in the output (default: "model 0", "model 1", ...; a dict's keys).
logits, one_based_labels, simplex_tolerance, renormalize, threads
    As for estimate().

Options (the command line's calib rank):
{_options(_calib.comparison_options())}
"""
