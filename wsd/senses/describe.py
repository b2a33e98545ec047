"""Describing induced senses: typical examples and the context words that distinguish each sense."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.io.rows import select_rows
from wsd.occurrences import citations, metadata_columns
from wsd.senses.sampling import CHUNK_ROWS, CHUNKED_ABOVE, chunk_bounds
from wsd.senses.stopwords import STOPWORDS
from wsd.senses.subgroups import SubgroupTest, spread_examples, subgroup_test

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
    "subgroup_score",
    "subgroups",
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
    deviations; positive means over-represented in i. Where an odds is undefined (no other word has any
    mass, as in a one-word vocabulary, or a word has no mass at all) z is 0: nothing marks the group.

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
    >>> log_odds_dirichlet(np.array([[3.0], [2.0]]), np.array([5.0])).tolist()  # one word: no odds
    [[0.0], [0.0]]
    """
    counts = np.asarray(counts, dtype=np.float64)
    prior = np.asarray(prior, dtype=np.float64)
    a0 = prior.sum()
    n_group = counts.sum(axis=1, keepdims=True)
    rest = counts.sum(axis=0, keepdims=True) - counts
    n_rest = rest.sum(axis=1, keepdims=True)
    word_in, word_out = counts + prior, rest + prior
    others_in, others_out = n_group + a0 - counts - prior, n_rest + a0 - rest - prior
    defined = (word_in > 0) & (word_out > 0) & (others_in > 0) & (others_out > 0)
    word_in, word_out = np.where(defined, word_in, 1.0), np.where(defined, word_out, 1.0)
    others_in, others_out = np.where(defined, others_in, 1.0), np.where(defined, others_out, 1.0)
    delta = np.log(word_in / others_in) - np.log(word_out / others_out)
    variance = 1.0 / word_in + 1.0 / word_out
    return np.where(defined, delta / np.sqrt(variance), 0.0)


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


#: How ``senses.md`` and the sense cards flag a sense whose members form sub-groups.
SUBGROUPS_NOTE = "its uses form sub-groups: read every example"
#: Contexts tokenised at a time when a target's context words are counted (their strings live only that long).
CONTEXT_BLOCK = 65_536
#: A keyword is in at least this many of its sense's contexts: a word of one context describes that context.
KEYWORD_MIN_CONTEXTS = 2
#: A keyword is in more of its sense's contexts than chance would put there: a one-sided Fisher exact test
#: (hypergeometric) of its contexts in the sense against the target's other contexts, at this level. Without it a
#: small sense filled its list with words seen once and tied, in alphabetical order (issue 41: the animal *mouse*
#: listed "stopped, bank, tiny, wrist, account"). 10%, not 5%: a keyword list describes, it proves nothing, and a
#: word in all 3 contexts of a sense and in none of 3 others reaches only p = 0.05 (in 3 of 4 against 0 of 4: 0.07).
KEYWORD_ALPHA = 0.10


