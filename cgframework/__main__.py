"""``python -m cgframework`` is ``cgf``."""

from cgframework.cli.commands import main

main()
