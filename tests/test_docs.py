"""The documentation describes the product as it is, and stays true to it.

- No work diary in README.md, docs/, src/ or tests/: no "stop N" or "issue N", no date of
  the project's work, no commit hash (the history is in git and in CHANGELOG.md, which is
  not scanned, nor is this file).
- Every internal link of the Markdown pages resolves: the file, and the heading its
  ``#anchor`` names.
- docs/ holds at most 250 KB of Markdown.
- The generated pages are what their generators give now: the command reference (every
  ``--help``), the API reference (the server's OpenAPI document), the benchmarks page
  (benchmarks/results/*.json).
- ``macau-tables --version`` is the latest release of CHANGELOG.md.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import io
import re
import subprocess
import sys
import tokenize
import tomllib
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
DOCS_LIMIT = 250_000  # bytes of Markdown under docs/
FIRST_DAY = dt.date(2026, 11, 21)  # the project's first commit, when git cannot say

DIARY = re.compile(r"\b(?:[Ss]tops? [0-9]+|[Ii]ssues? #?[0-9]+)")
DATE = re.compile(r"\b(20[0-9]{2})-([01][0-9])-([0-3][0-9])\b")
HEX = re.compile(r"\b[0-9a-f]{7,40}\b")


# --- what is scanned -----------------------------------------------------------------------


def scanned() -> list[Path]:
    """README.md, docs/**/*.md, and the text files of src/ and tests/ (not the vendored
    JavaScript, not this file)."""
    files = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    for base in (ROOT / "src", ROOT / "tests"):
        for path in sorted(base.rglob("*")):
            if path.suffix not in {".py", ".js", ".html", ".css", ".md"} or not path.is_file():
                continue
            if "vendor" in path.parts or path == Path(__file__).resolve():
                continue
            files.append(path)
    return files


@cache
def commits() -> frozenset[str]:
    """Every commit of the repository's history and every prefix of 7 or more of its hex
    digits (how a commit is written short), or nothing without git."""
    try:
        out = subprocess.run(
            ["git", "rev-list", "--all"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return frozenset()
    return frozenset(c[:n] for c in out.split() for n in range(7, len(c) + 1))


@cache
def work_days() -> tuple[dt.date, dt.date]:
    """From the first commit's day to today (or the last commit's, if later)."""
    first, last = FIRST_DAY, dt.date.today()
    try:
        out = subprocess.run(
            ["git", "log", "--all", "--format=%cs"], cwd=ROOT, capture_output=True, text=True,
            check=True,
        ).stdout.split()  # fmt: skip
        days = sorted(dt.date.fromisoformat(d) for d in out)
        if days:
            first, last = min(first, days[0]), max(last, days[-1])
    except (OSError, subprocess.CalledProcessError, ValueError):
        pass
    return first, last


def prose_of_python(text: str) -> str:
    """A module's comments and docstrings (the lines a date of the work would be in: test
    data such as a gaming day's date is code, not prose)."""
    out: list[str] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    previous = tokenize.NEWLINE
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            out.append(tok.string)
        elif tok.type == tokenize.STRING and previous in (
            tokenize.NEWLINE,
            tokenize.NL,
            tokenize.INDENT,
            tokenize.DEDENT,
        ):
            out.append(tok.string)  # a string standing as a statement: a docstring
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type
    return "\n".join(out)


