"""The xlsxwriter workbook every publication is written with: any text stays that text.

xlsxwriter takes a text that starts with ``<r>`` and ends with ``</r>`` for
ready-made rich-text XML and writes it into the file unescaped, so a name
such as ``<r>A & B</r>`` from an input would make a workbook that Excel
repairs and other readers refuse. Our worksheets write such a text as a rich
string of plain pieces instead, which xlsxwriter escapes: the cell shows
exactly the text the input had.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import xlsxwriter
from xlsxwriter.worksheet import Worksheet


class TextSafeWorksheet(Worksheet):
    """A worksheet on which every text is written as text (see the module docstring)."""

    def _write_string(self, row: int, col: int, string: str,
                      cell_format: Any = None) -> Any:
        if string.startswith("<r>") and string.endswith("</r>"):
            # three plain pieces (xlsxwriter needs more than two); each is escaped
            pieces = [string[:1], string[1:2], string[2:]]
            return self._write_rich_string(row, col, *pieces,
                                           *([cell_format] if cell_format is not None else []))
        return super()._write_string(row, col, string, cell_format)

    def put_row(self, row: int, values: Sequence[Any], formats: Sequence[Any]) -> None:
        """Write ``values[j]`` into column ``j`` of ``row`` with ``formats[j]``; None: no cell.

        A text is written with ``write_string``, an int or float with
        ``write_number``, anything else with ``write``: the cells are those of
        writing each value on its own.
        """
        for col, value in enumerate(values):
            if value is not None:
                self._put(row, col, value, formats[col])

    def _put(self, row: int, col: int, value: Any, cell_format: Any) -> None:
        kind = value.__class__
        if kind is str:
            self.write_string(row, col, value, cell_format)
        elif kind is float or kind is int:
            self.write_number(row, col, value, cell_format)
        else:
            self.write(row, col, value, cell_format)


class Workbook(xlsxwriter.Workbook):
    """``xlsxwriter.Workbook`` whose worksheets write every text as text."""

    worksheet_class = TextSafeWorksheet
