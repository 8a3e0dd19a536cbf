"""read_leads: the lead column and its bad cells, worked out per distinct cell."""

import pandas as pd

from traveller.tidy.cells import as_text
from traveller.tidy.notation import parse_leads, read_leads


def test_read_leads_shows_the_lead_else_the_cell_as_typed() -> None:
    cells = pd.Series(["SA", " ♥10 ", "zz", None, "  ", 12.0, "d j", "SA"])
    lead, bad = read_leads(cells, "en")
    assert list(lead) == ["SA", "HT", "zz", pd.NA, pd.NA, "12", "DJ", "SA"]
    assert bad.tolist() == [False, False, True, False, False, True, False, False]


def test_read_leads_agrees_with_parse_leads_and_the_typed_cells() -> None:
    cells = pd.Series(["SA", "♠K", "hq", "x", "", None, "C2", "10D"] * 3).astype("category")
    lead, bad = read_leads(cells, "en")
    parsed, typed = parse_leads(cells, "en"), as_text(cells)
    assert list(lead) == list(parsed.fillna(typed).astype("string"))
    assert bad.tolist() == (typed.notna() & parsed.isna()).tolist()
