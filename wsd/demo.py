"""``wsd demo``: the whole pipeline on the bundled demo corpus with the bundled model.

The demo corpus (``wsd/demo_data``, package data, copied as plain files into ``data/demo`` of the source tree: English
*mouse, bank, plant, bat, cell* and Russian *замок, лук, ключ, шагать*, original sentences with gold senses)
is scanned, embedded, clustered, scored against its gold labels and reported, in ``OUT``, which also records
the configuration (``config.toml``): ``wsd run --config OUT/config.toml`` does the same again.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from wsd.config import Config, embedding_options, resolve_config, write_config
from wsd.corpus.targets import read_forms_file
from wsd.errors import ConfigError, InputError
from wsd.options import ChangeOptions, ExecutionOptions, ScanSettings, SenseOptions

DEMO_FILES = ("corpus.txt", "forms.tsv", "labelled.tsv")


def demo_data_dir(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The demo data folder: ``data_dir``, ``$WSD_DEMO_DIR``, or the bundled ``wsd/demo_data`` (package data).

    Parameters
    ----------
    data_dir : path, optional
        A folder with the demo files.

    Returns
    -------
    Path
    """
    candidates = [Path(data_dir)] if data_dir else []
    if os.environ.get("WSD_DEMO_DIR"):
        candidates.append(Path(os.environ["WSD_DEMO_DIR"]))
    candidates.append(Path(__file__).resolve().parent / "demo_data")
    for folder in candidates:
        if all((folder / name).is_file() for name in DEMO_FILES):
            return folder
    raise InputError(
        f"demo data not found (looked in {', '.join(str(c) for c in candidates)}); "
        f"pass --data DIR with {', '.join(DEMO_FILES)}"
    )


def demo_config(data_dir: str | os.PathLike[str] | None = None, out: str | os.PathLike[str] | None = None) -> Config:
    """The ``wsd run`` configuration of the demo: its corpus, targets, forms and gold labels, report if possible.

    Parameters
    ----------
    data_dir : path, optional
        The demo data folder (see :func:`demo_data_dir`).
    out : path, optional
        The output folder.

    Returns
    -------
    dict
        A resolved configuration (:func:`wsd.config.resolve_config`).
    """
    folder = demo_data_dir(data_dir)
    forms = folder / "forms.tsv"
    flags = {
        "scan.corpus": str(folder / "corpus.txt"),
        "scan.targets": ",".join(read_forms_file(forms)),
        "scan.forms": str(forms),
        "evaluation.gold": str(folder / "labelled.tsv"),
        "output.out": None if out is None else str(out),
        "output.report": _report_available(),
    }
    return resolve_config("run", flags=flags)


def run_job(config: Config, progress: bool = True, overwrite: bool = False) -> dict[str, Any]:
    """``wsd run`` of a resolved configuration: :func:`wsd.pipeline.induce_corpus`, then ``OUT/config.toml``.

    Parameters
    ----------
    config : dict
        A configuration resolved for ``run`` (:func:`wsd.config.resolve_config`).
    progress : bool
        Show progress bars.
    overwrite : bool
        Replace a run with a different configuration in the output folder.

    Returns
    -------
    dict
        What :func:`wsd.pipeline.induce_corpus` returned.
    """
    from wsd.pipeline import induce_corpus

    scan, output = config["scan"], config["output"]
    change = config.get("change", {})
    if not change.get("by") and (change.get("bins") or change.get("between") or change.get("bin_width")):
        raise ConfigError("--bins, --bin-width and --between compare slices: give --by COLUMN too (the slice column)")
    summary = induce_corpus(
        scan["corpus"],
        scan["targets"],
        output["out"],
        gold=config["evaluation"]["gold"],
        scan=ScanSettings.from_config(config),
        embedding=embedding_options(config),
        senses=SenseOptions.from_config(config),
        change=ChangeOptions.from_config(config) if change.get("by") else None,
        execution=ExecutionOptions.from_config(config),
        report=output["report"],
        progress=progress,
        overwrite=overwrite,
    )
    write_config(output["out"], config, "run")
    return summary


def run_demo(
    out: str | os.PathLike[str],
    data_dir: str | os.PathLike[str] | None = None,
    progress: bool = True,
    overwrite: bool = False,
) -> str:
    """Run scan → embed → cluster → evaluate → report on the demo corpus; return a printable summary.

    Run again into the same folder, the demo reuses what it wrote; a folder holding anything else is refused
    unless ``overwrite`` (which replaces wsd's own files only). The output folder records the run's
    configuration as ``config.toml``: ``wsd run --config OUT/config.toml`` repeats the demo.

    Parameters
    ----------
    out : path
        The output folder.
    data_dir : path, optional
        The demo data folder (see :func:`demo_data_dir`).
    progress : bool
        Show progress bars.
    overwrite : bool
        Write where wsd output of another configuration or other files are.

    Returns
    -------
    str
        :func:`format_summary` of the run.
    """
    summary = run_job(demo_config(data_dir, out), progress=progress, overwrite=overwrite)
    return format_summary(summary)


def _report_available() -> bool:
    try:
        from wsd.report import write_report  # noqa: F401
    except ImportError:
        return False
    return True


def format_summary(summary: dict[str, Any]) -> str:
    """A small table: per target, occurrences, senses found, ARI (with a gold); then the scores and the ranking.

    Scores are percentages, as ``wsd evaluate`` and ``wsd score`` print them.

    Parameters
    ----------
    summary : dict
        What :func:`wsd.pipeline.induce_corpus` returned.

    Returns
    -------
    str
    """
    metrics = summary.get("metrics", {})
    per_target = metrics.get("per_target", {})
    scored = bool(per_target)  # an ARI column only where there is a gold to score against
    lines = [f"{'target':<10} {'occurrences':>11} {'senses':>6}" + (f" {'ARI %':>6}" if scored else "")]
    for target, count in summary["occurrences"].items():
        ari = per_target.get(target, {}).get("ari")
        shown = "" if ari is None else f"{100 * ari:.1f}"
        row = f"{target:<10} {count:>11} {summary['senses'].get(target, 0):>6}"
        lines.append(row + (f" {shown:>6}" if scored else ""))
    if metrics:
        overall = metrics["overall"]
        names = ("ari", "nmi", "v_measure", "paired_f", "bcubed_f", "fnmi", "fbc_f")
        lines.append("")
        lines.append(f"{'score (%)':<12} {'wsd':>6} " + " ".join(f"{b:>16}" for b in metrics["baselines"]))
        for name in names:
            baseline_values = " ".join(f"{100 * metrics['baselines'][b][name]:>16.2f}" for b in metrics["baselines"])
            lines.append(f"{name:<12} {100 * overall[name]:>6.2f} {baseline_values}")
    lines.append("")
    lines.append(f"occurrences and vectors: {summary['run']}")
    lines.append(f"senses (labels, sense cards senses.md, sense model): {summary['senses_dir']}")
    if "change_dir" in summary:
        lines.append(f"change across slices (ranking, scores, counts, sense changes): {summary['change_dir']}")
    if "change_ranking" in summary:
        lines += ["", summary["change_ranking"]]
    if "report" in summary:
        lines.append(f"report: {summary['report']}")
    return "\n".join(lines)
