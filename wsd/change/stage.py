"""The change stage over a run: compare its targets' senses between slices and write the tables (``wsd change``).

``change_run("runs/x", by="year")`` reads the run's occurrences and vectors and the senses of
``runs/x/senses`` (``wsd cluster``), compares every target between the slices of the column ``by``
(:func:`wsd.change.compare_slices`) and writes a change folder (``runs/x/change`` by default; names in
:mod:`wsd.io.layout`)::

    change.json            settings, slices and every table below as records, with the sense cards of the
                           senses that appeared or vanished
    ranking.parquet|.csv   the targets ranked by the change score shrunk by its uncertainty (first vs last
                           slice, or the chosen pair): score, score_low, score_high, uses per slice, score_shrunk
    scores.parquet|.csv    every target and pair of slices: uses, JSD, APD, PRT with their intervals, binary
    counts.parquet|.csv    sense counts and proportions per target and slice
    sense_changes.parquet|.csv   the senses that appeared or vanished (judged with the slices' counts: a
                           one-sided Fisher exact test), with their keywords and examples
    timeline.parquet|.csv  every slice against the next: the scores with their intervals and uses
    trends.parquet|.csv    per target and sense: its proportion against the slice order (Kendall's tau and
                           p-value, the least-squares slope with its bootstrap interval)
    largest_change.parquet|.csv  per target: the pair of slices of largest change (ordered as the ranking)
    unmeasured.csv         the target/pair combinations whose change cannot be measured, with the reason
                           (a slice without uses, or with fewer than ``min_uses``)

Without a senses folder only the vector measures (APD, PRT) are computed, with a warning.
"""

from __future__ import annotations

import functools
import json
import os
import warnings
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from wsd.change.compare import SliceComparison, compare_slices, describe_order
from wsd.change.explain import companion_measure, disagreement_notes, fallback_note, ranking_legend
from wsd.change.slices import check_slice_options
from wsd.errors import ConfigError, InputError
from wsd.io.atomic import atomic_write
from wsd.io.checksums import check_recorded
from wsd.io.layout import (
    CHANGE_COUNTS,
    CHANGE_DIR,
    CHANGE_JSON,
    CHANGE_LARGEST,
    CHANGE_RANKING,
    CHANGE_SCORES,
    CHANGE_SENSES,
    CHANGE_TIMELINE,
    CHANGE_TRENDS,
    CHANGE_UNMEASURED,
    LABELS_FILE,
    SENSES_DIR,
    SENSES_FILE,
)
from wsd.io.locate import find_layout
from wsd.io.meta_types import ChangeMeta, RunMeta, shape_problem
from wsd.io.outputs import CHANGE_FORMAT, check_disjoint, claim_folder, in_session
from wsd.io.provenance import library_versions
from wsd.io.run_reader import DAMAGED_SENSES, load_run, read_meta, read_senses_meta
from wsd.io.writers import write_json, write_parquet
from wsd.options import ChangeOptions, route_settings
from wsd.schema import MEASURES
from wsd.senses.naming import Namer, with_names

#: What to do about a damaged change folder (the end of the error that names the file).
DAMAGED_CHANGE = "run `wsd change` again to rebuild the change folder"

__all__ = [
    "change_run",
    "check_senses_of_run",
    "format_ranking",
    "read_change_meta",
    "read_labels",
    "sense_cards",
    "write_change",
]


def read_labels(senses: Path, occurrences: pd.DataFrame) -> np.ndarray:
    """The sense of every occurrence of a run, from a senses folder's ``labels.parquet``, in the run's order.

    Parameters
    ----------
    senses : Path
        A senses folder (``wsd cluster``).
    occurrences : DataFrame
        The run's occurrences.

    Returns
    -------
    ndarray of int
        ``-1`` for an unassigned occurrence.

    Raises
    ------
    InputError
        When the labels file is missing or damaged, or does not label every occurrence of the run (the senses
        were induced on another run).
    """
    file = senses / LABELS_FILE
    if not file.is_file():
        raise InputError(f"--senses {senses}: no {LABELS_FILE} (not a senses folder written by wsd cluster)")
    check_recorded(file, DAMAGED_SENSES)
    try:
        table = pd.read_parquet(file, columns=["id", "sense"])
    except Exception as exc:  # pyarrow raises several kinds for a damaged file
        raise InputError(f"{file}: not a readable labels table ({type(exc).__name__}: {exc})") from None
    sense_of = pd.Series(table["sense"].to_numpy(), index=table["id"].astype(str))
    if sense_of.index.duplicated().any():
        raise InputError(f"{file}: occurrence {sense_of.index[sense_of.index.duplicated()][0]!r} is labelled twice")
    ids = occurrences["id"].astype(str)
    missing = ~ids.isin(sense_of.index)
    if missing.any():
        raise InputError(
            f"--senses {senses}: {int(missing.sum())} of {len(ids)} occurrences of the run have no sense there "
            f"(first {ids[missing].iloc[0]!r}); the senses were induced on another run — run wsd cluster on this one"
        )
    return sense_of.loc[ids.to_numpy()].to_numpy(dtype=np.int64)


