"""Builders the tests share, in one place: small corpora, datasets (WUG, WiC, WordNet) and runs written to disk.

A test module imports what it needs (``from helpers import make_change_wug``; ``tests/`` is on ``sys.path`` under
pytest); a builder used by one module only stays in that module, built from the pieces here.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

#: The header of a WUG ``uses.csv`` (tab-separated, quoting off).
WUG_USES_HEADER = (
    "lemma\tpos\tdate\tgrouping\tidentifier\tdescription\tcontext\tindexes_target_token\tindexes_target_sentence"
)
#: The header of a WUG ``judgments.csv``.
WUG_JUDGMENTS_HEADER = "identifier1\tidentifier2\tannotator\tjudgment"
#: The header of a WUG cluster file (``clusters/opt/<word>.csv``).
WUG_CLUSTERS_HEADER = "identifier\tcluster"


def write_lines(path: Path, lines: Iterable[str]) -> Path:
    """Write ``lines`` to ``path`` (UTF-8, each ended by a newline), creating its folder; return ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def wug_use(
    word: str, grouping: str, ident: str, context: str, span: str, *, date: str = "1850", sentence: str | None = None
) -> str:
    """One row of a WUG ``uses.csv``; the target sentence is the whole context unless ``sentence`` says otherwise."""
    sentence = f"0:{len(context)}" if sentence is None else sentence
    return f"{word}\tNN\t{date}\t{grouping}\t{ident}\t\t{context}\t{span}\t{sentence}"


def write_wug(
    root: Path,
    uses: Mapping[str, Sequence[str]],
    *,
    judgments: Mapping[str, Sequence[str]] | None = None,
    clusters: Mapping[str, Sequence[str]] | None = None,
    stats: Sequence[str] | None = None,
    suffix: str = ".csv",
    stats_dir: str = "stats/opt",
) -> Path:
    """A WUG folder at ``root``: ``data/<folder>/uses`` (and ``judgments``) per word folder, ``clusters/opt``, stats.

    Parameters
    ----------
    root : Path
        The dataset folder to write.
    uses : mapping
        Word folder name -> rows of its ``uses`` file (:func:`wug_use`), the header added here.
    judgments : mapping, optional
        Word folder name -> rows of its ``judgments.csv`` (``id1, id2, annotator, judgment``), header added.
    clusters : mapping, optional
        Word -> rows of ``clusters/opt/<word><suffix>`` (``identifier, cluster``), header added.
    stats : sequence of str, optional
        The lines of ``<stats_dir>/stats_groupings<suffix>``, header included.
    suffix, stats_dir : str
        The files' suffix and the stats folder (the layouts of the published WUG datasets differ).

    Returns
    -------
    Path
        ``root``.
    """
    for folder, rows in uses.items():
        write_lines(root / "data" / folder / f"uses{suffix}", [WUG_USES_HEADER, *rows])
    for folder, rows in (judgments or {}).items():
        write_lines(root / "data" / folder / "judgments.csv", [WUG_JUDGMENTS_HEADER, *rows])
    for word, rows in (clusters or {}).items():
        write_lines(root / "clusters" / "opt" / f"{word}{suffix}", [WUG_CLUSTERS_HEADER, *rows])
    if stats is not None:
        write_lines(root / stats_dir / f"stats_groupings{suffix}", stats)
    return root


# ----------------------------------------------------------------------------------------------------------
# A WUG dataset of change with known answers (wsd evaluate --dataset wug, usage-pair agreement)

#: word -> (senses of the uses in period 1, in period 2): gold clusters and the vectors' directions.
CHANGE_SENSES = {
    "stable": ([0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1]),  # the same distribution: JSD 0
    "half": ([0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 1, 1]),  # a sense gained: JSD sqrt(JS([1,0],[.5,.5]))
    "swap": ([0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1]),  # the senses swap: JSD 1
}
GOLD_GRADED = {"stable": 0.0, "half": 0.5, "swap": 1.0}
GOLD_BINARY = {"stable": 0, "half": 1, "swap": 1}


