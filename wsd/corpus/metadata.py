"""Keeping document metadata through a scan: the fields asked for with ``--meta``, slices from file paths.

``--meta year,source`` (``scan.meta``) keeps those JSON-lines fields, CSV/TSV or Parquet columns of every
document; ``--slice-from-path REGEX`` (``scan.slice_from_path``) searches ``REGEX`` in each file's path
relative to the corpus (``1850s/novel.txt``; for a corpus that is one file, its name) and keeps what its groups
captured: a named group ``(?P<year>\\d{4})`` gives the column ``year``, each named group one column; a
regex without named groups gives its first group as the column ``slice`` (:data:`SLICE_COLUMN`).
``'^([^/]+)/'`` keeps the name of the first sub-folder. The kept values become metadata columns of the
occurrence table (:mod:`wsd.occurrences`: names, dtypes), stored in a run's parts as text and typed when the
run is finished or read.

What goes wrong is said, never dropped silently:

- a field missing from a record, a ``null`` or an empty value: the occurrence keeps a missing value, and
  one warning per column at the end of the scan says how many documents had one and where the first was;
- a requested column absent from a CSV/TSV header or a Parquet schema, a field that no record of a
  JSON-lines file has, ``--meta`` on a plain-text file, an object or list as a value: an
  :class:`~wsd.errors.InputError` naming the file (and line). A JSON-lines file larger than a shard is read in
  byte ranges (:mod:`wsd.corpus.shards`); there a record without the field only counts as missing, but a
  field that no file has at all is an error before any work (:func:`wsd.corpus.metafields.check_meta_fields`);
- a Parquet ``uint64`` value beyond the int64 range: an error naming file, row, column and value (smaller
  ones are integers as usual);
- a regex that does not compile, has no group, or matches none of the corpus paths: an error; files whose
  paths it does not match keep a missing value (and the warning);
- a column name that is one of the occurrence table's own (``id``, ``text``...): an error.

>>> spec = MetaSpec.build(["source"], r"(?P<year>\\d{4})")
>>> spec.columns, spec.path_values("1850/a.txt")
(('source', 'year'), ('1850',))
"""

from __future__ import annotations

import functools
import re
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wsd.errors import ConfigError, InputError
from wsd.occurrences import check_metadata_names, metadata_dtype, value_kind

#: The column of a ``--slice-from-path`` regex without named groups.
SLICE_COLUMN = "slice"


