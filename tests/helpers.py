"""Builders the tests share, in one place: small corpora and WUG folders written to disk, and the data behind them.

A test module imports what it needs (``from helpers import make_change_wug``; ``tests/`` is on ``sys.path`` under
pytest); a builder used by one module only stays in that module, built from the pieces here.
"""

from __future__ import annotations

import itertools
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
