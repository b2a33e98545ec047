"""Reader for SemEval-2013 Task 13 (word-sense induction with graded senses): contexts and gold key.

Layout (under the dataset folder ``semeval2013-task13``): ``contexts/xml-format/<lemma>.<pos>.xml`` with
``<instance id="add.v.1" lemma="add" partOfSpeech="v" token="adding" tokenStart="51" tokenEnd="57">TEXT``
elements, and ``keys/gold/*.key`` lines ``add.v add.v.1 add%2:32:01::/4 [sense/weight ...]``.

Each instance becomes one occurrence: ``id`` = ``doc_id`` = the instance id, ``target`` = ``lemma.pos`` (the
key's first field), ``text`` = the instance text, ``start``/``end`` = ``tokenStart``/``tokenEnd`` (end
exclusive; checked against the ``token`` attribute and re-located by form if they ever disagree),
``form`` = the token, ``sense`` = the key's senses joined by one space, weights kept as in the key
(graded: ``add%2:32:01::/4 add%2:30:00::/2``; a sense without weight counts 1.0).

Only instances present in the chosen gold key are kept (``all.key``: 4664; ``all.singlesense.key``: 4122).
``stats``: ``instances`` (in the contexts), ``loaded``, ``dropped_without_gold``, ``gold_without_context``,
``spans_repaired``. ``subsets`` (occurrence ids): ``nouns``, ``verbs``, ``adjectives``, and ``spoken`` /
``written`` when those key files exist.
"""

from __future__ import annotations

import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

from wsd.corpus.forms import find_word
from wsd.errors import InputError
from wsd.evaluate.datasets import DatasetBundle, _build_table, _dataset_root, _read_key

FOLDER = "semeval2013-task13"
CONTEXTS = Path("contexts") / "xml-format"
GOLD_KEYS = Path("keys") / "gold"
#: Part-of-speech code -> subset name.
POS_SUBSETS = {"n": "nouns", "v": "verbs", "j": "adjectives"}
#: Key files (in ``keys/gold``) that define further subsets, if present.
KEY_SUBSETS = ("spoken", "written")


def _key_path(root: Path, key: str | Path) -> Path:
    """A key name in ``keys/gold`` (``.key`` optional), else a path to a key file."""
    name = str(key) if str(key).endswith(".key") else f"{key}.key"
    path = root / GOLD_KEYS / name
    if not path.is_file() and Path(key).expanduser().is_file():
        return Path(key).expanduser()
    if not path.is_file():
        known = ", ".join(sorted(p.name for p in (root / GOLD_KEYS).glob("*.key")))
        raise InputError(f"{path}: gold key not found (keys in {root / GOLD_KEYS}: {known or 'none'})")
    return path


def _read_contexts(path: Path) -> list[dict[str, object]]:
    """Instances of one context file as occurrence rows (without ``sense``)."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        raise InputError(f"{path}: malformed XML ({error})") from None
    rows = []
    for element in root.iter("instance"):
        attributes = element.attrib
        missing = [a for a in ("id", "lemma", "partOfSpeech", "token", "tokenStart", "tokenEnd") if a not in attributes]
        if missing:
            raise InputError(f"{path}: instance {attributes.get('id', '?')!r} lacks {', '.join(missing)}")
        try:
            start, end = int(attributes["tokenStart"]), int(attributes["tokenEnd"])
        except ValueError:
            raise InputError(f"{path}: instance {attributes['id']!r} has non-integer token offsets") from None
        rows.append(
            {
                "id": attributes["id"],
                "target": f"{attributes['lemma']}.{attributes['partOfSpeech']}",
                "pos": attributes["partOfSpeech"],
                "form": attributes["token"],
                "text": element.text or "",
                "start": start,
                "end": end,
            }
        )
    return rows


def _check_span(row: dict[str, object]) -> bool:
    """Make sure ``text[start:end]`` is the token; re-locate it (nearest match) if not. True if repaired."""
    text, form = str(row["text"]), str(row["form"])
    start, end = int(row["start"]), int(row["end"])  # type: ignore[call-overload]
    if text[start:end] == form:
        return False
    spans = find_word(text, [form], ignore_case=False) or find_word(text, [form])
    if not spans:
        raise InputError(f"instance {row['id']!r}: token {form!r} is not in its text")
    row["start"], row["end"] = min(spans, key=lambda span: abs(span[0] - start))
    return True


def load(path: str | Path, key: str | Path = "all.key") -> DatasetBundle:
    """Load SemEval-2013 Task 13 with its gold senses.

    Parameters
    ----------
    path : str or Path
        The ``semeval2013-task13`` folder, or the folder that holds it.
    key : str or Path
        Gold key: a file name in ``keys/gold`` (``"all.key"``, ``"all.singlesense.key"``, ``"nouns"``, ...)
        or a path to a key file. Only instances in this key are loaded.

    Returns
    -------
    DatasetBundle
        ``name="semeval2013"``, ``gold=(key path,)``.

    Raises
    ------
    InputError
        When the folder, the key or the context files are missing or malformed.

    Examples
    --------
    >>> bundle = load("../shared/datasets")                          # doctest: +SKIP
    >>> len(bundle.occurrences), bundle.occurrences.loc[0, "form"]  # doctest: +SKIP
    (4664, 'adding')
    """
    root = _dataset_root(path, FOLDER, str(CONTEXTS))
    key_path = _key_path(root, key)
    gold = _read_key(key_path)
    files = sorted((root / CONTEXTS).glob("*.xml"))
    if not files:
        raise InputError(f"{root / CONTEXTS}: no .xml context files")
    instances = [row for file in files for row in _read_contexts(file)]
    seen = {str(row["id"]) for row in instances}
    rows, repaired = [], 0
    for row in instances:
        if row["id"] not in gold:
            continue
        target, senses = gold[str(row["id"])]
        if target != row["target"]:
            raise InputError(
                f"{key_path}: instance {row['id']!r} has target {target!r}, contexts say {row['target']!r}"
            )
        repaired += _check_span(row)
        rows.append({**row, "sense": senses})
    missing = sorted(set(gold) - seen)
    if missing:
        warnings.warn(
            f"{key_path}: {len(missing)} gold instance(s) have no context (e.g. {missing[0]!r}); ignored",
            stacklevel=2,
        )
    table = _build_table(rows, where=f"SemEval-2013 ({root})", labelled=True)
    subsets = {name: frozenset(str(r["id"]) for r in rows if r["pos"] == pos) for pos, name in POS_SUBSETS.items()}
    loaded = set(table["id"])
    for name in KEY_SUBSETS:
        subset_key = root / GOLD_KEYS / f"{name}.key"
        if subset_key.is_file():
            subsets[name] = frozenset(_read_key(subset_key)) & loaded
    stats = {
        "instances": len(instances),
        "loaded": len(table),
        "dropped_without_gold": len(instances) - len(rows),
        "gold_without_context": len(missing),
        "spans_repaired": repaired,
    }
    return DatasetBundle("semeval2013", table, gold=(key_path,), subsets=subsets, stats=stats)
