"""The public API a pandas user meets: names, keywords, frames in memory, repr."""

from __future__ import annotations

import importlib
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import traveller
from traveller.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data"


@pytest.mark.parametrize("name", traveller.__all__)
def test_every_public_name_imports(name: str) -> None:
    assert getattr(traveller, name) is not None
    assert name in dir(traveller)


def test_dir_lists_the_stages_and_not_the_plumbing() -> None:
    shown = dir(traveller)
    assert {"read", "tidy", "score", "publish", "batch"} <= set(shown)
    assert "import_module" not in shown and "TYPE_CHECKING" not in shown


def test_read_is_the_function_even_after_the_read_stage_is_imported() -> None:
    importlib.import_module("traveller.read.load")
    assert callable(traveller.read)
    assert traveller.read(SAMPLE / "club_session.csv").tables


def rooms_frame() -> pd.DataFrame:
    rows = []
    for board, (open_score, closed_score) in enumerate([(420, 170), (-100, 140), (100, 100)], 1):
        rows.append([board, "Open", 1, 2, open_score])
        rows.append([board, "Closed", 2, 1, closed_score])
    return pd.DataFrame(rows, columns=["Board", "Room", "NS", "EW", "Score"])


@pytest.mark.parametrize("method, source, keywords", [
    ("mp", "club_session.csv", {}),
    ("ximp", "club_session.csv", {"divisor": "n"}),
    ("butler", "club_session.csv", {"trim": 2}),
    ("total", "club_session.csv", {}),
    ("russian", "chicago_russian.csv", {"chicago": True}),
    ("teams", None, {}),
])
def test_process_takes_every_method_as_a_keyword(method: str, source: str | None,
                                                 keywords: dict[str, object]) -> None:
    given = rooms_frame() if source is None else SAMPLE / source
    result = traveller.process(given, method=method, **keywords)
    assert result.settings["method"] == method
    for key, value in keywords.items():
        assert result.settings[key] == value
    assert len(result.ranking) > 0 and result.problems.empty


def test_keywords_and_options_object_agree() -> None:
    by_keyword = traveller.process(SAMPLE / "club_session.csv", method="butler", trim=2)
    by_object = traveller.process(SAMPLE / "club_session.csv",
                                  options=traveller.Options(method="butler", trim=2))
    pd.testing.assert_frame_equal(by_keyword.ranking, by_object.ranking)


def test_keywords_beside_an_options_object_name_the_clash() -> None:
    with pytest.raises(TypeError, match="trim"):
        traveller.process(SAMPLE / "club_session.csv", options=traveller.Options(), trim=2)


def test_an_unknown_keyword_lists_the_options() -> None:
    with pytest.raises(TypeError, match=r"unknown option metod.*method"):
        traveller.process(SAMPLE / "club_session.csv", metod="ximp")


def test_process_a_dataframe_scores_like_the_file() -> None:
    from_file = traveller.process(SAMPLE / "club_session.csv")
    frame = pd.read_csv(SAMPLE / "club_session.csv", dtype=str)
    from_frame = traveller.process(frame)
    assert from_frame.source == "<DataFrame>"
    pd.testing.assert_series_equal(from_file.ranking["pct"], from_frame.ranking["pct"])
    cols = ["board", "ns_pair", "ew_pair", "ns_score", "ns_mp"]
    pd.testing.assert_frame_equal(from_file.travellers[cols], from_frame.travellers[cols])


def test_process_a_dict_of_frames_uses_the_names_frame() -> None:
    frame = pd.read_csv(SAMPLE / "club_session.csv", dtype=str)
    names = pd.read_csv(SAMPLE / "names.csv", dtype=str)
    result = traveller.process({"Results": frame, "Names": names})
    assert result.ranking["names"].notna().all()


def test_a_bad_row_in_a_frame_is_listed_at_its_position() -> None:
    frame = pd.read_csv(SAMPLE / "club_session.csv", dtype=str)
    frame.loc[5, "Contract"] = "9Q"
    result = traveller.process(frame)
    bad = result.problems[result.problems["code"] == "unknown-contract"]
    assert bad["row"].tolist() == [5] and bad["file"].tolist() == ["<DataFrame>"]


def test_result_repr_and_to_excel(tmp_path: Path) -> None:
    result = traveller.process(SAMPLE / "club_session.xlsx")
    assert repr(result) == ("Result: 16 pairs, 24 boards, 192 results, 0 problems; "
                            "matchpoints 2/1/0, Mitchell")
    written = result.to_excel(tmp_path / "out.xlsx")
    assert Path(written).stat().st_size > 0


