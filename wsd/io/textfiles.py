"""Reading the text files a user gives (targets, forms, keys, labelled data, corpora, configs): one decoder.

Every such file goes through this module, so each one is read the same way and a bad file gives the same
kind of message:

- the file must be UTF-8; a UTF-8 byte-order mark (``EF BB BF``, as Windows editors write it) is dropped;
- a file that is not UTF-8 raises :class:`~wsd.errors.InputError` naming the file, the line, the column and
  the first bad byte (``corpus.txt line 12: not UTF-8 (byte 0xe9 at column 5); convert the file to UTF-8
  ...``), or, for corpora (``bad_bytes="replace"``), the bad bytes become U+FFFD and one warning per file
  says how many lines had them; a file that starts with a UTF-16 byte-order mark is an error either way
  (``corpus.txt: looks like UTF-16 (little-endian) ...``);
- a missing path, a folder, an unreadable file, and a damaged or truncated ``.gz`` file each raise one
  :class:`~wsd.errors.InputError` naming the path;
- lines end at ``\\n`` (and, with ``universal_newlines``, also at ``\\r\\n`` and a lone ``\\r``);
- a value read from such text (or from a command-line flag) that must be a JSON object or a finite number
  (:func:`json_object`, :func:`finite_number`) is refused in one line that starts with where it stands.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "targets.txt"
>>> _ = path.write_bytes(b"\\xef\\xbb\\xbfmouse\\r\\nbank\\n")
>>> read_lines(path)
['mouse', 'bank']
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import re
import stat
import warnings
import zlib
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

from wsd.errors import InputError

#: The byte-order mark, as bytes (UTF-8) and as the character it decodes to.
UTF8_BOM = b"\xef\xbb\xbf"
BOM = "\ufeff"
#: Byte-order marks of encodings that are not UTF-8 but are often mistaken for text files of it.
_FOREIGN_BOMS = ((b"\xff\xfe", "UTF-16 (little-endian)"), (b"\xfe\xff", "UTF-16 (big-endian)"))
#: What to do with bytes that are not UTF-8.
BAD_BYTES = ("error", "replace")
#: Errors from reading a damaged or truncated gzip stream (``BadGzipFile`` is an ``OSError``).
_GZIP_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile)
_LINE_BREAKS = re.compile(r"\r\n|\r|\n")
_LONE_CR = re.compile(r"(?<=\r)(?!\n)")
CONVERT_HINT = "convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8 FILE > FILE.utf8)"
#: The same for a file that starts with a UTF-16 byte-order mark.
CONVERT_UTF16_HINT = "convert the file to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8)"
#: A character that UTF-8 cannot hold: a lone surrogate; U+DC80 to U+DCFF stand for bytes that were not UTF-8 (a
#: command-line argument or file name decoded by Python with ``surrogateescape``, as POSIX systems do).
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def describe(path: str | os.PathLike[str], what: str = "") -> str:
    """How messages name a file: ``"<what> <path>"``, or just the path.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    what : str
        What the file is for the user (``"targets file"``, ``"key file"``); may be empty.

    Returns
    -------
    str
        The name used in messages.

    Examples
    --------
    >>> describe("t.txt", "targets file")
    'targets file t.txt'
    """
    return f"{what} {path}" if what else str(path)


def check_file(path: str | os.PathLike[str], what: str = "") -> Path:
    """The path of an existing regular file, or an :class:`InputError` that says what is wrong with it.

    Parameters
    ----------
    path : str or os.PathLike
        The path the user gave.
    what : str
        What the file is (used in the message: ``"key file not found: x.key"``).

    Returns
    -------
    Path
        ``path`` as a :class:`~pathlib.Path`.

    Raises
    ------
    InputError
        When nothing is there, when it is a folder or not a regular file, or when it cannot be read.

    Examples
    --------
    >>> check_file("/")
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: / is a folder, not a file
    """
    file = Path(path)
    try:
        mode = file.stat().st_mode
    except FileNotFoundError:
        if file.is_symlink():
            raise InputError(f"{describe(file, what)} is a broken symbolic link") from None
        raise InputError(f"{what or 'file'} not found: {file}") from None
    except OSError as error:
        raise InputError(f"cannot read {describe(file, what)}: {error.strerror or error}") from None
    if os.path.isdir(file):
        raise InputError(f"{describe(file, what)} is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise InputError(f"{describe(file, what)} is not a regular file")
    if not os.access(file, os.R_OK):
        raise InputError(f"cannot read {describe(file, what)}: permission denied")
    return file


def open_binary(path: str | os.PathLike[str], what: str = "") -> io.BufferedIOBase:
    """Open a file for reading bytes, decompressing it when its name ends in ``.gz``.

    Parameters
    ----------
    path : str or os.PathLike
        The file (checked with :func:`check_file`).
    what : str
        What the file is, for messages.

    Returns
    -------
    io.BufferedIOBase
        A binary handle (close it, or use it in a ``with`` block). Reading a damaged gzip stream raises
        ``EOFError``, ``zlib.error`` or ``gzip.BadGzipFile``; :func:`iter_lines` and :func:`read_text`
        turn them into :class:`InputError`.

    Raises
    ------
    InputError
        As :func:`check_file`, or when the file cannot be opened.
    """
    file = check_file(path, what)
    try:
        if file.name.lower().endswith(".gz"):
            return gzip.open(file, "rb")
        return open(file, "rb")
    except OSError as error:
        raise InputError(f"cannot read {describe(file, what)}: {error.strerror or error}") from None


def damaged_gzip_error(
    path: str | os.PathLike[str], error: BaseException, what: str = "", after_line: int = 0
) -> InputError:
    """The error for a ``.gz`` file whose compressed stream is damaged or cut short.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    error : BaseException
        What the decompressor raised.
    what : str
        What the file is, for the message.
    after_line : int
        The last line read intact (0: none or unknown).

    Returns
    -------
    InputError
        ``"<file>: truncated or damaged gzip file (after line N: ...); ..."``, to be raised.
    """
    where = f"after line {after_line}: " if after_line else ""
    return InputError(
        f"{describe(path, what)}: truncated or damaged gzip file ({where}{error}); copy or compress it again"
    )


def decode_error(
    path: str | os.PathLike[str], data: bytes, error: UnicodeDecodeError, what: str = "", first_line: int = 1
) -> InputError:
    """The error for bytes that are not UTF-8: file, line, column (in characters) and the bad byte.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    data : bytes
        The bytes that failed to decode (the whole file, or one line of it).
    error : UnicodeDecodeError
        The decoder's error for ``data``.
    what : str
        What the file is, for the message.
    first_line : int
        The line number of the first line in ``data``.

    Returns
    -------
    InputError
        ``"<file> line L: not UTF-8 (byte 0xNN at column C); convert the file to UTF-8 ..."``, to be raised.

    Examples
    --------
    >>> data = "naïve\\ncafé".encode("latin-1")
    >>> try:
    ...     data.decode("utf-8")
    ... except UnicodeDecodeError as error:
    ...     print(decode_error("notes.txt", data, error))  # doctest: +ELLIPSIS
    notes.txt line 1: not UTF-8 (byte 0xef at column 3); convert the file to UTF-8 ...
    """
    if first_line == 1 and (encoding := foreign_encoding(data)) is not None:
        return InputError(
            f"{describe(path, what)}: looks like {encoding} (it starts with a byte-order mark); {CONVERT_UTF16_HINT}"
        )
    start = error.start
    line_start = data.rfind(b"\n", 0, start) + 1
    line = first_line + data.count(b"\n", 0, start)
    column = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
    return InputError(
        f"{describe(path, what)} line {line}: not UTF-8 (byte 0x{data[start]:02x} at column {column}); {CONVERT_HINT}"
    )


def foreign_encoding(data: bytes) -> str | None:
    """The encoding that the start of a file announces with its byte-order mark when it is not UTF-8, or None.

    Parameters
    ----------
    data : bytes
        The first bytes of a file (its first line).

    Returns
    -------
    str or None
        ``"UTF-16 (little-endian)"`` or ``"UTF-16 (big-endian)"``; None for any other start.

    Examples
    --------
    >>> foreign_encoding("mouse".encode("utf-16")), foreign_encoding(b"mouse")
    ('UTF-16 (little-endian)', None)
    """
    for bom, encoding in _FOREIGN_BOMS:
        if data.startswith(bom):
            return encoding
    return None


def check_utf8_text(text: str, what: str) -> str:
    """``text`` itself, or one :class:`InputError` when it holds characters that UTF-8 cannot hold.

    On POSIX systems Python decodes command-line arguments that are not UTF-8 with ``surrogateescape``: a byte
    ``0xff`` becomes the lone surrogate U+DCFF, which no later step can write. Free text from the command line
    (``--text``, ``--targets``) is checked with this before anything is loaded.

    Parameters
    ----------
    text : str
        The text.
    what : str
        What it is, for the message (``"--text"``).

    Returns
    -------
    str
        ``text``, unchanged.

    Raises
    ------
    InputError
        ``"--text holds bytes that are not UTF-8 (byte 0xff at character 4); ..."``, or for a lone surrogate
        that stands for no byte, naming it.

    Examples
    --------
    >>> check_utf8_text("café", "--text")
    'café'
    >>> check_utf8_text("caf\\udcff", "--text")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: --text holds bytes that are not UTF-8 (byte 0xff at character 4); give it in UTF-8 ...
    """
    bad = _SURROGATE.search(text)
    if bad is None:
        return text
    code = ord(bad.group())
    if 0xDC80 <= code <= 0xDCFF:
        raise InputError(
            f"{what} holds bytes that are not UTF-8 (byte 0x{code - 0xDC00:02x} at character {bad.start() + 1}); "
            "give it in UTF-8 (check the terminal's or the script's encoding, e.g. LANG=C.UTF-8)"
        )
    raise InputError(
        f"{what} holds a lone surrogate U+{code:04X} at character {bad.start() + 1}, which UTF-8 cannot hold"
    )


def read_text(path: str | os.PathLike[str], what: str = "") -> str:
    """The whole text of a UTF-8 file (``.gz`` decompressed), without a leading byte-order mark.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read whole; checked with :func:`check_file` first.
    what : str
        What the file is, for messages (:func:`describe`).

    Returns
    -------
    str
        The decoded text; line ends are left as they are.

    Raises
    ------
    InputError
        As :func:`check_file`; for a damaged gzip file; for bytes that are not UTF-8 (naming line, column
        and byte).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "bad.txt"
    >>> _ = path.write_bytes(b"ok\\ncaf\\xe9\\n")
    >>> read_text(path, "forms file")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: forms file .../bad.txt line 2: not UTF-8 (byte 0xe9 at column 4); convert ...
    """
    with open_binary(path, what) as handle:
        try:
            data = handle.read()
        except _GZIP_ERRORS as error:
            raise damaged_gzip_error(path, error, what) from None
        except OSError as error:
            raise InputError(f"cannot read {describe(path, what)}: {error.strerror or error}") from None
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise decode_error(path, data, error, what) from None


def json_kind(value: object) -> str:
    """What a parsed JSON value is, in words for messages (``"a list"``, ``"null"``).

    Parameters
    ----------
    value : object
        A value :func:`json.loads` gave.

    Returns
    -------
    str

    Examples
    --------
    >>> json_kind([1]), json_kind(None), json_kind(True)
    ('a list', 'null', 'true or false')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    kinds = ((dict, "an object"), (list, "a list"), (str, "a string"), ((int, float), "a number"))
    return next((word for kind, word in kinds if isinstance(value, kind)), type(value).__name__)


