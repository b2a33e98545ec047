"""Whether an encoder's vocabulary can read the target words: the share of them it splits into [UNK] or single
characters (Cyrillic with the English MiniLM: every letter a piece of its own, and senses that are noise).

>>> unreadable_share(["з", "##а", "##м", "##о", "##к"], [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)])
1.0
>>> unreadable_share(["mouse"], [(0, 5)])
0.0
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from wsd.errors import UnreadableTargetsWarning

#: A target is unreadable when at least this share of its characters lies in [UNK] or single-character pieces.
#: Measured with the bundled MiniLM: 0.0 for the demo's English targets (mouse, bank, plant, bat, cell, each one
#: piece), 1.0 for its Russian ones (замок, лук, ключ, шагать: a piece per letter); half is far from both.
UNREADABLE_SHARE = 0.5
#: Words this short are left out: a piece per character is what a two-letter word may well get.
SHORTEST_CHECKED = 3
#: The unknown-token spellings of the common tokenizers (WordPiece, SentencePiece).
UNKNOWN_TOKENS = frozenset({"[UNK]", "<unk>"})
#: The model the warning names (the model table of docs/embedding.md: recommended for Russian).
MULTILINGUAL_MODEL = "intfloat/multilingual-e5-small"


def unreadable_share(tokens: Sequence[str], offsets: Sequence[tuple[int, int]], unknown: Iterable[str] = ()) -> float:
    """The share of a word's characters that lie in unknown or single-character pieces.

    Parameters
    ----------
    tokens : sequence of str
        The word's pieces (no special tokens).
    offsets : sequence of (int, int)
        Each piece's character span in the word.
    unknown : iterable of str
        The tokenizer's unknown token, besides :data:`UNKNOWN_TOKENS`.

    Returns
    -------
    float
        0.0 (every piece longer than a character) to 1.0.
    """
    unknown_tokens = UNKNOWN_TOKENS | set(unknown)
    covered = sum(end - start for start, end in offsets)
    if covered <= 0:
        return 1.0
    unreadable = sum(
        end - start
        for token, (start, end) in zip(tokens, offsets, strict=True)
        if token in unknown_tokens or end - start == 1
    )
    return unreadable / covered


def unreadable_targets(backend: Any, targets: Iterable[str]) -> dict[str, float]:
    """The targets a tokenizer mostly splits into [UNK] or single characters, with their share.

    Parameters
    ----------
    backend : tokenizers.Tokenizer
        The encoder's fast tokenizer (``Encoder.loaded.backend``).
    targets : iterable of str
        The target words.

    Returns
    -------
    dict
        Target → share (:func:`unreadable_share`), for the targets at or above :data:`UNREADABLE_SHARE`.
    """
    model_unknown = getattr(getattr(backend, "model", None), "unk_token", None)
    found: dict[str, float] = {}
    for target in dict.fromkeys(str(t) for t in targets):
        if len(target) < SHORTEST_CHECKED:
            continue
        encoding = backend.encode(target, add_special_tokens=False)
        share = unreadable_share(encoding.tokens, encoding.offsets, [model_unknown] if model_unknown else [])
        if share >= UNREADABLE_SHARE:
            found[target] = share
    return found


def warn_unreadable_targets(backend: Any, model: str, targets: Iterable[str]) -> dict[str, float]:
    """One warning naming a multilingual model when the encoder's vocabulary cannot read some targets.

    Parameters
    ----------
    backend : tokenizers.Tokenizer
        The encoder's fast tokenizer.
    model : str
        The model's name, for the message.
    targets : iterable of str
        The target words.

    Returns
    -------
    dict
        :func:`unreadable_targets` (empty: no warning).
    """
    targets = list(targets)
    found = unreadable_targets(backend, targets)
    warn_unreadable(found, targets, model, stacklevel=3)
    return found


def warn_unreadable(found: Mapping[str, float], targets: Iterable[str], model: str, stacklevel: int = 2) -> str:
    """The warning of :func:`warn_unreadable_targets` for targets found unreadable elsewhere (on a worker).

    Parameters
    ----------
    found : mapping
        :func:`unreadable_targets` of the encoder's tokenizer.
    targets : iterable of str
        All the target words.
    model : str
        The model's name, for the message.
    stacklevel : int
        As for :func:`warnings.warn`.

    Returns
    -------
    str
        The message warned (empty: none).

    Examples
    --------
    >>> warn_unreadable({}, ["mouse"], "all-MiniLM-L6-v2")
    ''
    """
    if not found:
        return ""
    shown = ", ".join(list(found)[:8]) + (" ..." if len(found) > 8 else "")
    share = sum(found.values()) / len(found)
    message = (
        f"{len(found)} of {len(set(targets))} targets ({shown}) are split by {model} mostly into [UNK] or single "
        f"characters ({share:.0%} of their letters): its vectors cannot tell their senses apart; use a model "
        f"that knows their script, e.g. --model {MULTILINGUAL_MODEL} (multilingual)"
    )
    warnings.warn(message, UnreadableTargetsWarning, stacklevel=stacklevel)
    return message