def _sense_word_counts(
    contexts: Callable[[int, int], list[str]],
    n_rows: int,
    sense_of_row: np.ndarray,
    n_senses: int,
    excluded: set[str],
    min_token_length: int,
) -> tuple[list[str], np.ndarray | None, np.ndarray | None]:
    """Context-word counts per sense (senses × vocabulary, vocabulary sorted, excluded words left out).

    ``contexts(start, stop)`` gives the contexts of rows ``start:stop``; they are counted
    :data:`CONTEXT_BLOCK` at a time and the counts added up (whole numbers: the same as counting all at once).
    Returns the vocabulary, the token counts and the context counts (in how many of the sense's contexts each
    word is); ``None`` counts when no context holds a word.
    """
    from scipy import sparse
    from sklearn.feature_extraction.text import CountVectorizer

    column_of: dict[str, int] = {}
    totals = np.zeros((n_senses, 0))
    in_contexts = np.zeros((n_senses, 0))
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
        present = np.asarray((indicator @ (matrix > 0).astype(np.float64)).todense(), dtype=np.float64)
        words = vectorizer.get_feature_names_out()
        for word in words:
            column_of.setdefault(str(word), len(column_of))
        if len(column_of) > totals.shape[1]:
            grow = np.zeros((n_senses, len(column_of) - totals.shape[1]))
            totals, in_contexts = np.hstack([totals, grow]), np.hstack([in_contexts, grow])
        columns = [column_of[str(word)] for word in words]
        totals[:, columns] += counts
        in_contexts[:, columns] += present
    if not column_of:
        return [], None, None
    vocabulary = sorted(word for word in column_of if word not in excluded)
    kept = [column_of[word] for word in vocabulary]
    return vocabulary, totals[:, kept], in_contexts[:, kept]


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
    keyword_alpha: float = KEYWORD_ALPHA,
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
    Ties are broken alphabetically. Only words that distinguish the sense are listed, never a padding of weak
    ones (:func:`distinguishing_words`): in at least :data:`KEYWORD_MIN_CONTEXTS` of its contexts and, with other
    senses to contrast, over-represented in them by a one-sided Fisher exact test at ``keyword_alpha``; a sense
    may so have fewer than ``n_keywords`` keywords, or none.

    **Examples.** Drawn across the sense (:func:`wsd.senses.subgroups.spread_examples`): the occurrence
    most cosine-similar to the sense centre (the mean of the sense's L2-normalised vectors), then the most
    typical occurrence of each other part of a k-means split of its members, largest part first; with
    ``X=None``, the first ones in table order. Texts have the target wrapped in ``mark``.

    **Sub-groups.** Each sense of at least 20 members is tested for sub-groups
    (:func:`wsd.senses.subgroups.subgroup_test`): ``subgroup_score`` (NaN when untested or without vectors)
    and ``subgroups`` (flagged).

    Rows labelled -1 (unassigned) are left out.

    Parameters
    ----------
    occurrences : DataFrame
        Occurrence table (``id``, ``target``, ``form``, ``text``, ``start``, ``end`` are used).
    X : ndarray (n, dim) or None
        Occurrence vectors, row-aligned with ``occurrences``.
    labels : array of int (n,)
        Sense of each row (per-target ids, as ``SenseModel.labels_``).
    keyword_alpha : float
        The level of the keywords' Fisher test (:data:`KEYWORD_ALPHA`; 1 keeps every word in two or more of the
        sense's contexts that the statistic ranks above 0).

    Returns
    -------
    DataFrame
        Columns ``target``, ``sense``, ``size``, ``example_ids`` (list of str), ``examples``
        (list of marked texts), ``keywords`` (list of str), ``keyword_scores`` (list of float),
        ``example_citations`` (list of str: each example's metadata, ``year 1862 · president Lincoln``, or ``""``
        where the occurrences have none; ``senses.md`` shows it in place of the id), ``subgroup_score`` (float)
        and ``subgroups`` (bool); targets in order of first appearance, senses ascending.

    Examples
    --------
    >>> texts = ["river bank water"] * 3 + ["bank loan money"] * 3  # a keyword is in two or more contexts
    >>> occ = pd.DataFrame({"id": list("abcdef"), "target": "bank", "form": "bank", "text": texts,
    ...                     "start": [6] * 3 + [0] * 3, "end": [10] * 3 + [4] * 3})
    >>> describe_senses(occ, None, [0, 0, 0, 1, 1, 1], n_keywords=2).loc[0, "keywords"]
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

        vocabulary, counts, in_contexts = _sense_word_counts(
            contexts, len(index), sense_of_row, len(senses), excluded, min_token_length
        )
        if counts is not None and in_contexts is not None and vocabulary:
            scores = _keyword_scores(counts, statistic, prior_strength)
            sizes = np.bincount(sense_of_row, minlength=len(senses))
            distinguishing = distinguishing_words(in_contexts, sizes, keyword_alpha)
        else:
            counts = scores = np.zeros((len(senses), 0))
            distinguishing = np.zeros((len(senses), 0), dtype=bool)
        for row, sense in enumerate(senses):
            members = index[sense_of_row == row]
            chosen = _examples(X, members, n_examples)
            split = subgroup_test(X, members) if X is not None else SubgroupTest(float("nan"), False, float("nan"))
            words, values = _top_words(vocabulary, scores[row], counts[row] * distinguishing[row], n_keywords)
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
                    "subgroup_score": split.score,
                    "subgroups": split.flagged,
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


def distinguishing_words(in_contexts: np.ndarray, contexts: np.ndarray, alpha: float = KEYWORD_ALPHA) -> np.ndarray:
    """Which words may be a sense's keywords: in enough of its contexts, and more of them than chance would put there.

    A word qualifies for sense i when it is in at least :data:`KEYWORD_MIN_CONTEXTS` of the sense's contexts and,
    where the target has other senses, a one-sided Fisher exact test (the hypergeometric tail: of all the target's
    contexts, those with the word, drawn into sense i) gives p < ``alpha``. With one sense only the first rule
    applies.

    Parameters
    ----------
    in_contexts : ndarray of shape (k, V)
        In how many contexts of each sense each word is.
    contexts : ndarray of shape (k,)
        How many contexts each sense has.
    alpha : float
        The test's level.

    Returns
    -------
    ndarray of bool, shape (k, V)

    Examples
    --------
    >>> in_contexts = np.array([[4.0, 1.0, 0.0], [0.0, 0.0, 30.0]])  # word 0: 4 of 4 contexts of sense 0, none else
    >>> distinguishing_words(in_contexts, np.array([4, 40])).tolist()  # word 2: 30 of 40 of sense 1, none else
    [[True, False, False], [False, False, True]]
    """
    from scipy.stats import hypergeom

    in_contexts = np.asarray(in_contexts, dtype=np.float64)
    contexts = np.asarray(contexts, dtype=np.float64)
    enough = in_contexts >= KEYWORD_MIN_CONTEXTS
    if len(in_contexts) < 2:
        return enough
    total = contexts.sum()
    with_word = in_contexts.sum(axis=0, keepdims=True)
    p_value = hypergeom.sf(in_contexts - 1, total, with_word, contexts[:, None])
    return enough & (p_value < alpha)


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
    return spread_examples(X, members, n_examples)


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
        note = str(group["note"].iloc[0]) if "note" in group.columns else ""
        lines += [f"## {_markdown_cell(target)}", ""]
        kind = "One sense" if len(group) == 1 else "Split"  # why it was not split, or why on so few uses
        lines += [f"{kind}: {_markdown_cell(note)}.", ""] if note else []
        named = "names_text" in group.columns  # named from an inventory (--inventory, wsd.senses.naming)
        lines += [
            "| sense | size | " + ("names | " if named else "") + "keywords | examples |",
            "|---:|---:|" + ("---|" if named else "") + "---|---|",
        ]
        for record in group.itertuples(index=False):
            keywords = ", ".join(_markdown_cell(w) for w in record.keywords)
            if bool(getattr(record, "subgroups", False)):
                keywords += f" · {SUBGROUPS_NOTE} (score {float(getattr(record, 'subgroup_score', 0.0)):.2f})"
            cited = list(getattr(record, "example_citations", None) or [])
            labels = [c or i for i, c in itertools.zip_longest(record.example_ids, cited[: len(record.example_ids)])]
            examples = "<br>".join(
                f"`{_markdown_cell(label)}` {_markdown_cell(_shorten(t, mark, max_example_chars))}"
                for label, t in zip(labels, record.examples, strict=False)
            )
            names = f"{_markdown_cell(str(record.names_text))} | " if named else ""
            lines.append(f"| {record.sense} | {record.size} | {names}{keywords} | {examples} |")
        lines.append("")
    return "\n".join(lines)
