"""`core.rng` is the only randomness: no other module under src/ may reach for a generator.

Banned everywhere else: ``random``, ``secrets`` and ``numpy.random``, in any import form,
plus ``numpy.random`` through a ``numpy`` alias and ``importlib``/``__import__`` by name.
One future module may hold a seeded numpy Generator: ``macau_tables/analysis/kernels/rng.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

BANNED = ("random", "secrets", "numpy.random")
RNG_MODULE = "macau_tables/core/rng.py"
#: module path → the banned modules it may use
ALLOWED: dict[str, frozenset[str]] = {
    RNG_MODULE: frozenset(BANNED),
    "macau_tables/analysis/kernels/rng.py": frozenset({"numpy.random"}),
}


def _banned(module: str) -> str | None:
    """The banned module that ``module`` is or lies inside, if any."""
    for name in BANNED:
        if module == name or module.startswith(name + "."):
            return name
    return None


def randomness_violations(source: str, relpath: str) -> list[str]:
    """Each use of a banned module in ``source`` that ``relpath`` is not allowed, one line each."""
    allowed = ALLOWED.get(relpath, frozenset())
    found: list[tuple[int, str]] = []
    numpy_aliases: set[str] = set()
    tree = ast.parse(source, filename=relpath)
    for node in ast.walk(tree):
        hits: list[str | None] = []
        if isinstance(node, ast.Import):
            for alias in node.names:
                hits.append(_banned(alias.name))
                if alias.name == "numpy":
                    numpy_aliases.add(alias.asname or "numpy")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            hits.append(_banned(node.module))
            hits.extend(_banned(f"{node.module}.{alias.name}") for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            )
        ):
            hits.append(_banned(node.args[0].value))
        line = getattr(node, "lineno", 0)
        found.extend((line, hit) for hit in hits if hit and hit not in allowed)
    # numpy.random reached as an attribute: `import numpy as np; np.random.default_rng()`
    if "numpy.random" not in allowed:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "random"
                and isinstance(node.value, ast.Name)
                and node.value.id in numpy_aliases
            ):
                found.append((node.lineno, "numpy.random"))
    return [f"{relpath}:{line}: uses {name}" for line, name in sorted(set(found))]


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_only_core_rng_uses_randomness() -> None:
    paths = _modules()
    relpaths = {path.relative_to(SRC).as_posix() for path in paths}
    assert RNG_MODULE in relpaths  # the walk really covers the package
    violations = [
        line
        for path in paths
        for line in randomness_violations(
            path.read_text(encoding="utf-8"), path.relative_to(SRC).as_posix()
        )
    ]
    assert violations == []


# --- The checker bites ---------------------------------------------------------------

FORBIDDEN = [
    "import random",
    "import random as r",
    "import secrets",
    "from random import shuffle",
    "from random import SystemRandom as SR",
    "from secrets import token_bytes",
    "import numpy.random",
    "import numpy.random as npr",
    "from numpy import random",
    "from numpy import random as npr",
    "from numpy.random import default_rng",
    "import os, random",
    "def f():\n    import random\n    return random.random()",
    "import numpy as np\nrng = np.random.default_rng(0)",
    "import numpy\nnumpy.random.seed(1)",
    "import importlib\nr = importlib.import_module('random')",
    "r = __import__('secrets')",
]


@pytest.mark.parametrize("source", FORBIDDEN)
def test_checker_flags_every_forbidden_form(source: str) -> None:
    assert randomness_violations(source, "macau_tables/games/craps.py")


@pytest.mark.parametrize(
    "source",
    [
        "import randomness_helpers",
        "from macau_tables.core import rng",
        "from macau_tables.core.rng import Rng",
        "from .rng import Rng",
        "import numpy as np\nx = np.zeros(3)",
        "from numpy import random_sample_docs",
        "x = thing.random",
    ],
)
def test_checker_passes_lookalikes(source: str) -> None:
    assert randomness_violations(source, "macau_tables/games/craps.py") == []


def test_core_rng_may_use_every_source() -> None:
    assert randomness_violations("import secrets\nimport random", RNG_MODULE) == []


def test_the_numpy_kernel_may_use_numpy_random_only() -> None:
    kernel = "macau_tables/analysis/kernels/rng.py"
    assert randomness_violations("import numpy as np\ng = np.random.default_rng(7)", kernel) == []
    assert randomness_violations("from numpy.random import Generator", kernel) == []
    assert randomness_violations("import random", kernel) == [f"{kernel}:1: uses random"]
    assert randomness_violations("import secrets", kernel) == [f"{kernel}:1: uses secrets"]


def test_the_allowance_is_by_exact_path() -> None:
    assert randomness_violations("import secrets", "macau_tables/core/rng_helpers.py")
    assert randomness_violations("import numpy.random", "macau_tables/analysis/kernels/fast.py")
