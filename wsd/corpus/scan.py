"""Scanning a corpus for target words: documents in, occurrence table out, streamed in chunks.

>>> occurrences = scan("data/demo/corpus.txt", "mouse:mice,bank")  # doctest: +SKIP
>>> occurrences[["target", "form", "text"]].head()  # doctest: +SKIP
"""

from __future__ import annotations

import os
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from wsd.corpus.blocks import iter_blocks
from wsd.corpus.contexts import passages
from wsd.corpus.documents import Document, iter_documents
from wsd.corpus.matcher import DEFAULT_LANGUAGES, Match, make_matcher
from wsd.corpus.metadata import MetaReport, MetaSpec
from wsd.corpus.metafields import check_meta_fields
from wsd.corpus.proper import count_table, likely_proper, warn_proper
from wsd.corpus.targets import TargetForms, merge_forms, parse_targets, read_forms_file
from wsd.errors import ConfigError, InputError
from wsd.occurrences import REQUIRED_COLUMNS, TEXT_DTYPE, empty_occurrences, type_metadata, value_text
from wsd.options import ScanSettings
from wsd.schema import DEFAULT_CHUNK_SIZE, PROPER_MODES, ContextKind, Lemmatizer, ProperNames

#: A document with more occurrences than a chunk is cut inside, between two of its passages (``doc_id`` and
#: ``doc_start`` change), once the chunk holds this many times ``chunk_size`` rows (iter_document_chunks).
SPLIT_INSIDE_CHUNKS = 2


