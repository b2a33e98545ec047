"""The senses stage over a run: induce senses for every target, describe them, predict the senses of new runs.

``cluster_run("runs/x")`` writes ``runs/x/senses/`` (names in :mod:`wsd.io.layout`)::

    model/            the sense model (JSON + .npy, never pickle): predicts senses of new occurrences
    labels.parquet    one row per occurrence: id, target, sense (0, 1, ...), sense_id ("mouse.0"),
                      confidence (its membership), memberships (the soft distribution over the target's senses);
                      named from an inventory, also synset, synset_cosine and synset_lead (the name and its
                      evidence: wsd.senses.naming.LABEL_COLUMNS)
    senses.parquet    one row per sense: target, sense, size, examples, keywords (see describe_senses), and
                      ``note``: why the target kept one sense (few uses, a weak split) or was split on few uses,
                      empty otherwise
    senses.md         the same as Markdown
    meta.json         the inducer parameters, the embedding identity, senses per target, ``one_sense`` (target ->
                      why it kept one sense), ``few_uses_split`` (target -> why it was split on fewer than
                      FEW_USES_SPLIT uses), library versions
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from wsd.errors import InputError
from wsd.executors import MapFunction
from wsd.io.atomic import atomic_write
from wsd.io.checksums import file_record
from wsd.io.layout import (
    LABELS_FILE,
    META_FILE,
    MODEL_DIR,
    PREDICTED_FILE,
    SENSES_DIR,
    SENSES_FILE,
    SENSES_MARKDOWN,
)
from wsd.io.manifest import has_manifest
from wsd.io.manifest import start as start_manifest
from wsd.io.meta_types import SensesMeta
from wsd.io.outputs import SENSES_FORMAT, check_disjoint, claim_file, claim_folder, in_session, lock_file_folder
from wsd.io.provenance import library_versions
from wsd.io.run_reader import load_run, read_meta
from wsd.io.writers import write_json, write_parquet
from wsd.options import SenseOptions
from wsd.senses.describe import describe_senses, senses_to_markdown
from wsd.senses.inducer import SenseInducer
from wsd.senses.model import SenseModel, finite_rows
from wsd.senses.naming import Namer, Naming, with_names

PREDICTED_MARK = "predicted"


def label_table(occurrences: pd.DataFrame, labels: np.ndarray, proba: np.ndarray, n_senses: dict[str, int]) -> pa.Table:
    """The per-occurrence sense table: id, target, sense, sense_id, confidence, memberships.

    Built column by column from arrays (the memberships as one Arrow list column over the flat membership
    values), so a million occurrences cost a few arrays, not a million Python lists; the Parquet file is the
    one a DataFrame with a list of floats per row would give (``pd.read_parquet`` reads it back as such).

    Parameters
    ----------
    occurrences : DataFrame
        The occurrences (``id``, ``target``).
    labels : ndarray of int
        Sense of each occurrence (``-1``: unassigned).
    proba : ndarray
        Soft memberships, one row per occurrence.
    n_senses : dict
        Senses of each target: ``memberships`` holds the row's distribution over its own target's senses.

    Returns
    -------
    pyarrow.Table
    """
    targets = occurrences["target"].astype(str).to_numpy()
    labels = np.asarray(labels, dtype=np.int64)
    rows = np.arange(len(labels))
    confidence = np.where(labels >= 0, proba[rows, np.maximum(labels, 0)], 0.0) if len(labels) else np.zeros(0)
    suffix = np.where(labels >= 0, labels.astype(str), "unassigned").astype(object)
    frame = pd.DataFrame(
        {
            "id": occurrences["id"].to_numpy(),
            "target": occurrences["target"].to_numpy(),
            "sense": labels,
            "sense_id": (targets.astype(object) + "." + suffix) if len(labels) else np.zeros(0, dtype=object),
            "confidence": confidence.astype(np.float64),
        }
    )
    if not len(labels):
        return pa.Table.from_pandas(frame.assign(memberships=[]), preserve_index=False)
    widths = pd.Series(targets).map(n_senses).fillna(0).to_numpy(dtype=np.int64)
    widths = np.minimum(widths, proba.shape[1])
    offsets = np.concatenate([[0], np.cumsum(widths)])
    values = np.asarray(proba, dtype=np.float64)[np.arange(proba.shape[1])[None, :] < widths[:, None]]
    kind = pa.ListArray if offsets[-1] < 2**31 else pa.LargeListArray
    memberships = kind.from_arrays(pa.array(offsets, type=pa.int32() if kind is pa.ListArray else pa.int64()), values)
    # the pandas metadata a frame with a list of floats per row records (that of its first row: the same)
    described = pa.Table.from_pandas(frame.iloc[:1].assign(memberships=[[0.0]]), preserve_index=False)
    table = pa.Table.from_pandas(frame, preserve_index=False).append_column("memberships", memberships)
    return table.replace_schema_metadata(described.schema.metadata)


def senses_per_target(model: SenseModel) -> dict[str, int]:
    """Number of induced senses of each target of a fitted model.

    Parameters
    ----------
    model : SenseModel
        A fitted sense model.

    Returns
    -------
    dict
        Target → number of senses.
    """
    return {target: int(inducer.n_senses_) for target, inducer in model.inducers_.items()}


def one_sense_reasons(model: SenseModel) -> dict[str, str]:
    """Why each target that the choice of k left with one sense kept it (fewer uses than ``min_split_uses``, or
    a split weaker than ``one_sense_below``).

    Parameters
    ----------
    model : SenseModel
        A fitted sense model; its inducers' ``one_sense_reason_`` is read.

    Returns
    -------
    dict
        Target -> reason (:attr:`SenseInducer.one_sense_reason_`), only the targets with one.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> X = np.random.default_rng(0).normal(size=(35, 4))
    >>> fitted = {"virus": X[:5], "bank": X[5:]}
    >>> inducers = {t: SenseInducer(method="ward", min_split_uses=20).fit(x) for t, x in fitted.items()}
    >>> one_sense_reasons(SimpleNamespace(inducers_=inducers))  # a fitted SenseModel's inducers_
    {'virus': '5 uses, fewer than the 20 a split needs (min_split_uses)'}
    """
    return {
        target: str(inducer.one_sense_reason_)
        for target, inducer in model.inducers_.items()
        if getattr(inducer, "one_sense_reason_", "")
    }


#: Below this many uses a word that was split says why (``meta.json`` ``few_uses_split``, the ``note`` of its
#: senses, the sense cards; no warning, since a split of a word with a few dozen uses is common and often right):
#: the largest size ``experiments/one_sense_floor.py`` measured. From ``min_split_uses`` on, a
#: split of a SemEval word agreed with its gold senses better than one sense; a split of a DWUG EN word of up to
#: this many uses did not (``experiments/results/one_sense_floor/one_sense_floor.md``), so such a split is the
#: reader's to check.
FEW_USES_SPLIT = 50


def few_uses_split_reason(n: int, n_senses: int, min_split_uses: int, selection: str, score: float) -> str:
    """Why a word with few uses was split, in words a reader can check.

    Parameters
    ----------
    n : int
        The word's uses.
    n_senses : int
        The senses it was split into.
    min_split_uses : int
        The fewest uses a split needs.
    selection : str
        The criterion that chose the number of senses.
    score : float
        Its value at the chosen number.

    Returns
    -------
    str

    Examples
    --------
    >>> few_uses_split_reason(12, 3, 8, "silhouette", 0.0812)  # doctest: +NORMALIZE_WHITESPACE
    '3 senses from 12 uses: at least the 8 a split needs (min_split_uses), and the best silhouette, 0.0812, is at
    k=3; below 50 uses a split beat one sense on SemEval words, not on DWUG EN (one_sense_floor.md): check its
    examples, or --min-split-uses 13 keeps it one sense'
    """
    floor = f"at least the {min_split_uses} a split needs" if min_split_uses else "no fewest number set"
    return (
        f"{n_senses} senses from {n} uses: {floor} (min_split_uses), and the "
        f"best {selection}, {score:.3g}, is at k={n_senses}; below {FEW_USES_SPLIT} uses a split beat one sense on "
        f"SemEval words, not on DWUG EN (one_sense_floor.md): check its examples, or --min-split-uses {n + 1} "
        "keeps it one sense"
    )


def few_uses_split_reasons(model: SenseModel) -> dict[str, str]:
    """Why each target that the choice of k split on fewer than :data:`FEW_USES_SPLIT` uses was split.

    Parameters
    ----------
    model : SenseModel
        A fitted sense model; its inducers' uses, senses and k scores are read.

    Returns
    -------
    dict
        Target -> reason (:func:`few_uses_split_reason`), only the targets split on so few uses.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(0, 0.1, (6, 4)) + 3, rng.normal(0, 0.1, (6, 4)) - 3])
    >>> inducer = SenseInducer(method="ward", min_split_uses=8).fit(X)
    >>> list(few_uses_split_reasons(SimpleNamespace(inducers_={"cell": inducer})))
    ['cell']
    """
    reasons = {}
    for target, inducer in model.inducers_.items():
        n, k = len(inducer.labels_), int(inducer.n_senses_)
        if not inducer.selects_k or k < 2 or n >= FEW_USES_SPLIT:
            continue
        score = float(inducer.k_scores_.get(int(inducer.n_clusters_), float("nan")))
        reasons[target] = few_uses_split_reason(n, k, inducer.min_split_uses, inducer.selection, score)
    return reasons


def warn_one_sense(reasons: Mapping[str, str], shown: int = 5) -> str:
    """Warn once about the targets kept in one sense, each with its reason; return the message (empty: none).

    Parameters
    ----------
    reasons : mapping
        Target -> reason (:func:`one_sense_reasons`).
    shown : int
        Targets named (the rest are counted).

    Returns
    -------
    str
    """
    import warnings

    if not reasons:
        return ""
    items = list(reasons.items())
    named = "; ".join(f"{target}: {reason}" for target, reason in items[:shown])
    more = f"; and {len(items) - shown} more (meta.json)" if len(items) > shown else ""
    few = any("min_split_uses" in reason for reason in reasons.values())
    weak = any("one_sense_below" in reason for reason in reasons.values())
    undo = " and ".join(part for part, used in (("--min-split-uses 0", few), ("no --one-sense-below", weak)) if used)
    message = f"{len(items)} target(s) kept one sense: {named}{more}; {undo} would split them" if undo else named
    warnings.warn(message, stacklevel=3)
    return message


def fit_senses(
    occurrences: pd.DataFrame,
    X: np.ndarray,
    inducer: SenseInducer | None = None,
    embedding_meta: Mapping[str, Any] | None = None,
    map_function: MapFunction | None = None,
) -> tuple[SenseModel, np.ndarray, np.ndarray]:
    """Fit a :class:`SenseModel` and return it with the labels and soft memberships of the training rows.

    Parameters
    ----------
    occurrences : DataFrame
        The occurrences (``target`` groups the fits).
    X : ndarray
        Their vectors.
    inducer : SenseInducer, optional
        The per-target estimator (default: ``SenseInducer()``).
    embedding_meta : mapping, optional
        The vectors' metadata (checked when the model predicts).
    map_function : MapFunction, optional
        Runs the per-target fits (an :class:`wsd.executors.Executor`); default: here, one after another.

    Returns
    -------
    (SenseModel, ndarray, ndarray)
        The model, the labels and the memberships of the rows.
    """
    inducer = inducer if inducer is not None else SenseInducer()
    model = SenseModel(inducer, embedding_meta=embedding_meta)
    warn_clamped(inducer, occurrences, X)
    model.fit(occurrences, X, map_function=map_function)
    warn_one_sense(one_sense_reasons(model))
    proba = model.predict_proba(occurrences, X)
    return model, model.labels_, proba


def warn_clamped(inducer: SenseInducer, occurrences: pd.DataFrame, X: np.ndarray) -> None:
    """Warn once when ``k`` or ``pca`` exceeds what the data allow (they are then reduced per target).

    Parameters
    ----------
    inducer : SenseInducer
        The per-target estimator.
    occurrences : DataFrame
        The occurrences (``target`` groups the fits).
    X : ndarray
        Their vectors.
    """
    import warnings

    sizes = occurrences["target"].value_counts()
    if not len(sizes):
        return
    k = inducer.k
    fixed_k = inducer.method not in ("one-sense", "one-per-instance", "hdbscan")
    if isinstance(k, (int, np.integer)) and not isinstance(k, bool) and fixed_k:
        small = sizes[sizes < k]
        if len(small):
            shown = ", ".join(f"{t}: {n}" for t, n in small.head(3).items())
            warnings.warn(
                f"k={k} is more than the occurrences of {len(small)} target(s) ({shown}); "
                "each gets at most as many senses as it has occurrences",
                stacklevel=3,
            )
    pca = inducer.pca
    if pca is not None and X.ndim == 2:
        limit = min(X.shape[1], max(int(sizes.max()) - 1, 1))
        if pca > limit:
            warnings.warn(
                f"pca={pca} is more than the data allow (the vectors have {X.shape[1]} dims and the largest target "
                f"{int(sizes.max())} occurrences); each target keeps at most min(dims, occurrences - 1) components",
                stacklevel=3,
            )


@in_session
def cluster_run(
    run: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    inducer: SenseInducer | SenseOptions | None = None,
    n_examples: int = 5,
    n_keywords: int = 10,
    map_function: MapFunction | None = None,
    overwrite: bool = False,
    request: Mapping[str, Any] | None = None,
    namer: Namer | None = None,
) -> Path:
    """Induce the senses of every target of a run directory and write them (see the module docstring).

    Parameters
    ----------
    run : path
        A run (``wsd embed``'s output).
    out : path, optional
        The senses folder (default: ``RUN/senses``).
    inducer : SenseInducer or SenseOptions, optional
        The per-target estimator, or the sense options it is built from (:meth:`SenseInducer.from_options`:
        the recipe, the parameters set, the seed; what ``wsd cluster`` passes). None: ``SenseInducer()``.
    n_examples, n_keywords : int
        Examples and keywords per sense description.
    map_function : MapFunction, optional
        Runs the per-target fits, e.g. an :class:`wsd.executors.Executor` on a Dask cluster; by default they
        run one after another in this process.
    overwrite : bool
        Replace a senses folder of another configuration, or write into a folder of other files (only wsd's
        own files are replaced); without it such a destination is refused (:mod:`wsd.io.outputs`).
    request : mapping, optional
        What asked for these senses (``wsd run``'s settings of the scan, the encoder and the inducer), recorded
        as ``request`` in ``meta.json``: a later ``wsd run`` that asks the same reuses them.
    namer : callable, optional
        Names the occurrences from a sense inventory (:class:`wsd.workflows.naming.InventoryNamer`,
        ``--inventory``): ``labels.parquet`` gets ``synset``, ``synset_cosine`` and ``synset_lead`` columns,
        ``senses.parquet`` and ``senses.md`` each sense's names (:mod:`wsd.senses.naming`).

    Returns
    -------
    Path
        The senses folder.

    Examples
    --------
    >>> cluster_run("runs/x", inducer=SenseInducer(method="agglomerative"))  # doctest: +SKIP
    PosixPath('runs/x/senses')
    >>> cluster_run("runs/x", inducer=SenseOptions(recipe="default", k=3))  # doctest: +SKIP
    PosixPath('runs/x/senses')
    """
    if isinstance(inducer, SenseOptions):  # bad options fail before the run is read
        inducer = SenseInducer.from_options(inducer)
    run = Path(run)
    destination = Path(out) if out is not None else run / SENSES_DIR
    run_meta = read_meta(run)  # the input first: a missing or damaged run is named as such
    check_disjoint(destination, {"--run": run}, allowed=[run / SENSES_DIR])
    params = inducer.get_params(deep=False) if inducer is not None else SenseInducer().get_params(deep=False)
    claim_folder(
        destination,
        "senses",
        config={"inducer": params, "run": str(run.resolve())},
        settings=lambda meta: {"inducer": meta.get("inducer"), "run": meta.get("run")},
        overwrite=overwrite,
    )
    occurrences, vectors = load_run(run)
    X = finite_vectors(vectors, run)
    model, _, proba = fit_senses(occurrences, X, inducer, run_meta.get("embedding"), map_function)
    naming = namer(occurrences, X, run_meta.get("embedding")) if namer is not None else None
    made: SensesMeta = {"run": str(run.resolve()), "run_fingerprint": run_meta.get("fingerprint")}
    if request is not None:
        made["request"] = dict(request)
    return write_senses(
        destination,
        occurrences,
        X,
        model,
        proba,
        made,
        n_examples=n_examples,
        n_keywords=n_keywords,
        naming=naming,
    )


def finite_vectors(vectors: np.ndarray, run: str | os.PathLike[str]) -> np.ndarray:
    """The vectors of a run, checked to be finite (NaN or infinity would make every result NaN).

    The check reads a block of rows at a time; the vectors come back as they are (a memory map stays one, so
    the per-target fits read their own rows from the file, not a copy of the whole run).

    Parameters
    ----------
    vectors : ndarray
        The run's vectors.
    run : path
        The run, for the error message.

    Returns
    -------
    ndarray
        ``vectors`` (float16 or float32, as stored).
    """
    X = vectors if isinstance(vectors, np.ndarray) else np.asarray(vectors, dtype=np.float32)
    bad = ~finite_rows(X) if X.ndim == 2 else np.zeros(len(X), dtype=bool)
    if bad.any():
        raise InputError(
            f"{run}: {int(bad.sum())} of {len(X)} vectors hold NaN or infinite values (first at row "
            f"{int(np.argmax(bad))}); the run is damaged, embed it again"
        )
    return X


def write_senses(
    destination: str | os.PathLike[str],
    occurrences: pd.DataFrame,
    X: np.ndarray,
    model: SenseModel,
    proba: np.ndarray,
    extra_meta: SensesMeta | None = None,
    n_examples: int = 5,
    n_keywords: int = 10,
    naming: Naming | None = None,
) -> Path:
    """Write a fitted sense model, its labels and its sense descriptions (the ``senses/`` folder layout).

    Parameters
    ----------
    destination : path
        The senses folder.
    occurrences : DataFrame
        The training occurrences.
    X : ndarray
        Their vectors.
    model : SenseModel
        The fitted model.
    proba : ndarray
        The memberships of the rows.
    extra_meta : SensesMeta, optional
        Entries added to the folder's ``meta.json`` (:class:`~wsd.io.meta_types.SensesMeta`: ``run``,
        ``run_fingerprint``, ``request``, ``seed``).
    n_examples, n_keywords : int
        Examples and keywords per sense description.
    naming : Naming, optional
        The occurrences' names from an inventory: ``synset``, ``synset_cosine`` and ``synset_lead`` columns in
        ``labels.parquet`` (:data:`wsd.senses.naming.LABEL_COLUMNS`), each sense's names in ``senses.parquet`` and
        ``senses.md``, the inventory and parameters as ``naming`` in ``meta.json``.

    Returns
    -------
    Path
        ``destination``.
    """
    destination = Path(destination)
    destination.mkdir(parents=True, exist_ok=True)
    labels = model.labels_
    if has_manifest(destination):  # the model's arrays lie deeper than a manifest is looked for: it has its own
        start_manifest(destination / MODEL_DIR, "model")
    model.save(destination / MODEL_DIR)
    label_rows = label_table(occurrences, labels, proba, senses_per_target(model))
    if naming is not None:  # the name and its evidence (LABEL_COLUMNS): synset, synset_cosine, synset_lead
        for name, values in naming.label_columns().items():
            kind = pa.string() if values.dtype == object else pa.float64()
            label_rows = label_rows.append_column(name, pa.array(values, type=kind))
    labels_sum = write_parquet(destination / LABELS_FILE, label_rows)
    table = describe_senses(occurrences, X, labels, n_examples=n_examples, n_keywords=n_keywords)
    if naming is not None:
        table = with_names(table, labels, occurrences, naming)
    reasons = one_sense_reasons(model)
    split = few_uses_split_reasons(model)
    notes = reasons | split  # why one sense, or why split on few uses
    table["note"] = [notes.get(target, "") for target in table["target"].astype(str)]  # text, never NaN
    senses_sum = write_parquet(destination / SENSES_FILE, table)
    markdown = senses_to_markdown(table)
    atomic_write(destination / SENSES_MARKDOWN, lambda tmp: tmp.write_text(markdown, encoding="utf-8"))
    meta: SensesMeta = {
        "format": SENSES_FORMAT,
        **(extra_meta or {}),
        "embedding": model.embedding_meta_,
        "inducer": (model.inducer if model.inducer is not None else SenseInducer()).get_params(deep=False),
        "senses": senses_per_target(model),
        "one_sense": reasons,
        "few_uses_split": split,
        "occurrences": len(occurrences),
        **({"naming": naming.meta | {"definitions": naming.definitions}} if naming is not None else {}),
        "versions": library_versions(),
        "checksums": {  # what later commands read back (wsd change): checked before use
            LABELS_FILE: file_record(destination / LABELS_FILE, labels_sum),
            SENSES_FILE: file_record(destination / SENSES_FILE, senses_sum),
        },
    }
    write_json(destination / META_FILE, meta)
    return destination


@in_session
def sense_keywords(folder: str | os.PathLike[str]) -> dict[tuple[str, int], str]:
    """The keywords of each sense of a senses folder, joined into one string.

    Parameters
    ----------
    folder : path
        A senses folder (its ``senses.parquet``; for its ``model`` sub-folder, the folder above); a folder without
        one gives no keywords.

    Returns
    -------
    dict
        ``(target, sense) -> "kw1, kw2, ..."``.
    """
    folder = Path(folder)
    path = folder / SENSES_FILE if (folder / SENSES_FILE).is_file() else folder.parent / SENSES_FILE
    if not path.is_file():
        return {}
    table = pd.read_parquet(path, columns=["target", "sense", "keywords"])
    return {
        (str(t), int(s)): ", ".join(str(word) for word in (k if k is not None else []))
        for t, s, k in zip(table["target"], table["sense"], table["keywords"], strict=True)
    }


def with_text_and_keywords(table: pa.Table, occurrences: pd.DataFrame, folder: Path) -> pa.Table:
    """A label table with each occurrence's ``text`` (its passage) and its sense's ``keywords`` (one string).

    Parameters
    ----------
    table : pyarrow.Table
        Made by :func:`label_table` for ``occurrences``.
    occurrences : DataFrame
        The occurrences (``text``).
    folder : Path
        The senses folder: the keywords come from its ``senses.parquet`` (empty strings where it has none).

    Returns
    -------
    pyarrow.Table
    """
    keywords = sense_keywords(folder)
    targets = table.column("target").to_pylist()
    labels = table.column("sense").to_pylist()
    shown = [keywords.get((str(t), int(s)), "") for t, s in zip(targets, labels, strict=True)]
    table = table.append_column("text", pa.array(occurrences["text"].astype(str).to_numpy(), type=pa.string()))
    return table.append_column("keywords", pa.array(shown, type=pa.string()))


def predict_run(
    senses: str | os.PathLike[str],
    run: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    unknown: str = "error",
    overwrite: bool = False,
) -> Path:
    """Assign the occurrences of another run to the senses induced earlier; write ``predicted.parquet``.

    Parameters
    ----------
    senses : path
        A folder written by :func:`cluster_run` (or its ``model`` sub-folder).
    run : path
        The run to label; its vectors must come from the same encoder, layers and pooling, else
        :class:`~wsd.errors.ModelError`.
    out : path, optional
        The Parquet file to write (default: ``RUN/predicted.parquet``).
    unknown : {"error", "skip"}
        What to do with targets the model has not seen.
    overwrite : bool
        Replace an existing ``out`` file that wsd did not write.

    Returns
    -------
    Path
        The file written.
    """
    folder = Path(senses)
    destination = Path(out) if out is not None else Path(run) / PREDICTED_FILE
    check_disjoint(destination, {"--senses": folder, "--run": run}, allowed=[Path(run) / PREDICTED_FILE])
    if out is not None or destination.is_dir():
        claim_file(destination, PREDICTED_MARK, overwrite=overwrite)
    lock_file_folder(destination)
    model = SenseModel.load(folder / MODEL_DIR if (folder / MODEL_DIR).is_dir() else folder)
    occurrences, vectors = load_run(run)
    X = finite_vectors(vectors, run)
    embedding = read_meta(run).get("embedding")
    labels = model.predict(occurrences, X, embedding_meta=embedding, unknown=unknown)
    proba = model.predict_proba(occurrences, X, embedding_meta=embedding, unknown=unknown)
    table = label_table(occurrences, labels, proba, senses_per_target(model))
    write_parquet(destination, with_text_and_keywords(table, occurrences, folder), mark=PREDICTED_MARK)
    return destination
