"""experiments/sense_minilm_distill: the page's reading of issue 40's 34 and of what the teacher adds (no data)."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.sense_minilm_distill import COLUMNS, main, markdown


def _results(taught: float, wise: float) -> dict:
    def row(semeval2013: float) -> dict:
        figures = {key: 0.3 for _, key in COLUMNS} | {"semeval2013_all": semeval2013, "ari_one_sense": 0.134}
        return {"training": {"steps": 732, "seconds": 1000.0, "precision": "bf16 autocast"}, "figures": figures}

    rows = {"untuned": row(0.318), "untaught": row(0.288), "taught": row(taught), "taught_wise": row(wise)}
    rows["untuned"]["training"] = None
    return {"command": "c", "machine": "m", "date": "d", "seed": 0, "teacher": "t", "rows": rows, "intervals": {}}


def test_the_reading_takes_the_best_taught_row_and_states_what_the_teacher_adds() -> None:
    page = markdown(_results(0.3128, 0.3184))
    assert "is **not met** by this lever (best of the taught rows 31.84; one training seed)" in page
    assert "taught − untaught, SemEval-2013 all: +2.48 points" in page
    assert "is **met** by this lever (best of the taught rows 34.10" in markdown(_results(0.341, 0.33))
    assert "| bundled MiniLM, untuned | – | – | – | 31.80 |" in page
    assert "| 732 | bf16 autocast | 1,000 | 31.28 |" in page  # each trained row's precision
    assert "SemEval-2010 not worse than untuned (30.00): yes, for both taught rows." in page
    below = _results(0.3128, 0.3184)
    below["rows"]["taught"]["figures"]["semeval2010"] = 0.25
    assert "**no**, below it: WiC mix, every pair labelled by the teacher." in markdown(below)


def test_a_teacher_that_is_not_there_stops_before_any_training(tmp_path: Path, capsys, monkeypatch) -> None:
    import experiments.sense_minilm_distill as experiment

    monkeypatch.setattr(experiment, "RESULTS_JSON", tmp_path / "none.json")
    with pytest.raises(SystemExit) as exited:
        main(["--markdown-only"])
    assert exited.value.code == 2 and "no results yet" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="no tuned model there"):  # checked before anything is trained
        experiment.models(tmp_path / "work", tmp_path, tmp_path / "no-teacher", 0)
    assert not (tmp_path / "work").exists()
