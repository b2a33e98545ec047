"""The ``wsd`` command line: thin argument parsing over the Python API, with one-line errors.

Every problem the user can fix (missing corpus, unknown model, bad option value, malformed file) is printed
as ``wsd <command>: error: <what and where>`` with exit code 2; warnings are printed as one line each.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from wsd import __version__
from wsd.corpus.shards import DEFAULT_SHARD_BYTES
from wsd.errors import WsdError

if TYPE_CHECKING:
    from wsd.executors import Executor

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
DEBUG_FLAG = "--debug"
#: Operating-system errors about the disk, which the user fixes (exit 2, one line).
DISK_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES}
OVERWRITE_HELP = "write where wsd output of another configuration or other files are (only wsd's files are replaced)"


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (and exit code 2), pointing to ``--help``."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print ``<prog>: error: <message>`` and exit with code 2.

        Parameters
        ----------
        message : str
            What is wrong.
        """
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def positive_int(text: str) -> int:
    """argparse type: an integer ≥ 1.

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    int
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number ≥ 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: an integer ≥ 0.

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    int
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number ≥ 0, got {value}")
    return value


# ---------------------------------------------------------------------------------------------- options
def add_encoder_options(
    parser: argparse.ArgumentParser, defaults: bool = True, context_default: str = "none (the word's own vector)"
) -> None:
    """Options that choose the encoder and how word vectors are made (``defaults=False``: unset = None).

    ``context_default`` says in the help what an unset ``--context-vector`` means for this command.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The (sub)command's parser.
    defaults : bool
        Give the options their defaults (else unset options are None).
    context_default : str
        What the help says an unset ``--context-vector`` means.
    """
    from wsd.embed.layers import NAMED_SPECS
    from wsd.embed.models import PRECISIONS
    from wsd.embed.pooling import POOLINGS

    group = parser.add_argument_group("encoder")
    group.add_argument(
        "--model",
        default=None,
        help="encoder: a local Hugging Face model folder or a name already in the HF cache "
        "(default: the bundled all-MiniLM-L6-v2). Never downloaded, never trust_remote_code.",
    )
    group.add_argument(
        "--layers",
        default="sum-last-4" if defaults else None,
        help=f"layer combination: {', '.join(NAMED_SPECS)}, a layer index (0 = embedding layer, -1 = last) "
        "or a list such as -4,-3,-2,-1 (summed; prefix mean: or concat: to change). Default: sum-last-4",
    )
    group.add_argument(
        "--pooling",
        default="mean" if defaults else None,
        help=f"subword pooling: {', '.join(POOLINGS)} (default: mean)",
    )
    group.add_argument("--device", default=None, help="cpu, cuda, cuda:N or auto (default: auto)")
    group.add_argument(
        "--precision",
        default="auto" if defaults else None,
        choices=PRECISIONS,
        help="compute precision: auto = bf16 where the hardware has it natively, else fp32; "
        "int8 = dynamic quantisation on CPU; fp16 on GPU (default: auto)",
    )
    group.add_argument(
        "--batch-size",
        type=positive_int,
        default=None,
        help="windows per forward pass (default: 32 on a CPU, 256 on a GPU)",
    )
    group.add_argument(
        "--max-length",
        type=positive_int,
        default=None,
        help="longest window in subword tokens incl. special tokens (default: the model's limit, ≤ 512)",
    )
    group.add_argument(
        "--window-tokens",
        type=non_negative_int,
        default=None,
        help="at most N subword tokens either side of the target (default: as many as fit)",
    )
    group.add_argument(
        "--context-vector",
        default=None,
        help="append a pooled vector of the tokens around each occurrence: TOKENS[:LAYERS[:WEIGHT]], e.g. "
        "20:last:0.5, or none. Default: " + context_default,
    )


def add_scan_options(parser: argparse.ArgumentParser) -> None:
    """Options that choose what the corpus scan finds and the context of each occurrence.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The (sub)command's parser.
    """
    group = parser.add_argument_group("scan")
    group.add_argument(
        "--corpus",
        required=True,
        help="corpus file or folder: .txt/.txt.gz (one document per line), .jsonl (text field), "
        ".csv/.tsv/.parquet (text column)",
    )
    group.add_argument(
        "--targets",
        required=True,
        help="comma-separated target words, each optionally with forms after colons "
        "(mouse:mice,bank,шагать), or a file with one such item per line",
    )
    group.add_argument("--forms", default=None, help="forms file: lines target<TAB>form1,form2,...")
    group.add_argument(
        "--lemmatizer",
        default="none",
        choices=("none", "simplemma"),
        help="also match words whose lemma is a target (simplemma, offline; default: none = listed forms only)",
    )
    group.add_argument("--case-sensitive", action="store_true", help="match case exactly (default: ignore case)")
    group.add_argument(
        "--context",
        default="sentence",
        choices=("sentence", "window"),
        help="context passage of an occurrence: its sentence, or --context-chars either side (default: sentence)",
    )
    group.add_argument(
        "--context-chars",
        type=positive_int,
        default=1000,
        help="characters either side for --context window, and the cap for very long sentences (default: 1000)",
    )
    group.add_argument("--text-field", default="text", help="field/column holding the text (default: text)")


def scan_kwargs(args: argparse.Namespace) -> dict:
    """The scan options of a parsed command line, as keyword arguments of the Python API.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    dict
    """
    return {
        "lemmatizer": None if args.lemmatizer == "none" else args.lemmatizer,
        "case_sensitive": args.case_sensitive,
        "context": args.context,
        "context_chars": args.context_chars,
        "text_field": args.text_field,
    }


def encoder_kwargs(args: argparse.Namespace) -> dict:
    """The encoder options of a parsed command line, as keyword arguments of :class:`wsd.Encoder`.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    dict
    """
    from wsd.config import EMBEDDING_KEYS

    return {name: getattr(args, name) for name in EMBEDDING_KEYS}


def k_value(text: str) -> int | str:
    """argparse type: ``auto`` or a number of senses ≥ 1.

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    int or str
    """
    return "auto" if text == "auto" else positive_int(text)


def k_range_value(text: str) -> tuple[int, int]:
    """argparse type: an inclusive range of k such as ``2,7`` or ``2-7``.

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    (int, int)
    """
    parts = text.replace("-", ",").split(",")
    try:
        low, high = (int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected two numbers such as 2,7, got {text!r}") from None
    if not 1 <= low <= high:
        raise argparse.ArgumentTypeError(f"expected 1 ≤ low ≤ high, got {text!r}")
    return low, high


def add_sense_options(parser: argparse.ArgumentParser) -> None:
    """Options of the sense inducer (defaults: the ``default`` recipe, see wsd.senses.recipes).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The (sub)command's parser.
    """
    from wsd.senses.methods import METHODS
    from wsd.senses.recipes import RECIPES
    from wsd.senses.selection import SELECTIONS

    group = parser.add_argument_group("sense induction (unset options come from --recipe)")
    group.add_argument(
        "--recipe",
        default=None,
        choices=sorted(RECIPES),
        help="named parameter set to start from: default (wsd's recommended) or textbook (k-means, silhouette)",
    )
    group.add_argument("--method", default=None, choices=METHODS, help="clustering method or baseline")
    group.add_argument("--k", type=k_value, default=None, help="number of senses, or auto (chosen per word)")
    group.add_argument("--selection", default=None, choices=SELECTIONS, help="criterion that chooses k for --k auto")
    group.add_argument("--k-range", type=k_range_value, default=None, help="candidate k for --k auto, e.g. 2,7")
    group.add_argument("--center", action="store_true", default=None, help="centre each word's vectors on their mean")
    group.add_argument("--normalize", action="store_true", default=None, help="L2-normalise the vectors")
    group.add_argument("--pca", type=positive_int, default=None, help="reduce each word's vectors to N dimensions")
    group.add_argument("--whiten", action="store_true", default=None, help="whiten after PCA")
    group.add_argument(
        "--min-cluster-size", type=positive_int, default=None, help="merge senses smaller than N into the nearest"
    )
    group.add_argument(
        "--noise", default=None, choices=("nearest", "keep"), help="HDBSCAN noise: nearest sense or unassigned"
    )
    group.add_argument("--temperature", default=None, help="soft-membership temperature: a number or auto")


def sense_params(args: argparse.Namespace, include_recipe: bool = True) -> dict:
    """The sense-inducer parameters given on the command line (unset ones left out).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    include_recipe : bool
        Start from the ``--recipe`` parameters (default recipe when unset).

    Returns
    -------
    dict
    """
    params = {
        "method": args.method,
        "k": args.k,
        "selection": args.selection,
        "k_range": args.k_range,
        "center": args.center,
        "normalize": args.normalize,
        "pca": args.pca,
        "whiten": args.whiten,
        "min_cluster_size": args.min_cluster_size,
        "noise": args.noise,
    }
    if args.temperature is not None:
        try:
            params["temperature"] = "auto" if args.temperature == "auto" else float(args.temperature)
        except ValueError:
            raise WsdError(f"--temperature must be a number or auto, not {args.temperature!r}") from None
    params = {k: v for k, v in params.items() if v is not None}
    if include_recipe:
        from wsd.senses.recipes import recipe

        params = recipe(args.recipe or "default") | params
    return params


def add_distribution_options(parser: argparse.ArgumentParser, shards: bool = False) -> None:
    """Options that run the work on a Dask cluster (``shards``: also the corpus shard size).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The (sub)command's parser.
    shards : bool
        Also offer ``--shard-bytes``.
    """
    group = parser.add_argument_group("scale-out (Dask)")
    if shards:
        group.add_argument(
            "--shard-bytes",
            type=positive_int,
            default=DEFAULT_SHARD_BYTES,
            help="corpus bytes per shard, the unit of work (one task on a Dask cluster) "
            f"(default: {DEFAULT_SHARD_BYTES // 2**20} MiB)",
        )
    group.add_argument("--scheduler", default=None, help="address of a running Dask scheduler (tcp://host:8786)")
    group.add_argument("--workers", type=positive_int, default=None, help="start a local Dask cluster of N processes")
    group.add_argument(
        "--threads-per-worker", type=positive_int, default=1, help="threads of each local Dask worker (default: 1)"
    )


def executor_for(args: argparse.Namespace) -> Executor | None:
    """The executor of --scheduler/--workers (a Dask one), or None when the work runs in this process.

    Parameters
    ----------
    args : argparse.Namespace
        A parsed command line with the scale-out options.

    Returns
    -------
    Executor or None
        Also a ``map_function`` for the per-target stages.
    """
    if getattr(args, "scheduler", None) is None and getattr(args, "workers", None) is None:
        return None
    from wsd.executors import make_executor

    return make_executor(scheduler=args.scheduler, workers=args.workers, threads_per_worker=args.threads_per_worker)


# ---------------------------------------------------------------------------------------------- commands
def command_embed(args: argparse.Namespace) -> int:
    """``wsd embed``: scan a corpus and store a vector for every occurrence (on a Dask cluster if asked).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.pipeline import embed_corpus

    run = embed_corpus(
        args.corpus,
        args.targets,
        args.out,
        forms=args.forms,
        vector_dtype=args.vector_dtype,
        chunk_size=args.chunk_size,
        shard_bytes=args.shard_bytes,
        executor=executor_for(args),
        overwrite=args.overwrite,
        progress=not args.no_progress,
        **scan_kwargs(args),
        **encoder_kwargs(args),
    )
    _print_run_summary(run)
    return 0


