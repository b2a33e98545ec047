"""Likely proper names among the matches: capitalised forms of a lower-case target in the middle of a sentence.

A lemmatizer maps *States* (the United States) onto *state* and *Лука* (the name) onto *лук* (onion); without
one, matching ignores case, so *state* finds *State* (Secretary of State, the State of Georgia: 64% of its uses
in the State of the Union addresses). Such a use is capitalised while its target is not, and does not begin a
sentence, so it is most likely (part of) a name. A scan counts them per target and form, with or without a
lemmatizer; ``proper`` (``--keep-proper`` / ``--no-proper``) decides what happens to them:

- ``"warn"`` (the default): they are kept, and the scan warns once, per target, with its share of such uses,
  for the targets where they are at least :data:`WARN_SHARE` of the uses (the others are counted, not warned
  about);
- ``"keep"``: they are kept without the warning;
- ``"drop"``: they are not matched (never stored, never embedded).

A form the user listed with its capital (``state:States`` with ``case_sensitive``) is what the user asked for:
it never counts. A use at the start of a sentence (after ``.``, ``!``, ``?``, ``…`` or a line break, opening
quotes and brackets aside) is capitalised anyway and never counts either.

>>> from wsd.corpus.matcher import FormMatcher
>>> text = "The United States. States differ; the states agree."
>>> found = FormMatcher({"state": ["state", "states"]}).find(text)
>>> [m.form for m in found if likely_proper(text, m)]
['States']
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterable, Mapping

from wsd.corpus.matcher import Match

#: Characters that end a sentence when white space follows (as :data:`wsd.corpus.contexts.SENTENCE_END`).
SENTENCE_END_CHARS = frozenset(".!?…")
#: Characters between a sentence's end and its first word: white space aside, quotes, brackets and dashes.
OPENERS = frozenset("\"'«»“”„‘’‚([{—–-")
#: How the warning tells the user to decide (the flags of ``scan.proper``).
DECIDE = "--no-proper drops them, --keep-proper keeps them without this warning"
#: Forms shown per target in the warning.
SHOWN_FORMS = 3
#: The share of a target's uses, capitalised mid-sentence, from which the warning names it. A choice, not a
#: measurement: in the State of the Union addresses it names state (64%), union, congress, president, war and bank
#: (19-97%) and leaves out power (16 of 2,124, "Power" in headings and titles), peace (2.0%) and plant (2 of 84).
WARN_SHARE = 0.05


def is_capitalised(word: str) -> bool:
    """Whether ``word`` begins with a capital and is not written all in capitals (``States``, not ``STATES``).

    Parameters
    ----------
    word : str
        A word.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_capitalised("Лука"), is_capitalised("лука"), is_capitalised("USA")
    (True, False, False)
    """
    return word[:1].isupper() and not (len(word) > 1 and word.isupper())


def at_sentence_start(text: str, start: int, open_start: bool = False) -> bool:
    """Whether the word at ``start`` begins a sentence of ``text``.

    Going back over white space, quotes, brackets and dashes, the text begins there, or a line break or one of
    ``.!?…`` comes first.

    Parameters
    ----------
    text : str
        A document (or a block of one).
    start : int
        The word's offset.
    open_start : bool
        ``text`` is a block whose first sentence began before it (:mod:`wsd.corpus.blocks`): its start is not
        a sentence start.

    Returns
    -------
    bool

    Examples
    --------
    >>> at_sentence_start("Yes. «States» are", 6), at_sentence_start("the United States", 11)
    (True, False)
    """
    position = start - 1
    while position >= 0:
        character = text[position]
        if character in "\n\r" or character in SENTENCE_END_CHARS:
            return True
        if not (character.isspace() or character in OPENERS):
            return False
        position -= 1
    return not open_start


def likely_proper(text: str, match: Match, listed: Iterable[str] = (), open_start: bool = False) -> bool:
    """Whether a match is likely a proper name: capitalised, of a target that is not, not at a sentence start.

    Parameters
    ----------
    text : str
        The text the match was found in.
    match : Match
        The match.
    listed : iterable of str
        The forms the user listed: one of them, spelt exactly, never counts.
    open_start : bool
        As in :func:`at_sentence_start`.

    Returns
    -------
    bool
    """
    return (
        is_capitalised(match.form)
        and not is_capitalised(match.target)
        and match.form not in listed
        and not at_sentence_start(text, match.start, open_start)
    )


def proper_message(
    counts: Mapping[str, Mapping[str, int]], uses: Mapping[str, int], min_share: float = WARN_SHARE
) -> str:
    """The warning's text: per target, its capitalised mid-sentence uses out of all (and their share), by form.

    Parameters
    ----------
    counts : mapping
        Target → form → uses capitalised mid-sentence.
    uses : mapping
        Target → all its uses found.
    min_share : float
        Targets where such uses are a smaller share of all are left out.

    Returns
    -------
    str
        Empty when no target is named.

    Examples
    --------
    >>> proper_message({"state": {"States": 1150, "State": 54}}, {"state": 5310}).split(": likely")[0]
    'state: 1,204 of 5,310 uses (23%) are capitalised mid-sentence (States 1,150, State 54)'
    >>> proper_message({"power": {"Power": 16}}, {"power": 2124})  # 0.8%: counted, not warned about
    ''
    """
    parts = []
    for target, forms in counts.items():
        total = sum(forms.values())
        of = max(int(uses.get(target, 0)), total)
        if not total or total < min_share * of:
            continue
        ranked = sorted(forms.items(), key=lambda item: (-item[1], item[0]))
        shown = ", ".join(f"{form} {count:,}" for form, count in ranked[:SHOWN_FORMS])
        shown += ", ..." if len(ranked) > SHOWN_FORMS else ""
        parts.append(f"{target}: {total:,} of {of:,} uses ({total / of:.0%}) are capitalised mid-sentence ({shown})")
    if not parts:
        return ""
    return "; ".join(parts) + f": likely proper names; {DECIDE}"


def count_table(counts: Mapping[str, Counter]) -> dict[str, dict[str, int]]:
    """Counts as a run's metadata records them: target → form → uses, the most frequent form first.

    Parameters
    ----------
    counts : mapping
        Target → :class:`~collections.Counter` of forms.

    Returns
    -------
    dict
        Only the targets with a count.
    """
    return {
        target: {form: int(n) for form, n in sorted(forms.items(), key=lambda item: (-item[1], item[0]))}
        for target, forms in counts.items()
        if sum(forms.values())
    }


def warn_proper(
    counts: Mapping[str, Mapping[str, int]],
    uses: Mapping[str, int],
    proper: str,
    stacklevel: int = 3,
) -> str:
    """Warn once about the likely proper names a scan kept (``proper="warn"``), with or without a lemmatizer.

    Only targets where they are at least :data:`WARN_SHARE` of the uses are named.

    Parameters
    ----------
    counts : mapping
        Target → form → uses capitalised mid-sentence (as the scan counted them).
    uses : mapping
        Target → all its uses found.
    proper : {"warn", "keep", "drop"}
        The scan's choice: only ``"warn"`` warns.
    stacklevel : int
        Passed to :func:`warnings.warn`.

    Returns
    -------
    str
        The warning's message; empty when nothing was warned.
    """
    if proper != "warn":
        return ""
    message = proper_message(counts, uses)
    if message:
        warnings.warn(message, stacklevel=stacklevel)
    return message
