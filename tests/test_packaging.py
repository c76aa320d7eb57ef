"""What a release ships: the licence, the metadata an index shows, a clean wheel, a complete
sdist, and a ``setup.py`` that lets pip refuse an unsupported Python in one line.

The sdist and the wheel are built once, without build isolation (setuptools comes with the
``test`` extra), from a copy of the source tree as a developer has it: kernels compiled in
place for this interpreter, plus a stale one compiled for another. ``.ci/release`` does the
real release build (isolated, manylinux repair, smoke test of the installed wheel).
"""

from __future__ import annotations

import email
import importlib.machinery
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.message import Message
from pathlib import Path

import pytest
from trove_classifiers import classifiers as known_classifiers

from cgframework.runtime.compiled import load_kernel

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
PACKAGES = PYPROJECT["tool"]["setuptools"]["packages"]
NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "*.py[cod]",
    ".hypothesis",
    ".pytest_cache",
    ".ruff_cache",
    ".benchmarks",
    "*.sqlite",
    "node_modules",
    ".cache",
)
"""What is in a working tree but is not the project's source (the .gitignore's entries)."""
STALE_KERNEL = "cgframework/values/_k_canonical.cpython-310-x86_64-linux-gnu.so"
"""A kernel left in the tree by a build for another interpreter."""
KERNEL_SOURCES = sorted(
    path.relative_to(ROOT).as_posix()
    for path in [*ROOT.glob("cgframework/**/_k_*.c"), *ROOT.glob("plugins/*/*/_k_*.c")]
)


def source_copy(destination: Path) -> Path:
    """The source tree copied to ``destination``, with a stale kernel planted in it."""
    shutil.copytree(ROOT, destination, ignore=NOT_SOURCE)
    (destination / STALE_KERNEL).write_bytes(b"\x7fELF built for Python 3.10")
    return destination


def build_hook(tree: Path, code: str, *args: str, env: dict[str, str] | None = None) -> str:
    """Run ``code`` (which calls a setuptools PEP 517 hook) in ``tree``; its last line."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=tree, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


HOOK = "import sys\nfrom setuptools import build_meta\nprint(build_meta.{}(sys.argv[1]))\n"
"""Calls one PEP 517 hook of setuptools with the output folder, printing the name it built."""


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    return source_copy(tmp_path_factory.mktemp("tree") / "cgframework")


@pytest.fixture(scope="module")
def sdist(tree, tmp_path_factory) -> dict[str, bytes]:
    """The sdist's files by their path inside its top folder."""
    out = tmp_path_factory.mktemp("sdist")
    name = build_hook(tree, HOOK.format("build_sdist"), str(out))
    with tarfile.open(out / name) as archive:
        return {
            member.name.split("/", 1)[1]: archive.extractfile(member).read()
            for member in archive.getmembers()
            if member.isfile()
        }


@pytest.fixture(scope="module")
def wheel(tree, tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    name = build_hook(tree, HOOK.format("build_wheel"), str(out))
    return zipfile.ZipFile(out / name)


def dist_info(wheel: zipfile.ZipFile, name: str) -> str:
    (path,) = [p for p in wheel.namelist() if p.endswith(f".dist-info/{name}")]
    return wheel.read(path).decode()


@pytest.fixture(scope="module")
def metadata(wheel) -> Message:
    return email.message_from_string(dist_info(wheel, "METADATA"))


def test_the_licence_is_mit_in_a_file_the_metadata_names():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the cgframework authors" in text
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]


def test_the_wheel_carries_the_licence(wheel, metadata):
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert dist_info(wheel, "licenses/LICENSE") == (ROOT / "LICENSE").read_text()


