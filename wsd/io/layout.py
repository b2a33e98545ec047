"""The names of every folder and file wsd writes: a run, its parts, a senses folder, an output folder.

The one place these names are defined; every module that writes or reads them asks here. Three folders:

A **run** (``wsd embed --out RUN``, :func:`wsd.load_run`): the occurrences and their vectors::

    RUN/meta.json                what made it: config, encoder identity, vectors' metadata, versions
    RUN/occurrences.parquet      the occurrence table (consolidated run)
    RUN/vectors.npy              row-aligned vectors (consolidated run)
    RUN/parts/                   while running, or for good in a sharded run:
        shards.json              the units of work
        occ-SSSSS-CCCCC.parquet  chunk C of shard S: occurrences
        vec-SSSSS-CCCCC.npy      chunk C of shard S: vectors
        sum-SSSSS-CCCCC.json     chunk C of shard S: rows, sizes and SHA-256 of both files (a chunk is done
                                 once it has this record, written after them)
        shard-SSSSS.json         shard S is done: what it found, with the records of its chunks
    RUN/predicted.parquet        senses predicted for the run by ``wsd predict``
    RUN/change/                  the change folder of ``wsd change`` (below)

A **senses** folder (``wsd cluster``; ``RUN/senses`` by default)::

    senses/model/            the sense model: sense_model.json + one folder of .npy arrays per target
    senses/labels.parquet    one row per occurrence
    senses/senses.parquet    one row per sense
    senses/senses.md         the same as Markdown
    senses/meta.json         inducer parameters, embedding identity, senses per target, versions

A **change** folder (``wsd change``; ``RUN/change`` by default, ``OUT/change`` for ``wsd run --by``)::

    change/change.json                 settings, slices and every table as records (with sense cards)
    change/ranking.parquet|.csv        targets ranked by the change score
    change/scores.parquet|.csv         every target and pair of slices: JSD, APD, PRT, binary decision
    change/counts.parquet|.csv         sense counts and proportions per target and slice
    change/sense_changes.parquet|.csv  senses that appeared or vanished (judged with counts), keywords, examples
    change/timeline.parquet|.csv       every slice against the next: score, interval, uses
    change/trends.parquet|.csv         each sense's proportion against the slice order: Kendall tau, slope, interval
    change/largest_change.parquet|.csv each target's pair of slices of largest change
    change/unmeasured.csv              target/pair combinations whose change cannot be measured, and why

An **output** folder (``wsd run``, ``wsd demo``, ``wsd evaluate``; ``wsd report`` reads it)::

    OUT/run/  OUT/senses/  OUT/change/   as above
    OUT/metrics.json         scores (:mod:`wsd.workflows.results`)
    OUT/per_target.csv       scores per target (``wsd evaluate``)
    OUT/change.csv           change scores per target beside the gold change (``wsd evaluate --dataset wug``)
    OUT/pairs.csv            every scored use pair: cosine, threshold, prediction (``wsd evaluate --dataset wic``)
    OUT/system.seed<N>.key   the system key of seed N (``wsd evaluate``)
    OUT/gold.parquet         gold sense of every occurrence (``wsd run --gold``)
    OUT/report.html  OUT/report.md  OUT/report_figures/

A **few-shot** folder (``wsd predict --examples FILE --data FILE2 --out OUT``)::

    OUT/predicted.parquet    FILE2's occurrences with their senses
    OUT/metrics.json         the configuration and, when FILE2 is labelled, the scores
    OUT/model/               the few-shot model: few_shot_model.json + one folder of .npy arrays per target
                             (``wsd.load("OUT")``, ``wsd predict --examples OUT/model``)

An **encoder** folder (``wsd tune``, :mod:`wsd.tune`): the tuned encoder as ``transformers`` and
sentence-transformers save it, its model card ``README.md`` and ``wsd_tune.json`` (every file listed in its
manifest, like any folder wsd writes).
"""

from __future__ import annotations

# ------------------------------------------------------------------------------------------------ a run
META_FILE = "meta.json"
OCCURRENCES_FILE = "occurrences.parquet"
VECTORS_FILE = "vectors.npy"
PARTS_DIR = "parts"
PLAN_FILE = "shards.json"
OCCURRENCES_PART = "occ"
VECTORS_PART = "vec"
CHUNK_RECORD = "sum"
PART_SUFFIXES = {OCCURRENCES_PART: "parquet", VECTORS_PART: "npy", CHUNK_RECORD: "json"}
SHARD_MARKER = "shard"
PREDICTED_FILE = "predicted.parquet"

# ------------------------------------------------------------------------------------------------ senses
SENSES_DIR = "senses"
MODEL_DIR = "model"
SENSE_MODEL_FILE = "sense_model.json"
#: The few-shot model of labelled examples (``SenseTagger.save``; ``wsd predict --examples ... --out OUT``
#: writes it to ``OUT/model``): this file + one folder of .npy arrays per target.
FEW_SHOT_MODEL_FILE = "few_shot_model.json"
LABELS_FILE = "labels.parquet"
SENSES_FILE = "senses.parquet"
SENSES_MARKDOWN = "senses.md"

