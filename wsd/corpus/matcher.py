"""Finding target words in text: whole words only (Unicode word boundaries), any script.

Two matchers share one interface, ``matcher.find(text) -> list[Match]``:

- :class:`FormMatcher` (the default) matches the targets and the inflected forms the user listed, with one
  compiled regular expression; fast, exact and predictable: what it finds is what you listed.
- :class:`LemmaMatcher` also matches every word whose lemma (from the optional ``simplemma`` package, which
  covers English, Russian and 40+ other languages offline) is a target. It finds forms nobody listed
  (*шагали* for *шагать*) at the price of speed and of the lemmatizer's mistakes.

Both compare text in NFC (:mod:`wsd.corpus.folding`): ``café`` matches the decomposed ``cafe`` + U+0301 and the
other way round, and a combining mark belongs to the word before it, so ``cafe`` matches neither. Spans and
forms are those of the text as given.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from wsd.corpus.folding import match_key, matchable_text, normal_text, word_character, word_characters
from wsd.corpus.targets import TargetForms
from wsd.errors import ConfigError
from wsd.schema import is_off

DEFAULT_LANGUAGES: tuple[str, ...] = ("en", "ru")


@lru_cache(maxsize=1)
def word_pattern() -> re.Pattern[str]:
    """One word: word characters and combining marks, joined by hyphens or apostrophes (``mouse-like``).

    Returns
    -------
    re.Pattern
        The compiled pattern (built once, on first use).

    Examples
    --------
    >>> [m.group() for m in word_pattern().finditer("a mouse-like cafe\\u0301!")] == ["a", "mouse-like", "cafe\\u0301"]
    True
    """
    word = f"{word_character()}+"
    return re.compile(rf"{word}(?:[-'’]{word})*")


@dataclass(frozen=True)
class Match:
    """A target found in a text: character span (end exclusive), the matched form, and the target.

    Parameters
    ----------
    start, end : int
        Character offsets of the match in the text (end exclusive).
    form : str
        The text as it appears there (``Mice``).
    target : str
        The target it is a form of (``mouse``).
    """

    start: int
    end: int
    form: str
    target: str


class FormMatcher:
    """Match listed word forms as whole words, case-insensitively unless ``case_sensitive``.

    Ignoring case means Unicode case folding (:mod:`wsd.corpus.folding`): a form matches a word when both
    have the same :meth:`str.casefold`, so ``straße`` finds ``Straße``, ``STRASSE`` and ``strasse``, and
    ``İstanbul`` finds itself. Both are compared in NFC, so a composed ``café`` and a decomposed one (``e`` and
    U+0301) are one word, and a word ends only where no combining mark follows. Spans always index the
    original text.

    Parameters
    ----------
    targets : dict of str to list of str
        Each target and its forms (as :func:`wsd.corpus.targets.parse_targets` gives them); a form listed
        under two targets matches both.
    case_sensitive : bool
        Match the forms' case exactly.

    Raises
    ------
    ConfigError
        When ``targets`` holds no form.

    Examples
    --------
    >>> m = FormMatcher({"mouse": ["mouse", "mice"]})
    >>> [(x.start, x.form, x.target) for x in m.find("Mice and a MOUSE; mousetrap.")]
    [(0, 'Mice', 'mouse'), (11, 'MOUSE', 'mouse')]
    >>> [x.form for x in FormMatcher({"straße": ["straße"]}).find("STRASSE, Straße, strasse")]
    ['STRASSE', 'Straße', 'strasse']
    """

    def __init__(self, targets: TargetForms, case_sensitive: bool = False) -> None:
        self.case_sensitive = case_sensitive
        self._targets_of: dict[str, list[str]] = {}
        for target, forms in targets.items():
            for form in forms:
                key = self._key(form)
                owners = self._targets_of.setdefault(key, [])
                if target not in owners:
                    owners.append(target)
        alternatives = sorted(self._targets_of, key=lambda f: (-len(f), f))
        if not alternatives:
            raise ConfigError("no target forms to search for")
        # No look-behind: :func:`_whole_words` checks the character before a candidate, which keeps the
        # search on the regular expression engine's fast path (twice as fast) with the same matches.
        body = "|".join(re.escape(f) for f in alternatives)
        self._pattern = re.compile(f"(?:{body})(?!{word_character()})")

    def _key(self, form: str) -> str:
        return match_key(form, self.case_sensitive)

    def find(self, text: str) -> list[Match]:
        """All target occurrences in ``text``, in order of position.

        Parameters
        ----------
        text : str
            The text to search.

        Returns
        -------
        list of Match
            One per (position, target); a form of two targets gives two matches.
        """
        found: list[Match] = []
        targets_of = self._targets_of
        folded, offsets = matchable_text(text, self.case_sensitive)
        for hit in _whole_words(self._pattern, folded):
            start, end = hit.span()
            if offsets is not None:
                start, end = offsets.original(start), offsets.original(end)  # type: ignore[assignment]
                if start is None or end is None:  # begins or ends inside the fold or NFC of one character
                    continue
            for target in targets_of[hit.group()]:
                found.append(Match(start, end, text[start:end], target))
        return found


def _whole_words(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` (forms, then no word character) that do not follow a word character or mark.

    The same matches as ``finditer`` with ``(?<![\\w...])`` (a word character or a combining mark) in front of
    the pattern: a candidate preceded by one is dropped and the search goes on from the next position, where
    the look-behind would have let the engine go on.
    """
    search = pattern.search
    is_word = word_characters().match
    position = 0
    while (hit := search(text, position)) is not None:
        start = hit.start()
        if start and is_word(text, start - 1):
            position = start + 1
            continue
        yield hit
        position = hit.end()


