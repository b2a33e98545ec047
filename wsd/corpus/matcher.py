"""Finding target words in text: whole words only (Unicode word boundaries), any script.

Two matchers share one interface, ``matcher.find(text) -> list[Match]``:

- :class:`FormMatcher` (the default) matches the targets and the inflected forms the user listed, with one
  compiled regular expression; fast, exact and predictable: what it finds is what you listed.
- :class:`LemmaMatcher` also matches every word whose lemma (from the optional ``simplemma`` package, which
  covers English, Russian and 40+ other languages offline) is a target. It finds forms nobody listed
  (*шагали* for *шагать*) at the price of speed and of the lemmatizer's mistakes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wsd.corpus.targets import TargetForms
from wsd.errors import ConfigError

WORD_PATTERN = re.compile(r"\w+(?:[-'’]\w+)*")
DEFAULT_LANGUAGES: tuple[str, ...] = ("en", "ru")


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
        When there is no form to search for.

    Examples
    --------
    >>> m = FormMatcher({"mouse": ["mouse", "mice"]})
    >>> [(x.start, x.form, x.target) for x in m.find("Mice and a MOUSE; mousetrap.")]
    [(0, 'Mice', 'mouse'), (11, 'MOUSE', 'mouse')]
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
        flags = 0 if case_sensitive else re.IGNORECASE
        self._pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(f) for f in alternatives) + r")(?!\w)", flags)

    def _key(self, form: str) -> str:
        return form if self.case_sensitive else form.casefold()

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
        for hit in self._pattern.finditer(text):
            form = hit.group()
            for target in self._targets_of.get(self._key(form), ()):
                found.append(Match(hit.start(), hit.end(), form, target))
        return found


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
            self._target_of_lemma.setdefault(target.casefold(), []).append(target)
        self._cache: dict[str, list[str]] = {}

    def _targets_for(self, word: str) -> list[str]:
        key = word.casefold()
        cached = self._cache.get(key)
        if cached is None:
            lemma = self._lemmatize(key, lang=self.languages).casefold()
            cached = self._target_of_lemma.get(lemma, [])
            self._cache[key] = cached
        return cached

    def find(self, text: str) -> list[Match]:
        """All target occurrences in ``text``: listed forms first, then lemma matches, in position order.

        Parameters
        ----------
        text : str
            The text to search.

        Returns
        -------
        list of Match
            One per (position, target), sorted by position and target; where a listed form and a lemma match
            start at the same place, the listed form's match is kept.
        """
        found = {(m.start, m.target): m for m in self._forms.find(text)}
        for hit in WORD_PATTERN.finditer(text):
            for target in self._targets_for(hit.group()):
                found.setdefault((hit.start(), target), Match(hit.start(), hit.end(), hit.group(), target))
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
        ``None`` (or ``""``, ``"none"``) for a :class:`FormMatcher`, ``"simplemma"`` for a :class:`LemmaMatcher`.
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
    if lemmatizer in (None, "", "none"):
        return FormMatcher(targets, case_sensitive=case_sensitive)
    if lemmatizer == "simplemma":
        return LemmaMatcher(targets, languages=languages, case_sensitive=case_sensitive)
    raise ConfigError(f"unknown lemmatizer {lemmatizer!r} (choose 'none' or 'simplemma')")