def json_object(text: str, where: str) -> dict[str, Any]:
    """Parse ``text`` as one JSON object, or raise one :class:`InputError` line that starts with ``where``.

    Parameters
    ----------
    text : str
        A whole JSON document, or one line of a JSON-lines file.
    where : str
        How messages name it (``"runs/x/meta.json"``, ``"corpus.jsonl, line 3"``).

    Returns
    -------
    dict
        The object.

    Raises
    ------
    InputError
        When ``text`` is not JSON (naming the line and column for text of several lines), or not an object.

    Examples
    --------
    >>> json_object('{"a": 1}', "x.json")
    {'a': 1}
    >>> json_object("[1]", "x.json")
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: x.json: expected a JSON object, found a list
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        at = f"line {error.lineno}, column {error.colno}" if error.doc.strip().count("\n") else f"column {error.colno}"
        raise InputError(f"{where}: not valid JSON ({error.msg} at {at})") from None
    if not isinstance(value, dict):
        raise InputError(f"{where}: expected a JSON object, found {json_kind(value)}")
    return value


def finite_number(text: str, where: str, hint: str = "") -> float:
    """``text`` as a finite number; an :class:`InputError` that starts with ``where`` for anything else.

    Parameters
    ----------
    text : str
        The value (white space around it is allowed, as :class:`float` allows it).
    where : str
        What the error names first (a file, line and column; a command-line option and its value).
    hint : str
        Added to the error for text that is no number at all (the form expected, in parentheses).

    Returns
    -------
    float

    Raises
    ------
    InputError
        For text that is no number (``abc``), an infinity or NaN.

    Examples
    --------
    >>> finite_number(" 1850", "--bins '1850:1900'")
    1850.0
    >>> finite_number("inf", "stats.csv:2: column k1")
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: stats.csv:2: column k1: 'inf' is not a finite number
    """
    try:
        number = float(text)
    except ValueError:
        raise InputError(f"{where}: {text!r} is not a number{hint}") from None
    if not math.isfinite(number):
        raise InputError(f"{where}: {text!r} is not a finite number")
    return number


def read_lines(path: str | os.PathLike[str], what: str = "") -> list[str]:
    """The lines of a UTF-8 file, without line ends (``\\n``, ``\\r\\n`` or ``\\r``); see :func:`read_text`.

    Parameters
    ----------
    path, what
        The file and what it is, as for :func:`read_text`.

    Returns
    -------
    list of str
        Line ``n`` of the file is item ``n - 1`` (a final line end does not start another line).

    Raises
    ------
    InputError
        As :func:`read_text`.
    """
    text = read_text(path, what)
    lines = _LINE_BREAKS.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class LineDecoder:
    """Decodes the raw lines of one file as UTF-8, dropping a byte-order mark at the start of the file.

    The mark is dropped from line 1 (or, when no line numbers are given, from the first line decoded); a
    U+FEFF anywhere else is text and stays.

    With ``bad_bytes="error"`` a line that is not UTF-8 raises :class:`InputError` (file, line, column,
    byte); with ``"replace"`` its bad bytes become U+FFFD, and :meth:`report` warns once with the number of
    such lines and the first of them. A file that starts with a UTF-16 byte-order mark is no UTF-8 with a few
    bad bytes but another encoding: its first line raises :class:`InputError` naming the file either way.

    Parameters
    ----------
    path : str or os.PathLike
        The file the lines come from (for messages).
    what : str
        What the file is, for messages.
    bad_bytes : {"error", "replace"}
        What to do with bytes that are not UTF-8.

    Raises
    ------
    ValueError
        For an unknown ``bad_bytes``.

    Examples
    --------
    >>> decode = LineDecoder("corpus.txt", bad_bytes="replace")
    >>> decode(b"caf\\xe9\\n", 7)
    'caf\\ufffd\\n'
    >>> decode.bad_lines, decode.first_bad_line
    (1, 7)
    """

    def __init__(self, path: str | os.PathLike[str], what: str = "", bad_bytes: str = "error") -> None:
        if bad_bytes not in BAD_BYTES:
            raise ValueError(f"bad_bytes must be one of {BAD_BYTES}, not {bad_bytes!r}")
        self.file = path
        self.what = what
        self.bad_bytes = bad_bytes
        self.bad_lines = 0
        self.first_bad_line: int | None = None
        self._first = True

    def __call__(self, raw: bytes, number: int | None = None) -> str:
        """Decode one raw line.

        Parameters
        ----------
        raw : bytes
            The line's bytes (with or without its line end).
        number : int, optional
            Its line number, for messages.

        Returns
        -------
        str
            The decoded line (line 1 without a leading byte-order mark).

        Raises
        ------
        InputError
            With ``bad_bytes="error"``, when ``raw`` is not UTF-8; either way when the first line starts with a
            UTF-16 byte-order mark.
        """
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            first_line = number == 1 or (number is None and self._first)
            if self.bad_bytes == "error" or (first_line and foreign_encoding(raw) is not None):
                raise decode_error(self.file, raw, error, self.what, number or 1) from None
            self.bad_lines += 1
            if self.first_bad_line is None and number is not None:
                self.first_bad_line = number
            text = raw.decode("utf-8", errors="replace")
        first, self._first = self._first, False
        if text.startswith(BOM) and (number == 1 or (number is None and first)):
            return text[1:]
        return text

    def report(self, stacklevel: int = 3) -> None:
        """Warn once when lines had bytes that are not UTF-8 (only with ``bad_bytes="replace"``).

        Parameters
        ----------
        stacklevel : int
            Passed to :func:`warnings.warn`.
        """
        if self.bad_lines:
            first = f" (the first on line {self.first_bad_line})" if self.first_bad_line is not None else ""
            warnings.warn(
                f"{describe(self.file, self.what)}: {self.bad_lines} line(s) had bytes that are not UTF-8{first}; "
                "they were replaced with U+FFFD",
                stacklevel=stacklevel,
            )


def iter_lines(
    path: str | os.PathLike[str],
    what: str = "",
    *,
    bad_bytes: str = "error",
    universal_newlines: bool = False,
    keepends: bool = False,
) -> Generator[tuple[int, str], None, None]:
    """Stream the lines of a UTF-8 file (``.gz`` decompressed) with their line numbers, one at a time.

    Parameters
    ----------
    path : str or os.PathLike
        The file to stream.
    what : str
        What the file is, for messages (:func:`describe`).
    bad_bytes : {"error", "replace"}
        Raise on bytes that are not UTF-8, or replace them with U+FFFD and warn once at the end of the file
        with the number of such lines.
    universal_newlines : bool
        Also end lines at a lone ``\\r`` (old Mac files; the CSV reader wants this); by default only ``\\n``
        ends a line, as in the line numbers that distributed scans count.
    keepends : bool
        Keep each line's end (``\\n``, ``\\r\\n``, ``\\r``) on it (what :mod:`csv` needs).

    Yields
    ------
    (int, str)
        The line number (from 1) and the decoded line.

    Raises
    ------
    InputError
        As :func:`check_file`; for a damaged or truncated gzip file (naming the last intact line); with
        ``bad_bytes="error"``, for bytes that are not UTF-8.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = path.write_bytes(b"one\\r\\ntwo\\rthree\\n")
    >>> list(iter_lines(path, universal_newlines=True))
    [(1, 'one'), (2, 'two'), (3, 'three')]
    """
    decode = LineDecoder(path, what, bad_bytes)
    number = 0
    with open_binary(path, what) as handle:
        try:
            for raw in handle:
                try:  # the fast path; the decoder handles bad bytes (and a mark on line 1)
                    text = raw.decode("utf-8")
                    if not number and text.startswith(BOM):
                        text = text[1:]
                except UnicodeDecodeError:
                    text = decode(raw, number + 1)
                if not text:  # a file that holds only a byte-order mark
                    continue
                if universal_newlines and "\r" in text[:-2]:
                    for piece in _LONE_CR.split(text):
                        if piece:
                            number += 1
                            yield number, piece if keepends else piece.rstrip("\r\n")
                    continue
                number += 1
                yield number, text if keepends else text.rstrip("\r\n")
        except _GZIP_ERRORS as error:
            raise damaged_gzip_error(path, error, what, number) from None
        except OSError as error:
            raise InputError(f"cannot read {describe(path, what)}: {error.strerror or error}") from None
    decode.report(stacklevel=3)


#: Bytes of a line read at once: a longer line comes in pieces of about this size (:func:`raw_lines`).
LINE_PIECE_BYTES = 4 * 2**20
_READ_BYTES = 2**20


def raw_lines(
    handle: io.BufferedIOBase,
    *,
    limit: int | None = None,
    lone_cr: bool = True,
    piece_bytes: int | None = LINE_PIECE_BYTES,
) -> Iterator[tuple[bytes, bool]]:
    """The raw lines of a binary handle from where it stands, read in bounded blocks; a long line in pieces.

    Memory stays bounded whatever the line lengths: a line longer than ``piece_bytes`` comes as several
    pieces of ``piece_bytes`` bytes at most (its last piece: twice that), each cut before the first byte of
    a UTF-8 character (so every piece decodes on its own).

    Parameters
    ----------
    handle : io.BufferedIOBase
        An open binary file (or gzip stream), positioned where reading starts.
    limit : int, optional
        Read at most this many bytes (a byte range that ends at a line start); by default to the end.
    lone_cr : bool
        A lone ``\\r`` ends a line too (old Mac files); ``\\r\\n`` is always one line end.
    piece_bytes : int, optional
        The longest piece; ``None``: lines come whole, however long (records that must be parsed whole).

    Yields
    ------
    (bytes, bool)
        A line or a piece of one, without its line end, and whether it ends its line.

    Examples
    --------
    >>> list(raw_lines(io.BytesIO(b"one\\rtwo\\r\\nthree")))
    [(b'one', True), (b'two', True), (b'three', True)]
    >>> list(raw_lines(io.BytesIO(b"abcdefg\\n"), piece_bytes=3))
    [(b'abc', False), (b'defg', True)]
    """
    remaining = limit
    buffer = b""
    read_bytes = min(_READ_BYTES, piece_bytes or _READ_BYTES)
    read = getattr(handle, "read1", handle.read)  # what is there (a damaged gzip stream: the lines before the damage)
    while True:
        size = read_bytes if remaining is None else min(read_bytes, remaining)
        block = read(size) if size > 0 else b""
        if remaining is not None:
            remaining -= len(block)
        end_of_data = not block
        searched = max(0, len(buffer) - 1)  # what was left holds no line end (but maybe a \r at its end)
        buffer += block
        start = 0
        newline = buffer.find(b"\n", searched)
        cr = buffer.find(b"\r", searched) if lone_cr else -1
        while newline != -1 or cr != -1:
            if cr != -1 and (newline == -1 or cr < newline):
                if cr + 1 == len(buffer) and not end_of_data:
                    break  # a \r at the end of what was read: wait for the next byte (it may be \n)
                end, start_next = cr, cr + 2 if buffer[cr + 1 : cr + 2] == b"\n" else cr + 1
            else:
                end, start_next = newline, newline + 1
            yield buffer[start:end], True
            start = start_next
            if newline != -1 and newline < start:
                newline = buffer.find(b"\n", start)
            if cr != -1 and cr < start:
                cr = buffer.find(b"\r", start)
        buffer = buffer[start:]
        if end_of_data:
            if buffer:
                yield buffer, True
            return
        while piece_bytes is not None and len(buffer) > piece_bytes:
            cut = piece_bytes
            while cut > piece_bytes - 3 and 0x80 <= buffer[cut] < 0xC0:  # inside a UTF-8 character
                cut -= 1
            yield buffer[:cut], False
            buffer = buffer[cut:]


def file_position(handle: io.IOBase) -> int:
    """How far into its file a handle has read: its position, or the compressed file's for a gzip stream.

    Parameters
    ----------
    handle : io.IOBase
        A handle from :func:`open_binary`.

    Returns
    -------
    int
        Bytes of the file on disk read so far.

    Examples
    --------
    >>> handle = io.BytesIO(b"one\\ntwo\\n"); _ = handle.read(4); file_position(handle)
    4
    """
    inner = getattr(handle, "fileobj", None)  # gzip.GzipFile reads the file on disk through it
    return int((inner if inner is not None else handle).tell())


def iter_line_pieces(
    path: str | os.PathLike[str],
    what: str = "",
    *,
    bad_bytes: str = "error",
    piece_bytes: int | None = LINE_PIECE_BYTES,
    on_position: Callable[[int], None] | None = None,
) -> Iterator[tuple[int, str, bool]]:
    """Stream the lines of a UTF-8 file (``.gz`` decompressed) in bounded memory: a long line in pieces.

    Lines end at ``\\n``, ``\\r\\n`` and a lone ``\\r``. A UTF-8 byte-order mark is dropped, bad bytes are
    handled as by :func:`iter_lines`.

    Parameters
    ----------
    path, what, bad_bytes
        As for :func:`iter_lines`.
    piece_bytes : int, optional
        The longest piece read at once (:func:`raw_lines`).
    on_position : callable, optional
        Called with the bytes of the file read so far (compressed bytes for ``.gz``) before each line or
        piece is yielded, so that progress can be shown inside a long line.

    Yields
    ------
    (int, str, bool)
        The line number (from 1), the decoded line or piece of a line, and whether it ends its line.

    Raises
    ------
    InputError
        As :func:`iter_lines`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = path.write_bytes(b"one\\rtwo three\\n")
    >>> list(iter_line_pieces(path, piece_bytes=4))
    [(1, 'one', True), (2, 'two ', False), (2, 'three', True)]
    """
    decode = LineDecoder(path, what, bad_bytes)
    number = 1
    starts_line = True
    with open_binary(path, what) as handle:
        try:
            for raw, ends in raw_lines(handle, piece_bytes=piece_bytes):
                if on_position is not None:
                    on_position(file_position(handle))
                # a byte-order mark is dropped from the start of line 1 only, not from a later piece of it
                yield number, decode(raw, number if starts_line else None), ends
                number += ends
                starts_line = ends
        except _GZIP_ERRORS as error:
            raise damaged_gzip_error(path, error, what, number - 1) from None
        except OSError as error:
            raise InputError(f"cannot read {describe(path, what)}: {error.strerror or error}") from None
    decode.report(stacklevel=3)
