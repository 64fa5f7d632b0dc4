"""The server's WebSocket messages as their schemas write them."""

from __future__ import annotations

import json

from pocketarena.server.schemas import AckOut, ErrorMessageOut, PongOut, message_text


def test_what_a_client_sent_is_echoed_even_a_lone_surrogate() -> None:
    sent = "r\ud800"  # JSON can carry it escaped; UTF-8 cannot carry it at all
    pong = json.loads(message_text(PongOut(ref=sent)))
    ack = json.loads(AckOut(ref=sent, request="move", version=3).text())
    error = json.loads(
        ErrorMessageOut(code="unknown_game", message="m", ref=sent, game=sent).text()
    )
    assert pong == {"type": "pong", "ref": sent}
    assert ack == {"type": "ack", "ref": sent, "request": "move", "version": 3}
    assert error == {
        "type": "error",
        "code": "unknown_game",
        "message": "m",
        "ref": sent,
        "game": sent,
    }


def test_fields_a_reply_lacks_are_left_out() -> None:
    assert json.loads(AckOut(ref=None, request="unwatch").text()) == {
        "type": "ack",
        "ref": None,
        "request": "unwatch",
    }
    assert json.loads(ErrorMessageOut(code="bad_json", message="m").text()) == {
        "type": "error",
        "code": "bad_json",
        "message": "m",
    }
