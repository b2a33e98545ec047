"""Matching a labelled table's gold senses to the occurrences a scan found (``wsd run --gold``).

A labelled row (generic format: ``target``, ``text``, ``start``, ``end``, ``sense``) matches the occurrence of
the same target at the same place: the same passage and span, or a passage that lies inside the labelled text at
the labelled offset (when the scanner cut a sentence out of a longer labelled text). :func:`attach_gold` gives
each occurrence its gold sense; :func:`explain_unmatched` says why labelled rows matched nothing.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["attach_gold", "explain_unmatched"]


def attach_gold(occurrences: pd.DataFrame, labelled: pd.DataFrame) -> tuple[pd.Series, int]:
    """Gold senses for scanned occurrences from a labelled table (generic format); and how many matched.

    A labelled row matches the occurrence of the same target at the same place: the same passage and span,
    or a passage that lies inside the labelled text at the labelled offset (when the scanner cut a sentence
    out of a longer labelled text). Occurrences without a label get ``""``.

    Parameters
    ----------
    occurrences : DataFrame
        Scanned occurrences.
    labelled : DataFrame
        Labelled occurrences (``target``, ``text``, ``start``, ``end``, ``sense``).

    Returns
    -------
    (Series, int)
        The gold sense of each occurrence, and how many labelled rows matched one.
    """
    senses, unmatched, n_labelled = _match_gold(occurrences, labelled)
    return senses, n_labelled - len(unmatched)


def _match_gold(
    occurrences: pd.DataFrame, labelled: pd.DataFrame
) -> tuple[pd.Series, dict[tuple[str, str, int, int], str], int]:
    """:func:`attach_gold`'s matching: each occurrence's gold sense, the labelled rows left unmatched, their number."""
    senses = pd.Series([""] * len(occurrences), index=occurrences.index, dtype=object)
    exact = {
        (row.target, row.text, int(row.start), int(row.end)): row.sense
        for row in labelled.itertuples(index=False)
        if str(row.sense).strip()
    }
    unmatched = dict(exact)
    by_target: dict[str, list[tuple[str, int, int, str]]] = {}
    for (target, text, start, end), sense in exact.items():
        by_target.setdefault(target, []).append((text, start, end, sense))
    for position, row in enumerate(occurrences.itertuples(index=False)):
        key = (row.target, row.text, int(row.start), int(row.end))
        if key in exact:
            senses.iloc[position] = exact[key]
            unmatched.pop(key, None)
            continue
        for text, start, end, sense in by_target.get(row.target, ()):
            offset = start - int(row.start)
            if offset >= 0 and end - start == row.end - row.start and text[offset : offset + len(row.text)] == row.text:
                senses.iloc[position] = sense
                unmatched.pop((row.target, text, start, end), None)
                break
    return senses, unmatched, len(exact)


def explain_unmatched(occurrences: pd.DataFrame, labelled: pd.DataFrame) -> str:
    """Why labelled rows match no scanned occurrence: other targets, texts not in the corpus, or other spans.

    Parameters
    ----------
    occurrences : DataFrame
        Scanned occurrences.
    labelled : DataFrame
        Labelled occurrences (generic format).

    Returns
    -------
    str
        E.g. ``"3 name targets not scanned, 2 lie in texts not found in the corpus, 1 has a span that matches
        no occurrence"`` (empty when every row matched).
    """
    _, unmatched, _ = _match_gold(occurrences, labelled)
    scanned = set(occurrences["target"])
    passages: dict[str, list[str]] = {}
    for row in occurrences.itertuples(index=False):
        passages.setdefault(row.target, []).append(row.text)
    counts = {"targets": 0, "texts": 0, "spans": 0}
    for target, text, _start, _end in unmatched:
        if target not in scanned:
            counts["targets"] += 1
        elif not any(passage in text for passage in passages[target]):
            counts["texts"] += 1
        else:
            counts["spans"] += 1
    parts = [
        (counts["targets"], "name targets not scanned", "names a target not scanned"),
        (counts["texts"], "lie in texts not found in the corpus", "lies in a text not found in the corpus"),
        (counts["spans"], "have spans that match no occurrence", "has a span that matches no occurrence"),
    ]
    return ", ".join(f"{n} {one if n == 1 else many}" for n, many, one in parts if n)
