"""The documents point at what exists: each bench listed, each figure reproducible, each link whole.

``bench/README.md`` must name every script of ``bench/``; each figure of
``docs/performance.md`` (a ``###`` section) must give a ``bench/`` command
whose script exists; and the links of the README and of the documents it
links to must lead to files (and headings) that are there.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
PERFORMANCE = ROOT / "docs" / "performance.md"
README = ROOT / "README.md"

# A command in a code span that runs a script of bench/: `... bench/NAME.py ...`.
BENCH_COMMAND = re.compile(r"`[^`\n]*\bbench/([A-Za-z0-9_]+\.py)\b[^`\n]*`")
# A Markdown link or image: [text](target) or ![text](target).
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def sections(text: str, level: str) -> dict[str, str]:
    """Each heading of ``level`` (``"###"``) with the text under it, up to the next
    heading of that level or above."""
    found: dict[str, str] = {}
    heading: str | None = None
    lines: list[str] = []
    for line in FENCE.sub("", text).splitlines():
        match = re.match(r"^(#+) (.*)", line)
        if match and len(match.group(1)) <= len(level):
            if heading is not None:
                found[heading] = "\n".join(lines)
            heading = match.group(2) if match.group(1) == level else None
            lines = []
        elif heading is not None:
            lines.append(line)
    if heading is not None:
        found[heading] = "\n".join(lines)
    return found


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(document: Path) -> set[str]:
    text = FENCE.sub("", document.read_text())
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.*)$", text, re.MULTILINE)}


def links(document: Path) -> list[str]:
    """The relative link targets of ``document`` (outside code blocks)."""
    text = FENCE.sub("", document.read_text())
    return [t for t in LINK.findall(text) if not re.match(r"^[a-z]+:", t)]


def documents() -> list[Path]:
    """The README, and every Markdown file it links to, directly or through another."""
    seen: list[Path] = []
    queue = [README]
    while queue:
        document = queue.pop()
        if document in seen:
            continue
        seen.append(document)
        for target in links(document):
            path = (document.parent / target.split("#", 1)[0]).resolve()
            if path.suffix == ".md" and path.is_file():
                queue.append(path)
    return seen


def test_bench_readme_lists_every_script() -> None:
    listed = (BENCH / "README.md").read_text()
    scripts = sorted(path.name for path in BENCH.glob("*.py"))
    assert scripts, "bench/ holds no script"
    missing = [name for name in scripts if f"`{name}`" not in listed]
    assert not missing, f"bench/README.md does not list {missing}"


def test_performance_has_figure_sections() -> None:
    # The checks below mean something only if the document has its sections.
    assert len(sections(PERFORMANCE.read_text(), "###")) >= 10


@pytest.mark.parametrize("heading", sorted(sections(PERFORMANCE.read_text(), "###")))
def test_each_figure_gives_a_bench_command_that_exists(heading: str) -> None:
    body = sections(PERFORMANCE.read_text(), "###")[heading]
    scripts = BENCH_COMMAND.findall(body)
    assert scripts, f'docs/performance.md, "{heading}": no bench/ command reproduces it'
    absent = [name for name in scripts if not (BENCH / name).is_file()]
    assert not absent, f'docs/performance.md, "{heading}": bench/{absent} does not exist'


def test_the_readme_links_to_docs() -> None:
    targets = {target.split("#", 1)[0] for target in links(README)}
    assert {"docs/performance.md", "bench/README.md"} <= targets
    assert len([t for t in targets if t.startswith("docs/")]) >= 5


@pytest.mark.parametrize("document", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_leads_to_a_file_and_heading_that_exist(document: Path) -> None:
    broken = []
    for target in links(document):
        name, _, anchor = target.partition("#")
        path = (document.parent / name).resolve() if name else document
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: no such heading")
    assert not broken, f"{document.relative_to(ROOT)}: {broken}"


def test_docs_files_the_readme_names_exist() -> None:
    # Named in code spans too, not only in links: `docs/fairness.md`.
    named = set(re.findall(r"\bdocs/[A-Za-z0-9_.-]+\.md\b", README.read_text()))
    assert named, "the README names no docs/ file"
    absent = sorted(name for name in named if not (ROOT / name).is_file())
    assert not absent, f"the README names {absent}, which do not exist"
