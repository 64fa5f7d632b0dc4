"""The ``pocketarena`` command line: one module per command, wired together in ``main.py``."""
