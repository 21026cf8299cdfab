"""``save_atomic``: a file is saved whole or not at all, and nothing standing at the path (link, device) is replaced."""

from __future__ import annotations

import errno
import os
import socket
import stat
import threading
from pathlib import Path

import pytest

from corazones.services.files import NotWritableHere, output_kind, save_atomic
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


# ------------------------------------------------- what stands at the path is never replaced
def test_a_symbolic_link_is_followed_its_target_written_and_the_link_stays(tmp_path: Path) -> None:
    target = tmp_path / "real" / "record.json"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    save_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in target.parent.iterdir()) == ["record.json"]


def test_a_dangling_link_creates_its_target_and_stays_a_link(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "later.json")
    save_atomic(link, "x")
    assert link.is_symlink() and (tmp_path / "later.json").read_text(encoding="utf-8") == "x"


def device(folder: Path, name: str) -> Path:
    """A character device node: a private copy of ``/dev/<name>`` where the system allows making one.

    A copy, so that a regression replaces a file of the test's own folder, never the machine's
    ``/dev/null``; where making nodes is not allowed (not root) ``/dev`` cannot be replaced either.
    """
    numbers = {"null": (1, 3), "full": (1, 7)}[name]
    path = folder / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(*numbers))
        with path.open("rb"):
            pass
    except OSError:
        return Path("/dev") / name
    return path


def test_a_character_device_is_written_directly_never_replaced(tmp_path: Path) -> None:
    null, full = device(tmp_path, "null"), device(tmp_path, "full")
    before = os.stat(null)
    save_atomic(null, "into the void")
    after = os.lstat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    with pytest.raises(OSError) as caught:
        save_atomic(full, "x" * 10_000)
    assert caught.value.errno == errno.ENOSPC
    assert stat.S_ISCHR(os.lstat(full).st_mode)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_fifo_is_written_directly_to_its_reader_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    save_atomic(fifo, "through the pipe ♥\n")
    reader.join(10)
    assert got == ["through the pipe ♥\n".encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_a_folder_and_a_socket_are_refused_and_left_as_they_are(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    with pytest.raises(NotWritableHere) as caught:
        save_atomic(folder, "x")
    assert caught.value.what == "folder" and folder.is_dir() and not list(folder.iterdir())
    sock_path = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(sock_path))
        with pytest.raises(NotWritableHere) as caught:
            save_atomic(sock_path, "x")
        assert caught.value.what == "socket" and stat.S_ISSOCK(os.lstat(sock_path).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games", "sock"]


def test_dash_and_dev_stdout_mean_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert output_kind("-") == "stdout" and output_kind("/dev/stdout") == "stdout"
    save_atomic(Path("-"), "to the screen\n")
    assert capsys.readouterr().out == "to the screen\n"


def test_a_full_screen_face_is_not_held_by_a_pipe_nobody_reads(tmp_path: Path) -> None:
    """``wait=False``: a pipe without a reader is an error at once (ENXIO, said in words), and with a
    reader the text still goes whole, longer than a pipe's buffer."""
    from corazones.i18n.oserrors import os_reason_text

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as e:
        save_atomic(fifo, "nobody reads this\n", wait=False)
    assert e.value.errno == errno.ENXIO and "nothing is reading it" in os_reason_text(lambda s: s, e.value)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    text = "♥" * 100_000 + "\n"
    for _ in range(200):  # the reader's open may come a moment later
        try:
            save_atomic(fifo, text, wait=False)
            break
        except OSError as err:
            assert err.errno == errno.ENXIO
            threading.Event().wait(0.01)
    reader.join(10)
    assert got == [text.encode("utf-8")]
