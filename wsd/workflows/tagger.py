"""The senses of sentences in one call: ``wsd.load(senses_dir).predict(["text", ...], target="mouse")``.

:func:`load` reads a senses folder (``wsd cluster`` or ``wsd run`` output), its keywords and the encoder the senses
were fitted with (named in the folder's metadata; loaded once). :meth:`SenseTagger.predict` finds the target in
each text with the scanner wsd uses (the run's forms and lemmatizer where the run is still there), embeds each
occurrence and gives a DataFrame: the text, the sense, its probability, the probability of every sense, and the
sense's keywords.

>>> tagger = load("out/senses")  # doctest: +SKIP
>>> tagger.predict(["The mouse ran under the desk.", "Click the left mouse button."], target="mouse")  # doctest: +SKIP

:meth:`SenseTagger.from_examples` makes a tagger from sense-labelled examples instead (few-shot disambiguation: each
occurrence gets the sense of its nearest examples, :mod:`wsd.senses.nearest`); :meth:`SenseTagger.label` labels the
spans of an occurrence table (``wsd predict --examples FILE --data FILE2``).

>>> tagger = SenseTagger.from_examples("examples.tsv")  # doctest: +SKIP
>>> tagger.predict("She sat on the bank of the river.", target="bank")  # doctest: +SKIP

:meth:`SenseTagger.save` writes such a tagger (JSON + ``.npy``, never pickle) and :func:`load` reads it back.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.corpus.documents import Document
from wsd.corpus.matcher import make_matcher
from wsd.corpus.scan import ScanOptions, build_scan_options, iter_document_chunks
from wsd.embed.coverage import warn_unreadable_targets
from wsd.embed.encoder import Encoder
from wsd.errors import ConfigError, InputError, ModelError
from wsd.evaluate.datasets.generic import read_generic
from wsd.io.layout import FEW_SHOT_MODEL_FILE, META_FILE, MODEL_DIR
from wsd.io.run_reader import read_meta
from wsd.occurrences import GOLD_COLUMN, validate_occurrences
from wsd.schema import (
    DEFAULT_FEW_SHOT_CONTEXT_VECTOR,
    DEFAULT_FEW_SHOT_MARGIN,
    DEFAULT_FEW_SHOT_NEIGHBORS,
    DEFAULT_FEW_SHOT_RULE,
    FewShotRule,
)
from wsd.senses.mismatch import embedding_mismatch
from wsd.senses.model import UNCHECKED_META_FIELDS, SenseModel
from wsd.senses.nearest import LABEL_COLUMNS, FewShotSenses, NearestSenseClassifier, primary_senses, warn_unlabelled
from wsd.senses.nearest_persistence import is_few_shot_folder, load_few_shot, save_few_shot
from wsd.senses.stage import sense_keywords
from wsd.workflows.naming import encoder_from_meta

#: The most characters :meth:`SenseTagger.predict` tags in one call, all texts together (``max_chars``; the
#: help of ``wsd predict --text`` states it). The forward pass's memory is bounded by its batches whatever the
#: texts hold; this bounds the time and the arrays of one call, which grow with the uses. At the limit, one text
#: with a use every 13 characters (7,607 uses): 20 s and 1,187 MiB peak for the whole ``wsd predict`` process on 2
#: cores (experiments/results/bench_line_memory/bench_line_memory.md; before issue 39, 120 KB took 95 s and 12 GB).
MAX_TEXT_CHARS = 100_000

#: The options of :class:`wsd.Encoder` that change the vectors: a saved few-shot model names its own.
VECTOR_OPTIONS = ("model", "layers", "pooling", "max_length", "window_tokens", "context_vector")

#: The columns of :meth:`SenseTagger.label` before the sense's (:data:`wsd.senses.nearest.LABEL_COLUMNS`).
OCCURRENCE_COLUMNS = ("id", "target", "form", "text", "start", "end")

#: The columns of :meth:`SenseTagger.predict`, in order.
PREDICTION_COLUMNS = (
    "text_id",
    "text",
    "target",
    "form",
    "start",
    "end",
    "sense",
    "sense_id",
    "probability",
    "probabilities",
    "keywords",
)


def _run_scan_options(meta: Mapping[str, Any]) -> dict[str, Any] | None:
    """The scan options of the run the senses were fitted on, when that run is still where it was."""
    run = meta.get("run")
    if not run:
        return None
    try:
        return dict(read_meta(run)["config"]["scan"])
    except (OSError, KeyError, TypeError, ValueError, InputError):
        return None


class SenseTagger:
    """Predict the senses of a target word in new texts with fitted senses and their encoder.

    Made by :func:`load` (induced senses, a senses folder) or :meth:`from_examples` (labelled examples).
    Parameters are stored as given.

    Parameters
    ----------
    model : SenseModel or FewShotSenses
        The fitted sense model, or the few-shot classifiers of labelled examples.
    encoder : Encoder
        The encoder whose vectors the model was fitted on.
    keywords : mapping
        ``(target, sense) -> keywords`` (:func:`sense_keywords`).
    scan : mapping, optional
        The scan options of the run the senses come from (its forms, lemmatizer, case and context).
    """

    def __init__(
        self,
        model: SenseModel | FewShotSenses,
        encoder: Encoder,
        keywords: Mapping[tuple[str, int], str] | None = None,
        scan: Mapping[str, Any] | None = None,
    ) -> None:
        self.model = model
        self.encoder = encoder
        self.keywords = dict(keywords or {})
        self.scan = dict(scan) if scan is not None else None

    @classmethod
    def from_examples(
        cls,
        examples: str | os.PathLike[str] | pd.DataFrame,
        encoder: Encoder | None = None,
        *,
        rule: FewShotRule = DEFAULT_FEW_SHOT_RULE,
        n_neighbors: int = DEFAULT_FEW_SHOT_NEIGHBORS,
        margin: float = DEFAULT_FEW_SHOT_MARGIN,
        **encoder_options: Any,
    ) -> SenseTagger:
        """A tagger that gives each occurrence the sense of its nearest labelled examples (few-shot).

        The examples are embedded once; each target gets a :class:`~wsd.senses.nearest.NearestSenseClassifier`.
        A graded label (``a/0.7 b/0.3``) counts as its highest-weight sense; examples without a sense are left
        out with a warning.

        Parameters
        ----------
        examples : path or DataFrame
            A file in the generic labelled format (``id, target, text, start, end, sense``; TSV or JSON Lines,
            :mod:`wsd.evaluate.datasets.generic`), or a table with those columns (:func:`read_examples`); or a
            folder :meth:`save` wrote (or ``wsd predict --examples FILE --out DIR``: ``DIR`` or ``DIR/model``),
            whose examples are not embedded again: they are labelled by ``rule``, ``n_neighbors`` and ``margin``
            as given, with the encoder the folder names.
        encoder : Encoder, optional
            An encoder already loaded (default: ``Encoder(**encoder_options)``, the bundled model with the
            measured representation, ``context_vector=DEFAULT_FEW_SHOT_CONTEXT_VECTOR``; for a saved folder, the
            encoder it names, and a given one must give the same vectors).
        rule : {"knn", "centroid"}
            Local-mean k-NN or sense centroids (:class:`~wsd.senses.nearest.NearestSenseClassifier`).
        n_neighbors : int
            Examples per sense the k-NN rule averages (1: the nearest neighbour).
        margin : float
            The least lead of the best sense (cosine units), else the most frequent sense of the examples.
        **encoder_options
            Options of :class:`wsd.Encoder` (``model``, ``layers``, ``context_vector``, ``device``, ...), when
            ``encoder`` is not given.

        Returns
        -------
        SenseTagger
            Its senses are those of the examples.

        Raises
        ------
        InputError
            When the examples have no ``sense`` column, no labelled row, or a malformed record (file and line); for
            a folder, when it holds no saved few-shot model or a file of it is truncated, edited or malformed.
        ConfigError
            For options that change the vectors (``model``, ``layers``, ...) beside a saved folder.

        Examples
        --------
        >>> tagger = SenseTagger.from_examples("data/demo/labelled.tsv")  # doctest: +SKIP
        >>> tagger.predict("Click the left mouse button.", target="mouse")[["sense", "probability"]]  # doctest: +SKIP
        """
        classifier = NearestSenseClassifier(rule=rule, n_neighbors=n_neighbors, margin=margin)
        saved = saved_examples(examples)
        if saved is not None:  # embedded before: the saved examples under this rule, with their own encoder
            model, embedding = load_few_shot(saved, classifier)
            given = sorted(name for name in VECTOR_OPTIONS if encoder_options.get(name) is not None)
            if given:
                raise ConfigError(
                    f"{examples}: the saved examples were embedded with their own encoder "
                    f"({embedding.get('model', 'recorded in it')}): leave out {', '.join(given)}"
                )
            options = {name: value for name, value in encoder_options.items() if value is not None}
            return cls(model, _saved_encoder(embedding, encoder, saved, options))
        table = read_examples(examples)
        if encoder is None:
            encoder = Encoder(**({"context_vector": DEFAULT_FEW_SHOT_CONTEXT_VECTOR} | encoder_options))
        warn_unreadable_targets(encoder.loaded.backend, encoder.loaded.name, table["target"].unique().tolist())
        X = encoder.embed_occurrences(table)
        model = FewShotSenses(classifier).fit(table, X, table[GOLD_COLUMN].to_numpy())
        return cls(model, encoder)

    def label(self, occurrences: pd.DataFrame) -> pd.DataFrame:
        """The sense of each occurrence of a table (its own spans), by the labelled examples (:meth:`from_examples`).

        Parameters
        ----------
        occurrences : DataFrame
            The occurrences: ``target``, ``text``, ``start``, ``end`` (``id`` and ``form`` are filled in where
            missing), e.g. :func:`wsd.evaluate.datasets.generic.read_generic`'s table.

        Returns
        -------
        DataFrame
            One row per occurrence, in order: :data:`OCCURRENCE_COLUMNS`, then ``sense``, ``probability``,
            ``margin``, ``fallback`` and ``most_frequent`` (:meth:`wsd.senses.nearest.FewShotSenses.label`).

        Raises
        ------
        InputError
            For a target without examples (all of them named), before anything is embedded.
        """
        if not isinstance(self.model, FewShotSenses):
            raise InputError("label() needs a tagger made from labelled examples (SenseTagger.from_examples)")
        occurrences = _occurrence_table(occurrences, "the occurrences to label")
        self.model.check_targets(occurrences["target"].unique())
        if occurrences.empty:
            return pd.DataFrame(columns=[*OCCURRENCE_COLUMNS, *LABEL_COLUMNS])
        X = self.encoder.embed_occurrences(occurrences)
        labels = self.model.label(occurrences, X)
        return pd.concat([occurrences[list(OCCURRENCE_COLUMNS)], labels], axis=1)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write a tagger made from labelled examples (:meth:`from_examples`) to ``directory``: JSON + ``.npy``.

        :func:`load` reads it back (with the encoder it names) and predicts exactly what this tagger does, without
        embedding the examples again; ``wsd predict --examples DIR`` takes it in place of an examples file. The
        folder's files are checked when loaded: a truncated or edited one is refused, naming it.

        Parameters
        ----------
        directory : path
            The folder to write (created if needed): ``few_shot_model.json`` and ``<n>/*.npy``
            (:mod:`wsd.senses.nearest_persistence`).

        Returns
        -------
        Path
            ``directory``.

        Raises
        ------
        InputError
            For a tagger of induced senses: its senses folder (``wsd cluster``'s output) is already what
            :func:`load` reads.

        Examples
        --------
        >>> SenseTagger.from_examples("data/demo/labelled.tsv").save("out/tagger")  # doctest: +SKIP
        >>> load("out/tagger").predict("Click the left mouse button.", target="mouse")  # doctest: +SKIP
        """
        if not isinstance(self.model, FewShotSenses):
            raise InputError(
                "save() writes a tagger made from labelled examples (SenseTagger.from_examples); a tagger of "
                "induced senses is its senses folder, which wsd.load reads as it is"
            )
        return save_few_shot(self.model, directory, self.encoder.identity().embedding_meta())

    @property
    def targets(self) -> list[str]:
        """The targets the senses know.

        Returns
        -------
        list of str
        """
        return list(self.model.targets_)

    def _options(self, target: str) -> ScanOptions:
        """Scan options that find ``target`` as the run found it (its forms and lemmatizer), else by the forms the
        sense model was fitted on (:attr:`wsd.SenseModel.forms_`: a model saved from Python, or a run moved away)."""
        if self.scan is not None and target in self.scan.get("targets", {}):
            data = dict(self.scan) | {"targets": {target: self.scan["targets"][target]}, "meta": []}
            data.pop("slice_from_path", None)
            return ScanOptions.from_dict(data)
        fitted_forms = getattr(self.model, "forms_", {})  # few-shot examples record none
        return build_scan_options({target: fitted_forms.get(target, [])})

    def find(self, texts: Sequence[str], target: str) -> pd.DataFrame:
        """The occurrences of ``target`` in ``texts``, found by wsd's scanner (one row per occurrence).

        Parameters
        ----------
        texts : sequence of str
            The texts.
        target : str
            A target of the senses.

        Returns
        -------
        DataFrame
            The occurrence table (:mod:`wsd.occurrences`) with ``text_id``, the position of the text in ``texts``;
            ``text``/``start``/``end`` are the occurrence's passage (its sentence) and span in it.
        """
        options = self._options(target)
        matcher = make_matcher(options.targets, options.lemmatizer, options.case_sensitive, options.languages)
        documents = (Document(str(number), str(text)) for number, text in enumerate(texts))
        chunks = list(iter_document_chunks(documents, matcher, options))
        if not chunks:
            return pd.DataFrame(columns=["text_id", "id", "target", "form", "text", "start", "end"])
        found = pd.concat(chunks, ignore_index=True)
        return found.assign(text_id=found["doc_id"].astype(int))

    def predict(
        self,
        texts: str | Sequence[str],
        target: str | None = None,
        spans: Sequence[tuple[int, int]] | None = None,
        max_chars: int | None = MAX_TEXT_CHARS,
    ) -> pd.DataFrame:
        """The sense of the target in each text, with its probability, every sense's probability and its keywords.

        Parameters
        ----------
        texts : str or sequence of str
            The texts (a single string is one text).
        target : str, optional
            The target word (a target of the senses); found in each text by the run's forms and lemmatizer, or,
            where there is no run to ask (a model saved from Python), by the forms the senses were fitted on.
            Needed unless the senses have a single target.
        spans : sequence of (int, int), optional
            Instead of finding the target: the character span of the target in each text, one per text.
        max_chars : int, optional
            The most characters of all texts together (default :data:`MAX_TEXT_CHARS`, the limit of
            ``wsd predict --text``); ``None``: no limit. A larger corpus is embedded as a run (``wsd embed``)
            and labelled with ``wsd predict --run``.

        Returns
        -------
        DataFrame
            One row per occurrence, columns :data:`PREDICTION_COLUMNS`: ``text_id`` (position in ``texts``),
            ``text`` (the occurrence's sentence), ``target``, ``form``, ``start``/``end`` (its span in ``text``),
            ``sense`` (0, 1, ...), ``sense_id`` (``mouse.0``), ``probability`` (of that sense), ``probabilities``
            (one per sense of the target) and ``keywords`` (of that sense).

        Raises
        ------
        InputError
            For a target the senses do not know, spans that do not match the texts, or texts longer than
            ``max_chars`` together.
        """
        texts = [texts] if isinstance(texts, str) else [str(text) for text in texts]
        total = sum(map(len, texts))
        if max_chars is not None and total > max_chars:
            raise InputError(
                f"the texts hold {total:,} characters, more than the {max_chars:,} tagged in one call; "
                "embed them as a corpus (wsd embed) and label the run (wsd predict --run)"
            )
        if target is None:
            if len(self.targets) != 1:
                raise InputError(f"give target=...: these senses have {len(self.targets)} targets ({self._known()})")
            target = self.targets[0]
        if target not in self.targets:
            raise InputError(f"target {target!r} is not one of the senses' targets ({self._known()})")
        if spans is not None:
            occurrences = self._spans(texts, target, spans)
        else:
            occurrences = self.find(texts, target)
            missing = len(texts) - occurrences["text_id"].nunique()
            if missing:
                warnings.warn(f"{missing} of {len(texts)} texts hold no occurrence of {target!r}", stacklevel=2)
        if occurrences.empty:
            return pd.DataFrame(columns=list(PREDICTION_COLUMNS))
        warn_unreadable_targets(self.encoder.loaded.backend, self.encoder.loaded.name, [target])
        X = self.encoder.embed_occurrences(occurrences)
        if isinstance(self.model, FewShotSenses):
            return self._predict_by_examples(occurrences, X, target)
        identity = self.encoder.identity()
        proba = self.model.predict_proba(occurrences, X, embedding_meta=identity)
        labels = self.model.predict(occurrences, X, embedding_meta=identity)
        n_senses = int(self.model.inducers_[target].n_senses_)
        rows = np.arange(len(labels))
        return _prediction_frame(
            occurrences,
            target,
            sense=labels,
            sense_id=[f"{target}.{label}" for label in labels],
            probability=proba[rows, np.maximum(labels, 0)],
            probabilities=[row[:n_senses].tolist() for row in proba],
            keywords=[self.keywords.get((target, int(label)), "") for label in labels],
        )

    def _predict_by_examples(self, occurrences: pd.DataFrame, X: np.ndarray, target: str) -> pd.DataFrame:
        """:meth:`predict`'s table from the labelled examples: the sense is the examples' label (also ``sense_id``)."""
        assert isinstance(self.model, FewShotSenses)
        occurrences = occurrences.reset_index(drop=True)
        labels = self.model.label(occurrences, X)
        proba = self.model.classifiers_[target].predict_proba(X)
        return _prediction_frame(
            occurrences,
            target,
            sense=labels["sense"].to_numpy(),
            sense_id=labels["sense"].to_numpy(),
            probability=labels["probability"].to_numpy(),
            probabilities=[row.tolist() for row in proba],
            keywords="",
        )

    def _known(self) -> str:
        shown = ", ".join(self.targets[:10])
        return shown + (" ..." if len(self.targets) > 10 else "")

    @staticmethod
    def _spans(texts: list[str], target: str, spans: Sequence[tuple[int, int]]) -> pd.DataFrame:
        """An occurrence table of explicit spans, one per text (checked)."""
        spans = [(int(start), int(end)) for start, end in spans]
        if len(spans) != len(texts):
            raise InputError(f"{len(spans)} spans for {len(texts)} texts: give one (start, end) per text")
        for number, (text, (start, end)) in enumerate(zip(texts, spans, strict=True)):
            if not 0 <= start < end <= len(text):
                raise InputError(f"span ({start}, {end}) of text {number} is outside its {len(text)} characters")
        return pd.DataFrame(
            {
                "text_id": np.arange(len(texts)),
                "id": [f"{number}@{start}" for number, (start, _) in enumerate(spans)],
                "target": target,
                "form": [text[start:end] for text, (start, end) in zip(texts, spans, strict=True)],
                "text": texts,
                "start": [start for start, _ in spans],
                "end": [end for _, end in spans],
            }
        )


