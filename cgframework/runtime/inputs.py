"""Reading what the user hands in as text: a literal, ``@PATH`` (a file) or ``-`` (stdin).

One reader for every command that takes positions, games or files, so each gets the same
limits: at most :func:`max_input_bytes` bytes (checked while reading, never after reading
everything, so ``@/dev/zero`` is refused at once) and strict UTF-8. Problems raise
:class:`InputTextError` (a ``ValueError``) with one line naming the file and the limit; the
CLI turns it into exit code 2.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

DEFAULT_MAX_INPUT_BYTES = 16 * 1024 * 1024
"""16 MiB: far above any position a solver can finish, far below what exhausts memory."""

MAX_INPUT_ENV = "CGF_MAX_INPUT_BYTES"


MAX_INPUT_CEILING = 1 << 40
"""The largest ``CGF_MAX_INPUT_BYTES`` taken (a terabyte: more is no limit a read can use)."""


class InputTextError(ValueError):
    """User input that cannot be read: missing file, too large, not UTF-8."""


def max_input_bytes() -> int:
    """The input size limit: ``CGF_MAX_INPUT_BYTES`` if set (a positive integer), else 16 MiB."""
    raw = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_INPUT_BYTES
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        raise InputTextError(f"{MAX_INPUT_ENV}={raw!r} is not a positive number of bytes")
    if int(raw) > MAX_INPUT_CEILING:
        raise InputTextError(
            f"{MAX_INPUT_ENV}={raw} is more than this program reads ({MAX_INPUT_CEILING} bytes)"
        )
    return int(raw)


def open_regular_file(path: str | Path) -> BinaryIO:
    """``path`` opened to read, if it is a regular file. A FIFO, a device or a socket is
    refused at once (:class:`OSError`, ``strerror`` "not a regular file"), a directory too
    ("Is a directory"): it is opened without blocking, so a FIFO nobody writes to is never
    waited on, nor a terminal made the controlling one."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    handle = os.open(path, flags)
    try:
        mode = os.fstat(handle).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
    except BaseException:
        os.close(handle)
        raise
    return os.fdopen(handle, "rb")


def read_limited(stream: BinaryIO, name: str, limit: int | None = None) -> str:
    """Read a binary stream as UTF-8 text, refusing more than ``limit`` bytes (reads at most
    ``limit + 1`` bytes, so an endless stream is refused without being read)."""
    limit = max_input_bytes() if limit is None else limit
    chunks: list[bytes] = []
    total = 0
    while total <= limit:  # (a MiB at a time: a read of ``limit`` bytes would allocate them)
        chunk = stream.read(min(1 << 20, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    data = b"".join(chunks)
    if len(data) > limit:
        raise InputTextError(
            f"{name} is larger than the input limit of {limit} bytes (set {MAX_INPUT_ENV})"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputTextError(f"{name} is not UTF-8 text (byte {exc.start})") from None


def read_text_file(path: str | Path, limit: int | None = None, what: str = "input") -> str:
    """A whole text file, with the size limit and strict UTF-8 (see the module docstring);
    ``what`` names the file in messages (``position file 'x.txt' is not UTF-8 text``)."""
    limit = max_input_bytes() if limit is None else limit
    name = f"{what} file {str(path)!r}"
    if "\x00" in str(path):
        raise InputTextError(f"cannot read {name}: a file name has no NUL character")
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:  # a regular file says its size: refuse before reading
                raise InputTextError(
                    f"{name} has {size} bytes, more than the input limit of {limit} bytes "
                    f"(set {MAX_INPUT_ENV})"
                )
            return read_limited(handle, name, limit)
    except OSError as exc:
        raise InputTextError(f"cannot read {name}: {exc.strerror or exc}") from None


def read_stdin(limit: int | None = None) -> str:
    """Standard input as text, with the size limit and strict UTF-8 (a closed standard input,
    ``cgf ... - <&-``, is an :class:`InputTextError` too)."""
    if sys.stdin is None or getattr(sys.stdin, "closed", False):
        raise InputTextError("cannot read standard input: it is closed")
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream without bytes underneath (tests): still limited
        limit = max_input_bytes() if limit is None else limit
        text = sys.stdin.read(limit + 1)
        if len(text.encode("utf-8", "surrogatepass")) > limit:
            raise InputTextError(
                f"standard input is larger than the input limit of {limit} bytes "
                f"(set {MAX_INPUT_ENV})"
            )
        return text
    return read_limited(buffer, "standard input", limit)


def read_text_argument(text: str, limit: int | None = None, what: str = "input") -> str:
    """``@PATH`` reads the file, ``-`` standard input, anything else is the text itself;
    the result is stripped of surrounding white space."""
    if text == "-":
        return read_stdin(limit).strip()
    if text.startswith("@"):
        return read_text_file(text[1:], limit, what).strip()
    return text


__all__ = [
    "DEFAULT_MAX_INPUT_BYTES",
    "InputTextError",
    "max_input_bytes",
    "open_regular_file",
    "read_limited",
    "read_stdin",
    "read_text_argument",
    "read_text_file",
]
