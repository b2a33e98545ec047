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
from wsd.errors import WsdError
from wsd.layout import CONFIG_FILE
from wsd.outputs import check_disjoint, session
from wsd.schema import CONFIG_COMMANDS, OPTIONS, add_options, options_of

if TYPE_CHECKING:
    from wsd.executors import Executor

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
#: The commands that take ``--config`` (declared in :mod:`wsd.schema`, which imports nothing heavy).
CONFIG_COMMANDS = CONFIG_COMMANDS
#: Values argparse must not take for options: negative numbers and lists of them (``-4,-3,-2,-1``).
NEGATIVE_VALUE = re.compile(r"^-\d+(?:,-?\d+)*$|^-\d*\.\d+$")
DEBUG_FLAG = "--debug"


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
    from wsd.config import read_config_file, resolve_config

    flags: dict[str, Any] = {}
    for option in options_of(command):
        value = getattr(args, option.attribute, None)
        if not option.config or value is None:
            continue
        if option.kind == "temperature" and value != "auto":
            try:
                value = float(value)
            except ValueError:
                raise WsdError(f"--temperature must be a number or auto, not {value!r}") from None
        flags[option.name] = value
    if command == "evaluate" and args.data is None and args.data_dir is not None:
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
        "tune": ("tune.train", "output.out"),
    }
    required["run"] = required["embed"]
    for name in required.get(command, ()):
        section, key = name.split(".")
        if config[section][key] is None:
            flag = OPTIONS[name].option_strings[0]
            raise WsdError(f"{flag} is required (or set {key} in [{section}] of --config)")
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
    from wsd.config import embedding_options, write_config
    from wsd.options import ExecutionOptions, ScanSettings
    from wsd.pipeline import embed_corpus

    config = command_config("embed", args)
    run = embed_corpus(
        config["scan"]["corpus"],
        config["scan"]["targets"],
        config["output"]["out"],
        scan=ScanSettings.from_config(config),
        embedding=embedding_options(config),
        execution=ExecutionOptions.from_config(config, executor=executor_for(config)),
        overwrite=args.overwrite,
        progress=not args.no_progress,
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

    from wsd.config import write_config
    from wsd.layout import META_FILE
    from wsd.options import SenseOptions
    from wsd.senses.recipes import make_inducer
    from wsd.senses.stage import cluster_run

    config = command_config("cluster", args)
    senses = SenseOptions.from_config(config)
    inducer = make_inducer(senses.params() | {"random_state": senses.seed})
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

    if args.texts:
        return _predict_texts(args)
    if args.run is None:
        raise WsdError("give --run RUN (a run to label) or --text TEXT (texts to tag)")
    out = predict_run(
        args.senses, args.run, args.out, unknown="skip" if args.skip_unknown else "error", overwrite=args.overwrite
    )
    print(f"predicted senses written to {out}")
    return 0


def _predict_texts(args: argparse.Namespace) -> int:
    """``wsd predict --text ...``: print the sense of the target in each text (wsd.load(...).predict)."""
    from wsd.tagger import load

    if args.run is not None or args.out is not None:
        raise WsdError("--text tags texts and writes nothing: leave out --run and --out")
    frame = load(args.senses).predict(args.texts, target=args.target)
    for row in frame.itertuples():
        shares = " ".join(f"{p:.2f}" for p in row.probabilities)
        print(f"[{row.text_id}] {row.sense_id} p={row.probability:.2f} (senses: {shares}) {row.keywords}")
        print(f"    {row.text[: row.start]}[[{row.text[row.start : row.end]}]]{row.text[row.end :]}")
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
    from wsd.config import evaluation_config, write_config
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
            offline=True if resolved["embedding"]["offline"] else None,
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
        bin_width=change["bin_width"],
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


def command_tune(args: argparse.Namespace) -> int:
    """``wsd tune``: train an encoder to tell senses apart, from labelled use pairs; write a model folder.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.tune.api import read_lemma_list, tune_encoder
    from wsd.tune.options import TuneOptions

    config = command_config("tune", args)
    tune = config["tune"]
    options = TuneOptions.from_settings(tune, progress=args.progress)  # checked before any source is read
    result = tune_encoder(
        tune["train"],
        config["output"]["out"],
        exclude=tune["exclude"] or (),
        exclude_lemmas=read_lemma_list(tune["exclude_lemmas"] or ()),
        options=options,
        overwrite=args.overwrite,
    )
    print(result.summary())
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
    from wsd.layout import METRICS_FILE, RUN_DIR, SENSES_DIR
    from wsd.locate import folder_kind
    from wsd.report import write_report

    source = Path(args.run)
    markers = (RUN_DIR, SENSES_DIR, METRICS_FILE)  # or any folder of a run's layout (wsd.locate)
    is_output_folder = source.is_dir() and (
        folder_kind(source) is not None or any((source / name).exists() for name in markers)
    )
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
        senses=args.report_senses,
        change=args.report_change,
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
    """The ``wsd`` argument parser with all subcommands, their flags generated from :mod:`wsd.schema`.

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
    for name, (summary, description) in COMMAND_TEXTS.items():
        command = commands.add_parser(name, help=summary, description=description)
        add_options(command, name)
        # the handler is looked up now (a test may replace one); command_name names the command in messages
        command.set_defaults(handler=globals()[f"command_{name}"], command_name=name)

    config = commands.add_parser(
        "config",
        help="print the default configuration as TOML, or check a configuration file",
        description="One TOML configuration serves wsd embed, cluster, run and evaluate (--config FILE). "
        "`wsd config show` prints the defaults; `wsd config validate FILE` checks a file against the schema.",
    )
    actions = config.add_subparsers(dest="action", metavar="ACTION", parser_class=OneLineParser)
    add_options(actions.add_parser("show", help="print the defaults as TOML"), "config show")
    add_options(
        actions.add_parser("validate", help="check a configuration file (unknown keys, wrong types)"),
        "config validate",
    )
    config.set_defaults(handler=command_config_tool, command_name="config")  # its --command is another option
    return parser


#: Each command's one-line summary (``wsd --help``) and description (``wsd COMMAND --help``), in the order
#: ``wsd --help`` lists them; its handler is ``command_<name>`` and its flags come from :mod:`wsd.schema`.
COMMAND_TEXTS: dict[str, tuple[str, str]] = {
    "embed": (
        "find every occurrence of the targets in a corpus and store a contextual vector for each",
        "Scan a corpus for target words and store, for every occurrence, a contextual word vector. "
        "The output directory is resumable: re-run the same command after an interruption.",
    ),
    "cluster": (
        "induce the senses of every target of a run (wsd embed's output)",
        "Cluster each target's occurrence vectors into senses, describe each sense (size, examples, "
        "distinguishing words) and save a sense model that can predict senses of new runs.",
    ),
    "predict": (
        "assign the occurrences of a run to senses induced earlier",
        "Predict the senses of a run's occurrences with a saved sense model (wsd cluster's output). "
        "The run's vectors must come from the same encoder, layers and pooling.",
    ),
    "evaluate": (
        "embed, cluster and score a labelled dataset with its official metrics",
        "Evaluate sense induction on SemEval-2013 Task 13, SemEval-2010 Task 14, RUSSE-2018 or your "
        "own labelled data (generic format), with mean ± std over seeds and the trivial baselines.",
    ),
    "score": (
        "score a system key file against a gold key file",
        "Score an existing key file (lemma.pos instance sense[/weight] ...) with the dataset's "
        "official metrics; SemEval-2013 scores reproduce the official scorer.",
    ),
    "report": (
        "write report.html, report.md and the plots of a run, an evaluation or experiment results",
        "Sense maps, sense cards, confusion heatmaps and score plots of the --out folder of `wsd run`, "
        "`wsd demo` or `wsd evaluate`; or plots of experiment results (a .json file or a folder of them).",
    ),
    "run": (
        "the whole job on a corpus: scan, embed, cluster, (evaluate against gold labels), (report)",
        "Scan a corpus for the targets, embed every occurrence, induce each target's senses and, "
        "given --gold labels in the generic format, score them; --report writes report.html.",
    ),
    "change": (
        "compare each target's senses between slices of a metadata column (year, source, ...)",
        "Per target: sense counts and proportions in every slice, change scores (JSD, APD, PRT, the "
        "binary WUG rule) between consecutive slices and first vs last (or --between A,B), senses that appeared "
        "or vanished, and the targets ranked by change. Writes RUN/change (or --out).",
    ),
    "tune": (
        "train an encoder to tell senses apart, from usage judgments and sense-labelled examples",
        "Fine-tune an encoder (the bundled MiniLM unless --model) on labelled pairs of uses of a word: WUG "
        "judgments, WiC pairs, sense datasets, WordNet examples. Trains the word vectors wsd uses (the target's "
        "subwords pooled over --layers) and writes a model folder that --model DIR loads everywhere, with a model "
        "card of the sources, lemmas, options and validation figures. Lemmas held out with --exclude or "
        "--exclude-lemmas are never trained on; an interrupted run resumes from OUT/checkpoint.",
    ),
    "demo": (
        "run the whole pipeline on the bundled demo corpus with the bundled model",
        "Scan, embed, cluster, evaluate and report on the bundled demo corpus (English and Russian "
        "ambiguous words with gold senses), using the bundled all-MiniLM-L6-v2.",
    ),
}


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
    name = getattr(args, "command_name", None) or args.command  # wsd <name>: error: ...
    previous_showwarning = warnings.showwarning
    warnings.showwarning = _one_line_warnings()
    try:
        with session():  # every folder the command writes stays locked until it ends (wsd.outputs)
            return handler(args)
    except WsdError as exc:
        print(f"wsd {name}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"wsd {name}: interrupted; run the same command again to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:  # every errno: the disk, a name too long, a dangling link, ... (one line, the path)
        if debug:
            raise
        print(f"wsd {name}: error: {os_error_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # the last line of defence: one line, and the traceback on request
        if debug:
            raise
        message = str(exc).splitlines()[0] if str(exc) else ""
        print(
            f"wsd {name}: unexpected error: {type(exc).__name__}: {message} "
            "(a bug in wsd or an unchecked input; re-run with --debug for the traceback)",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    finally:
        warnings.showwarning = previous_showwarning


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
