"""Target words and their inflected forms, as the user gives them on the command line or in a file.

``mouse,bank`` names two targets; ``mouse:mice`` gives *mouse* the extra form *mice*; a forms file
(``--forms forms.tsv``) has lines ``target<TAB>form1,form2,...``. Every target always matches itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from wsd.errors import ConfigError, InputError

TargetForms = dict[str, list[str]]


def parse_targets(spec: str | Iterable[str] | Mapping[str, Iterable[str]]) -> TargetForms:
    """Turn a target specification into ``{target: [forms...]}`` (the target itself first).

    ``spec`` is a comma-separated string (``"mouse:mice,bank"``), a list of such items, a mapping of target to
    forms, or the path of a file with one item per line.

    Parameters
    ----------
    spec : str, iterable of str, or mapping of str to iterable of str
        The targets: ``"mouse:mice,bank"``, ``["mouse:mice", "bank"]``, ``{"mouse": ["mice"]}``, or the path
        of a file of items (blank lines and lines starting with ``#`` skipped).

    Returns
    -------
    dict of str to list of str
        Each target with its forms, the target itself first, duplicate forms (ignoring case) dropped.

    Raises
    ------
    ConfigError
        For an item with an empty target name, or when no target is given.

    Examples
    --------
    >>> parse_targets("mouse:mice,bank")
    {'mouse': ['mouse', 'mice'], 'bank': ['bank']}
    """
    if isinstance(spec, Mapping):
        items = {str(t): [str(f) for f in forms] for t, forms in spec.items()}
        return _normalise(items)
    if isinstance(spec, (str, os.PathLike)):
        text = str(spec)
        if os.path.isfile(text):
            lines = Path(text).read_text(encoding="utf-8").splitlines()
            spec = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
        else:
            spec = [item for item in text.split(",")]
    forms: dict[str, list[str]] = {}
    for item in spec:
        parts = [p.strip() for p in str(item).split(":")]
        if not parts[0]:
            if len(parts) == 1 and not any(parts):
                continue
            raise ConfigError(f"empty target name in {item!r} (use e.g. mouse:mice)")
        forms.setdefault(parts[0], []).extend(p for p in parts[1:] if p)
    if not forms:
        raise ConfigError("no target words given (e.g. --targets mouse,bank)")
    return _normalise(forms)


def read_forms_file(path: str | os.PathLike[str]) -> TargetForms:
    """Read a forms file: lines ``target<TAB>form1,form2,...``; ``#`` starts a comment line.

    Parameters
    ----------
    path : str or os.PathLike
        The forms file (UTF-8).

    Returns
    -------
    dict of str to list of str
        Each target with its forms, the target itself first.

    Raises
    ------
    InputError
        If the file does not exist, or a line is not ``target<TAB>forms`` (naming the file and line).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "forms.tsv"
    >>> _ = p.write_text("mouse\\tmice\\n", encoding="utf-8")
    >>> read_forms_file(p)
    {'mouse': ['mouse', 'mice']}
    """
    file = Path(path)
    if not file.is_file():
        raise InputError(f"forms file not found: {file}")
    forms: dict[str, list[str]] = {}
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2 or not fields[0].strip():
            raise InputError(f"{file}, line {number}: expected 'target<TAB>form1,form2,...', got {line!r}")
        target = fields[0].strip()
        forms.setdefault(target, []).extend(f.strip() for f in fields[1].split(",") if f.strip())
    return _normalise(forms)


def merge_forms(targets: TargetForms, extra: TargetForms) -> TargetForms:
    """Add the forms in ``extra`` to the targets that ``targets`` names (other entries of ``extra`` are ignored).

    Parameters
    ----------
    targets : dict of str to list of str
        The targets and their forms.
    extra : dict of str to list of str
        More forms, e.g. from :func:`read_forms_file`.

    Returns
    -------
    dict of str to list of str
        A new mapping with the same targets, each with its forms and the extra ones (duplicates dropped).

    Examples
    --------
    >>> merge_forms({"mouse": ["mouse"]}, {"mouse": ["mouse", "mice"], "cat": ["cat"]})
    {'mouse': ['mouse', 'mice']}
    """
    merged = {t: list(f) for t, f in targets.items()}
    for target, forms in extra.items():
        if target in merged:
            merged[target].extend(forms)
    return _normalise(merged)


def _normalise(forms: dict[str, list[str]]) -> TargetForms:
    """Put each target first among its forms and drop duplicate forms (case-insensitively)."""
    result: TargetForms = {}
    for target, target_forms in forms.items():
        seen: set[str] = set()
        ordered: list[str] = []
        for form in [target, *target_forms]:
            key = form.casefold()
            if key not in seen:
                seen.add(key)
                ordered.append(form)
        result[target] = ordered
    return result
