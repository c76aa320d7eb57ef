"""Signed published files: Ed25519 key pairs, detached signatures of store exports and of
proof ledgers, and their verification against trusted public keys (``cryptography``, the
optional ``sign`` extra).

A signature file (``EXPORT.sig``, ``LEDGER.sig``) is one JSON object naming what kind of file
it signs, the signing key's fingerprint, the file's SHA-256 digest and size, and the Ed25519
signature of a statement of those (domain-separated by the kind, so a signature of anything
else never passes for an export's or a ledger's). A signed export whose key is trusted is
imported as verified without recomputing it; a bad signature, an unknown key or a changed file
refuses the whole import. A signed ledger (:mod:`cgframework.proofs.lemmas`) vouches for the
lemmas it records only when its signature verifies with a trusted key.

A private key is refused if its file's mode lets the group or others read or write it, as
``ssh`` refuses one: a key anyone can read signs for anyone.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

import attrs

from cgframework.store.errors import StoreError

EXPORT_SIGNATURE = "cgframework-store-export-signature"
LEDGER_SIGNATURE = "cgframework-proof-ledger-signature"
SIGNATURE_FORMAT = EXPORT_SIGNATURE
"""The kind of file signed unless told otherwise: a store export."""
SIGNED_KINDS = {EXPORT_SIGNATURE: "export", LEDGER_SIGNATURE: "proof ledger"}
"""Each kind of signature file, and what it signs."""
SIGNATURE_VERSION = 1
MAX_KEY_BYTES = 64 << 10
"""Key and signature files are small: anything larger is refused before it is parsed."""

NEEDS_EXTRA = "signing needs pip install 'cgframework[sign]'"


class SigningError(StoreError):
    """A key, signature or signed file that cannot be used; one line saying why."""


def _crypto() -> Any:
    """The ``cryptography`` modules signing uses, or :class:`SigningError` naming the extra."""
    try:
        from cryptography import exceptions
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError:
        raise SigningError(NEEDS_EXTRA) from None
    return exceptions, serialization, ed25519


def available() -> bool:
    """Whether the ``sign`` extra is installed."""
    try:
        _crypto()
    except SigningError:
        return False
    return True


def fingerprint(public_key: Any) -> str:
    """``ed25519:`` and the first 32 hex digits of the SHA-256 of the raw public key."""
    _, serialization, _ = _crypto()
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "ed25519:" + hashlib.sha256(raw).hexdigest()[:32]


def statement(digest: str, size: int, kind: str = SIGNATURE_FORMAT) -> bytes:
    """What is signed: the file's SHA-256 and size, under a heading naming its kind."""
    return f"{kind} {SIGNATURE_VERSION}\nsha256:{digest}\nsize:{size}\n".encode()


def _read_small(path: str | Path, what: str) -> tuple[bytes, int]:
    """A key or signature file's bytes and mode; a FIFO or a device is refused, never waited
    on (:func:`~cgframework.runtime.inputs.open_regular_file`)."""
    from cgframework.runtime.inputs import open_regular_file

    try:
        with open_regular_file(path) as handle:
            mode = os.fstat(handle.fileno()).st_mode
            data = handle.read(MAX_KEY_BYTES + 1)
    except OSError as exc:
        raise SigningError(f"cannot read {what} {str(path)!r}: {exc.strerror or exc}") from None
    if len(data) > MAX_KEY_BYTES:
        raise SigningError(f"{what} {str(path)!r} is larger than {MAX_KEY_BYTES >> 10} KiB")
    return data, mode


def load_private_key(path: str | Path) -> Any:
    """An unencrypted Ed25519 private key (PEM, as ``cgf store keygen`` writes, or OpenSSH)."""
    _, serialization, ed25519 = _crypto()
    data, mode = _read_small(path, "private key")
    try:
        if b"OPENSSH PRIVATE KEY" in data:
            key = serialization.load_ssh_private_key(data, password=None)
        else:
            key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise SigningError(f"private key {str(path)!r} is encrypted: not supported") from None
    except Exception as exc:  # the parsers raise ValueError, UnsupportedAlgorithm, ...
        raise SigningError(f"{str(path)!r} is not a private key: {_short(exc)}") from None
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        raise SigningError(f"private key {str(path)!r} is not an Ed25519 key")
    if mode & 0o077:
        raise SigningError(
            f"private key {str(path)!r} may be read or written by others (mode "
            f"{stat.S_IMODE(mode):04o}): chmod 600 it (and make a new key if others read it)"
        )
    return key


