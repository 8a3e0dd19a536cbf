"""XML read safely, each element with the line of its start tag (USEBIO input).

The file is parsed with defusedxml: entity declarations (billion laughs,
external entities) are refused with :class:`UnreadableFileError`; a DOCTYPE
line is allowed and never fetched; a file too large or nested too deep to be
a results export is refused in one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml import DefusedXmlException  # type: ignore[import-untyped]
from defusedxml.ElementTree import DefusedXMLParser  # type: ignore[import-untyped]

from traveller.errors import UnreadableFileError

MAX_BYTES = 64 * 1024 * 1024


class _LineTreeBuilder(TreeBuilder):
    """A TreeBuilder that notes the line of each element's start tag."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[Element, int] = {}
        self.expat: Any = None
        self.depth = 0

    def start(self, tag: str, attrs: dict[str, str]) -> Element:
        self.depth += 1
        if self.depth > MAX_DEPTH:  # USEBIO nests a few levels; this is no results file
            raise _TooDeep(f"elements nested more than {MAX_DEPTH} deep")
        element = super().start(tag, attrs)
        if self.expat is not None:
            self.lines[element] = self.expat.CurrentLineNumber
        return element

    def end(self, tag: str) -> Element:
        self.depth -= 1
        return super().end(tag)


class _TooDeep(ValueError):
    """The XML nests deeper than any results file (and than the reader may recurse)."""


#: How deep elements may nest (a USEBIO file nests under ten).
MAX_DEPTH = 100


def parse_xml(path: Path) -> tuple[Element, dict[Element, int]]:
    """Parse an XML file safely; returns the root and each element's line number.

    Raises UnreadableFileError for entity declarations (XML bombs, external
    entities), malformed XML, or a file too large to be a results export.
    """
    if path.stat().st_size > MAX_BYTES:
        raise UnreadableFileError(f"{path}: {path.stat().st_size} bytes is too large for a "
                                  "USEBIO results file; check it is the right file")
    builder = _LineTreeBuilder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=False, forbid_entities=True,
                              forbid_external=True)
    builder.expat = getattr(parser, "parser", None)
    try:
        parser.feed(path.read_bytes())
        root = parser.close()
    except DefusedXmlException as exc:
        raise UnreadableFileError(
            f"{path}: refused to read: the XML declares entities or external references "
            f"({exc}); a USEBIO export never needs them - export the results again "
            "from the scoring program") from exc
    except (ParseError, _TooDeep) as exc:
        raise UnreadableFileError(f"{path}: not well-formed XML ({exc}); export the "
                                  "results again from the scoring program") from exc
    return root, builder.lines
