"""The runnable examples of README.md and the docs pages: found, run, checked and shown.

One module for both users of the examples: the test suite (``tests/test_docs_examples.py``) runs
every page's examples and fails when one's output no longer matches what the page shows, and
the mkdocs hook below runs them again when the site is built and writes their real output into
the page (a mismatch is a warning, which fails the strict build), so the site never shows a
stale output.

**What an example is.** A fenced block of one of four kinds, run in page order, every block of
a page in one temporary folder and one Python namespace (as a reader would type them):

- ``console``: lines ``$ COMMAND`` (a line ending in ``\\`` continues on the next), each
  followed by its output: standard output, then standard error. A ``cgf`` command (optionally
  fed by ``PRODUCER |`` or redirected by ``> FILE``) runs in this process, as
  ``cgframework.testing.run_cli`` does; anything else runs under ``sh``. Each must exit 0.
- ``pycon``: ``>>>`` lines and their output, doctest style.
- ``python``: code run for its effect (its ``assert`` lines are the check); no output shown.
- ``bash``: a list of ``cgf`` commands, each of which must exit 0; no output shown.

**Markers** (an HTML comment on the line before the fence, invisible on the page):

- ``<!-- not-run: REASON -->``: the block is not run (it installs packages, needs a cluster or
  a browser, or takes minutes); the reason is required.
- ``<!-- example: cwd=PATH exit=N -->``: run in ``PATH`` (relative to the repository) instead
  of the page's folder; commands exit ``N`` instead of 0.
- ``<!-- examples: setup=NAME -->`` anywhere on a page: the page runs inside the named setup
  of :data:`SETUPS` (the plugin guide loads its example plugin and its modules).

**How output is compared** (the only normalisations): trailing spaces and blank lines at either
end are ignored, and a run of spaces or tabs matches any other; the page's temporary folder is
shown as a relative path; a line that is only ``...`` stands for any number of lines (the page
keeps the elision), and ``...`` inside a line for any text on that line (the page shows the
real text). Times taken (``6.2 ms``, ``0.61 s``, a JSON ``"seconds"`` value) and memory sizes
(``38 MB``, ``1.5 GiB``) in the recorded output match any such value.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("console", "pycon", "python", "bash")
FENCE = re.compile(
    r"^(?P<fence>```+)(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S
)
MARKER = re.compile(r"<!--\s*(not-run|example)\s*:\s*(.*?)\s*-->\s*$", re.S)
MARKER_LINE = re.compile(r"^<!--\s*(?:not-run|examples?)\s*:.*?-->[ \t]*\n", re.M)
"""A marker's line, dropped from the page the site shows."""
PAGE_SETUP = re.compile(r"<!--\s*examples\s*:\s*setup=([\w-]+)\s*-->")
TIMEOUT = 600
"""Seconds a command run under ``sh`` may take."""


@dataclass
class Block:
    """One fenced block of a page: its kind, its text and where it is."""

    kind: str
    body: str
    line: int
    """The line of the opening fence, from 1."""
    span: tuple[int, int]
    """Where the body is in the page's text."""
    not_run: str | None = None
    options: dict[str, str] = field(default_factory=dict)

    @property
    def runnable(self) -> bool:
        return self.kind in KINDS and self.not_run is None

    @property
    def shows_output(self) -> bool:
        """A console or pycon block with some recorded output."""
        if self.kind == "console":
            return any(output.strip() for _, output in console_commands(self.body))
        if self.kind == "pycon":
            return any(e.want.strip() for e in doctest.DocTestParser().get_examples(self.body))
        return False


@dataclass
class Report:
    """What running a page found: its failures, and its text with the real outputs."""

    rendered: str
    failures: list[str] = field(default_factory=list)
    ran: int = 0
    not_run: list[str] = field(default_factory=list)


def blocks(text: str) -> list[Block]:
    """Every fenced block of a Markdown text, with its marker if it has one."""
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        block = Block(
            kind=match["lang"],
            body=match["body"],
            line=text.count("\n", 0, match.start()) + 1,
            span=(match.start("body"), match.end("body")),
        )
        marker = MARKER.search(before)
        if marker and marker[1] == "not-run":
            block.not_run = marker[2]
        elif marker:
            block.options = dict(word.split("=", 1) for word in marker[2].split())
        found.append(block)
    return found