def command_cluster(args: argparse.Namespace) -> int:
    """``wsd cluster``: induce senses for every target of a run.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    import json

    from wsd.layout import META_FILE
    from wsd.senses.recipes import make_inducer
    from wsd.senses.stage import cluster_run

    inducer = make_inducer(sense_params(args) | {"random_state": args.seed})
    out = cluster_run(
        args.run,
        args.out,
        inducer=inducer,
        n_examples=args.examples,
        n_keywords=args.keywords,
        map_function=executor_for(args),
        overwrite=args.overwrite,
    )
    senses = json.loads((out / META_FILE).read_text(encoding="utf-8"))["senses"]
    print(f"senses of {len(senses)} targets ({', '.join(f'{t}: {n}' for t, n in senses.items())}) in {out}")
    return 0


def command_predict(args: argparse.Namespace) -> int:
    """``wsd predict``: assign the occurrences of another run to earlier induced senses.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.senses.stage import predict_run

    out = predict_run(
        args.senses, args.run, args.out, unknown="skip" if args.skip_unknown else "error", overwrite=args.overwrite
    )
    print(f"predicted senses written to {out}")
    return 0


def command_evaluate(args: argparse.Namespace) -> int:
    """``wsd evaluate``: embed, cluster and score a labelled dataset.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.benchmark import evaluate
    from wsd.config import build_evaluation_config, read_config_file
    from wsd.results import format_table

    settings = read_config_file(args.config) if args.config else {}
    overrides = {
        "dataset": args.dataset,
        "data": args.data or args.data_dir,
        "seeds": args.seeds,
        "targets": [t.strip() for t in args.targets.split(",") if t.strip()] if args.targets else None,
        "graded": args.graded,
        "cache_dir": args.cache_dir,
        "recipe": args.recipe,
        **encoder_kwargs(args),
        **sense_params(args, include_recipe=False),
    }
    if args.split:
        settings.setdefault("dataset_options", {})["splits"] = args.split
    if args.gold_key:
        settings.setdefault("dataset_options", {})["key"] = args.gold_key
    config = build_evaluation_config(settings, **overrides)
    from wsd.senses.recipes import make_inducer

    make_inducer(config.senses)
    if args.report and not args.out:
        raise WsdError("--report needs --out (the folder the report is written into)")
    executor = executor_for(args)
    with executor or contextlib.nullcontext():  # one cluster for every seed
        result = evaluate(
            config, out=args.out, map_function=executor, progress=not args.no_progress, overwrite=args.overwrite
        )
    print(format_table(result))
    if args.out:
        print(f"metrics, per-target scores and system keys written to {args.out}")
    if args.report:
        from wsd.report import write_report

        print(f"report written to {write_report(args.out)}")
    return 0


def command_score(args: argparse.Namespace) -> int:
    """``wsd score``: score an existing system key file against a gold key file.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    import json

    from wsd.evaluate.keys import read_key
    from wsd.evaluate.scoring import baseline_keys_from_gold, score_keys
    from wsd.results import baseline_scores, format_table, metrics_document

    for option, path in (("--gold", args.gold), ("--system", args.system)):
        if Path(path).is_dir():
            raise WsdError(f"{option} {path} is a folder, not a key file")
    gold = read_key(args.gold)
    system = read_key(args.system)
    result = metrics_document(
        args.dataset,
        {"gold": str(args.gold), "system": str(args.system)},
        [score_keys(args.dataset, gold, system)],
        baseline_scores(args.dataset, gold, baseline_keys_from_gold(gold)),
        n_instances=sum(len(instances) for instances in gold.values()),
        n_targets=len(gold),
    )
    if args.format == "json":
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(format_table(result))
    return 0