def make_change_wug(
    root: Path, clusters: bool = True, graded: bool = True, periods: tuple[str, str] = ("1", "2")
) -> Path:
    """Three words of 12 uses each (:data:`CHANGE_SENSES`); contexts with bare quotes; stats with k=1, n=3 (as
    NorDiaChange)."""
    uses: dict[str, list[str]] = {}
    cluster_rows: dict[str, list[str]] = {}
    for word, by_period in CHANGE_SENSES.items():
        uses[word], cluster_rows[word] = [], []
        for period, senses in zip(periods, by_period, strict=True):
            for i, sense in enumerate(senses):
                context = f'a "{word}" of kind {sense} here'
                start = context.index(word)
                ident = f"{word}_{period}_{i}"
                uses[word].append(
                    wug_use(word, period, ident, context, f"{start}:{start + len(word)}", date="1900", sentence="0:9")
                )
                cluster_rows[word].append(f"{ident}\t{sense}")
        cluster_rows[word].append(f"{word}_x\t-1")  # noise of a use that is not there: ignored
    header = "lemma\tgrouping\tchange_binary\tk1\tn1\t" + ("change_graded\t" if graded else "") + "COMPARE"
    rows = [
        f"{word}\t1_2\t{GOLD_BINARY[word]}\t1\t3\t" + (f"{GOLD_GRADED[word]}\t" if graded else "") + f"{4 - 2 * g}"
        for word, g in GOLD_GRADED.items()
    ]
    return write_wug(root, uses, clusters=cluster_rows if clusters else None, stats=[header, *rows])


def change_wug_vectors(occurrences: pd.DataFrame) -> np.ndarray:
    """Well-separated vectors for :func:`make_change_wug`: one direction per (word, gold sense), a little seeded
    noise."""
    rng = np.random.default_rng(0)
    X = np.zeros((len(occurrences), 8))
    for row, (word, ident) in enumerate(zip(occurrences["target"], occurrences["id"], strict=True)):
        period, i = ident.split("_")[1:]
        sense = CHANGE_SENSES[word][0 if period in ("1", "1700-1916") else 1][int(i)]
        X[row, 2 * sense + (4 if word == "swap" else 0)] = 1.0
    return X + rng.normal(scale=0.01, size=X.shape)


def change_wug_config(root: Path, **extra: object):
    """The evaluation configuration of :func:`make_change_wug`'s folder: k-means with k = 2."""
    from wsd.config import build_evaluation_config

    return build_evaluation_config(dataset="wug", data=str(root), method="kmeans", k=2, **extra)


# ----------------------------------------------------------------------------------------------------------
# A judged WUG dataset to tune on (wsd tune --train wug:...)

#: Two senses of three words, two uses each (the word is the first one of every context).
JUDGED_SENSES = {
    "bank": [
        ["bank of the river was muddy", "bank of the stream flooded"],
        ["bank lent him money", "bank raised rates"],
    ],
    "mouse": [["mouse ran under the table", "mouse ate the cheese"], ["mouse needs a battery", "mouse was clicked"]],
    "bat": [["bat flew out of the cave", "bat hunts insects"], ["bat was made of willow", "bat hit the ball"]],
}


def make_judged_wug(root: Path) -> Path:
    """A WUG folder: every pair of uses of a word (:data:`JUDGED_SENSES`) judged 4 (same sense) or 1 (different),
    by one annotator; word folders ``<word>_nn``."""
    uses: dict[str, list[str]] = {}
    judgments: dict[str, list[str]] = {}
    for word, senses in JUDGED_SENSES.items():
        folder, ids = f"{word}_nn", []
        uses[folder] = []
        for sense, texts in enumerate(senses):
            for k, text in enumerate(texts):
                ident = f"{word}{sense}{k}"
                uses[folder].append(wug_use(word, str(sense), ident, text, f"0:{len(word)}", date="1900"))
                ids.append((ident, sense))
        judgments[folder] = [
            f"{a}\t{b}\tA\t{4 if sa == sb else 1}" for (a, sa), (b, sb) in itertools.combinations(ids, 2)
        ]
    return write_wug(root, uses, judgments=judgments)


# ----------------------------------------------------------------------------------------------------------
# Small corpora of *mouse* and *bank*


def mouse_bank_lines(repeats: int) -> list[str]:
    """``3 * repeats`` lines: a *mouse* and a *bank* (river), a line with no target, a *mouse* and a *bank*
    (account); 4 occurrences per repeat."""
    lines = []
    for i in range(repeats):
        lines.append(f"Sentence {i}: the mouse ran past the bank of the river number {i}.")
        lines.append(f"Line {i} has no target at all.")
        lines.append(f"Click mouse button {i} to open the bank account.")
    return lines


def mice_line(i: int) -> str:
    """Line ``i`` of a corpus of *mouse*, *bank* and the plural *mice* (``i % 3`` of them)."""
    return f"Line {i}: the mouse ran to the bank, and {i % 3} mice followed."


