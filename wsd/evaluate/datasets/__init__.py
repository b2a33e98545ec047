"""Readers for labelled sense datasets: each yields the occurrence table (plus a gold ``sense`` column).

Every reader returns a :class:`DatasetBundle` whose ``occurrences`` is the same table the corpus scanner
yields (see :mod:`wsd.occurrences`: ``id, target, form, text, start, end, doc_id, doc_start``) plus the gold
label column ``sense``: a string, ``label`` or — graded — whitespace-separated ``label/weight`` items exactly
as in the SemEval key format (``add%2:32:01::/4 add%2:30:00::/2``). For datasets the occurrence id is the
instance id, ``doc_id`` equals it and ``doc_start`` is 0. The ``sense`` column is present when at least one
loaded row has a gold label; unlabelled rows (test sets) then hold ``""``.

==============  ======================================  ===================================================
name            reader                                  ``target``
==============  ======================================  ===================================================
``semeval2013`` :mod:`.semeval2013` (Task 13, graded)   ``lemma.pos`` as in the key (``add.v``)
``semeval2010`` :mod:`.semeval2010` (Task 14)           ``lemma.pos`` as in the key (``access.n``)
``russe2018``   :mod:`.russe2018` (RUSSE 2018 WSI)      the Russian word (``замок``)
``generic``     :mod:`.generic` (TSV / JSONL)           the file's ``target`` field
``wug``         :mod:`.wug` (diachronic Word Usage       the word's folder name (``afternoon_nn``)
                Graphs: DWUG, NorDiaChange, RuSemShift)
==============  ======================================  ===================================================

>>> from wsd.evaluate.datasets import load_dataset
>>> bundle = load_dataset("semeval2013", "../shared/datasets")        # doctest: +SKIP
>>> bundle.occurrences[["id", "target", "form", "sense"]].head(1)    # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.io.textfiles import iter_lines
from wsd.occurrences import GOLD_COLUMN, REQUIRED_COLUMNS, metadata_column, validate_occurrences

#: Dataset name -> module that provides ``load(path, **options) -> DatasetBundle``.
READERS: dict[str, str] = {
    "semeval2013": "wsd.evaluate.datasets.semeval2013",
    "semeval2010": "wsd.evaluate.datasets.semeval2010",
    "russe2018": "wsd.evaluate.datasets.russe2018",
    "generic": "wsd.evaluate.datasets.generic",
    "wug": "wsd.evaluate.datasets.wug",
}


@dataclass
class DatasetBundle:
    """A loaded dataset: the occurrence table with gold senses, and what is known about it.

    Attributes
    ----------
    name : str
        Registry name (``"semeval2013"``, ...) or, for the generic format, the file name.
    occurrences : pandas.DataFrame
        The occurrence table (:mod:`wsd.occurrences`) plus ``sense`` where gold labels exist.
    gold : tuple of Path
        The files the gold labels were read from (key files; the data files themselves for RUSSE and
        the generic format; empty when nothing is labelled).
    subsets : dict of str to frozenset of str
        Named subsets as sets of occurrence **ids**: ``nouns``/``verbs``/``adjectives`` (SemEval), ``spoken``/
        ``written`` (SemEval-2013), one per loaded file (RUSSE ``wiki-wiki/train``).
    stats : dict of str to int
        Counts of what the reader did (instances read, dropped, spans repaired, ...); see each reader.
    gold_change : pandas.DataFrame, optional
        Gold change scores per target (WUG datasets: ``target``, ``change_graded``, ``change_binary``, ...);
        ``None`` for sense datasets.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"id": ["a"], "target": ["bank"], "form": ["bank"], "text": ["a bank"], "start": [2],
    ...                   "end": [6], "doc_id": ["a"], "doc_start": [0], "sense": ["s1"]})
    >>> DatasetBundle("demo", t, subsets={"all": frozenset({"a"})}).select("all")["form"].tolist()
    ['bank']
    """

    name: str
    occurrences: pd.DataFrame
    gold: tuple[Path, ...] = ()
    subsets: dict[str, frozenset[str]] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)
    gold_change: pd.DataFrame | None = None

    @property
    def labelled(self) -> bool:
        """Whether the table has a gold ``sense`` column with at least one label."""
        return GOLD_COLUMN in self.occurrences and bool(self.occurrences[GOLD_COLUMN].astype(bool).any())

    def select(self, subset: str) -> pd.DataFrame:
        """The occurrences of one named subset (rows in table order).

        Parameters
        ----------
        subset : str
            A name of :attr:`subsets` (``"nouns"``, ``"wiki-wiki/train"``, ...).

        Returns
        -------
        pandas.DataFrame
            The subset's rows of :attr:`occurrences`, with a fresh 0..n-1 index.

        Raises
        ------
        ConfigError
            For an unknown subset name (the message lists the known ones).
        """
        if subset not in self.subsets:
            known = ", ".join(sorted(self.subsets)) or "none"
            raise ConfigError(f"dataset {self.name!r} has no subset {subset!r} (subsets: {known})")
        ids = self.subsets[subset]
        return self.occurrences.loc[self.occurrences["id"].isin(ids)].reset_index(drop=True)


def available_datasets() -> tuple[str, ...]:
    """Names accepted by :func:`load_dataset`.

    Returns
    -------
    tuple of str
        The registered dataset names, in registry order.

    Examples
    --------
    >>> available_datasets()
    ('semeval2013', 'semeval2010', 'russe2018', 'generic', 'wug')
    """
    return tuple(READERS)


def load_dataset(name: str, path: str | Path, **options: object) -> DatasetBundle:
    """Load a labelled dataset by registry name.

    Parameters
    ----------
    name : str
        One of :func:`available_datasets`.
    path : str or Path
        The dataset's folder (``.../semeval2013-task13``) or the folder that holds it under its usual
        name (``.../datasets``); for ``generic``, the TSV or JSONL file.
    **options
        Reader options, e.g. ``key="all.singlesense.key"`` (SemEval-2013), ``context="sentence"``
        (SemEval-2010), ``splits=["wiki-wiki", "bts-rnc/test"]`` (RUSSE). See each reader's ``load``.

    Returns
    -------
    DatasetBundle
        The occurrence table with gold senses, the gold files, named subsets and the reader's counts.

    Raises
    ------
    ConfigError
        Unknown dataset name or option.
    InputError
        Missing or malformed files.

    Examples
    --------
    >>> load_dataset("semeval2013", "../shared/datasets").stats["loaded"]   # doctest: +SKIP
    4664
    """
    if name not in READERS:
        raise ConfigError(f"unknown dataset {name!r}; choose one of {', '.join(READERS)}")
    load = importlib.import_module(READERS[name]).load
    accepted = [p for p in inspect.signature(load).parameters if p != "path"]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise ConfigError(
            f"dataset {name!r} has no option {', '.join(map(repr, unknown))} (options: {', '.join(accepted)})"
        )
    return load(path, **options)


# ----------------------------------------------------------------------------------------------------------
# Helpers shared by the readers (private to this package).


def _dataset_root(path: str | Path, folder: str, marker: str) -> Path:
    """The dataset folder: ``path`` itself when it holds ``marker``, else ``path/folder``."""
    path = Path(path).expanduser()
    for candidate in (path, path / folder):
        if (candidate / marker).exists():
            return candidate
    raise InputError(f"{path}: not a {folder} folder (expected {marker} in it or in {folder}/ under it)")


def _read_key(path: Path) -> dict[str, tuple[str, str]]:
    """Read a SemEval key file: ``target instance_id sense[/weight] ...`` → {id: (target, senses)}."""
    if not path.is_file():
        raise InputError(f"{path}: gold key file not found")
    key: dict[str, tuple[str, str]] = {}
    for number, line in iter_lines(path, "gold key file", universal_newlines=True):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 3:
            raise InputError(f"{path}:{number}: expected 'target instance_id sense ...', got {line.strip()!r}")
        if fields[1] in key:
            raise InputError(f"{path}:{number}: instance {fields[1]!r} appears more than once")
        key[fields[1]] = (fields[0], " ".join(fields[2:]))
    return key


def _build_table(
    rows: Iterable[dict[str, object]], where: str, labelled: bool | None = None, extra: Sequence[str] = ()
) -> pd.DataFrame:
    """Occurrence table from row dicts (``doc_id`` = ``id`` and ``doc_start`` = 0 unless given), validated.

    ``labelled``: keep the ``sense`` column (True), drop it (False), or keep it iff any label is non-empty.
    ``extra``: metadata columns to keep after the required ones, typed by the rule every metadata column
    follows (:func:`wsd.occurrences.metadata_column`: integral values ``int64``, ``""`` missing, ...).
    """
    frame = pd.DataFrame(list(rows))
    if frame.empty:
        frame = pd.DataFrame(columns=[*REQUIRED_COLUMNS, GOLD_COLUMN])
    if "doc_id" not in frame:
        frame["doc_id"] = frame["id"]
    if "doc_start" not in frame:
        frame["doc_start"] = 0
    has_sense = GOLD_COLUMN in frame
    if has_sense:
        frame[GOLD_COLUMN] = frame[GOLD_COLUMN].fillna("").astype(str)
        if labelled is None:
            labelled = bool(frame[GOLD_COLUMN].astype(bool).any())
    for name in extra:
        frame[name] = metadata_column(frame[name] if name in frame else [None] * len(frame), index=frame.index)
    columns = [*REQUIRED_COLUMNS, *([GOLD_COLUMN] if has_sense and labelled else []), *extra]
    return validate_occurrences(frame[columns], where=where)


__all__ = ["READERS", "DatasetBundle", "available_datasets", "load_dataset"]
