"""Reader for SemEval-2010 Task 14 (word-sense induction): test contexts, target located by form, gold key.

Layout (under ``semeval2010-task14``): ``test_data/{nouns,verbs}/<lemma>.<pos>.xml`` in a non-standard XML
whose element names are instance ids, CRLF line endings, PTB-tokenised text::

    <access.n.test><access.n.1>PRECEDING<TargetSentence>SENTENCE</TargetSentence>FOLLOWING</access.n.1>...

and ``keys/all.key`` with lines ``access.n access.n.1 access.n.6`` (one sense per instance).

Decisions (the target is not marked in the data):

* **text** — ``context="instance"`` (default): the preceding sentence(s), the target sentence and the
  following sentence(s) of the instance, each stripped and joined by one space, kept PTB-tokenised as given
  (``do n't``); ``context="sentence"``: the target sentence alone. ``start``/``end`` are relative to that
  text and always lie inside the target sentence.
* **locating the target** — whole-word, case-insensitive matches of the lemma's inflected forms
  (:func:`wsd.corpus.forms.english_forms` for the instance's part of speech, e.g. ``lain``/``lay`` for
  ``lie.v``, ``bodies`` for ``body.n``); if none is found, forms of any part of speech, then the eye-dialect
  spellings in :data:`DIALECT_FORMS` that the data uses (``figger``, ``lah``: 5 instances).
* **several matches** — the data gives one instance per occurrence: instances of a lemma with identical
  contexts (consecutive ids, ``air.n.14`` and ``air.n.15``) are the 1st, 2nd, ... occurrence of the lemma
  in the target sentence, so the k-th instance of such a group (in file order) takes the k-th match; a
  single instance takes the first match. When there are more matches than instances, capitalised matches
  inside the sentence (names such as ``Natural Gas Corporation``) are set aside if enough others remain;
  when there are fewer, the extra instances take the last match. Measured on the test data: 595 target
  sentences hold several matches, 533 instances share their contexts with others, and the number of
  matches differs from the group size for 79 (more) and 6 (fewer) instances.

``id`` = ``doc_id`` = instance id, ``target`` = ``lemma.pos`` (``access.n``), ``sense`` = the key's label.
``stats``: ``instances``, ``loaded``, ``several_matches`` (target sentences with >1 match),
``shared_sentence`` (instances in a group of >1), ``more_matches_than_instances``,
``fewer_matches_than_instances``, ``other_pos_forms``, ``dialect_forms``, ``not_found`` (dropped, with a
warning), ``dropped_without_gold``, ``gold_without_context``. ``subsets``: ``nouns``, ``verbs``.
"""

from __future__ import annotations

import warnings
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from wsd.corpus.forms import english_forms, find_word
from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets import DatasetBundle, _build_table, _dataset_root, _read_key

FOLDER = "semeval2010-task14"
TEST_DATA = Path("test_data")
GOLD_KEY = Path("keys") / "all.key"
POS_SUBSETS = {"n": "nouns", "v": "verbs"}
CONTEXTS = ("instance", "sentence")
TARGET_SENTENCE = "TargetSentence"
#: The ``stats`` keys, in order.
STATS = (
    "instances",
    "loaded",
    "several_matches",
    "shared_sentence",
    "more_matches_than_instances",
    "fewer_matches_than_instances",
    "other_pos_forms",
    "dialect_forms",
    "not_found",
    "dropped_without_gold",
    "gold_without_context",
)
#: Non-standard spellings of a lemma that the 2010 target sentences use (dialogue in fiction).
DIALECT_FORMS: dict[str, frozenset[str]] = {
    "figure": frozenset({"figger", "figgers", "figgered", "figgering"}),
    "lie": frozenset({"lah"}),
}


