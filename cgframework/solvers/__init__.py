"""Generic solvers, each working on any ruleset through the protocol alone: scoring play by
negamax (``minimax``), outcome classes (``outcome``), Grundy values with nim-sums
(``grundy``), canonical values with components summed (``canonical``), loopy games by
retrograde analysis and by sides (``retrograde``, ``sides``), misère play (``misere``); and the
dispatcher (``dispatch``) that runs a plugin's specialised solver where one applies and the
generic one otherwise. A new generic solver is a module here, named in the dispatcher.
"""
