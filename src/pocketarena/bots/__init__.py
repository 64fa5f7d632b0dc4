"""Bots: players that choose an action for a state. They import the rules, never the reverse."""
