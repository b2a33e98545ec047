"""Names for induced senses from a sense inventory: each occurrence's nearest synset, each sense's mix of names.

The vectors come from above (:mod:`wsd.workflows.naming` embeds an inventory's example sentences and glosses with
the run's encoder); this module only compares vectors and counts:

- :func:`nearest_names`: per occurrence of one target, the synset whose vector is nearest (cosine, after centring
  both on the target's occurrence mean where asked, plus ``prior_weight`` times the log of the synset's share of
  WordNet's tagged uses), kept only when its similarity reaches ``min_similarity`` and it leads the runner-up by
  ``min_margin``; else the occurrence is unnamed (``""``). A target the inventory has no entry for is
  ``"no entry"``. A name is never forced, and never comes without its evidence: ``labels.parquet`` holds the
  cosine and the lead beside it (:data:`LABEL_COLUMNS`).
- :func:`name_shares`: per induced sense, the share of each name among its occurrences (largest first) and of
  the unnamed ones, and a mixture flag when no name holds a clear majority (:data:`MAJORITY` of the named uses).
- :func:`describe_names`: ``61% ≈ bank.n.02 (a financial institution …), 30% ≈ bank.n.01 (sloping land …), 9%
  unnamed``.

The representation, the prior's weight and the thresholds (by default none) were chosen on half of SemEval-2013's
lemmas and scored on the other half (``experiments/results/wordnet_naming/wordnet_naming.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from wsd.io.meta_types import NamingFacts
from wsd.schema import DEFAULT_NAME_MIN_COSINE, DEFAULT_NAME_MIN_LEAD

#: The ``synset`` of an occurrence whose lemma the inventory does not list.
NO_ENTRY = "no entry"
#: The ``synset`` of an occurrence no synset is near enough to (below the thresholds).
UNNAMED = ""
#: A sense is a mixture when its most frequent name holds less than this share of its named occurrences
#: (and at least two names are given).
MAJORITY = 2 / 3
#: The fewest named occurrences a sense needs before it is called a mixture.
MIXTURE_MIN_NAMED = 4
#: How a synset is represented: its example sentences (the target's span pooled as the occurrences are), its gloss
#: (``"bank: sloping land ..."``, the lemma's span), or both (their mean; a synset without a usable example
#: falls back to its gloss), or related (the mean of those two and of its related phrases: its own and its hyponyms'
#: words that hold the lemma, with their glosses, ``"electric power: the product of voltage and current"``).
REPRESENTATIONS = ("examples", "gloss", "both", "related")


#: The choice on SemEval-2013's dev lemmas (experiments/results/wordnet_naming/wordnet_naming.md, its third run),
#: with the bundled all-MiniLM-L6-v2 and the default recipe's vectors: a synset is the mean of its examples' vector,
#: its gloss's and its related phrases' (``related``), uncentred, its score the cosine plus 0.02 times the log of its
#: share of WordNet's tagged uses (cntlist); no threshold (least cosine -1, least lead 0), so every occurrence is
#: named (of a lemma with a single synset, where its cosine is not negative). The thresholds were the most precise
#: whose dev accuracy beat WordNet's first sense with confidence (the lower end of a lemma-bootstrap interval of the
#: difference at or above 0), and only naming every occurrence did (51.4% against 42.5%; with a least lead of 0.005
#: the interval's lower end was already below 0). On the held-out lemmas: 53.3% accuracy against the first sense's
#: 46.9% (+6.3 points, interval +0.9 to +11.4). A caller who wants fewer, surer names sets ``min_margin``: with 0.01
#: (the second run's choice) the held-out names were right 57.8% of the time when given, but 20.0% of the uses were
#: left unnamed and accuracy fell to 46.3%; ``wsd cluster``, ``run`` and ``change`` set it with ``--name-min-lead``
#: (and the least cosine with ``--name-min-cosine``; both defaults are declared with their flags in :mod:`wsd.schema`,
#: :data:`~wsd.schema.DEFAULT_NAME_MIN_LEAD` and :data:`~wsd.schema.DEFAULT_NAME_MIN_COSINE`). Cosines depend on
#: the encoder: another model may want its thresholds measured again (the experiment's script does it).
DEFAULT_REPRESENTATION = "related"
DEFAULT_PRIOR_WEIGHT = 0.02
#: The columns a naming adds to ``labels.parquet``: the name (a synset, ``""`` unnamed, ``"no entry"``), and the
#: evidence for it, the cosine of the use's nearest synset and the lead of that synset's score over the
#: runner-up's (a lemma of one synset: its score, the cosine); both NaN where the inventory has no entry. For an
#: unnamed use they are those of the nearest synset it was not given: why it fell short.
LABEL_COLUMNS = ("synset", "synset_cosine", "synset_lead")


@dataclass(frozen=True)
class NamingParameters:
    """How occurrences are named (defaults chosen on SemEval-2013's dev lemmas: wordnet_naming.md).

    Parameters
    ----------
    representation : {"examples", "gloss", "both", "related"}
        How a synset is represented (:data:`REPRESENTATIONS`).
    center : bool
        Centre occurrence and synset vectors on the target's occurrence mean before the cosine.
    prior_weight : float
        Weight of the log share of a synset in WordNet's tagged uses (``cntlist``), added to the cosine.
    min_similarity : float
        The least cosine of a name.
    min_margin : float
        The least lead of the best synset's score over the second's.
    """

    representation: str = DEFAULT_REPRESENTATION
    center: bool = False
    prior_weight: float = DEFAULT_PRIOR_WEIGHT
    min_similarity: float = DEFAULT_NAME_MIN_COSINE
    min_margin: float = DEFAULT_NAME_MIN_LEAD

    def to_dict(self) -> dict[str, object]:
        """The parameters as a dictionary (for ``meta.json``).

        Returns
        -------
        dict
        """
        return {
            "representation": self.representation,
            "center": self.center,
            "prior_weight": self.prior_weight,
            "min_similarity": self.min_similarity,
            "min_margin": self.min_margin,
        }


@dataclass
class Naming:
    """The names of a run's occurrences, as a namer gives them to :func:`wsd.senses.stage.cluster_run`.

    Parameters
    ----------
    frame : DataFrame
        Row-aligned with the occurrences: ``synset`` (a name, ``""`` unnamed, ``"no entry"``), ``nearest``,
        ``similarity``, ``margin`` (:func:`nearest_names`).
    definitions : dict
        ``synset name -> definition`` of every candidate.
    meta : NamingFacts
        What named them (the inventory, the parameters), recorded in ``meta.json``.
    """

    frame: pd.DataFrame
    definitions: dict[str, str] = field(default_factory=dict)
    meta: NamingFacts = field(default_factory=lambda: NamingFacts())

    def label_columns(self) -> dict[str, np.ndarray]:
        """The columns the names add to ``labels.parquet`` (:data:`LABEL_COLUMNS`), row-aligned with the occurrences.

        Returns
        -------
        dict
            ``synset`` (str), ``synset_cosine`` and ``synset_lead`` (float64: ``similarity`` and ``margin``).

        Examples
        --------
        >>> frame = pd.DataFrame({"synset": ["a.n.01"], "nearest": ["a.n.01"], "similarity": [0.8], "margin": [0.1]})
        >>> columns = Naming(frame).label_columns()
        >>> list(columns), float(columns["synset_lead"][0])
        (['synset', 'synset_cosine', 'synset_lead'], 0.1)
        """
        synset, cosine, lead = LABEL_COLUMNS
        return {
            synset: self.frame["synset"].astype(str).to_numpy(dtype=object),
            cosine: self.frame["similarity"].to_numpy(dtype=np.float64),
            lead: self.frame["margin"].to_numpy(dtype=np.float64),
        }


#: What :func:`wsd.senses.stage.cluster_run` calls to name occurrences: ``(occurrences, X, embedding_meta)``.
Namer = Callable[[pd.DataFrame, np.ndarray, Mapping[str, Any] | None], Naming]


def _unit(X: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.where(norms > 0, norms, 1.0)


def synset_scores(
    X: np.ndarray,
    prototypes: np.ndarray,
    prior: np.ndarray | None = None,
    *,
    center: bool = True,
    prior_weight: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Cosine of each occurrence with each synset vector, and the score that ranks them (cosine + prior term).

    Parameters
    ----------
    X : ndarray of shape (n, d)
        The occurrences of one target.
    prototypes : ndarray of shape (m, d)
        One vector per candidate synset.
    prior : ndarray of shape (m,), optional
        Each synset's share of the lemma's tagged uses (positive; None: uniform).
    center : bool
        Centre both on the mean of ``X`` first.
    prior_weight : float
        Weight of ``log(prior)`` in the score.

    Returns
    -------
    (ndarray, ndarray) of shape (n, m)
        The cosines and the scores.

    Examples
    --------
    >>> cos, score = synset_scores(np.array([[1.0, 0.0]]), np.array([[1.0, 0.1], [0.0, 1.0]]), center=False)
    >>> int(score.argmax())
    0
    """
    X = np.asarray(X, dtype=np.float32)
    P = np.asarray(prototypes, dtype=np.float32)
    if center and len(X):
        mean = X.mean(axis=0, keepdims=True)
        X, P = X - mean, P - mean
    cosine = _unit(X) @ _unit(P).T
    score = cosine
    if prior is not None and prior_weight:
        score = cosine + prior_weight * np.log(np.asarray(prior, dtype=np.float32))[None, :]
    return cosine, score


def nearest_names(
    X: np.ndarray,
    prototypes: np.ndarray | None,
    names: list[str],
    prior: np.ndarray | None = None,
    parameters: NamingParameters | None = None,
) -> pd.DataFrame:
    """The nearest synset of each occurrence of one target, or unnamed (:data:`UNNAMED`) below the thresholds.

    Parameters
    ----------
    X : ndarray of shape (n, d)
        The occurrences of one target.
    prototypes : ndarray of shape (m, d)
        The candidate synsets' vectors (m may be 0: every occurrence is :data:`NO_ENTRY`).
    names : list of str
        The candidates' names (``bank.n.01``), one per row of ``prototypes``.
    prior : ndarray of shape (m,), optional
        The candidates' shares of tagged uses.
    parameters : NamingParameters, optional
        The representation's use, the prior's weight and the thresholds.

    Returns
    -------
    DataFrame
        One row per occurrence: ``synset`` (a name, ``""`` or ``"no entry"``), ``nearest`` (the nearest synset
        whatever the thresholds, ``""`` without entry), ``similarity`` (its cosine) and ``margin`` (its lead in
        score over the runner-up; the score itself where there is one candidate).

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.7, 0.7], [0.0, 1.0]])
    >>> P = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> found = nearest_names(X, P, ["a.n.01", "a.n.02"], parameters=NamingParameters(center=False, min_margin=0.1))
    >>> found["synset"].tolist()
    ['a.n.01', '', 'a.n.02']
    """
    parameters = parameters or NamingParameters()
    n = len(X)
    if not len(names) or prototypes is None:
        return pd.DataFrame(
            {"synset": [NO_ENTRY] * n, "nearest": [""] * n, "similarity": np.full(n, np.nan), "margin": np.nan}
        )
    cosine, score = synset_scores(X, prototypes, prior, center=parameters.center, prior_weight=parameters.prior_weight)
    order = np.argsort(-score, axis=1)
    rows = np.arange(n)
    best = order[:, 0] if n else np.zeros(0, dtype=np.int64)
    # the lead over the runner-up; with one candidate, the score itself
    margin = score[rows, best] - score[rows, order[:, 1]] if score.shape[1] > 1 else score[rows, best]
    similarity = cosine[rows, best]
    named = (similarity >= parameters.min_similarity) & (margin >= parameters.min_margin)
    nearest = np.asarray(names, dtype=object)[best] if n else np.zeros(0, dtype=object)
    return pd.DataFrame(
        {
            "synset": np.where(named, nearest, UNNAMED).astype(object),
            "nearest": nearest,
            "similarity": similarity.astype(np.float64),
            "margin": margin.astype(np.float64),
        }
    )


def name_shares(frame: pd.DataFrame) -> pd.DataFrame:
    """Per induced sense: each name's share of its occurrences, the unnamed share, and the mixture flag.

    Parameters
    ----------
    frame : DataFrame
        One row per occurrence: ``target``, ``sense`` and ``synset`` (a name, ``""`` or ``"no entry"``).
        Occurrences without a sense (``-1``) are left out.

    Returns
    -------
    DataFrame
        One row per (target, sense): ``names`` (a list of ``{"synset", "share"}``, largest share first, shares of
        all the sense's occurrences), ``unnamed`` (share unnamed), ``no_entry`` (True where the inventory has no
        entry for the target), ``top`` (the leading name, ``""`` where none), ``mixture`` (bool).

    Examples
    --------
    >>> synsets = ["bank.n.02"] * 6 + ["bank.n.01"] * 3 + [""]
    >>> frame = pd.DataFrame({"target": "bank", "sense": [0] * 10, "synset": synsets})
    >>> row = name_shares(frame).iloc[0]
    >>> row["names"], float(row["unnamed"]), bool(row["mixture"])
    ([{'synset': 'bank.n.02', 'share': 0.6}, {'synset': 'bank.n.01', 'share': 0.3}], 0.1, False)
    """
    columns = ["target", "sense", "names", "unnamed", "no_entry", "top", "mixture"]
    kept = frame.loc[frame["sense"].to_numpy() >= 0, ["target", "sense", "synset"]]
    if kept.empty:
        return pd.DataFrame(columns=columns)
    counts = kept.groupby(["target", "sense", "synset"], sort=False).size().rename("n").reset_index()
    sizes = kept.groupby(["target", "sense"], sort=False).size()
    rows = []
    for (target, sense), group in counts.groupby(["target", "sense"], sort=True):
        total = int(sizes[(target, sense)])
        named = group[~group["synset"].isin([UNNAMED, NO_ENTRY])].sort_values(["n", "synset"], ascending=[False, True])
        names = [
            {"synset": str(s), "share": round(int(k) / total, 4)}
            for s, k in zip(named["synset"], named["n"], strict=True)
        ]
        n_named = int(named["n"].sum())
        no_entry = bool((group["synset"] == NO_ENTRY).any())
        unnamed = int(group.loc[group["synset"] == UNNAMED, "n"].sum()) / total
        mixture = len(names) >= 2 and n_named >= MIXTURE_MIN_NAMED and int(named["n"].iloc[0]) < MAJORITY * n_named
        top = names[0]["synset"] if names else ""
        rows.append((target, int(sense), names, round(unnamed, 4), no_entry, top, bool(mixture)))
    return pd.DataFrame(rows, columns=columns)


def describe_names(
    names: list[Mapping[str, object]] | None,
    unnamed: float,
    no_entry: bool = False,
    definitions: Mapping[str, str] | None = None,
    mixture: bool = False,
    shown: int = 3,
    width: int = 40,
) -> str:
    """One line for a sense's names: ``61% ≈ bank.n.02 (a financial institution…), 30% ≈ bank.n.01 (…), 9% unnamed``.

    Parameters
    ----------
    names : list of mapping
        ``{"synset", "share"}``, largest first (:func:`name_shares`).
    unnamed : float
        The unnamed share.
    no_entry : bool
        The inventory has no entry for the target: the line is ``no entry``.
    definitions : mapping, optional
        ``synset -> definition``, shortened to ``width`` characters after the name.
    mixture : bool
        Start with ``mixture:``.
    shown : int
        The most names shown (the rest join the line as ``n% other names``).
    width : int
        The most characters of a definition shown.

    Returns
    -------
    str

    Examples
    --------
    >>> describe_names([{"synset": "bank.n.02", "share": 0.61}, {"synset": "bank.n.01", "share": 0.3}], 0.09)
    '61% ≈ bank.n.02, 30% ≈ bank.n.01, 9% unnamed'
    >>> describe_names([], 0.0, no_entry=True)
    'no entry'
    """
    if no_entry and not names:
        return NO_ENTRY
    definitions = definitions or {}
    parts = []
    for item in list(names or [])[:shown]:
        name = str(item["synset"])
        text = definitions.get(name, "")
        if len(text) > width:
            text = text[: width - 1].rstrip() + "…"
        parts.append(f"{_percent(_share(item))} ≈ {name}" + (f" ({text})" if text else ""))
    rest = sum(_share(item) for item in list(names or [])[shown:])
    if rest > 0:
        parts.append(f"{_percent(rest)} other names")
    if unnamed > 0 or not parts:
        parts.append(f"{_percent(unnamed)} unnamed")
    return ("mixture: " if mixture else "") + ", ".join(parts)


def _share(item: Mapping[str, object]) -> float:
    share = item["share"]
    return float(share) if isinstance(share, int | float | np.floating) else 0.0


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def with_names(table: pd.DataFrame, labels: np.ndarray, occurrences: pd.DataFrame, naming: Naming) -> pd.DataFrame:
    """A :func:`describe_senses` table with each sense's names: ``names``, ``unnamed``, ``mixture``, ``names_text``.

    Parameters
    ----------
    table : DataFrame
        One row per sense (``target``, ``sense``).
    labels : ndarray
        The occurrences' senses.
    occurrences : DataFrame
        The occurrences (``target``).
    naming : Naming
        The occurrences' names.

    Returns
    -------
    DataFrame
        ``names`` (``{"synset", "share"}`` largest first), ``unnamed`` (share), ``no_entry``, ``mixture`` (bool) and
        ``names_text`` (:func:`describe_names`, with the synsets' definitions).
    """
    frame = pd.DataFrame(
        {"target": occurrences["target"].to_numpy(), "sense": labels, "synset": naming.frame["synset"].to_numpy()}
    )
    shares = name_shares(frame)
    shares["names_text"] = [
        describe_names(r.names, r.unnamed, r.no_entry, naming.definitions, r.mixture) for r in shares.itertuples()
    ]
    merged = table.merge(shares.drop(columns=["top"]), on=["target", "sense"], how="left")
    merged["names"] = [n if isinstance(n, list) else [] for n in merged["names"]]
    merged["unnamed"] = merged["unnamed"].fillna(1.0).astype(np.float64)
    merged["no_entry"] = merged["no_entry"].fillna(False).astype(bool)
    merged["mixture"] = merged["mixture"].fillna(False).astype(bool)
    merged["names_text"] = merged["names_text"].fillna("").astype(str)
    return merged
