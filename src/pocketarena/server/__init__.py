"""The web platform: FastAPI app, live games over WebSockets, storage, pages.

``main.create_app(settings)`` wires it together; ``pocketarena serve`` runs it with Uvicorn.
"""
