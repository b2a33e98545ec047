"""Why a sense model does not fit some vectors: the embedding fields that differ, and the options that fix them.

A sense model records the identity of the vectors it was fitted on (``embedding_meta``: model, layers, pooling,
context vector, dim). Vectors of another identity live in another space; :func:`embedding_mismatch` says which
fields differ and which ``wsd embed`` options give vectors the model can read.

>>> embedding_mismatch({"layers": "last", "dim": 384}, {"layers": "last", "dim": 384}) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from wsd.options import OPTIONS

__all__ = ["FIELD_OPTIONS", "embedding_mismatch"]

#: The option (:data:`wsd.options.OPTIONS`) behind each field of an embedding identity; ``dim`` follows from them.
FIELD_OPTIONS: dict[str, str] = {
    "model": "embedding.model",
    "model_fingerprint": "embedding.model",
    "layers": "embedding.layers",
    "pooling": "embedding.pooling",
    "context_vector": "embedding.context_vector",
}
MISSING = "<missing>"


def _flag_value(field: str, value: Any) -> str:
    """The value a flag takes to give ``value`` for ``field`` (no context vector: ``none``)."""
    if field == "context_vector" and value in (None, MISSING):
        return "none"
    return str(value)


def embedding_mismatch(
    model_meta: Mapping[str, Any], vectors_meta: Mapping[str, Any], ignored: Iterable[str] = ()
) -> str | None:
    """What differs between a sense model's embedding identity and that of some vectors, and how to fix it.

    Parameters
    ----------
    model_meta : mapping
        The identity the sense model was fitted on (``SenseModel.embedding_meta_``).
    vectors_meta : mapping
        The identity of the vectors to predict (a run's ``meta.json`` ``embedding``).
    ignored : iterable of str
        Fields not compared (bookkeeping, numeric precision).

    Returns
    -------
    str or None
        None when they agree; else one line: each differing field with both values, then the ``wsd embed``
        options (with the values the senses were made with) that give matching vectors.

    Examples
    --------
    >>> print(embedding_mismatch({"context_vector": "20:last:0.5", "dim": 768}, {"dim": 384}))
    ... # doctest: +NORMALIZE_WHITESPACE
    field 'context_vector' is '20:last:0.5' in the sense model but '<missing>' for these vectors, field 'dim' is
    768 in the sense model but 384 for these vectors; the senses were fitted on vectors made with
    --context-vector 20:last:0.5: embed the run with the same option (or run wsd cluster on these vectors)
    """
    skip = set(ignored)
    fields = [
        field
        for field in sorted((set(model_meta) | set(vectors_meta)) - skip)
        if model_meta.get(field, MISSING) != vectors_meta.get(field, MISSING)
    ]
    if not fields:
        return None
    described = ", ".join(
        f"field {field!r} is {model_meta.get(field, MISSING)!r} in the sense model "
        f"but {vectors_meta.get(field, MISSING)!r} for these vectors"
        for field in fields
    )
    flags: dict[str, str] = {}
    for field in fields:
        if field in FIELD_OPTIONS:
            flag = OPTIONS[FIELD_OPTIONS[field]].option_strings[0]
            value = model_meta.get("model" if field == "model_fingerprint" else field, MISSING)
            if flag not in flags and not (flag == "--model" and value in (None, MISSING)):
                flags[flag] = f"{flag} {_flag_value(field, value)}"
    if flags:
        options = ", ".join(flags.values())
        fix = (
            f"the senses were fitted on vectors made with {options}: embed the run with the same "
            f"option{'s' if len(flags) > 1 else ''} (or run wsd cluster on these vectors)"
        )
    else:
        fix = (
            "the vectors come from other encoder settings: embed the run with the settings in the senses' "
            "meta.json (embedding), or run wsd cluster on these vectors"
        )
    return f"{described}; {fix}"