@dataclass(frozen=True)
class MetaSpec:
    """Which metadata a scan keeps: record fields, and columns taken from the file path.

    Parameters
    ----------
    fields : tuple of str
        Fields (JSON lines) or columns (CSV/TSV, Parquet) kept.
    path_regex : str, optional
        The ``--slice-from-path`` regex.
    path_columns : tuple of str
        The columns its groups fill (named groups, or :data:`SLICE_COLUMN`).
    """

    fields: tuple[str, ...] = ()
    path_regex: str | None = None
    path_columns: tuple[str, ...] = ()

    @classmethod
    def build(
        cls, fields: Iterable[str] | None = None, path_regex: str | None = None, text_field: str = "text"
    ) -> MetaSpec:
        """Check the requested metadata and describe it.

        Parameters
        ----------
        fields : iterable of str, optional
            The ``--meta`` fields.
        path_regex : str, optional
            The ``--slice-from-path`` regex.
        text_field : str
            The field holding the text (it cannot be kept as metadata too).

        Returns
        -------
        MetaSpec

        Raises
        ------
        ConfigError
            For fields that are not a list of names, or a regex that does not compile or has no group.
        InputError
            For a name that is reserved (:data:`wsd.occurrences.RESERVED_COLUMNS`), repeated, or the text field.
        """
        if fields is None:
            fields = ()
        if isinstance(fields, str):  # "year,source", as on the command line
            fields = [name for name in fields.split(",") if name.strip()]
        if not isinstance(fields, list | tuple) or not all(isinstance(f, str) for f in fields):
            raise ConfigError(f"--meta (scan.meta) must be a list of field names, not {fields!r}")
        names = tuple(f.strip() for f in fields)
        if text_field in names:
            raise InputError(f"--meta: {text_field!r} is the field that holds the text; it cannot be metadata too")
        columns: tuple[str, ...] = ()
        if path_regex is not None:
            if not isinstance(path_regex, str) or not path_regex:
                raise ConfigError(f"--slice-from-path (scan.slice_from_path) must be a regex, not {path_regex!r}")
            try:
                compiled = re.compile(path_regex)
            except re.error as error:
                raise ConfigError(f"--slice-from-path {path_regex!r} is not a valid regex ({error})") from None
            if compiled.groups == 0:
                raise ConfigError(
                    f"--slice-from-path {path_regex!r} has no group: put the part of the path to keep in "
                    "parentheses, e.g. '(\\d{4})', or name it, e.g. '(?P<year>\\d{4})'"
                )
            nested = _nested_repeat(path_regex)
            if nested:
                raise ConfigError(
                    f"--slice-from-path {path_regex!r} repeats a part that itself repeats ({nested}); such a regex "
                    "can take hours on a long path. Write it without the nested repeat (e.g. 'a+' for '(a+)+')"
                )
            columns = tuple(compiled.groupindex) or (SLICE_COLUMN,)
        check_metadata_names(names + columns, "--meta" if not columns else "--meta/--slice-from-path")
        return cls(names, path_regex, columns)

    @property
    def columns(self) -> tuple[str, ...]:
        """The metadata columns, in table order: the fields, then the path columns.

        Returns
        -------
        tuple of str
        """
        return self.fields + self.path_columns

    def __bool__(self) -> bool:
        return bool(self.columns)

    def path_values(self, label: str) -> tuple[str | None, ...]:
        """What the path regex captures in a file's relative path (None per column when it does not match).

        Parameters
        ----------
        label : str
            The file's path relative to the corpus (``/``-separated).

        Returns
        -------
        tuple
            One value per path column.
        """
        if self.path_regex is None:
            return ()
        found = _compiled(self.path_regex).search(label)
        if found is None:
            return (None,) * len(self.path_columns)
        if self.path_columns == (SLICE_COLUMN,) and not _compiled(self.path_regex).groupindex:
            return (found.group(1) or None,)
        return tuple(found.group(name) or None for name in self.path_columns)

    def check_paths(self, labels: Sequence[str]) -> None:
        """An :class:`InputError` when the path regex matches none of the corpus files.

        Parameters
        ----------
        labels : sequence of str
            The corpus files' relative paths.
        """
        if self.path_regex is None or not labels:
            return
        if not any(_compiled(self.path_regex).search(label) for label in labels):
            shown = ", ".join(repr(label) for label in labels[:3]) + (", ..." if len(labels) > 3 else "")
            raise InputError(
                f"--slice-from-path {self.path_regex!r} matches none of the {len(labels)} corpus file paths "
                f"({shown}); it is searched in each path relative to the corpus"
            )

    def to_dict(self) -> dict[str, Any]:
        """The scan options' entries (empty when nothing is kept, so runs without metadata keep their config).

        Returns
        -------
        dict
        """
        data: dict[str, Any] = {}
        if self.fields:
            data["meta"] = list(self.fields)
        if self.path_regex is not None:
            data["slice_from_path"] = self.path_regex
        return data


def _nested_repeat(regex: str) -> str:
    """The first repeat (``*``, ``+``, ``{m,n}``) inside another unbounded repeat, as text; empty when none.

    A repeat of a repeat (``(a+)+``, ``(\\w*/)*``) makes Python's backtracking engine take exponential time
    on a path that almost matches, so such a regex is refused before any path is searched.
    """
    if sys.version_info >= (3, 11):
        from re import _parser  # the stdlib's own regex parser
    else:  # pragma: no cover - Python 3.10 names it sre_parse
        import sre_parse as _parser

    def walk(items: Any, inside: bool) -> str:
        for op, arg in items:
            name = str(op)
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                _, high, body = arg
                repeats = high is _parser.MAXREPEAT or high > 1
                if inside and repeats and name != "POSSESSIVE_REPEAT":
                    return "a repeat inside a repeat"
                found = walk(body, inside or (high is _parser.MAXREPEAT and name != "POSSESSIVE_REPEAT"))
                if found:
                    return found
            elif name == "SUBPATTERN":
                found = walk(arg[-1], inside)
                if found:
                    return found
            elif name == "BRANCH":
                for branch in arg[1]:
                    found = walk(branch, inside)
                    if found:
                        return found
            elif name in ("ASSERT", "ASSERT_NOT"):
                found = walk(arg[1], inside)
                if found:
                    return found
        return ""

    return walk(_parser.parse(regex), False)


