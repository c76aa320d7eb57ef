"""The ``cgf`` command line: the typer app and its sub-commands, the top layer of the core.
:mod:`~cgframework.cli.common` is what every command uses (the app, the console, one-line
errors, the limit options, readers of positions and stores) and is re-exported here, so a
plugin's commands write ``from cgframework.cli import fail, out``;
:mod:`~cgframework.cli.commands` holds the core's commands and :func:`main`;
:mod:`~cgframework.cli.store` and :mod:`~cgframework.cli.sweep` add ``cgf store`` and
``cgf sweep`` when they are asked for. Nothing below this folder imports it.
"""

from typing import Any

from cgframework.cli.common import (
    HELP_OPTIONS,
    InputError,
    MaxNodesOption,
    OutputOption,
    TimeoutOption,
    app,
    distinct_files,
    draw_svg,
    fail,
    load_position,
    load_ruleset,
    old_output_option,
    open_store,
    open_trusting_store,
    out,
    output_file,
    output_option,
    parse_player,
    print_table,
    read_position_text,
    shorten,
    value_text,
    within_timeout,
    write_picture,
)


def __getattr__(name: str) -> Any:
    """``main`` (the console script of an older install) from :mod:`cgframework.cli.commands`."""
    if name == "main":
        from cgframework.cli.commands import main

        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "HELP_OPTIONS",
    "InputError",
    "MaxNodesOption",
    "OutputOption",
    "TimeoutOption",
    "app",
    "distinct_files",
    "draw_svg",
    "fail",
    "load_position",
    "load_ruleset",
    "main",
    "old_output_option",
    "open_store",
    "open_trusting_store",
    "out",
    "output_file",
    "output_option",
    "parse_player",
    "print_table",
    "read_position_text",
    "shorten",
    "value_text",
    "within_timeout",
    "write_picture",
]