def _read_instances(path: Path) -> list[tuple[str, str, str, str]]:
    """(instance id, preceding text, target sentence, following text) for each instance of one file."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        raise InputError(f"{path}: malformed XML ({error})") from None
    instances = []
    for element in root:
        sentence = element.find(TARGET_SENTENCE)
        if sentence is None:
            raise InputError(f"{path}: instance {element.tag!r} has no <{TARGET_SENTENCE}>")
        instances.append((element.tag, element.text or "", sentence.text or "", sentence.tail or ""))
    return instances


def _choose(matches: list[tuple[int, int]], sentence: str, rank: int, group: int) -> tuple[int, int]:
    """The span for the ``rank``-th (0-based) of ``group`` instances sharing ``sentence``."""
    if len(matches) > group:
        plain = [(a, b) for a, b in matches if a == 0 or not sentence[a].isupper()]
        if len(plain) >= group:
            matches = plain
    return matches[min(rank, len(matches) - 1)]


def load(path: str | Path, context: str = "instance") -> DatasetBundle:
    """Load SemEval-2010 Task 14 (test data, 8915 instances) with its gold senses.

    Parameters
    ----------
    path : str or Path
        The ``semeval2010-task14`` folder, or the folder that holds it.
    context : {"instance", "sentence"}
        The ``text`` of each occurrence: the whole instance (preceding, target and following sentences) or the
        target sentence only.

    Returns
    -------
    DatasetBundle
        ``name="semeval2010"``, ``gold=(keys/all.key,)``.

    Raises
    ------
    ConfigError
        For an unknown ``context``.
    InputError
        When the folder, the key or the instance files are missing or malformed.

    Examples
    --------
    >>> bundle = load("../shared/datasets")                              # doctest: +SKIP
    >>> bundle.occurrences.set_index("id").loc["lie.v.1", "form"]        # doctest: +SKIP
    'lies'
    """
    if context not in CONTEXTS:
        raise ConfigError(f"context={context!r} is not one of {', '.join(CONTEXTS)}")
    root = _dataset_root(path, FOLDER, str(TEST_DATA))
    gold = _read_key(root / GOLD_KEY)
    files = sorted((root / TEST_DATA).glob("*/*.xml")) + sorted((root / TEST_DATA).glob("*.xml"))
    if not files:
        raise InputError(f"{root / TEST_DATA}: no .xml files")
    stats: Counter[str] = Counter()
    subsets: dict[str, set[str]] = {name: set() for name in POS_SUBSETS.values()}
    rows, not_found = [], []
    all_ids: set[str] = set()
    for file in files:
        instances = _read_instances(file)
        groups = Counter((before, sentence, after) for _, before, sentence, after in instances)
        ranks: Counter[tuple[str, str, str]] = Counter()
        for instance_id, before, sentence, after in instances:
            stats["instances"] += 1
            all_ids.add(instance_id)
            contexts = (before, sentence, after)
            rank, ranks[contexts] = ranks[contexts], ranks[contexts] + 1
            target = instance_id.rsplit(".", 1)[0]
            lemma, _, pos = target.rpartition(".")
            if instance_id not in gold:
                stats["dropped_without_gold"] += 1
                continue
            sentence = sentence.strip()
            forms = english_forms(lemma, pos if pos in POS_SUBSETS else None)
            matches = find_word(sentence, forms)
            if not matches:
                matches = find_word(sentence, english_forms(lemma))
                stats["other_pos_forms"] += bool(matches)
            if not matches and lemma in DIALECT_FORMS:
                matches = find_word(sentence, DIALECT_FORMS[lemma])
                stats["dialect_forms"] += bool(matches)
            if not matches:
                not_found.append(instance_id)
                continue
            group = groups[contexts]
            stats["several_matches"] += len(matches) > 1
            stats["shared_sentence"] += group > 1
            stats["more_matches_than_instances"] += len(matches) > group
            stats["fewer_matches_than_instances"] += len(matches) < group
            start, end = _choose(matches, sentence, rank, group)
            head = before.strip() if context == "instance" else ""
            tail = after.strip() if context == "instance" else ""
            offset = len(head) + 1 if head else 0
            text = " ".join(part for part in (head, sentence, tail) if part)
            gold_target, sense = gold[instance_id]
            if gold_target != target:
                raise InputError(f"{root / GOLD_KEY}: instance {instance_id!r} has target {gold_target!r}")
            rows.append(
                {
                    "id": instance_id,
                    "target": target,
                    "form": sentence[start:end],
                    "text": text,
                    "start": offset + start,
                    "end": offset + end,
                    "sense": sense,
                }
            )
            if pos in POS_SUBSETS:
                subsets[POS_SUBSETS[pos]].add(instance_id)
    stats["not_found"] = len(not_found)
    if not_found:
        warnings.warn(
            f"SemEval-2010: the target was not found in {len(not_found)} target sentence(s) "
            f"(e.g. {not_found[0]!r}); those instances are left out",
            stacklevel=2,
        )
    stats["gold_without_context"] = len(set(gold) - all_ids)
    table = _build_table(rows, where=f"SemEval-2010 ({root})", labelled=True)
    stats["loaded"] = len(table)
    return DatasetBundle(
        "semeval2010",
        table,
        gold=(root / GOLD_KEY,),
        subsets={name: frozenset(ids) for name, ids in subsets.items()},
        stats={name: int(stats[name]) for name in STATS},
    )
