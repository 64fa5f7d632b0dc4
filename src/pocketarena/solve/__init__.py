"""Exact solutions of games small enough to solve.

``pocketarena.solve.stack_a_cash.solve(protect)`` gives every reachable Stack-a-Cash position
with its value under best play. Solvers import the rules; the rules never import them.
"""