def _occurrence_table(frame: pd.DataFrame, where: str) -> pd.DataFrame:
    """An occurrence table of a DataFrame with ``target``, ``text``, ``start``, ``end`` (and maybe ``sense``): the
    other columns filled as the generic reader fills them (``id``: the row number, ``form``: the span)."""
    frame = frame.reset_index(drop=True)
    missing_form = "form" not in frame.columns
    filled = {
        "id": lambda: np.arange(len(frame)).astype(str),
        "form": lambda: "",
        "doc_id": lambda: frame["id"] if "id" in frame.columns else np.arange(len(frame)).astype(str),
        "doc_start": lambda: 0,
    }
    frame = frame.assign(**{name: make() for name, make in filled.items() if name not in frame.columns})
    table = validate_occurrences(frame, where=where)
    if missing_form:
        table["form"] = [
            text[start:end] for text, start, end in zip(table["text"], table["start"], table["end"], strict=True)
        ]
    if GOLD_COLUMN in table.columns:
        table[GOLD_COLUMN] = table[GOLD_COLUMN].fillna("").astype(str)
    return table


def read_examples(examples: str | os.PathLike[str] | pd.DataFrame) -> pd.DataFrame:
    """The labelled rows of sense-labelled examples, one sense each (the highest-weight one).

    Parameters
    ----------
    examples : path or DataFrame
        A file in the generic labelled format, or a DataFrame with ``target``, ``text``, ``start``, ``end`` and
        ``sense`` (``id`` and ``form`` are filled in where missing).

    Returns
    -------
    DataFrame
        An occurrence table with a ``sense`` column; examples without a sense are left out, with a warning.

    Raises
    ------
    InputError
        For a file or table without a ``sense`` column, without rows, without a labelled row, or with a malformed
        record (file and line).

    Examples
    --------
    >>> read_examples("data/demo/labelled.tsv")["sense"].iloc[0]  # doctest: +SKIP
    'mouse.animal'
    """
    if isinstance(examples, pd.DataFrame):
        where = "the examples"
        table = _occurrence_table(examples, where)
    else:
        where = str(examples)
        table = read_generic(examples)
    if table.empty:
        raise InputError(f"{where}: no examples (expected a header and one line per labelled occurrence)")
    if GOLD_COLUMN not in table.columns:
        raise InputError(
            f"{where}: no {GOLD_COLUMN} column: the examples must be labelled (fields id, target, text, start, end, "
            f"{GOLD_COLUMN})"
        )
    senses = primary_senses(table[GOLD_COLUMN])
    labelled = senses != ""
    if not labelled.any():
        raise InputError(f"{where}: no example has a {GOLD_COLUMN}: the examples must be labelled")
    warn_unlabelled(int((~labelled).sum()), len(table), where)
    table = table[labelled].reset_index(drop=True)
    table[GOLD_COLUMN] = senses[labelled]
    return table