def check_senses_of_run(senses: Path, run: Path, run_meta: RunMeta) -> None:
    """Refuse a senses folder induced on another run, by the run fingerprint its ``meta.json`` records.

    Ids alone do not tell runs apart (two scans of different corpora may number their occurrences alike); the
    fingerprint (:mod:`wsd.io.run_store`) does. A senses folder without one (written by an older wsd, or by
    ``wsd evaluate``) is checked by its ids only (:func:`read_labels`).

    Parameters
    ----------
    senses : Path
        The senses folder.
    run : Path
        The run compared.
    run_meta : RunMeta
        The run's ``meta.json``.

    Raises
    ------
    InputError
        When both fingerprints are known and differ, or the senses folder's ``meta.json`` is unreadable or damaged
        (:func:`wsd.io.run_reader.read_senses_meta`).

    Examples
    --------
    >>> check_senses_of_run(Path("runs/x/senses"), Path("runs/x"), {"fingerprint": "ab12"})  # doctest: +SKIP
    """
    meta = read_senses_meta(senses)
    theirs = meta.get("run_fingerprint")
    ours = run_meta.get("fingerprint")
    if theirs and ours and theirs != ours:
        made_on = f" ({meta['run']})" if "run" in meta else ""
        raise InputError(
            f"--senses {senses} were induced on another run{made_on}, not on --run {run} (the run fingerprints "
            f"differ, even where occurrence ids coincide); run wsd cluster --run {run} for its own senses"
        )


