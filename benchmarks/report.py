"""The results as Markdown, and the README block that holds them."""

from __future__ import annotations

import pathlib

START = "<!-- results:start -->"
END = "<!-- results:end -->"


def _cell(cell):
    if cell.ratio is None:
        return cell.status
    text = f"{cell.ratio:.2f}"
    return f"{text} (mismatch)" if cell.check else text


def ratio_table(results, tool_names):
    lines = ["| workload | target | NumPy primal | " + " | ".join(tool_names) + " |",
             "|---|---|---|" + "---|" * len(tool_names)]
    for result in results:
        cells = [_cell(result.cells[name]) for name in tool_names]
        lines.append(f"| {result.name} | <= {result.target:g} | "
                     f"{result.primal_seconds * 1e3:.3g} ms | " + " | ".join(cells) + " |")
    return lines


def setup_table(results):
    lines = ["| workload | jax.jit compile (first call) |", "|---|---|"]
    for result in results:
        cell = result.cells.get("jax.jit")
        value = f"{cell.setup_seconds:.2f} s" if cell and cell.setup_seconds else (
            cell.status if cell else "-")
        lines.append(f"| {result.name} | {value} |")
    return lines


def first_gradient_table(rows):
    lines = ["| workload | first gradient (compile + first call) | compile | first call "
             "| import srcgrad | import srcgrad + first gradient |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['name']} | fails: {row['error']} | | | | |")
            continue
        lines.append(f"| {row['name']} | {row['first_gradient']:.3f} s | "
                     f"{row['compile']:.3f} s | {row['first_call']:.3f} s | "
                     f"{row['srcgrad_import']:.3f} s | "
                     f"{row['import_and_first_gradient']:.3f} s |")
    return lines


def compile_table(rows):
    lines = ["| user lines | sg.grad (generate + compile) | per line | generated lines |",
             "|---|---|---|---|"]
    for row in rows:
        if "timeout" in row:
            lines.append(f"| {row['lines']} | > {row['timeout']} s (stopped) | | |")
        elif "error" in row:
            lines.append(f"| {row['lines']} | fails: {row['error']} | | |")
        else:
            lines.append(f"| {row['lines']} | {row['seconds']:.2f} s | "
                         f"{row['seconds'] / row['lines'] * 1e3:.2f} ms | "
                         f"{row['generated_lines']} |")
    return lines


def _megabytes(value):
    return f"{value / 2**20:.1f} MiB" if isinstance(value, (int, float)) else str(value)


def memory_table(measured):
    if "error" in measured:
        return [f"memory measurement failed: {measured['error']}"]
    names = [key for key in measured["rows"][0] if key != "steps"]
    lines = ["| rnn steps | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for row in measured["rows"]:
        lines.append(f"| {row['steps']} | "
                     + " | ".join(_megabytes(row[name]) for name in names) + " |")
    return lines


def failures(results):
    lines = []
    for result in results:
        for name, cell in result.cells.items():
            if cell.error:
                lines += [f"- **{result.name} / {name}**:", "", "  ```",
                          *("  " + line for line in cell.error.splitlines()), "  ```"]
            if cell.check:
                lines.append(f"- **{result.name} / {name}** disagrees with "
                             f"{result.reference}: {cell.check}")
    checked = all(not cell.check for result in results for cell in result.cells.values())
    if checked:
        lines.append("- every gradient that ran agreed with the reference (srcgrad's, or "
                     "autograd's where srcgrad failed)")
    return lines


def update_readme(path, block):
    path = pathlib.Path(path)
    text = path.read_text()
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    path.write_text(f"{before}{START}\n{block}\n{END}{after}")
