"""The CLI reference of the docs site, generated from the ``cgf`` typer app at build time so it
never goes stale, and the mkdocs hook that adds it (with the API reference pages) to the site.

The walker registers the core's groups and every installed plugin's commands, as ``cgf --help``
does, then walks the click command tree; each command becomes a Markdown section with its
usage, its help text as written and its arguments and options. ``tests/test_docs_site.py``
uses the same walker to check the page covers every command.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CLI_PAGE = "reference/cli.md"
API_DIR = "reference/api"
DOCS = Path(__file__).resolve().parent
GUIDE = DOCS / "writing-a-plugin.md"
USER_MODULES = (
    "cgframework",
    "cgframework.api",
    "cgframework.values",
    "cgframework.proofs",
    "cgframework.variants",
)
"""The user API, documented first; the plugin-author modules come from the plugin guide."""
AUTHOR_MODULES = ("cgframework.hookspecs",)
"""Plugin-author modules documented even if the guide's table does not name them."""


def root_command() -> Any:
    """The click command behind ``cgf``, with every core group and plugin command added."""
    import typer

    from cgframework.cli.commands import add_core_groups, app
    from cgframework.plugins import register_commands

    add_core_groups()
    register_commands(app)
    return typer.main.get_command(app)


def walk(command: Any, path: tuple[str, ...] = ("cgf",)) -> Iterator[tuple[str, Any, Any]]:
    """Every command under ``command``, depth first in name order: (``"cgf store info"``, the
    click command, its click context)."""
    import click

    def visit(cmd: Any, words: tuple[str, ...], parent: Any) -> Iterator[tuple[str, Any, Any]]:
        ctx = click.Context(cmd, info_name=words[-1], parent=parent)
        yield " ".join(words), cmd, ctx
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            if not getattr(sub, "hidden", False):
                yield from visit(sub, (*words, name), ctx)

    yield from visit(command, path, None)


def command_names() -> list[str]:
    """The full name of every registered command and group (``cgf``, ``cgf solve``, ...)."""
    return [name for name, _, _ in walk(root_command())]


def anchor(name: str) -> str:
    """The heading id of a command's section: ``cgf store info`` -> ``cgf-store-info``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _prose(text: str) -> str:
    """``text`` as Markdown prose: code spans kept, characters Markdown would read as markup
    (``*2``, ``{3|1}``, ``<5,2,0>``, ``G_n``) escaped so they show as typed."""
    pieces = re.split(r"(`[^`]*`)", text)
    for i in range(0, len(pieces), 2):
        piece = html.escape(pieces[i], quote=False)
        pieces[i] = re.sub(r"([\\*_\[\]|#])", r"\\\1", piece)
    return "".join(pieces)


def _help_markdown(text: str) -> list[str]:
    """The help text as written: its paragraphs as prose; a paragraph click keeps verbatim
    (marked ``\\b``) or indented lines (examples) as a code block."""
    lines: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        rows = paragraph.splitlines()
        verbatim = rows[0].strip() == "\b"
        if verbatim:
            rows = rows[1:]
        if verbatim or all(r.startswith((" ", "\t")) for r in rows if r.strip()):
            body = "\n".join(rows)
            indent = min(len(r) - len(r.lstrip()) for r in rows if r.strip()) if rows else 0
            lines += ["```text", *(r[indent:] for r in body.splitlines()), "```", ""]
        else:
            lines += [_prose(" ".join(r.strip() for r in rows)), ""]
    return lines


def _usage(command: Any, ctx: Any) -> str:
    return " ".join([ctx.command_path, *command.collect_usage_pieces(ctx)])


def _parameters(command: Any, ctx: Any) -> list[str]:
    """A list item per argument and option: its words and metavar, then its help."""
    lines: list[str] = []
    for param in command.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        record = param.get_help_record(ctx)
        if record is None:  # a plain click argument: no help record
            record = (param.human_readable_name.upper(), "")
        words, help_text = record
        if param.param_type_name == "argument":
            required = "required" if param.required else "optional"
            help_text = getattr(param, "help", None) or help_text
            help_text = f"{help_text} ({required} argument)".strip()
        lines.append(f"- `{words}`: {_prose(' '.join(help_text.split()))}")
    return lines


def command_markdown(name: str, command: Any, ctx: Any) -> str:
    """One command's section: a heading, its usage, its help and its parameters."""
    depth = min(name.count(" ") + 2, 4)
    lines = [f"{'#' * depth} `{name}` {{ #{anchor(name)} }}", ""]
    lines += ["```text", _usage(command, ctx), "```", ""]
    lines += _help_markdown(command.help or "")
    subcommands = sorted(getattr(command, "commands", {}))
    if subcommands:
        links = ", ".join(f"[`{sub}`](#{anchor(f'{name} {sub}')})" for sub in subcommands)
        lines += [f"Commands: {links}.", ""]
    parameters = _parameters(command, ctx)
    if parameters:
        lines += ["**Arguments and options**", "", *parameters, ""]
    return "\n".join(lines)


