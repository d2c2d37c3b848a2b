"""The rulings as pages of their own, for a playground served without the docs.

A playground links each ruling it names to ``<docs>rules/<id>.html#<id>``. On the docs
site those are the docs' pages of the rulings; a playground served on its own (``pegs web
build`` without ``--docs-url``) gets these instead, in its ``rules/`` folder, so that every
link works from any static server, offline too: each page holds the ruling's id, its one line
(:data:`pegs_rules.rulings.RULINGS`) and its normative text from ``specs/rulings.md``
(:func:`pegs_rules.specfiles.ruling_text`), with what its sources' keys (``R16; Q11``) stand for
(:func:`pegs_rules.specfiles.sources_key`).

The text is Markdown of a few kinds only (paragraphs, numbered items, ``**strong**``,
``*emphasis*`` and ```code```), which :func:`text_html` turns into HTML.

>>> print(text_html("**Both presets.** A `7` moves\\none peg *seven* holes."))
<p><strong>Both presets.</strong> A <code>7</code> moves one peg <em>seven</em> holes.</p>
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from pegs_rules import __version__
from pegs_rules.rulings import RULINGS
from pegs_rules.specfiles import ruling_text, sources_key

FOLDER = "rules"
"""Where the pages go in the playground's folder: ``rules/<id>.html``."""
_ITEM = re.compile(r"^( *)(\d+)\. (.*)$")

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{id}: a ruling of Pegs and Jokers</title>
  <link rel="icon" href="../icon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="../style.css">
</head>
<body class="ruling-page">
  <header><p><a href="../index.html">Pegs and Jokers playground</a></p></header>
  <main>
    <article id="{id}" aria-labelledby="title">
      <h1 id="title">Ruling <code>{id}</code></h1>
      <p class="ruling-line">{line}</p>
      {text}
      {sources}
    </article>
  </main>
  <footer><p class="facts">As <code>specs/rulings.md</code> of pegs-rules {version} states it.</p></footer>
</body>
</html>
"""


def write_pages(out_dir: Path) -> None:
    """Write a page for every ruling into ``out_dir/rules/``."""
    folder = out_dir / FOLDER
    folder.mkdir(exist_ok=True)
    key = f'<aside class="facts" aria-label="The sources">{text_html(sources_key())}</aside>'
    for rule, line in RULINGS.items():
        text = ruling_text(rule)
        page = PAGE.format(
            id=html.escape(rule),
            line=html.escape(line),
            text=text_html(text),
            sources=key if "**Sources.**" in text else "",
            version=html.escape(__version__),
        )
        (folder / f"{rule}.html").write_text(page, encoding="utf-8")


def text_html(text: str) -> str:
    """A ruling's Markdown text as HTML: a paragraph each, a numbered item each (indented as
    it is nested)."""
    blocks = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        items: list[tuple[int, str, list[str]]] = []
        lines: list[str] = []
        for line in paragraph.splitlines():
            item = _ITEM.match(line)
            if item:
                items.append((len(item[1]), item[2], [item[3]]))
            elif items:
                items[-1][2].append(line.strip())
            else:
                lines.append(line.strip())
        if lines:
            blocks.append(f"<p>{_inline(' '.join(lines))}</p>")
        for indent, number, words in items:
            depth = 1 + indent // 3
            blocks.append(
                f'<p class="ruling-item depth-{depth}">{number}. {_inline(" ".join(words))}</p>'
            )
    return "\n      ".join(blocks)


def _inline(text: str) -> str:
    """Code spans, strong and emphasis of one line of Markdown, the rest escaped."""
    parts = text.split("`")
    out = []
    for i, part in enumerate(parts):
        escaped = html.escape(part)
        if i % 2:
            out.append(f"<code>{escaped}</code>")
        else:
            escaped = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped)
            out.append(re.sub(r"\*(.+?)\*", r"<em>\1</em>", escaped))
    return "".join(out)
