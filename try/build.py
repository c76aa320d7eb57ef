"""Build cgframework's browser version (the page at ``try/`` of the documentation site) into
a folder any static web server can serve, or that a user hosts anywhere:

    python try/build.py DIR

``DIR`` then holds the explorer's page (``index.html``: the ``cgf explore`` page's own
files, cgframework/display/static, with the Pyodide back end of ``try/page``), Pyodide
(``pyodide/``, from the npm registry's ``pyodide`` package pinned in ``try/package.json``
and ``package-lock.json``) and the wheels (``wheels/``): cgframework's, built here in pure
Python (``CGFRAMEWORK_PURE_PYTHON=1``: no compiled kernels), and its runtime dependencies',
downloaded from PyPI as pinned with their hashes in ``try/requirements.txt``. Nothing at run
time comes from another host. Needs npm and pip (with network access to the npm registry
and PyPI, or what an earlier build kept: ``try/node_modules`` and ``try/.cache``).

``DIR`` must be empty, absent, or an earlier build (it is replaced whole). A failure prints
one line and exits 2, leaving ``DIR`` as it was.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
STATIC = ROOT / "cgframework" / "display" / "static"
MARKER = ".cgframework-try"
"""A file every build writes, so that a later build knows the folder is one to replace."""
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What the page needs of the npm package (not its source maps, types or console pages)."""
SOURCES = (
    "pyproject.toml",
    "setup.py",
    "README.md",
    "LICENSE",
    "MANIFEST.in",
    "cgframework",
    "plugins",
)
"""What building cgframework's wheel reads (copied, so that no build output of the tree,
nor a compiled kernel left in it, can enter the wheel)."""


class BuildError(Exception):
    """A build that cannot go on: one line."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python try/build.py", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("folder", metavar="DIR", help="where to write the page")
    args = parser.parse_args(argv)
    try:
        size = build(Path(args.folder))
    except BuildError as exc:
        print(f"try/build.py: error: {exc}", file=sys.stderr)
        return 2
    serve = f"python -m http.server -d {args.folder}"
    print(f"built {args.folder}: {size / 1e6:.1f} MB; serve it, e.g. with {serve}")
    return 0


def build(folder: Path) -> int:
    """Build the page into ``folder``; return its size in bytes."""
    _check_target(folder)
    pyodide = _pyodide()
    python = _pyodide_python(pyodide)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        staging.chmod(0o755)  # (mkdtemp's is the owner's only: a web server may be another user)
        (staging / "pyodide").mkdir()
        for name in PYODIDE_FILES:
            shutil.copyfile(pyodide / name, staging / "pyodide" / name)
        wheels = staging / "wheels"
        wheels.mkdir()
        names = [w.name for w in _dependency_wheels(python, wheels)]
        own = _own_wheel(wheels)
        names.append(own.name)  # (installed last: its entry points name the plugins)
        (wheels / "index.json").write_text(json.dumps(names, indent=1) + "\n")
        version = own.name.split("-")[1]
        _page(staging, version)
        _notices(staging, pyodide, wheels)
        _offline(staging)
        (staging / MARKER).write_text(
            "a build of python try/build.py: replaced whole by the next\n"
        )
        if folder.exists():
            shutil.rmtree(folder)
        staging.rename(folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def _check_target(folder: Path) -> None:
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise BuildError(f"{folder} is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).is_file():
        raise BuildError(f"{folder} is neither empty nor an earlier build: choose another DIR")


def _run(command: list[str], what: str, **kwargs) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    except OSError as exc:
        raise BuildError(f"{what}: cannot run {command[0]}: {exc.strerror or exc}") from None
    if done.returncode:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise BuildError(f"{what} failed: {said[-1] if said else f'exit {done.returncode}'}")


def _pyodide() -> Path:
    """The npm package ``pyodide`` at the version ``package.json`` pins (``npm ci`` first
    when ``try/node_modules`` does not hold it)."""
    wanted = json.loads((HERE / "package.json").read_text())["dependencies"]["pyodide"]
    package = HERE / "node_modules" / "pyodide"

    def installed() -> str | None:
        try:
            return json.loads((package / "package.json").read_text())["version"]
        except (OSError, ValueError, KeyError):
            return None

    if installed() != wanted:
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is needed to fetch Pyodide (the npm registry's pyodide package)")
        _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], "npm ci", cwd=HERE)
    if installed() != wanted:
        raise BuildError(f"npm did not install pyodide {wanted} in {package}")
    missing = [name for name in PYODIDE_FILES if not (package / name).is_file()]
    if missing:
        raise BuildError(f"the pyodide package has no {', '.join(missing)}")
    return package


def _pyodide_python(pyodide: Path) -> str:
    """Pyodide's Python version, ``3.13``, from its lock file."""
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    version = lock["info"]["python"]
    return ".".join(version.split(".")[:2])