def load_public_key(path: str | Path) -> Any:
    """An Ed25519 public key (PEM, as ``cgf store keygen`` writes, or ``ssh-ed25519 ...``)."""
    _, serialization, ed25519 = _crypto()
    data, _ = _read_small(path, "public key")
    try:
        if data.lstrip().startswith(b"ssh-"):
            key = serialization.load_ssh_public_key(data.strip())
        else:
            key = serialization.load_pem_public_key(data)
    except Exception as exc:  # the parsers raise ValueError, UnsupportedAlgorithm, ...
        raise SigningError(f"{str(path)!r} is not a public key: {_short(exc)}") from None
    if not isinstance(key, ed25519.Ed25519PublicKey):
        raise SigningError(f"public key {str(path)!r} is not an Ed25519 key")
    return key


def trusted_keys(paths: list[str]) -> dict[str, Any]:
    """Fingerprint -> public key of every trusted key: each path a public key file, or a
    directory whose ``*.pub`` files are public keys."""
    keys: dict[str, Any] = {}
    for given in paths:
        path = Path(given)
        files = sorted(path.glob("*.pub")) if path.is_dir() else [path]
        if path.is_dir() and not files:
            raise SigningError(f"trusted-key directory {given!r} holds no *.pub file")
        for file in files:
            key = load_public_key(file)
            keys[fingerprint(key)] = key
    return keys


@attrs.frozen
class KeyPair:
    """Where :func:`generate` wrote a key pair, and the public key's fingerprint."""

    private: Path
    public: Path
    fingerprint: str


def generate(path: str | Path) -> KeyPair:
    """Write a new Ed25519 private key to ``path`` (PEM, mode 0600) and its public key to
    ``path.pub``; refuses to overwrite either."""
    _, serialization, ed25519 = _crypto()
    private = Path(path)
    public = Path(f"{private}.pub")
    for target in (private, public):
        if target.exists() or target.is_symlink():
            raise SigningError(f"{str(target)!r} exists: not overwriting a key")
        if not target.parent.is_dir():
            raise SigningError(f"cannot write {str(target)!r}: no directory")
    key = ed25519.Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    written: list[Path] = []
    try:
        for target, data, mode in ((private, private_pem, 0o600), (public, public_pem, 0o644)):
            handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            written.append(target)
            with os.fdopen(handle, "wb") as out:
                out.write(data)
    except OSError as exc:
        for target in written:
            with contextlib.suppress(OSError):
                target.unlink()
        raise SigningError(f"cannot write a key: {exc.strerror or exc}") from None
    return KeyPair(private, public, fingerprint(key.public_key()))


def sign(data: bytes, private_key: Any, kind: str = SIGNATURE_FORMAT) -> str:
    """The signature file's text for a file's bytes (``kind``: what it is, a key of
    :data:`SIGNED_KINDS`)."""
    digest = hashlib.sha256(data).hexdigest()
    signature = private_key.sign(statement(digest, len(data), kind))
    document = {
        "format": kind,
        "version": SIGNATURE_VERSION,
        "key": fingerprint(private_key.public_key()),
        "sha256": digest,
        "size": len(data),
        "signature": base64.b64encode(signature).decode(),
    }
    return json.dumps(document, indent=1) + "\n"


def write_signature(target: str | Path, text: str) -> None:
    """Write a signature file as every output path is written
    (:func:`cgframework.runtime.outputs.write_output`: whole, devices and links kept)."""
    from cgframework.runtime.outputs import write_output

    try:
        write_output(str(target), text)
    except OSError as exc:
        raise SigningError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None


def verify(
    data: bytes, signature_path: str | Path, keys: dict[str, Any], kind: str = SIGNATURE_FORMAT
) -> str:
    """The fingerprint of the trusted key that signed ``data`` as a file of ``kind``;
    :class:`SigningError` if the signature file is malformed or of another kind, its key is
    not trusted, or it does not match ``data``."""
    exceptions, _, _ = _crypto()
    where = str(signature_path)
    raw, _ = _read_small(signature_path, "signature")
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise SigningError(f"{where!r} is not a signature file (not JSON)") from None
    if not isinstance(document, dict) or document.get("format") != kind:
        raise SigningError(f"{where!r} is not a cgframework {SIGNED_KINDS[kind]} signature")
    if document.get("version") != SIGNATURE_VERSION:
        raise SigningError(f"{where!r} has signature version {document.get('version')!r}")
    key_name, encoded = document.get("key"), document.get("signature")
    if not isinstance(key_name, str) or not isinstance(encoded, str):
        raise SigningError(f"{where!r} has no key fingerprint or signature")
    key = keys.get(key_name)
    if key is None:
        raise SigningError(f"{where!r} is signed by {key_name[:60]!r}, not a trusted key")
    try:
        signature = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise SigningError(f"{where!r}: the signature is not base64") from None
    digest = hashlib.sha256(data).hexdigest()
    try:
        key.verify(signature, statement(digest, len(data), kind))
    except exceptions.InvalidSignature:
        changed = document.get("sha256") != digest or document.get("size") != len(data)
        why = "the file was changed since it was signed" if changed else "a bad signature"
        raise SigningError(f"{where!r} does not verify with key {key_name}: {why}") from None
    return key_name


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:120]
