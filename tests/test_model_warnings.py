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


def _bundled_backend():
    from tokenizers import Tokenizer

    from wsd.embed.models import bundled_model_path

    backend = Tokenizer.from_file(str(bundled_model_path() / "tokenizer.json"))
    backend.no_padding()
    backend.no_truncation()
    return backend


def test_russian_targets_are_unreadable_for_the_bundled_english_model() -> None:
    from wsd.embed.coverage import UNREADABLE_SHARE, unreadable_targets

    backend = _bundled_backend()
    english = ["mouse", "bank", "plant", "bat", "cell", "state", "interest", "power"]
    russian = ["замок", "лук", "ключ", "шагать", "государство"]
    assert unreadable_targets(backend, english) == {}
    found = unreadable_targets(backend, english + russian)
    assert sorted(found) == sorted(russian)
    assert all(share >= UNREADABLE_SHARE for share in found.values())


def test_one_warning_names_a_multilingual_model() -> None:
    from wsd.embed.coverage import MULTILINGUAL_MODEL, warn_unreadable_targets

    with pytest.warns(UserWarning) as caught:
        warn_unreadable_targets(_bundled_backend(), "all-MiniLM-L6-v2", ["mouse", "замок", "лук"])
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "2 of 3 targets (замок, лук)" in message and MULTILINGUAL_MODEL in message and "[UNK]" in message