def _pins() -> dict[str, tuple[str, str]]:
    """``requirements.txt``: name -> (version, sha256)."""
    pins = {}
    for line in (HERE / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        found = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})", line)
        if not found:
            raise BuildError(f"try/requirements.txt: not NAME==VERSION --hash=sha256:HEX: {line}")
        pins[_normal(found.group(1))] = (found.group(2), found.group(3))
    return pins


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _dependency_wheels(python: str, into: Path) -> list[Path]:
    """The pinned wheels, from ``try/.cache/wheels`` when an earlier build downloaded them
    (checked against their hashes), else from PyPI (pip checks the hashes)."""
    cache = HERE / ".cache" / "wheels"
    cache.mkdir(parents=True, exist_ok=True)
    pins = _pins()

    def cached() -> dict[str, Path]:
        found = {}
        for wheel in cache.glob("*.whl"):
            name, version = wheel.name.split("-")[:2]
            pin = pins.get(_normal(name))
            if pin and pin[0] == version and _sha256(wheel) == pin[1]:
                found[_normal(name)] = wheel
        return found

    have = cached()
    if set(have) != set(pins):
        with tempfile.TemporaryDirectory() as scratch:
            command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
            command += ["--require-hashes", "--only-binary=:all:", "--platform", "any"]
            command += ["--python-version", python, "--implementation", "py", "--abi", "none"]
            command += ["-r", str(HERE / "requirements.txt"), "-d", scratch]
            _run(command, "pip download (PyPI)")
            for wheel in Path(scratch).glob("*.whl"):
                shutil.copyfile(wheel, cache / wheel.name)
        have = cached()
        if set(have) != set(pins):
            raise BuildError(f"no wheel downloaded for {', '.join(sorted(set(pins) - set(have)))}")
    out = []
    for name in sorted(have):
        out.append(into / have[name].name)
        shutil.copyfile(have[name], out[-1])
    return out


def _own_wheel(into: Path) -> Path:
    """cgframework's wheel, pure Python (no kernel built), from a copy of the sources."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "src"
        source.mkdir()
        ignore = shutil.ignore_patterns(
            "__pycache__", "*.so", "*.pyd", "*.pyc", "build", "*.egg-info", "tests", ".*"
        )
        for name in SOURCES:
            path = ROOT / name
            if path.is_dir():
                shutil.copytree(path, source / name, ignore=ignore)
            else:
                shutil.copyfile(path, source / name)
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
        if _have_setuptools():  # (else pip fetches it from PyPI to build in isolation)
            command.append("--no-build-isolation")
        command += ["--wheel-dir", scratch, str(source)]
        env = {**os.environ, "CGFRAMEWORK_PURE_PYTHON": "1"}
        _run(command, "building cgframework's wheel", env=env)
        built = list(Path(scratch).glob("cgframework-*.whl"))
        if len(built) != 1 or not built[0].name.endswith("-py3-none-any.whl"):
            raise BuildError(f"expected one pure-Python wheel of cgframework, got {built}")
        with zipfile.ZipFile(built[0]) as wheel:
            compiled = [n for n in wheel.namelist() if n.endswith((".so", ".pyd", ".c"))]
        if compiled:
            raise BuildError(f"cgframework's wheel holds compiled files: {compiled[:3]}")
        return Path(shutil.copyfile(built[0], into / built[0].name))


def _have_setuptools() -> bool:
    try:
        import setuptools
    except ImportError:
        return False
    return int(setuptools.__version__.split(".")[0]) >= 77


def _page(folder: Path, version: str) -> None:
    """``cgf explore``'s page, its files shared, not copied by hand: ``explorer.html`` as
    ``index.html`` with the Pyodide back end's script before the explorer's."""
    html = (STATIC / "explorer.html").read_text()
    edits = [
        ("<title>cgf explore</title>", "<title>cgframework in the browser</title>"),
        (
            '<script src="explorer.js" defer></script>',
            '<script src="pyodide-backend.js"></script>\n<script src="explorer.js" defer></script>',
        ),
        (
            "</footer>",
            f" Python runs in this page (Pyodide; cgframework {version}): nothing you type "
            "leaves your browser.</footer>",
        ),
    ]
    for old, new in edits:
        if html.count(old) != 1:
            raise BuildError(f"explorer.html no longer holds {old!r} once: update try/build.py")
        html = html.replace(old, new)
    (folder / "index.html").write_text(html)
    for name in ("explorer.js", "explorer.css"):
        shutil.copyfile(STATIC / name, folder / name)
    for name in ("pyodide-backend.js", "worker.js"):
        shutil.copyfile(HERE / "page" / name, folder / name)


def _offline(folder: Path) -> None:
    """``sw.js``, the service worker that keeps the page working offline: the list of the
    build's files, and the build's name (a hash of them all: a new build, a new cache)."""
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    files = [f for f in files if not f.startswith(".")]
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes())
    text = (HERE / "page" / "sw.js").read_text()
    for old, new in (('"@BUILD@"', digest.hexdigest()[:16]), ('"@FILES@"', ["./", *files])):
        if text.count(old) != 1:
            raise BuildError(f"try/page/sw.js no longer holds {old} once")
        text = text.replace(old, json.dumps(new))
    (folder / "sw.js").write_text(text)


def _notices(folder: Path, pyodide: Path, wheels: Path) -> None:
    """``THIRD-PARTY.txt``: what the folder ships of other projects, with their licences
    (each wheel keeps its own licence files too)."""
    meta = json.loads((pyodide / "package.json").read_text())
    lines = [
        "The browser version of cgframework ships these projects' files:",
        "",
        f"pyodide {meta['version']} ({meta.get('license', '?')}): pyodide/, "
        "from the npm registry; sources at https://github.com/pyodide/pyodide",
    ]
    for wheel in sorted(wheels.glob("*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
            headers = HeaderParser().parsestr(archive.read(name).decode("utf-8", "replace"))
        licence = (
            headers.get("License-Expression")
            or _short(headers.get("License"))
            or next(
                (
                    c.split(" :: ")[-1]
                    for c in headers.get_all("Classifier", [])
                    if "License ::" in c
                ),
                "see its wheel",
            )
        )
        lines.append(f"{headers['Name']} {headers['Version']} ({licence}): wheels/{wheel.name}")
    (folder / "THIRD-PARTY.txt").write_text("\n".join(lines) + "\n")


def _short(text: str | None) -> str | None:
    if not text or len(text) > 40 or "\n" in text:
        return None
    return text


if __name__ == "__main__":
    sys.exit(main())
