"""Sense names from an inventory (``--inventory wordnet:DIR``): synset vectors made with the run's own encoder.

For each target, its lemma's synsets (a target ``lemma.pos`` such as SemEval's ``add.v`` names one part of speech;
a plain ``bank`` takes every part of speech WordNet lists it under) are represented by their example sentences,
the lemma's span pooled with the same encoder, layers, pooling and context vector as the occurrences, and by
their gloss (``"bank: sloping land ..."``, the lemma's span); :mod:`wsd.senses.naming` then names each occurrence
by its nearest synset, with the representation and prior chosen on SemEval-2013
(``experiments/results/wordnet_naming/wordnet_naming.md``): by default every occurrence, and only those whose
nearest synset passes the thresholds a configuration's ``[output]`` sets (``--name-min-lead``,
``--name-min-cosine``: :func:`wsd.config.naming_parameters`).

>>> namer = InventoryNamer("wordnet:../shared/datasets/wordnet-3.0")   # doctest: +SKIP
>>> naming = namer(occurrences, X, embedding_meta)                       # doctest: +SKIP
>>> naming.frame["synset"].head()                                        # doctest: +SKIP
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.corpus.forms import english_forms, find_word
from wsd.embed.encoder import Encoder
from wsd.errors import ConfigError
from wsd.evaluate.wordnet import Sense, WordNet
from wsd.senses.naming import REPRESENTATIONS, Naming, NamingParameters, nearest_names

#: The inventories ``--inventory`` takes, as ``KIND:FOLDER``.
INVENTORY_KINDS = ("wordnet",)
#: A target that names its part of speech: ``add.v``, ``full.j`` (SemEval-2013), ``bank.n``.
_LEMMA_POS = re.compile(r"^(?P<lemma>.+)\.(?P<pos>[nvjasr])$")
#: Embeds the uses of an occurrence-shaped table (``text``, ``start``, ``end``) into row-aligned vectors.
Embed = Callable[[pd.DataFrame], np.ndarray]


def open_inventory(spec: str | WordNet) -> WordNet:
    """The inventory an ``--inventory`` value names (``wordnet:DIR``).

    Parameters
    ----------
    spec : str or WordNet
        ``wordnet:DIR`` (DIR: a WordNet 3.0 database folder), or an open inventory.

    Returns
    -------
    WordNet

    Raises
    ------
    ConfigError
        For another kind of inventory.
    InputError
        When the folder is not a WordNet database.

    Examples
    --------
    >>> open_inventory("babelnet:x")
    Traceback (most recent call last):
    ...
    wsd.errors.ConfigError: --inventory 'babelnet:x': expected wordnet:DIR (a WordNet 3.0 database folder)
    """
    if isinstance(spec, WordNet):
        return spec
    kind, colon, folder = str(spec).partition(":")
    if kind not in INVENTORY_KINDS or not colon or not folder.strip():
        raise ConfigError(f"--inventory {spec!r}: expected wordnet:DIR (a WordNet 3.0 database folder)")
    return WordNet(Path(folder.strip()).expanduser())


def target_senses(wordnet: WordNet, target: str) -> list[Sense]:
    """The senses of a target: of its part of speech for ``lemma.pos``, else of every part of speech.

    Parameters
    ----------
    wordnet : WordNet
        The inventory.
    target : str
        A target name (``bank``, ``add.v``, ``full.j``).

    Returns
    -------
    list of Sense
        Empty when the inventory has no entry.
    """
    match = _LEMMA_POS.match(target)
    if match and wordnet.senses(match["lemma"], match["pos"]):
        return wordnet.senses(match["lemma"], match["pos"])
    return wordnet.senses(target)


def synset_uses(wordnet: WordNet, senses: list[Sense]) -> pd.DataFrame:
    """The uses that represent a target's senses: each example sentence where the lemma is found, the gloss, and
    the related phrases.

    A related phrase is a word of the synset or of one of its hyponyms that holds the lemma as a word of its own
    (``power.n.02`` → *electric power*, its hyponym; ``power.n.08`` → *world power*, its synonym), followed by that
    synset's gloss: ``"electric power: the product of voltage and current"``, the lemma's span inside the phrase.
    They are used by the ``related`` representation only.

    Parameters
    ----------
    wordnet : WordNet
        The inventory (its exception lists give irregular forms).
    senses : list of Sense
        The target's senses.

    Returns
    -------
    DataFrame
        ``synset`` (the sense's name), ``kind`` (``example``, ``gloss`` or ``related``), ``text``, ``start``, ``end``.
    """
    exceptions = wordnet.exceptions()
    rows = []
    for sense in senses:
        lemma = sense.lemma.lower()
        forms = english_forms(lemma, sense.pos) | exceptions.get(sense.pos, {}).get(lemma, set())
        for example in sense.synset.examples:
            spans = find_word(example, forms)
            if spans:
                rows.append((sense.name, "example", example, *spans[0]))
        if sense.synset.definition:
            rows.append((sense.name, "gloss", f"{sense.lemma}: {sense.synset.definition}", 0, len(sense.lemma)))
        related = [sense.synset, *(wordnet.synset(sense.synset.pos, offset) for offset in sense.synset.hyponyms)]
        for synset in related:
            for word in synset.words:
                spans = find_word(word, forms) if word.lower() != lemma and synset.definition else []
                if spans:
                    rows.append((sense.name, "related", f"{word}: {synset.definition}", *spans[0]))
    return pd.DataFrame(rows, columns=["synset", "kind", "text", "start", "end"])


def _unit(X: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.where(norms > 0, norms, 1.0)


def prototypes(uses: pd.DataFrame, vectors: np.ndarray, names: list[str], representation: str) -> np.ndarray:
    """One vector per sense from its uses' vectors: its examples' mean, its gloss, the mean of both, or the mean of
    those two and of its related phrases' mean (``related``).

    A sense without a located example is represented by its gloss whatever ``representation`` says (and by a
    zero vector, which names nothing, when it has neither).

    Parameters
    ----------
    uses : DataFrame
        :func:`synset_uses` of the senses.
    vectors : ndarray
        The uses' vectors, row-aligned.
    names : list of str
        The senses' names, in the order wanted.
    representation : {"examples", "gloss", "both", "related"}
        :data:`wsd.senses.naming.REPRESENTATIONS`.

    Returns
    -------
    ndarray of shape (len(names), dim)
    """
    if representation not in REPRESENTATIONS:
        raise ConfigError(f"representation {representation!r}: expected one of {', '.join(REPRESENTATIONS)}")
    V = _unit(np.asarray(vectors, dtype=np.float32))
    out = np.zeros((len(names), V.shape[1] if V.ndim == 2 else 0), dtype=np.float32)
    synsets = uses["synset"].to_numpy()
    kinds = uses["kind"].to_numpy()
    for row, name in enumerate(names):
        mine = synsets == name
        examples = V[mine & (kinds == "example")]
        gloss = V[mine & (kinds == "gloss")]
        related = V[mine & (kinds == "related")]
        parts = []
        if representation in ("examples", "both", "related") and len(examples):
            parts.append(_unit(examples.mean(axis=0, keepdims=True))[0])
        if (representation in ("gloss", "both", "related") or not parts) and len(gloss):
            parts.append(gloss[0])
        if representation == "related" and len(related):
            parts.append(_unit(related.mean(axis=0, keepdims=True))[0])
        if parts:
            out[row] = np.mean(parts, axis=0)
    return out


def encoder_embed(encoder: Encoder) -> Embed:
    """An :data:`Embed` that runs ``encoder`` with its own layers and pooling (as the run's occurrences were).

    Parameters
    ----------
    encoder : Encoder

    Returns
    -------
    callable
    """

    def embed(uses: pd.DataFrame) -> np.ndarray:
        if uses.empty:
            return np.zeros((0, encoder.dim), dtype=np.float32)
        return encoder.embed_occurrences(uses, progress=False)

    return embed


def name_occurrences(
    occurrences: pd.DataFrame,
    X: np.ndarray,
    wordnet: WordNet,
    embed: Embed,
    parameters: NamingParameters | None = None,
) -> Naming:
    """Name every occurrence by its nearest synset of its target's lemma (or leave it unnamed, or "no entry").

    The uses of every target's synsets are embedded in one call of ``embed``.

    Parameters
    ----------
    occurrences : DataFrame
        The occurrences (``target``).
    X : ndarray
        Their vectors (from the encoder ``embed`` runs).
    wordnet : WordNet
        The inventory.
    embed : callable
        Embeds the synsets' uses (:func:`encoder_embed`).
    parameters : NamingParameters, optional
        The representation, prior weight and thresholds (default: those chosen on SemEval-2013).

    Returns
    -------
    Naming
        Row-aligned names, the definitions of the names and the parameters.
    """
    parameters = parameters or NamingParameters()
    targets = occurrences["target"].astype(str).to_numpy()
    senses = {target: target_senses(wordnet, target) for target in pd.unique(targets)}
    tables = [synset_uses(wordnet, found).assign(target=target) for target, found in senses.items() if found]
    uses = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(columns=["target", "synset", "kind"])
    vectors = np.asarray(embed(uses), dtype=np.float32) if len(uses) else np.zeros((0, X.shape[1]), np.float32)
    frame = pd.DataFrame(index=np.arange(len(occurrences)), columns=["synset", "nearest", "similarity", "margin"])
    definitions: dict[str, str] = {}
    entries = {}
    for target, found in senses.items():
        rows = np.flatnonzero(targets == target)
        names = [sense.name for sense in found]
        mine = (uses["target"] == target).to_numpy() if len(uses) else np.zeros(0, dtype=bool)
        P = prototypes(uses[mine], vectors[mine], names, parameters.representation) if found else None
        counts = np.array([wordnet.tag_count(sense) for sense in found], dtype=np.float64)
        prior = (counts + 1.0) / (counts + 1.0).sum() if found else None
        result = nearest_names(np.asarray(X[rows], dtype=np.float32), P, names, prior, parameters)
        frame.iloc[rows] = result.to_numpy(dtype=object)
        definitions.update({sense.name: sense.synset.definition for sense in found})
        entries[target] = len(found)
    frame["similarity"] = frame["similarity"].astype(np.float64)
    frame["margin"] = frame["margin"].astype(np.float64)
    return Naming(frame, definitions, {"parameters": parameters.to_dict(), "senses_per_target": entries})


class InventoryNamer:
    """Names the occurrences of a fitted run from an inventory, with the run's own encoder (made when called).

    The callable :func:`wsd.senses.stage.cluster_run` takes as ``namer``.

    Parameters
    ----------
    inventory : str or WordNet
        ``wordnet:DIR``; the folder is checked here, before any clustering.
    parameters : NamingParameters, optional
        Default: those chosen on SemEval-2013.
    encoder : Encoder, optional
        An encoder already loaded (it must give the run's vectors).
    **encoder_options
        Options of :class:`wsd.Encoder` that do not change the vectors (``device``, ``batch_size``, ``offline``).
    """

    def __init__(
        self,
        inventory: str | WordNet,
        parameters: NamingParameters | None = None,
        encoder: Encoder | None = None,
        **encoder_options: Any,
    ) -> None:
        self.spec = str(inventory) if not isinstance(inventory, WordNet) else f"wordnet:{inventory.folder}"
        self.wordnet = open_inventory(inventory)
        self.parameters = parameters or NamingParameters()
        self.encoder = encoder
        self.encoder_options = encoder_options

    def __call__(self, occurrences: pd.DataFrame, X: np.ndarray, embedding_meta: Mapping[str, Any] | None) -> Naming:
        """Name the occurrences (see :func:`name_occurrences`).

        Parameters
        ----------
        occurrences : DataFrame
            The run's occurrences.
        X : ndarray
            Their vectors.
        embedding_meta : mapping, optional
            The run's embedding identity: the encoder is made from it.

        Returns
        -------
        Naming
        """
        encoder = self.encoder or encoder_from_meta(embedding_meta or {}, **self.encoder_options)
        naming = name_occurrences(occurrences, X, self.wordnet, encoder_embed(encoder), self.parameters)
        naming.meta["inventory"] = self.spec
        return naming


def encoder_from_meta(embedding: Mapping[str, Any], **options: Any) -> Encoder:
    """The encoder that made a run's vectors, from its embedding identity (``meta.json``'s ``embedding``).

    The runtime and precision are the run's own (``runtime``, ``precision``), never measured again (an explicit
    runtime and precision are not calibrated, :mod:`wsd.embed.calibration`), so new text is embedded as the run's
    occurrences were, wherever ``auto`` would choose otherwise now. A ``precision`` in ``options`` is used as
    given; a ``device`` in ``options`` that cannot compute the run's precision (``int8`` is the CPU's, ``fp16`` a
    GPU's) leaves the precision to ``auto`` there. A run in ``int8`` is rebuilt on the CPU unless a device is given.

    Parameters
    ----------
    embedding : mapping
        The identity (model, layers, pooling, windows, context vector, runtime, precision).
    **options
        Options of :class:`wsd.Encoder` that do not change the vectors (``device``, ``batch_size``, ``offline``,
        ``progress``; ``precision`` to compute in another).

    Returns
    -------
    Encoder

    Examples
    --------
    >>> from wsd.io.run_reader import read_meta
    >>> encoder = encoder_from_meta(read_meta("runs/x")["embedding"], batch_size=64)  # doctest: +SKIP
    """
    given = {name: value for name, value in options.items() if value is not None}
    return Encoder(
        model=embedding.get("model"),
        layers=embedding.get("layers", "sum-last-4"),
        pooling=embedding.get("pooling", "mean"),
        max_length=embedding.get("max_length"),
        window_tokens=embedding.get("window_tokens"),
        context_vector=embedding.get("context_vector"),
        **(given | recorded_compute(embedding, given)),
    )


def recorded_compute(embedding: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The runtime, precision and (for ``int8``) device of a run's encoder, as :func:`encoder_from_meta` makes it.

    Parameters
    ----------
    embedding : mapping
        The run's embedding identity (``runtime`` absent: PyTorch; ``precision`` absent: ``auto``).
    options : mapping
        What the caller gives (``device``, ``precision``, ``runtime``): what is given wins; a device given that
        cannot compute the run's precision leaves the precision to ``auto``.

    Returns
    -------
    dict
        What ``options`` leaves to the run: ``runtime``, ``precision`` (where the run's is kept) and ``device``
        (the CPU, for a run in ``int8`` where no device is given).

    Examples
    --------
    >>> recorded_compute({"precision": "fp32", "runtime": "openvino"}, {})
    {'runtime': 'openvino', 'precision': 'fp32'}
    >>> recorded_compute({"precision": "int8"}, {"device": "auto"})
    {'runtime': 'torch', 'precision': 'int8', 'device': 'cpu'}
    >>> recorded_compute({"precision": "fp16"}, {"device": "cpu"})
    {'runtime': 'torch'}
    """
    found: dict[str, Any] = {} if options.get("runtime") is not None else {"runtime": embedding.get("runtime", "torch")}
    precision = embedding.get("precision")
    if options.get("precision") is not None or not isinstance(precision, str) or precision == "auto":
        return found
    device = options.get("device")
    on_cpu = device is not None and str(device).split(":")[0] == "cpu"
    if precision == "fp16" and (device in (None, "auto") or on_cpu):
        return found  # a GPU's precision: auto on whatever device this is (a GPU computes bf16 or fp16)
    if precision == "int8" and device not in (None, "auto") and not on_cpu:
        return found  # dynamic quantisation is the CPU's: the device given computes in its own precision
    found["precision"] = precision
    if precision == "int8" and device in (None, "auto"):
        found["device"] = "cpu"
    return found
