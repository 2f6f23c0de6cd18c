"""calib's clinical calibration measures beside R's on two real data sets (docs/tests.md, "Beside R").
    python3 tests/r/run.py CALIB          (make compare-r: installs R, rms and MASS from Debian first)
tests/r/clinical.R fits Hosmer & Lemeshow's low birth weight model to MASS::birthwt (development data:
calib's --df development and --covariates) and a diabetes model to MASS::Pima.tr, predicting Pima.te
(validation data), and computes the measures with R 4.2: rms::val.prob (Spiegelhalter's z, the Brier
score); anova's Rao score test (calibration-in-the-large's z squared); glm (Cox's intercept and
slope, their standard errors, Wald intervals and likelihood ratios, and the likelihood-ratio
intervals' ends as the roots of glm's profile deviance); loess (the ICI, E50, E90 and Emax of Austin
& Steyerberg); rms::residuals.lrm(type = "gof") (the le Cessie-van Houwelingen-Copas-Hosmer test);
and the Hosmer-Lemeshow statistic at the predictions' deciles (hoslem.test's grouping, written in R).
This runs calib on the same predictions and prints one line per number with the relative difference;
exit 1 if one is outside its tolerance: 1e-9 for closed forms, 1e-7 for the maximum-likelihood fits
(glm stops at a relative change of the deviance of 1e-14, so its coefficients may carry about 1e-7).
Statistics that vanish (a model refitted to its own predictions: its Cox intercept, its LR, its score
test) are compared on the scale 1."""
import csv
import json
import os
import subprocess
import sys
import tempfile

CLOSED, FIT = 1e-9, 1e-7
HERE = os.path.dirname(os.path.abspath(__file__))


def calib(binary, *args):
    run = subprocess.run([binary, *args], capture_output=True, text=True)
    if run.returncode:
        sys.exit("calib %s: %s" % (" ".join(args), run.stderr))
    return json.loads(run.stdout)


def compare(binary, out, name, development):
    r = {row["name"]: float(row["value"]) for row in csv.DictReader(open(os.path.join(out, name + "_r.csv")))}
    data = ["--family", "binary", "--input", os.path.join(out, name + ".csv")]
    spiegelhalter = calib(binary, "test", *data, "--method", "spiegelhalter")
    cox = calib(binary, "test", *data, "--method", "cox")
    ici = calib(binary, "estimate", *data, "--estimator", "ici")
    citl = calib(binary, "test", *data, "--method", "citl")
    hl = calib(binary, "test", *data, "--method", "hosmer-lemeshow", "--grouping", "quantile-breaks",
               "--df", "development" if development else "validation")
    pairs = [("spiegelhalter_z", spiegelhalter["z"], CLOSED), ("spiegelhalter_p", spiegelhalter["p_value"], CLOSED),
             # calib's Brier score is of the two-class vectors: twice the clinical (1/n) sum (y - p)^2
             ("brier", spiegelhalter["estimate"] / 2, CLOSED), ("hl10", hl["statistic"], CLOSED),
             ("ici", ici["estimate"], CLOSED), ("e50", ici["e50"], CLOSED), ("e90", ici["e90"], CLOSED),
             ("emax", ici["emax"], CLOSED), ("cox_lr", cox["statistic"], FIT), ("cox_lr_p", cox["p_value"], FIT),
             ("citl_lr", cox["citl_statistic"], FIT), ("slope_lr", cox["slope_statistic"], FIT),
             ("citl_score", citl["z"] ** 2, CLOSED), ("citl_intercept", cox["citl_intercept"], FIT), ("citl_se", cox["citl_se"], FIT),
             ("citl_lr_lower", cox["citl_lr_lower"], FIT), ("citl_lr_upper", cox["citl_lr_upper"], FIT)]
    for field in ("intercept", "slope"):
        pairs += [("cox_" + field, cox[field], FIT), ("cox_%s_se" % field, cox[field + "_se"], FIT)]
        pairs += [("cox_%s_%s" % (field, end), cox["%s_%s" % (field, end)], FIT) for end in ("lower", "upper")]
        pairs += [("cox_%s_lr_%s" % (field, end), cox["%s_lr_%s" % (field, end)], FIT) for end in ("lower", "upper")]
    if development:
        gof = calib(binary, "test", *data, "--method", "spiegelhalter", "--covariates",
                    os.path.join(out, name + "_x.csv"))
        pairs += [("gof_z", gof["z"], CLOSED), ("gof_p", gof["p_value"], CLOSED)]
    bad, largest = 0, {}
    for key, ours, tolerance in pairs:
        theirs = r[key]
        scale = max(abs(ours), abs(theirs), 1.0 if key.endswith(("_lr", "_intercept", "_score")) else 0.0)
        difference = abs(ours - theirs) / scale if scale > 0 else 0.0
        outside = difference > tolerance
        bad += outside
        largest[tolerance] = max(largest.get(tolerance, 0.0), difference)
        print("%-8s %-24s calib %-24.17g R %-24.17g %.1e%s" % (name, key, ours, theirs, difference,
                                                                 "  OUTSIDE %.0e" % tolerance if outside else ""))
    print("%-8s largest relative difference: closed forms %.1e, maximum-likelihood fits %.1e"
          % (name, largest[CLOSED], largest[FIT]))
    return bad, len(pairs)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(["Rscript", os.path.join(HERE, "clinical.R"), out], check=True)
        print(open(os.path.join(out, "versions.txt")).read().strip())
        results = [compare(sys.argv[1], out, "birthwt", True), compare(sys.argv[1], out, "pima", False)]
    bad, total = sum(b for b, _ in results), sum(t for _, t in results)
    print("compare-r: %d numbers compared with R, %d outside their tolerance" % (total, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
