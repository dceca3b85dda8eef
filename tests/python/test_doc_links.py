"""Every Markdown link of the README, the user guide and the other pages under docs/ leads somewhere: a relative
path names a file or directory of the checkout, and an #anchor names a heading of the target page, spelled as
GitHub spells heading anchors. Links to other sites are not fetched (the tests run offline)."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

FENCE = re.compile(r"^(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:.+?)\1")
# [text](target) and ![alt](target); the text may hold one level of brackets (a link inside an image's alt).
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def pages():
    """The checked pages: README.md, docs/guide/*.md and every other Markdown page under docs/."""
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def prose_lines(text: str):
    """(line number, line) of the lines outside fenced code blocks, inline code removed."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            yield number, INLINE_CODE.sub("", line)


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: the rendered text lower-cased, every character that is not a letter,
    digit, space, hyphen or underscore dropped, spaces turned into hyphens."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", heading)  # a link renders as its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


def anchors(page: pathlib.Path):
    """Every anchor of a page: its headings' slugs (repeats get -1, -2, … as on GitHub) and HTML anchors."""
    seen, found = {}, set()
    text = page.read_text()
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        m = HEADING.match(line)
        if m and not fenced:
            slug = github_slug(m.group(2))
            found.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
            seen[slug] = seen.get(slug, 0) + 1
    found.update(HTML_ANCHOR.findall(text))
    return found


def dead_links(page: pathlib.Path, root: pathlib.Path = ROOT):
    """'page:line: target (why)' for every relative link of the page that leads nowhere."""
    dead = []
    for number, line in prose_lines(page.read_text()):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto: … not fetched
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(root)}:{number}: {target}"
            if not dest.exists():
                dead.append(f"{where} (no such file)")
            elif root.resolve() not in dest.resolve().parents and dest.resolve() != root.resolve():
                dead.append(f"{where} (outside the repository)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                dead.append(f"{where} (no heading with anchor #{anchor})")
    return dead


def test_the_pages_include_the_readme_and_the_guide():
    names = {p.relative_to(ROOT).as_posix() for p in pages()}
    assert {"README.md", "docs/guide/README.md", "docs/guide/sets.md", "docs/BENCHMARKS.md"} <= names


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_dead_link(page):
    assert dead_links(page) == []


def test_github_slugs():
    assert github_slug("BO over sets (Kim et al., MLJ 2021)") == "bo-over-sets-kim-et-al-mlj-2021"
    assert github_slug("`kbo optimize --strategy agpucb`: the defaults") == "kbo-optimize---strategy-agpucb-the-defaults"
    assert github_slug("Fig. 5 — GP samples") == "fig-5--gp-samples"
    assert github_slug("A [linked](x.md) heading") == "a-linked-heading"


def test_a_broken_page_is_caught(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other page\n\n## Second part\n")
    page = tmp_path / "README.md"
    page.write_text(
        "# Title\n\n"
        "[fine](docs/other.md) [fine too](docs/other.md#second-part) [here](#title) [web](https://example.org/x)\n"
        "[missing file](docs/nothing.md) and ![missing image](docs/img.png)\n"
        "[missing anchor](docs/other.md#third-part) and [missing local anchor](#no-such-heading)\n"
        "```sh\n[not a link in code](nowhere.md)\n```\n"
        "`[nor in inline code](nowhere.md)`\n")
    dead = dead_links(page, tmp_path)
    assert [d.split(": ", 1)[1] for d in dead] == [
        "docs/nothing.md (no such file)", "docs/img.png (no such file)",
        "docs/other.md#third-part (no heading with anchor #third-part)",
        "#no-such-heading (no heading with anchor #no-such-heading)"], dead
