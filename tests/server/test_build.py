"""What the pages run has one short id (the build): in every page's meta and in the socket's
``hello``, so that a tab left open across an upgrade learns that its scripts are old."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from fastapi.testclient import TestClient

from pocketarena.server import assets

META = re.compile(r'<meta name="pa-build" content="([0-9a-f]+)">')


def test_hello_carries_the_build_of_the_pages(client: TestClient) -> None:
    for path in ("/", "/lobby", "/rules"):
        page = client.get(path)
        assert page.status_code == 200
        found = META.search(page.text)
        assert found is not None, f"{path} has no pa-build meta"
        with client.websocket_connect("/ws") as ws:
            hello = ws.receive_json()
        assert hello["type"] == "hello"
        assert hello["build"] == found.group(1) == assets.BUILD


def test_the_build_is_the_same_from_the_same_files_and_changes_with_them(tmp_path: Path) -> None:
    """Every process of a cluster computes the same id from the same files (no times, no
    order of the folder's listing); a changed script is another build."""
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(assets.STATIC, a)
    shutil.copytree(assets.STATIC, b)
    (b / "socket.js").touch()  # a newer time, the same contents
    assert assets.build_id(a) == assets.build_id(b) == assets.BUILD
    assert re.fullmatch(r"[0-9a-f]{12}", assets.BUILD)
    (b / "socket.js").write_text((a / "socket.js").read_text(encoding="utf-8") + "\n", "utf-8")
    assert assets.build_id(b) != assets.BUILD
    (b / "socket.js").write_bytes((a / "socket.js").read_bytes())
    (b / "extra.js").write_text("", "utf-8")  # a new file, even an empty one
    assert assets.build_id(b) != assets.BUILD