class LemmaMatcher:
    """Match listed forms, plus any word whose ``simplemma`` lemma is a target.

    ``languages`` are tried in order (``("en", "ru")`` by default). Lemmas are cached per word form, so a
    corpus costs one lemmatizer call per distinct word.

    Parameters
    ----------
    targets : dict of str to list of str
        Each target and its listed forms; the target itself is the lemma looked for.
    languages : tuple of str
        ``simplemma`` language codes, tried in order.
    case_sensitive : bool
        Match the listed forms' case exactly (lemma matches ignore case).

    Raises
    ------
    ConfigError
        When the optional package ``simplemma`` is not installed, or there is no form to search for.

    Examples
    --------
    >>> m = LemmaMatcher({"шагать": ["шагать"]})  # doctest: +SKIP
    >>> [x.form for x in m.find("Они шагали домой.")]  # doctest: +SKIP
    ['шагали']
    """

    def __init__(
        self,
        targets: TargetForms,
        languages: tuple[str, ...] = DEFAULT_LANGUAGES,
        case_sensitive: bool = False,
    ) -> None:
        try:
            import simplemma
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ConfigError("the lemmatizer matcher needs the 'simplemma' package: pip install 'wsd[lemma]'") from exc
        self._lemmatize = simplemma.lemmatize
        self.languages = tuple(languages)
        self._forms = FormMatcher(targets, case_sensitive=case_sensitive)
        self._target_of_lemma: dict[str, list[str]] = {}
        for target in targets:
            self._target_of_lemma.setdefault(match_key(target), []).append(target)
        self._cache: dict[str, list[str]] = {}

    def _targets_for(self, word: str) -> list[str]:
        key = match_key(word)
        cached = self._cache.get(key)
        if cached is None:
            lemma = match_key(self._lemmatize(key, lang=self.languages))
            cached = self._target_of_lemma.get(lemma, [])
            self._cache[key] = cached
        return cached

    def find(self, text: str) -> list[Match]:
        """All target occurrences in ``text``: listed forms first, then lemma matches, in position order.

        Parameters
        ----------
        text : str
            The text to search (forms first, then lemmas).

        Returns
        -------
        list of Match
            One per (position, target), sorted by position and target; where a listed form and a lemma match
            start at the same place, the listed form's match is kept.
        """
        found = {(m.start, m.target): m for m in self._forms.find(text)}
        composed, offsets = normal_text(text)
        for hit in word_pattern().finditer(composed):
            start, end = hit.span()
            if offsets is not None:
                start, end = offsets.original(start), offsets.original(end)  # type: ignore[assignment]
                if start is None or end is None:
                    continue
            for target in self._targets_for(hit.group()):
                found.setdefault((start, target), Match(start, end, text[start:end], target))
        return sorted(found.values(), key=lambda m: (m.start, m.target))


def make_matcher(
    targets: TargetForms,
    lemmatizer: str | None = None,
    case_sensitive: bool = False,
    languages: tuple[str, ...] = DEFAULT_LANGUAGES,
) -> FormMatcher | LemmaMatcher:
    """Build the matcher a scan asks for: ``lemmatizer=None`` (listed forms) or ``"simplemma"``.

    Parameters
    ----------
    targets : dict of str to list of str
        Each target and its forms.
    lemmatizer : {None, "none", "simplemma"}
        ``None`` (or a word of :data:`wsd.schema.OFF_WORDS`: ``"none"``, ``"off"``, ...) for a
        :class:`FormMatcher`, ``"simplemma"`` for a :class:`LemmaMatcher`.
    case_sensitive : bool
        Match the listed forms' case exactly.
    languages : tuple of str
        Languages of the lemmatizer (``simplemma`` only).

    Returns
    -------
    FormMatcher or LemmaMatcher
        The matcher.

    Raises
    ------
    ConfigError
        For an unknown ``lemmatizer``, and as the matchers raise.
    """
    if is_off(lemmatizer):  # None, or "none" (also the older "off", "no", ""): wsd.schema.OFF_WORDS
        return FormMatcher(targets, case_sensitive=case_sensitive)
    if lemmatizer == "simplemma":
        return LemmaMatcher(targets, languages=languages, case_sensitive=case_sensitive)
    raise ConfigError(f"unknown lemmatizer {lemmatizer!r} (choose 'none' or 'simplemma')")
