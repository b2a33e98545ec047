"""Training pairs from a Word Usage Graph folder (``wug:DIR``): the human relatedness judgments of use pairs.

The uses come from the WUG dataset reader (:mod:`wsd.evaluate.datasets.wug`); the judgments from
``data/<word>/judgments.csv`` (or ``.tsv``): TAB-separated, header, quoting off, with at least the columns
``identifier1, identifier2, judgment`` (DWUG EN, NorDiaChange and RuSemShift also have ``annotator``,
``comment``, ``lemma``). A judgment is 1 (unrelated) … 4 (identical) or 0 ("cannot decide").

**The label of a pair** is the median of its judgments after dropping the 0s (every judgment of the pair,
in either order of the two ids, by every annotator); a pair judged only 0 gets no label and is left out.
Labels are graded 1–4 and may be halves (the median of 2 and 3 is 2.5).

Strict: a word folder without a judgments file, an empty judgments file, a missing column, a judgment that is
not a number from 0 to 4, an id that is not a use of that word, or a use judged against itself is an
:class:`~wsd.errors.InputError` naming the file and line.

``stats``: ``words``, ``uses`` (of the dataset), ``judgments``, ``zero_judgments``, ``judged_pairs``
(distinct pairs judged), ``undecided_pairs`` (judged only 0), ``pairs`` (labelled), ``paired_uses`` (uses in a
labelled pair).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from wsd.errors import InputError
from wsd.evaluate.datasets import wug as wug_dataset
from wsd.tune.pairs import GRADED, PairSet, lemma_pairs, lemma_uses, normalize_lemma, ordered, use_id

JUDGMENT_FIELDS = ("identifier1", "identifier2", "judgment")
#: "Cannot decide": not a point of the 1–4 scale, dropped before the median.
UNDECIDED = 0.0
JUDGMENT_RANGE = (0.0, 4.0)


def judgments_file(folder: Path) -> Path:
    """The judgments file of one word folder (``judgments.csv`` or ``judgments.tsv``).

    Parameters
    ----------
    folder : Path
        ``data/<word>`` of a WUG dataset.

    Returns
    -------
    Path
        The one that exists.

    Raises
    ------
    InputError
        When there is none, or both.
    """
    found = [folder / f"judgments{suffix}" for suffix in wug_dataset.SUFFIXES]
    found = [path for path in found if path.is_file()]
    if len(found) > 1:
        raise InputError(f"{folder}: both {found[0].name} and {found[1].name}; keep one judgments file")
    if not found:
        raise InputError(f"{folder}: no judgments.csv or judgments.tsv (wug: training needs the pairwise judgments)")
    return found[0]


def read_judgments(file: Path, uses: set[str]) -> pd.DataFrame:
    """The judgments of one word: ``identifier1, identifier2, judgment`` (float), ids checked against ``uses``.

    Parameters
    ----------
    file : Path
        The judgments file.
    uses : set of str
        The ids of the word's uses.

    Returns
    -------
    pandas.DataFrame
        One row per judgment, in file order.

    Raises
    ------
    InputError
        When the file is empty, lacks a column, or a row is malformed (naming file and line).
    """
    rows = []
    for number, row in wug_dataset.read_tsv(file, "WUG judgments file"):
        where = f"{file}:{number}"
        missing = [name for name in JUDGMENT_FIELDS if name not in row]
        if missing:
            raise InputError(
                f"{file}: missing column(s) {', '.join(missing)} (judgments need {', '.join(JUDGMENT_FIELDS)})"
            )
        first, second, value = row["identifier1"], row["identifier2"], row["judgment"].strip()
        try:
            judgment = float(value)
        except ValueError:
            raise InputError(f"{where}: judgment {value!r} is not a number") from None
        if not JUDGMENT_RANGE[0] <= judgment <= JUDGMENT_RANGE[1]:
            raise InputError(f"{where}: judgment {value} is not on the scale 0 (cannot decide), 1–4")
        for ident in (first, second):
            if ident not in uses:
                raise InputError(f"{where}: {ident!r} is not a use of this word (not in its uses file)")
        if first == second:
            raise InputError(f"{where}: use {first!r} is judged against itself")
        rows.append((first, second, judgment))
    if not rows:
        raise InputError(f"{file}: empty WUG judgments file (a header and no judgments)")
    return pd.DataFrame(rows, columns=list(JUDGMENT_FIELDS))


def median_labels(judgments: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Each unordered pair's median judgment without the 0s; pairs judged only 0 left out.

    Parameters
    ----------
    judgments : pandas.DataFrame
        ``identifier1, identifier2, judgment``.

    Returns
    -------
    (pandas.DataFrame, int)
        ``identifier1, identifier2, label`` (ids ordered so ``identifier1 < identifier2``, rows sorted) and
        the number of pairs judged only 0.

    Examples
    --------
    >>> j = pd.DataFrame({"identifier1": ["a", "b", "a", "c"], "identifier2": ["b", "a", "c", "a"],
    ...                   "judgment": [2.0, 3.0, 0.0, 0.0]})
    >>> labels, undecided = median_labels(j)
    >>> labels.to_dict("records"), undecided
    ([{'identifier1': 'a', 'identifier2': 'b', 'label': 2.5}], 1)
    """
    first, second = ordered(judgments["identifier1"], judgments["identifier2"])
    table = pd.DataFrame(
        {
            "identifier1": first,
            "identifier2": second,
            "judgment": judgments["judgment"].to_numpy(dtype="float64"),
        }
    )
    judged = table[["identifier1", "identifier2"]].drop_duplicates()
    decided = table.loc[table["judgment"] != UNDECIDED]
    labels = decided.groupby(["identifier1", "identifier2"], sort=True)["judgment"].median().rename("label")
    return labels.reset_index(), len(judged) - len(labels)


