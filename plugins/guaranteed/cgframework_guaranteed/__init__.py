"""The ``guaranteed`` plugin of cgframework: the universe of guaranteed scoring games.

:mod:`~cgframework_guaranteed.games` is the algebra of scoring game forms; the text form
(:mod:`~cgframework_guaranteed.notation`) builds games, so it stands above the algebra and
installs the printer and parser that ``str`` and pickling of a game need. Importing any
module of the package runs this file first, so they are installed before a game is made.
"""

from cgframework_guaranteed import notation  # noqa: F401  (installs str and pickling of games)
