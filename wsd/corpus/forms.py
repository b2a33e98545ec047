"""Word-form matching: inflected forms of a lemma and where they occur in a text (English rules, Russian lemmas).

Two ways to find a target word in running text:

* **by a set of surface forms** — :func:`english_forms` generates the inflected forms of an English lemma
  (regular rules plus a table of irregular verbs and nouns, optional British/American spelling variants);
  :func:`find_word` returns the spans of any of those forms, matched case-insensitively between Unicode word
  boundaries, with stress marks (``за́мок``) and ``ё``/``е`` treated as the plain letter;
* **by lemma** — :func:`find_lemma` tokenises the text and keeps the words whose lemma (``simplemma``, imported
  lazily) or stem prefix is the target; this is how inflected Russian targets are re-located.

Offsets are Python ``str`` character offsets, end exclusive, as everywhere in :mod:`wsd`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from wsd.corpus.folding import folded_spans
from wsd.errors import ConfigError

#: Combining marks that may sit inside a word (stress accents in Russian dictionaries and Wikipedia).
COMBINING_MARKS = "\u0300-\u036f"
#: One word: a letter or digit, then letters, digits or combining marks. Hyphens and apostrophes split words.
WORD_PATTERN = re.compile(rf"[^\W_](?:[^\W_]|[{COMBINING_MARKS}])*")
_STRESS_MARKS = re.compile("[\u0300\u0301]")
_BOUNDARY_CHARS = rf"\w{COMBINING_MARKS}"

#: ``find_lemma`` methods: which tests decide that a word is a form of the lemma.
MATCH_METHODS: tuple[str, ...] = ("exact", "lemma", "stem", "lemma+stem")
#: Russian endings stripped from a lemma to get its stem prefix (one final vowel, soft sign or й).
_RUSSIAN_FINAL = "аяоеёьйыиуюэ"
#: A stem-prefix match may add at most this many characters (Russian case endings are 0–3 letters).
MAX_ENDING_LENGTH = 3
#: Adjectival endings (adjectives and adjectival nouns such as ``дежурная``, ``будущее``).
_RUSSIAN_ADJECTIVE_ENDINGS = ("ая", "яя", "ое", "ее", "ый", "ий", "ой")
#: Stems shorter than this are too ambiguous for prefix matching (``зл`` from ``зло``).
MIN_STEM_LENGTH = 3

# ----------------------------------------------------------------------------------------------------------
# Irregular English forms (written for this project): "base past participle"; alternatives joined by "|".
_IRREGULAR_VERB_TABLE = """
arise arose arisen; awake awoke awoken; be was|were been; bear bore borne|born; beat beat beaten;
become became become; begin began begun; bend bent bent; bet bet bet; bid bid|bade bid|bidden;
bind bound bound; bite bit bitten; bleed bled bled; blow blew blown; break broke broken;
breed bred bred; bring brought brought; broadcast broadcast broadcast; build built built;
burn burnt|burned burnt|burned; burst burst burst; buy bought bought; cast cast cast; catch caught caught;
choose chose chosen; cling clung clung; come came come; cost cost cost; creep crept crept; cut cut cut;
deal dealt dealt; dig dug dug; dive dove|dived dived; do did done; draw drew drawn;
dream dreamt|dreamed dreamt|dreamed; drink drank drunk; drive drove driven; dwell dwelt dwelt; eat ate eaten;
fall fell fallen; feed fed fed; feel felt felt; fight fought fought; find found found; flee fled fled;
fling flung flung; fly flew flown; forbid forbade forbidden; forecast forecast forecast; foresee foresaw foreseen;
forget forgot forgotten; forgive forgave forgiven; freeze froze frozen; get got got|gotten; give gave given;
go went gone; grind ground ground; grow grew grown; hang hung|hanged hung|hanged; have had had; hear heard heard;
hide hid hidden; hit hit hit; hold held held; hurt hurt hurt; keep kept kept; kneel knelt knelt;
know knew known; lay laid laid; lead led led; lean leant|leaned leant|leaned; leap leapt|leaped leapt|leaped;
learn learnt|learned learnt|learned; leave left left; lend lent lent; let let let; lie lay|lied lain|lied;
light lit|lighted lit|lighted; lose lost lost; make made made; mean meant meant; meet met met;
mislead misled misled; mistake mistook mistaken; overcome overcame overcome; overtake overtook overtaken;
pay paid paid; prove proved proven|proved; put put put; quit quit quit; read read read; rid rid rid;
ride rode ridden; ring rang rung; rise rose risen; run ran run; saw sawed sawn|sawed; say said said;
see saw seen; seek sought sought; sell sold sold; send sent sent; set set set; sew sewed sewn|sewed;
shake shook shaken; shear sheared shorn|sheared; shed shed shed; shine shone|shined shone|shined;
shoot shot shot; show showed shown|showed; shrink shrank|shrunk shrunk; shut shut shut; sing sang sung;
sink sank sunk; sit sat sat; slay slew slain; sleep slept slept; slide slid slid; sling slung slung;
slit slit slit; smell smelt|smelled smelt|smelled; sow sowed sown|sowed; speak spoke spoken; speed sped sped;
spell spelt|spelled spelt|spelled; spend spent spent; spill spilt|spilled spilt|spilled; spin spun spun;
spit spat spat; split split split; spoil spoilt|spoiled spoilt|spoiled; spread spread spread;
spring sprang sprung; stand stood stood; steal stole stolen; stick stuck stuck; sting stung stung;
stink stank stunk; stride strode stridden; strike struck struck|stricken; string strung strung;
strive strove striven; swear swore sworn; sweep swept swept; swell swelled swollen|swelled; swim swam swum;
swing swung swung; take took taken; teach taught taught; tear tore torn; tell told told; think thought thought;
throw threw thrown; thrust thrust thrust; tread trod trodden; undergo underwent undergone;
understand understood understood; undertake undertook undertaken; upset upset upset; wake woke woken;
wear wore worn; weave wove woven; weep wept wept; win won won; wind wound wound; withdraw withdrew withdrawn;
withhold withheld withheld; withstand withstood withstood; wring wrung wrung; write wrote written
"""
# "lie" keeps both homographs: recline (lay, lain) and tell lies (lied). Irregular third persons:
_IRREGULAR_THIRD_PERSON = {"be": {"is", "am", "are"}, "have": {"has"}, "do": {"does"}, "go": {"goes"}}

_IRREGULAR_PLURAL_TABLE = """
man men; woman women; child children; person people|persons; mouse mice; louse lice; foot feet; tooth teeth;
goose geese; ox oxen; leaf leaves; life lives; knife knives; wife wives; half halves; wolf wolves;
shelf shelves; thief thieves; loaf loaves; calf calves; elf elves; self selves; sheaf sheaves; scarf scarves|scarfs;
hoof hooves|hoofs; wharf wharves|wharfs; analysis analyses; crisis crises; thesis theses; basis bases;
hypothesis hypotheses; diagnosis diagnoses; axis axes; criterion criteria; phenomenon phenomena; datum data;
medium media|mediums; index indices|indexes; appendix appendices|appendixes; matrix matrices|matrixes;
vertex vertices|vertexes; cactus cacti|cactuses; fungus fungi|funguses; nucleus nuclei; radius radii;
stimulus stimuli; syllabus syllabi|syllabuses; alumnus alumni; formula formulae|formulas; antenna antennae|antennas;
vertebra vertebrae; curriculum curricula|curriculums; bacterium bacteria; die dice|dies; penny pence|pennies;
sheep sheep; deer deer; fish fish|fishes; series series; species species; aircraft aircraft; offspring offspring;
potato potatoes; tomato tomatoes; hero heroes; echo echoes; veto vetoes; torpedo torpedoes; embargo embargoes
"""


def _parse_table(table: str) -> dict[str, tuple[set[str], ...]]:
    entries: dict[str, tuple[set[str], ...]] = {}
    for entry in table.replace("\n", " ").split(";"):
        words = entry.split()
        if words:
            entries[words[0]] = tuple(set(w.split("|")) for w in words[1:])
    return entries


IRREGULAR_VERBS: dict[str, tuple[set[str], set[str]]] = _parse_table(_IRREGULAR_VERB_TABLE)  # type: ignore[assignment]
IRREGULAR_PLURALS: dict[str, set[str]] = {k: v[0] for k, v in _parse_table(_IRREGULAR_PLURAL_TABLE).items()}

_VOWELS = "aeiou"
_SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh")
#: Part-of-speech codes accepted by :func:`english_forms` (SemEval uses ``j`` for adjectives).
ENGLISH_POS: dict[str, str] = {"n": "noun", "v": "verb", "j": "adjective", "a": "adjective", "r": "adverb"}


def _ends_cvc(word: str) -> bool:
    """Consonant-vowel-consonant ending whose last consonant may double (``swim``, ``commit``, ``level``)."""
    return (
        len(word) >= 3
        and word[-1] not in _VOWELS + "wxy"
        and word[-2] in _VOWELS
        and word[-3] not in _VOWELS
        and word[-1].isalpha()
    )


def _s_forms(word: str) -> set[str]:
    if word.endswith(_SIBILANT_ENDINGS):
        forms = {word + "es"}
        if word[-1] in "sz" and _ends_cvc(word):
            forms.add(word + word[-1] + "es")  # quiz -> quizzes, gas -> gasses (American verb)
        return forms
    if len(word) > 1 and word.endswith("y") and word[-2] not in _VOWELS:
        return {word[:-1] + "ies"}
    if len(word) > 1 and word.endswith("o") and word[-2] not in _VOWELS:
        return {word + "s", word + "es"}
    return {word + "s"}


def _suffix_forms(word: str, suffix: str) -> set[str]:
    """``word`` + a vowel-initial suffix (``ing``, ``ed``, ``er``, ``est``) with the usual spelling changes."""
    if word.endswith("e"):
        if suffix == "ing":
            if word.endswith("ie"):
                return {word[:-2] + "ying"}
            if word.endswith(("ee", "ye", "oe")):
                return {word + suffix}
            if word.endswith("ge"):
                return {word[:-1] + suffix, word + suffix}  # aging/ageing, singeing
            return {word[:-1] + suffix}
        return {word + suffix[1:]}  # analyzed, later
    if len(word) > 1 and word.endswith("y") and word[-2] not in _VOWELS and suffix != "ing":
        return {word[:-1] + "i" + suffix}
    if word.endswith("c"):
        return {word + "k" + suffix, word + suffix}
    forms = {word + suffix}
    if _ends_cvc(word):
        forms.add(word + word[-1] + suffix)  # both: stress decides (commit-ted, visit-ed, level-led/-ed)
    return forms


def spelling_variants(word: str) -> set[str]:
    """British/American spelling variants of ``word`` (including ``word``).

    ``-ize``/``-ise`` and ``-yze``/``-yse`` (``analyze``), ``-or``/``-our`` after a vowel and a consonant
    (``color``, ``behavior``; not ``for``/``four`` or ``door``), ``-er``/``-re`` after ``t``/``b``
    (``center``, ``fiber``) and ``-ense``/``-ence`` (``defense``). Variants that nobody writes are harmless
    for matching; the rules avoid turning one common word into another.

    Parameters
    ----------
    word : str
        One lower-case English word.

    Returns
    -------
    set of str
        ``word`` and its variants.

    Examples
    --------
    >>> sorted(spelling_variants("analyze")), sorted(spelling_variants("colour")), spelling_variants("four")
    (['analyse', 'analyze'], ['color', 'colour'], {'four'})
    """
    variants = {word}
    swaps: tuple[tuple[str, str], ...] = (
        ("yze", "yse"),
        ("yse", "yze"),
        ("ize", "ise"),
        ("ence", "ense"),
        ("ense", "ence"),
    )
    swaps += (("ter", "tre"), ("tre", "ter"), ("ber", "bre"), ("bre", "ber"))
    for old, new in swaps:
        if word.endswith(old) and len(word) > len(old) + 1:
            variants.add(word[: -len(old)] + new)
    if re.search(r"(?:[aeiou][^aeiou]|i)or$", word) and len(word) >= 5:
        variants.add(word[:-1] + "ur")  # color -> colour, behavior -> behaviour
    if re.search(r"(?:[aeiou][^aeiou]|i)our$", word) and len(word) >= 5:
        variants.add(word[:-2] + "r")  # colour -> color, behaviour -> behavior
    return variants


def _forms_of_one(lemma: str, pos: str | None) -> set[str]:
    forms = {lemma}
    if pos in (None, "n"):
        forms |= IRREGULAR_PLURALS.get(lemma) or _s_forms(lemma)
        if lemma in IRREGULAR_PLURALS and pos is None:
            forms |= _s_forms(lemma)
    if pos in (None, "v"):
        forms |= _IRREGULAR_THIRD_PERSON.get(lemma) or _s_forms(lemma)
        forms |= _suffix_forms(lemma, "ing")
        if lemma in IRREGULAR_VERBS:
            past, participle = IRREGULAR_VERBS[lemma]
            forms |= past | participle
        else:
            forms |= _suffix_forms(lemma, "ed")
    if pos in (None, "j", "a"):
        forms |= _suffix_forms(lemma, "er") | _suffix_forms(lemma, "est")
    return forms


def english_forms(lemma: str, pos: str | None = None, *, spelling: bool = True) -> set[str]:
    """The inflected forms of an English lemma, lower-cased.

    Regular rules (plural / third person ``-s``/``-es``/``-ies``; ``-ing`` and ``-ed`` with silent-``e``
    dropping, ``y``→``i`` and consonant doubling — both doubled and single for ``CVC`` endings, so
    ``levelled``/``leveled`` and ``transferred``/``transfered`` all match) plus tables of irregular verbs
    (:data:`IRREGULAR_VERBS`) and noun plurals (:data:`IRREGULAR_PLURALS`). Over-generation of forms that no
    one writes is harmless for matching; missing forms are not.

    Parameters
    ----------
    lemma : str
        Dictionary form (``"lie"``, ``"body"``); a multi-word lemma is inflected on its last word.
    pos : {"n", "v", "j", "a", "r", None}
        Part of speech (``j``/``a`` adjective, ``r`` adverb); ``None`` gives the union of noun, verb and
        adjective forms.
    spelling : bool
        Also inflect British/American spelling variants (``analyse``, ``colour``).

    Returns
    -------
    set of str
        The lemma and its forms (with ``spelling``, those of its spelling variants too).

    Raises
    ------
    ConfigError
        For an unknown ``pos`` or an empty lemma.

    Examples
    --------
    >>> sorted(english_forms("lie", "v"))
    ['lain', 'lay', 'lie', 'lied', 'lies', 'lying']
    >>> sorted(english_forms("body", "n"))
    ['bodies', 'body']
    """
    if pos is not None and pos not in ENGLISH_POS:
        raise ConfigError(f"part of speech {pos!r} is not one of {', '.join(ENGLISH_POS)} (or None)")
    lemma = lemma.strip().lower()
    if not lemma:
        raise ConfigError("english_forms: the lemma is empty")
    head, _, last = lemma.rpartition(" ")
    prefix = head + " " if head else ""
    if pos == "r":
        return {lemma}
    forms: set[str] = set()
    for variant in spelling_variants(last) if spelling else {last}:
        forms |= _forms_of_one(variant, pos)
    return {prefix + form for form in forms}


# ----------------------------------------------------------------------------------------------------------
# Finding forms in text


def normalize_word(word: str) -> str:
    """Lower-case ``word`` (``casefold``), drop stress accents (U+0300, U+0301) and read ``ё`` as ``е``.

    Parameters
    ----------
    word : str
        A word (or any text).

    Returns
    -------
    str
        The normalised word.

    Examples
    --------
    >>> normalize_word("За́мок"), normalize_word("Ёлка")
    ('замок', 'елка')
    """
    return _STRESS_MARKS.sub("", word).casefold().replace("ё", "е")


def word_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the words of ``text`` (letters/digits and combining marks; hyphens and apostrophes split).

    Parameters
    ----------
    text : str
        The text to split.

    Returns
    -------
    list of (start, end)
        Character offsets of each word, end exclusive, left to right.

    Examples
    --------
    >>> word_spans("за́мок, air-bag")
    [(0, 6), (8, 11), (12, 15)]
    """
    return [m.span() for m in WORD_PATTERN.finditer(text)]


