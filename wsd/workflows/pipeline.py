"""The whole job on a corpus (``wsd run``): scan → embed → cluster → (score against gold) → (change) → (report).

:func:`induce_corpus` makes an output folder (:mod:`wsd.io.layout`): the run
(:func:`wsd.workflows.embedding.embed_corpus`), its senses and, as asked, their scores against gold labels, their
change between slices and the report. Where the folder's run and senses were made from the same request they are
kept, and only the scores, the change and the report are made again.

>>> summary = induce_corpus("data/demo/corpus.txt", "mouse,bank", "out/demo")  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.corpus.documents import corpus_fingerprint, corpus_location
from wsd.corpus.matcher import make_matcher
from wsd.corpus.scan import (
    build_scan_options,
    iter_document_chunks,
)
from wsd.embed.encoder import Encoder
from wsd.errors import ConfigError, InputError
from wsd.evaluate.gold_match import attach_gold, explain_unmatched
from wsd.evaluate.keys import key_from_occurrences
from wsd.io.layout import CHANGE_DIR, GOLD_FILE, LABELS_FILE, METRICS_FILE, RUN_DIR, SENSES_DIR
from wsd.io.outputs import check_disjoint, claim_folder, in_session
from wsd.options import (
    ChangeOptions,
    EmbeddingOptions,
    ExecutionOptions,
    ScanSettings,
    SenseOptions,
    route_settings,
)
from wsd.schema import is_off
from wsd.senses.naming import NamingParameters
from wsd.workflows.embedding import embed_corpus, named_inputs

#: The options of :func:`embed_corpus` that decide how the work is spread, not what it gives (left out of the
#: request a later ``wsd run`` is compared with).
_EXECUTION_OPTIONS = frozenset(
    {"executor", "scheduler", "workers", "threads_per_worker", "retries", "consolidate", "device", "batch_size"}
)


def embed_request(
    scan: ScanSettings, embedding: EmbeddingOptions, execution: ExecutionOptions, recipe_context: str | None
) -> dict[str, Any]:
    """The options of :func:`embed_corpus` that :func:`stage_request` compares, as ``wsd run`` has recorded them.

    The scan settings, the embedding options but ``device`` and ``batch_size``, ``vector_dtype`` and
    ``chunk_size``; ``offline`` as True or None; a context vector that is off as None where the recipe has
    none either, else ``"none"`` (the keys and values of the records written before the option objects, so
    that their output folders still resume).

    Parameters
    ----------
    scan : ScanSettings
        The scan settings (``forms`` is compared as a file, apart).
    embedding : EmbeddingOptions
        The embedding options, the recipe's context vector already filled in.
    execution : ExecutionOptions
        The storage settings are used.
    recipe_context : str, optional
        The recipe's context vector.

    Returns
    -------
    dict
    """
    options = scan.scan_kwargs() | embedding.encoder_kwargs()
    options["meta"] = scan.meta if isinstance(scan.meta, str) else list(scan.meta)
    options["offline"] = True if embedding.offline else None
    if is_off(options["context_vector"]):
        options["context_vector"] = None if recipe_context is None else "none"
    options |= {"vector_dtype": execution.vector_dtype, "chunk_size": execution.chunk_size}
    return options


def _file_stamp(path: Any) -> Any:
    """A file named by a path as its absolute name, size and modification time (anything else as it is)."""
    if isinstance(path, str | os.PathLike) and Path(path).is_file():
        stat = Path(path).stat()
        return [str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns]
    return path


def stage_request(
    corpus: str | os.PathLike[str],
    targets: Any,
    out: Path,
    forms: Any,
    inducer: Any,
    embed_options: Mapping[str, Any],
) -> dict[str, Any] | None:
    """What ``run/`` and ``senses/`` of an output folder are made from, as JSON (None when it cannot be said).

    Parameters
    ----------
    corpus : path
        The corpus (its files' names, sizes and times are part of it).
    targets, forms : object
        The targets and the forms file (a file by its name, size and time).
    out : Path
        The output folder (left out of a corpus folder that holds it).
    inducer : SenseInducer
        The sense inducer (its parameters).
    embed_options : mapping
        The options of :func:`embed_corpus` (those that spread the work are left out).

    Returns
    -------
    dict or None
        None with an already loaded ``encoder`` (its settings cannot be compared).
    """
    import json

    if embed_options.get("encoder") is not None:
        return None
    request = {
        "corpus": corpus_location(corpus),
        "corpus_fingerprint": corpus_fingerprint(corpus, exclude=[out]),
        "targets": _file_stamp(targets),
        "forms": _file_stamp(forms),
        "inducer": inducer.get_params(deep=False),
        "embed": {key: value for key, value in embed_options.items() if key not in _EXECUTION_OPTIONS},
    }
    return json.loads(json.dumps(request, default=str))


def finished_stages(out: Path, request: Mapping[str, Any] | None) -> bool:
    """Whether ``out`` holds a finished ``run/`` and ``senses/`` made from ``request`` (only the change differs).

    Parameters
    ----------
    out : Path
        The output folder of ``wsd run``.
    request : mapping or None
        :func:`stage_request` of this run.

    Returns
    -------
    bool
    """
    import json

    from wsd.io.layout import META_FILE
    from wsd.io.run_reader import STATUS_COMPLETE, read_meta

    senses_meta = out / SENSES_DIR / META_FILE
    if request is None or not senses_meta.is_file():
        return False
    try:
        run_meta = read_meta(out / RUN_DIR)
        made = json.loads(senses_meta.read_text(encoding="utf-8"))
    except (InputError, ValueError, OSError):
        return False
    return (
        isinstance(made, dict)
        and run_meta.get("status") == STATUS_COMPLETE
        and made.get("request") == request
        and made.get("run_fingerprint") == run_meta.get("fingerprint")
    )


def check_slices_before_embedding(
    corpus: str | os.PathLike[str],
    targets: Any,
    forms: Any,
    out: Path,
    change: ChangeOptions,
    scan: ScanSettings,
) -> None:
    """Scan the corpus (without embedding) and check that the slices of ``change`` hold uses of the targets.

    Only the target, document and slice columns are kept, so the check costs one reading of the corpus, not its
    memory. A bin without uses is a warning naming it; no bin with uses, or fewer than two slices, an error
    (:func:`wsd.change.slices.assign_slices`); so is a ranked pair of slices where no target reaches
    ``change.min_uses`` uses in both (the error :func:`wsd.change.compare_slices` would give after embedding and
    clustering: the uses a scan finds are the most the senses can hold). The scan's own warnings are left to the
    embedding's scan.

    Parameters
    ----------
    corpus : path
        The corpus.
    targets, forms : object
        As for :func:`embed_corpus`.
    out : Path
        The output folder (left out of a corpus folder that holds it).
    change : ChangeOptions
        ``by``, ``bins``, ``bin_width``, ``between``, ``min_uses``.
    scan : ScanSettings
        The scan settings (its ``forms`` is ``forms``).

    Raises
    ------
    InputError
        As :func:`wsd.change.slices.assign_slices` (and as the scan, for a corpus without the targets), and when
        no target has ``change.min_uses`` uses in both ranked slices.
    """
    from wsd.change.compare import compare_slices
    from wsd.change.slices import parse_by
    from wsd.corpus.documents import iter_documents

    column = parse_by(str(change.by))[0]
    options = build_scan_options(targets, forms, **scan.scan_kwargs())
    matcher = make_matcher(options.targets, options.lemmatizer, options.case_sensitive, options.languages)
    chunks: list[pd.DataFrame] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the embedding's scan says them once
        documents = iter_documents(corpus, text_field=options.text_field, exclude=[out], meta=options.meta_spec)
        for chunk in iter_document_chunks(documents, matcher, options):
            chunks.append(chunk[["target", "doc_id", column]])  # the document: to name a bad value
    if not chunks:
        return  # no occurrence at all: the embedding's scan says so, with its reasons
    table = pd.concat(chunks, ignore_index=True)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="the change of .* cannot be measured")  # the real run says it
        compare_slices(  # counts only: every use one sense, no vectors, the fewest resamples
            table,
            labels=np.zeros(len(table), dtype=np.int64),
            by=str(change.by),
            bins=change.bins,
            bin_width=change.bin_width,
            between=change.between,
            measure="jsd",
            min_uses=change.min_uses,
            rank_by="score",
            resamples=10,
        )


@in_session
def induce_corpus(
    corpus: str | os.PathLike[str],
    targets: str | Iterable[str] | Mapping[str, Iterable[str]],
    out: str | os.PathLike[str],
    *,
    gold: str | os.PathLike[str] | None = None,
    scan: ScanSettings | None = None,
    embedding: EmbeddingOptions | None = None,
    senses: SenseOptions | Mapping[str, Any] | None = None,
    change: ChangeOptions | Mapping[str, Any] | None = None,
    execution: ExecutionOptions | None = None,
    encoder: Encoder | None = None,
    report: bool = False,
    inventory: str | None = None,
    naming: NamingParameters | None = None,
    progress: bool = True,
    overwrite: bool = False,
    **settings: Any,
) -> dict[str, Any]:
    """The whole job on a corpus: scan → embed → cluster → (evaluate against ``gold``) → (change) → (report).

    Writes the output folder ``out`` (:mod:`wsd.io.layout`): ``run/`` (occurrences and vectors), ``senses/``
    (sense model, labels, sense cards) and, with ``gold``, ``metrics.json`` (:mod:`wsd.workflows.results`) and
    ``gold.parquet`` (id, target, sense of every occurrence; ``""`` where unlabelled); with ``report``,
    ``report.html``.

    Parameters
    ----------
    corpus : path
        A corpus file or folder.
    targets : str, list or mapping
        The target words and their forms.
    out : path
        The output folder.
    gold : path, optional
        Labelled occurrences in the generic format, to score the induced senses against.
    scan : ScanSettings, optional
        What the scan finds (:class:`wsd.options.ScanSettings`, with ``forms``).
    embedding : EmbeddingOptions, optional
        How occurrences become vectors (:class:`wsd.options.EmbeddingOptions`). Its ``context_vector`` None
        means the recipe's (``"none"`` turns it off).
    senses : SenseOptions or dict, optional
        The recipe, the seed and the sense-inducer parameters (:class:`wsd.options.SenseOptions`; unset ones
        come from the recipe); a dict is taken as sense-inducer parameters (the recipe and seed are then the
        ``recipe`` and ``seed`` keywords). Without a SenseOptions or a ``recipe=`` keyword, a model built by a
        ``wsd tune`` recipe that ships a sense recipe (``model="wsd:sense-minilm"``) brings it, as on the command
        line; a recipe given either way wins.
    change : ChangeOptions or dict, optional
        Compare the senses between slices (:class:`wsd.options.ChangeOptions`, or its fields as a dict:
        ``by``, ``bins``, ``between``, ``measure``, ``binary_k``, ``binary_n``, ...); written to ``OUT/change``.
    execution : ExecutionOptions, optional
        Where the embedding runs and how the run is stored (:class:`wsd.options.ExecutionOptions`).
    encoder : Encoder, optional
        An already loaded encoder (then the output folder is never taken as finished by an earlier call).
    report : bool
        Also write ``report.html``.
    inventory : str, optional
        Name the senses from a sense inventory, ``wordnet:DIR`` (:mod:`wsd.workflows.naming`): a ``synset``
        column in ``labels.parquet`` (with its evidence, ``synset_cosine`` and ``synset_lead``), each sense's names
        in its card and in the change tables.
    naming : NamingParameters, optional
        How ``inventory`` names (:class:`wsd.senses.naming.NamingParameters`; default: every use its nearest
        synset); its thresholds ask for fewer, surer names. Part of what a later call must ask the same to reuse
        the senses.
    progress : bool
        Show progress bars.
    overwrite : bool
        Replace wsd's files of another configuration in ``out``, or write into a folder of other files
        (which are left alone); without it such a destination is refused (:mod:`wsd.io.outputs`).
    **settings
        Any field of the option objects by its name (``forms=...``, ``recipe="textbook"``, ``seed=1``,
        ``layers="last"``, ``by="year"``, ``workers=2``), applied on top of an object given too; None counts as
        not given. An unknown name is a ``TypeError`` that names the closest field.

    Returns
    -------
    dict
        ``occurrences`` and ``senses`` per target, ``run`` and ``senses_dir`` (paths), ``metrics`` (with
        ``gold``), ``change_dir`` and ``change_ranking`` (the printed ranking, with ``change``), ``report`` (with
        ``report``).

    Examples
    --------
    >>> induce_corpus("corpus.txt", "mouse,bank", "out", senses=SenseOptions(method="kmeans"))  # doctest: +SKIP
    """
    from wsd.evaluate.datasets.generic import read_generic
    from wsd.evaluate.keys import key_from_labels
    from wsd.evaluate.scoring import baseline_keys, score_keys
    from wsd.io.run_reader import load_run, read_meta
    from wsd.io.writers import write_json, write_parquet
    from wsd.senses.inducer import SenseInducer, make_inducer
    from wsd.senses.recipes import embedding_recipe
    from wsd.senses.recipes import recipe as recipe_params
    from wsd.senses.stage import cluster_run
    from wsd.tune.card import training_overlap
    from wsd.workflows.results import baseline_scores, metrics_document

    out = Path(out)
    inducer_dict = dict(senses) if isinstance(senses, Mapping) else None
    change_given = bool(change) if isinstance(change, Mapping) else change is not None
    groups = {
        "scan": (ScanSettings, scan),
        "embedding": (EmbeddingOptions, embedding),
        "senses": (SenseOptions, None if isinstance(senses, Mapping) else senses),
        "change": (ChangeOptions, ChangeOptions(**change) if isinstance(change, Mapping) else change),
        "execution": (ExecutionOptions, execution),
    }
    objects, given = route_settings("induce_corpus()", settings, groups)
    scan_settings, embedding_options = objects["scan"], objects["embedding"]
    sense_options, change_options, execution_options = objects["senses"], objects["change"], objects["execution"]
    slicing = change_given or bool(given & {f.name for f in dataclasses.fields(ChangeOptions)})
    forms = scan_settings.forms
    # a recipe's model brings the sense recipe made for it, unless a recipe is given
    if not isinstance(senses, SenseOptions) and "recipe" not in given and encoder is None:
        from wsd.senses.recipes import shipped_for_vectors

        shipped = shipped_for_vectors(embedding_options.model, embedding_options.context_vector)
        if shipped is not None:
            sense_options = sense_options.replace(recipe=shipped)
    recipe = sense_options.recipe
    # every check that needs no corpus comes before the output folder and the encoder: a refused option costs nothing
    if inducer_dict is not None:  # SenseInducer keywords
        inducer = make_inducer(recipe_params(recipe) | inducer_dict | {"random_state": sense_options.seed})
    else:
        inducer = SenseInducer.from_options(sense_options)
    if slicing:
        from wsd.change.slices import check_slice_options
        from wsd.corpus.metadata import MetaSpec

        spec = MetaSpec.build(scan_settings.meta, scan_settings.slice_from_path, scan_settings.text_field or "text")
        check_slice_options(
            change_options.by, change_options.bins, change_options.between, spec.columns, change_options.bin_width
        )
    labelled = read_generic(gold) if gold is not None else None  # a missing or malformed gold file: before embedding
    namer = None
    if inventory:  # a folder that is not WordNet: before embedding
        from wsd.workflows.naming import InventoryNamer

        namer = InventoryNamer(inventory, naming)
    elif naming is not None:
        raise ConfigError("naming parameters name uses from an inventory: give inventory='wordnet:DIR' too")
    check_disjoint(out, {**named_inputs(corpus, targets, forms), "--gold": gold})
    recipe_context = embedding_recipe(recipe)["context_vector"]
    if embedding_options.context_vector is None:  # not given: the recipe's ("none" turns it off)
        embedding_options = embedding_options.replace(context_vector=recipe_context or "none")
    if not isinstance(targets, str | Mapping):
        targets = list(targets)  # read once: compared, scanned and embedded
    request = None
    if encoder is None:  # a loaded encoder's settings cannot be compared
        request = stage_request(
            corpus,
            targets,
            out,
            forms,
            inducer,
            embed_request(scan_settings, embedding_options, execution_options, recipe_context),
        )
    if request is not None and namer is not None:  # named senses are kept only for the same inventory and thresholds
        request = {**request, "inventory": namer.spec, "naming": namer.parameters.to_dict()}
    unchanged = finished_stages(out, request)  # only the change settings differ: run/ and senses/ are kept
    if slicing and not unchanged:  # the slices hold uses: one scan without embedding, before any folder is made
        check_slices_before_embedding(corpus, targets, forms, out, change_options, scan_settings)
    claim_folder(out, "output", overwrite=overwrite)
    if unchanged:
        run, senses_dir = out / RUN_DIR, out / SENSES_DIR
    else:
        run = embed_corpus(
            corpus,
            targets,
            out / RUN_DIR,
            scan=scan_settings,
            embedding=embedding_options,
            execution=execution_options,
            encoder=encoder,
            progress=progress,
            overwrite=overwrite,
            corpus_exclude=out,
        )
        senses_dir = cluster_run(
            run, out / SENSES_DIR, inducer=inducer, overwrite=overwrite, request=request, namer=namer
        )
    occurrences, _ = load_run(run)
    labels = pd.read_parquet(senses_dir / LABELS_FILE)
    summary: dict[str, Any] = {
        "occurrences": occurrences.groupby("target", sort=False).size().astype(int).to_dict(),
        "senses": labels.groupby("target", sort=False)["sense"].nunique().astype(int).to_dict(),
        "run": str(run),
        "senses_dir": str(senses_dir),
        # likely proper names the scan met (target → uses), and what it did with them (scan.proper)
        "proper": {
            target: int(sum(forms.values()))
            for target, forms in read_meta(run).get("scan", {}).get("proper", {}).items()
        },
        "proper_policy": scan_settings.proper,
    }
    if gold is not None and labelled is not None:
        gold_senses, matched = attach_gold(occurrences, labelled)
        if matched == 0:
            raise InputError(
                f"{gold}: none of its labelled occurrences matches an occurrence found in {corpus} "
                f"({explain_unmatched(occurrences, labelled)})"
            )
        # rows of targets not scanned are out of this job (a gold file of more words than --targets): left out, and
        # named in a warning only where a scanned target got no gold at all (its gold may be spelt otherwise there)
        has_sense = labelled["sense"].astype(str).str.strip() != ""
        in_job = labelled["target"].astype(str).isin(set(occurrences["target"].astype(str)))
        n_labelled, other_rows = int((has_sense & in_job).sum()), labelled[has_sense & ~in_job]
        if matched < n_labelled:
            warnings.warn(
                f"{gold}: only {matched} of {n_labelled} labelled occurrences of the scanned targets match "
                f"occurrences found in the corpus: {explain_unmatched(occurrences, labelled[in_job])}",
                stacklevel=2,
            )
        without_gold = sorted(
            set(occurrences["target"].astype(str)) - set(occurrences["target"][(gold_senses != "").to_numpy()])
        )
        if without_gold and len(other_rows):
            others = sorted(set(other_rows["target"].astype(str)))
            warnings.warn(
                f"{gold}: no labelled occurrence of {', '.join(without_gold)}; its {len(other_rows)} other row(s) "
                f"name targets not scanned: {', '.join(others[:5])}{', ...' if len(others) > 5 else ''}",
                stacklevel=2,
            )
        summary["gold_rows"] = {"scored": matched, "other_targets": len(other_rows)}
        mask = (gold_senses != "").to_numpy()
        scored = occurrences.loc[mask].assign(sense=gold_senses[mask].to_numpy())
        gold_key = key_from_occurrences(scored, where=str(gold))
        system = key_from_labels(scored["target"], scored["id"], labels["sense"].to_numpy()[mask])
        metrics = metrics_document(
            "generic",
            {"gold": str(gold), "corpus": str(corpus), "senses": inducer.get_params(deep=False)},
            [score_keys("generic", gold_key, system)],
            baseline_scores("generic", gold_key, baseline_keys(scored, 1)),
            n_instances=int(mask.sum()),
            n_targets=int(scored["target"].nunique()),
            embedding=read_meta(run).get("embedding"),
            training_overlap=training_overlap(embedding_options.model, scored["target"].astype(str).unique()),
        )
        write_json(out / METRICS_FILE, metrics)
        gold_table = occurrences.assign(sense=gold_senses.to_numpy())
        write_parquet(out / GOLD_FILE, gold_table[["id", "target", "sense"]])
        summary["metrics"] = metrics
    if slicing:
        from wsd.change.stage import change_run, format_ranking

        # OUT/change is this output's own: other change settings replace it (only wsd's files; no --overwrite needed)
        summary["change_dir"] = str(change_run(run, senses_dir, out / CHANGE_DIR, change_options, overwrite=True))
        summary["change_ranking"] = format_ranking(summary["change_dir"])
    if report:
        from wsd.report import write_report

        summary["report"] = str(write_report(out))
    return summary
