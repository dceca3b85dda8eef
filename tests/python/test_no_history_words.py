"""The repository describes what is: no development history ("session 12", "update 5", "issues 3-4") in the
README, the guide, the headers, the sources, the CLI or the Python package (git log keeps it)."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
# A word of history followed by a number or a range of numbers ("updates 3–5", "session 13b").
HISTORY = re.compile(r"\b(sessions?|updates?|issues?)[ -]?[0-9]+", re.I)
PLACES = ["README.md", "docs/guide", "include", "src", "apps", "python/kbo"]
SUFFIXES = {".md", ".hpp", ".cpp", ".h", ".py", ".pyi", ".txt"}


def files():
    for place in PLACES:
        path = ROOT / place
        if path.is_file():
            yield path
        else:
            yield from (p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix in SUFFIXES)


def test_the_pattern_finds_history_and_spares_ordinary_words():
    for text in ("session 22", "Update 15", "issue 16", "updates 3–5", "sessions 12-13", "session13b"):
        assert HISTORY.search(text), text
    for text in ("update the study", "an issue with 2 workers", "session cookies", "updated 3 files"):
        assert not HISTORY.search(text), text


def test_no_file_cites_development_history():
    found = []
    for path in files():
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if HISTORY.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "history in the repository's text:\n" + "\n".join(found)
