"""``wsd demo``: the whole pipeline on the bundled demo corpus with the bundled model.

The demo corpus (``data/demo``: English *mouse, bank, plant, bat, cell* and Russian *замок, лук, ключ,
шагать*, original sentences with gold senses) is scanned, embedded, clustered, scored against its gold labels
and reported, in ``OUT``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from wsd.corpus.targets import read_forms_file
from wsd.errors import InputError

DEMO_FILES = ("corpus.txt", "forms.tsv", "labelled.tsv")


def demo_data_dir(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The demo data folder: ``data_dir``, ``$WSD_DEMO_DIR``, or ``data/demo`` of the source tree.

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
    candidates.append(Path(__file__).resolve().parents[1] / "data" / "demo")
    for folder in candidates:
        if all((folder / name).is_file() for name in DEMO_FILES):
            return folder
    raise InputError(
        f"demo data not found (looked in {', '.join(str(c) for c in candidates)}); "
        f"pass --data DIR with {', '.join(DEMO_FILES)}"
    )


def run_demo(out: str | os.PathLike[str], data_dir: str | os.PathLike[str] | None = None, progress: bool = True) -> str:
    """Run scan → embed → cluster → evaluate → report on the demo corpus; return a printable summary.

    Parameters
    ----------
    out : path
        The output folder (replaced).
    data_dir : path, optional
        The demo data folder (see :func:`demo_data_dir`).
    progress : bool
        Show progress bars.

    Returns
    -------
    str
        :func:`format_summary` of the run.
    """
    from wsd.pipeline import induce_corpus

    folder = demo_data_dir(data_dir)
    forms = folder / "forms.tsv"
    targets = list(read_forms_file(forms))
    summary = induce_corpus(
        folder / "corpus.txt",
        targets,
        out,
        forms=forms,
        gold=folder / "labelled.tsv",
        progress=progress,
        report=_report_available(),
        overwrite=True,
    )
    return format_summary(summary)


def _report_available() -> bool:
    try:
        from wsd.report import write_report  # noqa: F401
    except ImportError:
        return False
    return True


def format_summary(summary: dict[str, Any]) -> str:
    """A small table: per target, occurrences, senses found, ARI; then the overall scores vs baselines.

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
    lines = [f"{'target':<10} {'occurrences':>11} {'senses':>6} {'ARI':>6}"]
    for target, count in summary["occurrences"].items():
        ari = per_target.get(target, {}).get("ari")
        lines.append(
            f"{target:<10} {count:>11} {summary['senses'].get(target, 0):>6} {'' if ari is None else f'{ari:.2f}':>6}"
        )
    if metrics:
        overall = metrics["overall"]
        names = ("ari", "nmi", "v_measure", "paired_f", "bcubed_f", "fnmi", "fbc_f")
        lines.append("")
        lines.append(f"{'score':<12} {'wsd':>6} " + " ".join(f"{b:>16}" for b in metrics["baselines"]))
        for name in names:
            baseline_values = " ".join(f"{metrics['baselines'][b][name]:>16.3f}" for b in metrics["baselines"])
            lines.append(f"{name:<12} {overall[name]:>6.3f} {baseline_values}")
    lines.append("")
    lines.append(f"occurrences and vectors: {summary['run']}")
    lines.append(f"senses (labels, sense cards senses.md, sense model): {summary['senses_dir']}")
    if "report" in summary:
        lines.append(f"report: {summary['report']}")
    return "\n".join(lines)