def console_commands(body: str) -> list[tuple[str, str]]:
    """A console block's (command, recorded output) pairs."""
    pairs: list[tuple[str, list[str]]] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            if not pairs:
                raise ValueError(f"console block line {i + 1}: output before any '$ ' command")
            pairs[-1][1].append(line)
            i += 1
            continue
        command = line[2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        pairs.append((command, []))
        i += 1
    return [(command, "\n".join(output)) for command, output in pairs]


# -- comparing outputs ------------------------------------------------------------------------

TIME = r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?[ \t]?(?:ms|µs|us|s)\b"
MEMORY = r"\d+(?:[.,]\d+)*[ \t]?(?:[KMGT]i?B|kB)\b"
JSON_SECONDS = r'("[\w ]*seconds[\w ]*":[ \t]*)-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?'
TOKEN = re.compile(
    r"(?P<dots>\.\.\.)"
    rf"|(?P<seconds>{JSON_SECONDS})"
    r"|(?P<time>\b\d+\.\d+[ \t]?s\b|\b\d+(?:\.\d+)?[ \t]?(?:ms|µs|us)\b)"
    rf"|(?P<memory>\b{MEMORY})"
    r"|(?P<space>[ \t]+)"
)
NUMBER = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"


def _pattern(expected: str) -> tuple[re.Pattern[str], list[bool]]:
    """The regular expression an output must match; for each group, whether it is a line
    of its own (``...`` alone: kept as ``...`` when shown) or inside a line (shown as found)."""
    parts: list[str] = []
    whole_lines: list[bool] = []
    for line in expected.splitlines():
        if line.strip() == "...":
            parts.append(r"((?:[^\n]*\n)*?)")
            whole_lines.append(True)
            continue
        pos = 0
        for token in TOKEN.finditer(line):
            parts.append(re.escape(line[pos : token.start()]))
            if token["dots"]:
                parts.append(r"([^\n]*?)")
                whole_lines.append(False)
            elif token["seconds"]:
                parts.append(re.escape(token[3]) + NUMBER)
            elif token["time"]:
                parts.append(TIME)
            elif token["memory"]:
                parts.append(MEMORY)
            else:
                parts.append(r"[ \t]+")
            pos = token.end()
        parts.append(re.escape(line[pos:]) + r"\n")
    return re.compile("".join(parts)), whole_lines


def _tidy(text: str) -> str:
    """Lines without trailing spaces, no blank lines at either end, each ending in a newline."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "".join(line + "\n" for line in lines)


def match(expected: str, actual: str) -> str | None:
    """The output to show if ``actual`` matches the recorded ``expected``, else ``None``: the
    real output, with the lines a recorded ``...`` line elides kept elided."""
    expected, actual = _tidy(expected), _tidy(actual)
    pattern, whole_lines = _pattern(expected)
    found = pattern.fullmatch(actual)
    if found is None:
        return None
    shown, pos = [], 0
    for group, whole in enumerate(whole_lines, start=1):
        if whole and found.end(group) > found.start(group):
            shown.append(actual[pos : found.start(group)] + "...\n")
            pos = found.end(group)
    shown.append(actual[pos:])
    return "".join(shown).rstrip("\n")


# -- running commands -------------------------------------------------------------------------

SERVES = {"explore"}
"""Commands that run until they are stopped (a server): never run as examples."""
OPERATORS = {"|", "||", "&", "&&", ";", ";;", "<", ">", ">>", "(", ")", "<<", ">&", "&>"}


def _words(command: str) -> list[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


@contextlib.contextmanager
def _standard_streams(stdin: bytes) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` replaced by in-memory files."""
    out, err = io.BytesIO(), io.BytesIO()
    streams = (
        io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
        io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", newline="", write_through=True),
    )
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = streams
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        for stream in streams:  # (detached: a wrapper that is collected closes its buffer)
            with contextlib.suppress(ValueError, OSError):
                stream.flush()
                stream.detach()


def run_cgf(args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """``cgf ARGS`` in this process: (exit status, standard output, standard error)."""
    from cgframework.cli.commands import main

    with _standard_streams(stdin) as (out, err):
        try:
            main(list(args))
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    decoded = (stream.getvalue().decode("utf-8", "replace") for stream in (out, err))
    return code, *decoded


def run_shell(command: str, cwd: Path, stdin: bytes = b"") -> tuple[int, str]:
    """``command`` under ``sh``, with this Python's ``cgf`` first on the path."""
    bin_dir = os.path.dirname(sys.executable)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(
        ["sh", "-c", command], input=stdin, capture_output=True, cwd=cwd, env=env,
        timeout=TIMEOUT,
    )  # fmt: skip
    text = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    return done.returncode, text


def run_command(command: str, cwd: Path) -> tuple[int, str]:
    """A command line as a shell would run it; a plain ``cgf`` one (fed by a pipe, or with its
    output redirected to a file) in this process, which is far faster."""
    words = _words(command)
    producer: list[str] = []
    if "|" in words:
        cut = words.index("|")
        producer, words = words[:cut], words[cut + 1 :]
    target = None
    if len(words) >= 2 and words[-2] == ">":
        target, words = words[-1], words[:-2]
    if SERVES & set(words[1:2]):
        return 2, f"doc_examples: '{command}' serves until stopped: mark its block not-run\n"
    if not words or words[0] != "cgf" or OPERATORS & set(words + producer):
        return run_shell(command, cwd)
    stdin = b""
    if producer:
        code, text = run_shell(shlex.join(producer), cwd)
        if code:
            return code, text
        stdin = text.encode()
    with contextlib.chdir(cwd):
        code, out, err = run_cgf(words[1:], stdin)
    if target is not None:
        if target != "/dev/null":
            (cwd / target).write_text(out)
        out = ""
    return code, out + err


# -- running Python ---------------------------------------------------------------------------


def run_python(source: str, namespace: dict[str, Any], name: str, mode: str) -> tuple[str, str]:
    """Run ``source`` (``single``: print an expression's value, as ``>>>`` does): what it
    printed, and the exception it raised (or ""): in doctest's form for ``single``, the whole
    traceback for ``exec``."""
    with _standard_streams(b"") as (out, _):
        try:
            exec(compile(source, name, mode), namespace)
            failed = ""
        except Exception as exc:  # the example's own exception is its output
            if mode == "exec":
                failed = traceback.format_exc()
            else:
                only = "".join(traceback.format_exception_only(type(exc), exc))
                failed = "Traceback (most recent call last):\n  ...\n" + only
    return out.getvalue().decode("utf-8", "replace"), failed


# -- pages ------------------------------------------------------------------------------------


EXAMPLE_MARK = "# cgframework_toads/plugin.py\n"
"""The head of the plugin guide's blocks that are the example plugin's own code."""


@contextlib.contextmanager
def plugin_guide(text: str, folder: Path) -> Iterator[set[str]]:
    """docs/writing-a-plugin.md: the example plugin loaded, and every ``python`` block of the
    page that is not a verbatim part of it loaded as a plugin module of its own. Yields the
    block kinds the page does not run as code (its ``python`` blocks are modules)."""
    from cgframework import plugins

    example = ROOT / "docs" / "example-plugin"
    saved_path = list(sys.path)
    sys.path[:0] = [str(example), str(folder)]
    plugins.reset()
    try:
        plugins.load_plugin("cgframework_toads.plugin")
        python = [b.body for b in blocks(text) if b.kind == "python"]
        modules = [source for source in python if not source.startswith(EXAMPLE_MARK)]
        for i, source in enumerate(modules):
            (folder / f"guide_block_{i}.py").write_text(source)
            plugins.load_plugin(f"guide_block_{i}")
        plugins.get_registry()
        yield {"python"}
    finally:
        plugins.reset()
        sys.path[:] = saved_path
        for name in [m for m in sys.modules if m.startswith(("guide_block_", "cgframework_toads"))]:
            del sys.modules[name]


SETUPS: dict[str, Callable[[str, Path], Any]] = {"plugin-guide": plugin_guide}
"""Page setups a page names with ``<!-- examples: setup=NAME -->``."""


def _show_console(block: Block, cwd: Path, folder: Path) -> tuple[str, list[str]]:
    shown: list[str] = []
    failures: list[str] = []
    want_code = int(block.options.get("exit", 0))
    for command, expected in console_commands(block.body):
        code, actual = run_command(command, cwd)
        actual = _relative(actual, folder)
        output = match(expected, actual)
        if output is None or code != want_code:
            failures.append(_mismatch(block, f"$ {command}", expected, actual, code, want_code))
            output = expected
        shown.append(f"$ {command}" + (f"\n{output}" if output else ""))
    return "\n".join(shown) + "\n", failures


def _show_pycon(
    block: Block, namespace: dict[str, Any], name: str, folder: Path
) -> tuple[str, list[str]]:
    failures: list[str] = []
    lines = block.body.splitlines()
    replaced: dict[int, tuple[int, str]] = {}  # first output line -> (count, shown text)
    for example in doctest.DocTestParser().get_examples(block.body):
        got = _relative("".join(run_python(example.source, namespace, name, "single")), folder)
        output = match(example.want, got)
        if output is None:
            source = ">>> " + example.source.rstrip("\n").replace("\n", "\n... ")
            failures.append(_mismatch(block, source, example.want, got))
            output = example.want.rstrip("\n")
        first = example.lineno + len(example.source.splitlines())
        indent = " " * example.indent
        text = "\n".join(indent + line for line in output.splitlines()) if output else None
        if example.want:
            replaced[first] = (len(example.want.splitlines()), text)
    out: list[str] = []
    i = 0
    while i < len(lines):
        if i in replaced:
            count, text = replaced[i]
            if text:
                out.append(text)
            i += count
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out) + "\n", failures


def _relative(text: str, folder: Path) -> str:
    """Paths in the page's temporary folder as a reader's: relative to it."""
    for form in {str(folder), os.path.realpath(folder)}:
        text = text.replace(form + os.sep, "").replace(form, ".")
    return text


def _mismatch(
    block: Block, source: str, expected: str, actual: str, code: int = 0, want_code: int = 0
) -> str:
    status = f" (exit {code}, not {want_code})" if code != want_code else ""
    return (
        f"block at line {block.line} ({block.kind}): {source}{status}\n"
        f"--- the page shows:\n{_tidy(expected)}--- it prints:\n{_tidy(actual)}"
    )


def run_page(text: str, name: str, folder: Path) -> Report:
    """Run every example of a page's Markdown ``text`` in ``folder`` (its working folder): the
    page with the real outputs in place of the recorded ones, and every mismatch."""
    folder = Path(folder)
    setup_name = PAGE_SETUP.search(text)
    setup = SETUPS[setup_name[1]] if setup_name else None
    report = Report(rendered=text)
    pieces: list[str] = []
    pos = 0
    namespace: dict[str, Any] = {"__name__": "docs_" + re.sub(r"\W", "_", name)}
    context = setup(text, folder) if setup else contextlib.nullcontext(set())
    with contextlib.chdir(folder), context as not_code:
        for block in blocks(text):
            if block.kind not in KINDS:
                continue
            where = f"{name} line {block.line}"
            if block.not_run is not None:
                if not block.not_run:
                    report.failures.append(f"{where}: a not-run marker needs a reason")
                report.not_run.append(f"{where}: {block.not_run}")
                continue
            report.ran += 1
            cwd = (ROOT / block.options["cwd"]) if "cwd" in block.options else folder
            try:
                body, failures = _run_block(block, namespace, where, cwd, folder, not_code)
            except Exception as exc:  # a block that cannot be parsed or run at all
                body, failures = block.body, [f"{where}: {type(exc).__name__}: {exc}"]
            report.failures += [f"{name}: {f}" if f.startswith("block") else f for f in failures]
            pieces += [text[pos : block.span[0]], body]
            pos = block.span[1]
    pieces.append(text[pos:])
    report.rendered = "".join(pieces)
    return report


def _run_block(
    block: Block, namespace: dict[str, Any], where: str, cwd: Path, folder: Path, not_code: set
) -> tuple[str, list[str]]:
    if block.kind == "console":
        return _show_console(block, cwd, folder)
    if block.kind == "pycon":
        with contextlib.chdir(cwd):
            return _show_pycon(block, namespace, where, folder)
    failures = []
    if block.kind == "python" and "python" not in not_code:
        with contextlib.chdir(cwd):
            _, raised = run_python(block.body, namespace, where, "exec")
        if raised:
            failures.append(f"{where} (python):\n{raised}")
    elif block.kind == "bash":
        for command in _bash_commands(block.body):
            code, actual = run_command(command, cwd)
            if code != int(block.options.get("exit", 0)):
                failures.append(f"{where} (bash): {command} exited {code}:\n{actual}")
    return block.body, failures


def _bash_commands(body: str) -> list[str]:
    """A bash block's commands: its lines, continued by a final ``\\``, without comments."""
    commands: list[str] = []
    pending = ""
    for line in body.splitlines():
        pending += line.strip()
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        if pending and not pending.startswith("#"):
            commands.append(pending)
        pending = ""
    return commands


def pages(root: Path = ROOT) -> list[Path]:
    """Every Markdown page whose examples run: README.md and the docs site's pages."""
    docs = sorted(p for p in (root / "docs").rglob("*.md") if "example-plugin" not in p.parts)
    return [root / "README.md", *docs]


# -- the mkdocs hook --------------------------------------------------------------------------


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """mkdocs hook: run the page's examples and show their real output; a recorded output
    that no longer matches is a warning, which fails the strict build."""
    import logging

    source = page.file.abs_src_path
    if source is None or not source.endswith(".md"):
        return markdown
    log = logging.getLogger("mkdocs.hooks.doc_examples")
    with tempfile.TemporaryDirectory(prefix="cgf-docs-") as folder:
        report = run_page(markdown, page.file.src_uri, Path(folder))
    for failure in report.failures:
        log.warning("stale example in %s", failure)
    return MARKER_LINE.sub("", report.rendered)
