"""Writing what a command produces: one way for every output path (``-o``, ``--picture``...).

A regular file (or a path where nothing is yet) is written under a temporary name in the same
folder, synced, and renamed over the target only when complete: it is whole or untouched.
Anything else is written where it is, as a shell redirection would: a device (``/dev/null``,
``/dev/stdout``, a terminal) or a FIFO is opened and written in place, never replaced by a
regular file (the temporary-file-and-rename of a regular file would, run as root, swap
``/dev/null`` for a file). A symbolic link is followed: its final target is written by the same
rules, and the link stays a link. ``-`` is standard output.

A FIFO must already have a reader: it is opened without blocking, so a FIFO nobody reads is
refused at once instead of hanging the command.

Every failure, including a short write found only at flush, close or sync (``ENOSPC`` on
``/dev/full``, ``EPIPE``, ``EIO``), raises :class:`OutputError` naming the path and the cause,
so no command reports success for data that never arrived.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, Any

STDOUT = "-"
"""The output path that means standard output."""


class OutputError(OSError):
    """An output that could not be written whole: ``cannot write 'PATH': CAUSE``."""

    def __init__(self, path: str, cause: OSError | str) -> None:
        reason = cause if isinstance(cause, str) else (cause.strerror or str(cause))
        code = None if isinstance(cause, str) else cause.errno
        super().__init__(code, reason)
        self.path = path
        self.message = f"cannot write {describe(path)}: {reason}"

    def __str__(self) -> str:
        return self.message


def describe(path: str) -> str:
    """How messages name an output path (``-`` is standard output)."""
    return "standard output" if path == STDOUT else repr(path)


def write_output(path: str, data: str | bytes, encoding: str = "utf-8") -> None:
    """Write ``data`` (text or bytes) to ``path`` by the module's rules; raises
    :class:`OutputError` if it did not arrive whole."""
    with open_output(path, binary=isinstance(data, bytes), encoding=encoding) as out:
        out.write(data)


@contextlib.contextmanager
def open_output(path: str, binary: bool = False, encoding: str = "utf-8") -> Iterator[IO[Any]]:
    """A file to write ``path`` through (see the module docstring). On leaving the block the
    data is flushed (and, for a regular file, synced and renamed into place); an exception in
    the block leaves a regular target untouched. Failures raise :class:`OutputError`."""
    if path == STDOUT:
        yield from _stdout(binary)
        return
    if not path or "\x00" in path:
        raise OutputError(path, "an empty file name" if not path else "a NUL in the file name")
    try:
        mode: int | None = os.stat(path).st_mode  # through every link, /dev/stdout's too
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError(path, exc) from None
    # a regular file is replaced where its links end; a special file is opened by its own name
    # (``/dev/stdout`` ends in a pipe that has no path)
    target = os.path.realpath(path) if mode is None or stat.S_ISREG(mode) else path
    if (mode is not None and stat.S_ISDIR(mode)) or (mode is None and path.endswith(os.sep)):
        raise OutputError(path, os.strerror(errno.EISDIR))  # ("new/": no file name to make)
    if mode is None or stat.S_ISREG(mode):
        yield from _replace(path, target, binary, encoding)
    else:
        yield from _in_place(path, target, mode, binary, encoding)


def _stdout(binary: bool) -> Iterator[IO[Any]]:
    stream: Any = sys.stdout.buffer if binary and hasattr(sys.stdout, "buffer") else sys.stdout
    yield stream
    flush_stdout()


def flush_stdout() -> None:
    """Flush standard output; a write that failed (a full disk) raises :class:`OutputError`.
    A closed pipe (``BrokenPipeError``) is left to the caller: the reader went away."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(STDOUT, exc) from None


def _wrap(handle: IO[bytes], binary: bool, encoding: str) -> IO[Any]:
    return handle if binary else io.TextIOWrapper(handle, encoding=encoding, newline="")  # type: ignore[arg-type]