def _form_pattern(form: str) -> str:
    parts = []
    for char in normalize_word(form):
        if char == "е":
            parts.append("[её]")
        elif char.isspace():
            parts.append(r"\s+")
            continue
        else:
            parts.append(re.escape(char))
        parts.append("[\u0300\u0301]?")
    return "".join(parts)


@lru_cache(maxsize=4096)
def compile_forms(forms: frozenset[str], ignore_case: bool = True) -> re.Pattern[str]:
    """One regular expression matching any of ``forms`` as a whole word (cached).

    Longer forms are tried first; stress accents may follow any letter; ``е`` also matches ``ё``.

    Parameters
    ----------
    forms : frozenset of str
        Surface forms (blank ones are ignored); a frozenset, so that the compiled pattern can be cached.
    ignore_case : bool
        Case-insensitive matching.

    Returns
    -------
    re.Pattern
        The compiled pattern; ``finditer`` gives the matches left to right.

    Raises
    ------
    ConfigError
        When no form is left after dropping blank ones.

    Examples
    --------
    >>> bool(compile_forms(frozenset({"lie", "lain"})).search("had Lain there"))
    True
    """
    cleaned = sorted({normalize_word(f.strip()) for f in forms if f.strip()}, key=lambda f: (-len(f), f))
    if not cleaned:
        raise ConfigError("find_word: no (non-empty) forms to look for")
    alternation = "|".join(_form_pattern(f) for f in cleaned)
    flags = re.IGNORECASE if ignore_case else 0
    return re.compile(rf"(?<![{_BOUNDARY_CHARS}])(?:{alternation})(?![{_BOUNDARY_CHARS}])", flags)