def test_an_individuals_repr_counts_players() -> None:
    result = traveller.process(SAMPLE / "individual_session.csv")
    assert repr(result).startswith("Result: 12 players, 6 boards, 18 results")
    assert repr(result).endswith(", Individual")  # its movement, as the Summary sheet says


def test_imps_and_victory_points_are_vectorised() -> None:
    assert traveller.imps(580) == 11
    assert list(traveller.imps(pd.Series([-20, 0, 4000]))) == [-1, 0, 24]
    a, b = traveller.victory_points(pd.Series([10, -10]), 16)
    assert a.tolist() == [12.8, 7.2] and b.tolist() == [7.2, 12.8]


def test_output_must_be_an_xlsx(tmp_path: Path) -> None:
    got = CliRunner().invoke(main, ["score", str(SAMPLE / "club_session.csv"),
                                    "-o", str(tmp_path / "results.pdf")])
    assert got.exit_code == 2 and ".xlsx" in got.output
    assert not (tmp_path / "results.pdf").exists()


def test_every_pairs_ranking_has_the_core_columns() -> None:
    core = ["section", "line", "pair", "names", "boards"]
    own = {"mp": ["mp", "mp_factored", "pct"], "ximp": ["imps", "average"],
           "butler": ["imps", "average"], "total": ["points", "average"]}
    for method, figures in own.items():
        ranking = traveller.process(SAMPLE / "club_session.csv", method=method).ranking
        assert list(ranking.columns) == [*core, *figures, "place"], method
        assert ranking["place"].str.fullmatch(r"\d+=?").all()
        assert ranking["names"].notna().all()
    russian = traveller.process(SAMPLE / "chicago_russian.csv", method="russian", chicago=True)
    assert list(russian.ranking.columns) == [*core, "imps", "average", "place"]
    individual = traveller.process(SAMPLE / "individual_session.csv").ranking
    assert list(individual.columns) == [*core, "mp", "mp_factored", "pct", "place"]
    assert individual["line"].eq("").all()


def test_a_teams_standing_has_names_boards_and_place() -> None:
    rows = [(b, room, 1, 2) for b in (1, 2) for room in ("Open", "Closed")]
    frame = pd.DataFrame(
        [{"Board": b, "Room": room, "NS": ns if room == "Open" else ew,
          "EW": ew if room == "Open" else ns, "Contract": "4S", "By": "N",
          "Tricks": "10" if room == "Open" else "9"} for b, room, ns, ew in rows])
    ranking = traveller.process(frame, method="teams").ranking
    assert list(ranking.columns) == ["place", "team", "names", "boards", "matches", "vp",
                                     "imps_for", "imps_against", "quotient"]
    assert ranking["boards"].tolist() == [2, 2] and ranking["names"].eq("").all()
    assert ranking["place"].tolist() == ["1", "2"]


def test_cells_as_typed_are_snake_case_columns_whatever_the_header() -> None:
    english = traveller.process(SAMPLE / "club_session.csv").travellers
    polish = traveller.process(SAMPLE / "club_session_pl.xlsx").travellers
    for t in (english, polish):
        assert {"contract_as_written", "declarer_as_written", "tricks_as_written",
                "lead_as_written"} <= set(t.columns)
        assert not [c for c in t.columns if "(" in str(c) or " " in str(c)]
    assert polish["contract_as_written"].notna().all()


def test_the_sheets_head_the_snake_case_columns_in_words() -> None:
    from traveller.publish.headers import heading

    assert heading("contract_as_written") == "Contract (as written)"
    assert heading("declarer_as_written") == "Declarer (as written)"
    assert heading("made_as_written") == "Made (as written)"
    assert heading("national_ns_mp") == "National N-S MP"
    assert heading("ns_mp") == "N-S MP" and heading("Round") == "Round"


def test_a_frame_built_by_hand_with_numbers_scores_like_text() -> None:
    text = pd.read_csv(SAMPLE / "club_session.csv", dtype=str)
    numbers = pd.read_csv(SAMPLE / "club_session.csv")  # boards, pairs, tricks as ints
    assert pd.api.types.is_integer_dtype(numbers["Board"])
    a, b = traveller.process(text), traveller.process(numbers)
    assert b.problems.empty
    pd.testing.assert_frame_equal(a.ranking, b.ranking)
