"""The ``wsd`` command line: thin argument parsing over the Python API, with one-line errors.

Every problem the user can fix (missing corpus, unknown model, bad option value, malformed file) is printed
as ``wsd <command>: error: <what and where>`` with exit code 2; warnings are printed as one line each.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wsd import __version__
from wsd.corpus.shards import DEFAULT_SHARD_BYTES
from wsd.errors import WsdError
from wsd.layout import CONFIG_FILE
from wsd.outputs import check_disjoint, session

if TYPE_CHECKING:
    from wsd.executors import Executor

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
#: The commands that take ``--config`` (:data:`wsd.config.COMMANDS`; not imported here to keep ``--help`` fast).
CONFIG_COMMANDS = ("embed", "cluster", "run", "evaluate", "change")
#: Values argparse must not take for options: negative numbers and lists of them (``-4,-3,-2,-1``).
NEGATIVE_VALUE = re.compile(r"^-\d+(?:,-?\d+)*$|^-\d*\.\d+$")
DEBUG_FLAG = "--debug"
OVERWRITE_HELP = "write where wsd output of another configuration or other files are (only wsd's files are replaced)"


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (and exit code 2), pointing to ``--help``.

    A value that starts with ``-`` and is a number or a comma-separated list of numbers (``--layers -4,-3,-2,-1``)
    is read as the option's value, not as an unknown option.

    Parameters
    ----------
    *args, **kwargs
        As for :class:`argparse.ArgumentParser`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = NEGATIVE_VALUE

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
def add_encoder_options(parser: argparse.ArgumentParser, context_default: str = "none (the word's own vector)") -> None:
    """Options that choose the encoder and how word vectors are made (unset = None: the configuration's value).

    ``context_default`` says in the help what an unset ``--context-vector`` means for this command.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The (sub)command's parser.
    context_default : str
        What the help says an unset ``--context-vector`` means.
    """
    from wsd.embed.layers import NAMED_SPECS
    from wsd.embed.models import PRECISIONS
    from wsd.embed.ov_runtime import RUNTIMES
    from wsd.embed.pooling import POOLINGS

    group = parser.add_argument_group("encoder")
    group.add_argument(
        "--model",
        default=None,
        help="encoder: a local Hugging Face model folder or a Hub name such as intfloat/multilingual-e5-small "
        "(downloaded into the HF cache on first use; see --offline). Default: the bundled all-MiniLM-L6-v2 "
        "(English only). Never trust_remote_code.",
    )
    group.add_argument(
        "--offline",
        action="store_true",
        default=None,
        help="never touch the network: a Hub --model must already be in the Hugging Face cache "
        "(HF_HUB_OFFLINE=1 does the same)",
    )
    group.add_argument(
        "--layers",
        default=None,
        help=f"layer combination: {', '.join(NAMED_SPECS)}, a layer index (0 = embedding layer, -1 = last) "
        "or a list such as -4,-3,-2,-1 (summed; prefix mean: or concat: to change). Default: sum-last-4",
    )
    group.add_argument(
        "--pooling",
        default=None,
        help=f"subword pooling: {', '.join(POOLINGS)} (default: mean)",
    )
    group.add_argument("--device", default=None, help="cpu, cuda, cuda:N or auto (default: auto)")
    group.add_argument(
        "--precision",
        default=None,
        choices=PRECISIONS,
        help="compute precision: auto = bf16 where the hardware has it natively, else fp32; "
        "int8 = dynamic quantisation on CPU; fp16 on GPU (default: auto)",
    )
    group.add_argument(
        "--runtime",
        default=None,
        choices=RUNTIMES,
        help="forward pass: torch (default), openvino (CPU; pip install 'wsd[openvino]': converted once, cached "
        "in $WSD_OPENVINO_CACHE, faster start-up and forward pass) or auto (openvino where installed, on a CPU)",
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
        help="corpus file or folder: .txt/.txt.gz (one document per line), .jsonl (text field), "
        ".csv/.tsv/.parquet (text column)",
    )
    group.add_argument(
        "--targets",
        help="comma-separated target words, each optionally with forms after colons "
        "(mouse:mice,bank,шагать), or a file with one such item per line",
    )
    group.add_argument("--forms", default=None, help="forms file: lines target<TAB>form1,form2,...")
    group.add_argument(
        "--lemmatizer",
        default=None,
        choices=("none", "simplemma"),
        help="also match words whose lemma is a target (simplemma, offline; default: none = listed forms only)",
    )
    group.add_argument(
        "--case-sensitive", action="store_true", default=None, help="match case exactly (default: ignore case)"
    )
    group.add_argument(
        "--context",
        default=None,
        choices=("sentence", "window"),
        help="context passage of an occurrence: its sentence, or --context-chars either side (default: sentence)",
    )
    group.add_argument(
        "--context-chars",
        type=positive_int,
        default=None,
        help="characters either side for --context window, and the cap for very long sentences (default: 1000)",
    )
    group.add_argument("--text-field", default=None, help="field/column holding the text (default: text)")
    group.add_argument(
        "--meta",
        type=comma_list,
        default=None,
        metavar="FIELDS",
        help="comma-separated fields (.jsonl) or columns (.csv/.tsv/.parquet) kept beside the text as metadata "
        "columns of the occurrence table, e.g. year,source",
    )
    group.add_argument(
        "--slice-from-path",
        default=None,
        metavar="REGEX",
        help="keep part of each corpus file's path (relative to the corpus) as metadata: the regex's first group "
        "becomes the column slice, e.g. '(\\d{4})'; named groups name their columns, e.g. '(?P<year>\\d{4})'",
    )


def comma_list(text: str) -> list[str]:
    """argparse type: a comma-separated list of names (``year,source``).

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    list of str
        The names, stripped; empty items dropped.
    """
    return [item.strip() for item in text.split(",") if item.strip()]


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
    from wsd.senses.methods import METHODS, SELECTIONS
    from wsd.senses.recipes import RECIPES

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
    group.add_argument(
        "--one-sense-below",
        type=float,
        default=None,
        help="--k auto: answer one sense when the best score (e.g. silhouette) is below this",
    )
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
            default=None,
            help="corpus bytes per shard, the unit of work (one task on a Dask cluster) "
            f"(default: {DEFAULT_SHARD_BYTES // 2**20} MiB)",
        )
    group.add_argument("--scheduler", default=None, help="address of a running Dask scheduler (tcp://host:8786)")
    group.add_argument("--workers", type=positive_int, default=None, help="start a local Dask cluster of N processes")
    group.add_argument(
        "--threads-per-worker", type=positive_int, default=None, help="threads of each local Dask worker (default: 1)"
    )


def executor_for(config: dict[str, dict[str, Any]]) -> Executor | None:
    """The executor of ``[execution]`` scheduler/workers (a Dask one), or None when the work runs in this process.

    Parameters
    ----------
    config : dict
        A resolved configuration (:func:`wsd.config.resolve_config`).

    Returns
    -------
    Executor or None
        Also a ``map_function`` for the per-target stages.
    """
    execution = config.get("execution", {})
    if execution.get("scheduler") is None and execution.get("workers") is None:
        return None
    from wsd.executors import make_executor

    return make_executor(
        scheduler=execution["scheduler"],
        workers=execution["workers"],
        threads_per_worker=execution["threads_per_worker"],
    )


# ---------------------------------------------------------------------------------------------- configuration
#: The setting (``section.key``, :mod:`wsd.config`) each option of embed/cluster/run/evaluate sets.
FLAG_SETTINGS = {
    **{name: f"scan.{name}" for name in ("corpus", "targets", "forms", "lemmatizer", "case_sensitive", "context")},
    **{name: f"scan.{name}" for name in ("context_chars", "text_field", "meta", "slice_from_path")},
    **{name: f"embedding.{name}" for name in ("model", "layers", "pooling", "precision", "runtime", "device")},
    **{name: f"embedding.{name}" for name in ("batch_size", "max_length", "window_tokens", "context_vector")},
    "offline": "embedding.offline",
    **{name: f"senses.{name}" for name in ("run", "recipe", "seed", "method", "k", "selection", "k_range", "center")},
    **{name: f"senses.{name}" for name in ("normalize", "pca", "whiten", "min_cluster_size", "noise", "temperature")},
    "one_sense_below": "senses.one_sense_below",
    **{name: f"evaluation.{name}" for name in ("gold", "dataset", "data", "split", "gold_key", "seeds", "graded")},
    "cache_dir": "evaluation.cache_dir",
    **{name: f"output.{name}" for name in ("out", "report", "vector_dtype", "chunk_size", "examples", "keywords")},
    **{name: f"execution.{name}" for name in ("shard_bytes", "scheduler", "workers", "threads_per_worker")},
    **{name: f"change.{name}" for name in ("by", "bins", "between", "measure", "binary_k", "binary_n")},
    **{name: f"change.{name}" for name in ("min_uses", "rank_by")},
    "change_run": "change.run",
    "change_senses": "change.senses",
}
#: Options whose name is not their destination's (``wsd change --run`` sets ``change.run``).
OPTION_NAMES = {"change.run": "--run", "change.senses": "--senses"}


def add_change_options(parser: argparse.ArgumentParser, slices: bool = True) -> None:
    """The options of comparing slices: ``--by``, ``--bins``, ``--between`` (with ``slices``), ``--measure``, k/n.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The (sub)command's parser.
    slices : bool
        Also the options that choose the slices (not for ``wsd evaluate``, whose slices are the WUG periods).
    """
    group = parser.add_argument_group("change across slices (see the README's Corpus analysis)")
    if slices:
        group.add_argument("--by", default=None, metavar="COLUMN", help="metadata column the slices come from")
        group.add_argument(
            "--bins", default=None, metavar="LOW:HIGH,...", help="bins of numeric values, both ends inclusive"
        )
        group.add_argument("--between", default=None, metavar="A,B", help="compare only these two slices")
    group.add_argument(
        "--measure", default=None, choices=("jsd", "apd", "prt"), help="change score to rank by (default: prt)"
    )
    group.add_argument(
        "--binary-k", type=non_negative_int, default=None, help="binary rule: at most k uses in one slice (default 1)"
    )
    group.add_argument(
        "--binary-n", type=positive_int, default=None, help="binary rule: at least n uses in the other (default 5)"
    )
    if slices:
        group.add_argument(
            "--min-uses",
            type=positive_int,
            default=None,
            help="fewest uses per slice; a pair below it goes to unmeasured.csv (default 10)",
        )
        group.add_argument(
            "--rank-by",
            default=None,
            choices=("lower", "score"),
            help="rank by the lower end of the 95%% bootstrap interval (default) or by the point score",
        )


def add_config_options(parser: argparse.ArgumentParser) -> None:
    """``--config FILE`` and ``--set SECTION.KEY=VALUE`` (see :mod:`wsd.config`).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The (sub)command's parser.
    """
    group = parser.add_argument_group("configuration (precedence: defaults < --config < options < --set)")
    group.add_argument(
        "--config", default=None, metavar="FILE", help="TOML file of settings ([scan], [embedding], [senses], ...)"
    )
    group.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="SECTION.KEY=VALUE",
        help="override one setting, e.g. --set senses.method=kmeans (a TOML value; repeatable)",
    )


def command_config(command: str, args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The resolved configuration of a command: defaults < ``--config`` < its options < ``--set``.

    Parameters
    ----------
    command : str
        ``embed``, ``cluster``, ``run`` or ``evaluate``.
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    dict
        ``section -> key -> value`` (:func:`wsd.config.resolve_config`).
    """
    from wsd.config import SCHEMA, read_config_file, resolve_config

    flags: dict[str, Any] = {}
    for dest, name in FLAG_SETTINGS.items():
        section, key = name.split(".")
        value = getattr(args, dest, None)
        if value is None or command not in SCHEMA[section][key].commands:
            continue
        if dest == "temperature" and value != "auto":
            try:
                value = float(value)
            except ValueError:
                raise WsdError(f"--temperature must be a number or auto, not {value!r}") from None
        if dest == "between":
            value = [item.strip() for item in value.split(",") if item.strip()]
        flags[name] = value
    if command == "evaluate":
        flags.pop("scan.targets", None)
        if args.targets:
            flags["evaluation.targets"] = [t.strip() for t in args.targets.split(",") if t.strip()]
        if args.data is None and args.data_dir is not None:
            flags["evaluation.data"] = args.data_dir
    file = read_config_file(args.config) if args.config else None
    config = resolve_config(command, file, flags, args.overrides, where=str(args.config or ""))
    out = config.get("output", {}).get("out")
    if args.config and out:  # OUT/config.toml is wsd's record of the command that wrote OUT: run again from it
        check_disjoint(out, {"--config": args.config}, allowed=[Path(out) / CONFIG_FILE])
    required = {
        "embed": ("scan.corpus", "scan.targets", "output.out"),
        "cluster": ("senses.run",),
        "change": ("change.run", "change.by"),
    }
    required["run"] = required["embed"]
    for name in required.get(command, ()):
        section, key = name.split(".")
        if config[section][key] is None:
            option = OPTION_NAMES.get(name) or "--" + next(d for d, n in FLAG_SETTINGS.items() if n == name).replace(
                "_", "-"
            )
            raise WsdError(f"{option} is required (or set {key} in [{section}] of --config)")
    return config


def _map_with_progress(executor: Executor | None, progress: bool) -> Any:
    """A map function over targets with a progress bar, on ``executor`` (this process when None)."""
    import functools

    from wsd.executors import SerialExecutor

    return functools.partial((executor or SerialExecutor()).map, progress="target" if progress else None)


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
    from wsd.config import encoder_kwargs, loading_kwargs, scan_kwargs, write_config
    from wsd.pipeline import embed_corpus

    config = command_config("embed", args)
    run = embed_corpus(
        config["scan"]["corpus"],
        config["scan"]["targets"],
        config["output"]["out"],
        forms=config["scan"]["forms"],
        vector_dtype=config["output"]["vector_dtype"],
        chunk_size=config["output"]["chunk_size"],
        shard_bytes=config["execution"]["shard_bytes"] or DEFAULT_SHARD_BYTES,
        executor=executor_for(config),
        overwrite=args.overwrite,
        progress=not args.no_progress,
        **scan_kwargs(config),
        **encoder_kwargs(config),
        **loading_kwargs(config),
    )
    write_config(run, config, "embed")
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

    from wsd.config import sense_params, write_config
    from wsd.layout import META_FILE
    from wsd.senses.recipes import make_inducer
    from wsd.senses.stage import cluster_run

    config = command_config("cluster", args)
    inducer = make_inducer(sense_params(config) | {"random_state": config["senses"]["seed"]})
    executor = executor_for(config)
    with executor or contextlib.nullcontext():
        out = cluster_run(
            config["senses"]["run"],
            config["output"]["out"],
            inducer=inducer,
            n_examples=config["output"]["examples"],
            n_keywords=config["output"]["keywords"],
            map_function=_map_with_progress(executor, not args.no_progress),
            overwrite=args.overwrite,
        )
    write_config(out, config, "cluster")
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
    from wsd.config import evaluation_config, loading_kwargs, write_config
    from wsd.results import format_table
    from wsd.senses.recipes import make_inducer

    resolved = command_config("evaluate", args)
    config = evaluation_config(resolved)
    make_inducer(config.senses)
    out, report = resolved["output"]["out"], resolved["output"]["report"]
    if report and not out:
        raise WsdError("--report needs --out (the folder the report is written into)")
    executor = executor_for(resolved)
    with executor or contextlib.nullcontext():  # one cluster for every seed
        result = evaluate(
            config,
            out=out,
            map_function=executor,
            progress=not args.no_progress,
            overwrite=args.overwrite,
            **loading_kwargs(resolved),
        )
    print(format_table(result))
    if out:
        write_config(out, resolved, "evaluate")
        print(f"metrics, per-target scores and system keys written to {out}")
    if report:
        from wsd.report import write_report

        print(f"report written to {write_report(out)}")
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
    from wsd.demo import format_summary, run_job

    config = command_config("run", args)
    summary = run_job(config, progress=not args.no_progress, overwrite=args.overwrite)
    print(format_summary(summary))
    return 0


def command_change(args: argparse.Namespace) -> int:
    """``wsd change``: compare the senses of a run's targets between slices of a metadata column.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    import pandas as pd

    from wsd.change.stage import change_run, format_ranking
    from wsd.config import write_config
    from wsd.layout import CHANGE_RANKING

    config = command_config("change", args)
    change = config["change"]
    out = change_run(
        change["run"],
        change["senses"],
        config["output"]["out"],
        by=change["by"],
        bins=change["bins"],
        between=change["between"],
        measure=change["measure"],
        binary_k=change["binary_k"],
        binary_n=change["binary_n"],
        min_uses=change["min_uses"],
        rank_by=change["rank_by"],
        overwrite=args.overwrite,
    )
    write_config(out, config, "change")
    ranking = pd.read_parquet(out / f"{CHANGE_RANKING}.parquet")
    shown = ", ".join(f"{r.target} {r.score:.3f}" for r in ranking.head(5).itertuples())
    measure = change["measure"]
    print(format_ranking(out))
    print(f"{len(ranking)} targets ranked by {measure} ({shown}{', ...' if len(ranking) > 5 else ''}) in {out}")
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
    from wsd.layout import META_FILE, METRICS_FILE, RUN_DIR, SENSES_DIR
    from wsd.report import write_report

    source = Path(args.run)
    markers = (RUN_DIR, SENSES_DIR, META_FILE, METRICS_FILE)
    is_output_folder = source.is_dir() and any((source / name).exists() for name in markers)
    if args.out is None and source.exists() and not is_output_folder:
        raise WsdError(
            f"--run {source} holds experiment results: give --out DIR for the report "
            "(it is never written into the results themselves)"
        )
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

    check_disjoint(args.out, {"--data": args.data})
    claim_folder(args.out, "output", overwrite=args.overwrite)  # a folder of the user's is never written into
    summary = run_demo(args.out, data_dir=args.data, progress=not args.no_progress, overwrite=args.overwrite)
    print(summary)
    return 0


def command_config_tool(args: argparse.Namespace) -> int:
    """``wsd config show|validate``: the default configuration as TOML, or a checked file.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.config import check_settings, read_config_file, resolve_config, to_toml

    if args.action == "show":
        header = f"The defaults of wsd {args.command}" if args.command else "Every setting and its default"
        print(to_toml(resolve_config(args.command), header + " (wsd config show)."), end="")
        return 0
    if args.action == "validate":
        data = read_config_file(args.file)
        checked = check_settings(data, args.file)
        if args.command:
            resolve_config(args.command, data, where=args.file)
        count = sum(len(table) for table in checked.values())
        print(f"{args.file}: valid ({count} settings in {len(checked)} sections)")
        return 0
    raise WsdError("choose an action: wsd config show or wsd config validate FILE")


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
    store.add_argument("--out", default=None, help="run directory to write (or resume)")
    store.add_argument(
        "--vector-dtype",
        default=None,
        choices=("float16", "float32"),
        help="storage type (default: float16)",
    )
    store.add_argument(
        "--chunk-size",
        type=positive_int,
        default=None,
        help="occurrences per stored part, the unit of resumption (default: 8192)",
    )
    store.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    store.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_distribution_options(embed, shards=True)
    add_config_options(embed)
    embed.set_defaults(handler=command_embed)

    cluster = commands.add_parser(
        "cluster",
        help="induce the senses of every target of a run (wsd embed's output)",
        description="Cluster each target's occurrence vectors into senses, describe each sense (size, examples, "
        "distinguishing words) and save a sense model that can predict senses of new runs.",
    )
    cluster.add_argument("--run", default=None, help="run directory written by wsd embed")
    cluster.add_argument("--out", default=None, help="output folder (default: RUN/senses)")
    add_sense_options(cluster)
    cluster.add_argument("--seed", type=int, default=None, help="random state of every random choice (default: 0)")
    cluster.add_argument(
        "--examples", type=positive_int, default=None, help="example occurrences per sense (default: 5)"
    )
    cluster.add_argument("--keywords", type=positive_int, default=None, help="keywords per sense (default: 10)")
    cluster.add_argument("--no-progress", action="store_true", help="no progress bar")
    cluster.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    add_distribution_options(cluster)
    add_config_options(cluster)
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
        choices=("semeval2013", "semeval2010", "russe2018", "generic", "wug"),
        help="dataset (default: semeval2013, or the config file's); wug: a Word Usage Graph folder (--data)",
    )
    evaluate.add_argument("--data-dir", default=None, help="folder holding the dataset (e.g. ../shared/datasets)")
    evaluate.add_argument("--data", default=None, help="dataset folder or file (generic: a .tsv or .jsonl file)")
    evaluate.add_argument("--split", default=None, help="RUSSE split(s): wiki-wiki, bts-rnc, active-dict, main, ...")
    evaluate.add_argument(
        "--targets", default=None, help="evaluate only these targets (comma-separated, e.g. add.v,bank.n)"
    )
    evaluate.add_argument("--gold-key", default=None, help="SemEval-2013 gold key name or path (default: all.key)")
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
    evaluate.add_argument(
        "--report", action="store_true", default=None, help="also write report.html, report.md and the plots"
    )
    evaluate.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    evaluate.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_encoder_options(evaluate, context_default="from --recipe (default recipe: 20:last:0.5)")
    add_sense_options(evaluate)
    add_change_options(evaluate, slices=False)
    add_distribution_options(evaluate)
    add_config_options(evaluate)
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
        "--out",
        default=None,
        metavar="DIR",
        help="where to write (default: the --run output folder; required for experiment results)",
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
    run.add_argument("--seed", type=int, default=None, help="random state of every random choice (default: 0)")
    run.add_argument("--gold", default=None, help="gold labels (generic labelled format, .tsv or .jsonl)")
    run.add_argument(
        "--report", action="store_true", default=None, help="also write report.html, report.md and the plots"
    )
    run.add_argument("--out", default=None, help="output folder (run/, senses/, metrics.json, config.toml, report)")
    run.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_change_options(run)
    add_config_options(run)
    run.set_defaults(handler=command_run)

    change = commands.add_parser(
        "change",
        help="compare each target's senses between slices of a metadata column (year, source, ...)",
        description="Per target: sense counts and proportions in every slice, change scores (JSD, APD, PRT, the "
        "binary WUG rule) between consecutive slices and first vs last (or --between A,B), senses that appeared "
        "or vanished, and the targets ranked by change. Writes RUN/change (or --out).",
    )
    change.add_argument("--run", dest="change_run", default=None, help="run folder written by wsd embed / wsd run")
    change.add_argument(
        "--senses", dest="change_senses", default=None, help="senses folder of the run (default: RUN/senses)"
    )
    change.add_argument("--out", default=None, help="change folder to write (default: RUN/change)")
    change.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    add_change_options(change)
    add_config_options(change)
    change.set_defaults(handler=command_change)

    demo = commands.add_parser(
        "demo",
        help="run the whole pipeline on the bundled demo corpus with the bundled model",
        description="Scan, embed, cluster, evaluate and report on the bundled demo corpus (English and Russian "
        "ambiguous words with gold senses), using the bundled all-MiniLM-L6-v2.",
    )
    demo.add_argument("--out", required=True, help="output directory")
    demo.add_argument("--data", default=None, help="demo data folder (default: the bundled demo corpus, wsd/demo_data)")
    demo.add_argument("--no-progress", action="store_true", help="no progress bar")
    demo.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    demo.set_defaults(handler=command_demo)

    config = commands.add_parser(
        "config",
        help="print the default configuration as TOML, or check a configuration file",
        description="One TOML configuration serves wsd embed, cluster, run and evaluate (--config FILE). "
        "`wsd config show` prints the defaults; `wsd config validate FILE` checks a file against the schema.",
    )
    actions = config.add_subparsers(dest="action", metavar="ACTION", parser_class=OneLineParser)
    show = actions.add_parser("show", help="print the defaults as TOML")
    show.add_argument("--command", default=None, choices=CONFIG_COMMANDS, help="only the settings it uses")
    validate = actions.add_parser("validate", help="check a configuration file (unknown keys, wrong types)")
    validate.add_argument("file", help="the TOML (or YAML) file")
    validate.add_argument("--command", default=None, choices=CONFIG_COMMANDS, help="also resolve it for COMMAND")
    config.set_defaults(handler=command_config_tool)
    return parser