def saved_examples(examples: str | os.PathLike[str] | pd.DataFrame) -> Path | None:
    """The folder of a saved few-shot model that ``examples`` names (itself or its ``model``), None for a file.

    Parameters
    ----------
    examples : path or DataFrame
        What :meth:`SenseTagger.from_examples` was given.

    Returns
    -------
    Path or None

    Raises
    ------
    InputError
        For a folder that holds no saved few-shot model.

    Examples
    --------
    >>> saved_examples("data/demo/labelled.tsv") is None
    True
    """
    if isinstance(examples, pd.DataFrame) or not Path(examples).is_dir():
        return None
    found = _few_shot_folder(Path(examples))
    if found is None:
        raise InputError(
            f"{examples}: a folder without a saved few-shot model ({FEW_SHOT_MODEL_FILE}): give a file of labelled "
            "examples, or a folder that SenseTagger.save or wsd predict --examples FILE --out DIR wrote"
        )
    return found


def load(senses_dir: str | os.PathLike[str], encoder: Encoder | None = None, **encoder_options: Any) -> SenseTagger:
    """A :class:`SenseTagger` for a senses folder: its sense model, keywords and encoder (loaded once).

    Parameters
    ----------
    senses_dir : path
        A folder written by ``wsd cluster`` or ``wsd run`` (``OUT/senses``; ``OUT`` itself is accepted too), or
        its ``model`` sub-folder; or a few-shot model (:meth:`SenseTagger.save`, or ``wsd predict --examples FILE
        --data FILE2 --out OUT``: ``OUT`` or ``OUT/model``).
    encoder : Encoder, optional
        An encoder already loaded (it must give the vectors the senses were fitted on; checked when predicting,
        for a few-shot model when loading).
    **encoder_options
        Options of :class:`wsd.Encoder` that do not change the vectors (``device``, ``batch_size``,
        ``precision``, ``offline``); the model, layers, pooling, windows and context vector come from the
        folder's metadata.

    Returns
    -------
    SenseTagger
        Its senses are the folder's (induced, or those of the saved examples).

    Raises
    ------
    InputError
        When the folder holds no sense model, or a file of a saved model is truncated, edited or malformed.

    Examples
    --------
    >>> tagger = load("out/senses")  # doctest: +SKIP
    >>> tagger.predict("The bank raised its rates.", target="bank")[["sense_id", "probability"]]  # doctest: +SKIP
    """
    folder = Path(senses_dir)
    few_shot = _few_shot_folder(folder)
    if few_shot is not None:  # SenseTagger.save, or wsd predict --examples ... --out DIR
        examples_model, embedding = load_few_shot(few_shot)
        return SenseTagger(examples_model, _saved_encoder(embedding, encoder, few_shot, encoder_options))
    if not (folder / MODEL_DIR).is_dir() and (folder / "senses" / MODEL_DIR).is_dir():
        folder = folder / "senses"  # the output folder of wsd run
    model_dir = folder / MODEL_DIR if (folder / MODEL_DIR).is_dir() else folder
    if not model_dir.is_dir():
        raise InputError(f"{senses_dir}: not a senses folder (wsd cluster or wsd run writes one)")
    model = SenseModel.load(model_dir)
    meta_path = folder / META_FILE
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
    if encoder is None:
        encoder = encoder_from_meta(model.embedding_meta_, **encoder_options)
    return SenseTagger(model, encoder, sense_keywords(folder), _run_scan_options(meta))


