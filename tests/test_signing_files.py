"""The files signing reads and writes: a FIFO or a device named as a key, a signature or an
import source is refused in one line, never waited on; a private key others may read is
refused, as ssh refuses one; keygen writes the private key for its owner alone."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from cgframework.testing import run_cli

pytest.importorskip("cryptography")


@contextlib.contextmanager
def released(fifo: Path, after: float = 3.0) -> Iterator[None]:
    """Whatever waits to open ``fifo`` for reading is let go after ``after`` seconds (a writer
    opens and closes it): code that would wait for ever fails its test instead of hanging."""
    stop = threading.Event()

    def release() -> None:
        if stop.wait(after):
            return
        while not stop.is_set():
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # (no reader: nothing to let go)
                stop.wait(0.05)

    thread = threading.Thread(target=release, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@pytest.fixture
def published(tmp_path, capsys) -> dict[str, Path]:
    """A key pair, a store, and its export signed by the key."""
    key, store, export = tmp_path / "key", tmp_path / "s.sqlite", tmp_path / "e.jsonl"
    assert run_cli(capsys, "store", "keygen", str(key))[0] == 0
    assert run_cli(capsys, "solve", "nim", "3", "--store", str(store))[0] == 0
    code, _, err = run_cli(
        capsys, "store", "export", str(store), "-o", str(export), "--sign", str(key)
    )
    assert code == 0, err
    return {"key": key, "public": tmp_path / "key.pub", "store": store, "export": export}


@pytest.mark.parametrize("role", ["trusted key", "key folder", "signature", "sign", "source"])
def test_a_fifo_is_refused_in_one_line_not_waited_on(role, published, tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    target, export = str(tmp_path / "t.sqlite"), str(published["export"])
    public = str(published["public"])
    args = {
        "trusted key": ("store", "import", target, export, "--trusted-key", str(fifo)),
        "signature": ("store", "import", target, export, "--trusted-key", public,
                      "--signature", str(fifo)),
        "sign": ("store", "export", str(published["store"]), "-o", str(tmp_path / "x.jsonl"),
                 "--sign", str(fifo)),
        "source": ("store", "import", target, str(fifo)),
    }  # fmt: skip
    if role == "key folder":
        folder = tmp_path / "keys"
        folder.mkdir()
        fifo = folder / "a.pub"
        os.mkfifo(fifo)
        args[role] = ("store", "import", target, export, "--trusted-key", str(folder))
    with released(fifo):
        code, _, err = run_cli(capsys, *args[role])
    assert code == 2 and "not a regular file" in err and err.count("\n") == 1, err
    assert not Path(target).exists() and not (tmp_path / "x.jsonl").exists()


def test_signing_into_a_fifo_is_refused_before_the_export(published, tmp_path, capsys):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    store, key = str(published["store"]), str(published["key"])
    with released(fifo):
        code, _, err = run_cli(capsys, "store", "export", store, "-o", str(fifo), "--sign", key)
    assert code == 2 and "regular file" in err and err.count("\n") == 1, err
    assert fifo.is_fifo() and not Path(f"{fifo}.sig").exists()


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o777, 0o620], ids=lambda m: f"{m:04o}")
def test_a_private_key_others_may_read_or_write_is_refused(mode, published, tmp_path, capsys):
    key = published["key"]
    key.chmod(mode)
    out = tmp_path / "x.jsonl"
    code, _, err = run_cli(
        capsys, "store", "export", str(published["store"]), "-o", str(out), "--sign", str(key)
    )
    assert code == 2 and f"mode {mode:04o}" in err and "chmod 600" in err, err
    assert err.count("\n") == 1 and not out.exists()
    key.chmod(0o400)  # (read by its owner alone: used)
    code, _, err = run_cli(
        capsys, "store", "export", str(published["store"]), "-o", str(out), "--sign", str(key)
    )
    assert code == 0, err


def test_keygen_writes_the_private_key_for_its_owner_alone(tmp_path, capsys):
    old = os.umask(0)  # (nothing taken away by the umask: the mode is keygen's own)
    try:
        code, _, err = run_cli(capsys, "store", "keygen", str(tmp_path / "key"))
    finally:
        os.umask(old)
    assert code == 0, err
    assert (tmp_path / "key").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "key.pub").stat().st_mode & 0o777 == 0o644
