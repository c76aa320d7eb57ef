"""Helpers for plugin authors' tests (pytest)."""

from __future__ import annotations

from typing import Any

from cgframework.cli import main


def run_cli(capsys: Any, *args: str) -> tuple[int, str, str]:
    """Run ``cgf ARGS`` in-process under pytest's ``capsys``: (exit code, stdout, stderr)."""
    capsys.readouterr()
    try:
        main(list(args))
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    captured = capsys.readouterr()
    return code, captured.out, captured.err