def read_change_meta(folder: Path) -> ChangeMeta:
    """The ``change.json`` of a change folder, checked against its type (:class:`~wsd.io.meta_types.ChangeMeta`).

    Parameters
    ----------
    folder : Path
        A change folder (:func:`change_run`).

    Returns
    -------
    ChangeMeta
        As the file has it (one written by an earlier wsd lacks the tables added since: ``timeline``, ``trends``).

    Raises
    ------
    InputError
        When the file is missing or unreadable, no JSON object, or an entry of it has another type than
        :class:`~wsd.io.meta_types.ChangeMeta` declares (the message names the entry).
    """
    try:
        document = json.loads((folder / CHANGE_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{folder}: damaged change folder ({exc}); {DAMAGED_CHANGE}") from None
    problem = shape_problem(document, ChangeMeta)
    if problem is not None:
        raise InputError(f"{folder}: damaged change folder ({CHANGE_JSON}: {problem}); {DAMAGED_CHANGE}")
    return cast(ChangeMeta, document)


def sense_cards(senses: Path | None) -> pd.DataFrame | None:
    """The sense cards of a senses folder (``senses.parquet``: target, sense, size, keywords, examples).

    Parameters
    ----------
    senses : Path, optional
        The senses folder.

    Returns
    -------
    DataFrame or None
        None when there is no such table.
    """
    if senses is None or not (senses / SENSES_FILE).is_file():
        return None
    check_recorded(senses / SENSES_FILE, DAMAGED_SENSES)
    try:
        return pd.read_parquet(senses / SENSES_FILE)
    except Exception as exc:  # pyarrow raises several kinds for a damaged file
        raise InputError(f"{senses / SENSES_FILE}: not a readable sense table ({type(exc).__name__}); "
                         f"{DAMAGED_SENSES}") from None  # fmt: skip


def with_sense_names(frame: pd.DataFrame, cards: pd.DataFrame | None) -> pd.DataFrame:
    """A table of senses (``target``, ``sense``) with each sense's ``names`` from named cards (``--inventory``).

    Parameters
    ----------
    frame : DataFrame
        A change table with ``target`` and ``sense``.
    cards : DataFrame, optional
        The sense cards; without their ``names_text`` (senses not named) the table comes back as it is.

    Returns
    -------
    DataFrame
        With ``names``: ``61% ≈ bank.n.02 (…), 30% ≈ bank.n.01 (…), 9% unnamed`` (empty for an unknown sense).
    """
    if cards is None or "names_text" not in cards.columns or not {"target", "sense"} <= set(frame.columns):
        return frame
    names = {(str(r.target), int(r.sense)): str(r.names_text) for r in cards.itertuples()}
    keys = zip(frame["target"].astype(str), frame["sense"], strict=True)
    return frame.assign(names=[names.get((t, int(s)), "") if pd.notna(s) else "" for t, s in keys])


def _with_cards(changes: pd.DataFrame, cards: pd.DataFrame | None) -> pd.DataFrame:
    table = changes.copy()
    keywords: list[list[str]] = []
    examples: list[list[str]] = []
    index = {} if cards is None else {(str(r.target), int(r.sense)): r for r in cards.itertuples()}
    for row in table.itertuples():
        card = index.get((str(row.target), int(row.sense)))
        keywords.append([] if card is None else [str(w) for w in card.keywords])
        examples.append([] if card is None else [str(e) for e in card.examples])
    table["keywords"] = keywords
    table["examples"] = examples
    return table


def _csv_ready(frame: pd.DataFrame) -> pd.DataFrame:
    """Lists joined for CSV: numbers with spaces, texts with `` | ``."""
    out = frame.copy()
    for column in out.columns:
        if len(out) and out[column].map(lambda v: isinstance(v, list | tuple | np.ndarray)).any():
            sep = " | " if column in ("examples", "keywords") else " "
            out[column] = out[column].map(lambda v, sep=sep: sep.join(str(x) for x in v))
    return out


def write_change(
    destination: Path,
    comparison: SliceComparison,
    cards: pd.DataFrame | None,
    config: dict[str, Any],
    extra: ChangeMeta | None = None,
) -> Path:
    """Write a change folder's tables and ``change.json`` (``change.json`` last: it marks the folder complete).

    Parameters
    ----------
    destination : Path
        The change folder (created when missing).
    comparison : SliceComparison
        What :func:`wsd.change.compare_slices` gave.
    cards : DataFrame, optional
        The sense cards (:func:`sense_cards`) attached to the senses that appeared or vanished.
    config : dict
        The settings that made it (recorded; a later run with other settings is refused without overwrite).
    extra : ChangeMeta, optional
        Entries added to ``change.json`` (the run's fingerprint).

    Returns
    -------
    Path
        ``destination``.
    """
    destination.mkdir(parents=True, exist_ok=True)
    changes = with_sense_names(_with_cards(comparison.senses, cards), cards)
    tables = {
        CHANGE_RANKING: comparison.ranking,
        CHANGE_SCORES: comparison.scores,
        CHANGE_COUNTS: with_sense_names(comparison.counts, cards),
        CHANGE_SENSES: changes,
        CHANGE_TIMELINE: comparison.timeline,
        CHANGE_TRENDS: with_sense_names(comparison.trends, cards),
        CHANGE_LARGEST: comparison.largest,
    }
    for stem, frame in tables.items():
        write_parquet(destination / f"{stem}.parquet", frame, mark="change")
        ready = _csv_ready(frame)
        atomic_write(destination / f"{stem}.csv", functools.partial(ready.to_csv, index=False))
    unmeasured = comparison.unmeasured
    atomic_write(destination / CHANGE_UNMEASURED, lambda tmp: unmeasured.to_csv(tmp, index=False))
    document: ChangeMeta = {"format": CHANGE_FORMAT, "config": config, **(extra or {}), **comparison.to_dict()}
    document["senses"] = [
        {key: value.tolist() if isinstance(value, np.ndarray) else value for key, value in record.items()}
        for record in changes.to_dict(orient="records")
    ]
    document["versions"] = library_versions()
    write_json(destination / CHANGE_JSON, document)
    return destination


@in_session
def change_run(
    run: str | os.PathLike[str],
    senses: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
    options: ChangeOptions | None = None,
    *,
    overwrite: bool = False,
    namer: Namer | None = None,
    **settings: Any,
) -> Path:
    """Compare every target of a run between the slices of column ``options.by`` and write a change folder.

    Parameters
    ----------
    run : path
        A run (``wsd embed``'s output) whose occurrence table has the slice column.
    senses : path, optional
        The senses folder (default: ``RUN/senses`` where it exists; none: vector measures only).
    out : path, optional
        The change folder (default: ``RUN/change``).
    options : ChangeOptions
        How the slices are compared (``by``, ``bins``, ``measure``, ``min_uses``, ``rank_by``, ...:
        :class:`wsd.options.ChangeOptions`, every field of which goes to :func:`wsd.change.compare_slices`);
        ``by`` must be given.
    overwrite : bool
        Replace a change folder of another configuration, or write into a folder of other files (only wsd's
        files are replaced); without it such a destination is refused (:mod:`wsd.io.outputs`).
    namer : callable, optional
        Names the senses from an inventory (``--inventory``, :class:`wsd.workflows.naming.InventoryNamer`) where
        the senses folder has no names yet; the change tables then carry each sense's ``names``.
    **settings
        Fields of :class:`~wsd.options.ChangeOptions` given one by one (``by="year"``), applied on top of
        ``options``.

    Returns
    -------
    Path
        The change folder.

    Raises
    ------
    InputError
        A missing or damaged run or senses folder, a missing or core slice column (the message lists the
        columns), bad bins, senses of another run (:func:`check_senses_of_run`), or no target whose change
        between the compared slices can be measured.

    Examples
    --------
    >>> change_run("runs/news", options=ChangeOptions(by="year", bins="1990:1999,2010:2019"))  # doctest: +SKIP
    PosixPath('runs/news/change')
    >>> change_run("runs/news", by="year", min_uses=10)  # doctest: +SKIP
    PosixPath('runs/news/change')
    """
    change: ChangeOptions = route_settings("change_run()", settings, {"change": (ChangeOptions, options)})[0]["change"]
    if change.by is None:
        raise ConfigError("change_run() needs the slice column: ChangeOptions(by=...) (wsd change --by)")
    layout = find_layout(run, senses=senses)  # OUT of wsd run, OUT/run, a wsd embed run, a senses or change folder
    run = layout.run
    run_meta = read_meta(run)  # a missing or damaged run is named first
    # before any work: the column, the bins, the pair
    check_slice_options(change.by, change.bins, change.between, bin_width=change.bin_width)
    senses_dir = layout.senses
    if senses_dir is not None:
        check_senses_of_run(senses_dir, run, run_meta)
    destination = Path(out) if out is not None else layout.root / CHANGE_DIR
    check_disjoint(destination, {"--run": run, "--senses": senses}, allowed=[layout.root / CHANGE_DIR])
    config = {
        "run": str(run.resolve()),
        "senses": str(senses_dir.resolve()) if senses_dir is not None else None,
        **change.to_dict(),
    }
    claim_folder(destination, "change", config=config, settings=lambda meta: meta.get("config"), overwrite=overwrite)
    occurrences, vectors = load_run(run)
    labels = read_labels(senses_dir, occurrences) if senses_dir is not None else None
    # the vectors stay a memory map: each slice is read in blocks, never the whole run at once
    comparison = compare_slices(occurrences, labels=labels, X=vectors, **change.kwargs())
    if labels is None:  # after the comparison: bad slice settings are the error, not this
        looked = " or ".join(str(folder / SENSES_DIR) for folder in dict.fromkeys([run, layout.root]))
        warnings.warn(
            f"{run} holds no senses (no senses folder in {looked}); only the vector measures (APD, PRT) are "
            f"computed — run wsd cluster --run {run} first (or give --senses DIR) for sense distributions, JSD "
            "and the binary decision",
            stacklevel=2,
        )
    cards = sense_cards(senses_dir if labels is not None else None)
    if namer is not None and cards is not None and labels is not None:
        if "names_text" not in cards.columns:
            naming = namer(occurrences, vectors, run_meta.get("embedding"))
            cards = with_names(cards, labels, occurrences, naming)
        elif senses_dir is not None:
            _warn_kept_names(senses_dir, namer)
    return write_change(destination, comparison, cards, config, {"run_fingerprint": run_meta.get("fingerprint")})


def _warn_kept_names(senses_dir: Path, namer: Namer) -> None:
    """Warn where ``--inventory`` asks for other names than a senses folder already holds: ``wsd change`` keeps them.

    The senses' names are written by ``wsd cluster`` (``meta.json``'s ``naming``); ``wsd change`` names only senses
    that have none. When the inventory or the thresholds asked for (those of an
    :class:`wsd.workflows.naming.InventoryNamer`) differ from the recorded ones, one warning says which names are
    kept and how to rename.

    Parameters
    ----------
    senses_dir : Path
        The senses folder, already named.
    namer : callable
        The namer ``wsd change`` was given.
    """
    recorded = read_senses_meta(senses_dir).get("naming", {})
    parameters = getattr(namer, "parameters", None)
    asked = {
        "inventory": getattr(namer, "spec", None),
        "parameters": parameters.to_dict() if parameters is not None else None,
    }
    kept = {"inventory": recorded.get("inventory"), "parameters": recorded.get("parameters")}
    if asked == kept:
        return
    warnings.warn(
        f"{senses_dir}: its senses are already named ({kept['inventory']}, thresholds {kept['parameters']}); "
        f"wsd change keeps those names and ignores --inventory {asked['inventory']} and its thresholds here — to "
        "rename them, run wsd cluster with the inventory and thresholds you want (--overwrite) first",
        stacklevel=3,
    )


def format_ranking(folder: str | os.PathLike[str], limit: int = 10) -> str:
    """The ranking of a change folder as a short terminal table: rank, target, score, interval, uses per slice.

    Beside the score: the shrunk score (``shrunk*`` where it is the documented fallback) and the companion measure
    (JSD beside PRT or APD, PRT beside JSD: :func:`wsd.change.explain.companion_measure`). Under the table, one
    sentence per column a reader may not know (:func:`wsd.change.explain.ranking_legend`), the fallback's reason
    and a note for each pair of targets on which the two measures disagree.

    Parameters
    ----------
    folder : path
        A change folder (:func:`change_run`).
    limit : int
        The most targets shown (the rest are counted).

    Returns
    -------
    str

    Examples
    --------
    >>> print(format_ranking("runs/x/change"))  # doctest: +SKIP
    ranked by the lower end of the 95% interval of prt, 1900 vs 2000 (1 unmeasured: unmeasured.csv)
    rank  target        prt  95% interval         jsd  uses 1900  uses 2000
       1  swap        0.912  [0.874, 0.950]     1.000         12         12
    prt: how far the average use moved (cosine distance of the mean vectors of the two slices); 0 = not at all
    ...
    """
    folder = Path(folder)
    document = read_change_meta(folder)
    ranking = pd.read_parquet(folder / f"{CHANGE_RANKING}.parquet")
    first, last = document["main_pair"]
    confidence = float(document.get("bootstrap", {}).get("confidence", 0.95))
    level = f"{100 * confidence:g}% interval"
    rank_by = str(document.get("rank_by"))
    order = describe_order(rank_by, confidence)
    shrunk = rank_by == "shrunk" and "score_shrunk" in ranking.columns
    fallback = fallback_note(ranking, rank_by, confidence) if shrunk else None
    companion = companion_measure(str(document["measure"]), [c for c in MEASURES if c in ranking.columns])
    unmeasured = pd.read_csv(folder / CHANGE_UNMEASURED) if (folder / CHANGE_UNMEASURED).is_file() else None
    main = (
        0
        if unmeasured is None
        else int(((unmeasured["slice_a"].astype(str) == first) & (unmeasured["slice_b"].astype(str) == last)).sum())
    )
    lines = [
        f"ranked by {order} of {document['measure']}, {first} vs {last}"
        + (f" ({main} unmeasured: {CHANGE_UNMEASURED})" if main else "")
    ]
    width = max([6, *(len(str(t)) for t in ranking["target"].head(limit))])
    uses_a, uses_b = f"uses {first}", f"uses {last}"
    lines.append(
        f"{'rank':>4}  {'target':<{width}}  {document['measure']:>6}  {level:<16}  "
        + (("shrunk* " if fallback else "shrunk  ") if shrunk else "")
        + (f"{companion:>6}  " if companion else "")
        + f"{uses_a:>{len(uses_a)}}  {uses_b}"
    )
    for row in ranking.head(limit).itertuples(index=False):
        interval = f"[{row.score_low:.3f}, {row.score_high:.3f}]"
        lines.append(
            f"{row.rank:>4}  {row.target!s:<{width}}  {row.score:>6.3f}  {interval:<16}  "
            + (f"{row.score_shrunk:>6.3f}  " if shrunk else "")
            + (f"{getattr(row, companion):>6.3f}  " if companion else "")
            + f"{row.uses_a:>{len(uses_a)}}  {row.uses_b:>{len(uses_b)}}"
        )
    if len(ranking) > limit:
        lines.append(f"... and {len(ranking) - limit} more in {folder / (CHANGE_RANKING + '.csv')}")
    legend = ranking_legend(str(document["measure"]), [companion] if companion else [], confidence)
    lines += legend if shrunk else legend[:-1]
    if fallback:
        lines.append("* " + fallback)
    lines += disagreement_notes(ranking, str(document["measure"]))
    return "\n".join(lines)
