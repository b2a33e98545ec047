"""Target words and their inflected forms, as the user gives them on the command line or in a file.

Three ways to name targets and forms (every target always matches itself):

- **command line** (a string): ``mouse,bank`` names two targets; ``mouse:mice`` gives *mouse* the extra form
  *mice* (more forms after more colons: ``mouse:mice:mouses``). The comma always starts a new target, so
  ``замок:замка,замке`` is *замок* (form *замка*) and a second target *замке*;
- **targets file** (``--targets targets.txt``): one target per line, as ``target`` or ``target:form1,form2``
  (forms after the colon, separated by commas or colons), or ``target<TAB>form1,form2`` as in a forms file;
  blank lines and lines starting with ``#`` are skipped. A line with a comma but no colon or tab
  (``mouse,bank``) is an error: it is not clear whether it names two targets or a target and a form;
- **forms file** (``--forms forms.tsv``): lines ``target<TAB>form1,form2,...`` that add forms to targets
  named elsewhere.

Files are read with :mod:`wsd.io.textfiles` (UTF-8, a byte-order mark is dropped; bad bytes are an error naming
the line). Unless matching is case-sensitive, targets that differ only in case (``mouse,MOUSE``) are one
word: they are merged into the first, with one warning, so each occurrence is stored once. So are targets
that differ only in their Unicode normalisation (``café`` with the letter ``é`` or with ``e`` and a combining
accent), case-sensitive or not: forms are compared in NFC (:func:`wsd.corpus.folding.match_key`).
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path

from wsd.corpus.folding import match_key
from wsd.errors import ConfigError, InputError
from wsd.io.textfiles import check_utf8_text, read_lines

TargetForms = dict[str, list[str]]
#: Separators of the forms after ``target:`` in a targets file.
_FILE_FORM_SEPARATORS = re.compile(r"[,:]")
TARGETS_FILE_HINT = "write one target per line: 'target' or 'target:form1,form2'"


def parse_targets(
    spec: str | os.PathLike[str] | Iterable[str] | Mapping[str, Iterable[str]], case_sensitive: bool = False
) -> TargetForms:
    """Turn a target specification into ``{target: [forms...]}`` (the target itself first).

    ``spec`` is a comma-separated string (``"mouse:mice,bank"``), a list of items (each one target, read as
    a line of a targets file), a mapping of target to forms, or the path of a targets file (see the module
    docstring for the formats).

    Parameters
    ----------
    spec : str, os.PathLike, iterable of str, or mapping of str to iterable of str
        The targets: ``"mouse:mice,bank"``, ``["mouse:mice", "bank"]``, ``{"mouse": ["mice"]}``, or the path
        of a targets file.
    case_sensitive : bool
        Whether matching will be case-sensitive; if not, targets equal under :meth:`str.casefold` are merged
        into the first of them (with a warning).

    Returns
    -------
    dict of str to list of str
        Each target with its forms, the target itself first, duplicate forms (ignoring case) dropped.

    Raises
    ------
    ConfigError
        For an item with an empty target name, or when no target is given.
    InputError
        For a targets file that cannot be read or has a malformed line (naming the file and line), and for
        targets that hold characters UTF-8 cannot hold (bytes of the command line that were not UTF-8).

    Examples
    --------
    >>> parse_targets("mouse:mice,bank")
    {'mouse': ['mouse', 'mice'], 'bank': ['bank']}
    >>> parse_targets(["замок:замка,замке"])
    {'замок': ['замок', 'замка', 'замке']}
    """
    if isinstance(spec, Mapping):
        items = {str(t).strip(): [str(f).strip() for f in forms] for t, forms in spec.items()}
        for target, target_forms in items.items():
            for text in (target, *target_forms):
                check_utf8_text(text, f"target {target!r}")
        if any(not target for target in items):
            raise ConfigError(f"empty target name in {dict(spec)!r}")
        if not items:
            raise ConfigError("no target words given (e.g. --targets mouse,bank)")
        return _merge_case_duplicates(_normalise(items), case_sensitive)
    if isinstance(spec, (str, os.PathLike)):
        text = os.fspath(spec)
        if isinstance(spec, os.PathLike) or os.path.isfile(text):  # a Path is always meant as a file
            return read_targets_file(text, case_sensitive)
        check_utf8_text(text, "--targets")  # bytes of the command line that are not UTF-8 (POSIX)
        return _merge_case_duplicates(_parse_command_line(text), case_sensitive)
    forms: dict[str, list[str]] = {}
    for number, item in enumerate(spec, start=1):
        check_utf8_text(str(item), f"target item {number}")
        parsed = _parse_line(str(item).strip(), f"target item {number}", ConfigError, comments=False)
        if parsed is not None:
            forms.setdefault(parsed[0], []).extend(parsed[1])
    if not forms:
        raise ConfigError("no target words given (e.g. --targets mouse,bank)")
    return _merge_case_duplicates(_normalise(forms), case_sensitive)


def _parse_command_line(text: str) -> TargetForms:
    """``mouse:mice,bank``: commas separate targets, colons a target from its forms."""
    forms: dict[str, list[str]] = {}
    for item in text.split(","):
        parts = [p.strip() for p in item.split(":")]
        if not parts[0]:
            if not any(parts):
                continue
            raise ConfigError(f"empty target name in {item!r} (use e.g. mouse:mice)")
        forms.setdefault(parts[0], []).extend(p for p in parts[1:] if p)
    if not forms:
        raise ConfigError("no target words given (e.g. --targets mouse,bank)")
    return _normalise(forms)


def _parse_line(
    line: str, where: str, error: type[Exception] = InputError, comments: bool = True
) -> tuple[str, list[str]] | None:
    """One target and its forms from a line of a targets file (``None`` for a blank or comment line)."""
    if not line or (comments and line.startswith("#")):
        return None
    if "\t" in line:
        fields = line.split("\t")
        if len(fields) != 2:
            raise error(f"{where}: expected 'target<TAB>form1,form2', found {len(fields)} tab-separated fields")
        target, forms = fields[0], fields[1].split(",")
    elif ":" in line:
        target, _, rest = line.partition(":")
        forms = _FILE_FORM_SEPARATORS.split(rest)
    elif "," in line:
        raise error(f"{where}: {line!r} has a comma but no colon; {TARGETS_FILE_HINT}")
    else:
        target, forms = line, []
    target = target.strip()
    if not target:
        raise error(f"{where}: no target before the forms in {line!r}; {TARGETS_FILE_HINT}")
    if "," in target:
        raise error(f"{where}: the target in {line!r} has a comma (one target per line); {TARGETS_FILE_HINT}")
    return target, [form.strip() for form in forms if form.strip()]


def read_targets_file(path: str | os.PathLike[str], case_sensitive: bool = False) -> TargetForms:
    """Read a targets file: one target per line, ``target``, ``target:form1,form2`` or ``target<TAB>forms``.

    Parameters
    ----------
    path : str or os.PathLike
        The file (UTF-8, a byte-order mark allowed); blank lines and lines starting with ``#`` are skipped.
    case_sensitive : bool
        As for :func:`parse_targets`.

    Returns
    -------
    dict of str to list of str
        Each target with its forms, the target itself first.

    Raises
    ------
    InputError
        If the file cannot be read or is not UTF-8, a line is malformed (naming the file and line), or no
        line names a target.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "targets.txt"
    >>> _ = p.write_text("# castles and locks\\nзамок:замка,замке\\nключ\\n", encoding="utf-8")
    >>> read_targets_file(p)
    {'замок': ['замок', 'замка', 'замке'], 'ключ': ['ключ']}
    """
    forms: dict[str, list[str]] = {}
    for number, line in enumerate(read_lines(path, "targets file"), start=1):
        parsed = _parse_line(line.strip(), f"targets file {path}, line {number}")
        if parsed is not None:
            forms.setdefault(parsed[0], []).extend(parsed[1])
    if not forms:
        raise InputError(f"targets file {path} names no target ({TARGETS_FILE_HINT})")
    return _merge_case_duplicates(_normalise(forms), case_sensitive)


def read_forms_file(path: str | os.PathLike[str]) -> TargetForms:
    """Read a forms file: lines ``target<TAB>form1,form2,...``; ``#`` starts a comment line.

    Parameters
    ----------
    path : str or os.PathLike
        The forms file (UTF-8, a byte-order mark allowed).

    Returns
    -------
    dict of str to list of str
        As :func:`read_targets_file` gives them.

    Raises
    ------
    InputError
        If the file does not exist or is not UTF-8, or a line is not ``target<TAB>forms`` (naming the file
        and line).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "forms.tsv"
    >>> _ = p.write_text("mouse\\tmice\\n", encoding="utf-8")
    >>> read_forms_file(p)
    {'mouse': ['mouse', 'mice']}
    """
    file = Path(path)
    forms: dict[str, list[str]] = {}
    for number, line in enumerate(read_lines(file, "forms file"), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2 or not fields[0].strip():
            raise InputError(f"{file}, line {number}: expected 'target<TAB>form1,form2,...', got {line!r}")
        target = fields[0].strip()
        forms.setdefault(target, []).extend(f.strip() for f in fields[1].split(",") if f.strip())
    return _normalise(forms)


def merge_forms(targets: TargetForms, extra: TargetForms, case_sensitive: bool = False) -> TargetForms:
    """Add the forms in ``extra`` to the targets that ``targets`` names (other entries of ``extra`` are ignored).

    Parameters
    ----------
    targets : dict of str to list of str
        The targets and their forms.
    extra : dict of str to list of str
        More forms, e.g. from :func:`read_forms_file`.
    case_sensitive : bool
        Whether an entry of ``extra`` must name a target with the same case (by default ``Mouse`` in
        ``extra`` adds its forms to the target ``mouse``).

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
    by_key = {match_key(t, case_sensitive): t for t in reversed(list(targets))}
    for target, forms in extra.items():
        name = target if target in merged else by_key.get(match_key(target, case_sensitive))
        if name is not None:
            merged[name].extend(forms)
    return _normalise(merged)