def cli_reference() -> str:
    """The whole CLI reference page."""
    sections = [
        "# CLI reference",
        "",
        "Every `cgf` command of this installation (the core's and each installed plugin's), "
        "generated from the command line itself when the site is built. The same text is "
        "`cgf COMMAND --help`. Errors print one line and exit 2; a hit limit exits 3.",
        "",
    ]
    sections += [command_markdown(*entry) for entry in walk(root_command())]
    return "\n".join(sections)


def api_modules() -> list[str]:
    """The modules the API reference documents: the user API, then every module the plugin
    guide's "What a plugin may import" table names (so a module added there renders here)."""
    table = GUIDE.read_text().split("## What a plugin may import", 1)[1]
    named = re.findall(r"^\|\s*`(cgframework[\w.]*)`", table, re.M)
    return list(dict.fromkeys([*USER_MODULES, *AUTHOR_MODULES, *named]))


def summary(module: str) -> str:
    """The first sentence of a module's docstring, for the API reference's index."""
    import importlib

    doc = " ".join((importlib.import_module(module).__doc__ or "").split())
    doc = re.sub(r"\s*\([^()]*:\w+:[^()]*\)", "", doc)  # cross-references in brackets
    sentence = re.split(r"(?<=\.)\s|\s>>>", doc, maxsplit=1)[0].rstrip(".")
    if len(sentence) > 110:
        sentence = sentence[:110].rsplit(" ", 1)[0].rstrip(",;:") + " ..."
    return sentence.replace("``", "`")


def api_page(module: str) -> str:
    """One API reference page: the module's docstring and documented members (mkdocstrings);
    a module that declares ``__all__`` shows those names only (``cgframework`` shows the user's
    API, not the plugin author's names it also lets one import)."""
    import importlib

    names = getattr(importlib.import_module(module), "__all__", None)
    if not names:
        return f"# `{module}`\n\n::: {module}\n"
    members = "".join(f"        - {name}\n" for name in names)
    return f"# `{module}`\n\n::: {module}\n    options:\n      members:\n{members}"


def api_index(modules: list[str]) -> str:
    """The API reference's first page: which module is for whom, with links."""
    user = [m for m in modules if m in USER_MODULES]
    author = [m for m in modules if m not in USER_MODULES]

    def links(names: list[str]) -> list[str]:
        return [f"- [`{m}`]({m}.md): {_prose(summary(m))}" for m in names]

    return "\n".join(
        [
            "# API reference",
            "",
            "Generated from the docstrings when the site is built.",
            "",
            "## For scripts and notebooks",
            "",
            *links(user),
            "",
            "## For plugin authors",
            "",
            "The modules a plugin may import (see [Writing a plugin](../../writing-a-plugin.md)"
            "); nothing else is promised to stay.",
            "",
            *links(author),
            "",
        ]
    )


def thermograph_picture() -> str:
    """The thermograph chart the thermograph task page shows, drawn by the code it documents."""
    from cgframework.display.thermograph import thermograph_svg
    from cgframework.values import parse_value

    parts = [parse_value("{3|1}"), parse_value("{4|{2|-2}}")]
    return thermograph_svg([*parts, parts[0] + parts[1]], ["{3|1}", "{4|{2|-2}}", "sum"])


def on_files(files: Any, config: Any) -> Any:
    """mkdocs hook: add the generated CLI and API reference pages (and the thermograph task's
    picture) to the site."""
    from mkdocs.structure.files import File

    modules = api_modules()
    pages = {CLI_PAGE: cli_reference(), f"{API_DIR}/index.md": api_index(modules)}
    pages.update({f"{API_DIR}/{m}.md": api_page(m) for m in modules})
    pages["tasks/thermograph.svg"] = thermograph_picture()
    for path, content in pages.items():
        files.append(File.generated(config, path, content=content))
    return files


def on_nav(nav: Any, config: Any, files: Any) -> Any:
    """mkdocs hook: list the API pages under "API reference" in the navigation, in order."""
    from mkdocs.structure.nav import Section

    def fill(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, Section) and item.title == "API reference":
                for module in api_modules():
                    page = files.get_file_from_path(f"{API_DIR}/{module}.md").page
                    page.parent = item
                    item.children.append(page)
            elif isinstance(item, Section):
                fill(item.children)

    fill(nav.items)
    return nav


SPHINX_ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|data|exc|obj):(<code>)~?")
"""A Sphinx role before a code span, as the docstrings write cross-references
(``:func:`~cgframework.solve```): the role is dropped and the name shown as code."""


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    """mkdocs hook: API pages show a docstring's Sphinx cross-references as plain code."""
    if page.file.src_uri.startswith(API_DIR):
        return SPHINX_ROLE.sub(r"\1", html_text)
    return html_text


if __name__ == "__main__":
    print(cli_reference())
