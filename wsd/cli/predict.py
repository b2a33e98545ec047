"""The ``wsd predict`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse

from wsd.errors import WsdError
from wsd.io.textfiles import check_utf8_text

NAME = "predict"
#: The one-line summary of ``wsd --help``.
SUMMARY = "assign occurrences to senses induced earlier, or to the senses of labelled examples"
#: The description of ``wsd predict --help``.
DESCRIPTION = (
    "Predict the senses of a run's occurrences with a saved sense model (wsd cluster's output). The run's "
    "vectors must come from the same encoder, layers and pooling. With --examples FILE --data FILE2 --out DIR "
    "(few-shot): each occurrence of FILE2 gets the sense of its nearest labelled examples of FILE, scored "
    "(accuracy, macro-F1) when FILE2 has a sense column."
)


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
    if args.examples is not None:
        return _predict_examples(args)
    if args.data is not None:
        raise WsdError("--data is labelled by --examples FILE: give the labelled examples too")
    if args.senses is None:
        raise WsdError("give --senses DIR (senses from wsd cluster) or --examples FILE (labelled examples)")
    if args.model is not None:
        raise WsdError("--model is the encoder of --examples: the senses of --senses name their own encoder")
    if args.texts:
        return _predict_texts(args)
    from wsd.senses.stage import predict_run

    if args.run is None:
        raise WsdError("give --run RUN (a run to label) or --text TEXT (texts to tag)")
    out = predict_run(
        args.senses, args.run, args.out, unknown="skip" if args.skip_unknown else "error", overwrite=args.overwrite
    )
    print(f"predicted senses written to {out}")
    return 0


def _predict_examples(args: argparse.Namespace) -> int:
    """``wsd predict --examples FILE``: label --data's occurrences (written to --out) or the --text texts."""
    if args.senses is not None or args.run is not None:
        raise WsdError("--examples replaces --senses and --run: leave them out")
    if args.texts:
        if args.data is not None or args.out is not None:
            raise WsdError("--text tags texts and writes nothing: leave out --data and --out")
        return _predict_texts(args)
    if args.data is None or args.out is None:
        raise WsdError("--examples FILE labels --data FILE2 into --out DIR: give both (or --text to tag texts)")
    from wsd.workflows.fewshot import predict_examples, summary

    document = predict_examples(
        args.examples,
        args.data,
        args.out,
        rule=args.rule,
        n_neighbors=args.neighbors,
        margin=args.margin,
        model=args.model,
        overwrite=args.overwrite,
    )
    print(summary(document, args.out))
    return 0


def _predict_texts(args: argparse.Namespace) -> int:
    """``wsd predict --text ...``: print the sense of the target in each text (wsd.load(...).predict).

    The texts and the target are checked before anything is loaded: an argument that is not UTF-8 (on POSIX it
    arrives as surrogate escapes) is one error naming the flag and the byte.
    """
    if args.run is not None or args.out is not None:
        raise WsdError("--text tags texts and writes nothing: leave out --run and --out")
    for text in args.texts:
        check_utf8_text(text, "--text")
    if args.target is not None:
        check_utf8_text(args.target, "--target")
    from wsd.workflows.tagger import SenseTagger, load

    if args.examples is not None:
        tagger = SenseTagger.from_examples(
            args.examples, rule=args.rule, n_neighbors=args.neighbors, margin=args.margin, model=args.model
        )
    else:
        tagger = load(args.senses)
    frame = tagger.predict(args.texts, target=args.target)
    for row in frame.itertuples():
        shares = " ".join(f"{p:.2f}" for p in row.probabilities)
        print(f"[{row.text_id}] {row.sense_id} p={row.probability:.2f} (senses: {shares}) {row.keywords}")
        print(f"    {row.text[: row.start]}[[{row.text[row.start : row.end]}]]{row.text[row.end :]}")
    return 0
