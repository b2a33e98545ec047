"""Describing induced senses: typical examples and the context words that distinguish each sense."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.io.store import select_rows
from wsd.occurrences import citations, metadata_columns
from wsd.senses.sampling import CHUNK_ROWS, CHUNKED_ABOVE, chunk_bounds
from wsd.senses.stopwords import STOPWORDS

STATISTICS: tuple[str, ...] = ("log-odds", "c-tf-idf")
DEFAULT_MARK: tuple[str, str] = ("[[", "]]")
TABLE_COLUMNS: tuple[str, ...] = (
    "target",
    "sense",
    "size",
    "example_ids",
    "examples",
    "keywords",
    "keyword_scores",
    "example_citations",
)


def token_pattern(min_token_length: int = 3) -> str:
    """The Unicode word regex used for context words: runs of letters (no digits, no ``_``).

    Parameters
    ----------
    min_token_length : int
        Shortest word kept.

    Returns
    -------
    str
        A regular expression for :class:`~sklearn.feature_extraction.text.CountVectorizer`.

    Examples
    --------
    >>> import re
    >>> re.findall(token_pattern(3), "Río-bank 42 ab Берег")
    ['Río', 'bank', 'Берег']
    """
    return rf"(?u)[^\W\d_]{{{int(min_token_length)},}}"


def mark_target(text: str, start: int, end: int, mark: tuple[str, str] = DEFAULT_MARK) -> str:
    """``text`` with the span ``start:end`` wrapped in ``mark``.

    Parameters
    ----------
    text : str
        The context.
    start, end : int
        The target's character span.
    mark : (str, str)
        Opening and closing marks.

    Returns
    -------
    str

    Examples
    --------
    >>> mark_target("the bank closed", 4, 8)
    'the [[bank]] closed'
    """
    return f"{text[:start]}{mark[0]}{text[start:end]}{mark[1]}{text[end:]}"


def log_odds_dirichlet(counts: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """Weighted log-odds ratios with an informative Dirichlet prior (Monroe, Colaresi & Quinn 2008).

    For each group i (row of ``counts``, shape (k, V)) against all other groups j together, and each
    word w, with ``a_w = prior[w]`` and ``a0 = sum(prior)``::

        delta_w = log((y_iw + a_w) / (n_i + a0 - y_iw - a_w)) - log((y_jw + a_w) / (n_j + a0 - y_jw - a_w))
        var_w   = 1 / (y_iw + a_w) + 1 / (y_jw + a_w)
        z_w     = delta_w / sqrt(var_w)

    Returns z (k, V): how strongly each word marks group i rather than the others, in standard
    deviations; positive means over-represented in i.

    Parameters
    ----------
    counts : ndarray of shape (k, V)
        Word counts per group.
    prior : ndarray of shape (V,)
        Dirichlet prior (e.g. the overall counts).

    Returns
    -------
    ndarray of shape (k, V)
        The z-scores.

    Examples
    --------
    >>> z = log_odds_dirichlet(np.array([[9.0, 1.0], [1.0, 9.0]]), np.array([1.0, 1.0]))
    >>> bool(z[0, 0] > 0 > z[0, 1])
    True
    """
    counts = np.asarray(counts, dtype=np.float64)
    prior = np.asarray(prior, dtype=np.float64)
    a0 = prior.sum()
    n_group = counts.sum(axis=1, keepdims=True)
    rest = counts.sum(axis=0, keepdims=True) - counts
    n_rest = rest.sum(axis=1, keepdims=True)
    delta = np.log((counts + prior) / (n_group + a0 - counts - prior)) - np.log(
        (rest + prior) / (n_rest + a0 - rest - prior)
    )
    variance = 1.0 / (counts + prior) + 1.0 / (rest + prior)
    return delta / np.sqrt(variance)


def class_tf_idf(counts: np.ndarray) -> np.ndarray:
    """Class-based TF-IDF (as in BERTopic): ``tf_iw * log(1 + A / f_w)``.

    ``tf_iw`` is word w's share of group i's tokens, ``f_w`` its count over all groups and ``A`` the
    average number of tokens per group.

    Parameters
    ----------
    counts : ndarray of shape (k, V)
        Word counts per group.

    Returns
    -------
    ndarray of shape (k, V)

    Examples
    --------
    >>> class_tf_idf(np.array([[2.0, 0.0], [1.0, 1.0]])).round(3)
    array([[0.511, 0.   ],
           [0.255, 0.549]])
    """
    counts = np.asarray(counts, dtype=np.float64)
    n_group = counts.sum(axis=1, keepdims=True)
    tf = counts / np.where(n_group > 0, n_group, 1.0)
    total = counts.sum(axis=0)
    average = counts.sum() / max(len(counts), 1)
    return tf * np.log1p(average / np.where(total > 0, total, 1.0))[None, :]


def _excluded_words(target: str, forms: Iterable[str], stopwords: Iterable[str]) -> set[str]:
    words = {str(w).lower() for w in stopwords}
    words |= {str(f).lower() for f in forms}
    words |= {target.lower(), target.split(".")[0].lower()}
    return words


#: Contexts tokenised at a time when a target's context words are counted (their strings live only that long).
CONTEXT_BLOCK = 65_536


def _sense_word_counts(
    contexts: Callable[[int, int], list[str]],
    n_rows: int,
    sense_of_row: np.ndarray,
    n_senses: int,
    excluded: set[str],
    min_token_length: int,
) -> tuple[list[str], np.ndarray | None]:
    """Context-word counts per sense (senses × vocabulary, vocabulary sorted, excluded words left out).

    ``contexts(start, stop)`` gives the contexts of rows ``start:stop``; they are counted
    :data:`CONTEXT_BLOCK` at a time and the counts added up (whole numbers: the same as counting all at once).
    ``None`` when no context holds a word.
    """
    from scipy import sparse
    from sklearn.feature_extraction.text import CountVectorizer

    column_of: dict[str, int] = {}
    totals = np.zeros((n_senses, 0))
    for start in range(0, n_rows, CONTEXT_BLOCK):
        stop = min(start + CONTEXT_BLOCK, n_rows)
        vectorizer = CountVectorizer(token_pattern=token_pattern(min_token_length), lowercase=True)
        try:
            matrix = vectorizer.fit_transform(contexts(start, stop))
        except ValueError:  # no word at all in these contexts
            continue
        block_senses = sense_of_row[start:stop]
        indicator = sparse.csr_matrix(
            (np.ones(stop - start), (block_senses, np.arange(stop - start))), shape=(n_senses, stop - start)
        )
        counts = np.asarray((indicator @ matrix).todense(), dtype=np.float64)  # (senses, block vocabulary)
        words = vectorizer.get_feature_names_out()
        for word in words:
            column_of.setdefault(str(word), len(column_of))
        if len(column_of) > totals.shape[1]:
            totals = np.hstack([totals, np.zeros((n_senses, len(column_of) - totals.shape[1]))])
        totals[:, [column_of[str(word)] for word in words]] += counts
    if not column_of:
        return [], None
    vocabulary = sorted(word for word in column_of if word not in excluded)
    return vocabulary, totals[:, [column_of[word] for word in vocabulary]]


def describe_senses(
    occurrences: pd.DataFrame,
    X: np.ndarray | None,
    labels: np.ndarray,
    n_examples: int = 5,
    n_keywords: int = 10,
    statistic: str = "log-odds",
    prior_strength: float | None = None,
    min_token_length: int = 3,
    stopwords: Iterable[str] = STOPWORDS,
    mark: tuple[str, str] = DEFAULT_MARK,
) -> pd.DataFrame:
    """One row per induced sense: its size, typical examples and distinguishing context words.

    For each target separately, every occurrence's ``text`` minus the target span is tokenised with
    the Unicode letter regex :func:`token_pattern` (lowercased; tokens shorter than
    ``min_token_length`` dropped), and the target's own forms (the ``form`` column, the marked
    spans, the target name and the part before a ``.``) and ``stopwords`` (small English + Russian
    lists) are removed.

    **Keywords.** ``statistic="log-odds"``: the weighted log-odds ratio with an informative
    Dirichlet prior (Monroe, Colaresi & Quinn 2008, :func:`log_odds_dirichlet`) of the sense's
    counts against those of the target's other senses; the prior is the target's overall word
    distribution scaled to ``prior_strength`` pseudo-counts (default: the target's total token
    count, i.e. the overall counts themselves). Words with z > 0 are ranked by z.
    ``statistic="c-tf-idf"``: :func:`class_tf_idf` over the target's senses. A target with a
    single sense has nothing to contrast; its keywords are its most frequent words (score = count).
    Ties are broken alphabetically.

    **Examples.** The ``n_examples`` occurrences whose vectors are most cosine-similar to the
    sense centre (the mean of the sense's L2-normalised vectors), ties by table order; with
    ``X=None``, the first ones in table order. Texts have the target wrapped in ``mark``.

    Rows labelled -1 (unassigned) are left out.

    Parameters
    ----------
    occurrences : DataFrame
        Occurrence table (``id``, ``target``, ``form``, ``text``, ``start``, ``end`` are used).
    X : ndarray (n, dim) or None
        Occurrence vectors, row-aligned with ``occurrences``.
    labels : array of int (n,)
        Sense of each row (per-target ids, as ``SenseModel.labels_``).

    Returns
    -------
    DataFrame
        Columns ``target``, ``sense``, ``size``, ``example_ids`` (list of str), ``examples``
        (list of marked texts), ``keywords`` (list of str), ``keyword_scores`` (list of float),
        ``example_citations`` (list of str: each example's metadata, ``year 1862 · president Lincoln``, or ``""``
        where the occurrences have none; ``senses.md`` shows it in place of the id); targets in order of first
        appearance, senses ascending.

    Examples
    --------
    >>> occ = pd.DataFrame({"id": ["a", "b"], "target": ["bank", "bank"], "form": ["bank", "bank"],
    ...                     "text": ["river bank water", "bank loan money"], "start": [6, 0], "end": [10, 4]})
    >>> describe_senses(occ, None, [0, 1], n_keywords=2).loc[0, "keywords"]
    ['river', 'water']
    """
    if statistic not in STATISTICS:
        raise ConfigError(f"statistic must be one of {', '.join(STATISTICS)}, got {statistic!r}")
    missing = [c for c in ("id", "target", "form", "text", "start", "end") if c not in occurrences.columns]
    if missing:
        raise InputError(f"occurrences to describe: missing column(s) {', '.join(missing)}")
    labels = np.asarray(labels, dtype=np.int64)
    if labels.shape != (len(occurrences),):
        raise InputError(f"{labels.shape[0]} labels for {len(occurrences)} occurrences; they must be row-aligned")
    if X is not None:
        X = X if isinstance(X, np.ndarray) and X.dtype.kind == "f" else np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[0] != len(occurrences):
            raise InputError(f"vectors of shape {X.shape} are not row-aligned with {len(occurrences)} occurrences")
    frame = occurrences.reset_index(drop=True)
    cite_columns = metadata_columns(frame)
    texts = frame["text"].astype(str).tolist()
    starts = frame["start"].astype(int).tolist()
    ends = frame["end"].astype(int).tolist()
    records = []
    for target, index in frame.groupby(frame["target"].astype(str), sort=False).indices.items():
        index = index[labels[index] >= 0]
        if len(index) == 0:
            continue
        target_labels = labels[index]
        senses = np.unique(target_labels)
        spans = {texts[i][starts[i] : ends[i]] for i in index}
        excluded = _excluded_words(target, set(frame.loc[index, "form"].astype(str)) | spans, stopwords)
        sense_of_row = np.searchsorted(senses, target_labels)

        def contexts(start: int, stop: int, index: np.ndarray = index) -> list[str]:
            return [f"{texts[i][: starts[i]]} {texts[i][ends[i] :]}" for i in index[start:stop]]

        vocabulary, counts = _sense_word_counts(
            contexts, len(index), sense_of_row, len(senses), excluded, min_token_length
        )
        if counts is not None and vocabulary:
            scores = _keyword_scores(counts, statistic, prior_strength)
        else:
            counts = scores = np.zeros((len(senses), 0))
        for row, sense in enumerate(senses):
            members = index[sense_of_row == row]
            chosen = _examples(X, members, n_examples)
            words, values = _top_words(vocabulary, scores[row], counts[row], n_keywords)
            records.append(
                {
                    "target": target,
                    "sense": int(sense),
                    "size": len(members),
                    "example_ids": [str(frame.at[i, "id"]) for i in chosen],
                    "examples": [mark_target(texts[i], starts[i], ends[i], mark) for i in chosen],
                    "keywords": words,
                    "keyword_scores": values,
                    "example_citations": citations(frame, chosen, cite_columns) if cite_columns else [""] * len(chosen),
                }
            )
    return pd.DataFrame.from_records(records, columns=list(TABLE_COLUMNS))


def _keyword_scores(counts: np.ndarray, statistic: str, prior_strength: float | None) -> np.ndarray:
    if len(counts) == 1:
        return counts.copy()
    if statistic == "c-tf-idf":
        return class_tf_idf(counts)
    total = counts.sum(axis=0)
    strength = total.sum() if prior_strength is None else float(prior_strength)
    if not strength > 0:
        raise ConfigError(f"prior_strength must be positive, got {prior_strength!r}")
    return log_odds_dirichlet(counts, strength * total / total.sum())


def _top_words(
    vocabulary: list[str], scores: np.ndarray, counts: np.ndarray, n_keywords: int
) -> tuple[list[str], list[float]]:
    candidates = np.flatnonzero((scores > 0) & (counts > 0))
    if len(candidates) == 0:
        return [], []
    order = sorted(candidates, key=lambda j: (-scores[j], vocabulary[j]))[:n_keywords]
    return [vocabulary[j] for j in order], [round(float(scores[j]), 6) for j in order]


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


def centrality(X: np.ndarray, members: np.ndarray) -> np.ndarray:
    """Cosine similarity of each member's vector to the centre of them all (the mean of their unit vectors).

    The rows are read in blocks (a memory-mapped run's block by block), never all in float64 at once.

    Parameters
    ----------
    X : ndarray (n, dim)
        Occurrence vectors (a memory map is fine).
    members : ndarray of int
        The rows of one sense.

    Returns
    -------
    ndarray of float (len(members),)
        How typical of the sense each member is (higher: more central).

    Examples
    --------
    >>> centrality(np.array([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0]]), np.arange(3)).round(2).tolist()
    [0.67, 0.7, 0.37]
    """
    rows = select_rows(X, members) if isinstance(X, np.memmap) else None  # a run's rows: read block by block

    def block(start: int, stop: int) -> np.ndarray:
        return _unit_rows(X[members[start:stop]] if rows is None else rows[start:stop])

    if len(members) <= CHUNKED_ABOVE:
        unit = block(0, len(members))
        return unit @ unit.mean(axis=0)
    # a very large sense: two passes over blocks of rows
    bounds = list(chunk_bounds(len(members), CHUNK_ROWS))
    centre = sum(block(start, stop).sum(axis=0) for start, stop in bounds) / len(members)
    return np.concatenate([block(start, stop) @ centre for start, stop in bounds])


def _examples(X: np.ndarray | None, members: np.ndarray, n_examples: int) -> np.ndarray:
    if X is None or len(members) <= 1:
        return members[:n_examples]
    similarity = centrality(X, members)
    order = np.lexsort((np.arange(len(members)), -similarity))
    return members[order[:n_examples]]


def examples_per_group(
    X: np.ndarray | None, members: np.ndarray, groups: np.ndarray, n_examples: int = 1
) -> dict[object, np.ndarray]:
    """The most typical members of a sense within each group (a slice): central to the whole sense, not the group.

    Parameters
    ----------
    X : ndarray (n, dim) or None
        Occurrence vectors; None: the first members of each group in table order.
    members : ndarray of int
        The rows of one sense.
    groups : array (len(members),)
        The group of each member (None or NaN: in no group, never chosen).
    n_examples : int
        Examples per group, at most.

    Returns
    -------
    dict
        Group → its chosen rows (most central first; ties by table order), groups in order of first appearance.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0], [1.0, 0.0]])
    >>> examples_per_group(X, np.arange(4), np.array(["a", "b", "b", "a"]))
    {'a': array([0]), 'b': array([1])}
    """
    members = np.asarray(members, dtype=np.int64)
    keys = pd.Series(np.asarray(groups, dtype=object))
    similarity = centrality(X, members) if X is not None and len(members) > 1 else np.zeros(len(members))
    order = np.lexsort((np.arange(len(members)), -similarity))
    chosen: dict[object, np.ndarray] = {}
    for group, positions in keys.groupby(keys, sort=False, dropna=True).indices.items():
        ranked = order[np.isin(order, positions)]
        chosen[group] = members[ranked[:n_examples]]
    return chosen


def _markdown_cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _shorten(text: str, mark: tuple[str, str], max_chars: int) -> str:
    """Cut ``text`` to about ``max_chars`` characters around the first marked target."""
    if len(text) <= max_chars:
        return text
    centre = text.find(mark[0])
    centre = len(text) // 2 if centre < 0 else centre
    start = max(0, min(centre - max_chars // 2, len(text) - max_chars))
    end = start + max_chars
    return ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")


def senses_to_markdown(table: pd.DataFrame, max_example_chars: int = 240, mark: tuple[str, str] = DEFAULT_MARK) -> str:
    """Render a :func:`describe_senses` table as Markdown: one section and table per target.

    Parameters
    ----------
    table : DataFrame
        The output of :func:`describe_senses`.
    max_example_chars : int
        Examples are shortened around the target to this many characters.
    mark : (str, str)
        The marks around the target in the examples.

    Returns
    -------
    str

    Examples
    --------
    >>> t = pd.DataFrame([{"target": "bank", "sense": 0, "size": 2, "example_ids": ["a"],
    ...                    "examples": ["the [[bank]]"], "keywords": ["river"], "keyword_scores": [1.0]}])
    >>> print(senses_to_markdown(t))
    ## bank
    <BLANKLINE>
    | sense | size | keywords | examples |
    |---:|---:|---|---|
    | 0 | 2 | river | `a` the [[bank]] |
    <BLANKLINE>
    """
    lines: list[str] = []
    for target, group in table.groupby("target", sort=False):
        lines += [
            f"## {_markdown_cell(target)}",
            "",
            "| sense | size | keywords | examples |",
            "|---:|---:|---|---|",
        ]
        for record in group.itertuples(index=False):
            keywords = ", ".join(_markdown_cell(w) for w in record.keywords)
            cited = list(getattr(record, "example_citations", None) or [])
            labels = [c or i for i, c in itertools.zip_longest(record.example_ids, cited[: len(record.example_ids)])]
            examples = "<br>".join(
                f"`{_markdown_cell(label)}` {_markdown_cell(_shorten(t, mark, max_example_chars))}"
                for label, t in zip(labels, record.examples, strict=False)
            )
            lines.append(f"| {record.sense} | {record.size} | {keywords} | {examples} |")
        lines.append("")
    return "\n".join(lines)
