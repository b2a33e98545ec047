"""The same command run twice into the same folder reuses it: the files wsd writes beside its outputs (the
resolved ``config.toml``) never make wsd's own folder look like someone else's."""

from __future__ import annotations

import pytest

from wsd.cli import main
from wsd.io.layout import CONFIG_FILE, LABELS_FILE, SENSES_DIR

pytestmark = pytest.mark.slow  # the slow lane: embeds and clusters twice through the CLI


def test_embed_and_cluster_rerun_into_their_own_folders(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The bank raised rates.\nWe sat on the river bank.\nClick the mouse.\n", encoding="utf-8")
    run = tmp_path / "run"
    embed = ["embed", "--corpus", str(corpus), "--targets", "bank,mouse", "--out", str(run), "--no-progress"]
    cluster = ["cluster", "--run", str(run), "--method", "kmeans", "--k", "1", "--no-progress"]
    assert main(embed) == 0
    assert (run / CONFIG_FILE).exists()
    assert main(embed) == 0
    assert main(cluster) == 0
    labels = (run / SENSES_DIR / LABELS_FILE).read_bytes()
    assert (run / SENSES_DIR / CONFIG_FILE).exists()
    assert main(cluster) == 0
    assert (run / SENSES_DIR / LABELS_FILE).read_bytes() == labels
    assert "error" not in capsys.readouterr().err


def test_demo_reruns_into_its_own_folder(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--no-progress"]) == 0
    assert (out / CONFIG_FILE).exists()
    assert main(["demo", "--out", str(out), "--no-progress"]) == 0
    assert "error" not in capsys.readouterr().err