def offences(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    found: list[str] = []
    for m in DIARY.finditer(text):
        found.append(f"{m.group(0)!r}")
    first, last = work_days()
    prose = prose_of_python(text) if path.suffix == ".py" else text
    for m in DATE.finditer(prose):
        try:
            day = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            continue
        if first <= day <= last:
            found.append(f"the work date {m.group(0)}")
    known = commits()
    for m in HEX.finditer(text):
        token = m.group(0)
        if not (re.search(r"[a-f]", token) and re.search(r"[0-9]", token)):
            continue
        is_commit = (
            token in known
            if known  # without git: a hash said to be a commit's
            else bool(re.search(rf"\bcommit {token}\b", text))
        )
        if is_commit:
            found.append(f"the commit {token}")
    return found


def test_no_work_diary_in_the_docs_the_code_or_the_tests() -> None:
    """README, docs, src and tests say what the product does, not how it came about: no
    "stop N", "issue N", date of the work or commit hash (git and CHANGELOG.md keep the
    history)."""
    problems = {str(path.relative_to(ROOT)): bad for path in scanned() if (bad := offences(path))}
    assert not problems, "\n".join(f"{k}: {', '.join(v)}" for k, v in problems.items())


def test_the_diary_check_finds_what_it_should() -> None:
    """The patterns catch each kind, and leave alone what is not a diary line."""
    assert DIARY.search("since stop 27 the server") and DIARY.search("(issue #16)")
    assert DIARY.search("Issue 12.5: settle files")
    assert not DIARY.search("stop-loss 100, --stop-win 50, a stop  to the clock")
    first, last = work_days()
    assert first <= FIRST_DAY <= last
    code = 'DAY = "2026-11-23"  # the gaming day of 2026-11-24\n"""A docstring, 2026-11-25."""\n'
    prose = prose_of_python(code)
    assert "2026-11-24" in prose and "2026-11-25" in prose and "2026-11-23" not in prose
    if commits():
        head = subprocess.run(
            ["git", "rev-parse", "--short=8", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        assert HEX.search(f"fixed at {head}") and head in commits()


# --- links ---------------------------------------------------------------------------------

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.M)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
HTML_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def pages() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text lower-cased, punctuation dropped (letters
    of any script, digits, ``_`` and ``-`` kept), spaces turned into hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set(HTML_ID.findall(text))
    for m in HEADING.finditer(text):
        base = slug(m.group(2))
        n = seen.get(base, 0)
        out.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return frozenset(out)


def links(path: Path) -> list[str]:
    text = CODE.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    return LINK.findall(text) + REFERENCE.findall(text)


def broken(path: Path) -> list[str]:
    bad = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
            continue  # https:, mailto: …: not ours to check
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            bad.append(f"{target} (no such file)")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{target} (no heading #{anchor})")
    return bad


def test_every_internal_link_resolves() -> None:
    """Each link between the pages names a file that exists and, with ``#anchor``, a
    heading of that file."""
    problems = {str(p.relative_to(ROOT)): b for p in pages() if (b := broken(p))}
    assert not problems, "\n".join(f"{k}: {', '.join(v)}" for k, v in problems.items())


def test_the_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "a.md"
    (tmp_path / "b.md").write_text("# The table server\n\n## Running it\n", encoding="utf-8")
    page.write_text(
        "# A\n\n[ok](b.md#running-it) [self](#a) [gone](c.md) [no](b.md#nowhere) "
        "`[code](x.md)` [web](https://example.org)\n",
        encoding="utf-8",
    )
    assert broken(page) == ["c.md (no such file)", "b.md#nowhere (no heading #nowhere)"]
    assert slug("`core.rng`: the ONLY randomness") == "corerng-the-only-randomness"
    assert slug("Pai Gow (牌九) and Taiwan") == "pai-gow-牌九-and-taiwan"


def test_docs_fit_in_250_kb() -> None:
    size = sum(p.stat().st_size for p in DOCS.rglob("*.md"))
    assert size <= DOCS_LIMIT, f"docs/ holds {size:,} bytes of Markdown (at most {DOCS_LIMIT:,})"


# --- generated pages -----------------------------------------------------------------------


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_the_command_reference_is_every_help_page() -> None:
    """docs/reference/cli.md is what the commands print now (make docs-reference)."""
    gen = _module(ROOT / "scripts" / "gen_cli_reference.py")
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert page == gen.render(gen.walk()), "docs/reference/cli.md: run make docs-reference"


def test_the_api_reference_is_the_servers_openapi_document() -> None:
    """The generated parts of docs/reference/api.md are what the server documents now."""
    gen = _module(ROOT / "scripts" / "gen_api_reference.py")
    page = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    doc, ws = gen.openapi()
    fresh = gen.fill(gen.fill(page, "endpoints", gen.endpoints(doc)), "messages", gen.messages(ws))
    assert page == fresh, "docs/reference/api.md: run make docs-reference"


def test_the_benchmarks_page_is_the_results() -> None:
    """docs/benchmarks.md is what benchmarks/render.py makes of benchmarks/results/."""
    render = _module(ROOT / "benchmarks" / "render.py")
    page = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    assert page == render.render(), "docs/benchmarks.md: run python benchmarks/render.py"
    assert len(page.encode()) <= 25_000


# --- the version ---------------------------------------------------------------------------


def test_the_version_is_the_latest_release_of_the_changelog() -> None:
    """``macau-tables --version``, the package and pyproject.toml name the latest release
    of CHANGELOG.md."""
    from typer.testing import CliRunner

    from macau_tables import __version__
    from macau_tables.cli.app import app

    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", text, re.M)
    assert releases, "CHANGELOG.md names no release"
    assert __version__ == releases[0]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    if "version" in project["project"]:
        assert project["project"]["version"] == __version__
    else:
        assert "version" in project["project"]["dynamic"]
        path = project["tool"]["hatch"]["version"]["path"]
        assert (ROOT / path).resolve() == (ROOT / "src/macau_tables/__init__.py").resolve()
    out = CliRunner().invoke(app, ["--version"], prog_name="macau-tables")
    assert out.exit_code == 0 and out.output.strip() == f"macau-tables {__version__}"
