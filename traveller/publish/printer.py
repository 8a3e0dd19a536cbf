"""The XML of a worksheet's rows and plain cells, printed as xlsxwriter prints it, only faster.

Used by :class:`traveller.publish.book.TextSafeWorksheet` when its fast path
is on: numbers, texts (shared or, in constant-memory mode, inline) and blank
cells are printed here; every other cell, and every ``<row>`` tag with
attributes of its own, by xlsxwriter. tests/test_publish_cells.py and
tests/test_publish_speed_identical.py compare the bytes both ways.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xlsxwriter import worksheet as xw
from xlsxwriter.utility import xl_col_to_name

NEW = tuple.__new__  # a cell tuple without the namedtuple's own __new__ (a Python call)
NUMBER, STRING, BLANK = xw.CellNumberTuple, xw.CellStringTuple, xw.CellBlankTuple
_PLAIN = (int, float)  # numbers whose text depends only on their value
_FORMAT = object()  # a column's cells' format, in the dict of their elements (see _rests)
#: Distinct numbers and texts remembered by a constant-memory sheet, at most.
REMEMBERED = 20_000


class Printer:
    """Prints a sheet's ``<row>`` and cell elements as xlsxwriter does, into one buffer.

    A format's `` s="N"`` attribute is asked of the format once, the first
    time a cell uses it (a format gets its index on first use, so in the
    order xlsxwriter would ask), a number's text is made once per value and
    an inline text's element once per text.
    """

    def __init__(self, sheet: Any) -> None:
        self.sheet = sheet
        self.out: list[str] = []
        self.shared = not sheet.constant_memory
        self.letters: list[str] = []
        self.formats: list[Any] = []  # each column's format
        self.base: list[str | None] = []  # its s attribute, once a cell has used it
        self.styles: dict[Any, str] = {None: ""}
        self.numbers: dict[Any, str] = {}
        self.texts: dict[str, str] = {}  # inline text -> the rest of its element ("": ours not)
        self.plain = False  # <row> tags without attributes are ours (see columns())
        self.starts: list[str] = []  # each column's cell element up to the row number
        self.rests: dict[tuple[Any, ...], list[dict[Any, Any]]] = {}  # see _rests()

    def columns(self, last_col: int) -> None:
        """Ready for cells up to ``last_col``, with the sheet's settings as they are now."""
        sheet = self.sheet
        self.plain = sheet.excel_version != 2010 \
            and sheet.default_row_height == sheet.original_row_height
        letters = self.letters
        while len(letters) <= last_col:
            letters.append(xl_col_to_name(len(letters)))
        info = sheet.col_info
        formats = [info[col].column_format if col in info else None
                   for col in range(len(letters))]
        if formats != self.formats:
            self.formats, self.base = formats, [None] * len(formats)
            self.rests.clear()
        self.starts = [f'<c r="{letter}' for letter in letters]
        if len(self.numbers) > REMEMBERED or len(self.texts) > REMEMBERED:
            self.numbers.clear()
            self.texts.clear()

    def style(self, cell_format: Any) -> str:
        """The `` s="N"`` attribute of a cell with this format ("" for none)."""
        s = self.styles.get(cell_format)
        if s is None:
            s = self.styles[cell_format] = f' s="{cell_format._get_xf_index()}"'
        return s

    def number(self, number: Any) -> str:
        """The text of a number cell's value, as xlsxwriter prints it."""
        text = f"{number:.16G}"
        if number and number.__class__ in _PLAIN:  # 0 and -0.0 print apart
            self.numbers[number] = text
        return text

    def text(self, string: str) -> str:
        """An inline text cell's element after its attributes ("": xlsxwriter prints it)."""
        sheet = self.sheet
        # (a printable text without "_x" is one xlsxwriter's escaping leaves as it is)
        escaped = string if string.isprintable() and "_x" not in string \
            else sheet._escape_control_characters(string)
        if escaped.startswith("<r>") and escaped.endswith("</r>"):
            rest = ""
        else:
            space = ' xml:space="preserve"' if xw._preserve_whitespace(escaped) else ""
            rest = f' t="inlineStr"><is><t{space}>{sheet._escape_data(escaped)}</t></is></c>'
        self.texts[string] = rest
        return rest

    def flush(self) -> None:
        """Hand what is printed so far to the sheet's file (before xlsxwriter prints)."""
        if self.out:
            self.sheet.fh.write("".join(self.out))
            self.out.clear()

    def row(self, row: int, span: str | None, row_info: Any) -> None:
        """The ``<row>`` start tag: ours for a row without attributes, else xlsxwriter's."""
        if row_info is None and self.plain:
            self.out.append(f'<row r="{row + 1}" spans="{span}">' if span
                            else f'<row r="{row + 1}">')
        else:
            self.flush()
            self.sheet._write_row(row, span, row_info)

    def cells(self, row: int, cols: list[int], cells: dict[int, Any], row_info: Any) -> None:
        """The row's cells in column order, then ``</row>``."""
        out, letters, numbers, styles = self.out, self.letters, self.numbers, self.styles
        rn, formats = str(row + 1), self.formats
        row_format = row_info.row_format if row_info is not None else None
        base: list[str | None] = self.base if not row_format else [None] * len(formats)
        for col in cols:
            cell = cells[col]
            kind = cell.__class__
            if kind is NUMBER or kind is STRING or kind is BLANK:
                cell_format = cell[-1]
                if cell_format:
                    s = styles.get(cell_format) or self.style(cell_format)
                else:
                    known = base[col]
                    if known is None:
                        known = base[col] = self.style(row_format or formats[col])
                    s = known
                if kind is NUMBER:
                    value = cell[0]
                    text = (numbers.get(value) if value.__class__ in _PLAIN else None) \
                        or self.number(value)
                    out.append(f'<c r="{letters[col]}{rn}"{s}><v>{text}</v></c>')
                    continue
                if kind is BLANK:
                    out.append(f'<c r="{letters[col]}{rn}"{s}/>')
                    continue
                if self.shared:
                    out.append(f'<c r="{letters[col]}{rn}"{s} t="s"><v>{cell[0]}</v></c>')
                    continue
                rest = self.texts.get(cell[0])
                if rest is None:
                    rest = self.text(cell[0])
                if rest:
                    out.append(f'<c r="{letters[col]}{rn}"{s}{rest}')
                    continue
            self.flush()
            self.sheet._write_cell(row, col, cell)
        out.append("</row>")

    def values(self, row: int, span: str | None, values: Sequence[Any],
               formats: tuple[Any, ...], row_info: Any) -> None:
        """A row kept as its values (finite numbers, plain texts; None: no cell): its
        ``<row>`` tag (as :meth:`row`), the elements :meth:`cells` prints for their cells,
        ``</row>``."""
        rn, out = str(row + 1), self.out
        if row_info is None and self.plain:
            out.append(f'<row r="{rn}" spans="{span}">' if span else f'<row r="{rn}">')
        else:
            self.row(row, span, row_info)
        row_format = row_info.row_format if row_info is not None else None
        rests = self.rests.get(formats) if not row_format else None
        if rests is None:
            rests = self._rests(formats, row_format)
        for value, start, known in zip(values, self.starts, rests, strict=False):
            if value is not None:
                out.append(f"{start}{rn}{known.get(value) or self._rest(known, value)}")
        out.append("</row>")

    def _rests(self, formats: tuple[Any, ...], row_format: Any) -> list[dict[Any, Any]]:
        """Per column of a row with these cell formats: its cells' elements after the row
        number, by value (see :meth:`_rest`); kept for the next rows unless the row has a
        format."""
        rests = [{_FORMAT: cell_format or row_format or column_format}
                 for cell_format, column_format in zip(formats, self.formats, strict=False)]
        if not row_format:
            if len(self.rests) > REMEMBERED:
                self.rests.clear()
            self.rests[formats] = rests
        return rests

    def _rest(self, known: dict[Any, Any], value: Any) -> str:
        """A kept cell's element after its row number: its `` s`` attribute (asked of the
        format when a cell first uses it), type and value, remembered in ``known``."""
        cell_format = known[_FORMAT]
        s = self.styles.get(cell_format)
        if s is None:
            s = self.style(cell_format)
        if value.__class__ is str:  # shared, or inline (constant-memory mode)
            text = f' t="s"><v>{self.sheet._indices[value]}</v></c>' if self.shared \
                else self.texts.get(value) or self.text(value)
            rest = known[value] = f'"{s}{text}'
            return rest
        rest = f'"{s}><v>{self.number(value)}</v></c>'
        if value:  # (0 and -0.0 print apart)
            known[value] = rest
        return rest
