"""Check the package layout: few loose root modules, no import cycle between units.

A *unit* is a top-level piece of ``srcgrad``: a subpackage (``srcgrad/modes/``) or a
module at the root (``srcgrad/errors.py``). Every import counts, including the ones
deferred into functions, relative or absolute. ``__init__`` and ``__main__`` are the
package's doors and are not units.

    python tools/check_layout.py          # prints the unit graph; exit status 1 on a violation
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = "srcgrad"
DOORS = {"__init__", "__main__"}
MAX_ROOT_MODULES = 4


def package_root() -> Path:
    return Path(__file__).resolve().parent.parent / PACKAGE


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, root: Path) -> set[str]:
    """Dotted names of the srcgrad modules ``path`` imports, anywhere in the file."""
    this = module_name(path, root)
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = this.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name == PACKAGE or name.startswith(PACKAGE + ".")}


def unit_of(module: str) -> str | None:
    """``srcgrad.modes.reverse`` -> ``modes``; the package itself and its doors -> None."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] in DOORS:
        return None
    return parts[1]


def unit_graph(root: Path) -> dict[str, set[str]]:
    known = {p.stem if p.is_file() else p.name for p in root.iterdir()
             if (p.suffix == ".py" or (p / "__init__.py").exists())}
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        source_unit = unit_of(module_name(path, root))
        if source_unit is None:
            continue
        targets = graph.setdefault(source_unit, set())
        for module in imported_modules(path, root):
            target = unit_of(module)
            if target in known and target != source_unit:
                targets.add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one unit (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(unit: str) -> None:
        index[unit] = low[unit] = len(index)
        stack.append(unit)
        on_stack.add(unit)
        for target in sorted(graph.get(unit, ())):
            if target not in index:
                visit(target)
                low[unit] = min(low[unit], low[target])
            elif target in on_stack:
                low[unit] = min(low[unit], index[target])
        if low[unit] == index[unit]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == unit:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for unit in sorted(graph):
        if unit not in index:
            visit(unit)
    return found


def root_modules(root: Path) -> list[str]:
    return sorted(p.stem for p in root.glob("*.py") if p.stem not in DOORS)


def problems(root: Path | None = None) -> list[str]:
    root = root or package_root()
    found = []
    loose = root_modules(root)
    if len(loose) > MAX_ROOT_MODULES:
        found.append(f"{len(loose)} modules at the root of {PACKAGE}/ "
                     f"(at most {MAX_ROOT_MODULES}): {', '.join(loose)}")
    for component in cycles(unit_graph(root)):
        found.append("import cycle between units: " + " <-> ".join(component))
    return found


def main() -> int:
    root = package_root()
    for unit, targets in sorted(unit_graph(root).items()):
        print(f"{unit:14} -> {', '.join(sorted(targets)) or '-'}")
    print(f"root modules: {', '.join(root_modules(root))}")
    found = problems(root)
    for line in found:
        print("FAIL:", line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