def os_error_line(exc: OSError) -> str:
    """An operating-system error as one line: what went wrong and the path(s) it concerns.

    Parameters
    ----------
    exc : OSError
        The error (any errno; ``filename`` and ``filename2`` where the system gave them).

    Returns
    -------
    str

    Examples
    --------
    >>> os_error_line(FileExistsError(17, "File exists", "out/run"))
    'File exists: out/run'
    """
    what = exc.strerror or (str(exc).splitlines() or [type(exc).__name__])[0]
    paths = [str(name) for name in (exc.filename, exc.filename2) if name is not None]
    return f"{what}: {' -> '.join(paths)}" if paths else what


def _one_line_warnings() -> Callable[..., None]:
    """A ``warnings.showwarning`` that prints each warning as one line, and the same message only once."""
    shown: set[str] = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if str(message) not in shown:
            shown.add(str(message))
            print(f"wsd: warning: {message}", file=sys.stderr)

    return show


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
    warnings.showwarning = _one_line_warnings()
    try:
        with session():  # every folder the command writes stays locked until it ends (wsd.outputs)
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
    except OSError as exc:  # every errno: the disk, a name too long, a dangling link, ... (one line, the path)
        if debug:
            raise
        print(f"wsd {args.command}: error: {os_error_line(exc)}", file=sys.stderr)
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
