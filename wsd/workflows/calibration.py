"""``auto``'s runtime and precision for a corpus job: measured with the senses' check, or the resumed run's own.

The embedding stage measures the runtimes and precisions on a CPU (:mod:`wsd.embed.calibration`) and checks a
candidate's vectors against PyTorch fp32's occurrence by occurrence. A corpus job asks one thing more, which the
embedding stage cannot (it does not import the senses stage): the same number of senses on every demo word
(:data:`SAME_SENSES`, the default recipe's clustering of the candidate's vectors and of the reference's).
:func:`resolve_auto` is what :func:`wsd.embed_corpus` (``wsd embed``, ``wsd run``) asks before it loads its
encoder: a run being resumed keeps the runtime and precision it recorded, whatever the cache now says; a new one
is measured (or read from the cache) with that check. :func:`recalibrate` is ``--recalibrate``.

>>> SAME_SENSES.name
'same k'
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from wsd.embed import calibration
from wsd.embed.calibration import Agreement, Calibration, Candidate, Windows
from wsd.embed.encoder import Encoder
from wsd.errors import ConfigError, WsdError
from wsd.io.layout import META_FILE
from wsd.io.run_reader import read_meta
from wsd.options import EmbeddingOptions

#: The recipe whose number of senses a candidate must keep on every demo word.
CHECK_RECIPE = "default"


def senses_per_word(vectors: np.ndarray, windows: Windows, recipe: str = CHECK_RECIPE) -> dict[str, int]:
    """The number of senses the recipe finds for each word of ``windows`` (one fit per word, its forms given).

    Parameters
    ----------
    vectors : ndarray of shape (n, d)
        A vector per occurrence of ``windows``.
    windows : Windows
        The occurrences, with their target words.
    recipe : str
        The recipe (:meth:`wsd.senses.SenseInducer.from_recipe`).

    Returns
    -------
    dict
        Word → number of senses, the words in order of first appearance.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> windows = Windows(("a bank",) * 20, np.tile([2, 6], (20, 1)), ("bank",) * 20)
    >>> two = np.repeat(np.eye(4)[:2], 10, axis=0) + rng.normal(0, 0.01, (20, 4))
    >>> three = np.repeat(np.eye(4)[:3], [7, 7, 6], axis=0) + rng.normal(0, 0.01, (20, 4))
    >>> senses_per_word(two, windows)
    {'bank': 2}
    >>> SAME_SENSES.disagreement(senses_per_word(three, windows), senses_per_word(two, windows))
    'another k: bank 3, fp32 2'
    """
    from wsd.senses.inducer import SenseInducer  # only where something is measured (a warm run skips scikit-learn)

    targets, forms = np.asarray(windows.targets), np.asarray(windows.forms)
    found = {}
    for word in dict.fromkeys(windows.targets):  # one fit per word
        rows = np.flatnonzero(targets == word)
        found[word] = int(SenseInducer.from_recipe(recipe).fit(vectors[rows], forms=forms[rows]).n_senses_)
    return found


#: The check of the corpus jobs: the same number of senses on every demo word as PyTorch fp32's vectors give
#: (``another k: cell 3, fp32 2`` where one moves).
SAME_SENSES = Agreement("same k", "k", senses_per_word)


def recorded_choice(out: str | os.PathLike[str]) -> Candidate | None:
    """The runtime and precision a run in ``out`` was embedded with, or None where ``out`` holds no run.

    Parameters
    ----------
    out : path
        A run folder (``wsd embed --out``, ``run/`` of ``wsd run``'s output).

    Returns
    -------
    Candidate or None
        From its ``meta.json`` (``config.embed``): what its vectors were computed with.
    """
    if not (Path(out) / META_FILE).is_file():
        return None
    try:
        embed = read_meta(out).get("config", {}).get("embed")
    except WsdError:  # not a run: the run store says so when it claims the folder
        return None
    if not isinstance(embed, dict) or not isinstance(embed.get("precision"), str):
        return None
    return Candidate(str(embed.get("runtime", "torch")), embed["precision"])


def resolve_auto(
    embedding: EmbeddingOptions,
    out: str | os.PathLike[str],
    *,
    overwrite: bool = False,
    measure: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    **measuring: Any,
) -> tuple[EmbeddingOptions, Calibration | None]:
    """The embedding options a corpus job runs with: ``auto`` runtime and precision made concrete on a CPU.

    Where ``embedding`` leaves both to ``auto`` on a CPU (:func:`wsd.embed.calibration.applies`):

    - ``out`` holds a run (and ``overwrite`` is not asked): its recorded runtime and precision, so that a resumed
      run computes as it began, even after a new measurement chose otherwise; a choice this machine cannot
      compute alike (OpenVINO bf16 without native bf16, fp16 of a GPU) is refused;
    - else what the calibration chose (the cache, or measured now), with :data:`SAME_SENSES` checked.

    Parameters
    ----------
    embedding : EmbeddingOptions
        The job's embedding options.
    out : path
        The run folder the job writes or resumes.
    overwrite : bool
        The job replaces what ``out`` holds: its recorded choice does not count.
    measure : bool
        Measure here where needed; False leaves ``auto`` to each encoder (workers on other machines measure
        for themselves).
    cache_dir : str or path, optional
        The calibration cache (None: the default one).
    **measuring
        Passed to :func:`wsd.embed.calibration.auto_choice` (the tests' fakes).

    Returns
    -------
    (EmbeddingOptions, Calibration or None)
        The options with ``runtime``, ``precision`` and ``device`` made concrete where ``auto`` chose them, and
        the calibration that chose (None where nothing was measured or read: given, a GPU, calibration off, or
        the resumed run's own choice).

    Raises
    ------
    ConfigError
        Where ``out`` holds a run embedded with a runtime and precision this machine does not compute alike.
    """
    if not calibration.applies(embedding.runtime, embedding.precision, embedding.device):
        return embedding, None
    recorded = None if overwrite else recorded_choice(out)
    if recorded is not None:
        if recorded not in calibration.runnable(torch_bf16=True):  # torch computes bf16 on any CPU, if slowly
            raise ConfigError(
                f"{out} was embedded with {recorded.name}, which this machine does not compute alike (its vectors "
                f"would differ); resume it where it was made, give --runtime {recorded.runtime} --precision "
                f"{recorded.precision} to resume it here anyway, or --overwrite to embed it anew"
            )
        chosen = embedding.replace(runtime=recorded.runtime, precision=recorded.precision, device="cpu")
        return chosen, None
    if not measure:
        return embedding, None
    found = calibration.auto_choice(
        make_encoder=Encoder,
        cache_dir=cache_dir,
        agreement=SAME_SENSES,
        **calibration.loading_of(embedding),
        **measuring,
    )
    return embedding.replace(runtime=found.runtime, precision=found.precision, device="cpu"), found


def recalibrate(
    embedding: EmbeddingOptions,
    make_encoder: Callable[..., Any] = Encoder,
    **measuring: Any,
) -> Calibration:
    """``--recalibrate`` of ``wsd embed`` and ``wsd run``: measure again, the senses' check included.

    Parameters
    ----------
    embedding : EmbeddingOptions
        The job's embedding options (``auto`` runtime and precision on a CPU, else refused).
    make_encoder : callable
        :class:`wsd.Encoder`.
    **measuring
        Passed to :func:`wsd.embed.calibration.recalibrate` (``cache_dir`` and the tests' fakes).

    Returns
    -------
    Calibration

    Raises
    ------
    ConfigError
        With an explicit runtime, precision or non-CPU device, or the calibration turned off.
    """
    return calibration.recalibrate(embedding, make_encoder, agreement=SAME_SENSES, **measuring)