# ------------------------------------------------------------------------------------------------ change
CHANGE_DIR = "change"
CHANGE_JSON = "change.json"
CHANGE_RANKING = "ranking"  # .parquet and .csv
CHANGE_SCORES = "scores"
CHANGE_COUNTS = "counts"
CHANGE_SENSES = "sense_changes"
CHANGE_TIMELINE = "timeline"
CHANGE_TRENDS = "trends"
CHANGE_LARGEST = "largest_change"
#: The tables of a change folder, each written as ``<name>.parquet`` and ``<name>.csv``.
CHANGE_TABLES = (
    CHANGE_RANKING,
    CHANGE_SCORES,
    CHANGE_COUNTS,
    CHANGE_SENSES,
    CHANGE_TIMELINE,
    CHANGE_TRENDS,
    CHANGE_LARGEST,
)
CHANGE_UNMEASURED = "unmeasured.csv"

# ------------------------------------------------------------------------------------------------ output
RUN_DIR = "run"
METRICS_FILE = "metrics.json"
PER_TARGET_FILE = "per_target.csv"
CHANGE_CSV = "change.csv"
PAIRS_FILE = "pairs.csv"  # one row per use pair of ``wsd evaluate --dataset wic`` (wsd.workflows.wic)
GOLD_FILE = "gold.parquet"
REPORT_HTML = "report.html"
REPORT_MARKDOWN = "report.md"
FIGURES_DIR = "report_figures"
CONFIG_FILE = "config.toml"  # the resolved configuration of the command that wrote the folder (wsd.config)

# ------------------------------------------------------------------------------------------------ a tuned model
# ``wsd tune --out MODEL`` (wsd.tune): a Hugging Face / sentence-transformers model folder, plus
TUNE_FILE = "wsd_tune.json"  # what made it, machine-readable (training lemmas, sources, options, validation)
MODEL_CARD = "README.md"  # the model card: the same facts in words
TUNE_CHECKPOINT_DIR = "checkpoint"  # while training: weights, optimizer, step, RNG states (removed at the end)
TUNE_CHECKPOINT_STATE = "state.pt"

# ------------------------------------------------------------------------------------------------ every folder
#: The manifest of every folder wsd creates: the files it wrote, with sizes and checksums (wsd.io.manifest).
MANIFEST_FILE = "wsd-manifest.jsonl"
#: The lock of a folder being written (wsd.lock): the pid and host of the wsd process writing it.
LOCK_FILE = "wsd.lock"


def part_name(kind: str, shard: int, chunk: int) -> str:
    """File name of chunk ``chunk`` of shard ``shard`` of a run (names sort in corpus order).

    Parameters
    ----------
    kind : {"occ", "vec", "sum"}
        Occurrences (Parquet), vectors (``.npy``) or the chunk's checksum record (JSON).
    shard, chunk : int
        Shard and chunk number.

    Returns
    -------
    str

    Examples
    --------
    >>> part_name("vec", 3, 0)
    'vec-00003-00000.npy'
    """
    return f"{kind}-{shard:05d}-{chunk:05d}.{PART_SUFFIXES[kind]}"


def part_glob(kind: str) -> str:
    """Glob pattern of every part of ``kind``.

    Parameters
    ----------
    kind : {"occ", "vec", "sum"}
        Occurrences, vectors or checksum records.

    Returns
    -------
    str

    Examples
    --------
    >>> part_glob("occ")
    'occ-*.parquet'
    """
    return f"{kind}-*.{PART_SUFFIXES[kind]}"


def marker_name(shard: int) -> str:
    """File name of the done-marker of shard ``shard``.

    Parameters
    ----------
    shard : int
        The shard whose parts are all written.

    Returns
    -------
    str

    Examples
    --------
    >>> marker_name(7)
    'shard-00007.json'
    """
    return f"{SHARD_MARKER}-{shard:05d}.json"


def system_key_name(seed: int) -> str:
    """File name of the system key of ``seed`` in an evaluation's output folder.

    Parameters
    ----------
    seed : int
        The random seed of the clustering whose labels the key holds.

    Returns
    -------
    str

    Examples
    --------
    >>> system_key_name(0)
    'system.seed0.key'
    """
    return f"system.seed{seed}.key"


# ------------------------------------------------------------------------------------------------ OpenVINO cache
# the conversion cache of the OpenVINO runtime (wsd.embed.ov_runtime; $WSD_OPENVINO_CACHE): per model folder
# <source>.model.json, per converted layer set <source>-<layers>.ir.xml/.ir.bin/.ir.json, and OpenVINO's own cache
OPENVINO_MODEL_ENTRY = ".model.json"
OPENVINO_IR_MODEL = ".ir.xml"
OPENVINO_IR_WEIGHTS = ".ir.bin"
OPENVINO_IR_ENTRY = ".ir.json"
OPENVINO_COMPILED_DIR = "compiled"

# ------------------------------------------------------------------------------------------- calibration cache
# what `auto` measured (wsd.embed.calibration; $WSD_CALIBRATION_CACHE): per model and machine <key>.calibration.json,
# and the lock that makes a second process wait for the first one's measurement instead of measuring beside it
CALIBRATION_ENTRY = ".calibration.json"
CALIBRATION_LOCK = ".calibration.lock"