def test_the_wheel_metadata_has_what_an_index_shows(metadata):
    classifiers = metadata.get_all("Classifier")
    assert set(classifiers) <= known_classifiers, set(classifiers) - known_classifiers
    for wanted in (
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
        "Topic :: Scientific/Engineering :: Mathematics",
        "Topic :: Games/Entertainment :: Board Games",
        "Typing :: Typed",
    ):
        assert wanted in classifiers
    assert any(c.startswith("Operating System :: ") for c in classifiers)
    urls = dict(line.split(", ", 1) for line in metadata.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Documentation", "Changelog", "Issues"}
    assert urls["Documentation"] == "https://cgframework.readthedocs.io"
    repository = "https://github.com/cgframework/cgframework"
    assert all(url.startswith(repository) for name, url in urls.items() if name != "Documentation")
    assert "combinatorial game theory" in metadata["Keywords"].split(",")
    assert metadata["Requires-Python"] == ">=3.11"


def test_every_package_in_the_tree_is_listed_for_the_wheel():
    """A package missing from ``[tool.setuptools] packages`` is left out of the wheel, and the
    installed release fails on its first import of it (the editable install hides this)."""
    found = set()
    for init in [
        *ROOT.glob("cgframework/**/__init__.py"),
        *ROOT.glob("plugins/*/*/**/__init__.py"),
    ]:
        folder = init.parent.relative_to(ROOT)
        parts = folder.parts[2:] if folder.parts[0] == "plugins" else folder.parts
        if parts and "tests" not in parts:
            found.add(".".join(parts))
    assert found == set(PACKAGES)


def test_the_wheel_is_the_packages_and_their_kernels_only(wheel):
    files = wheel.namelist()
    record = dist_info(wheel, "RECORD")
    assert "cgframework/py.typed" in files and "cgframework/py.typed," in record
    for name in ("explorer.html", "explorer.js", "explorer.css"):  # cgf explore's page
        assert f"cgframework/display/static/{name}" in files, name
    tops = {path.split("/")[0] for path in files}
    assert {top for top in tops if not top.endswith(".dist-info")} == {
        package for package in PACKAGES if "." not in package
    }
    assert not [path for path in files if path.endswith((".c", ".h", ".pyc"))]
    assert not [path for path in files if "/tests/" in path or "/test_" in path]
    compiled = sorted(path for path in files if path.endswith((".so", ".pyd")))
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    assert STALE_KERNEL not in compiled
    assert all(path.endswith(suffix) for path in compiled), compiled
    kernels = sorted(
        # plugins/<family>/<package>/_k_x.c is installed as <package>/_k_x
        source.split("/", 2)[2] if source.startswith("plugins/") else source
        for source in (source.removesuffix(".c") for source in KERNEL_SOURCES)
    )
    built = [path.removesuffix(suffix) for path in compiled]
    assert set(built) <= set(kernels)
    if load_kernel("cgframework.values._k_canonical") is not None:  # this machine compiles C
        assert built == kernels


def test_a_pure_python_build_has_no_kernel(tree, tmp_path):
    """``CGFRAMEWORK_PURE_PYTHON=1`` at build time: a ``py3-none-any`` wheel without a
    kernel, for Pyodide (``try/build.py``)."""
    env = {**os.environ, "CGFRAMEWORK_PURE_PYTHON": "1"}
    name = build_hook(tree, HOOK.format("build_wheel"), str(tmp_path), env=env)
    assert name.endswith("-py3-none-any.whl")
    files = zipfile.ZipFile(tmp_path / name).namelist()
    assert not [path for path in files if path.endswith((".so", ".pyd", ".c"))]
    assert "cgframework/display/static/explorer.js" in files


def test_the_sdist_holds_everything_the_test_suite_reads(sdist, tree):
    for top in ("cgframework", "plugins", "tests", "docs", "benchmarks", "try"):
        on_disk = {
            path.relative_to(tree).as_posix()
            for path in (tree / top).rglob("*")
            if path.is_file() and path.suffix not in (".so", ".pyd")
        }
        assert on_disk and on_disk <= set(sdist), sorted(on_disk - set(sdist))[:10]
    for name in ("LICENSE", "README.md", "pyproject.toml", "setup.py", "MANIFEST.in"):
        assert name in sdist
    assert set(KERNEL_SOURCES) <= set(sdist)
    assert "tests/data/cgt_py_values.json" in sdist and "docs/tour.ipynb" in sdist
    assert not [path for path in sdist if path.endswith((".so", ".pyd", ".pyc"))]


def test_setup_py_reaches_the_metadata_on_an_unsupported_python(tmp_path):
    """On Python 3.10 (no tomllib) pip runs setup.py before it reads requires-python: the
    metadata must come out, so that pip refuses that Python in one line."""
    tree = source_copy(tmp_path / "cgframework")
    python_310 = (
        "import collections, sys\n"
        "Version = collections.namedtuple('Version', 'major minor micro releaselevel serial')\n"
        "sys.version_info = Version(3, 10, 14, 'final', 0)\n"
        "sys.modules['tomllib'] = None  # import tomllib raises ImportError, as on 3.10\n"
    )
    hook = HOOK.format("prepare_metadata_for_build_wheel")
    name = build_hook(tree, python_310 + hook, str(tmp_path))
    metadata = email.message_from_string((tmp_path / name / "METADATA").read_text())
    assert metadata["Requires-Python"] == ">=3.11"
