"""Representations measured in the quality experiment that did not become the default (kept to regenerate them).

- :class:`MaskedEncoder`: the vector of a mask token put in place of the occurrence (what the context
  expects there), through :meth:`wsd.Encoder.embed_configs`'s ``rewrite_plan`` (:func:`mask_plan`); it quacks
  like an encoder for :func:`wsd.embed.cache.embed_cached`, so its vectors are cached apart
  (``representation`` is part of its metadata).
- :func:`substitute_vectors`: substitute-like features without an MLM head: the contextual vector of a layer
  is ranked against the model's (tied) input embeddings, and the embeddings of the top-k vocabulary items
  (the target's own pieces excluded) are averaged with rank weights.
- :func:`standardise`: per-dimension z-scores over all occurrences (a global fix for "rogue dimensions").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from wsd.embed.identity import EncoderIdentity
from wsd.embed.windows import WindowPlan


def mask_plan(plan: WindowPlan, mask_id: int) -> WindowPlan:
    """Every occurrence in its own window with its pieces replaced by ONE mask token (identical windows shared)."""
    keys: dict[bytes, int] = {}
    windows: list[np.ndarray] = []
    window_of = np.empty(len(plan.window_of), dtype=np.int64)
    for row, (window, start, end) in enumerate(zip(plan.window_of, plan.piece_start, plan.piece_end, strict=True)):
        ids = plan.windows[window]
        masked = np.concatenate([ids[:start], np.array([mask_id], dtype=ids.dtype), ids[end:]])
        index = keys.setdefault(masked.tobytes(), len(windows))
        if index == len(windows):
            windows.append(masked)
        window_of[row] = index
    return WindowPlan(windows, window_of, plan.piece_start.copy(), plan.piece_start + 1)


@dataclass(frozen=True)
class MaskedIdentity(EncoderIdentity):
    """The wrapped encoder's identity plus what makes masked vectors different."""

    representation: str = ""

    def embedding_meta(self) -> dict[str, Any]:
        """The wrapped encoder's vector metadata with ``representation`` (and the masked vectors' ``dim``)."""
        return super().embedding_meta() | {"representation": self.representation}


class MaskedEncoder:
    """Wraps a :class:`wsd.Encoder`: vectors of a mask token in place of each occurrence (no context vector).

    ``combine_with_target=True`` returns ``[unit(encoder's own vector), weight · unit(masked vector)]``.
    """

    def __init__(self, encoder: Any, combine_with_target: bool = True, weight: float = 0.5) -> None:
        self.encoder = encoder
        self.combine_with_target = combine_with_target
        self.weight = weight

    def identity(self, layers: str, pooling: str) -> MaskedIdentity:
        """The wrapped encoder's identity plus what makes these vectors different."""
        identity = self.encoder.identity(layers, pooling)
        masked = self.encoder.loaded.hidden_size
        fields = {name: getattr(identity, name) for name in identity.__dataclass_fields__}
        changes = {
            "dim": identity.dim + masked if self.combine_with_target else masked,
            "representation": f"masked{'+target' if self.combine_with_target else ''}:{self.weight:g}",
        }
        return MaskedIdentity(**(fields | changes))

    def embed_configs(
        self, texts: Sequence[str], spans: Any, configs: Sequence[tuple[str, str]], progress: bool = False
    ) -> list[np.ndarray]:
        """Masked-position vectors (the layers of each config, one position so no pooling), optionally combined."""
        loaded = self.encoder.loaded
        mask_id = loaded.tokenizer.mask_token_id
        masked = self.encoder.with_options(context_vector=None).embed_configs(
            texts, spans, configs, progress, rewrite_plan=lambda plan: mask_plan(plan, mask_id)
        )
        if not self.combine_with_target:
            return masked
        own = self.encoder.embed_configs(texts, spans, configs, progress=progress)
        return [
            np.hstack([_unit(target), self.weight * _unit(mask[:, : loaded.hidden_size])]).astype(np.float32)
            for target, mask in zip(own, masked, strict=True)
        ]


def substitute_vectors(
    encoder: Any, occurrences: pd.DataFrame, vectors: np.ndarray, top_k: int = 50, batch: int = 512
) -> np.ndarray:
    """Rank-weighted mean of the input embeddings of the ``top_k`` vocabulary items nearest each vector.

    Vectors and embeddings are centred (the vectors on their mean over ``occurrences``, the embeddings on the
    vocabulary mean) and compared by cosine; only alphabetic whole-word items of 3+ characters compete, and
    the pieces of the occurrence's form and of its target word are excluded (they would win everywhere).
    """
    table = encoder.loaded.model.get_input_embeddings().weight.detach().float().cpu().numpy()
    tokenizer = encoder.loaded.tokenizer
    vocabulary = tokenizer.convert_ids_to_tokens(list(range(table.shape[0])))
    allowed = np.array([t.isalpha() and len(t) > 2 for t in vocabulary])
    embeddings = _unit(table - table.mean(axis=0))
    centred = _unit(np.asarray(vectors, dtype=np.float64) - np.mean(vectors, axis=0))
    words = occurrences["form"].str.lower() + "\t" + occurrences["target"].str.split(".").str[0].str.lower()
    own_ids = {w: _piece_ids(tokenizer, w.split("\t")) for w in words.unique()}
    weights = 1.0 / np.log2(np.arange(top_k) + 2.0)
    out = np.zeros((len(occurrences), table.shape[1]), dtype=np.float32)
    word_list = words.tolist()
    for start in range(0, len(occurrences), batch):
        scores = centred[start : start + batch] @ embeddings.T
        scores[:, ~allowed] = -np.inf
        rows = [np.full(len(own_ids[w]), r) for r, w in enumerate(word_list[start : start + batch])]
        cols = [own_ids[w] for w in word_list[start : start + batch]]
        if rows:
            scores[np.concatenate(rows).astype(np.int64), np.concatenate(cols).astype(np.int64)] = -np.inf
        best = np.argpartition(-scores, top_k, axis=1)[:, :top_k]
        order = np.argsort(-np.take_along_axis(scores, best, axis=1), axis=1)
        best = np.take_along_axis(best, order, axis=1)
        out[start : start + batch] = np.einsum("k,nkd->nd", weights, embeddings[best])
    return out


def standardise(vectors: np.ndarray) -> np.ndarray:
    """Per-dimension z-scores over all rows (dimensions with zero variance are only centred)."""
    X = np.asarray(vectors, dtype=np.float64)
    std = X.std(axis=0)
    return ((X - X.mean(axis=0)) / np.where(std > 0, std, 1.0)).astype(np.float32)


def _piece_ids(tokenizer: Any, words: Sequence[str]) -> np.ndarray:
    ids = [i for word in words for i in tokenizer(word, add_special_tokens=False)["input_ids"]]
    return np.asarray(ids, dtype=np.int64)


def _unit(X: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.where(norms > 1e-12, norms, 1.0)
