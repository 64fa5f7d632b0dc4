"""Configuration, database, security and rate limiting: the app's plumbing."""