def find_word(text: str, forms: Iterable[str], *, ignore_case: bool = True) -> list[tuple[int, int]]:
    """Spans of every whole-word occurrence of any of ``forms`` in ``text``, left to right.

    Word boundaries are Unicode-aware (a form never matches inside a longer word; a hyphen or apostrophe is a
    boundary), matching ignores case by default, stress accents and ``ё``/``е``. Ignoring case means Unicode
    case folding in both directions (:mod:`wsd.corpus.folding`): ``Straße`` is found for ``strasse`` and
    ``STRASSE`` for ``straße``.

    Parameters
    ----------
    text : str
        The text to search.
    forms : iterable of str
        Surface forms, e.g. from :func:`english_forms`.
    ignore_case : bool
        Case-insensitive matching (default).

    Returns
    -------
    list of (start, end)
        Character offsets, end exclusive.

    Raises
    ------
    ConfigError
        When ``forms`` holds no non-empty form.

    Examples
    --------
    >>> find_word("He lay down; the layer had lain.", english_forms("lie", "v"))
    [(3, 6), (27, 31)]
    """
    if ignore_case:  # search the folded text with the folded forms, so that case folding decides
        return list(folded_spans(compile_forms(frozenset(forms), ignore_case=False), text))
    return [m.span() for m in compile_forms(frozenset(forms), ignore_case).finditer(text)]


