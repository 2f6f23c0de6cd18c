"""calib.report is the command line's calib report: the same HTML page (all but its footer, which names
the call, the files and the time) and the same numbers as `calib report --format json`, for one model
of each kind of data and for several models; its arguments are refused before the work."""

import re
import subprocess

import numpy as np
import pytest

import calib
from conftest import CLI, data_path, family_arrays, run_cli


def without_footer(page):
    return re.sub(r"<footer>.*</footer>", "", page, flags=re.S)


def cli_page(tmp_path, *args):
    path = tmp_path / "cli.html"
    out = subprocess.run([CLI, "report", *args, "--output", str(path), "--quiet"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return path.read_text(encoding="utf-8")


# The fields the command line adds about its run (reading, threads, times, its command line).
RUN_FIELDS = {"input", "labels", "files", "max_simplex_deviation", "threads", "compute_seconds", "wall_time_seconds",
              "calib_version", "command_line", "created"}


@pytest.mark.parametrize("family", ["categorical", "normal"])
def test_one_model_the_command_lines_page_and_numbers(tmp_path, family):
    if family == "categorical":
        arrays = dict(probs=np.load(data_path("preds.npy")), labels=np.load(data_path("labels.npy")))
        files = ["--input", data_path("preds.npy"), "--labels", data_path("labels.npy")]
    else:
        name, arrays = family_arrays(family)
        files = ["--input", data_path(name)]
    args = ["--family", family, *files, "--replicates", "40", "--seed", "7", "--name", "model"]
    page = tmp_path / "py.html"
    numbers = calib.report(**arrays, output=page, replicates=40, seed=7, name="model")
    assert without_footer(page.read_text(encoding="utf-8")) == without_footer(cli_page(tmp_path, *args))
    assert "calib.report(" in page.read_text(encoding="utf-8")
    cli = run_cli("report", *args, "--format", "json")
    # The command line writes the options as used flat (Python: under options), then its run's fields.
    assert {k: cli[k] for k in numbers["options"]} == numbers["options"]
    shared = {k: v for k, v in cli.items() if k not in RUN_FIELDS and k not in numbers["options"] or k == "alpha"}
    assert {k: numbers[k] for k in shared} == shared
    assert numbers["options"]["replicates"] == 40 and numbers["title"] == "model"
    assert numbers["models"][0]["verdict"] in ("not calibrated", "consistent with calibration")


def test_several_models_the_command_lines_page_and_ranking(tmp_path):
    table_a = np.loadtxt(data_path("lenet.csv"), delimiter=",", skiprows=1)
    table_b = np.loadtxt(data_path("resnet.csv"), delimiter=",", skiprows=1)
    labels = table_a[:, -1].astype(np.int64)
    models = {data_path("lenet.csv"): table_a[:, :-1], data_path("resnet.csv"): table_b[:, :-1]}
    page = tmp_path / "py.html"
    numbers = calib.report(models=models, labels=labels, output=page, replicates=30)
    args = ["--family", "categorical", "--input", data_path("lenet.csv"), data_path("resnet.csv"), "--replicates", "30"]
    assert without_footer(page.read_text(encoding="utf-8")) == without_footer(cli_page(tmp_path, *args))
    assert numbers["ranking"]["results"] == calib.rank(models, labels, replicates=30).results
    assert numbers["title"] == "2 models"


def test_arguments_refused_before_the_work(tmp_path):
    probs, labels = np.load(data_path("preds.npy")), np.load(data_path("labels.npy"))
    with pytest.raises(TypeError, match="names go with models="):
        calib.report(probs, labels, names=["a"])
    with pytest.raises(TypeError, match="not both"):
        calib.report(probs, labels, models=[probs, probs])
    with pytest.raises(ValueError, match="must be in \\(0, 1\\)"):
        calib.report(probs, labels, alpha=1.5)
    with pytest.raises(TypeError, match="`lengthscale`"):
        calib.report(probs, labels, lengthscale=0.5)  # rank's option, not the report's
    with pytest.raises(ValueError, match="cannot be written"):
        calib.report(probs, labels, output=tmp_path / "no such folder" / "r.html")
    _, normal = family_arrays("normal")
    with pytest.raises(ValueError, match="a comparison of models"):
        calib.report(models=[{"mean": normal["mean"], "std": normal["std"], "y": normal["y"]}] * 2)
    with pytest.raises(ValueError, match="calib rank draws no page"):
        calib._calib.run("rank", "", [{"probs": probs, "labels": labels}] * 2, ["a", "b"], {}, {}, 0, "x.html", "")