def command_run(args: argparse.Namespace) -> int:
    """``wsd run``: scan → embed → cluster → (evaluate) → (report) on a corpus.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.demo import format_summary
    from wsd.pipeline import induce_corpus
    from wsd.senses.recipes import make_inducer

    params = sense_params(args)
    make_inducer(params)
    summary = induce_corpus(
        args.corpus,
        args.targets,
        args.out,
        forms=args.forms,
        gold=args.gold,
        recipe=args.recipe or "default",
        senses=params,
        seed=args.seed,
        report=args.report,
        progress=not args.no_progress,
        overwrite=args.overwrite,
        **scan_kwargs(args),
        **encoder_kwargs(args),
    )
    print(format_summary(summary))
    return 0


def command_report(args: argparse.Namespace) -> int:
    """``wsd report``: report.html (self-contained), report.md and the PNGs of a run, an evaluation or experiments.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.report import write_report

    path = write_report(
        args.run,
        args.out,
        projection=args.projection,
        experiments=args.experiments,
        max_points=args.max_points,
        n_examples=args.examples,
        random_state=args.seed,
        title=args.title,
        overwrite=args.overwrite,
    )
    from wsd.layout import FIGURES_DIR, REPORT_MARKDOWN

    print(f"report written to {path} (with {REPORT_MARKDOWN} and {FIGURES_DIR}/ beside it)")
    return 0


