"""``save_atomic``: a file is saved whole or not at all, whoever else writes beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from corazones.services.files import save_atomic
from tests.helpers import unwritable_folder


def test_a_save_writes_the_text_and_replaces_the_old_file_leaving_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "pad.json"
    save_atomic(path, "first ♥\n")
    save_atomic(path, "second ♠\n")
    assert path.read_text(encoding="utf-8") == "second ♠\n"
    assert [p.name for p in tmp_path.iterdir()] == ["pad.json"]


def test_a_save_that_fails_while_writing_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_atomic(path, "the good record")
    with pytest.raises(UnicodeEncodeError):
        save_atomic(path, "half \ud800 a record")  # a lone surrogate cannot be written as UTF-8
    assert path.read_text(encoding="utf-8") == "the good record"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_folder_that_refuses_the_file_raises_oserror_and_creates_nothing(tmp_path: Path) -> None:
    folder, reason = unwritable_folder(tmp_path)
    with pytest.raises(OSError) as caught:
        save_atomic(folder / "pad.json", "text")
    assert caught.value.errno == reason
    assert not (folder / "pad.json").exists()


def test_the_temporary_name_is_unique_so_a_leftover_or_another_writer_cannot_block_the_save(tmp_path: Path) -> None:
    path = tmp_path / "tui.json"
    (tmp_path / ".tui.json.tmp").mkdir()  # what a fixed temporary name would collide with
    save_atomic(path, "{}\n")
    assert path.read_text(encoding="utf-8") == "{}\n"


def test_a_bare_file_name_saves_in_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    save_atomic(Path("record.json"), "x")
    assert (tmp_path / "record.json").read_text(encoding="utf-8") == "x"


def test_the_saved_file_has_the_permissions_a_plain_write_gives_not_the_temporary_file_s(tmp_path: Path) -> None:
    fresh = tmp_path / "record.json"
    plain = tmp_path / "plain.json"
    save_atomic(fresh, "x")
    plain.write_text("x", encoding="utf-8")
    assert fresh.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777
    kept = tmp_path / "shared.json"
    kept.write_text("old", encoding="utf-8")
    kept.chmod(0o640)
    save_atomic(kept, "new")
    assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_text(encoding="utf-8") == "new"
