"""Training pairs from the WordNet 3.0 database (``wordnet:DIR``): example sentences and glosses of senses.

The database is read by :mod:`wsd.evaluate.wordnet`. **The database** (``wndb(5WN)``): ``data.noun``,
``data.verb``, ``data.adj``, ``data.adv`` hold one synset per
line, after a licence header whose lines start with two spaces::

    offset lex_filenum ss_type w_cnt word lex_id [word lex_id ...] p_cnt [ptr ...] [frames] | gloss

``offset`` is the line's byte offset in its file (8 digits; checked), ``ss_type`` one of ``n v a s r``,
``w_cnt`` two hex digits, each word (``_`` for spaces; an adjective may carry a marker ``(a)``, ``(p)``,
``(ip)``, dropped) with a one-hex-digit ``lex_id``, ``p_cnt`` three decimal digits followed by that many
pointers of four fields, and for verbs ``f_cnt`` and that many frames ``+ f_num w_num``. The gloss follows
``|``: ``;``-separated parts (outside double quotes); a part that starts with ``"`` is an example sentence
(the text up to its closing quote), the others make the definition. ``noun.exc`` etc. list irregular forms
(``geese goose``), added to the forms searched for.

**Uses.** Each example is searched for each word of its synset (:func:`wsd.corpus.forms.english_forms`
plus the exception lists; case-insensitive, whole words; a multi-word verb also with its first word
inflected: ``took a breath``); the first match is the target. An example gives a use to every word found
in it; an example where none is found is skipped (counted). With ``glosses=True`` each sense of a word that
has a located example also gets a gloss use: ``"<word>: <definition>"`` with the word as the target.

**Pairs** are formed among the uses of one word and part of speech (``a`` and ``s`` are one): two uses of
one synset are "same" (1), of two synsets "different" (0), sampled beyond ``max_pairs_per_lemma``
(:func:`~wsd.tune.pairs.sense_pairs`). Words with fewer than ``min_senses`` senses that have a located
example are left out (they give no "different" pair).

``stats``: ``synsets``, ``examples``, ``examples_located``, ``examples_unlocated``, ``example_uses``,
``gloss_uses``, ``words`` (word/POS entries paired), ``words_too_few_senses``, ``pairs``, ``same``,
``different``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

from wsd.corpus.forms import english_forms, find_word, word_spans
from wsd.errors import ConfigError, InputError

# the database reader lives in wsd.evaluate.wordnet (sense naming reads it too); its names stay importable here
from wsd.evaluate.wordnet import (  # noqa: F401
    DEFAULT_FOLDER,
    POS_FILES,
    SYNSET_TYPES,
    Synset,
    parse_line,
    read_exceptions,
    read_synsets,
    split_gloss,
)
from wsd.tune.pairs import BINARY, DEFAULT_MAX_PAIRS, PairSet, normalize_lemma, sense_pairs, use_id

#: The part of speech :func:`english_forms` takes for each synset type.
FORMS_POS = {"n": "n", "v": "v", "a": "a", "s": "a", "r": "r"}
#: A form that is one word as :func:`wsd.corpus.forms.word_spans` splits a text (letters and digits only).
_ONE_WORD = re.compile(r"[^\W_]+")


def _forms(
    word: str, pos: str, exceptions: dict[str, dict[str, set[str]]], cache: dict
) -> tuple[frozenset[str], frozenset[str]]:
    """A word's forms, split into one-word forms (matched by the text's words) and the others."""
    key = (word.lower(), pos)
    if key not in cache:
        lower = word.lower()
        forms = english_forms(lower, FORMS_POS[pos])
        first, space, rest = lower.partition(" ")
        if space and pos == "v":
            forms |= {f"{form} {rest}" for form in english_forms(first, "v")}
        forms |= exceptions["a" if pos == "s" else pos].get(lower, set())
        simple = frozenset(form for form in forms if _ONE_WORD.fullmatch(form))
        cache[key] = (simple, frozenset(forms) - simple)
    return cache[key]


def _locate(
    text: str, folded: str, tokens: list[tuple[str, int, int]] | None, forms: tuple[frozenset[str], frozenset[str]]
) -> list[tuple[int, int]]:
    """Where a word's forms occur: one-word forms by the text's words, others (and odd texts) by regex."""
    simple, compound = forms
    if tokens is not None:
        found = [(a, b) for token, a, b in tokens if token in simple]
        if found:
            return found
    else:
        compound = simple | compound
    # a substring test first: most words of a synset are not in its example, and compiling a regex is slow
    if compound and any(form in folded for form in compound):
        return find_word(text, compound)
    return []


def load(
    path: str | Path = DEFAULT_FOLDER,
    *,
    glosses: bool = True,
    min_senses: int = 2,
    max_pairs_per_lemma: int | None = DEFAULT_MAX_PAIRS,
    random_state: int = 0,
    name: str | None = None,
) -> PairSet:
    """Read WordNet's example sentences (and glosses) as binary training pairs of one word's senses.

    Parameters
    ----------
    path : str or Path
        The WordNet folder (Debian's ``wordnet-base`` installs it as ``/usr/share/wordnet``).
    glosses : bool
        Add a gloss use per sense that has a located example.
    min_senses : int
        Leave out words with fewer senses that have a located example.
    max_pairs_per_lemma : int or None
        The cap on pairs per word and POS (``None``: every pair).
    random_state : int
        Seed of the sampling.
    name : str, optional
        The source name (default ``wordnet:<path>``).

    Returns
    -------
    PairSet
        The located examples (and glosses) of every word with ``min_senses`` senses, and their pairs (label 1:
        the same synset).

    Raises
    ------
    InputError
        For a missing folder or file or a malformed line.
    ConfigError
        For ``min_senses`` below 1.

    Examples
    --------
    >>> load("../shared/datasets/wordnet-3.0").stats                    # doctest: +SKIP
    """
    if min_senses < 1:
        raise ConfigError(f"min_senses must be at least 1, not {min_senses}")
    name = name or f"wordnet:{path}"
    synsets = read_synsets(path)
    exceptions = read_exceptions(path)
    cache: dict = {}
    stats = dict.fromkeys(("examples", "examples_located", "examples_unlocated", "example_uses", "gloss_uses"), 0)
    stats["synsets"] = len(synsets)
    # (word, pos group) -> rows of (use id, text, start, end, synset key)
    groups: dict[tuple[str, str], list[tuple[str, str, int, int, str]]] = defaultdict(list)
    for synset in synsets:
        group_pos = "a" if synset.pos == "s" else synset.pos
        for number, example in enumerate(synset.examples):
            stats["examples"] += 1
            located = False
            folded = example.casefold()
            tokens = [(folded[a:b], a, b) for a, b in word_spans(example)] if len(folded) == len(example) else None
            for word in dict.fromkeys(w.lower() for w in synset.words):
                spans = _locate(example, folded, tokens, _forms(word, synset.pos, exceptions, cache))
                if spans:
                    located = True
                    start, end = spans[0]
                    ident = use_id(name, f"{synset.key}.{number}.{word}")
                    groups[(word, group_pos)].append((ident, example, start, end, synset.key))
            stats["examples_located" if located else "examples_unlocated"] += 1
    definitions = {synset.key: synset.definition for synset in synsets}
    uses: list[tuple[str, str, str, int, int]] = []
    pairs: list[tuple[np.ndarray, np.ndarray, np.ndarray, str]] = []
    stats.update(words=0, words_too_few_senses=0)
    for (word, group_pos), rows in sorted(groups.items()):
        senses = list(dict.fromkeys(row[4] for row in rows))
        if len(senses) < min_senses:
            stats["words_too_few_senses"] += 1
            continue
        examples = len(rows)
        if glosses:
            for key in senses:
                if definitions[key]:
                    rows.append((use_id(name, f"{key}.gloss.{word}"), f"{word}: {definitions[key]}", 0, len(word), key))
        lemma = normalize_lemma(word)
        keys = np.array([row[4] for row in rows])
        first, second, label = sense_pairs(
            keys[:, None] == keys[None, :],
            f"{word}/{group_pos}",
            max_pairs=max_pairs_per_lemma,
            random_state=random_state,
        )
        if not len(first):
            continue
        stats["words"] += 1
        used = np.unique(np.concatenate([first, second]))
        stats["example_uses"] += int((used < examples).sum())
        stats["gloss_uses"] += int((used >= examples).sum())
        uses += [(rows[i][0], lemma, rows[i][1], rows[i][2], rows[i][3]) for i in used]
        ids = np.array([row[0] for row in rows], dtype=object)
        pairs.append((ids[first], ids[second], label, lemma))
    if not pairs:
        raise InputError(f"WordNet folder {path}: no word has {min_senses} senses with located examples")
    use_table = pd.DataFrame(uses, columns=["use_id", "lemma", "text", "start", "end"]).assign(source=name)
    pair_table = pd.DataFrame(
        {
            "use_id_1": np.concatenate([p[0] for p in pairs]),
            "use_id_2": np.concatenate([p[1] for p in pairs]),
            "lemma": np.repeat([p[3] for p in pairs], [len(p[2]) for p in pairs]),
            "label": np.concatenate([p[2] for p in pairs]),
            "kind": BINARY,
            "source": name,
        }
    )
    same = int((pair_table["label"] == 1).sum())
    stats.update(pairs=len(pair_table), same=same, different=len(pair_table) - same)
    return PairSet(use_table, pair_table, {name: stats})


def lemmas(path: str | Path = DEFAULT_FOLDER) -> set[str]:
    """Every normalised word of the database (all four data files).

    Parameters
    ----------
    path : str or Path
        The WordNet folder.

    Returns
    -------
    set of str
    """
    return {normalize_lemma(word) for synset in read_synsets(path) for word in synset.words}