def _few_shot_folder(folder: Path) -> Path | None:
    """The folder of the few-shot model saved in ``folder`` (itself or its ``model``), or None when it holds none."""
    return next((found for found in (folder, folder / MODEL_DIR) if is_few_shot_folder(found)), None)


def _saved_encoder(
    embedding: Mapping[str, Any], encoder: Encoder | None, folder: Path, encoder_options: Mapping[str, Any]
) -> Encoder:
    """The encoder of a saved few-shot model: the one its metadata names, or ``encoder`` once it gives its vectors."""
    if encoder is None:
        return encoder_from_meta(embedding, **encoder_options)
    _check_identity(embedding, encoder, folder)
    return encoder


def _check_identity(embedding: Mapping[str, Any], encoder: Encoder, folder: Path) -> None:
    """Refuse an encoder whose vectors are not those the saved examples were embedded with (fields named)."""
    if not embedding:
        return
    difference = embedding_mismatch(embedding, encoder.identity().embedding_meta(), UNCHECKED_META_FIELDS)
    if difference is not None:
        raise ModelError(f"{folder}: embedding mismatch: {difference}")


def _prediction_frame(occurrences: pd.DataFrame, target: str, **senses: Any) -> pd.DataFrame:
    """:meth:`SenseTagger.predict`'s table: the occurrences' own columns beside ``senses`` (``sense``, ``sense_id``,
    ``probability``, ``probabilities``, ``keywords``), in the order of :data:`PREDICTION_COLUMNS`."""
    own = {
        "text_id": occurrences["text_id"].to_numpy(dtype=np.int64),
        "text": occurrences["text"].astype(str).to_numpy(),
        "target": target,
        "form": occurrences["form"].astype(str).to_numpy(),
        "start": occurrences["start"].to_numpy(dtype=np.int64),
        "end": occurrences["end"].to_numpy(dtype=np.int64),
    }
    return pd.DataFrame(own | senses, columns=list(PREDICTION_COLUMNS))