#: Distinct path regexes kept compiled by :func:`_compiled` (the least recently used is dropped for a new one).
REGEX_CACHE_SIZE = 64


@functools.lru_cache(maxsize=REGEX_CACHE_SIZE)
def _compiled(regex: str) -> re.Pattern[str]:
    """``regex`` compiled once per process (a scan asks for it once per file); thread-safe and bounded."""
    return re.compile(regex)


@dataclass
class MetaReport:
    """What a scan saw of each metadata column, over the documents that had occurrences.

    Parameters
    ----------
    missing : dict
        Column → number of documents without a value.
    first_missing : dict
        Column → where the first was (``file:line``).
    kinds : dict
        Column → kind (:func:`wsd.occurrences.value_kind`) → where its first value was.
    """

    missing: dict[str, int] = field(default_factory=dict)
    first_missing: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, dict[str, str]] = field(default_factory=dict)

    def add(self, columns: Sequence[str], values: Sequence[Any], where: str) -> None:
        """Count one document's values.

        Parameters
        ----------
        columns : sequence of str
            The metadata columns.
        values : sequence
            The document's values, one per column.
        where : str
            The document's place (``file:line``).
        """
        for name, value in zip(columns, values, strict=True):
            kind = value_kind(value)
            if kind is None:
                self.missing[name] = self.missing.get(name, 0) + 1
                self.first_missing.setdefault(name, where)
            else:
                self.kinds.setdefault(name, {}).setdefault(kind, where)

    def merge(self, other: MetaReport | Mapping[str, Any]) -> MetaReport:
        """Add what another part of the scan saw (shards are merged in corpus order).

        Parameters
        ----------
        other : MetaReport or dict
            A report, or its :meth:`to_dict`.

        Returns
        -------
        MetaReport
            ``self``.
        """
        other = other if isinstance(other, MetaReport) else MetaReport.from_dict(other)
        for name, count in other.missing.items():
            self.missing[name] = self.missing.get(name, 0) + count
            self.first_missing.setdefault(name, other.first_missing[name])
        for name, kinds in other.kinds.items():
            for kind, where in kinds.items():
                self.kinds.setdefault(name, {}).setdefault(kind, where)
        return self

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description (a shard's done-marker holds it).

        Returns
        -------
        dict
        """
        return {"missing": self.missing, "first_missing": self.first_missing, "kinds": self.kinds}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> MetaReport:
        """The report of :meth:`to_dict` (an empty one for None).

        Parameters
        ----------
        data : dict or None
            Made by :meth:`to_dict`.

        Returns
        -------
        MetaReport
        """
        data = data or {}
        return cls(
            dict(data.get("missing", {})),
            dict(data.get("first_missing", {})),
            {k: dict(v) for k, v in data.get("kinds", {}).items()},
        )

    def dtypes(self, columns: Sequence[str], warn: bool = True) -> dict[str, str]:
        """The dtype of each metadata column (:func:`wsd.occurrences.metadata_dtype`); warn about what was odd.

        One warning per column with missing values (how many documents, the first place) and per column
        that mixes text with numbers or booleans (it is kept as text).

        Parameters
        ----------
        columns : sequence of str
            The metadata columns, in table order.
        warn : bool
            Issue the warnings.

        Returns
        -------
        dict
            Column → dtype.
        """
        dtypes = {}
        for name in columns:
            kinds = self.kinds.get(name, {})
            missing = self.missing.get(name, 0)
            dtypes[name] = metadata_dtype(kinds, missing=missing > 0)
            if not warn:
                continue
            if missing:
                warnings.warn(
                    f"metadata {name!r}: {missing} document(s) with occurrences have no value (absent, null or "
                    f"empty; the first at {self.first_missing[name]}); their occurrences keep a missing value",
                    stacklevel=3,
                )
            if dtypes[name] == "str" and set(kinds) - {"str"}:
                text_at = f" (text first at {kinds['str']})" if "str" in kinds else ""
                warnings.warn(
                    f"metadata {name!r} mixes {', '.join(sorted(kinds))} values{text_at}; the column is kept as text",
                    stacklevel=3,
                )
        return dtypes
