"""The few-shot job of ``wsd predict --examples FILE --data FILE2 --out DIR``: label, score, write the folder.

Each occurrence of FILE2 gets the sense of its nearest sense-labelled examples of FILE
(:meth:`wsd.workflows.tagger.SenseTagger.from_examples`); when FILE2 has a ``sense`` column the labels are scored
(accuracy and macro-F1, :mod:`wsd.evaluate.metrics.disambiguation`) beside the most-frequent-sense baseline (each
target's sense with the most examples). ``DIR`` is a wsd output folder (:mod:`wsd.io.outputs`):

- ``predicted.parquet``: FILE2's occurrences (``id``, ``target``, ``form``, ``text``, ``start``, ``end``) with
  ``sense``, ``probability``, ``margin``, ``fallback``, ``most_frequent`` and, when FILE2 is labelled, ``gold``
  (its highest-weight sense; empty where unlabelled) and ``correct``;
- ``metrics.json``: the configuration, the encoder, the counts and, when labelled, the scores overall, per target
  and of the baseline;
- ``model/``: the examples as embedded (:meth:`~wsd.workflows.tagger.SenseTagger.save`): ``wsd.load(DIR)`` tags
  texts with them, and ``--examples DIR`` labels other data without embedding the examples again.

>>> document = predict_examples("examples.tsv", "held_out.tsv", "out/fewshot")  # doctest: +SKIP
>>> document["overall"]["accuracy"]  # doctest: +SKIP
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd

from wsd.embed.encoder import Encoder
from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets.generic import read_generic
from wsd.evaluate.metrics.disambiguation import disambiguation_scores
from wsd.io.layout import METRICS_FILE, MODEL_DIR, PREDICTED_FILE
from wsd.io.outputs import check_disjoint, claim_folder, in_session
from wsd.io.provenance import library_versions
from wsd.io.writers import write_json, write_parquet
from wsd.occurrences import GOLD_COLUMN
from wsd.schema import (
    DEFAULT_FEW_SHOT_CONTEXT_VECTOR,
    DEFAULT_FEW_SHOT_MARGIN,
    DEFAULT_FEW_SHOT_NEIGHBORS,
    DEFAULT_FEW_SHOT_RULE,
    FewShotRule,
)
from wsd.senses.nearest import check_covered, primary_senses
from wsd.senses.nearest_persistence import load_few_shot
from wsd.workflows.tagger import SenseTagger, read_examples, saved_examples

#: What ``metrics.json`` names as its dataset, and the Parquet mark of ``predicted.parquet``.
FEW_SHOT = "few-shot"
#: The baseline scored beside the labels: each target's sense with the most examples.
BASELINE = "most-frequent-sense"


def _data_table(data: str | os.PathLike[str]) -> pd.DataFrame:
    """FILE2's occurrences (one line per problem, naming file and line), refused when it holds none."""
    table = read_generic(data)
    if table.empty:
        raise InputError(f"{data}: no occurrences to label (expected a header and one line per occurrence)")
    return table