# ----------------------------------------------------------------------------------------------------------
# Hand-made runs with a ``year`` column (wsd change, wsd report)

#: The runs below hold 10 to 19 uses a slice, under the default floor (20): the tests that are not about the
#: floor lower it to this.
SMALL = 10
SMALL_FLAG = str(SMALL)

#: target -> (year, sense) of each use in :func:`make_run`'s run: ``swap`` uses sense A in 1900 and sense B in 2000,
#: ``calm`` both in both, ``solo`` only 4 uses in 1900 (below every floor: ``wsd change`` cannot measure it).
RUN_YEARS: dict[str, tuple[list[int], list[int]]] = {
    "swap": ([1900] * 12 + [2000] * 12, [0] * 12 + [1] * 12),
    "calm": ([1900] * 12 + [2000] * 12, [0, 1] * 12),
    "solo": ([1900] * 4, [0, 1, 0, 1]),
}
#: :data:`RUN_YEARS` without ``solo``: for the tests that draw reports of the run and are not about an unmeasured
#: target (every target adds its figures to each report; solo's cost a third of a report's time).
MEASURED_YEARS = {target: RUN_YEARS[target] for target in ("swap", "calm")}


def make_run(
    root: Path, years: dict[str, tuple[list[int], list[int]]] | None = None, fingerprint: str | None = None
) -> Path:
    """A run with a ``year`` column: the uses of :data:`RUN_YEARS` (or of ``years``), one vector direction per
    (target, sense)."""
    from wsd.io.run_store import write_run

    years = years or RUN_YEARS
    rows, vectors = [], []
    rng = np.random.default_rng(0)
    for t, (target, (ys, senses)) in enumerate(years.items()):
        for i, (year, sense) in enumerate(zip(ys, senses, strict=True)):
            text = f"the {target} near the {('river', 'money')[sense]} today"
            rows.append(
                {
                    "id": f"{target}:{i}",
                    "target": target,
                    "form": target,
                    "text": text,
                    "start": 4,
                    "end": 4 + len(target),
                    "doc_id": f"d{t}-{i}",
                    "doc_start": 0,
                    "year": year,
                }
            )
            vector = np.zeros(6)
            vector[2 * t + sense] = 1.0
            vectors.append(vector + rng.normal(scale=0.01, size=6))
    meta = {"config": {"made": "by hand"}} | ({"fingerprint": fingerprint} if fingerprint else {})
    return write_run(root, pd.DataFrame(rows), np.array(vectors), meta)


