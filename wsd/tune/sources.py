"""Training sources by spec: ``KIND:PATH`` → a :class:`~wsd.tune.pairs.PairSet`, and the lemmas of a source.

==================  ====================================================  =======================================
kind                reader                                                labels
==================  ====================================================  =======================================
``wug``             :mod:`wsd.tune.wug` (a WUG folder's judgments)        graded 1–4 (pair medians, 0s dropped)
``wic``             :mod:`wsd.tune.wic` (WiC, XL-WiC, MCL-WiC, AM2iCo      binary (gold T/F)
                    file, or a folder of them)
``semeval2013``     :mod:`wsd.tune.senses` (gold sense keys)               binary (same top sense or not)
``semeval2010``     :mod:`wsd.tune.senses`                                 binary
``russe2018``       :mod:`wsd.tune.senses`                                 binary
``generic``         :mod:`wsd.tune.senses` (the generic TSV/JSONL file)    binary
``wordnet``         :mod:`wsd.tune.wordnet` (the WordNet 3.0 database)     binary (same synset or not)
``uses``            :mod:`wsd.tune.usages` (a generic-format file of uses)  none: ``--teacher`` labels them
==================  ====================================================  =======================================

The source's name (``PairSet.uses["source"]``) is the spec as given.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from wsd.errors import ConfigError, InputError
from wsd.tune import senses, usages, wic, wordnet, wug
from wsd.tune.pairs import DEFAULT_MAX_PAIRS, PairSet, concat, exclude_lemmas

#: Every source kind, in the order of the table above.
SOURCE_KINDS: tuple[str, ...] = ("wug", "wic", *senses.SENSE_DATASETS, "wordnet", "uses")


def parse_source(spec: str) -> tuple[str, Path]:
    """Split ``KIND:PATH`` into the kind and the path, checking the kind and that the path exists.

    Parameters
    ----------
    spec : str
        ``wug:../shared/datasets/lscd/dwug_en``, ``wic:train.data.txt``, ...

    Returns
    -------
    (str, Path)

    Raises
    ------
    ConfigError
        For a spec without ``:`` or with an unknown kind.
    InputError
        When the path does not exist.

    Examples
    --------
    >>> parse_source("wug:.")
    ('wug', PosixPath('.'))
    """
    kind, colon, path = str(spec).partition(":")
    if not colon or not path:
        raise ConfigError(f"training source {spec!r} is not KIND:PATH (kinds: {', '.join(SOURCE_KINDS)})")
    if kind not in SOURCE_KINDS:
        raise ConfigError(f"unknown training source kind {kind!r} in {spec!r}; choose one of {', '.join(SOURCE_KINDS)}")
    location = Path(path).expanduser()
    if not location.exists():
        raise InputError(f"training source {spec!r}: {location} not found")
    return kind, location


def check_distinct_sources(specs: Iterable[str], option: str = "training source") -> None:
    """Refuse a source given twice: the same file (any kind), the same folder (same kind), or one inside a wic: folder.

    Paths are compared resolved (:func:`os.path.realpath`: ``..``, ``.`` and links followed), so
    ``wug:data/wug`` and ``wug:other/../data/wug`` or a link to it are one source whose pairs would count twice.
    A folder under two kinds is two datasets (``semeval2013:DIR`` and ``semeval2010:DIR`` read different files
    of it); a file is the same data whatever kind reads it. A ``wic:`` folder reads every labelled file in it, so
    a file or folder inside it, given as well under any spelling, is refused too.

    Parameters
    ----------
    specs : iterable of str
        ``KIND:PATH`` specs (each checked by :func:`parse_source`).
    option : str
        What names them in the message (``--train``).

    Raises
    ------
    InputError
        Naming the second spelling and the first, or as :func:`parse_source`.
    ConfigError
        As :func:`parse_source`.

    Examples
    --------
    >>> check_distinct_sources(["wug:.", "wordnet:."])
    >>> try:
    ...     check_distinct_sources(["wug:.", "wug:./"])
    ... except InputError as error:
    ...     print(str(error).split(" (")[0])
    training source wug:./ is the same data as wug:.
    """
    seen: dict[tuple[str, str], str] = {}
    for spec in specs:
        kind, path = parse_source(spec)
        resolved = os.path.realpath(path)
        key = ("", resolved) if not os.path.isdir(resolved) else (kind, resolved)
        if key in seen:
            raise InputError(f"{option} {spec} is the same data as {seen[key]} ({resolved}); give each source once")
        seen[key] = str(spec)
    # a wic: folder reads every labelled file in it: a file inside it given as well would count twice
    folders = {resolved: spec for (kind, resolved), spec in seen.items() if kind == "wic"}
    for (_, resolved), spec in seen.items():
        inside = next((folders[f] for f in folders if f != resolved and Path(f) in Path(resolved).parents), None)
        if inside is not None:
            raise InputError(
                f"{option} {spec} lies inside {inside}, which reads every labelled file in it ({resolved}); "
                "give the folder or its files, not both"
            )


def read_source(spec: str, *, max_pairs_per_lemma: int | None = DEFAULT_MAX_PAIRS, random_state: int = 0) -> PairSet:
    """Read one training source.

    Parameters
    ----------
    spec : str
        ``KIND:PATH`` (kinds: :data:`SOURCE_KINDS`).
    max_pairs_per_lemma : int or None
        The cap on sampled pairs per lemma for sense-labelled sources (sense datasets, WordNet) and unlabelled
        uses (whose uses are sampled down so that all their pairs fit it); WUG and WiC pairs are taken as they are.
    random_state : int
        Seed of that sampling.

    Returns
    -------
    PairSet
        Named by ``spec``.

    Raises
    ------
    ConfigError
        For a malformed spec or an unknown kind.
    InputError
        For a missing path and anything the reader refuses.

    Examples
    --------
    >>> read_source("wug:../shared/datasets/lscd/dwug_en").counts()     # doctest: +SKIP
    """
    kind, path = parse_source(spec)
    if kind == "wug":
        return wug.load(path, name=spec)
    if kind == "wic":
        return wic.load(path, name=spec)
    if kind == "wordnet":
        return wordnet.load(path, max_pairs_per_lemma=max_pairs_per_lemma, random_state=random_state, name=spec)
    if kind == "uses":
        return usages.load(path, max_pairs_per_lemma=max_pairs_per_lemma, random_state=random_state, name=spec)
    return senses.load(kind, path, max_pairs_per_lemma=max_pairs_per_lemma, random_state=random_state, name=spec)


def read_sources(
    specs: Iterable[str], *, max_pairs_per_lemma: int | None = DEFAULT_MAX_PAIRS, random_state: int = 0
) -> PairSet:
    """Read several training sources into one pair set.

    Parameters
    ----------
    specs : iterable of str
        ``KIND:PATH`` specs.
    max_pairs_per_lemma, random_state
        As :func:`read_source`.

    Returns
    -------
    PairSet
        The uses and pairs of every source, in the order of ``specs``.

    Raises
    ------
    ConfigError
        For no spec, a malformed spec or an unknown kind.
    InputError
        As :func:`read_source`; when a source is given twice, under any spelling
        (:func:`check_distinct_sources`).
    """
    specs = list(specs)
    if not specs:
        raise ConfigError("no training source (give at least one KIND:PATH)")
    check_distinct_sources(specs)
    return concat(read_source(s, max_pairs_per_lemma=max_pairs_per_lemma, random_state=random_state) for s in specs)


def source_lemmas(spec: str) -> set[str]:
    """Every normalised lemma of a dataset, for ``--exclude KIND:PATH`` (gold labels and judgments not needed).

    Parameters
    ----------
    spec : str
        ``KIND:PATH``: a WUG folder (its words), a WiC file or folder (its targets; English for cross-lingual
        pairs), a sense dataset (its targets),
        WordNet (all its words), a file of uses (its targets).

    Returns
    -------
    set of str

    Raises
    ------
    ConfigError
        For a malformed spec or an unknown kind.
    InputError
        For a missing path or unreadable data.

    Examples
    --------
    >>> sorted(source_lemmas("semeval2013:../shared/datasets"))[:2]      # doctest: +SKIP
    ['add', 'appear']
    """
    kind, path = parse_source(spec)
    if kind == "wug":
        return wug.lemmas(path)
    if kind == "wic":
        return wic.lemmas(path)
    if kind == "wordnet":
        return wordnet.lemmas(path)
    if kind == "uses":
        return usages.lemmas(path)
    return senses.lemmas(kind, path)


def exclude_sources(pairset: PairSet, specs: Iterable[str]) -> PairSet:
    """Drop every lemma of the given datasets from training (``--exclude KIND:PATH``).

    Parameters
    ----------
    pairset : PairSet
        The training pairs.
    specs : iterable of str
        Datasets whose lemmas are excluded.

    Returns
    -------
    PairSet
        The pairs of the lemmas that none of ``specs`` holds.

    Raises
    ------
    ConfigError
        When nothing is left to train on (:func:`~wsd.tune.pairs.exclude_lemmas`).
    """
    lemmas: set[str] = set()
    for spec in specs:
        lemmas |= source_lemmas(spec)
    return exclude_lemmas(pairset, lemmas)
