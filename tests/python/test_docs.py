"""The Python examples of the documentation run as shown: every ```pycon block of README.md and
docs/*.md is a doctest (">>> " lines and their output), run in the repository root; the blocks of a
page run in order in one session (as a reader goes through it); "…" or "..." in a shown output
stands for any text, and numbers match under calib's promise about identical numbers across builds
(tests/docs/printed_numbers.py)."""

import doctest
import glob
import os
import re
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "tests", "docs"))
import printed_numbers  # noqa: E402


class PromiseChecker(doctest.OutputChecker):
    """doctest's comparison, then the same texts with numbers compared under the promise."""

    def check_output(self, want, got, optionflags):
        if super().check_output(want, got, optionflags):
            return True
        def squeeze(text):
            return re.sub(r"\s+", " ", text).strip()
        return printed_numbers.matches(squeeze(want), squeeze(got), ellipsis_dots=True)


def pycon_blocks():
    found = []
    for path in [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        lines = open(path, encoding="utf-8").read().split("\n")
        start = None
        for number, line in enumerate(lines, start=1):
            if line.startswith("```pycon"):
                start = number
            elif line.startswith("```") and start is not None:
                found.append((os.path.relpath(path, ROOT), start, "\n".join(lines[start:number - 1]) + "\n"))
                start = None
    return found


BLOCKS = pycon_blocks()


def test_the_docs_have_python_examples():
    assert any(path == "docs/python.md" for path, _, _ in BLOCKS)
    assert any(path == "README.md" for path, _, _ in BLOCKS)


@pytest.mark.parametrize("page", sorted({p for p, _, _ in BLOCKS}))
def test_examples_run_as_shown(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    session = {}
    runner = doctest.DocTestRunner(checker=PromiseChecker(), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    output = []
    for path, line, text in BLOCKS:
        if path == page:
            test = doctest.DocTestParser().get_doctest(text.replace("…", "..."), session, f"{path}:{line}", path, line)
            runner.run(test, out=output.append, clear_globs=False)
            session = test.globs  # a DocTest works on a copy of the names it is given
    assert runner.failures == 0, "".join(output)
