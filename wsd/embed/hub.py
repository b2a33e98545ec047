"""Models named on the Hugging Face Hub: offline mode, the cache, the snapshot a name resolves to.

A Hub name (``intfloat/multilingual-e5-small``) is loaded the way ``transformers`` loads it: from the
Hugging Face cache, downloading it there on first use, so ``HF_HOME``, ``HF_HUB_CACHE``, ``HF_HUB_OFFLINE``,
tokens and mirrors work as the user set them. Nothing here changes them: ``huggingface_hub`` reads its
environment once, when it is first imported, and every function below reads what it read.

>>> is_repo_id("intfloat/multilingual-e5-small"), is_repo_id("./models/minilm"), is_repo_id("a/b/c")
(True, False, False)
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

from wsd.errors import ModelError

#: The file every model snapshot has; its place in the cache names the snapshot and its commit.
CONFIG_FILE = "config.json"
#: Seconds wsd waits for the Hub to accept a connection before a Hub name that is not cached fails (without the
#: probe, ``transformers`` tries each file with timeouts and retries: about 51 s on a machine without network).
HUB_PROBE_SECONDS = 3.0
#: Environment variables of a proxy: where one is set the Hub is reached through it, so wsd does not probe.
PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy")


def is_repo_id(text: str) -> bool:
    """Whether ``text`` is a syntactically valid Hub repository id (``name`` or ``namespace/name``).

    Parameters
    ----------
    text : str
        A model argument.

    Returns
    -------
    bool
        True for ``bert-base-uncased`` or ``DeepPavlov/rubert-base-cased``; False for paths such as
        ``./model``, ``/opt/m`` or ``a/b/c``.
    """
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    if text.startswith((".", "/", "~")) or "\\" in text:
        return False
    try:
        validate_repo_id(text)
    except HFValidationError:
        return False
    return True


def env_offline() -> bool:
    """Whether Hugging Face's offline mode is on (``HF_HUB_OFFLINE`` or ``TRANSFORMERS_OFFLINE``).

    Returns
    -------
    bool
        What ``huggingface_hub`` read from the environment when it was imported.
    """
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)


def resolve_offline(offline: bool | None) -> bool:
    """Whether loading may not touch the network.

    Parameters
    ----------
    offline : bool or None
        ``True``: never; ``None`` or ``False``: as Hugging Face is configured (:func:`env_offline`).
        ``huggingface_hub`` enforces ``HF_HUB_OFFLINE=1`` for the whole process, so ``False`` cannot lift it.

    Returns
    -------
    bool
        True when only cached files may be used.
    """
    return bool(offline) or env_offline()


def cache_dir() -> Path:
    """The Hugging Face Hub cache (``HF_HUB_CACHE``, by default ``$HF_HOME/hub``).

    Returns
    -------
    Path
        The folder ``huggingface_hub`` downloads into and loads from.
    """
    from huggingface_hub import constants

    return Path(constants.HF_HUB_CACHE)


def cached_snapshot(repo_id: str) -> tuple[Path, str] | None:
    """The cached snapshot of a Hub model's ``main`` revision, if its ``config.json`` is in the cache.

    Parameters
    ----------
    repo_id : str
        A Hub repository id.

    Returns
    -------
    (Path, str) or None
        The snapshot folder and its commit hash; ``None`` when the model is not in the cache.
    """
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(repo_id, CONFIG_FILE)
    if not isinstance(found, str):
        return None
    snapshot = Path(found).parent  # .../models--org--name/snapshots/<commit>/config.json (a link: not resolved)
    return snapshot, snapshot.name


def hub_unreachable(timeout: float = HUB_PROBE_SECONDS) -> str | None:
    """Why the Hub cannot be reached now: one TCP connection to its endpoint (``HF_ENDPOINT``), at most ``timeout``.

    Parameters
    ----------
    timeout : float
        Seconds to wait for the connection.

    Returns
    -------
    str or None
        ``"huggingface.co:443 cannot be reached (...)"``; None when the connection opens, or when a proxy is set
        (the Hub is then reached through it, and the download's own errors say what went wrong).

    Examples
    --------
    >>> hub_unreachable() is None or "cannot be reached" in hub_unreachable()  # doctest: +SKIP
    True
    """
    from huggingface_hub import constants

    if any(os.environ.get(name) for name in PROXY_VARIABLES):
        return None
    endpoint = urlsplit(constants.ENDPOINT)
    host = endpoint.hostname or ""
    port = endpoint.port or (80 if endpoint.scheme == "http" else 443)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except OSError as exc:
        return f"{host}:{port} cannot be reached: {exc.strerror or type(exc).__name__}"


def not_cached_error(repo_id: str, offline_argument: bool | None, detail: str | None = None) -> ModelError:
    """The one-line error for a Hub model that is not in the cache and cannot be downloaded now.

    Parameters
    ----------
    repo_id : str
        The Hub name asked for.
    offline_argument : bool or None
        The ``offline`` the caller passed (``True`` names ``--offline`` as the reason; otherwise the
        environment or the network is).
    detail : str, optional
        The first line of the download error, when a download was tried and failed.

    Returns
    -------
    ModelError
        Naming the model, the cache folder, why nothing was downloaded, and how to get the model.
    """
    if detail is not None:
        reason = f"could not be downloaded ({detail})"
    elif offline_argument:
        reason = "cannot be downloaded (offline was asked for)"
    else:
        reason = "cannot be downloaded (HF_HUB_OFFLINE is set)"
    return ModelError(
        f"cannot load model {repo_id!r}: it is not in the Hugging Face cache at {cache_dir()} and {reason}; "
        f"get it with `hf download {repo_id}` on a machine with network (then copy the cache), set HF_HOME to a "
        "cache that has it, run without offline mode, or pass a local model folder"
    )
