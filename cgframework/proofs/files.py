"""A certificate as the writer makes it: its header, and its node lines hashed and compressed as
they are made (into a temporary file, so a proof never sits in memory whole). Shared by the
writer (:mod:`cgframework.proofs.writer`) and the mirror (:mod:`cgframework.proofs.images`)."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import tempfile
from collections.abc import Iterator
from typing import IO, Any

import attrs

from cgframework.game import Outcome, Player
from cgframework.proofs.checker import LOSE, WIN, mover_wins


@attrs.frozen
class Certificate:
    """A built certificate: its header, and its body (the node lines, JSON, one per node, with
    ``\\n``) as one gzip member in a temporary file, deleted with the certificate."""

    header: dict[str, Any]
    body: IO[bytes] = attrs.field(eq=False, repr=False)
    head: bytes = attrs.field(init=False, repr=False)
    """The header's gzip member (the file's first bytes)."""

    def __attrs_post_init__(self) -> None:
        line = json.dumps(self.header, ensure_ascii=False).encode("utf-8") + b"\n"
        object.__setattr__(self, "head", gzip.compress(line, compresslevel=9, mtime=0))

    @property
    def outcome(self) -> Outcome | None:
        """``None`` for a certificate of one side (a lemma's)."""
        return Outcome(self.header["outcome"]) if "outcome" in self.header else None

    @property
    def mover_wins(self) -> bool:
        """Does the mover win, in a certificate of one side?"""
        (side,) = self.header["roots"]
        return mover_wins(side, self.header[side])

    @property
    def nodes(self) -> int:
        return int(self.header["nodes"])

    @property
    def size(self) -> int:
        """The file's length in bytes."""
        self.body.seek(0, 2)
        return len(self.head) + self.body.tell()

    def write_to(self, out: IO[bytes]) -> None:
        """Write the file's bytes to ``out``, the body in chunks."""
        out.write(self.head)
        self.body.seek(0)
        shutil.copyfileobj(self.body, out, _CHUNK)

    @property
    def data(self) -> bytes:
        """The file's bytes, whole in memory (for small certificates)."""
        self.body.seek(0)
        return self.head + self.body.read()

    def lines(self) -> Iterator[bytes]:
        """The node lines, in order (each with its ``\\n``), read back from the body."""
        self.body.seek(0)
        with gzip.GzipFile(fileobj=self.body, mode="rb") as stream:
            yield from stream


_CHUNK = 1 << 20


class NodeLines:
    """The node lines as they are made: counted, hashed (the header's ``sha256``) and compressed
    into one gzip member in a temporary file (:class:`gzip.GzipFile`, level 9, no timestamp),
    so a proof never sits in memory whole."""

    BATCH = 1 << 16
    """Bytes of lines gathered before they are hashed and compressed together."""

    def __init__(self) -> None:
        self.file: IO[bytes] = tempfile.TemporaryFile()
        self.member = gzip.GzipFile(
            filename="", mode="wb", compresslevel=9, fileobj=self.file, mtime=0
        )
        self.sha = hashlib.sha256()
        self.count = 0
        self.pending: list[bytes] = []
        self.pending_bytes = 0

    def add(self, line: bytes, node: bool = True) -> None:
        """One line: a node's (counted) or, with ``node`` false, another (a value line)."""
        self.pending.append(line)
        self.count += node
        self.pending_bytes += len(line)
        if self.pending_bytes >= self.BATCH:
            self._flush()

    def _flush(self) -> None:
        chunk = b"".join(self.pending)
        self.pending.clear()
        self.pending_bytes = 0
        self.sha.update(chunk)
        self.member.write(chunk)

    def close(self) -> IO[bytes]:
        """The finished member (its file, at its start)."""
        self._flush()
        self.member.close()  # (writes the member's trailer; the file stays open)
        self.file.seek(0)
        return self.file


def node_line(texts: list[Any], player: Player, claim: bool, proof: Any) -> bytes:
    """A node's line: its components (texts, then value terms), mover, claim and proof."""
    node = [texts, player.value, WIN if claim else LOSE, proof]
    return json.dumps(node, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


__all__ = ["Certificate", "NodeLines", "node_line"]