# ----------------------------------------------------------------------------------------------------------
# Lemma and stem matching (Russian and other inflected languages)


@lru_cache(maxsize=1)
def _simplemma():  # returns the simplemma module
    try:
        import simplemma
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ConfigError(
            "lemma matching needs the optional package simplemma (pip install 'wsd[lemma]'); or use method='stem'"
        ) from error
    return simplemma


@lru_cache(maxsize=200_000)
def lemmatize(word: str, lang: str) -> str:
    """The lemma of one word (``simplemma``, normalised with :func:`normalize_word`).

    Parameters
    ----------
    word : str
        An inflected word.
    lang : str
        Its language, as a code that ``simplemma`` knows (``"ru"``, ``"en"``, ...).

    Returns
    -------
    str
        The normalised lemma (calls are cached).

    Raises
    ------
    ConfigError
        When the optional package ``simplemma`` is not installed.

    Examples
    --------
    >>> lemmatize("сучьев", "ru")
    'сук'
    """
    word = normalize_word(word)
    return normalize_word(_simplemma().lemmatize(word, lang=lang))


def stem_prefixes(lemma: str) -> set[str]:
    """Stem prefixes that the inflected forms of a Russian lemma start with.

    The lemma without one final vowel, soft sign or ``й`` (``акция`` → ``акци``), or without an adjectival
    ending (``дежурная`` → ``дежурн``); for a fleeting vowel also the stem without it (``кабачок`` →
    ``кабачк``, ``отец`` → ``отц``). Stems shorter than :data:`MIN_STEM_LENGTH` are left out.

    Parameters
    ----------
    lemma : str
        A Russian lemma (normalised with :func:`normalize_word` first).

    Returns
    -------
    set of str
        The stem prefixes (possibly empty, when every stem is too short).

    Examples
    --------
    >>> sorted(stem_prefixes("дорога")), sorted(stem_prefixes("кабачок")), sorted(stem_prefixes("дежурная"))
    (['дорог'], ['кабачк', 'кабачок'], ['дежурн'])
    """
    lemma = normalize_word(lemma)
    if lemma.endswith(_RUSSIAN_ADJECTIVE_ENDINGS) and len(lemma) > 4:
        stems = {lemma[:-2]}
    elif len(lemma) > 1 and lemma[-1] in _RUSSIAN_FINAL:
        stems = {lemma[:-1]}
    else:
        stems = {lemma}
    if re.search(r"[^аеиоуыэюя](?:ок|ек|ец)$", lemma):
        stems.add(lemma[:-2] + lemma[-1])
    return {stem for stem in stems if len(stem) >= MIN_STEM_LENGTH}


