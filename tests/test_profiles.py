"""Profiles (``--as``, ``profile=``): what each sets, and explicit options winning over it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from traveller import process
from traveller.cli import main
from traveller.options import Options, options_with
from traveller.profiles import ASSUMED, DOCUMENTED, OBSERVED, PROFILES, VERIFIED, settings

SHEET = "Board,NS,EW,Contract,Score\n1,1,11,,420\n1,2,12,,450\n1,3,13,,-50\n"


@pytest.mark.parametrize("name", PROFILES)
def test_every_profile_is_valid_options_with_a_known_source(name: str) -> None:
    options = Options(profile=name)
    fields = {f.name for f in dataclasses.fields(Options)}
    for key, (value, source) in PROFILES[name].items():
        assert source in (VERIFIED, DOCUMENTED, OBSERVED, ASSUMED)
        assert key in fields or key == "scale"
        if key in fields:
            assert getattr(options, key) == value


def test_explicit_values_override_the_profile() -> None:
    assert Options(profile="ruter").divisor == "none"
    assert Options(profile="ruter", divisor="n").divisor == "n"
    # through keywords an explicit default value wins too
    kept = options_with(None, {"profile": "ruter", "divisor": "n-1"})
    assert (kept.divisor, kept.profile) == ("n-1", "ruter")
    with pytest.raises(ValueError, match="unknown profile"):
        Options(profile="nope")
    with pytest.raises(ValueError, match="unknown profile"):
        settings("nope")


def test_acbl_profile_scores_on_the_1_half_scale(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text(SHEET, encoding="utf-8")
    result = process(path, profile="acbl")
    # 450 beats two results: 2 on the ACBL scale (1 per result beaten), top 2
    assert result.settings["scale"] == "1/0.5"
    t = result.travellers.set_index("ns_pair")
    assert t.loc[2, "ns_mp"] == 2 and t.loc[1, "ns_mp"] == 1 and t.loc[2, "top"] == 2
    assert process(path, profile="acbl", scale="1/0.5").settings["scale"] == "1/0.5"


def test_cli_as_maps_to_profile_and_explicit_flags_win(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text(SHEET, encoding="utf-8")
    runner = CliRunner()
    out = tmp_path / "r.xlsx"
    done = runner.invoke(main, ["score", str(path), "-o", str(out), "--as", "ruter",
                                "--method", "ximp"])
    assert done.exit_code == 0, done.output
    done = runner.invoke(main, ["score", str(path), "-o", str(out), "--as", "ruter",
                                "--divisor", "n-1", "--method", "ximp"])
    assert done.exit_code == 0, done.output
    bad = runner.invoke(main, ["score", str(path), "-o", str(out), "--as", "nobody"])
    assert bad.exit_code == 2
    bad = runner.invoke(main, ["score", str(path), "-o", str(out), "--trim", "60%"])
    assert bad.exit_code == 2 and "--trim" in bad.output


def test_every_options_field_is_a_score_option_of_the_same_name() -> None:
    names = {p.name for p in main.commands["score"].params}
    assert {f.name for f in dataclasses.fields(Options)} <= names


def test_readme_profile_table_matches_the_profiles() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Scoring as another program does", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:-1] for line in section.splitlines() if line.startswith("| `")]
    header = [c.strip().strip("`") for c in section.split("| setting |", 1)[1]
              .splitlines()[0].split("|")[:-1]]
    assert header == list(PROFILES)
    table = {r[0].strip().strip("`"): [c.strip() for c in r[1:]] for r in rows}
    marks = {VERIFIED: "V", DOCUMENTED: "D", OBSERVED: "O", ASSUMED: "A"}
    for key, cells in table.items():
        for name, cell in zip(PROFILES, cells, strict=True):
            if key not in PROFILES[name]:
                assert cell == "", (name, key)
                continue
            value, source = PROFILES[name][key]
            shown = {True: "yes", False: "no"}.get(value, value) if isinstance(
                value, bool) else (f"{value:g}" if isinstance(value, float) else value)
            shown = ",".join(map(str, value)) if isinstance(value, tuple) else shown
            assert cell == f"{shown} ({marks[source]})", (name, key, cell)
    assert {k for p in PROFILES.values() for k in p} == set(table)
