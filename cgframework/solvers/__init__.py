"""Generic solvers (minimax, outcome, grundy, canonical) and the dispatcher."""
