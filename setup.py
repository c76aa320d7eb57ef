"""Optional compiled kernels (issue 20, goal 6).

Every C file named ``_k_*.c`` inside a package (the core's or a bundled plugin's, as mapped
in ``pyproject.toml``) is built as an extension module of that package, with the machine's C
compiler. Each is ``optional``: when it cannot be built (no compiler, no Python headers) the
install still succeeds and the pure-Python path runs (:mod:`cgframework.compiled`).
Everything else about the project is declared in ``pyproject.toml``.
"""

from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).parent
PACKAGE_DIRS = {
    "cgframework": "cgframework",
    "cgframework.values": "cgframework/values",
    "cgframework.solvers": "cgframework/solvers",
    **{
        f"cgframework_{name}": f"plugins/{name}/cgframework_{name}"
        for name in (
            "classic",
            "pizza",
            "influence",
            "cheating_robot",
            "wak",
            "guaranteed",
            "loopy",
            "grids",
        )
    },
}


def kernels() -> list[Extension]:
    found = []
    for package, folder in PACKAGE_DIRS.items():
        for source in sorted((ROOT / folder).glob("_k_*.c")):
            found.append(
                Extension(
                    f"{package}.{source.stem}",
                    [str(source.relative_to(ROOT))],
                    extra_compile_args=["-O2"],
                    optional=True,
                )
            )
    return found


setup(ext_modules=kernels())
