"""Optional accounts: register (keeps your guest games), sign in, sign out."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ...core.security import new_player_id
from ...schemas import CredentialsIn, ErrorOut, MeOut
from ..deps import PlayerIdDep, StoreDep, WriteLimit

router = APIRouter(prefix="/api/auth", tags=["accounts"])


@router.post(
    "/register",
    response_model=MeOut,
    responses={400: {"model": ErrorOut}},
    dependencies=[WriteLimit],
)
def register(body: CredentialsIn, store: StoreDep, player: PlayerIdDep) -> dict[str, Any]:
    """Turn the current guest into an account (password hashed with argon2)."""
    p = store.register(player, body.username, body.password)
    return {"id": p.id, "name": p.name, "kind": p.kind, "username": p.username}


@router.post(
    "/login", response_model=MeOut, responses={400: {"model": ErrorOut}}, dependencies=[WriteLimit]
)
def login(body: CredentialsIn, request: Request, store: StoreDep) -> dict[str, Any]:
    p = store.authenticate(body.username, body.password)
    request.state.set_player = p.id
    return {"id": p.id, "name": p.name, "kind": p.kind, "username": p.username}


@router.post("/logout", response_model=MeOut, dependencies=[WriteLimit])
def logout(request: Request, store: StoreDep) -> dict[str, Any]:
    """Sign out: the browser becomes a new guest."""
    pid = new_player_id()
    request.state.set_player = pid
    p = store.ensure_guest(pid)
    return {"id": p.id, "name": p.name, "kind": p.kind, "username": p.username}
