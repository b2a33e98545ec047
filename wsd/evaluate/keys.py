"""Sense key files (``lemma.pos instance_id sense[/weight] ...``): reading, writing and building keys.

A *key* maps each target to its instances and each instance to its graded senses::

    Key = dict[str, dict[str, dict[str, float]]]      # target -> instance id -> sense -> weight

Reading follows the official SemEval-2013 Task 13 scorer (``KeyUtil.loadKey`` of Jurgens'
cluster-comparison tools) wherever its reading changes a score:

* a line needs a target, an instance id and at least one more field, else it is rejected with
  "Malformed sense description on line N" (two official 2013 system keys fail this way);
* a field starting with ``!!`` starts a comment that runs to the end of the line;
* ``sense/weight`` gives a weight; the text after the first ``/`` up to the next ``/`` is the weight
  and a trailing ``/`` is ignored (``s/`` is ``s`` unweighted);
* when every sense of a line has a weight, the weights are divided by the line's maximum weight;
  when any sense lacks one, *every* sense of the line gets 1.0;
* a sense repeated on a line keeps its last weight, but the repetition counts as a mismatch, so the
  whole line falls back to 1.0 (the 2013 gold has 17 such lines: ``common%3:00:01::/4 common%3:00:01::/2``);
* a repeated instance id replaces the earlier line (the official reader keeps the last one; a
  warning says how many).

Deliberate differences, none of which occurs in any official key: fields are separated by any run of
whitespace (the Java reader splits on single spaces, so a double space there creates an empty sense
that every such instance shares); blank lines are skipped (the Java reader rejects them); weights
that are negative, not finite, or all zero on a line are rejected here, because the official scorer
crashes or prints NaN on them.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.io.atomic import WriteFailed, atomic_write
from wsd.io.textfiles import read_text

Key = dict[str, dict[str, dict[str, float]]]
"""target -> instance id -> sense -> weight (weights divided by the instance's maximum)."""

COMMENT_PREFIX = "!!"
WEIGHT_SEPARATOR = "/"
FORMAT_HINT = "expected 'lemma.pos instance_id sense[/weight] [sense[/weight] ...]'"

# The number syntax of Java's Double.parseDouble (decimal forms), which the official reader uses.
_JAVA_DOUBLE = re.compile(r"[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)")


def _parse_weight(text: str, where: str) -> float:
    """One weight, with the syntax of Java's ``Double.parseDouble``; positive or zero and finite."""
    stripped = text.strip()
    if not _JAVA_DOUBLE.fullmatch(stripped):
        raise InputError(f"{where}: malformed sense weight {text!r} ({FORMAT_HINT})")
    value = float(stripped.rstrip("fFdD"))
    if not math.isfinite(value) or value < 0:
        raise InputError(f"{where}: sense weight {text!r} must be a finite number >= 0")
    return value


def _parse_sense_fields(fields: Sequence[str], where: str) -> dict[str, float]:
    """Senses and normalised weights from the sense fields of one key line (see the module docstring)."""
    senses: dict[str, float] = {}
    weighted = 0
    for field in fields:
        if field.startswith(COMMENT_PREFIX):
            break
        parts = field.split(WEIGHT_SEPARATOR)
        while parts and parts[-1] == "":  # Java's String.split drops trailing empty strings
            parts.pop()
        if not parts:
            raise InputError(f"{where}: malformed sense description {field!r} ({FORMAT_HINT})")
        if len(parts) == 1:
            senses[parts[0]] = 0.0
        else:
            senses[parts[0]] = _parse_weight(parts[1], where)
            weighted += 1
    if weighted != len(senses):
        return dict.fromkeys(senses, 1.0)
    top = max(senses.values(), default=1.0)
    if top <= 0:
        raise InputError(f"{where}: all sense weights are zero")
    return {sense: weight / top for sense, weight in senses.items()}


def parse_senses(text: str, where: str) -> dict[str, float]:
    """Parse a sense description such as ``"s1/0.7 s2/0.3"`` into normalised weights.

    The rules of the official SemEval-2013 reader apply (module docstring): weights are divided by
    the largest one; if any sense lacks a weight, all senses get 1.0. A blank text gives ``{}``.

    Parameters
    ----------
    text : str
        Whitespace-separated ``sense`` or ``sense/weight`` fields (a ``!!`` field starts a comment).
    where : str
        Where the text comes from, for error messages (``"gold.key line 12"``).

    Returns
    -------
    dict[str, float]
        Sense -> weight, in the order of first appearance.

    Raises
    ------
    InputError
        For a weight that is not a non-negative number, or when all weights are zero (naming ``where``).

    Examples
    --------
    >>> parse_senses("s1/0.7 s2/0.35", "example")
    {'s1': 1.0, 's2': 0.5}
    >>> parse_senses("s1 s2/0.3", "example")
    {'s1': 1.0, 's2': 1.0}
    """
    return _parse_sense_fields(text.split(), where)


def read_key(path: str | Path) -> Key:
    """Read a sense key file (``lemma.pos instance_id sense[/weight] ...`` per line).

    Parameters
    ----------
    path : str or Path
        The key file (UTF-8; ``\\n``, ``\\r\\n`` or ``\\r`` line ends).

    Returns
    -------
    Key
        target -> instance id -> sense -> weight, in file order.

    Raises
    ------
    InputError
        If the file is missing, a folder, not UTF-8 or holds no key line, or a line is malformed; the
        message names the file and line number.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".key", delete=False) as f:
    ...     _ = f.write("add.v add.v.1 s1/4 s2/2\\nadd.v add.v.2 s1\\n")
    >>> read_key(f.name)
    {'add.v': {'add.v.1': {'s1': 1.0, 's2': 0.5}, 'add.v.2': {'s1': 1.0}}}
    >>> os.remove(f.name)
    """
    path = Path(path)
    text = read_text(path, "key file")
    key: Key = {}
    repeated = 0
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            continue
        where = f"{path} line {number}"
        if len(fields) < 3:
            raise InputError(f"{path}: malformed sense description on line {number}: {line.strip()!r} ({FORMAT_HINT})")
        target, instance = fields[0], fields[1]
        instances = key.setdefault(target, {})
        repeated += instance in instances
        instances[instance] = _parse_sense_fields(fields[2:], where)
    if not key:
        raise InputError(f"key file {path} holds no key line ({FORMAT_HINT})")
    if repeated:
        warnings.warn(
            f"{path}: {repeated} line(s) repeat an earlier instance id; the last line wins (as in the official scorer)",
            stacklevel=2,
        )
    return key


def _format_weight(weight: float) -> str:
    """The shortest text that reads back as exactly ``weight``."""
    return repr(float(weight))


def format_key_line(target: str, instance: str, senses: dict[str, float]) -> str:
    """One key-file line; weights are omitted when every weight is 1.0.

    Parameters
    ----------
    target : str
        The target (``add.v``).
    instance : str
        The instance id.
    senses : dict of str to float
        Sense -> weight, written in this order.

    Returns
    -------
    str
        ``target instance sense[/weight] ...``, without a line end.

    Examples
    --------
    >>> format_key_line("add.v", "add.v.1", {"s1": 1.0, "s2": 0.5})
    'add.v add.v.1 s1/1.0 s2/0.5'
    >>> format_key_line("add.v", "add.v.2", {"s1": 1.0})
    'add.v add.v.2 s1'
    """
    if all(weight == 1.0 for weight in senses.values()):
        fields = list(senses)
    else:
        fields = [f"{sense}{WEIGHT_SEPARATOR}{_format_weight(weight)}" for sense, weight in senses.items()]
    return " ".join([target, instance, *fields])


def write_key(key: Key, path: str | Path) -> Path:
    """Write ``key`` as a key file that :func:`read_key` (and the official scorers) read back.

    Weights are written with full precision, so a key whose largest weight per instance is 1.0
    reads back exactly. Instances without senses cannot be written and raise. The file is written to a
    temporary file beside it and then renamed, so it is never left half-written.

    Parameters
    ----------
    key : Key
        target -> instance id -> sense -> weight.
    path : str or Path
        Output file; its folder is created if needed.

    Returns
    -------
    Path
        The written file.

    Raises
    ------
    InputError
        When a target or instance id is empty or holds whitespace, a sense name is empty, holds whitespace
        or ``/`` or starts with ``!!``, an instance has no sense, or its weights are negative, not finite or
        all zero. Target and instance ids may contain ``/`` (RUSSE ids such as ``wiki-wiki/train/17``):
        only sense fields carry weights. Also when the file cannot be written (a folder, no space, no
        permission); no partial file is left behind.

    Examples
    --------
    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp()) / "sys.key"
    >>> _ = write_key({"add.v": {"add.v.1": {"add.v.0": 1.0}}}, out)
    >>> out.read_text(encoding="utf-8")
    'add.v add.v.1 add.v.0\\n'
    """
    path = Path(path)
    lines = []
    for target, instances in key.items():
        for instance, senses in instances.items():
            _check_writable(path, target, instance, senses)
            lines.append(format_key_line(target, instance, senses) + "\n")
    if path.is_dir():
        raise InputError(f"cannot write key {path}: it is a folder")
    try:
        atomic_write(path, lambda tmp: tmp.write_text("".join(lines), encoding="utf-8"))
    except WriteFailed as error:
        raise InputError(f"cannot write key {path}: {str(error).rpartition(': ')[2]}") from None
    return path


def _check_writable(path: Path, target: str, instance: str, senses: dict[str, float]) -> None:
    """An InputError unless the line of ``instance`` reads back as written (see :func:`write_key`)."""
    where = f"cannot write key {path}: instance {instance!r} of target {target!r}"
    for role, name in (("target", target), ("instance id", instance)):
        if not isinstance(name, str) or not name or _has_space(name):
            raise InputError(f"{where}: the {role} {name!r} is empty or contains whitespace")
    if not senses:
        raise InputError(f"{where}: no sense")
    for sense in senses:
        if not isinstance(sense, str) or not sense or _has_space(sense) or WEIGHT_SEPARATOR in sense:
            raise InputError(f"{where}: the sense {sense!r} is empty or contains whitespace or '{WEIGHT_SEPARATOR}'")
        if sense.startswith(COMMENT_PREFIX):
            raise InputError(f"{where}: the sense {sense!r} starts with '{COMMENT_PREFIX}', which starts a comment")
    weights = list(senses.values())
    if all(weight == 1.0 for weight in weights):
        return
    if not all(isinstance(w, (int, float)) and math.isfinite(w) and w >= 0 for w in weights) or max(weights) <= 0:
        raise InputError(f"{where}: sense weights must be finite numbers >= 0, not all 0 (got {weights})")


def _has_space(name: str) -> bool:
    return len(name.split()) != 1 or name.strip() != name


def _check_lengths(where: str, **columns: Sequence | np.ndarray) -> int:
    """The common length of the given columns, or an InputError naming the mismatch."""
    lengths = {name: len(values) for name, values in columns.items()}
    if len(set(lengths.values())) > 1:
        described = ", ".join(f"{name}={n}" for name, n in lengths.items())
        raise InputError(f"{where}: inputs differ in length ({described})")
    return next(iter(lengths.values()))


def _add_instance(key: Key, target: str, instance: str, senses: dict[str, float], where: str) -> None:
    instances = key.setdefault(target, {})
    if instance in instances:
        raise InputError(f"{where}: instance id {instance!r} of target {target!r} appears more than once")
    instances[instance] = senses


def key_from_labels(
    targets: Iterable[str],
    ids: Iterable[str],
    labels: Iterable[int],
    noise: str = "omit",
) -> Key:
    """Build a hard system key from cluster labels; sense names are ``<target>.<label>``.

    Parameters
    ----------
    targets, ids : iterable of str
        Target and instance id of each occurrence (row-aligned with ``labels``).
    labels : iterable of int
        Cluster label per occurrence; a negative label marks noise (e.g. HDBSCAN's -1).
    noise : {"omit", "singleton"}
        ``"omit"`` leaves noise occurrences out of the key (they then count against the system,
        like any gold instance without an answer); ``"singleton"`` gives each its own sense
        ``<target>.noise<i>``.

    Returns
    -------
    Key
        target -> instance id -> {``<target>.<label>``: 1.0}.

    Raises
    ------
    InputError
        When the inputs differ in length, labels are not one integer per occurrence, or an instance id
        repeats within a target.
    ConfigError
        For an unknown ``noise``.

    Examples
    --------
    >>> key_from_labels(["add.v", "add.v"], ["add.v.1", "add.v.2"], [0, -1])
    {'add.v': {'add.v.1': {'add.v.0': 1.0}}}
    """
    targets, ids = [str(t) for t in targets], [str(i) for i in ids]
    labels = np.asarray(list(labels) if not isinstance(labels, np.ndarray) else labels)
    if labels.ndim != 1:
        raise InputError(f"key_from_labels: labels must be one label per occurrence, got shape {labels.shape}")
    _check_lengths("key_from_labels", targets=targets, ids=ids, labels=labels)
    if noise not in ("omit", "singleton"):
        raise ConfigError(f"key_from_labels: noise must be 'omit' or 'singleton', not {noise!r}")
    if labels.size and not np.issubdtype(labels.dtype, np.integer):
        numeric = np.issubdtype(labels.dtype, np.number) or labels.dtype == bool
        if not numeric or not np.all(np.mod(labels.astype(np.float64), 1) == 0):
            raise InputError(f"key_from_labels: labels must be integers, got {labels.dtype} values")
        labels = labels.astype(np.int64)
    key: Key = {}
    for row, (target, instance, label) in enumerate(zip(targets, ids, labels.tolist(), strict=True)):
        if label < 0:
            if noise == "omit":
                continue
            sense = f"{target}.noise{row}"
        else:
            sense = f"{target}.{label}"
        _add_instance(key, target, instance, {sense: 1.0}, "key_from_labels")
    return key


def key_from_memberships(
    targets: Iterable[str],
    ids: Iterable[str],
    memberships: np.ndarray,
    min_weight: float = 0.0,
    top: int | None = None,
) -> Key:
    """Build a graded system key from a soft membership matrix (one row per occurrence).

    Column ``k`` becomes sense ``<target>.<k>``. Each row is divided by its maximum; senses whose
    relative weight is ``<= min_weight`` are dropped, then at most ``top`` senses are kept (largest
    first). Rows without any positive membership are left out of the key.

    Parameters
    ----------
    targets, ids : iterable of str
        Target and instance id per row of ``memberships``.
    memberships : array of shape (n_occurrences, n_senses)
        Non-negative membership weights (probabilities, responsibilities, similarities).
    min_weight : float
        Relative threshold in [0, 1).
    top : int or None
        Keep at most this many senses per occurrence.

    Returns
    -------
    Key
        target -> instance id -> sense -> relative weight (largest 1.0), senses by decreasing weight.

    Raises
    ------
    InputError
        When ``memberships`` is not a finite non-negative matrix row-aligned with ``targets`` and ``ids``,
        or an instance id repeats within a target.
    ConfigError
        For a ``min_weight`` outside [0, 1).

    Examples
    --------
    >>> import numpy as np
    >>> key_from_memberships(["add.v"], ["add.v.1"], np.array([[0.6, 0.3, 0.1]]), min_weight=0.2)
    {'add.v': {'add.v.1': {'add.v.0': 1.0, 'add.v.1': 0.5}}}
    """
    targets, ids = [str(t) for t in targets], [str(i) for i in ids]
    weights = np.asarray(memberships, dtype=np.float64)
    if weights.ndim != 2:
        raise InputError(f"key_from_memberships: memberships must be a 2-D matrix, got shape {weights.shape}")
    _check_lengths("key_from_memberships", targets=targets, ids=ids, memberships=weights)
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise InputError("key_from_memberships: memberships must be finite and >= 0")
    if not 0 <= min_weight < 1:
        raise ConfigError(f"key_from_memberships: min_weight must be in [0, 1), not {min_weight}")
    row_max = weights.max(axis=1, initial=0.0)
    relative = np.divide(weights, row_max[:, None], out=np.zeros_like(weights), where=row_max[:, None] > 0)
    keep = relative > min_weight
    if top is not None and weights.shape[1] > top:
        order = np.argsort(-relative, axis=1, kind="stable")
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, np.arange(weights.shape[1])[None, :].repeat(len(weights), 0), axis=1)
        keep &= ranks < top
    key: Key = {}
    for row, (target, instance) in enumerate(zip(targets, ids, strict=True)):
        columns = np.flatnonzero(keep[row])
        if columns.size == 0:
            continue
        columns = columns[np.argsort(-relative[row, columns], kind="stable")]
        senses = {f"{target}.{k}": float(relative[row, k]) for k in columns}
        _add_instance(key, target, instance, senses, "key_from_memberships")
    return key