@dataclass
class ScanOptions:
    """Everything that decides which occurrences a scan finds and which context each one gets.

    The settings are those of :class:`wsd.options.ScanSettings`, where each is declared once, with its default:
    :func:`build_scan_options` fills them from there and joins the parsed targets.

    Parameters
    ----------
    targets : dict
        Target → its forms.
    lemmatizer, case_sensitive, context, context_chars, text_field, meta, slice_from_path, proper
        As in :class:`wsd.options.ScanSettings` (and :func:`scan`); ``meta`` as given (a tuple, or a
        comma-separated string), read by :mod:`wsd.corpus.metadata`. Only ``proper="drop"`` changes what is
        found, so only it is recorded (:meth:`to_dict`).
    languages : tuple of str
        Languages of the lemmatizer.
    """

    targets: TargetForms
    lemmatizer: Lemmatizer | None
    case_sensitive: bool
    context: ContextKind
    context_chars: int
    text_field: str
    meta: tuple[str, ...] | str
    slice_from_path: str | None
    proper: ProperNames
    languages: tuple[str, ...] = DEFAULT_LANGUAGES
    meta_spec: MetaSpec = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.meta_spec = MetaSpec.build(self.meta, self.slice_from_path, self.text_field)
        self.meta = self.meta_spec.fields
        if self.proper not in PROPER_MODES:
            raise ConfigError(f"proper must be one of {', '.join(PROPER_MODES)}, not {self.proper!r}")

    def to_dict(self) -> dict:
        """A JSON-ready description (recorded in a run's metadata).

        Returns
        -------
        dict
        """
        return {
            "targets": self.targets,
            "lemmatizer": self.lemmatizer,
            "case_sensitive": self.case_sensitive,
            "context": self.context,
            "context_chars": self.context_chars,
            "languages": list(self.languages),
            "text_field": self.text_field,
            **self.meta_spec.to_dict(),
            **({"proper": self.proper} if self.proper == "drop" else {}),  # warn and keep find the same
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScanOptions:
        """The options described by :meth:`to_dict` (as a run's metadata records them).

        Parameters
        ----------
        data : mapping
            A dictionary made by :meth:`to_dict`; a setting it leaves out (``meta``, ``slice_from_path`` and
            ``proper`` are recorded only where they are set) has its default.

        Returns
        -------
        ScanOptions
        """
        recorded = {key: data[key] for key in _SETTING_NAMES if key in data}
        return cls(
            targets={target: list(forms) for target, forms in data["targets"].items()},
            languages=tuple(data["languages"]),
            **ScanSettings(**recorded).scan_kwargs(),
        )


#: The settings of a scan (:class:`wsd.options.ScanSettings` but the forms file, which is read into the targets).
_SETTING_NAMES: tuple[str, ...] = tuple(ScanSettings().scan_kwargs())


@dataclass
class ScanStats:
    """What a scan saw: documents read and occurrences found per target.

    Parameters
    ----------
    documents : int
        Documents read.
    occurrences : Counter
        Occurrences found per target.
    meta : MetaReport
        What the documents with occurrences held in their metadata columns.
    proper : dict of str to Counter
        Per target, its likely proper names (:mod:`wsd.corpus.proper`) per form: kept or dropped as
        ``ScanOptions.proper`` says.
    """

    documents: int = 0
    occurrences: Counter = field(default_factory=Counter)
    meta: MetaReport = field(default_factory=MetaReport)
    proper: defaultdict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    def proper_table(self) -> dict[str, dict[str, int]]:
        """The likely proper names as a run records them: target → form → uses (targets with some only).

        Returns
        -------
        dict
        """
        return count_table(self.proper)


def build_scan_options(
    targets: str | Iterable[str] | Mapping[str, Iterable[str]],
    forms: str | os.PathLike[str] | None = None,
    *,
    languages: Sequence[str] = DEFAULT_LANGUAGES,
    **settings: Any,
) -> ScanOptions:
    """Parse targets (``"mouse:mice,bank"``, a list, a mapping or a file) and an optional forms file.

    Parameters
    ----------
    targets : str, list or mapping
        The targets and their forms.
    forms : path, optional
        A forms file (lines ``target<TAB>form1,form2``).
    languages : sequence of str
        Languages of the lemmatizer.
    **settings
        Fields of :class:`wsd.options.ScanSettings` but ``forms`` (the others keep their defaults there).

    Returns
    -------
    ScanOptions

    Raises
    ------
    TypeError
        For a keyword that is no setting.
    """
    scan = ScanSettings(**settings)
    parsed = parse_targets(targets, case_sensitive=scan.case_sensitive)
    if forms is not None:
        parsed = merge_forms(parsed, read_forms_file(forms), case_sensitive=scan.case_sensitive)
    return ScanOptions(targets=parsed, languages=tuple(languages), **scan.scan_kwargs())


def iter_occurrence_chunks(
    corpus: str | os.PathLike[str],
    options: ScanOptions,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    stats: ScanStats | None = None,
) -> Iterator[pd.DataFrame]:
    """Stream the occurrences of the targets in ``corpus`` as occurrence tables of ``chunk_size`` rows.

    Chunks end at a document boundary when possible (a chunk may exceed ``chunk_size`` by one document's
    occurrences; a line read in pieces counts as its blocks, :mod:`wsd.corpus.blocks`); a document with more
    occurrences than that is cut between two of its passages (:func:`iter_document_chunks`). The chunking is
    the same on every run over the same corpus. At the end it warns
    about targets that were never found and raises :class:`InputError` when the corpus has no documents or
    none of the targets occurs. Metadata columns (``options.meta``, ``options.slice_from_path``) are text in
    the chunks, as a run's parts store them: their dtypes depend on the whole corpus, and
    :func:`metadata_dtypes` gives them from ``stats`` at the end (:func:`scan` applies them).

    Parameters
    ----------
    corpus : path
        A corpus file or folder.
    options : ScanOptions
        What to find and which context each occurrence gets.
    chunk_size : int
        Occurrences per table (at least; a document is never split).
    stats : ScanStats, optional
        Filled with what the scan saw.

    Returns
    -------
    iterator of DataFrame
    """
    stats = stats if stats is not None else ScanStats()
    matcher = make_matcher(options.targets, options.lemmatizer, options.case_sensitive, options.languages)
    check_meta_fields(corpus, options.meta_spec, options.text_field)
    documents = iter_documents(corpus, text_field=options.text_field, meta=options.meta_spec)
    yield from iter_document_chunks(documents, matcher, options, chunk_size, stats)
    check_findings(corpus, options, stats)


def iter_document_chunks(
    documents: Iterable[Document],
    matcher: Any,
    options: ScanOptions,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    stats: ScanStats | None = None,
) -> Iterator[pd.DataFrame]:
    """The occurrence tables of a stream of documents, ``chunk_size`` rows each (ending at a document end).

    The one scan loop: the whole-corpus scan and the scan of a corpus shard both run it, so both give the
    same rows with the same ids. A chunk ends at the end of the document that brings it to ``chunk_size``
    rows; only a document with more occurrences than ``chunk_size`` is cut inside, between two passages, once
    the chunk holds :data:`SPLIT_INSIDE_CHUNKS` × ``chunk_size`` rows (and inside a passage at twice that), so
    a line with 100,000 uses becomes tables of about 2,000 rows, not one of 100,000 (each row carries its
    passage's text: issue 39). Every chunk of an ordinary corpus is as it was.

    Parameters
    ----------
    documents : iterable of Document
        The documents, in corpus order.
    matcher : object
        Made by :func:`wsd.corpus.matcher.make_matcher` for ``options``.
    options : ScanOptions
        What to find and which context each occurrence gets.
    chunk_size : int
        Occurrences per table (at least; a document is never split).
    stats : ScanStats, optional
        Filled with the documents read and the occurrences found per target.

    Returns
    -------
    iterator of DataFrame
    """
    stats = stats if stats is not None else ScanStats()
    columns = options.meta_spec.columns
    listed = frozenset(form for forms in options.targets.values() for form in forms)
    rows: list[tuple] = []
    counted = None  # the long document whose metadata was counted (once, however many blocks have matches)

    def counting(documents: Iterable[Document]) -> Iterator[Document]:
        for document in documents:
            stats.documents += document.offset == 0
            yield document

    blocks = iter_blocks(counting(documents), matcher, options.context, options.context_chars, _margin(options))
    split = SPLIT_INSIDE_CHUNKS * max(int(chunk_size), 1)
    passage = slice(REQUIRED_COLUMNS.index("doc_id"), REQUIRED_COLUMNS.index("doc_start") + 1)  # its document, start
    for block in blocks:
        document = block.document
        matches = _sift_proper(block.text, block.matches, options, listed, stats, block.open_start)
        if not matches:
            continue
        if columns and (block.offset == 0 or counted is not document):
            stats.meta.add(columns, document.meta, document.where)
        counted = document
        found_rows = document_rows(
            document.doc_id,
            block.text,
            matches,
            options,
            document.meta,
            offset=block.offset,
            open_start=block.open_start,
            open_end=block.open_end,
        )
        for row in found_rows:
            if len(rows) >= split and (len(rows) >= 2 * split or row[passage] != rows[-1][passage]):
                yield rows_frame(rows, columns)  # a document with thousands of uses: cut between its passages
                rows = []
            rows.append(row)
            stats.occurrences[row[1]] += 1
        if len(rows) >= chunk_size:
            yield rows_frame(rows, columns)
            rows = []
    if rows:
        yield rows_frame(rows, columns)


def _sift_proper(
    text: str, matches: list[Match], options: ScanOptions, listed: frozenset[str], stats: ScanStats, open_start: bool
) -> list[Match]:
    """The matches kept: likely proper names are counted in ``stats``, and left out with ``proper="drop"``."""
    kept = []
    for match in matches:
        if likely_proper(text, match, listed, open_start):
            stats.proper[match.target][match.form] += 1
            if options.proper == "drop":
                continue
        kept.append(match)
    return kept


def _margin(options: ScanOptions) -> int:
    """Characters at the end of a long line's buffer where matches and windows are not final yet."""
    longest = max((len(form) for forms in options.targets.values() for form in forms), default=0)
    return 2 * options.context_chars + 3 * longest + 64


def scan(
    corpus: str | os.PathLike[str],
    targets: str | Iterable[str] | Mapping[str, Iterable[str]],
    forms: str | os.PathLike[str] | None = None,
    *,
    lemmatizer: Lemmatizer | None = ScanSettings.lemmatizer,
    case_sensitive: bool = ScanSettings.case_sensitive,
    context: ContextKind = ScanSettings.context,
    context_chars: int = ScanSettings.context_chars,
    languages: tuple[str, ...] = DEFAULT_LANGUAGES,
    text_field: str = ScanSettings.text_field,
    meta: str | Sequence[str] = ScanSettings.meta,
    slice_from_path: str | None = ScanSettings.slice_from_path,
    proper: ProperNames = ScanSettings.proper,
) -> pd.DataFrame:
    """Find every occurrence of each target in a corpus; one row per occurrence (see :mod:`wsd.occurrences`).

    Parameters
    ----------
    corpus : path
        A corpus file or folder (``.txt``/``.txt.gz``, ``.jsonl``, ``.csv``/``.tsv``, ``.parquet``).
    targets : str, list or mapping
        ``"mouse:mice,bank"`` (forms after colons), a list of such items, or ``{target: [forms]}``.
    forms : path, optional
        A forms file, lines ``target<TAB>form1,form2``.
    lemmatizer : {"simplemma"} or None
        Also match words whose lemma is a target; None (or ``"none"``): the listed forms only.
    case_sensitive : bool
        Match case exactly.
    context : {"sentence", "window"}
        The passage an occurrence gets: its sentence, or ``context_chars`` either side.
    context_chars : int
        Characters either side for ``window`` (and the cap for long sentences).
    languages : tuple of str
        Languages of the lemmatizer.
    text_field : str
        The field or column holding the text.
    meta : str or tuple of str
        Fields or columns kept as metadata columns (``"year,source"`` or ``("year", "source")``).
    slice_from_path : str, optional
        A regex whose groups, searched in each file's relative path, become metadata columns
        (:mod:`wsd.corpus.metadata`).
    proper : {"warn", "keep", "drop"}
        Likely proper names (:mod:`wsd.corpus.proper`): keep them and warn, keep them, or leave them out.

    Returns
    -------
    DataFrame
        One row per occurrence (:mod:`wsd.occurrences`), with the metadata columns typed.

    Examples
    --------
    >>> occurrences = scan("data/demo/corpus.txt", ["mouse:mice"])  # doctest: +SKIP
    >>> occurrences.loc[0, ["target", "form", "start", "end"]].tolist()  # doctest: +SKIP
    ['mouse', 'mouse', 4, 9]
    """
    scan_options = build_scan_options(
        targets,
        forms,
        lemmatizer=lemmatizer,
        case_sensitive=case_sensitive,
        context=context,
        context_chars=context_chars,
        languages=languages,
        text_field=text_field,
        meta=meta,
        slice_from_path=slice_from_path,
        proper=proper,
    )
    stats = ScanStats()
    chunks = list(iter_occurrence_chunks(corpus, scan_options, stats=stats))
    if not chunks:
        return empty_occurrences()
    return type_metadata(pd.concat(chunks, ignore_index=True), metadata_dtypes(scan_options, stats))


def metadata_dtypes(options: ScanOptions, stats: ScanStats, warn: bool = True) -> dict[str, str]:
    """The dtype of each metadata column a scan kept, from what it saw; warns about missing and mixed values.

    Parameters
    ----------
    options : ScanOptions
        The scan's options.
    stats : ScanStats
        What it saw.
    warn : bool
        Issue the warnings (:meth:`wsd.corpus.metadata.MetaReport.dtypes`).

    Returns
    -------
    dict
        Column → dtype (:func:`wsd.occurrences.metadata_dtype`); empty when no metadata was kept.
    """
    return stats.meta.dtypes(options.meta_spec.columns, warn=warn)


def document_rows(
    doc_id: str,
    text: str,
    matches: list,
    options: ScanOptions,
    meta: tuple = (),
    *,
    offset: int = 0,
    open_start: bool = False,
    open_end: bool = False,
) -> Iterator[tuple]:
    """The occurrence rows (in ``REQUIRED_COLUMNS`` order) of one document's ``matches``: each in its passage.

    An occurrence's id is ``<doc_id>@<start>``, with ``/<target>`` added when two targets match the same span.
    Used by the single-process scan and by the distributed one, so both give the same rows.

    Parameters
    ----------
    doc_id : str
        The document's id.
    text : str
        Its text.
    matches : list
        The matcher's matches in it.
    options : ScanOptions
        Which passage each occurrence gets.
    meta : tuple
        The document's metadata values, appended to each row as stored text (:func:`wsd.occurrences.value_text`).
    offset : int
        For a block of a long document (:mod:`wsd.corpus.blocks`): the character offset of ``text`` in it.
    open_start, open_end : bool
        For a block: its first (last) sentence goes on beyond it (:func:`wsd.corpus.contexts.passages`).

    Returns
    -------
    iterator of tuple
    """
    stored = tuple(value_text(value) for value in meta)
    shared = Counter((m.start, m.end) for m in matches)
    found = passages(text, matches, options.context, options.context_chars, open_start=open_start, open_end=open_end)
    for passage in found:
        passage_text = text[passage.start : passage.end]
        for m in passage.matches:
            occurrence_id = f"{doc_id}@{offset + m.start}"
            if shared[(m.start, m.end)] > 1:
                occurrence_id += f"/{m.target}"
            yield (
                occurrence_id,
                m.target,
                m.form,
                passage_text,
                m.start - passage.start,
                m.end - passage.start,
                doc_id,
                offset + passage.start,
                *stored,
            )


def rows_frame(rows: list[tuple], meta_columns: tuple[str, ...] = ()) -> pd.DataFrame:
    """An occurrence table from rows built by :func:`document_rows`.

    Parameters
    ----------
    rows : list of tuple
        Rows made by :func:`document_rows`.
    meta_columns : tuple of str
        The metadata columns at the end of each row (kept as stored text, ``str``).

    Returns
    -------
    DataFrame
    """
    frame = pd.DataFrame.from_records(rows, columns=[*REQUIRED_COLUMNS, *meta_columns])
    for name in ("start", "end", "doc_start"):
        frame[name] = frame[name].astype("int64")
    for name in meta_columns:
        frame[name] = pd.Series(frame[name].to_list(), dtype=TEXT_DTYPE)
    return frame


def check_findings(corpus: str | os.PathLike[str], options: ScanOptions, stats: ScanStats) -> None:
    """After a scan: an :class:`InputError` when the corpus had no documents or none of the targets occurs;
    a warning for each target that was never found, and one for the likely proper names the scan kept
    (:func:`wsd.corpus.proper.warn_proper`); the single-process and the distributed scan both call it.

    Parameters
    ----------
    corpus : path
        The corpus (named in the messages).
    options : ScanOptions
        The targets looked for.
    stats : ScanStats
        What the scan saw.
    """
    if stats.documents == 0:
        raise InputError(f"corpus {corpus} is empty: no documents with text")
    missing = [t for t in options.targets if stats.occurrences[t] == 0]
    if len(missing) == len(options.targets):
        raise InputError(
            f"none of the targets ({', '.join(options.targets)}) occurs in {corpus} "
            f"({stats.documents} documents searched)"
        )
    for target in missing:
        warnings.warn(f"target {target!r} was not found in {corpus}", stacklevel=3)
    warn_proper(stats.proper_table(), stats.occurrences, options.proper, stacklevel=4)
