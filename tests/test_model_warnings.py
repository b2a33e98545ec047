"""Warnings and errors that save a day (issue 25): a Hub that cannot be reached, a script the model cannot read,
capitalised forms the lemmatizer maps onto a target."""

from __future__ import annotations

import socket

import pytest

from wsd.embed import hub


def _closed_port() -> int:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        return closed.getsockname()[1]


def test_an_unreachable_hub_is_told_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from huggingface_hub import constants

    port = _closed_port()
    for name in hub.PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(constants, "ENDPOINT", f"http://127.0.0.1:{port}")
    assert hub.hub_unreachable(timeout=2) == f"127.0.0.1:{port} cannot be reached: Connection refused"
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")  # through a proxy: the download says why
    assert hub.hub_unreachable(timeout=2) is None


def test_a_reachable_endpoint_is_not_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from huggingface_hub import constants

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        for name in hub.PROXY_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setattr(constants, "ENDPOINT", f"http://127.0.0.1:{server.getsockname()[1]}")
        assert hub.hub_unreachable(timeout=2) is None
