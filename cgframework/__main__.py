"""``python -m cgframework`` is ``cgf``."""

from cgframework.cli import main

main()