def key_from_occurrences(frame: pd.DataFrame, where: str = "occurrence table") -> Key:
    """The gold key of an occurrence table, from its ``sense`` column (``"s1/0.7 s2/0.3"``).

    Rows whose ``sense`` is missing or blank are left out.

    Parameters
    ----------
    frame : DataFrame
        Occurrence table with columns ``id``, ``target`` and ``sense``.
    where : str
        Name of the table for error messages.

    Returns
    -------
    Key
        target -> instance id -> sense -> normalised weight.

    Raises
    ------
    InputError
        When a column is missing, a ``sense`` is malformed or an instance id repeats within a target.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"id": ["a.1", "a.2"], "target": ["a.n", "a.n"], "sense": ["s1/2 s2/1", None]})
    >>> key_from_occurrences(t)
    {'a.n': {'a.1': {'s1': 1.0, 's2': 0.5}}}
    """
    missing = [c for c in ("id", "target", "sense") if c not in frame.columns]
    if missing:
        raise InputError(f"{where}: missing column(s) {', '.join(missing)} needed for a gold key")
    key: Key = {}
    for instance, target, sense in zip(frame["id"], frame["target"], frame["sense"], strict=True):
        if sense is None or (isinstance(sense, float) and math.isnan(sense)) or not str(sense).strip():
            continue
        row_where = f"{where}: occurrence {instance!r}"
        senses = parse_senses(str(sense), row_where)
        if not senses:
            continue
        _add_instance(key, str(target), str(instance), senses, where)
    return key


def key_instances(key: Key) -> int:
    """Number of instances in ``key``.

    Parameters
    ----------
    key : Key
        target -> instance id -> sense -> weight.

    Returns
    -------
    int
        The number of (target, instance) entries.

    Examples
    --------
    >>> key_instances({"a.n": {"a.1": {"s": 1.0}, "a.2": {"s": 1.0}}})
    2
    """
    return sum(len(instances) for instances in key.values())