def make_run_with_change(root: Path, n_slices: int = 2) -> Path:
    """``swap``: sense 0 in the first slice, sense 1 in the last; ``calm``: both senses everywhere; senses and change
    written beside the run (``root/run``, ``root/senses``, ``root/change``)."""
    from wsd.change.stage import change_run
    from wsd.io.layout import SENSES_DIR
    from wsd.io.run_store import write_run
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.stage import fit_senses, write_senses

    rng = np.random.default_rng(0)
    rows, vectors = [], []
    words = ("river", "money")
    for t, target in enumerate(("swap", "calm")):
        for i in range(12 * n_slices):
            slice_ = i % n_slices
            sense = (1 if slice_ == n_slices - 1 else 0) if target == "swap" else (i // n_slices) % 2
            text = f"the {target} near the {words[sense]} today"
            rows.append(
                {"id": f"{target}{i}", "target": target, "form": target, "text": text, "start": 4,
                 "end": 4 + len(target), "doc_id": f"d{i}", "doc_start": 0, "year": 1900 + 10 * slice_}
            )  # fmt: skip
            vector = np.zeros(4)
            vector[2 * t + sense] = 5.0
            vectors.append(vector + rng.normal(scale=0.1, size=4))
    occurrences, X = pd.DataFrame(rows), np.array(vectors, dtype=np.float32)
    run = write_run(root / "run", occurrences, X, {"config": {}})
    model, _, proba = fit_senses(occurrences, X, SenseInducer(method="kmeans", k=2, random_state=0))
    write_senses(root / SENSES_DIR, occurrences, X, model, proba)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        change_run(run, root / SENSES_DIR, root / "change", by="year", min_uses=SMALL, measure="jsd")
    return root


# ----------------------------------------------------------------------------------------------------------
# A run without an encoder (the CLI's output and state checks)


def synthetic_run(path: Path, per_target: int = 12, dim: int = 8, seed: int = 0) -> Path:
    """A small complete run without an encoder: two targets, two clear clusters each."""
    from wsd.io.run_store import write_run

    rng = np.random.default_rng(seed)
    rows, vectors = [], []
    for target in ("bank", "mouse"):
        for i in range(per_target):
            text = f"a sentence {i} with the word {target} in it"
            start = text.index(target)
            rows.append((f"{target}-{i}", target, target, text, start, start + len(target), f"doc{i}", 0))
            centre = np.full(dim, 5.0 if i % 2 else -5.0)
            vectors.append(centre + rng.normal(size=dim))
    columns = ["id", "target", "form", "text", "start", "end", "doc_id", "doc_start"]
    meta = {"config": {"synthetic": True}, "embedding": {"model": "synthetic", "dim": dim}}
    return write_run(path, pd.DataFrame(rows, columns=columns), np.asarray(vectors), meta)


# ----------------------------------------------------------------------------------------------------------
# A tiny WiC dataset (wsd evaluate --dataset wic)

#: Eight WiC pairs of four lemmas (lemma, pos, indexes, first, second, gold T/F).
WIC_PAIRS = [
    ("bank", "N", "4-1", "I sat on the bank of the river .", "The bank raised its rates today .", "F"),
    ("bank", "N", "1-1", "The bank lent money .", "A bank charges interest .", "T"),
    ("run", "V", "1-1", "They run a shop .", "We run the business well .", "T"),
    ("run", "V", "1-1", "I run fast every morning .", "She ran a company .", "F"),
    ("play", "V", "1-3", "We play chess .", "The children will play outside .", "F"),
    ("play", "V", "1-1", "They play football .", "We play tennis .", "T"),
    ("light", "N", "1-1", "Turn light on .", "The light was bright .", "T"),
    ("light", "N", "1-1", "A light bag .", "The light of the sun .", "F"),
]


def write_wic(folder: Path, rows=WIC_PAIRS, name: str = "d", gold: list[str] | None = None) -> Path:
    """A WiC data file and its gold file beside it; returns the data file."""
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / f"{name}.data.txt"
    data.write_text("".join("\t".join(row[:5]) + "\n" for row in rows), encoding="utf-8")
    labels = gold if gold is not None else [row[5] for row in rows]
    (folder / f"{name}.gold.txt").write_text("".join(f"{label}\n" for label in labels), encoding="utf-8")
    return data


# ----------------------------------------------------------------------------------------------------------
# A tiny WordNet database whose examples and glosses make training pairs (wsd tune --train wordnet:DIR)

#: The data files' synsets (after the offset): words, pointers, gloss and quoted examples.
WORDNET_SYNSETS = {
    "noun": [
        "01 bank 0 002 @ 00000000 n 0000 ~ 00000000 n 0000 | sloping land beside water; "
        '"they pulled the canoe up on the bank"; "he sat on the banks of the river"',
        "03 depository_financial_institution 0 bank 1 banking_concern 0 000 | a financial institution; "
        '"he cashed a check at the bank"; "that bank holds the mortgage on my home"; "no word of it here"',
        '01 goose 0 000 | a web-footed bird; "the geese flew south"',
        '01 mouse 0 000 | a small rodent; "a mouse ran"',
    ],
    "verb": [
        '01 bank 0 000 01 + 02 00 | tip laterally; "the pilot had to bank the aircraft"',
        '01 take_a_breath 0 000 01 + 02 00 | breathe in; "she took a breath and dived"',
    ],
    "adj": ['01 ready_to_hand(p) 0 000 | easy to reach; "kept ready to hand"'],
    "adv": ["01 there 0 000 | in that place"],
}
#: The synset type letter of each data file.
WORDNET_TYPES = {"noun": "n", "verb": "v", "adj": "s", "adv": "r"}


def make_wordnet_with_examples(root: Path, offset_shift: int = 0, corrupt: str | None = None) -> Path:
    """A tiny WordNet database whose offsets are the lines' byte offsets (or shifted, to break it)."""
    root.mkdir(parents=True, exist_ok=True)
    for name, synsets in WORDNET_SYNSETS.items():
        lines = ["  1 This software and database is being provided to you, the LICENSEE  ", "  2 header  "]
        position = sum(len(line) + 1 for line in lines)
        for body in synsets:
            line = f"{position + offset_shift:08d} 05 {WORDNET_TYPES[name]} {body}  "
            lines.append(line)
            position += len(line.encode("utf-8")) + 1
        if corrupt and name == "noun":
            lines.append(corrupt)
        (root / f"data.{name}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "noun.exc").write_text("geese goose\n", encoding="utf-8")
    return root
