"""docs/change.md (Corpus analysis): its commands parse, its default measure is the code's, its example runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pandas as pd
import pytest

from wsd.cli import build_parser, main
from wsd.io.layout import CHANGE_DIR, CHANGE_RANKING, CHANGE_SENSES, CHANGE_TIMELINE, CHANGE_TRENDS, CHANGE_UNMEASURED
from wsd.schema import DEFAULT_MEASURE

pytestmark = pytest.mark.slow  # the slow lane: runs the worked examples of docs/change.md

REPO = Path(__file__).resolve().parents[1]
PAGE = (REPO / "docs" / "change.md").read_text(encoding="utf-8")
WORKED = (REPO / "experiments" / "results" / "worked_examples" / "worked_examples.md").read_text(encoding="utf-8")


def _section() -> str:
    """The whole page: the corpus-analysis guide, its worked example and the WUG evaluation."""
    return PAGE


def _demo_ranking() -> str:
    """The demo ranking table the page includes (``worked_examples.md table 1``), as the docs site shows it."""
    assert "<!-- results: worked_examples/worked_examples.md table 1 -->" in PAGE
    demo = WORKED.split("\n## ", 2)[1]
    assert demo.startswith("The demo corpus, 1850:1984 vs 1985:2020")
    return demo.split("\n### ", 1)[0]


def _commands() -> list[list[str]]:
    """Every ``wsd ...`` line of the section's bash blocks, continuations joined, [optional] parts dropped."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", _section(), flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\[[^\]]*\]", "", line.split("  #")[0]).strip()
            if line.startswith("wsd "):
                commands.append(shlex.split(line)[1:])
    return commands


def test_every_command_of_the_section_parses() -> None:
    commands = _commands()
    assert {c[0] for c in commands} >= {"run", "change", "report", "config", "evaluate"}
    parser = build_parser()
    for command in commands:
        parser.parse_args(command)  # an unknown option exits with code 2


def test_the_page_names_the_default_measure() -> None:
    assert f"the ranking, `graded_spearman` below) is `{DEFAULT_MEASURE}`" in _section()


def test_the_worked_example_gives_the_table(tmp_path: Path, capsys, monkeypatch) -> None:
    example = next(c for c in _commands() if c[0] == "run" and "runs/demo-change" in c)
    out = tmp_path / "demo-change"
    example = [str(out) if arg == "runs/demo-change" else arg for arg in example if arg != "--report"]
    monkeypatch.chdir(REPO)
    assert main([*example, "--no-progress"]) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    assert (
        "ranked by the score shrunk toward the mean by its uncertainty" in printed
        and "prt, 1850:1984 vs 1985:2020" in printed
    )
    ranking = pd.read_csv(out / CHANGE_DIR / f"{CHANGE_RANKING}.csv")
    table = re.findall(r"^\| (\d) \| (\w+) \| ([\d.]+) \|", _demo_ranking(), flags=re.M)
    assert [(int(r), t) for r, t, _ in table] == list(zip(ranking["rank"], ranking["target"], strict=True))
    assert [float(s) for _, _, s in table] == pytest.approx(ranking["score"].round(3).tolist(), abs=2e-3)
    intervals = re.findall(r"^\| \d \| \w+ \| [\d.]+ \| ([\d.]+)–([\d.]+) \|", _demo_ranking(), flags=re.M)
    assert [float(low) for low, _ in intervals] == pytest.approx(ranking["score_low"].tolist(), abs=2e-3)
    assert [float(high) for _, high in intervals] == pytest.approx(ranking["score_high"].tolist(), abs=2e-3)
    unmeasured = pd.read_csv(out / CHANGE_DIR / CHANGE_UNMEASURED)
    assert sorted(unmeasured[["target", "reason"]].values.tolist()) == [
        ["bank", "slice 1985:2020 has 11 uses, fewer than --min-uses 20"],
        ["bat", "slice 1985:2020 has 9 uses, fewer than --min-uses 20"],
        ["plant", "slice 1985:2020 has 11 uses, fewer than --min-uses 20"],
    ]
    assert "`slice 1985:2020 has 9 uses, fewer than\n--min-uses 20`" in _section()
    changes = pd.read_csv(out / CHANGE_DIR / f"{CHANGE_SENSES}.csv")
    assert sorted(changes["target"]) == ["cell", "mouse"] and set(changes["change"]) == {"appeared"}
    counted = changes.sort_values("target")[["target", "count_a", "count_b"]].values.tolist()
    assert counted == [["cell", 0, 8], ["mouse", 0, 20]] and (changes["p_value"] < 0.01).all()
    assert "<!-- results: worked_examples/worked_examples.md#senses-that-appeared-or-vanished -->" in PAGE
    shown = re.findall(r"^\| (\w+) \| \d+ \| appeared \| 0 of \d+ → (\d+) of \d+ \| ([\d.e-]+) \|", WORKED, flags=re.M)
    assert [(t, int(n)) for t, n, _ in shown[:2]] == [("cell", 8), ("mouse", 20)]
    assert all(float(p) < 0.01 for _, _, p in shown[:2])
    assert pd.read_csv(out / CHANGE_DIR / f"{CHANGE_TRENDS}.csv").empty  # two slices: no trend
    assert len(pd.read_csv(out / CHANGE_DIR / f"{CHANGE_TIMELINE}.csv")) == len(ranking)  # the one pair
