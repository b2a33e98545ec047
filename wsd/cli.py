"""The ``wsd`` command line: thin argument parsing over the Python API, with one-line errors.

Every problem the user can fix (missing corpus, unknown model, bad option value, malformed file) is printed
as ``wsd <command>: error: <what and where>`` with exit code 2; warnings are printed as one line each.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from wsd import __version__
from wsd.errors import WsdError

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (and exit code 2), pointing to ``--help``."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print ``<prog>: error: <message>`` and exit with code 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def positive_int(text: str) -> int:
    """argparse type: an integer ≥ 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number ≥ 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: an integer ≥ 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number ≥ 0, got {value}")
    return value


# ---------------------------------------------------------------------------------------------- options
def add_encoder_options(parser: argparse.ArgumentParser) -> None:
    """Options that choose the encoder and how word vectors are made."""
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
        default="sum-last-4",
        help=f"layer combination: {', '.join(NAMED_SPECS)}, a layer index (0 = embedding layer, -1 = last) "
        "or a list such as -4,-3,-2,-1 (summed; prefix mean: or concat: to change). Default: sum-last-4",
    )
    group.add_argument(
        "--pooling",
        default="mean",
        help=f"subword pooling: {', '.join(POOLINGS)} (default: mean)",
    )
    group.add_argument("--device", default=None, help="cpu, cuda, cuda:N or auto (default: auto)")
    group.add_argument(
        "--precision",
        default="auto",
        choices=PRECISIONS,
        help="compute precision: auto = bf16 where the hardware has it natively, else fp32; "
        "int8 = dynamic quantisation on CPU; fp16 on GPU (default: auto)",
    )
    group.add_argument("--batch-size", type=positive_int, default=64, help="windows per forward pass (default: 64)")
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


def add_scan_options(parser: argparse.ArgumentParser) -> None:
    """Options that choose what the corpus scan finds and the context of each occurrence."""
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


# ---------------------------------------------------------------------------------------------- commands
def command_embed(args: argparse.Namespace) -> int:
    """``wsd embed``: scan a corpus and store a vector for every occurrence."""
    from wsd.pipeline import embed_corpus

    run = embed_corpus(
        args.corpus,
        args.targets,
        args.out,
        forms=args.forms,
        lemmatizer=None if args.lemmatizer == "none" else args.lemmatizer,
        case_sensitive=args.case_sensitive,
        context=args.context,
        context_chars=args.context_chars,
        text_field=args.text_field,
        model=args.model,
        layers=args.layers,
        pooling=args.pooling,
        device=args.device,
        precision=args.precision,
        batch_size=args.batch_size,
        max_length=args.max_length,
        window_tokens=args.window_tokens,
        vector_dtype=args.vector_dtype,
        chunk_size=args.chunk_size,
        overwrite=args.overwrite,
        progress=not args.no_progress,
    )
    _print_run_summary(run)
    return 0


def command_demo(args: argparse.Namespace) -> int:
    """``wsd demo``: the whole pipeline on the bundled demo corpus and the bundled model."""
    from wsd.demo import run_demo

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
    """The ``wsd`` argument parser with all subcommands."""
    parser = OneLineParser(
        prog="wsd",
        description="Word-sense induction from contextual embeddings: scan → embed → cluster → evaluate → report.",
    )
    parser.add_argument("--version", action="version", version=f"wsd {__version__}")
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
    store.add_argument("--overwrite", action="store_true", help="replace a run with a different configuration")
    store.add_argument("--no-progress", action="store_true", help="no progress bar")
    embed.set_defaults(handler=command_embed)

    demo = commands.add_parser(
        "demo",
        help="run the whole pipeline on the bundled demo corpus with the bundled model",
        description="Scan, embed, cluster, evaluate and report on the bundled demo corpus (English and Russian "
        "ambiguous words with gold senses), using the bundled all-MiniLM-L6-v2.",
    )
    demo.add_argument("--out", required=True, help="output directory")
    demo.add_argument("--data", default=None, help="demo data folder (default: the bundled data/demo)")
    demo.add_argument("--no-progress", action="store_true", help="no progress bar")
    demo.set_defaults(handler=command_demo)
    return parser


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"wsd: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``wsd`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    warnings.showwarning = _one_line_warning
    try:
        return handler(args)
    except WsdError as exc:
        print(f"wsd {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"wsd {args.command}: interrupted; run the same command again to resume", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
