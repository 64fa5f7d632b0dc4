"""``python -m pocketarena``: the same program as the ``pocketarena`` command."""

from pocketarena.cli.main import main

main()
