"""Run Python and the command line in fresh processes, with files written for a test."""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

# Makes the compiler impossible to import: what an emitted module must run without.
BLOCKER = textwrap.dedent("""
    import sys

    class _Blocker:
        blocked = ("gast", "srcgrad.compiler.reverse", "srcgrad.api.functional", "srcgrad.frontend",
                   "srcgrad.normalize", "srcgrad.modes", "srcgrad.analysis",
                   "srcgrad.optimize", "srcgrad.codegen", "srcgrad.rules")

        def find_spec(self, name, path=None, target=None):
            if any(name == b or name.startswith(b + ".") for b in self.blocked):
                raise ImportError(f"blocked for this test: {name}")
            return None

    sys.meta_path.insert(0, _Blocker())
""")


def freeze_srcgrad(directory):
    """Copy the srcgrad package into ``directory``, where a process started there imports
    it from: later edits to the checkout cannot change what that process runs (nor the
    disk cache's keys, which cover srcgrad's own files)."""
    import srcgrad

    source = pathlib.Path(srcgrad.__file__).parent
    shutil.copytree(source, directory / "srcgrad",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def write_files(directory, files):
    for name, text in files.items():
        (directory / name).write_text(textwrap.dedent(text))


def env_with(**changes):
    env = dict(os.environ)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = str(value)
    return env


def run_python(code, cwd, env=None, check=True):
    """Run ``code`` in a fresh interpreter in ``cwd``; its last stdout line is JSON."""
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd,
                            env=env or dict(os.environ), capture_output=True, text=True,
                            timeout=120)
    if check and result.returncode != 0:
        raise AssertionError(f"subprocess failed:\n{result.stdout}\n{result.stderr}")
    return result


def last_json(result):
    return json.loads(result.stdout.strip().splitlines()[-1])


def run_cli(args, cwd, env=None):
    return subprocess.run([sys.executable, "-m", "srcgrad", *args], cwd=cwd,
                          env=env or dict(os.environ), capture_output=True, text=True,
                          timeout=120)
