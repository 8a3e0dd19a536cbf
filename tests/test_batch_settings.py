"""traveller.toml for batch runs: the cascade, overrides, validation, the fingerprint."""

from __future__ import annotations

from pathlib import Path

import pytest

from traveller.batch.settings import (
    SettingsError,
    SettingsTree,
    option_fields,
    parse_assignment,
)


def tree(tmp_path: Path, files: dict[str, str], overrides: dict[str, object] | None = None
         ) -> SettingsTree:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return SettingsTree(tmp_path, overrides)


def test_nearest_file_wins_and_the_command_line_wins_over_all(tmp_path: Path) -> None:
    t = tree(tmp_path, {"traveller.toml": 'scale = "1/0.5"\nmovement = "howell"\n',
                        "club/traveller.toml": 'movement = "mitchell"\nnotation = "pl"\n',
                        "club/names.csv": "Pair,Names\n1,A – B\n"})
    club = t.for_folder(tmp_path / "club" / "deeper")
    assert club.pipeline_kwargs() == {"scale": "1/0.5", "movement": "mitchell",
                                      "notation": "pl"}
    assert club.sources == (str(tmp_path / "traveller.toml"),
                            str(tmp_path / "club" / "traveller.toml"))
    top = SettingsTree(tmp_path, {"movement": "auto", "notation": "auto"}).for_folder(tmp_path)
    assert top.pipeline_kwargs() == {"scale": "1/0.5", "movement": "auto", "notation": None}


def test_names_is_relative_to_its_file_and_its_content_is_in_the_fingerprint(
        tmp_path: Path) -> None:
    files = {"club/traveller.toml": 'names = "names.csv"\n',
             "club/names.csv": "Pair,Names\n1,A – B\n"}
    first = tree(tmp_path, files).for_folder(tmp_path / "club")
    assert first.pipeline_kwargs()["names"] == (tmp_path / "club" / "names.csv").resolve()
    (tmp_path / "club" / "names.csv").write_text("Pair,Names\n1,C – D\n", encoding="utf-8")
    second = SettingsTree(tmp_path).for_folder(tmp_path / "club")
    assert first.fingerprint != second.fingerprint


@pytest.mark.parametrize(("text", "message"), [
    ('scael = "1/0.5"', "unknown key 'scael'; did you mean 'scale'?"),
    ('[scoring]\nscale = "1/0.5"', "unknown key 'scoring'"),
    ('scale = "3/1/0"', "scale = '3/1/0' is not one of '2/1/0', '1/0.5'"),
    ('names = "missing.csv"', "names = 'missing.csv': no such file"),
    ('encoding = "klingon"', "encoding = 'klingon' is not a known text encoding"),
    ('exclude = [1, 2]', "exclude must be a list of file-name patterns"),
    ('output_suffix = "../x"', "output_suffix must be text without / or \\"),
    ("scale = 1/0.5", "not valid TOML"),
])
def test_bad_settings_name_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    t = tree(tmp_path, {"club/traveller.toml": text})
    assert t.for_folder(tmp_path).values == {}  # the folder above is fine
    with pytest.raises(SettingsError) as error:
        t.for_folder(tmp_path / "club" / "below")
    assert str(error.value).startswith(str(tmp_path / "club" / "traveller.toml"))
    assert message in str(error.value)


def test_set_assignments_parse_toml_values_or_text() -> None:
    assert parse_assignment("scale=1/0.5") == ("scale", "1/0.5")
    assert parse_assignment("exclude=['*.txt']") == ("exclude", ["*.txt"])
    assert parse_assignment(" changes = txt ") == ("changes", "txt")
    with pytest.raises(SettingsError, match="write KEY=VALUE"):
        parse_assignment("scale")


def test_scoring_option_fields_are_keys(tmp_path: Path) -> None:
    if not {"phantom_award", "sections"} <= set(option_fields()):
        pytest.skip("the pipeline has no phantom_award/sections options")
    t = tree(tmp_path, {"traveller.toml": 'phantom_award = 60\nsections = "field"\n'})
    options = t.for_folder(tmp_path).pipeline_kwargs()["options"]
    assert (options.phantom_award, options.sections) == (60, "field")
    bad = tree(tmp_path / "b", {"traveller.toml": 'sections = "everywhere"\n'})
    with pytest.raises(SettingsError, match="sections"):
        bad.for_folder(tmp_path / "b")


def test_process_defaults_match_the_signature() -> None:
    """options.PROCESS_DEFAULTS stands in for process()'s signature so that a batch
    re-run hashes its settings without importing pandas; it must not drift."""
    import inspect

    from traveller.options import PROCESS_DEFAULTS
    from traveller.pipeline import process

    params = inspect.signature(process).parameters.values()
    found = {p.name: p.default for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}
    assert found.pop("progress") is None  # a progress bar's callback, not a setting
    assert found == PROCESS_DEFAULTS


def test_a_rerun_with_nothing_new_does_not_load_pandas(tmp_path: Path) -> None:
    import shutil
    import subprocess
    import sys

    inbox = tmp_path / "in"
    inbox.mkdir()
    shutil.copy(Path(__file__).parents[1] / "sample_data" / "club_session.csv", inbox)
    (inbox / "traveller.toml").write_text('scale = "2/1/0"\nmethod = "mp"\nsections = "apart"\n',
                                          encoding="utf-8")
    out = tmp_path / "out"
    code = ("import sys; from traveller.cli import main\n"
            "try:\n    main(['batch', sys.argv[1], '-o', sys.argv[2], '-q'])\n"
            "except SystemExit as e:\n    print('exit', e.code, 'pandas' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", code, str(inbox), str(out)],
                           capture_output=True, text=True, check=True)
    # the file is scored in a worker process: the run itself need not load pandas either
    assert first.stdout.splitlines()[-1].split()[:2] == ["exit", "0"]
    again = subprocess.run([sys.executable, "-c", code, str(inbox), str(out)],
                           capture_output=True, text=True, check=True)
    assert again.stdout.splitlines()[-1].split() == ["exit", "0", "False"]
