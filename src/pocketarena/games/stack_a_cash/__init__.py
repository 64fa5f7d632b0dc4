"""Stack-a-Cash: tic-tac-toe with six shared coins that stack, slide and turn over.

``rules.py`` holds the game; ``board.py`` the board as bit tables (shared with the solver).
"""

from .rules import FLIP, MOVE, MOVE_FLIP, PLACE, StackACash, StackACashState

GAME = StackACash

__all__ = ["FLIP", "GAME", "MOVE", "MOVE_FLIP", "PLACE", "StackACash", "StackACashState"]
