"""The WordNet 3.0 database (``wndb(5WN)``): synsets with glosses and examples, a lemma's senses, sense keys.

Read by the tuning source ``wordnet:DIR`` (:mod:`wsd.tune.wordnet`: pairs of examples) and by sense naming
(``--inventory wordnet:DIR``, :mod:`wsd.workflows.naming`: the senses of a target word, in WordNet's order).

**Data files** (``data.noun``, ``data.verb``, ``data.adj``, ``data.adv``) hold one synset per line, after a
licence header whose lines start with two spaces::

    offset lex_filenum ss_type w_cnt word lex_id [word lex_id ...] p_cnt [ptr ...] [frames] | gloss

``offset`` is the line's byte offset in its file (8 digits; checked), ``ss_type`` one of ``n v a s r``,
``w_cnt`` two hex digits, each word (``_`` for spaces; an adjective may carry a marker ``(a)``, ``(p)``,
``(ip)``, dropped) with a one-hex-digit ``lex_id``, ``p_cnt`` three decimal digits followed by that many
pointers of four fields (``symbol offset pos source/target``), and for verbs ``f_cnt`` and that many frames
``+ f_num w_num``. The gloss follows ``|``: ``;``-separated parts (outside double quotes); a part that starts
with ``"`` is an example sentence (the text up to its closing quote), the others make the definition.
``noun.exc`` etc. list irregular forms (``geese goose``).

**Index files** (``index.noun`` ...) map a lemma to its synsets, one line each::

    lemma pos synset_cnt p_cnt [ptr_symbol ...] sense_cnt tagsense_cnt synset_offset [synset_offset ...]

the offsets in WordNet's sense order (sense 1 first: the most frequent in the tagged corpora, ``cntlist``).
:class:`WordNet` reads the index files whole and a lemma's synsets on demand, by seeking their offsets.

**Sense keys** (``bank%1:14:00::``): ``lemma%ss_type:lex_filenum:lex_id:head_word:head_id``, ss_type ``1`` noun,
``2`` verb, ``3`` adjective, ``4`` adverb, ``5`` satellite adjective (whose head is the adjective its ``&``
pointer names); :meth:`WordNet.sense_key`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from wsd.errors import InputError
from wsd.io.textfiles import check_file, iter_lines

#: Data and exception file per part of speech (``s``, satellite adjectives, live in the adjective files).
POS_FILES: dict[str, str] = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
SYNSET_TYPES = ("n", "v", "a", "s", "r")
#: The number of each synset type in a sense key.
SS_TYPE_NUMBERS = {"n": 1, "v": 2, "a": 3, "r": 4, "s": 5}
DEFAULT_FOLDER = Path("/usr/share/wordnet")
_MARKER = re.compile(r"\((?:a|p|ip)\)$")
_OFFSET = re.compile(r"\d{8}")


@dataclass(frozen=True)
class Synset:
    """One synset of the database.

    Parameters
    ----------
    offset : int
        Byte offset of its line in its data file.
    pos : str
        ``n``, ``v``, ``a``, ``s`` or ``r``.
    words : tuple of str
        Its words, ``_`` replaced by spaces, adjective markers dropped (case kept).
    definition : str
        The gloss without the examples.
    examples : tuple of str
        The quoted example sentences, without their quotes.
    lex_filenum : int
        Its lexicographer file (``14`` is ``noun.group``).
    lex_ids : tuple of int
        The ``lex_id`` of each word (part of its sense key).
    similar : tuple of int
        Offsets of the adjective synsets its ``&`` (similar to) pointers name: a satellite's head.
    hyponyms : tuple of int
        Offsets of the synsets of its own part of speech its ``~`` and ``~i`` (hyponym, instance) pointers name:
        ``power.n.02`` (physics) → *electric power*, *waterpower*.
    """

    offset: int
    pos: str
    words: tuple[str, ...]
    definition: str
    examples: tuple[str, ...]
    lex_filenum: int = 0
    lex_ids: tuple[int, ...] = ()
    similar: tuple[int, ...] = ()
    hyponyms: tuple[int, ...] = ()

    @property
    def key(self) -> str:
        """``00001740-v``: offset and POS, unique over the database."""
        return f"{self.offset:08d}-{self.pos}"


def split_gloss(gloss: str) -> tuple[str, tuple[str, ...]]:
    """A gloss's definition and example sentences.

    Parameters
    ----------
    gloss : str
        The text after ``|`` on a data line.

    Returns
    -------
    (str, tuple of str)
        The definition parts joined by ``"; "``, and the examples without their quotes.

    Examples
    --------
    >>> split_gloss('draw air into the lungs; "I can breathe; she said" - X; "Respire"')
    ('draw air into the lungs', ('I can breathe; she said', 'Respire'))
    >>> split_gloss('(usually followed by "to") able; "able to swim"')
    ('(usually followed by "to") able', ('able to swim',))
    """
    parts: list[str] = []
    current: list[str] = []
    quoted = False
    for char in gloss:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    parts.append("".join(current).strip())
    definition, examples = [], []
    for part in parts:
        if part.startswith('"'):
            text = part[1:].partition('"')[0].strip()
            if text:
                examples.append(text)
        elif part:
            definition.append(part)
    return "; ".join(definition), tuple(examples)


def parse_line(line: str, where: str) -> Synset:
    """One synset from one data line (see the module docstring).

    Parameters
    ----------
    line : str
        The line, without its line end.
    where : str
        ``file:line`` for messages.

    Returns
    -------
    Synset

    Raises
    ------
    InputError
        When a field is missing or malformed.

    Examples
    --------
    >>> s = parse_line('00002724 29 v 01 choke 0 001 @ 00001740 v 0000 01 + 02 00 | breathe hard; "She choked"', "x")
    >>> s.key, s.words, s.definition, s.examples, s.lex_filenum
    ('00002724-v', ('choke',), 'breathe hard', ('She choked',), 29)
    """
    head, bar, gloss = line.partition(" | ")
    if not bar:
        head, bar, gloss = line.partition("|")
    fields = head.split()
    try:
        offset, pos = fields[0], fields[2]
        if not _OFFSET.fullmatch(offset) or pos not in SYNSET_TYPES:
            raise ValueError
        lex_filenum = int(fields[1])
        count = int(fields[3], 16)
        words = tuple(_MARKER.sub("", fields[4 + 2 * i]).replace("_", " ") for i in range(count))
        lex_ids = tuple(int(fields[5 + 2 * i], 16) for i in range(count))
        at = 4 + 2 * count
        pointers = int(fields[at])
        similar = tuple(
            int(fields[at + 2 + 4 * i])
            for i in range(pointers)
            if fields[at + 1 + 4 * i] == "&" and fields[at + 3 + 4 * i] in ("a", "s")
        )
        hyponyms = tuple(
            int(fields[at + 2 + 4 * i])
            for i in range(pointers)
            if fields[at + 1 + 4 * i] in ("~", "~i") and fields[at + 3 + 4 * i] == pos
        )
        at += 1 + 4 * pointers
        if pos == "v" and at < len(fields):
            frames = int(fields[at])
            at += 1 + 3 * frames
        if at != len(fields) or not bar or count < 1:
            raise ValueError
    except (IndexError, ValueError):
        raise InputError(
            f"{where}: malformed WordNet data line (expected 'offset lex_filenum ss_type w_cnt "
            f"word lex_id ... p_cnt pointers ... | gloss')"
        ) from None
    definition, examples = split_gloss(gloss.strip())
    return Synset(int(offset), pos, words, definition, examples, lex_filenum, lex_ids, similar, hyponyms)


def read_synsets(folder: str | Path) -> list[Synset]:
    """Every synset of the four data files, offsets checked against the bytes.

    Parameters
    ----------
    folder : str or Path
        The WordNet ``dict`` folder (``data.noun`` ... in it).

    Returns
    -------
    list of Synset

    Raises
    ------
    InputError
        When the folder or a data file is missing or a line is malformed (naming file and line).
    """
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise InputError(f"WordNet folder not found: {root}")
    synsets = []
    for name in POS_FILES.values():
        file = check_file(root / f"data.{name}", "WordNet data file")
        position = 0
        found = 0
        for number, line in iter_lines(file, "WordNet data file", keepends=True):
            size = len(line.encode("utf-8"))
            text = line.rstrip("\r\n")
            if text.startswith("  ") or not text.strip():
                position += size
                continue
            synset = parse_line(text, f"{file}:{number}")
            if synset.offset != position:
                raise InputError(
                    f"{file}:{number}: synset offset {synset.offset:08d} is not the line's byte offset "
                    f"{position:08d} (a changed or re-encoded file?)"
                )
            synsets.append(synset)
            position += size
            found += 1
        if not found:
            raise InputError(f"{file}: no synsets in the WordNet data file")
    return synsets


def read_exceptions(folder: str | Path) -> dict[str, dict[str, set[str]]]:
    """Irregular forms from the ``*.exc`` files: POS letter → base form → inflected forms.

    Parameters
    ----------
    folder : str or Path
        The WordNet folder; missing exception files give no forms.

    Returns
    -------
    dict
        ``{"n": {"goose": {"geese"}}, ...}`` (lower case, ``_`` as spaces).
    """
    forms: dict[str, dict[str, set[str]]] = {pos: defaultdict(set) for pos in POS_FILES}
    for pos, name in POS_FILES.items():
        file = Path(folder) / f"{name}.exc"
        if not file.is_file():
            continue
        for _, line in iter_lines(file, "WordNet exception file"):
            words = [w.replace("_", " ") for w in line.lower().split()]
            for base in words[1:]:
                forms[pos][base].add(words[0])
    return forms


@dataclass(frozen=True)
class Sense:
    """One sense of a lemma: its synset and its place in WordNet's order for that lemma.

    Parameters
    ----------
    lemma : str
        The lemma as the index spells it (lower case, spaces).
    pos : str
        ``n``, ``v``, ``a`` or ``r`` (the index's part of speech; satellites are ``a``).
    number : int
        Its sense number for the lemma (1: WordNet's first sense).
    synset : Synset
        The synset.
    """

    lemma: str
    pos: str
    number: int
    synset: Synset

    @property
    def name(self) -> str:
        """``bank.n.02``: lemma (``_`` for spaces), part of speech, sense number (NLTK's spelling for a lemma)."""
        return f"{self.lemma.replace(' ', '_')}.{self.pos}.{self.number:02d}"


class WordNet:
    """A WordNet database folder: the index files read whole, synsets read on demand.

    Parameters
    ----------
    folder : str or Path
        The folder (``index.noun``, ``data.noun``, ... in it).

    Raises
    ------
    InputError
        When the folder is not a WordNet database: a missing index or data file, or an index without entries
        (one line saying which).

    Examples
    --------
    >>> wn = WordNet("../shared/datasets/wordnet-3.0")                  # doctest: +SKIP
    >>> [s.name for s in wn.senses("bank", "n")][:2]                     # doctest: +SKIP
    ['bank.n.01', 'bank.n.02']
    """

    def __init__(self, folder: str | Path = DEFAULT_FOLDER) -> None:
        self.folder = Path(folder).expanduser()
        if not self.folder.is_dir():
            raise InputError(f"WordNet folder not found: {self.folder}")
        self._index: dict[str, dict[str, tuple[int, ...]]] = {}
        for pos, name in POS_FILES.items():
            index = self.folder / f"index.{name}"
            data = self.folder / f"data.{name}"
            if not index.is_file() or not data.is_file():
                missing = index.name if not index.is_file() else data.name
                raise InputError(
                    f"{self.folder}: not a WordNet database folder (no {missing}; expected index.noun, data.noun, "
                    "... as in WordNet 3.0's dict folder)"
                )
            self._index[pos] = self._read_index(index, pos)
        self._synsets: dict[tuple[str, int], Synset] = {}
        self._counts: dict[str, int] | None = None
        self._exceptions: dict[str, dict[str, set[str]]] | None = None

    def tag_count(self, sense: Sense) -> int:
        """How often the sense was tagged in SemCor and the other tagged texts (``cntlist.rev``; 0 without it).

        Parameters
        ----------
        sense : Sense

        Returns
        -------
        int
        """
        if self._counts is None:
            self._counts = {}
            path = self.folder / "cntlist.rev"
            if path.is_file():
                for _, line in iter_lines(path, "WordNet cntlist.rev file"):
                    fields = line.split()
                    if len(fields) == 3 and fields[2].isdigit():
                        self._counts[fields[0]] = int(fields[2])
        try:
            return self._counts.get(self.sense_key(sense), 0)
        except InputError:
            return 0

    def exceptions(self) -> dict[str, dict[str, set[str]]]:
        """The irregular forms of the ``*.exc`` files (:func:`read_exceptions`), read once.

        Returns
        -------
        dict
        """
        if self._exceptions is None:
            self._exceptions = read_exceptions(self.folder)
        return self._exceptions

    @staticmethod
    def _read_index(path: Path, pos: str) -> dict[str, tuple[int, ...]]:
        entries: dict[str, tuple[int, ...]] = {}
        for number, line in iter_lines(path, "WordNet index file"):
            if line.startswith("  ") or not line.strip():
                continue
            fields = line.split()
            try:
                pointers = int(fields[3])
                offsets = fields[6 + pointers :]
                if fields[1] != pos or not offsets or not all(_OFFSET.fullmatch(o) for o in offsets):
                    raise ValueError
            except (IndexError, ValueError):
                raise InputError(
                    f"{path}:{number}: not a WordNet index line (expected 'lemma pos synset_cnt p_cnt [ptr ...] "
                    "sense_cnt tagsense_cnt offset ...')"
                ) from None
            entries[fields[0]] = tuple(int(o) for o in offsets)
        if not entries:
            raise InputError(f"{path}: no entries in the WordNet index file")
        return entries

    def synset(self, pos: str, offset: int) -> Synset:
        """The synset at ``offset`` of the data file of ``pos`` (read once, then kept).

        Parameters
        ----------
        pos : str
            ``n``, ``v``, ``a`` (also for satellites) or ``r``.
        offset : int
            Its byte offset.

        Returns
        -------
        Synset
        """
        key = (pos, offset)
        if key not in self._synsets:
            path = self.folder / f"data.{POS_FILES[pos]}"
            with path.open("rb") as handle:
                handle.seek(offset)
                line = handle.readline().decode("utf-8", errors="replace").rstrip("\r\n")
            synset = parse_line(line, f"{path}@{offset}")
            if synset.offset != offset:
                raise InputError(f"{path}: the index names offset {offset:08d}, which starts no synset line")
            self._synsets[key] = synset
        return self._synsets[key]

    def parts_of_speech(self, lemma: str) -> list[str]:
        """The parts of speech (``n v a r``) under which the index lists ``lemma`` (any case, spaces or ``_``).

        Parameters
        ----------
        lemma : str

        Returns
        -------
        list of str
        """
        word = _index_word(lemma)
        return [pos for pos in POS_FILES if word in self._index[pos]]

    def senses(self, lemma: str, pos: str | None = None) -> list[Sense]:
        """The senses of ``lemma`` in WordNet's order (sense 1 first), of one part of speech or of all.

        Parameters
        ----------
        lemma : str
            The lemma (any case; spaces or ``_``).
        pos : str, optional
            ``n``, ``v``, ``a`` (``j`` and ``s`` are read as ``a``) or ``r``; None: every part of speech, nouns
            first.

        Returns
        -------
        list of Sense
            Empty when the lemma has no entry.
        """
        word = _index_word(lemma)
        wanted = [_index_pos(pos)] if pos is not None else list(POS_FILES)
        found = []
        for part in wanted:
            for number, offset in enumerate(self._index[part].get(word, ()), start=1):
                found.append(Sense(word.replace("_", " "), part, number, self.synset(part, offset)))
        return found

    def sense_key(self, sense: Sense) -> str:
        """The sense key of a lemma's sense (``bank%1:17:01::``; a satellite's names its head adjective).

        Parameters
        ----------
        sense : Sense

        Returns
        -------
        str

        Raises
        ------
        InputError
            When the lemma is not a word of the synset.
        """
        synset = sense.synset
        lowered = [word.lower() for word in synset.words]
        if sense.lemma.lower() not in lowered:
            raise InputError(f"{sense.lemma!r} is not a word of synset {synset.key}")
        lex_id = synset.lex_ids[lowered.index(sense.lemma.lower())] if synset.lex_ids else 0
        head = ""
        if synset.pos == "s" and synset.similar:
            target = self.synset("a", synset.similar[0])
            head = f"{target.words[0].lower().replace(' ', '_')}:{target.lex_ids[0] if target.lex_ids else 0:02d}"
        else:
            head = ":"
        word = sense.lemma.lower().replace(" ", "_")
        return f"{word}%{SS_TYPE_NUMBERS[synset.pos]}:{synset.lex_filenum:02d}:{lex_id:02d}:{head}"


def _index_word(lemma: str) -> str:
    return lemma.strip().lower().replace(" ", "_")


def _index_pos(pos: str) -> str:
    """``j`` (SemEval's adjectives) and ``s`` (satellites) are the index's ``a``."""
    pos = {"j": "a", "s": "a"}.get(pos, pos)
    if pos not in POS_FILES:
        raise InputError(f"unknown WordNet part of speech {pos!r} (n, v, a, r)")
    return pos
