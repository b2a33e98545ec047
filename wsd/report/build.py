"""Assembling a report: read the outputs, project, draw the figures, fill the content, write HTML and Markdown.

>>> write_report("out/demo")                        # doctest: +SKIP
PosixPath('out/demo/report.html')
>>> write_report("experiments/results/ablate")      # doctest: +SKIP
PosixPath('experiments/results/ablate/report.html')
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.change.compare import describe_order
from wsd.change.explain import companion_measure, disagreement_notes, fallback_note, ranking_legend
from wsd.errors import ConfigError, InputError
from wsd.evaluate.metrics.usage_pairs import usage_pair_lines
from wsd.io import manifest
from wsd.io.atomic import atomic_write
from wsd.io.layout import FIGURES_DIR, REPORT_HTML, REPORT_MARKDOWN, RUN_DIR, SENSES_DIR
from wsd.io.locate import folder_kind
from wsd.io.meta_types import ChangeMeta
from wsd.io.outputs import check_disjoint, claim_folder, in_session
from wsd.occurrences import citations, metadata_columns
from wsd.report import plots
from wsd.report.content import (
    Example,
    Image,
    Report,
    Section,
    SenseCard,
    Table,
    TargetSection,
    example_from_marked,
    example_parts,
    fmt_score,
    plural,
    slug,
)
from wsd.report.data import GOLD_CHANGE_COLUMNS, ChangeData, RunData, headline_metrics, load_run_data, score_names
from wsd.report.drawing import shorten
from wsd.report.experiments import Experiment, experiment_files, load_experiments
from wsd.report.html_page import render_html
from wsd.report.markdown_page import render_markdown
from wsd.report.pairs_page import pairs_folder, pairs_report
from wsd.report.projection import check_projection, project
from wsd.schema import DEFAULT_MAX_POINTS, DEFAULT_PROJECTION, DEFAULT_REPORT_EXAMPLES, Projection
from wsd.senses.describe import examples_per_group

MAX_EXAMPLES = 5
GOLD_MAKEUP = 3
PROJECTION_NAMES = {"pca": "PCA", "tsne": "t-SNE", "umap": "UMAP"}


@in_session
def write_report(
    out_dir: str | os.PathLike[str],
    report_dir: str | os.PathLike[str] | None = None,
    projection: Projection = DEFAULT_PROJECTION,
    *,
    experiments: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None = None,
    max_points: int = DEFAULT_MAX_POINTS,
    n_examples: int = DEFAULT_REPORT_EXAMPLES,
    random_state: int = 0,
    title: str | None = None,
    overwrite: bool = False,
    senses: str | os.PathLike[str] | None = None,
    change: str | os.PathLike[str] | None = None,
) -> Path:
    """Write ``report.html`` (self-contained), ``report.md`` and the PNG figures; return the HTML path.

    Parameters
    ----------
    out_dir : path
        What to report on: the ``--out`` folder of ``wsd run`` / ``wsd demo`` / ``wsd evaluate`` (sense maps,
        sense cards, and with gold labels the gold panel, confusion heatmaps and scores), or any folder of its
        layout (``OUT/run``, a ``wsd embed`` run, a senses or change folder: :func:`wsd.io.locate.find_layout`);
        or an experiment result file or a folder of them (score per layer as a line, per method or pooling as
        bars).
    report_dir : path, optional
        Where to write; default the output folder (``OUT`` also for ``OUT/run`` or ``OUT/change``; the run of a
        staged layout), or ``<name>-report/`` beside a single result file. A change folder other than the run's own
        (``wsd change --out DIR``, given as ``change`` or as ``out_dir``) gets its report inside it.
        Figures go to ``report_dir/report_figures/``.
    projection : {"pca", "tsne", "umap"}
        How sense maps are drawn in 2-D (UMAP needs ``umap-learn``).
    experiments : path or paths, optional
        Experiment result files or folders to add to a run report.
    max_points : int
        Occurrences per target drawn on its map (a seeded random sample beyond this; scores use all).
    n_examples : int
        Example contexts per sense card (at most 5, as many as the sense descriptions hold).
    random_state : int
        Seed of the map sample and of t-SNE/UMAP.
    title : str, optional
        The report's title.
    overwrite : bool
        Write into a ``report_dir`` that holds other files (only the report's own files are replaced);
        without it such a destination is refused (:mod:`wsd.io.outputs`).
    senses : path, optional
        The senses folder of the run (default: found beside it; ``wsd cluster --out`` elsewhere needs it).
    change : path, optional
        The change folder drawn (default: the one beside the run, where there is one); refused when it was made
        from another run.

    Returns
    -------
    Path
        ``report_dir/report.html``.

    Raises
    ------
    ConfigError
        For an unknown ``projection`` or ``max_points``/``n_examples`` out of range.
    InputError
        When ``out_dir`` does not exist or what it holds cannot be read as a run or as experiment results, a
        table of its senses or change folder was changed since wsd wrote it, or they belong to another run
        (:func:`wsd.report.data.load_run_data`).

    Examples
    --------
    >>> write_report("out/demo", projection="tsne")     # doctest: +SKIP
    PosixPath('out/demo/report.html')
    """
    projection = check_projection(projection)
    if int(max_points) < 1:
        raise ConfigError(f"max_points must be at least 1, got {max_points!r}")
    if not 1 <= int(n_examples) <= MAX_EXAMPLES:
        raise ConfigError(f"n_examples must be between 1 and {MAX_EXAMPLES}, got {n_examples!r}")
    source = Path(out_dir)
    if not source.exists():
        raise InputError(f"{source}: no such file or folder")
    extra = _experiment_sources(experiments)
    is_run = source.is_dir() and not _only_experiments(source)
    if not is_run and (senses is not None or change is not None):
        raise ConfigError(f"--senses and --change go with a run, not with experiment results ({source})")
    # read before anything is written: a folder that cannot be reported leaves no report_figures/ behind
    pairs = pairs_folder(source, senses, change) if is_run else None  # `wsd evaluate --dataset wic`: no senses
    data = load_run_data(source, senses, change) if is_run and pairs is None else None
    experiment_list = None if is_run else load_experiments(source)
    if report_dir is not None:
        destination = Path(report_dir)
    elif source.is_file():
        destination = source.with_name(f"{source.stem}-report")
    else:
        destination = (data.report_dir or data.out_dir) if data is not None else source
    own_folders = [data.out_dir, *([data.report_dir] if data.report_dir is not None else [])] if data else []
    in_place = destination.resolve() in {folder.resolve() for folder in (source, *own_folders)}
    check_disjoint(destination, {"--run": None if in_place else source})
    for path in extra:
        check_disjoint(destination, {"--experiments": path})
    claim_folder(destination, "report", overwrite=overwrite, in_place=in_place and source.is_dir())
    figures_existed = (destination / FIGURES_DIR).is_dir()
    figures = _fresh_figures_dir(destination / FIGURES_DIR)
    try:
        builder = _Builder(figures, projection, int(max_points), int(n_examples), random_state)
        if pairs is not None:
            report = pairs_report(pairs, figures, title, builder._draw)
        elif data is not None:
            report = builder.run_report(data, title)
        else:
            report = builder.experiments_report(experiment_list or [], title or f"Experiments: {source.name}")
        for path in extra:
            report.sections += builder.experiment_sections(load_experiments(path))
    except BaseException:
        if not figures_existed and not any(figures.iterdir()):
            figures.rmdir()  # never an empty report_figures/ of a report that failed
        raise
    if builder.missing_glyphs:
        shown = "".join(sorted(builder.missing_glyphs)[:10])
        warnings.warn(
            f"no installed font can draw some characters in the figures ({shown!r}); install a font that covers "
            "them (e.g. Noto Sans) for readable labels",
            stacklevel=2,
        )
    destination.mkdir(parents=True, exist_ok=True)
    _write_text(destination / REPORT_MARKDOWN, render_markdown(report, destination))
    html_path = destination / REPORT_HTML
    _write_text(html_path, render_html(report))
    return html_path


def _experiment_sources(experiments: Any) -> list[Path]:
    if experiments is None:
        return []
    if isinstance(experiments, (str, os.PathLike)):
        return [Path(experiments)]
    return [Path(item) for item in experiments]


def _only_experiments(folder: Path) -> bool:
    """A folder without a run whose JSON files are experiment results."""
    has_run = folder_kind(folder) is not None or (folder / RUN_DIR).is_dir() or (folder / SENSES_DIR).is_dir()
    return not has_run and bool(experiment_files(folder))


def _fresh_figures_dir(folder: Path) -> Path:
    """The figures folder, emptied of the PNGs of an earlier report (only those wsd wrote and nobody changed)."""
    if folder.is_dir():
        for old in folder.glob("*.png"):
            if manifest.status(old) == "match":
                old.unlink()
                manifest.forget(old)
    elif folder.exists():
        raise InputError(f"{folder} exists and is not a folder; it is where the report's figures go")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


class _Builder:
    """Draws the figures into ``figures`` and fills :class:`Report` objects."""

    def __init__(
        self, figures: Path, projection: Projection, max_points: int, n_examples: int, random_state: int
    ) -> None:
        self.figures = figures
        self.projection = projection
        self.max_points = max_points
        self.n_examples = n_examples
        self.random_state = random_state
        self.missing_glyphs: set[str] = set()
        self.experiment_count = 0

    def _draw(self, function: Any, *args: Any, **kwargs: Any) -> None:
        self.missing_glyphs |= function(*args, **kwargs)

    # ------------------------------------------------------------------------------------------ runs
    def run_report(self, data: RunData, title: str | None) -> Report:
        """The report of one run: summary, evaluation (when scored), one section per target."""
        targets = data.targets
        sections = [self.target_section(data, index, target) for index, target in enumerate(targets)]
        report = Report(
            title=title or f"Word senses: {data.out_dir.resolve().name}",
            facts=run_facts(data),
            summary=summary_table(data),
            targets=sections,
        )
        if data.metrics is not None:
            report.sections.append(self.evaluation_section(data))
        if data.change is not None:
            report.sections.append(change_section(data.change))
        report.notes.append(
            f"Sense maps: {PROJECTION_NAMES[self.projection]} of each target's occurrence vectors "
            f"(at most {self.max_points} points per map, seed {self.random_state})."
        )
        return report

    def target_section(self, data: RunData, index: int, target: str) -> TargetSection:
        """Facts, sense map, confusion heatmap and sense cards of one target."""
        rows = data.rows_of(target)
        labels = data.labels[rows]
        table = data.senses[data.senses["target"].astype(str) == target]
        n_senses = int(max(labels.max(initial=-1) + 1, table["sense"].max() + 1 if len(table) else 0))
        gold = data.gold[rows] if data.gold is not None else None
        has_gold = gold is not None and bool((gold != "").any())
        cards = self.sense_cards(data, target, rows, table, n_senses, gold if has_gold else None)
        stem = f"{index + 1:03d}" + (f"-{slug(target)}" if slug(target) else "")
        images, notes = [], []
        shown = rows
        if len(rows) > self.max_points:
            rng = np.random.default_rng(self.random_state)
            shown = np.sort(rng.choice(rows, size=self.max_points, replace=False))
            notes.append(f"The map shows a random sample of {self.max_points} of the {len(rows)} occurrences.")
        if len(shown):
            vectors = np.asarray(data.vectors[shown], dtype=np.float32)
            points, axes = project(vectors, self.projection, self.random_state)
            names = {card.sense: _legend_name(card) for card in cards}
            path = self.figures / f"map-{stem}.png"
            self._draw(
                plots.sense_map,
                points,
                data.labels[shown],
                names,
                data.gold[shown] if has_gold and data.gold is not None else None,
                axes,
                target,
                path,
                n_senses=n_senses,
            )
            panels = "induced senses (left) and gold senses (right)" if has_gold else "induced senses"
            images.append(
                Image(
                    path,
                    alt=f"sense map of {target}",
                    kind="sense-map",
                    caption=f"{PROJECTION_NAMES[self.projection]} map of the occurrences of {target}, "
                    f"coloured by {panels}.",
                    target=target,
                )
            )
            if data.slices is not None and data.change is not None:
                images.append(self.slice_map(data, points, shown, axes, target, stem))
        if has_gold and gold is not None:
            path = self.figures / f"confusion-{stem}.png"
            self._draw(plots.confusion_heatmap, gold, labels, target, path)
            images.append(
                Image(
                    path,
                    alt=f"gold × induced senses of {target}",
                    kind="confusion",
                    caption="Occurrences per gold sense (rows) and induced sense (columns); "
                    "the shade is the share of the gold sense's occurrences.",
                    target=target,
                )
            )
        if data.change is not None:
            images += self.change_images(data.change, target, cards, stem, n_senses)
            facts_change = change_facts(data.change, target)
        else:
            facts_change = []
        facts = [plural(len(rows), "occurrence"), plural(n_senses, "induced sense"), *facts_change]
        kept_one = (data.senses_meta or {}).get("one_sense", {}).get(target)
        if kept_one:  # why the word was not split (wsd.senses.stage.one_sense_reasons)
            facts.insert(2, f"one sense: {kept_one}")
        split_few = (data.senses_meta or {}).get("few_uses_split", {}).get(target)
        if split_few:  # why a word of few uses was split (wsd.senses.stage.few_uses_split_reasons)
            facts.insert(2, f"split on few uses: {split_few}")
        if has_gold and gold is not None:
            labelled = gold[gold != ""]
            facts.append(f"{plural(len(set(labelled)), 'gold sense')} ({len(labelled)} labelled)")
        scores = (data.metrics or {}).get("per_target", {}).get(target)
        if scores:
            facts += [f"{name} {fmt_score(scores.get(name))}" for name in headline_metrics(data.dataset, scores)]
        return TargetSection(target, f"t{index + 1}", facts, images, cards, notes)

    def slice_map(
        self, data: RunData, points: np.ndarray, shown: np.ndarray, axes: Any, target: str, stem: str
    ) -> Image:
        """The sense map's points coloured by slice instead of by sense."""
        assert data.slices is not None and data.change is not None
        by = str(data.change.document.get("by", "slice"))
        path = self.figures / f"map-slices-{stem}.png"
        self._draw(plots.slice_map, points, data.slices[shown], data.change.slices, axes, target, by, path)
        return Image(
            path,
            alt=f"map of {target} by {by}",
            kind="slice-map",
            caption=f"The same map coloured by slice of {by} (earliest dark, latest light).",
            target=target,
        )

    def change_images(
        self, change: ChangeData, target: str, cards: list[SenseCard], stem: str, n_senses: int
    ) -> list[Image]:
        """The sense proportions per slice of one target (and the new/lost marks on its sense cards)."""
        mark_cards(change, target, cards)
        counts = change.counts[change.counts["target"].astype(str) == target]
        if counts.empty:
            return []
        senses = sorted(int(s) for s in counts["sense"].unique())
        slices = change.slices
        table = counts.pivot_table(index="slice", columns="sense", values="proportion", aggfunc="sum")
        table = table.reindex(index=slices, columns=senses, fill_value=0.0).fillna(0.0)
        uses = counts.groupby("slice")["uses"].first().reindex(slices, fill_value=0).astype(int).tolist()
        by_sense = {card.sense: card for card in cards}
        names = [_legend_name(by_sense[s]) if s in by_sense else str(s) for s in senses]
        path = self.figures / f"slices-{stem}.png"
        colours = [plots.sense_colour(s, max(n_senses, max(senses) + 1)) for s in senses]
        self._draw(plots.sense_proportions, table.to_numpy(), slices, names, colours, target, path, uses=uses)
        kind = "stacked areas" if len(slices) > plots.MAX_BAR_SLICES else "stacked bars"
        images = [
            Image(
                path,
                alt=f"sense proportions of {target} per {change.document.get('by', 'slice')}",
                kind="slices",
                caption=f"Share of each induced sense of {target} in each slice of "
                f"{change.document.get('by', 'the corpus')} ({kind}; uses with a sense in brackets).",
                target=target,
            )
        ]
        return images + self.timeline_images(change, target, stem)

    def timeline_images(self, change: ChangeData, target: str, stem: str) -> list[Image]:
        """The change of one target from each slice to the next, with intervals (three slices or more)."""
        timeline = change.timeline
        if timeline.empty or len(change.slices) < 3:
            return []
        steps = timeline[timeline["target"].astype(str) == target]
        if steps.empty:
            return []
        path = self.figures / f"timeline-{stem}.png"
        pairs = [f"{a}→{b}" for a, b in zip(steps["slice_a"], steps["slice_b"], strict=True)]
        self._draw(
            plots.change_timeline,
            steps["step"].tolist(),
            pairs,
            steps["score"].tolist(),
            steps["score_low"].tolist(),
            steps["score_high"].tolist(),
            len(change.slices) - 1,
            change.measure,
            target,
            path,
        )
        gaps = len(change.slices) - 1 - len(steps)
        return [
            Image(
                path,
                alt=f"change of {target} from each slice to the next",
                kind="timeline",
                caption=f"Change ({change.measure}) of {target} from each slice to the next, with its bootstrap "
                "interval" + (f"; {plural(gaps, 'step')} not measured (unmeasured.csv)." if gaps else "."),
                target=target,
            )
        ]

    def sense_cards(
        self,
        data: RunData,
        target: str,
        rows: np.ndarray,
        table: pd.DataFrame,
        n_senses: int,
        gold: np.ndarray | None,
    ) -> list[SenseCard]:
        """One card per induced sense, in sense order; examples cited by their metadata, and per slice."""
        frame = data.occurrences
        position_of = {str(i): p for p, i in enumerate(frame["id"].to_numpy()[rows])}
        texts, starts, ends = frame["text"].to_numpy(), frame["start"].to_numpy(), frame["end"].to_numpy()
        ids = frame["id"].to_numpy()
        fields = metadata_columns(frame)
        labels = data.labels[rows]

        def example(row: int, slice_: str = "") -> Example:
            source = citations(frame, [row], fields)[0] if fields else ""
            parts = example_parts(str(texts[row]), int(starts[row]), int(ends[row]))
            return Example(str(ids[row]), *parts, source=source, slice=slice_)

        cards = []
        for record in table.sort_values("sense", kind="stable").itertuples(index=False):
            sense = int(record.sense)
            examples = []
            marked = list(record.examples) if hasattr(record, "examples") else []
            for number, example_id in enumerate(list(record.example_ids)[: self.n_examples]):
                local = position_of.get(str(example_id))
                if local is not None:
                    examples.append(example(int(rows[local])))
                else:
                    text, start, end = example_from_marked(str(marked[number]) if number < len(marked) else "")
                    examples.append(Example(str(example_id), *example_parts(text, start, end)))
            makeup: list[tuple[str, int]] = []
            if gold is not None:
                senses = pd.Series(gold[(labels == sense) & (gold != "")], dtype=object).value_counts()
                makeup = [(str(name), int(count)) for name, count in senses.head(GOLD_MAKEUP).items()]
            size = int(record.size)
            cards.append(
                SenseCard(
                    target=target,
                    sense=sense,
                    size=size,
                    share=size / max(len(rows), 1),
                    colour=plots.sense_colour(sense, n_senses),
                    keywords=[str(word) for word in record.keywords],
                    examples=examples,
                    gold=makeup,
                    slice_examples=self.slice_examples(data, rows[labels == sense], example),
                    slices=len(data.change.slices) if data.change is not None and data.slices is not None else 0,
                    subgroups=bool(getattr(record, "subgroups", False)),
                    subgroup_score=float(getattr(record, "subgroup_score", float("nan"))),
                    names=str(getattr(record, "names_text", "") or ""),
                )
            )
        return cards

    def slice_examples(self, data: RunData, members: np.ndarray, example: Any) -> list[Example]:
        """A sense's most typical uses in each slice (central to the whole sense), in slice order."""
        if data.slices is None or data.change is None or not len(members):
            return []
        order = data.change.slices
        per_slice = max(1, self.n_examples // max(len(order), 1))
        chosen = examples_per_group(data.vectors, members, data.slices[members], per_slice)
        return [example(int(row), slice_) for slice_ in order for row in chosen.get(slice_, [])]

    def evaluation_section(self, data: RunData) -> Section:
        """Overall scores against the baselines, subsets, and the per-target score chart."""
        metrics = data.metrics or {}
        overall = metrics.get("overall", {})
        std = metrics.get("overall_std", {}) or {}
        baselines = metrics.get("baselines", {}) or {}
        names = score_names(overall)
        seeds = len(metrics.get("seeds", [])) or 1
        system_header = f"wsd (mean ± std, {seeds} seeds)" if std else "wsd"
        rows = []
        for name in names:
            system = fmt_score(overall.get(name))
            if std and name in std:
                system += f" ± {fmt_score(std.get(name))}"
            rows.append([name, system, *[fmt_score(baselines[b].get(name)) for b in baselines]])
        section = Section(
            title="Evaluation",
            anchor="evaluation",
            paragraphs=[
                f"Dataset: {metrics.get('dataset', 'generic')}; {metrics.get('n_instances', '?')} labelled "
                "occurrences. Baselines: one-sense (every occurrence of a word in one sense), one-per-instance "
                "(each occurrence its own sense), random (3 senses at random).",
                *[line[0].upper() + line[1:] + "." for line in usage_pair_lines(metrics.get("usage_pairs"))],
            ],
            tables=[
                Table(
                    ["score", system_header, *baselines],
                    rows,
                    [False, True, *[True] * len(baselines)],
                    caption="Overall scores (fractions; higher is better)",
                    css="scores",
                )
            ],
        )
        subsets = metrics.get("subsets") or {}
        if subsets:
            first = next(iter(subsets.values()))
            shown = headline_metrics(data.dataset, first)
            section.tables.append(
                Table(
                    ["subset", *shown],
                    [[name, *[fmt_score(values.get(m)) for m in shown]] for name, values in subsets.items()],
                    [False, *[True] * len(shown)],
                    caption="Scores on subsets of the instances",
                )
            )
        headline = headline_metrics(data.dataset, overall)
        if headline:
            path = self.figures / "scores-overall.png"
            self._draw(plots.scores_vs_baselines, overall, baselines, headline, path, overall_std=std)
            section.images.append(
                Image(path, "overall scores and baselines", "scores", "The system beside the trivial baselines.")
            )
        per_target = {t: s for t, s in (metrics.get("per_target") or {}).items() if isinstance(s, dict)}
        if per_target and headline:
            path = self.figures / "scores-per-target.png"
            self._draw(plots.per_target_scores, per_target, headline, path)
            section.images.append(Image(path, "scores per target word", "scores", "Scores of each target word."))
        return section

    # ------------------------------------------------------------------------------------ experiments
    def experiments_report(self, experiments: list[Experiment], title: str) -> Report:
        """A report of experiment results only: a summary table and one section per experiment."""
        header = ["experiment", "dataset", "metric", "settings", "best setting", "best", "best baseline"]
        rows = []
        for experiment in experiments:
            values = np.array(experiment.values(), dtype=float)
            best = int(np.nanargmax(values)) if np.isfinite(values).any() else None
            baseline = _best_reference(experiment.baselines, experiment.metric)
            rows.append(
                [
                    experiment.label,
                    experiment.dataset,
                    experiment.metric,
                    str(len(experiment.rows)),
                    experiment.settings[best] if best is not None else "–",
                    fmt_score(values[best]) if best is not None else "–",
                    f"{baseline[0]} {fmt_score(baseline[1])}" if baseline else "–",
                ]
            )
        summary = Table(header, rows, [False, False, False, True, False, True, False], css="summary")
        return Report(title=title, facts=[], summary=summary, sections=self.experiment_sections(experiments))

    def experiment_sections(self, experiments: list[Experiment]) -> list[Section]:
        """One section per experiment: its plot and its table of every score per setting."""
        sections = []
        for experiment in experiments:
            self.experiment_count += 1
            number = self.experiment_count
            path = self.figures / f"experiment-{number:02d}-{slug(experiment.name) or 'x'}.png"
            self._draw(plots.experiment_plot, experiment, path)
            kind = "line: score per layer" if experiment.kind == "line" else "bars: score per setting"
            metrics = experiment.metrics
            rows = []
            for row in experiment.rows:
                std = row.get("overall_std") or {}
                cells = []
                for name in metrics:
                    cell = fmt_score(row["overall"].get(name))
                    if name in std:
                        cell += f" ± {fmt_score(std.get(name))}"
                    cells.append(cell)
                rows.append([str(row["setting"]), *cells])
            for group, label in ((experiment.baselines, "baseline"), (experiment.published, "published")):
                for name, scores in group.items():
                    rows.append([f"{name} ({label})", *[fmt_score(scores.get(m)) for m in metrics]])
            paragraphs = [f"Source: {experiment.source}."]
            if experiment.command:
                paragraphs.append(f"Command: {experiment.command}")
            sections.append(
                Section(
                    title=f"Experiment: {experiment.label}"
                    + (f" ({experiment.dataset})" if experiment.dataset else ""),
                    anchor=f"experiment-{number}",
                    paragraphs=paragraphs,
                    tables=[Table(["setting", *metrics], rows, [False, *[True] * len(metrics)], css="scores")],
                    images=[
                        Image(
                            path,
                            f"{experiment.label}: {experiment.metric} per setting",
                            "experiment",
                            f"{experiment.metric} per setting ({kind}); horizontal lines: trivial baselines"
                            + (" and published systems." if experiment.published else "."),
                        )
                    ],
                )
            )
        return sections


def _best_reference(references: dict[str, dict[str, Any]], metric: str) -> tuple[str, float] | None:
    scored = [(name, float(s[metric])) for name, s in references.items() if fmt_score(s.get(metric)) != "–"]
    return max(scored, key=lambda item: item[1]) if scored else None


def _legend_name(card: SenseCard) -> str:
    words = ", ".join(card.keywords[:2])
    return f"{card.sense}: {shorten(words, 26)} ({card.size})" if words else f"{card.sense} ({card.size})"


def run_facts(data: RunData) -> list[str]:
    """One-line facts about the run: data, encoder, clustering, evaluation.

    Parameters
    ----------
    data : RunData
        The run's outputs; its meta, senses and metrics are read.

    Returns
    -------
    list of str
        ``Encoder: ...``, ``Senses: ...``, ``Corpus: ...`` or ``Dataset: ...`` and ``Evaluated with ...``,
        each only where the run's metadata says it.
    """
    facts = []
    embedding = data.run_meta.get("embedding") or data.senses_meta.get("embedding") or {}
    if embedding:
        facts.append(
            "Encoder: "
            + ", ".join(
                f"{key} {embedding[key]}" for key in ("model", "layers", "pooling", "dim") if embedding.get(key)
            )
        )
    inducer = data.senses_meta.get("inducer") or {}
    if inducer:
        k = inducer.get("k")
        if inducer.get("similarity_cut") is not None:
            choice = f"no k chosen: senses merged while their mean cosine is at least {inducer['similarity_cut']:g}"
        elif k == "auto":
            choice = f"k chosen by {inducer.get('selection')} in {inducer.get('k_range')}"
        else:
            choice = f"k = {k}"
        facts.append(f"Senses: {inducer.get('method')}, {choice}")
    config = data.run_meta.get("config") or {}
    if config.get("corpus"):
        facts.append(f"Corpus: {config['corpus']}")
    elif config.get("dataset"):
        facts.append(f"Dataset: {config['dataset']} ({config.get('data')})")
    if data.metrics is not None:
        seeds = len(data.metrics.get("seeds", [])) or 1
        facts.append(f"Evaluated with the {data.dataset} metrics over {seeds} seed{'s' if seeds != 1 else ''}")
    return facts


def summary_table(data: RunData) -> Table:
    """Per target: occurrences, induced senses, gold senses and labelled occurrences, headline scores; totals.

    Parameters
    ----------
    data : RunData
        The run's outputs: occurrences, labels and per-target scores.

    Returns
    -------
    Table
        One row per target and an ``all`` row; the gold columns only with gold labels, the score columns
        only with metrics.
    """
    senses = data.senses.groupby(data.senses["target"].astype(str))["sense"].nunique()
    per_target = (data.metrics or {}).get("per_target") or {}
    overall = (data.metrics or {}).get("overall") or {}
    metrics = headline_metrics(data.dataset, overall) if overall else []
    header = ["target", "occurrences", "senses found"]
    gold = data.gold if data.has_gold else None
    if gold is not None:
        header += ["gold senses", "labelled"]
    header += metrics
    rows = []
    for target in data.targets:
        row = [target, str(len(data.rows_of(target))), str(int(senses.get(target, 0)))]
        if gold is not None:
            labelled = gold[data.rows_of(target)]
            labelled = labelled[labelled != ""]
            row += [str(len(set(labelled))), str(len(labelled))]
        row += [fmt_score(per_target.get(target, {}).get(m)) for m in metrics]
        rows.append(row)
    total = ["all", str(len(data.occurrences)), str(int(senses.sum()))]
    if gold is not None:
        labelled_all = gold[gold != ""]
        total += [str(len(set(labelled_all))), str(len(labelled_all))]
    total += [fmt_score(overall.get(m)) for m in metrics]
    rows.append(total)
    return Table(header, rows, [False, *[True] * (len(header) - 1)], css="summary totals")


def mark_cards(change: ChangeData, target: str, cards: list[SenseCard]) -> None:
    """Mark the sense cards of the senses that appeared or vanished between the main pair of slices.

    The label agrees with ``sense_changes.csv`` (the main pair's row) and with the sense's uses in every slice
    (``counts.csv``): ``new in B`` only when the sense has no use in any slice before B, else ``appeared between
    A and B (in use from S)`` with S its first slice with a use; likewise ``lost after A`` only when no slice after
    A has a use of it, else ``vanished between A and B (last used in S)``. Comparing the first decade with the last,
    a sense in use from the third decade on is not "new in" the last one (issue 41: power's energy sense).

    Parameters
    ----------
    change : ChangeData
        The change folder's tables.
    target : str
        The target whose cards to mark.
    cards : list of SenseCard
        Its sense cards (changed in place).
    """
    main = change.document.get("main_pair") or []
    rows = change.sense_changes[change.sense_changes["target"].astype(str) == target]
    if len(main) == 2:
        rows = rows[(rows["slice_a"].astype(str) == str(main[0])) & (rows["slice_b"].astype(str) == str(main[1]))]
    status = {
        int(row.sense): sense_change_label(change, target, int(row.sense), str(row.change), row.slice_a, row.slice_b)
        for row in rows.itertuples()
    }
    for card in cards:
        card.status = status.get(card.sense, card.status)


def sense_change_label(change: ChangeData, target: str, sense: int, kind: str, slice_a: Any, slice_b: Any) -> str:
    """The card label of a sense that appeared or vanished between two slices, true to its uses in every slice.

    Parameters
    ----------
    change : ChangeData
        The change folder's tables (``counts`` gives the sense's uses per slice).
    target : str
        The target.
    sense : int
        The sense.
    kind : {"appeared", "vanished"}
        The ``change`` of its ``sense_changes.csv`` row.
    slice_a, slice_b : str
        The pair of slices of that row.

    Returns
    -------
    str
        ``new in B`` / ``lost after A`` when no slice before B (after A) has a use of the sense, else ``appeared
        between A and B (in use from S)`` / ``vanished between A and B (last used in S)``.
    """
    a, b = str(slice_a), str(slice_b)
    counts = change.counts
    used: list[str] = []
    if len(counts) and {"target", "sense", "slice", "count"} <= set(counts.columns):
        mine = counts[(counts["target"].astype(str) == target) & (counts["sense"].astype(int) == sense)]
        with_uses = set(mine.loc[mine["count"] > 0, "slice"].astype(str))
        used = [s for s in change.slices if s in with_uses]
    order = {name: position for position, name in enumerate(change.slices)}
    if kind == "appeared":
        first = used[0] if used else b
        if first not in order or b not in order or order[first] >= order[b]:
            return f"new in {b}"
        return f"appeared between {a} and {b} (in use from {first})"
    last = used[-1] if used else a
    if last not in order or a not in order or order[last] <= order[a]:
        return f"lost after {a}"
    return f"vanished between {a} and {b} (last used in {last})"


def change_facts(change: ChangeData, target: str) -> list[str]:
    """One-line facts about a target's change: its score and rank, or why it could not be measured.

    Parameters
    ----------
    change : ChangeData
        The change folder's tables.
    target : str
        The target to describe.

    Returns
    -------
    list of str
    """
    rows = change.ranking[change.ranking["target"].astype(str) == target]
    if rows.empty:
        return [f"change not measured between {' and '.join(map(str, change.document.get('main_pair', [])))}"]
    row = rows.iloc[0]
    return [f"change ({change.measure}) {fmt_score(row['score'])}, rank {int(row['rank'])} of {len(change.ranking)}"]


def change_section(change: ChangeData) -> Section:
    """The ranked change table (with the gold where known), the slices, the binary rule, what was not measured.

    Parameters
    ----------
    change : ChangeData
        The change folder's tables: ranking, slices, the binary rule.

    Returns
    -------
    Section
    """
    document = change.document
    main = document.get("main_pair") or ["?", "?"]
    measures = [m for m in document.get("measures", []) if m in change.ranking.columns]
    companion = companion_measure(change.measure, measures)
    if companion is not None:  # beside the score: JSD (the senses' shares) beside PRT, PRT beside JSD
        measures = [companion, *(m for m in measures if m != companion)]
    gold = [c for c in GOLD_CHANGE_COLUMNS if c in change.ranking.columns]
    has_binary = "binary" in change.ranking.columns
    has_interval = "score_low" in change.ranking.columns  # change folders before issue 25 have none
    confidence = float(document.get("bootstrap", {}).get("confidence", 0.95))
    level = f"{100 * confidence:g}% interval"
    rank_by = str(document.get("rank_by"))
    fallback = fallback_note(change.ranking, rank_by, confidence) if has_interval else None
    shrunk = "score_shrunk" in change.ranking.columns and rank_by == "shrunk"
    shrunk_header = ["shrunk (fallback)" if fallback else "shrunk"] if shrunk else []
    header = ["rank", "target", f"score ({change.measure})", *([level] if has_interval else []), *shrunk_header]
    header += measures + (["binary"] if has_binary else []) + [f"uses {main[0]}", f"uses {main[1]}"]
    header += [f"gold {c}" for c in gold]
    rows = []
    for row in change.ranking.itertuples(index=False):
        values = row._asdict()
        cells = [str(values["rank"]), str(values["target"]), fmt_score(values["score"])]
        cells += [f"{fmt_score(values['score_low'])}–{fmt_score(values['score_high'])}"] if has_interval else []
        cells += [fmt_score(values["score_shrunk"])] if shrunk else []
        cells += [fmt_score(values[m]) for m in measures]
        cells += ["yes" if values["binary"] else "no"] if has_binary else []
        cells += [str(values["uses_a"]), str(values["uses_b"])]
        cells += [fmt_score(values[c]) if c != "change_binary" else _gold_binary(values[c]) for c in gold]
        rows.append(cells)
    binary = document.get("binary", {})
    paragraphs = [
        f"Slices of {document.get('by')}: {', '.join(change.slices)}"
        + (" (bins, both ends inclusive)" if document.get("bins") else "")
        + f". The ranking compares {main[0]} (A) with {main[1]} (B), by {change.measure}"
        + (
            f", ordered by {describe_order(str(document.get('rank_by')), confidence)} (a slice needs at least "
            f"{document.get('min_uses')} uses)."
            if has_interval and document.get("rank_by") in ("lower", "shrunk")
            else "."
        ),
    ]
    if has_binary:
        paragraphs.append(
            f"binary: some sense has at most k = {binary.get('k')} uses in one slice and at least n = "
            f"{binary.get('n')} in the other."
        )
    slices = change.slices
    if len(slices) > 2:
        compared = "the first and the last slice" if [str(m) for m in main] == [slices[0], slices[-1]] else "two slices"
        paragraphs.append(
            f"This ranking compares {compared} only, {main[0]} and {main[1]}, not the {len(slices)} slices in "
            "between. Which words changed over the whole period: the trend table below (each sense's share over "
            "every slice)."
        )
    unmeasured = document.get("unmeasured") or []
    main_missing = [u for u in unmeasured if [str(u.get("slice_a")), str(u.get("slice_b"))] == [str(m) for m in main]]
    if main_missing:
        listed = "; ".join(f"{u['target']} ({u['reason']})" for u in main_missing[:20])
        paragraphs.append(f"Not measured: {listed}" + (" ..." if len(main_missing) > 20 else "") + ".")
    legend = ranking_legend(change.measure, [m for m in measures if m != change.measure], confidence)
    if not has_interval:
        legend = legend[:-2]
    elif not shrunk:
        legend = legend[:-1]
    legend += ([fallback] if fallback else []) + disagreement_notes(change.ranking, change.measure)
    caption = f"Targets by change from {main[0]} to {main[1]}"
    tables = [Table(header, rows, [c not in ("target", "binary") for c in header], caption, "scores", legend)]
    changes = change.sense_changes
    if len(changes):
        tables.append(
            Table(
                ["target", "sense", "change", "slices", "uses A", "uses B"],
                [
                    [str(r.target), str(r.sense), str(r.change), f"{r.slice_a} → {r.slice_b}", str(r.count_a),
                     str(r.count_b)]
                    for r in changes.itertuples()
                ],
                [False, True, False, False, True, True],
                caption="Senses that appeared or vanished (judged with counts: " + _shift_rule(document) + ")",
            )
        )  # fmt: skip
    notes, more = trend_tables(change)
    return Section("Change across slices", "change", paragraphs + notes, tables + more)


def _shift_rule(document: ChangeMeta) -> str:
    test = document.get("sense_shift_test")
    if not test:  # a change folder written before issue 25: the binary rule decided
        return "the binary rule"
    return (
        f"at least {test['present_min']} uses where present, at most {test['absent_max']} where absent, and a "
        f"one-sided Fisher exact test at {test['alpha']:g}"
    )


def trend_tables(change: ChangeData) -> tuple[list[str], list[Table]]:
    """The senses with a trend over the slices, and each target's pair of slices of largest change.

    Parameters
    ----------
    change : ChangeData
        The change folder's tables (the trends only when it has them).

    Returns
    -------
    (list of str, list of Table)
        A note when no sense has a trend, and the tables; both empty for a change folder without trends (two
        slices, or written before issue 25).
    """
    notes: list[str] = []
    tables = []
    trends = change.trends
    if len(trends):
        shown = trends[trends["trend"] != "no trend"].sort_values(["p_value", "target", "sense"], kind="mergesort")
        quiet = len(trends) - len(shown)
        rows = [
            [
                str(r.target),
                str(r.sense),
                str(r.trend),
                f"{r.first_slice} → {r.last_slice} ({r.slices})",
                f"{fmt_score(r.proportion_first)} → {fmt_score(r.proportion_last)}",
                fmt_score(r.tau),
                f"{r.p_value:.2g}",
                f"{r.slope:+.3f} [{r.slope_low:+.3f}, {r.slope_high:+.3f}]",
            ]
            for r in shown.itertuples()
        ]
        test = change.document.get("trend_test", {})
        caption = (
            f"Which words changed over the whole period: the senses whose share rises or falls over the "
            f"{len(change.slices)} slices (Kendall p < {test.get('alpha', 0.05):g} and a slope interval clear of 0); "
            f"{plural(quiet, 'sense')} without a trend: trends.csv"
        )
        if not rows:
            notes.append(
                f"Which words changed over the whole period: none; no sense's share rises or falls over the "
                f"{len(change.slices)} slices (Kendall p < {test.get('alpha', 0.05):g} and a slope interval clear "
                f"of 0; {plural(quiet, 'sense')}: trends.csv)."
            )
        else:
            tables.append(
                Table(
                    ["target", "sense", "trend", "slices", "share", "Kendall τ", "p", "slope per slice [interval]"],
                    rows,
                    [False, True, False, False, False, True, True, False],
                    caption=caption,
                )
            )
    largest = change.document.get("largest") or []
    if largest and len(change.slices) > 2:
        tables.append(
            Table(
                ["target", "slices", f"score ({change.measure})", "interval", "uses A", "uses B", "pairs"],
                [
                    [
                        str(r["target"]),
                        f"{r['slice_a']} → {r['slice_b']}",
                        fmt_score(r["score"]),
                        f"{fmt_score(r['score_low'])}–{fmt_score(r['score_high'])}",
                        str(r["uses_a"]),
                        str(r["uses_b"]),
                        str(r["pairs"]),
                    ]
                    for r in sorted(largest, key=lambda r: (-r["score_low"], -r["score"], str(r["target"])))
                ],
                [False, False, True, False, True, True, True],
                caption="Each target's pair of slices of largest change (ordered as the ranking)",
            )
        )
    return notes, tables


def _gold_binary(value: Any) -> str:
    try:
        return "yes" if int(value) == 1 else "no"
    except (TypeError, ValueError):
        return "–"
