"""``wsd demo``: the whole pipeline on the bundled demo corpus with the bundled model.

The demo corpus (``wsd/demo_data``, package data, copied as plain files into ``data/demo`` of the source tree: English
*mouse, bank, plant, bat, cell* and Russian *замок, лук, ключ, шагать*, original sentences with gold senses)
is scanned, embedded, clustered, scored against its gold labels and reported, in ``OUT``, which also records
the configuration (``config.toml``): ``wsd run --config OUT/config.toml`` does the same again.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

from wsd.config import Config, resolve_config
from wsd.corpus.targets import read_forms_file
from wsd.errors import InputError, UnreadableTargetsWarning
from wsd.workflows.run import format_summary, run_job

DEMO_FILES = ("corpus.txt", "forms.tsv", "labelled.tsv")
#: What the demo says of the targets its model cannot read (its Russian words with the bundled English MiniLM): they
#: are in the demo on purpose, and their rows near ARI 0 are what an encoder that cannot read a script gives.
UNREADABLE_LESSON = (
    "Why some rows score near 0 (the demo keeps them to show it): the bundled model reads English only, and "
)


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
    candidates.append(Path(__file__).resolve().parents[1] / "demo_data")  # wsd/demo_data, beside this room
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
        :func:`wsd.workflows.run.format_summary` of the run; where the model cannot read some targets (the Russian
        words with the bundled English model), a last paragraph that says so (:data:`UNREADABLE_LESSON`) in place
        of the warning.
    """
    lessons: list[str] = []
    show = warnings.showwarning

    def keep_lesson(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        if issubclass(category, UnreadableTargetsWarning):
            lessons.append(str(message))
        else:
            show(message, category, *args, **kwargs)

    with warnings.catch_warnings():  # the words the model cannot read are the demo's point: said in its summary
        warnings.simplefilter("always", UnreadableTargetsWarning)
        warnings.showwarning = keep_lesson
        summary = run_job(demo_config(data_dir, out), progress=progress, overwrite=overwrite)
    return format_summary(summary) + "".join(f"\n\n{UNREADABLE_LESSON}{lesson}." for lesson in lessons[:1])


def _report_available() -> bool:
    try:
        from wsd.report import write_report  # noqa: F401
    except ImportError:
        return False
    return True