def _replace(path: str, target: str, binary: bool, encoding: str) -> Iterator[IO[Any]]:
    """Write a regular file whole: a temporary file beside ``target``, renamed over it."""
    folder, name = os.path.split(target)
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(path, exc) from None
    try:
        with os.fdopen(handle, "wb") as raw:
            out = _wrap(raw, binary, encoding)
            yield out
            out.flush()
            os.fsync(raw.fileno())
            _copy_mode(target, temp)
        os.replace(temp, target)
    except OSError as exc:
        _remove(temp)
        raise OutputError(path, exc) from None
    except BaseException:
        _remove(temp)
        raise
    with contextlib.suppress(OSError):  # the rename itself survives a crash (best effort)
        fd = os.open(folder or ".", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _copy_mode(target: str, temp: str) -> None:
    """Give the temporary file what ``open(target, "w")`` would have left: the old file's
    permissions and owner, or the default permissions (after the umask) for a new one."""
    try:
        old = os.stat(target)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        return
    os.chmod(temp, stat.S_IMODE(old.st_mode))
    if hasattr(os, "chown") and (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
        with contextlib.suppress(OSError):  # only root may give a file away
            os.chown(temp, old.st_uid, old.st_gid)


def _in_place(path: str, target: str, mode: int, binary: bool, encoding: str) -> Iterator[IO[Any]]:
    """Write a device, FIFO or other special file where it is (no temporary file, no rename,
    no change of permissions). A FIFO without a reader is refused rather than waited on."""
    fifo = stat.S_ISFIFO(mode)
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | (os.O_NONBLOCK if fifo else 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        if fifo and exc.errno == errno.ENXIO:
            raise OutputError(path, "a FIFO with no reader (start the reader first)") from None
        raise OutputError(path, exc) from None
    try:
        if fifo:
            os.set_blocking(fd, True)
        raw = os.fdopen(fd, "wb")
    except OSError as exc:
        os.close(fd)
        raise OutputError(path, exc) from None
    try:
        with raw:
            out = _wrap(raw, binary, encoding)
            yield out
            out.flush()
    except OSError as exc:
        raise OutputError(path, exc) from None


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


class _GuardedStdout(io.RawIOBase):
    """File descriptor 1 whose failed writes (not a closed pipe) raise :class:`OutputError`,
    so a full disk under standard output is one clear error wherever the write happens."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: Any) -> int | None:
        try:
            return os.write(self._fd, data)
        except BlockingIOError:
            return None
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(STDOUT, exc) from None


class _ClosedStdout(io.RawIOBase):
    """Standard output when the process was started without one (``cgf ... >&-``): every
    write is an :class:`OutputError`, so only a command that prints fails, in one line."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int | None:
        raise OutputError(STDOUT, "it is closed")


def guard_stdout() -> None:
    """Route the process's real standard output through :class:`_GuardedStdout` (once; a
    replaced ``sys.stdout``, as under a test's capture, is left alone). Started with no
    standard output, the process gets one whose writes fail (:class:`_ClosedStdout`), and
    with no standard error, one that writes to ``/dev/null``."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the process)
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedStdout()), encoding="utf-8")
        return
    current = sys.stdout
    if current is not sys.__stdout__ or not isinstance(current, io.TextIOWrapper):
        return
    try:
        fd = current.fileno()
    except (OSError, ValueError):
        return
    with contextlib.suppress(OSError, ValueError):
        current.flush()
    guarded = io.TextIOWrapper(
        io.BufferedWriter(_GuardedStdout(fd)),
        encoding=current.encoding,
        errors=current.errors,
        line_buffering=current.line_buffering,
        write_through=current.write_through,
    )
    sys.stdout = sys.__stdout__ = guarded


def discard_stdout() -> None:
    """After standard output failed (a full disk, a closed pipe or none at all): send what is
    still buffered to ``/dev/null``, so the interpreter's last flush neither fails nor prints
    a traceback."""
    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no file descriptor (no stdout at all)
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the process)


__all__ = [
    "STDOUT",
    "OutputError",
    "describe",
    "discard_stdout",
    "flush_stdout",
    "guard_stdout",
    "open_output",
    "write_output",
]