def _merge_case_duplicates(forms: TargetForms, case_sensitive: bool) -> TargetForms:
    """Merge targets equal under case folding (unless case-sensitive) or NFC into the first, warning once each."""
    first_of: dict[str, str] = {}
    merged: dict[str, list[str]] = {}
    in_case: list[str] = []
    in_form: list[str] = []
    for target, target_forms in forms.items():
        first = first_of.setdefault(match_key(target, case_sensitive), target)
        if first != target:
            if match_key(target, case_sensitive=True) == match_key(first, case_sensitive=True):
                in_form.append(f"{target!a} into {first!a}")
            else:
                in_case.append(f"{target!r} into {first!r}")
        merged.setdefault(first, []).extend(target_forms)
    if in_case:
        warnings.warn(
            f"targets that differ only in case are one word when case is ignored; merged {', '.join(in_case)} "
            "(each occurrence is stored once; match case-sensitively to keep them apart)",
            stacklevel=3,
        )
    if in_form:
        warnings.warn(
            "targets that differ only in their Unicode normalisation (a composed letter or a letter and a "
            f"combining mark) are one word; merged {', '.join(in_form)} (each occurrence is stored once)",
            stacklevel=3,
        )
    return _normalise(merged)


def _normalise(forms: dict[str, list[str]]) -> TargetForms:
    """Put each target first among its forms and drop duplicate forms (in NFC, case-insensitively)."""
    result: TargetForms = {}
    for target, target_forms in forms.items():
        seen: set[str] = set()
        ordered: list[str] = []
        for form in [target, *target_forms]:
            key = match_key(form)
            if key not in seen:
                seen.add(key)
                ordered.append(form)
        result[target] = ordered
    return result
