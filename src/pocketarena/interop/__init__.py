"""Research interfaces (the ``rl`` extra: ``pip install 'pocketarena[rl]'``).

- :mod:`pocketarena.interop.openspiel` registers every game with OpenSpiel (``pyspiel``);
- :mod:`pocketarena.interop.pettingzoo` gives PettingZoo AEC environments;
- :mod:`pocketarena.interop.gymnasium` gives single-agent Gymnasium environments against a bot.

Nothing here is imported by the rest of the package: each adapter imports its library only
when it is imported itself. Action ids are the engine's (``game.actions``) in all three.
"""
