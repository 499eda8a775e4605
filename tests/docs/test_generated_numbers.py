"""Numbers the docs state are the numbers the code gives: README's count of rule rows is
what ``python -m srcgrad rules --count`` prints, and ``python -m srcgrad --version`` is
the package's version (``srcgrad.__version__``, pyproject's ``version``)."""

import pathlib
import re
import subprocess
import sys

import srcgrad

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli(*args):
    done = subprocess.run([sys.executable, "-m", "srcgrad", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "SRCGRAD_CACHE": "0"})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_readme_rule_count_is_what_the_command_counts():
    readme = (ROOT / "README.md").read_text()
    stated = re.findall(r"The rule table has (\d+) rows", readme)
    assert len(stated) == 1, "README states the rule count once, in those words"
    counted = cli("rules", "--count")
    assert stated[0] == counted, (
        f"README.md says {stated[0]} rule rows; `python -m srcgrad rules --count` says "
        f"{counted}: write {counted} in README.md")


def test_version_option():
    assert cli("--version") == f"srcgrad {srcgrad.__version__}"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1) == srcgrad.__version__