def load(path: str | Path, *, name: str | None = None) -> PairSet:
    """Read a WUG folder's judged use pairs as graded training pairs.

    Parameters
    ----------
    path : str or Path
        The WUG dataset folder (``.../lscd/dwug_en``) or a folder holding exactly one (RuSemShift's
        ``rusemshift_1`` holds ``DWUG/``).
    name : str, optional
        The source name (default ``wug:<path>``).

    Returns
    -------
    PairSet
        Graded pairs (labels 1–4), lemmas from the word folders' names, normalised.

    Raises
    ------
    InputError
        As the WUG reader, and for missing, empty or malformed judgments (see the module docstring).

    Examples
    --------
    >>> pairs = load("../shared/datasets/lscd/dwug_en")         # doctest: +SKIP
    >>> pairs.counts()[["lemmas", "pairs"]]                     # doctest: +SKIP
    """
    name = name or f"wug:{path}"
    root = wug_dataset.dataset_folder(path)
    occurrences = wug_dataset.load(root).occurrences
    stats = {"words": 0, "uses": len(occurrences), "judgments": 0, "zero_judgments": 0, "judged_pairs": 0}
    stats["undecided_pairs"] = 0
    use_frames, pair_frames = [], []
    for word, word_uses in occurrences.groupby("target", sort=True):
        judgments = read_judgments(judgments_file(root / "data" / str(word)), set(word_uses["id"].astype(str)))
        labels, undecided = median_labels(judgments)
        lemma = normalize_lemma(str(word))
        stats["words"] += 1
        stats["judgments"] += len(judgments)
        stats["zero_judgments"] += int((judgments["judgment"] == UNDECIDED).sum())
        stats["judged_pairs"] += len(labels) + undecided
        stats["undecided_pairs"] += undecided
        paired = set(labels["identifier1"]) | set(labels["identifier2"])
        kept = word_uses.loc[word_uses["id"].isin(paired)]
        use_frames.append(lemma_uses(name, lemma, [use_id(name, ident) for ident in kept["id"]], kept))
        first = [use_id(name, ident) for ident in labels["identifier1"]]
        second = [use_id(name, ident) for ident in labels["identifier2"]]
        pair_frames.append(lemma_pairs(name, lemma, first, second, labels["label"].to_numpy(), GRADED))
    uses = pd.concat(use_frames, ignore_index=True)
    pairs = pd.concat(pair_frames, ignore_index=True)
    stats["pairs"] = len(pairs)
    stats["paired_uses"] = len(uses)
    return PairSet(uses, pairs, {name: stats})


def lemmas(path: str | Path) -> set[str]:
    """The normalised lemmas of a WUG folder (its word folders; judgments are not needed).

    Parameters
    ----------
    path : str or Path
        As :func:`load`.

    Returns
    -------
    set of str
    """
    root = wug_dataset.dataset_folder(path)
    return {normalize_lemma(folder.name) for folder in (root / "data").iterdir() if folder.is_dir()}