def command_demo(args: argparse.Namespace) -> int:
    """``wsd demo``: the whole pipeline on the bundled demo corpus and the bundled model.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.demo import run_demo
    from wsd.outputs import claim_folder

    claim_folder(args.out, "output", overwrite=args.overwrite)  # a folder of the user's is never written into
    summary = run_demo(args.out, data_dir=args.data, progress=not args.no_progress)
    print(summary)
    return 0


def _print_run_summary(run: Path) -> None:
    from wsd.store import read_meta

    meta = read_meta(run)
    counts = meta.get("scan", {}).get("occurrences", {})
    found = ", ".join(f"{t}: {n}" for t, n in counts.items())
    embedding = meta.get("embedding", {})
    print(
        f"{meta.get('n_occurrences', 0)} occurrences ({found}) from {meta['scan']['documents']} documents; "
        f"{embedding.get('dim')}-dim vectors ({embedding.get('model')}, {embedding.get('layers')}, "
        f"{embedding.get('pooling')}, {embedding.get('precision')}) in {run}"
    )


# ---------------------------------------------------------------------------------------------- parser
def build_parser() -> OneLineParser:
    """The ``wsd`` argument parser with all subcommands.

    Returns
    -------
    OneLineParser
    """
    parser = OneLineParser(
        prog="wsd",
        description="Word-sense induction from contextual embeddings: scan → embed → cluster → evaluate → report.",
    )
    parser.add_argument("--version", action="version", version=f"wsd {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an unexpected error (anywhere on the line)"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)

    embed = commands.add_parser(
        "embed",
        help="find every occurrence of the targets in a corpus and store a contextual vector for each",
        description="Scan a corpus for target words and store, for every occurrence, a contextual word vector. "
        "The output directory is resumable: re-run the same command after an interruption.",
    )
    add_scan_options(embed)
    add_encoder_options(embed)
    store = embed.add_argument_group("output")
    store.add_argument("--out", required=True, help="run directory to write (or resume)")
    store.add_argument(
        "--vector-dtype",
        default="float16",
        choices=("float16", "float32"),
        help="storage type (default: float16)",
    )
    store.add_argument(
        "--chunk-size",
        type=positive_int,
        default=8192,
        help="occurrences per stored part, the unit of resumption (default: 8192)",
    )
    store.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    store.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_distribution_options(embed, shards=True)
    embed.set_defaults(handler=command_embed)

    cluster = commands.add_parser(
        "cluster",
        help="induce the senses of every target of a run (wsd embed's output)",
        description="Cluster each target's occurrence vectors into senses, describe each sense (size, examples, "
        "distinguishing words) and save a sense model that can predict senses of new runs.",
    )
    cluster.add_argument("--run", required=True, help="run directory written by wsd embed")
    cluster.add_argument("--out", default=None, help="output folder (default: RUN/senses)")
    add_sense_options(cluster)
    cluster.add_argument("--seed", type=int, default=0, help="random state of every random choice (default: 0)")
    cluster.add_argument("--examples", type=positive_int, default=5, help="example occurrences per sense (default: 5)")
    cluster.add_argument("--keywords", type=positive_int, default=10, help="keywords per sense (default: 10)")
    cluster.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    add_distribution_options(cluster)
    cluster.set_defaults(handler=command_cluster)

    predict = commands.add_parser(
        "predict",
        help="assign the occurrences of a run to senses induced earlier",
        description="Predict the senses of a run's occurrences with a saved sense model (wsd cluster's output). "
        "The run's vectors must come from the same encoder, layers and pooling.",
    )
    predict.add_argument("--senses", required=True, help="folder written by wsd cluster")
    predict.add_argument("--run", required=True, help="run directory written by wsd embed")
    predict.add_argument("--out", default=None, help="output Parquet file (default: RUN/predicted.parquet)")
    predict.add_argument(
        "--skip-unknown", action="store_true", help="label targets the model has not seen -1 instead of failing"
    )
    predict.add_argument("--overwrite", action="store_true", help="replace an --out file that wsd did not write")
    predict.set_defaults(handler=command_predict)

    evaluate = commands.add_parser(
        "evaluate",
        help="embed, cluster and score a labelled dataset with its official metrics",
        description="Evaluate sense induction on SemEval-2013 Task 13, SemEval-2010 Task 14, RUSSE-2018 or your "
        "own labelled data (generic format), with mean ± std over seeds and the trivial baselines.",
    )
    evaluate.add_argument(
        "--dataset",
        default=None,
        choices=("semeval2013", "semeval2010", "russe2018", "generic"),
        help="dataset (default: semeval2013, or the config file's)",
    )
    evaluate.add_argument("--data-dir", default=None, help="folder holding the dataset (e.g. ../shared/datasets)")
    evaluate.add_argument("--data", default=None, help="dataset folder or file (generic: a .tsv or .jsonl file)")
    evaluate.add_argument("--split", default=None, help="RUSSE split(s): wiki-wiki, bts-rnc, active-dict, main, ...")
    evaluate.add_argument(
        "--targets", default=None, help="evaluate only these targets (comma-separated, e.g. add.v,bank.n)"
    )
    evaluate.add_argument("--gold-key", default=None, help="SemEval-2013 gold key name or path (default: all.key)")
    evaluate.add_argument("--config", default=None, help="TOML or YAML file describing the run (flags override it)")
    evaluate.add_argument("--seeds", type=positive_int, default=None, help="number of seeds (mean ± std; default 1)")
    evaluate.add_argument(
        "--graded",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="graded (soft) system keys from the sense memberships, or hard labels with --no-graded "
        "(default: from --recipe; the default recipe is graded)",
    )
    evaluate.add_argument("--out", default=None, help="output folder for metrics.json, keys and per-target CSV")
    evaluate.add_argument("--cache-dir", default=None, help="vector cache (default: $WSD_CACHE_DIR or ~/.cache/wsd)")
    evaluate.add_argument("--report", action="store_true", help="also write report.html, report.md and the plots")
    evaluate.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    evaluate.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_encoder_options(evaluate, defaults=False, context_default="from --recipe (default recipe: 20:last:0.5)")
    add_sense_options(evaluate)
    add_distribution_options(evaluate)
    evaluate.set_defaults(handler=command_evaluate)

    score = commands.add_parser(
        "score",
        help="score a system key file against a gold key file",
        description="Score an existing key file (lemma.pos instance sense[/weight] ...) with the dataset's "
        "official metrics; SemEval-2013 scores reproduce the official scorer.",
    )
    score.add_argument(
        "--dataset", required=True, choices=("semeval2013", "semeval2010", "russe2018", "generic"), help="metrics"
    )
    score.add_argument("--gold", required=True, help="gold key file")
    score.add_argument("--system", required=True, help="system key file")
    score.add_argument("--format", default="table", choices=("table", "json"), help="output format (default: table)")
    score.set_defaults(handler=command_score)

    report = commands.add_parser(
        "report",
        help="write report.html, report.md and the plots of a run, an evaluation or experiment results",
        description="Sense maps, sense cards, confusion heatmaps and score plots of the --out folder of `wsd run`, "
        "`wsd demo` or `wsd evaluate`; or plots of experiment results (a .json file or a folder of them).",
    )
    report.add_argument("--run", required=True, metavar="DIR", help="output folder, or experiment results")
    report.add_argument(
        "--out", default=None, metavar="DIR", help="where to write (default: the --run folder; NAME-report/ for a file)"
    )
    report.add_argument(
        "--projection",
        default="pca",
        choices=("pca", "tsne", "umap"),
        help="sense-map projection (default: pca; umap needs umap-learn)",
    )
    report.add_argument(
        "--max-points",
        type=positive_int,
        default=2000,
        help="occurrences drawn per map, a seeded sample beyond (default: 2000)",
    )
    report.add_argument(
        "--examples",
        type=int,
        default=5,
        choices=range(1, 6),
        metavar="N",
        help="example contexts per sense card, 1-5 (default: 5)",
    )
    report.add_argument(
        "--experiments",
        action="append",
        default=None,
        metavar="PATH",
        help="also plot these experiment results (repeatable)",
    )
    report.add_argument("--seed", type=int, default=0, help="random state of the map sample and t-SNE (default: 0)")
    report.add_argument("--title", default=None, help="the report's title")
    report.add_argument("--overwrite", action="store_true", help="write into an --out folder holding other files")
    report.set_defaults(handler=command_report)

    run = commands.add_parser(
        "run",
        help="the whole job on a corpus: scan, embed, cluster, (evaluate against gold labels), (report)",
        description="Scan a corpus for the targets, embed every occurrence, induce each target's senses and, "
        "given --gold labels in the generic format, score them; --report writes report.html.",
    )
    add_scan_options(run)
    add_encoder_options(run, context_default="from --recipe (default recipe: 20:last:0.5)")
    add_sense_options(run)
    run.add_argument("--seed", type=int, default=0, help="random state of every random choice (default: 0)")
    run.add_argument("--gold", default=None, help="gold labels (generic labelled format, .tsv or .jsonl)")
    run.add_argument("--report", action="store_true", help="also write report.html, report.md and the plots")
    run.add_argument("--out", required=True, help="output folder (run/, senses/, evaluation/, report)")
    run.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    run.set_defaults(handler=command_run)

    demo = commands.add_parser(
        "demo",
        help="run the whole pipeline on the bundled demo corpus with the bundled model",
        description="Scan, embed, cluster, evaluate and report on the bundled demo corpus (English and Russian "
        "ambiguous words with gold senses), using the bundled all-MiniLM-L6-v2.",
    )
    demo.add_argument("--out", required=True, help="output directory")
    demo.add_argument("--data", default=None, help="demo data folder (default: the bundled data/demo)")
    demo.add_argument("--no-progress", action="store_true", help="no progress bar")
    demo.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    demo.set_defaults(handler=command_demo)
    return parser


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"wsd: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``wsd`` console script; returns the exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 for an error the user can fix, 1 for an unexpected error (``--debug`` shows its
        traceback), 130 when interrupted.
    """
    parser = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    debug = DEBUG_FLAG in arguments
    args = parser.parse_args(([DEBUG_FLAG] if debug else []) + [a for a in arguments if a != DEBUG_FLAG])
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    previous_showwarning = warnings.showwarning
    warnings.showwarning = _one_line_warning
    try:
        return handler(args)
    except WsdError as exc:
        print(f"wsd {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"wsd {args.command}: interrupted; run the same command again to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:
        if exc.errno not in DISK_ERRORS or debug:
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"wsd {args.command}: error: {exc.strerror}{where}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # the last line of defence: one line, and the traceback on request
        if debug:
            raise
        message = str(exc).splitlines()[0] if str(exc) else ""
        print(
            f"wsd {args.command}: unexpected error: {type(exc).__name__}: {message} "
            "(a bug in wsd or an unchecked input; re-run with --debug for the traceback)",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    finally:
        warnings.showwarning = previous_showwarning


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