@in_session
def predict_examples(
    examples: str | os.PathLike[str],
    data: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    rule: FewShotRule = DEFAULT_FEW_SHOT_RULE,
    n_neighbors: int = DEFAULT_FEW_SHOT_NEIGHBORS,
    margin: float = DEFAULT_FEW_SHOT_MARGIN,
    model: str | None = None,
    encoder: Encoder | None = None,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Label the occurrences of ``data`` by the labelled ``examples``, score them when labelled, write ``out``.

    Both files are read and checked, and every target of ``data`` must have examples, before ``out`` is claimed
    and anything is embedded.

    Parameters
    ----------
    examples : path
        Sense-labelled examples in the generic format (``id, target, text, start, end, sense``), or a saved
        few-shot model (the ``DIR`` or ``DIR/model`` of an earlier call: its examples are not embedded again).
    data : path
        The occurrences to label, in the same format (``sense`` optional: then they are scored).
    out : path
        The output folder (see the module docstring); a folder of someone's files is refused.
    rule, n_neighbors, margin
        The few-shot rule (:class:`wsd.senses.nearest.NearestSenseClassifier`).
    model : str, optional
        The encoder (as ``wsd embed --model``; default: the bundled one), unless ``encoder`` is given.
    encoder : Encoder, optional
        An encoder already loaded.
    overwrite : bool
        Replace a wsd output folder of another configuration.

    Returns
    -------
    dict
        The ``metrics.json`` document written to ``out`` (accuracy and macro-F1 when ``data`` has senses).

    Raises
    ------
    InputError
        For examples without a ``sense`` column, an empty file, a malformed record (file and line), or targets of
        ``data`` without examples (named).
    ConfigError
        For ``model`` beside a saved few-shot model (it names its own encoder).
    OutputRefused
        When ``out`` may not be written (:mod:`wsd.io.outputs`).
    """
    check_disjoint(out, {"--examples": examples, "--data": data})
    saved = saved_examples(examples)
    source: pd.DataFrame | Path
    if saved is None:
        source = read_examples(examples)
        covered = source["target"].unique().tolist()
    else:
        if model is not None:
            raise ConfigError(f"--model: the saved examples {examples} were embedded with their own encoder")
        source, covered = saved, load_few_shot(saved)[0].targets_  # checked before anything is written
    occurrences = _data_table(data)
    check_covered(occurrences["target"], covered, str(data))
    config = {
        "examples": str(Path(examples).resolve()),
        "data": str(Path(data).resolve()),
        "rule": rule,
        "n_neighbors": int(n_neighbors),
        "margin": float(margin),
        "model": model if encoder is None else encoder.loaded.name,
    }
    claim_folder(out, "output", config=config, overwrite=overwrite)  # before the encoder loads
    if encoder is None and saved is None:
        encoder = Encoder(model=model, context_vector=DEFAULT_FEW_SHOT_CONTEXT_VECTOR)
    tagger = SenseTagger.from_examples(source, encoder, rule=rule, n_neighbors=n_neighbors, margin=margin)
    embedding = tagger.encoder.identity().embedding_meta()
    labelled = tagger.label(occurrences)
    folder = Path(out)
    tagger.save(folder / MODEL_DIR)
    document: dict[str, Any] = {
        "dataset": FEW_SHOT,
        "config": config,
        "embedding": embedding,
        "n_examples": tagger.model.n_examples(),
        "n_instances": len(occurrences),
        "n_targets": int(occurrences["target"].nunique()),
        "n_scored": 0,
    }
    if GOLD_COLUMN in occurrences.columns:
        gold = primary_senses(occurrences[GOLD_COLUMN])
        scored = gold != ""
        labelled["gold"] = gold
        correct = pd.array(labelled["sense"].to_numpy() == gold, dtype="boolean")
        correct[~scored] = pd.NA
        labelled["correct"] = correct
        if scored.any():
            targets = labelled["target"].to_numpy()[scored]
            system = disambiguation_scores(targets, gold[scored], labelled["sense"].to_numpy()[scored])
            baseline = disambiguation_scores(targets, gold[scored], labelled["most_frequent"].to_numpy()[scored])
            document |= {
                "n_scored": int(scored.sum()),
                "overall": {"accuracy": system["accuracy"], "macro_f1": system["macro_f1"]},
                "baselines": {BASELINE: {"accuracy": baseline["accuracy"], "macro_f1": baseline["macro_f1"]}},
                "per_target": system["per_target"],
            }
    document["fallback_share"] = float(labelled["fallback"].mean())
    document["versions"] = library_versions()
    write_parquet(folder / PREDICTED_FILE, labelled, mark=FEW_SHOT)
    write_json(folder / METRICS_FILE, document)  # last: its presence marks the folder finished
    return document


def summary(document: dict[str, Any], out: str | os.PathLike[str]) -> str:
    """The few lines ``wsd predict --examples`` prints: what was labelled, where, and the scores when labelled.

    Parameters
    ----------
    document : dict
        :func:`predict_examples`' document.
    out : path
        The output folder.

    Returns
    -------
    str

    Examples
    --------
    >>> print(summary({"n_instances": 3, "n_targets": 1, "n_examples": 9, "n_scored": 0, "fallback_share": 0.0,
    ...                "config": {"rule": "knn", "n_neighbors": 5, "margin": 0.0}}, "out"))
    labelled 3 occurrences of 1 target by 9 examples (knn, 5 per sense, margin 0) → out
    """
    config = document["config"]
    rule = f"knn, {config['n_neighbors']} per sense" if config["rule"] == "knn" else "centroid"
    targets = f"{document['n_targets']} target" + ("s" if document["n_targets"] != 1 else "")
    lines = [
        f"labelled {document['n_instances']:,} occurrences of {targets} by {document['n_examples']:,} examples "
        f"({rule}, margin {config['margin']:g}) → {out}"
    ]
    if document.get("n_scored"):
        overall, base = document["overall"], document["baselines"][BASELINE]
        lines.append(
            f"accuracy {100 * overall['accuracy']:.1f}%, macro-F1 {100 * overall['macro_f1']:.1f}% on "
            f"{document['n_scored']:,} labelled occurrences (most frequent sense: {100 * base['accuracy']:.1f}%, "
            f"{100 * base['macro_f1']:.1f}%)"
        )
    if document.get("fallback_share"):
        lines.append(f"{100 * document['fallback_share']:.1f}% below the margin got the most frequent sense")
    return "\n".join(lines)
