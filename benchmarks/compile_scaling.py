"""How srcgrad's compile time grows with the length of straight-line code.

``python -m benchmarks.compile_scaling 1000`` writes a module holding a function of that
length (every line one or two NumPy operations on the two previous
values), imports it as a user's module would be, and times ``sg.grad`` on it: parse,
normalize, analyze, generate, optimize and compile. It prints JSON.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import subprocess
import sys
import tempfile
import time

LINE_TEMPLATES = (
    "v{i} = np.sin(v{a}) * v{b}",
    "v{i} = v{a} + 0.5 * v{b}",
    "v{i} = np.tanh(v{a} - v{b})",
    "v{i} = v{a} * v{b}",
)


def straight_line_source(name, lines):
    body = ["    v0 = x * y", "    v1 = np.cos(x) + y"]
    for i in range(2, lines):
        template = LINE_TEMPLATES[i % len(LINE_TEMPLATES)]
        body.append("    " + template.format(i=i, a=i - 1, b=i - 2))
    body.append(f"    return v{lines - 1}")
    return "\n".join([f"def {name}(x, y):"] + body)


def _load(directory, sizes):
    text = "import numpy as np\n\n\n" + "\n\n\n".join(
        straight_line_source(f"straight_{n}", n) for n in (3,) + tuple(sizes)) + "\n"
    path = pathlib.Path(directory) / "straight_line_functions.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("straight_line_functions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _measure(lines):
    import srcgrad as sg

    with tempfile.TemporaryDirectory() as directory:
        module = _load(directory, [lines])
        sg.grad(module.straight_3, wrt=(0, 1))      # warm the compiler's own imports
        start = time.perf_counter()
        df = sg.grad(getattr(module, f"straight_{lines}"), wrt=(0, 1))
        seconds = time.perf_counter() - start
        return {"lines": lines, "seconds": seconds,
                "generated_lines": len(sg.source(df).splitlines())}


def measure(sizes, env, timeout):
    """One fresh process per size; a size that takes longer than ``timeout`` is reported
    as such (and larger sizes are not tried)."""
    results = []
    for lines in sizes:
        command = [sys.executable, "-m", "benchmarks.compile_scaling", str(lines)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, env=env,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            results.append({"lines": lines, "timeout": timeout})
            break
        if done.returncode != 0:
            results.append({"lines": lines, "error": done.stderr.strip().splitlines()[-1]})
        else:
            results.append(json.loads(done.stdout))
    return results


if __name__ == "__main__":
    print(json.dumps(_measure(int(sys.argv[1]))))
