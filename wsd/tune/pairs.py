"""The labelled pair set every training source yields: uses of a lemma, and labelled pairs of them.

A :class:`PairSet` holds two tables, so that a training loop can encode each use **once** and score every
labelled pair among the uses of a batch:

``uses`` — one row per use of a target word in a text:

=============  =====================================================================================
column         meaning
=============  =====================================================================================
``use_id``     unique over the pair set: the source name, ``#``, the source's own id (``wug:…#fic_1831…``)
``lemma``      the normalised lemma (:func:`normalize_lemma`: lower case, no POS tag)
``text``       the context the encoder sees
``start``      character offset of the target in ``text`` (0-based)
``end``        one past its last character (end exclusive); ``0 <= start < end <= len(text)``
``source``     the source's name (``wug:../shared/datasets/lscd/dwug_en``)
=============  =====================================================================================

``pairs`` — one row per labelled (unordered) pair of two different uses of one lemma:

=============  =====================================================================================
column         meaning
=============  =====================================================================================
``use_id_1``   the first use (a ``use_id`` of ``uses``)
``use_id_2``   the second use, of the same lemma and source
``lemma``      the normalised lemma
``label``      float: graded 1–4 (WUG relatedness, a median, so 2.5 occurs) or binary 1 = same sense,
               0 = different senses; NaN for an unlabelled pair
``kind``       ``"graded"``, ``"binary"`` or ``"unlabelled"`` (a pair of unlabelled uses, ``uses:FILE``,
               that only a teacher encoder labels: :mod:`wsd.tune.teacher`)
``source``     the source's name
=============  =====================================================================================

:meth:`PairSet.wide` joins both into one table with the texts and spans of both sides
(``text_1, start_1, end_1, text_2, start_2, end_2``). ``stats`` holds each source's reader counts
(judgments read, pairs dropped, examples located, ...).

Lemmas are compared in normalised form everywhere (:func:`normalize_lemma`): ``part_nn``, ``part.n``,
``Part`` and ``part`` are one lemma.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wsd.errors import ConfigError, InputError

USE_COLUMNS: tuple[str, ...] = ("use_id", "lemma", "text", "start", "end", "source")
PAIR_COLUMNS: tuple[str, ...] = ("use_id_1", "use_id_2", "lemma", "label", "kind", "source")
#: Label kinds and the labels each allows.
GRADED, BINARY, UNLABELLED = "graded", "binary", "unlabelled"
LABEL_KINDS: tuple[str, ...] = (GRADED, BINARY, UNLABELLED)
GRADED_RANGE: tuple[float, float] = (1.0, 4.0)
#: The columns of :meth:`PairSet.counts`.
COUNT_COLUMNS: tuple[str, ...] = ("source", "lemmas", "uses", "pairs", "graded", "same", "different", "unlabelled")
#: POS tags stripped from the end of a lemma after ``_`` or ``.`` (DWUG ``_nn``/``_vb``, SemEval ``.n``/``.j``,
#: WordNet ``.a``/``.s``/``.r``, Penn Treebank and Universal tags).
POS_TAGS: frozenset[str] = frozenset(
    {"n", "v", "a", "j", "r", "s", "nn", "nns", "vb", "jj", "rb", "adj", "adv", "noun", "verb", "propn"}
)
_TAGGED = re.compile(r"(?P<lemma>.+?)[._](?P<tag>[A-Za-z]+)")
#: Separates the source name from the source's own id in ``use_id``.
ID_SEPARATOR = "#"
#: The default cap on the pairs of one lemma that a training source yields (``max_pairs_per_lemma``).
DEFAULT_MAX_PAIRS = 1000


def normalize_lemma(lemma: str) -> str:
    """The lemma as wsd compares it: Unicode NFC, a trailing POS tag removed, lower case, spaces for ``_``.

    A tag is removed only when it follows ``_`` or ``.`` at the end and is one of :data:`POS_TAGS`, so
    ``part_nn``, ``part.n`` and ``Part`` all give ``part`` while ``ice_cream`` gives ``ice cream``.

    Parameters
    ----------
    lemma : str
        A lemma as a dataset spells it (``afternoon_nn``, ``add.v``, ``замок``).

    Returns
    -------
    str
        The normalised lemma.

    Raises
    ------
    InputError
        When nothing is left (an empty or blank lemma).

    Examples
    --------
    >>> [normalize_lemma(x) for x in ("part_nn", "part.n", "Part", "ice_cream", "Add.V")]
    ['part', 'part', 'part', 'ice cream', 'add']
    """
    text = unicodedata.normalize("NFC", str(lemma)).strip()
    tagged = _TAGGED.fullmatch(text)
    if tagged and tagged["tag"].lower() in POS_TAGS:
        text = tagged["lemma"]
    text = " ".join(text.replace("_", " ").split()).lower()
    if not text:
        raise InputError(f"lemma {lemma!r} is empty")
    return text


def use_id(source: str, raw: object) -> str:
    """The pair-set-wide id of a use: the source name, ``#``, the source's own id.

    Parameters
    ----------
    source : str
        The source name.
    raw : object
        The id the source gives the use.

    Returns
    -------
    str

    Examples
    --------
    >>> use_id("wug:dwug_en", "fic_1831-5")
    'wug:dwug_en#fic_1831-5'
    """
    return f"{source}{ID_SEPARATOR}{raw}"


def lemma_uses(source: str, lemma: str, ids: Sequence[str] | np.ndarray, uses: pd.DataFrame) -> pd.DataFrame:
    """The rows of a pair set's use table (:data:`USE_COLUMNS`) for some uses of one lemma.

    Parameters
    ----------
    source : str
        The source name.
    lemma : str
        The normalised lemma.
    ids : sequence of str
        The uses' :func:`use_id`, row-aligned with ``uses``.
    uses : DataFrame
        The uses' ``text``, ``start`` and ``end``.

    Returns
    -------
    DataFrame
        One row per use, in the order of ``ids``.

    Examples
    --------
    >>> lemma_uses("s", "bank", ["s#1"], pd.DataFrame({"text": ["a bank"], "start": [2], "end": [6]})).shape
    (1, 6)
    """
    return pd.DataFrame(
        {
            "use_id": ids,
            "lemma": lemma,
            "text": uses["text"].to_numpy(),
            "start": uses["start"].to_numpy(),
            "end": uses["end"].to_numpy(),
            "source": source,
        }
    )


def lemma_pairs(
    source: str,
    lemma: str,
    first: Sequence[str] | np.ndarray,
    second: Sequence[str] | np.ndarray,
    label: float | np.ndarray,
    kind: str,
) -> pd.DataFrame:
    """The rows of a pair set's pair table (:data:`PAIR_COLUMNS`) for some pairs of one lemma's uses.

    Parameters
    ----------
    source, lemma : str
        As :func:`lemma_uses`.
    first, second : sequence of str
        The :func:`use_id` of each pair's two uses.
    label : float or ndarray
        Each pair's label (NaN for unlabelled pairs).
    kind : str
        One of :data:`LABEL_KINDS`.

    Returns
    -------
    DataFrame
        One row per pair, in the order of ``first`` and ``second``.

    Examples
    --------
    >>> lemma_pairs("s", "bank", ["s#1"], ["s#2"], np.array([1.0]), BINARY).shape
    (1, 6)
    """
    return pd.DataFrame(
        {"use_id_1": first, "use_id_2": second, "lemma": lemma, "label": label, "kind": kind, "source": source}
    )


def ordered(first: Iterable[str], second: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
    """Two id columns ordered element-wise, so that an unordered pair has one spelling.

    Parameters
    ----------
    first, second : iterable of str
        The ids of each pair's two sides.

    Returns
    -------
    (ndarray, ndarray)
        The smaller and the larger id of each pair.

    Examples
    --------
    >>> [x.tolist() for x in ordered(["b", "a"], ["a", "c"])]
    [['a', 'a'], ['b', 'c']]
    """
    a = np.asarray(list(first), dtype=str)
    b = np.asarray(list(second), dtype=str)
    return np.where(a <= b, a, b), np.where(a <= b, b, a)


def _empty(columns: Sequence[str]) -> pd.DataFrame:
    return pd.DataFrame({name: pd.Series(dtype=_DTYPES[name]) for name in columns})


_DTYPES = {
    "use_id": "object",
    "lemma": "object",
    "text": "object",
    "start": "int64",
    "end": "int64",
    "source": "object",
    "use_id_1": "object",
    "use_id_2": "object",
    "label": "float64",
    "kind": "object",
}


def _first(frame: pd.DataFrame, bad: np.ndarray | pd.Series, what: str) -> InputError:
    row = frame.loc[np.asarray(bad)].iloc[0]
    ident = row.get("use_id", None) or f"{row.get('use_id_1')} / {row.get('use_id_2')}"
    return InputError(f"pair set: {what} (first: {ident} of source {row['source']!r})")


@dataclass(frozen=True)
class PairSet:
    """Uses and labelled pairs of uses from one or more training sources (see the module docstring).

    Parameters
    ----------
    uses : pandas.DataFrame
        ``use_id, lemma, text, start, end, source``; ``use_id`` unique.
    pairs : pandas.DataFrame
        ``use_id_1, use_id_2, lemma, label, kind, source``; both ids in ``uses``, of the pair's lemma and
        source; no pair twice; graded labels in 1–4, binary labels 0 or 1.
    stats : dict of str to dict of str to int
        Source name → the reader's counts.

    Raises
    ------
    InputError
        When the tables break one of the rules above (the message names the first bad row).

    Examples
    --------
    >>> uses = pd.DataFrame({"use_id": ["s#1", "s#2"], "lemma": ["bank", "bank"],
    ...                      "text": ["a bank", "the bank"], "start": [2, 4], "end": [6, 8], "source": ["s", "s"]})
    >>> pairs = pd.DataFrame({"use_id_1": ["s#1"], "use_id_2": ["s#2"], "lemma": ["bank"], "label": [1.0],
    ...                       "kind": ["binary"], "source": ["s"]})
    >>> PairSet(uses, pairs).counts()[["source", "lemmas", "uses", "pairs"]].to_dict("records")
    [{'source': 's', 'lemmas': 1, 'uses': 2, 'pairs': 1}]
    """

    uses: pd.DataFrame
    pairs: pd.DataFrame
    stats: dict[str, dict[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for frame, columns, what in ((self.uses, USE_COLUMNS, "uses"), (self.pairs, PAIR_COLUMNS, "pairs")):
            missing = [name for name in columns if name not in frame]
            if missing:
                raise InputError(f"pair set: the {what} table lacks {', '.join(missing)}")
        uses = self.uses[list(USE_COLUMNS)].astype({name: _DTYPES[name] for name in USE_COLUMNS})
        pairs = self.pairs[list(PAIR_COLUMNS)].astype({name: _DTYPES[name] for name in PAIR_COLUMNS})
        object.__setattr__(self, "uses", uses.reset_index(drop=True))
        object.__setattr__(self, "pairs", pairs.reset_index(drop=True))
        self._validate()

    def _validate(self) -> None:
        uses, pairs = self.uses, self.pairs
        if uses["use_id"].duplicated().any():
            raise _first(uses, uses["use_id"].duplicated(), "use id given twice (the same source read twice?)")
        lengths = uses["text"].str.len()
        bad_span = ~((uses["start"] >= 0) & (uses["start"] < uses["end"]) & (uses["end"] <= lengths))
        if bad_span.any():
            raise _first(uses, bad_span, "target span outside the text")
        by_id = uses.set_index("use_id")
        for side in ("use_id_1", "use_id_2"):
            known = pairs[side].isin(by_id.index)
            if not known.all():
                raise _first(pairs, ~known, f"{side} is not a use of the set")
            other = by_id.loc[pairs[side], ["lemma", "source"]].to_numpy()
            wrong = (other[:, 0] != pairs["lemma"].to_numpy()) | (other[:, 1] != pairs["source"].to_numpy())
            if wrong.any():
                raise _first(pairs, wrong, f"{side} is a use of another lemma or source than its pair")
        if (pairs["use_id_1"] == pairs["use_id_2"]).any():
            raise _first(pairs, pairs["use_id_1"] == pairs["use_id_2"], "a pair of a use with itself")
        low, high = ordered(pairs["use_id_1"], pairs["use_id_2"])
        twice = pd.DataFrame({"a": low, "b": high}).duplicated().to_numpy()
        if twice.any():
            raise _first(pairs, twice, "a pair given twice")
        kind_ok = pairs["kind"].isin(LABEL_KINDS)
        if not kind_ok.all():
            raise _first(pairs, ~kind_ok, f"label kind not one of {', '.join(LABEL_KINDS)}")
        graded, binary = pairs["kind"] == GRADED, pairs["kind"] == BINARY
        label = pairs["label"]
        unlabelled = ~graded & ~binary
        bad = (
            (graded & ~label.between(*GRADED_RANGE)) | (binary & ~label.isin([0.0, 1.0])) | (unlabelled & label.notna())
        )
        if bad.any():
            raise _first(pairs, bad, "label out of range (graded 1–4, binary 0 or 1, unlabelled none)")

    @property
    def sources(self) -> list[str]:
        """The source names, in order of first appearance among the uses."""
        return list(dict.fromkeys(self.uses["source"]))

    @property
    def lemmas(self) -> list[str]:
        """The normalised lemmas that have at least one labelled pair, sorted."""
        return sorted(set(self.pairs["lemma"]))

    def counts(self) -> pd.DataFrame:
        """Counts per source: lemmas, uses, pairs, and pairs per label kind and label.

        Returns
        -------
        pandas.DataFrame
            One row per source: ``source, lemmas, uses, pairs, graded, same, different, unlabelled``
            (``same`` and ``different`` count the binary pairs labelled 1 and 0).
        """
        rows = []
        for source in self.sources:
            pairs = self.pairs.loc[self.pairs["source"] == source]
            binary = pairs["kind"] == BINARY
            unlabelled = pairs["kind"] == UNLABELLED
            rows.append(
                {
                    "source": source,
                    "lemmas": int(pairs["lemma"].nunique()),
                    "uses": int((self.uses["source"] == source).sum()),
                    "pairs": len(pairs),
                    "graded": int((pairs["kind"] == GRADED).sum()),
                    "same": int((binary & (pairs["label"] == 1)).sum()),
                    "different": int((binary & (pairs["label"] == 0)).sum()),
                    "unlabelled": int(unlabelled.sum()),
                }
            )
        return pd.DataFrame(rows, columns=[*COUNT_COLUMNS])

    def lemma_counts(self) -> pd.DataFrame:
        """Uses and pairs per source and lemma.

        Returns
        -------
        pandas.DataFrame
            ``source, lemma, uses, pairs``, sorted by source order and lemma.
        """
        uses = self.uses.groupby(["source", "lemma"], sort=False).size().rename("uses")
        pairs = self.pairs.groupby(["source", "lemma"], sort=False).size().rename("pairs")
        table = pd.concat([uses, pairs], axis=1).fillna(0).astype("int64").reset_index()
        order = {source: index for index, source in enumerate(self.sources)}
        return table.sort_values(
            ["source", "lemma"], key=lambda c: c.map(order) if c.name == "source" else c
        ).reset_index(drop=True)

    def wide(self) -> pd.DataFrame:
        """One row per pair with both uses' texts and spans.

        Returns
        -------
        pandas.DataFrame
            ``lemma, use_id_1, text_1, start_1, end_1, use_id_2, text_2, start_2, end_2, label, kind, source``.
        """
        by_id = self.uses.set_index("use_id")[["text", "start", "end"]]
        table = self.pairs.copy()
        for side in ("1", "2"):
            sides = by_id.loc[table[f"use_id_{side}"]].reset_index(drop=True)
            for name in ("text", "start", "end"):
                table[f"{name}_{side}"] = sides[name].to_numpy()
        columns = ["lemma"]
        columns += [f"{name}_{side}" for side in ("1", "2") for name in ("use_id", "text", "start", "end")]
        return table[[*columns, "label", "kind", "source"]]

    def select(self, keep: np.ndarray | pd.Series) -> PairSet:
        """The pair set with only the pairs where ``keep`` is true, and the uses those pairs use.

        Parameters
        ----------
        keep : array of bool
            One value per row of :attr:`pairs`.

        Returns
        -------
        PairSet
        """
        pairs = self.pairs.loc[np.asarray(keep, dtype=bool)]
        used = set(pairs["use_id_1"]) | set(pairs["use_id_2"])
        return PairSet(self.uses.loc[self.uses["use_id"].isin(used)], pairs, dict(self.stats))

    def without_lemmas(self, lemmas: Iterable[str]) -> PairSet:
        """The pair set without the given lemmas (compared normalised), and without the uses left unpaired.

        Parameters
        ----------
        lemmas : iterable of str
            Lemmas in any spelling (``part_nn``, ``part.n``, ``part``).

        Returns
        -------
        PairSet
            Possibly empty; :func:`exclude_lemmas` is the checked version.
        """
        drop = {normalize_lemma(lemma) for lemma in lemmas}
        return self.select(~self.pairs["lemma"].isin(drop))

    def only_lemmas(self, lemmas: Iterable[str]) -> PairSet:
        """The pair set with only the given lemmas (compared normalised).

        Parameters
        ----------
        lemmas : iterable of str
            Lemmas in any spelling.

        Returns
        -------
        PairSet
        """
        keep = {normalize_lemma(lemma) for lemma in lemmas}
        return self.select(self.pairs["lemma"].isin(keep))

    def __len__(self) -> int:
        return len(self.pairs)


def empty_pairset() -> PairSet:
    """A pair set with no uses and no pairs.

    Returns
    -------
    PairSet

    Examples
    --------
    >>> len(empty_pairset())
    0
    """
    return PairSet(_empty(USE_COLUMNS), _empty(PAIR_COLUMNS))


def concat(pairsets: Iterable[PairSet]) -> PairSet:
    """One pair set from several (uses and pairs stacked, stats merged).

    Parameters
    ----------
    pairsets : iterable of PairSet
        Pair sets of different sources.

    Returns
    -------
    PairSet
        The uses and pairs of every set, in the order given, and the stats of every source.

    Raises
    ------
    InputError
        When a use id repeats (the same source given twice).

    Examples
    --------
    >>> len(concat([empty_pairset(), empty_pairset()]))
    0
    """
    items = list(pairsets)
    if not items:
        return empty_pairset()
    repeated = [s for i, item in enumerate(items) for s in item.stats if any(s in o.stats for o in items[:i])]
    if repeated:
        raise InputError(f"source {repeated[0]!r} is given twice")
    stats: dict[str, dict[str, int]] = {}
    for item in items:
        stats.update(item.stats)
    return PairSet(
        pd.concat([item.uses for item in items], ignore_index=True),
        pd.concat([item.pairs for item in items], ignore_index=True),
        stats,
    )


def exclude_lemmas(pairset: PairSet, lemmas: Iterable[str]) -> PairSet:
    """Drop lemmas from training (compared normalised); an error when nothing is left to train on.

    Parameters
    ----------
    pairset : PairSet
        The training pairs of every source.
    lemmas : iterable of str
        Lemmas to drop, in any spelling (``part_nn``, ``part.n``, ``part``).

    Returns
    -------
    PairSet
        The pairs of the other lemmas.

    Raises
    ------
    ConfigError
        When excluding leaves no pair in any source.

    Examples
    --------
    >>> texts = pd.DataFrame({"text": ["a bank", "the bank"], "start": [2, 4], "end": [6, 8]})
    >>> uses = lemma_uses("s", "bank", ["s#1", "s#2"], texts)
    >>> pairs = lemma_pairs("s", "bank", ["s#1"], ["s#2"], 1.0, BINARY)
    >>> len(exclude_lemmas(PairSet(uses, pairs), ["part_nn"]))
    1
    """
    drop = sorted({normalize_lemma(lemma) for lemma in lemmas})
    kept = pairset.without_lemmas(drop)
    if len(pairset) and not len(kept):
        shown = ", ".join(drop[:10]) + (f" and {len(drop) - 10} more" if len(drop) > 10 else "")
        raise ConfigError(
            f"excluding {len(drop)} lemma(s) ({shown}) leaves no pair to train on in any source "
            f"({', '.join(pairset.sources)})"
        )
    return kept


# ----------------------------------------------------------------------------------------------------------
# Pairs from sense labels (sense datasets, WordNet)


def check_pair_cap(max_pairs: int | None) -> None:
    """Refuse a cap on pairs per lemma below 1 (``None``, no cap, passes).

    Parameters
    ----------
    max_pairs : int or None
        The cap on pairs per lemma.

    Raises
    ------
    ConfigError
        When ``max_pairs`` is below 1.
    """
    if max_pairs is not None and max_pairs < 1:
        raise ConfigError(f"the cap on pairs per lemma must be at least 1, not {max_pairs}")


def sense_pairs(
    same: np.ndarray, group: str, *, max_pairs: int | None, random_state: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labelled pairs among the ``n`` uses of one lemma, from their sense agreement matrix.

    All ``n(n-1)/2`` pairs when there are at most ``max_pairs``; else a seeded sample of ``max_pairs``
    distinct pairs, balanced: up to half of them "same", the rest "different" (the kind that runs short
    leaves its share to the other).

    Parameters
    ----------
    same : ndarray of bool, shape (n, n)
        Whether uses ``i`` and ``j`` share a sense (symmetric; the diagonal is ignored).
    group : str
        The lemma (or lemma and POS); mixed into the seed, so each lemma's sample does not depend on the
        order the lemmas are read in.
    max_pairs : int or None
        The cap per lemma (``None``: no cap).
    random_state : int
        The seed.

    Returns
    -------
    (first, second, label)
        Index arrays into the uses (``first < second``, sorted) and float labels (1 same, 0 different).

    Raises
    ------
    ConfigError
        When ``max_pairs`` is below 1.

    Examples
    --------
    >>> senses = np.array(["a", "a", "b"])
    >>> i, j, y = sense_pairs(senses[:, None] == senses[None, :], "bank", max_pairs=None, random_state=0)
    >>> list(zip(i.tolist(), j.tolist(), y.tolist()))
    [(0, 1, 1.0), (0, 2, 0.0), (1, 2, 0.0)]
    """
    check_pair_cap(max_pairs)
    first, second = np.triu_indices(len(same), k=1)
    agree = np.asarray(same, dtype=bool)[first, second]
    if max_pairs is not None and len(first) > max_pairs:
        rng = np.random.default_rng([random_state, zlib.crc32(group.encode("utf-8"))])
        same_at, different_at = np.flatnonzero(agree), np.flatnonzero(~agree)
        n_same = min(len(same_at), max_pairs // 2)
        n_different = min(len(different_at), max_pairs - n_same)
        n_same = min(len(same_at), max_pairs - n_different)
        chosen = np.concatenate(
            [rng.choice(same_at, n_same, replace=False), rng.choice(different_at, n_different, replace=False)]
        )
        chosen.sort()
        first, second, agree = first[chosen], second[chosen], agree[chosen]
    return first, second, agree.astype("float64")


__all__ = [
    "BINARY",
    "COUNT_COLUMNS",
    "DEFAULT_MAX_PAIRS",
    "GRADED",
    "LABEL_KINDS",
    "PAIR_COLUMNS",
    "POS_TAGS",
    "UNLABELLED",
    "USE_COLUMNS",
    "PairSet",
    "check_pair_cap",
    "concat",
    "empty_pairset",
    "exclude_lemmas",
    "normalize_lemma",
    "ordered",
    "sense_pairs",
    "use_id",
]
