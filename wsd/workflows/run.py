"""The ``wsd run`` job: a configuration resolved for ``run`` → :func:`wsd.workflows.pipeline.induce_corpus` → a summary.

:func:`run_job` runs the whole job of a resolved configuration (``wsd run`` flags, ``--config``, ``--set``) and
records it as ``OUT/config.toml``; :func:`format_summary` is the table ``wsd run`` and ``wsd demo`` print.
"""

from __future__ import annotations

from typing import Any

from wsd.config import Config, embedding_options, naming_parameters, write_config
from wsd.corpus.proper import DECIDE
from wsd.errors import ConfigError
from wsd.options import ChangeOptions, ExecutionOptions, ScanSettings, SenseOptions


def run_job(config: Config, progress: bool = True, overwrite: bool = False) -> dict[str, Any]:
    """``wsd run`` of a resolved configuration: :func:`wsd.workflows.pipeline.induce_corpus`, then ``OUT/config.toml``.

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
        What :func:`wsd.workflows.pipeline.induce_corpus` returned.
    """
    from wsd.workflows.pipeline import induce_corpus

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
        inventory=output.get("inventory"),
        naming=naming_parameters(config) if output.get("inventory") else None,
        progress=progress,
        overwrite=overwrite,
    )
    write_config(output["out"], config, "run")
    return summary


def format_summary(summary: dict[str, Any]) -> str:
    """A small table: per target, occurrences, senses found, ARI (with a gold); then the scores and the ranking.

    Scores are percentages, as ``wsd evaluate`` and ``wsd score`` print them. Where the scan met likely proper
    names (``summary["proper"]``, :mod:`wsd.corpus.proper`), a column counts them per target: uses among the
    occurrences (``--keep-proper``, or the default warning), or uses left out (``--no-proper``).

    Parameters
    ----------
    summary : dict
        What :func:`wsd.workflows.pipeline.induce_corpus` returned.

    Returns
    -------
    str
    """
    metrics = summary.get("metrics", {})
    per_target = metrics.get("per_target", {})
    scored = bool(per_target)  # an ARI column only where there is a gold to score against
    proper = summary.get("proper") or {}
    policy = summary.get("proper_policy", "warn")
    # likely proper names: a column where the scan met some (dropped ones are not among the occurrences)
    proper_title = f" {'names dropped' if policy == 'drop' else 'of them names':>14}" if proper else ""
    header = f"{'target':<10} {'occurrences':>11}{proper_title} {'senses':>6}"
    lines = [header + (f" {'ARI %':>6}" if scored else "")]
    for target, count in summary["occurrences"].items():
        ari = per_target.get(target, {}).get("ari")
        shown = "" if ari is None else f"{100 * ari:.1f}"
        proper_cell = f" {proper.get(target, 0):>14}" if proper else ""
        row = f"{target:<10} {count:>11}{proper_cell} {summary['senses'].get(target, 0):>6}"
        lines.append(row + (f" {shown:>6}" if scored else ""))
    if proper and policy != "drop":
        lines.append(f"likely proper names (capitalised mid-sentence) are kept among the occurrences: {DECIDE}")
    if metrics:
        overall = metrics["overall"]
        names = ("ari", "nmi", "v_measure", "paired_f", "bcubed_f", "fnmi", "fbc_f")
        lines.append("")
        lines.append(f"{'score (%)':<12} {'wsd':>6} " + " ".join(f"{b:>16}" for b in metrics["baselines"]))
        for name in names:
            baseline_values = " ".join(f"{100 * metrics['baselines'][b][name]:>16.2f}" for b in metrics["baselines"])
            lines.append(f"{name:<12} {100 * overall[name]:>6.2f} {baseline_values}")
        rows = summary.get("gold_rows", {})
        if rows.get("other_targets"):
            lines.append(
                f"scored on the {rows['scored']} labelled occurrences of these targets; the gold's "
                f"{rows['other_targets']} of other targets are left out"
            )
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
