"""What every layer runs on, knowing nothing of games or values: search limits (node budgets,
deadlines, :class:`~cgframework.runtime.budget.LimitExceeded`), the memory ceiling, deep
recursion on a large-stack thread and nesting limits, bounded reading of the text a user hands
in, writing output paths (devices in place, regular files whole), transposition tables, the
optional compiled kernels, and the version. A module belongs here when it imports nothing else
of the core (only its neighbours in this folder) and more than one layer needs it.
"""
