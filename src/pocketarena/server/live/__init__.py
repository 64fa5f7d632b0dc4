"""Live games: the authoritative in-memory hub, clocks, bot workers and client connections."""