def fleeting_vowel_forms(lemma: str) -> set[str]:
    """Genitive plurals with an inserted vowel that no stem prefix covers (``двойка`` → ``двоек``).

    Parameters
    ----------
    lemma : str
        As for :func:`stem_prefixes`.

    Returns
    -------
    set of str
        The forms with ``-ок``/``-ек`` for a lemma in ``-ка`` (``-ек`` after ``й`` or ``ь``); empty otherwise.

    Examples
    --------
    >>> sorted(fleeting_vowel_forms("десятка")), sorted(fleeting_vowel_forms("байка"))
    (['десятек', 'десяток'], ['баек'])
    """
    lemma = normalize_word(lemma)
    if re.search(r"[йь]ка$", lemma):
        return {lemma[:-3] + "ек"}
    if re.search(r"[^аеиоуыэюя]ка$", lemma):
        return {lemma[:-2] + "ок", lemma[:-2] + "ек"}
    return set()


def match_lemma(words: Sequence[str], lemma: str, *, lang: str = "ru", method: str = "lemma+stem") -> list[bool]:
    """Which of ``words`` are forms of ``lemma``.

    Methods (see :data:`MATCH_METHODS`): ``exact`` — the normalised word equals the lemma; ``lemma`` — exact,
    or ``simplemma`` gives the lemma; ``stem`` — exact, or the word starts with one of :func:`stem_prefixes` and adds at
    most :data:`MAX_ENDING_LENGTH` letters, or is one of :func:`fleeting_vowel_forms`; ``lemma+stem`` —
    the ``lemma`` matches if there are any among ``words``, otherwise the ``stem`` matches (precision of the
    lemmatiser, recall of the stem for words it does not know or gets wrong, such as ``банка`` → ``банк``).

    Parameters
    ----------
    words : sequence of str
        The words to test (e.g. all words of one context).
    lemma : str
        The target lemma.
    lang : str
        Language code for ``simplemma`` (methods ``lemma`` and ``lemma+stem``).
    method : {"exact", "lemma", "stem", "lemma+stem"}
        How a word is matched (see above).

    Returns
    -------
    list of bool
        One flag per word, in order.

    Raises
    ------
    ConfigError
        For an unknown ``method``, or when a lemma method needs ``simplemma`` and it is not installed.

    Examples
    --------
    >>> match_lemma(["Сучья", "сухих", "сук"], "сук")
    [True, False, True]
    """
    if method not in MATCH_METHODS:
        raise ConfigError(f"match method {method!r} is not one of {', '.join(MATCH_METHODS)}")
    target = normalize_word(lemma)
    normalized = [normalize_word(w) for w in words]
    exact = [w == target for w in normalized]
    if method == "exact":
        return exact
    if method in ("lemma", "lemma+stem"):
        by_lemma = [e or lemmatize(w, lang) == target for w, e in zip(normalized, exact, strict=True)]
        if method == "lemma" or any(by_lemma):
            return by_lemma
    stems = stem_prefixes(target)
    extra = fleeting_vowel_forms(target)
    return [
        e or w in extra or any(w.startswith(stem) and len(w) - len(stem) <= MAX_ENDING_LENGTH for stem in stems)
        for w, e in zip(normalized, exact, strict=True)
    ]


def find_lemma(text: str, lemma: str, *, lang: str = "ru", method: str = "lemma+stem") -> list[tuple[int, int]]:
    """Spans of the words of ``text`` that are forms of ``lemma`` (see :func:`match_lemma` for ``method``).

    Parameters
    ----------
    text : str
        The text to search (split with :func:`word_spans`).
    lemma : str
        The target lemma.
    lang : str
        Language code for ``simplemma``.
    method : {"exact", "lemma", "stem", "lemma+stem"}
        How a word is matched.

    Returns
    -------
    list of (start, end)
        Character offsets of the matching words, end exclusive, left to right.

    Raises
    ------
    ConfigError
        As :func:`match_lemma`.

    Examples
    --------
    >>> find_lemma("Цепляясь за сучья деревьев", "сук")
    [(12, 17)]
    """
    spans = word_spans(text)
    flags = match_lemma([text[a:b] for a, b in spans], lemma, lang=lang, method=method)
    return [span for span, keep in zip(spans, flags, strict=True) if keep]
