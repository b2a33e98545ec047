"""Sense names from an inventory (``--inventory wordnet:DIR``, issue 41): the WordNet reader, the naming of
occurrences and senses, and the outputs that carry the names (labels, senses.md, change tables, the CLI)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.errors import ConfigError, InputError
from wsd.evaluate.wordnet import WordNet, parse_line
from wsd.io.run_reader import load_run
from wsd.io.run_store import write_run
from wsd.senses.naming import (
    NO_ENTRY,
    NamingParameters,
    describe_names,
    name_shares,
    nearest_names,
)
from wsd.workflows.naming import (
    InventoryNamer,
    name_occurrences,
    open_inventory,
    prototypes,
    synset_uses,
    target_senses,
)

#: A tiny database: per file, synsets as (key, lexicographer file, words with lex ids, gloss). The index lists
#: bank's river sense first although the data file holds the financial one first.
SYNSETS = {
    "noun": [
        ("money", 14, [("depository_financial_institution", 0), ("bank", 0)],
         'a financial institution; "he cashed a check at the bank"'),
        ("river", 17, [("bank", 1)], 'sloping land beside water; "they sat on the river bank"; "no word of it"'),
        ("mouse", 5, [("mouse", 0)], 'a small rodent; "a mouse ran by"'),
    ],
    "verb": [("deal", 40, [("bank", 0)], 'do business with a bank; "we bank with them"')],
    "adj": [("ready", 0, [("ready", 0)], 'prepared; "ready to go"')],
    "adv": [("soon", 2, [("soon", 0)], 'in the near future; "soon enough"')],
}  # fmt: skip
INDEX = {"noun": {"bank": ["river", "money"], "mouse": ["mouse"]}, "verb": {"bank": ["deal"]},
         "adj": {"ready": ["ready"]}, "adv": {"soon": ["soon"]}}  # fmt: skip
TYPES = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}


def make_wordnet(root: Path) -> Path:
    """Write the tiny database: data files whose offsets are the lines' byte offsets, and index files."""
    root.mkdir(parents=True, exist_ok=True)
    for name, synsets in SYNSETS.items():
        lines = ["  1 This software and database is being provided to you, the LICENSEE  "]
        position = len(lines[0]) + 1
        offsets = {}
        for key, lexfile, words, gloss in synsets:
            body = " ".join(f"{w} {i:x}" for w, i in words)
            line = f"{position:08d} {lexfile:02d} {TYPES[name]} {len(words):02x} {body} 000 | {gloss}  "
            offsets[key] = position
            lines.append(line)
            position += len(line.encode("utf-8")) + 1
        (root / f"data.{name}").write_text("\n".join(lines) + "\n", encoding="utf-8")
        index = ["  1 This software and database is being provided to you, the LICENSEE  "]
        for lemma, keys in INDEX[name].items():
            numbers = " ".join(f"{offsets[k]:08d}" for k in keys)
            index.append(f"{lemma} {TYPES[name]} {len(keys)} 0 {len(keys)} 0 {numbers}  ")
        (root / f"index.{name}").write_text("\n".join(index) + "\n", encoding="utf-8")
    return root


#: The fake encoder's axes: a text about rivers, about money, anything else.
AXES = (("river", "water", "land", "shore"), ("money", "check", "financial", "loan", "cash"))


class WordEncoder:
    """Stands for an encoder: a vector from the words of the text around the span (3 dims)."""

    dim = 3

    def embed_occurrences(self, occurrences: pd.DataFrame, progress: bool = False) -> np.ndarray:
        rows = []
        for text in occurrences["text"].astype(str):
            words = text.lower().replace(";", " ").split()
            vector = np.array([sum(w in axis for w in words) for axis in AXES] + [0.2], dtype=np.float32)
            rows.append(vector)
        return np.array(rows, dtype=np.float32)

    def identity(self, *args, **kwargs):  # pragma: no cover - not called by naming
        raise AssertionError


def occurrences_and_vectors() -> tuple[pd.DataFrame, np.ndarray]:
    texts = [f"the bank by the river {i}" for i in range(6)] + [f"a loan from the bank {i}" for i in range(6)]
    texts += [f"the zyx thing {i}" for i in range(3)]
    targets = ["bank"] * 12 + ["zyx"] * 3
    starts = [t.index(target) for t, target in zip(texts, targets, strict=True)]
    frame = pd.DataFrame(
        {
            "id": [f"o{i}" for i in range(len(texts))],
            "target": targets,
            "form": targets,
            "text": texts,
            "start": starts,
            "end": [s + len(t) for s, t in zip(starts, targets, strict=True)],
            "doc_id": [f"d{i}" for i in range(len(texts))],
            "doc_start": 0,
            "year": [1900 + 100 * (i % 2) for i in range(len(texts))],
        }
    )
    return frame, WordEncoder().embed_occurrences(frame)


def test_wordnet_reads_senses_in_index_order_with_sense_keys(tmp_path: Path) -> None:
    wn = WordNet(make_wordnet(tmp_path / "wn"))
    senses = wn.senses("Bank", "n")
    assert [s.name for s in senses] == ["bank.n.01", "bank.n.02"]
    assert senses[0].synset.definition == "sloping land beside water"
    assert [wn.sense_key(s) for s in senses] == ["bank%1:17:01::", "bank%1:14:00::"]
    assert [s.name for s in wn.senses("bank")] == ["bank.n.01", "bank.n.02", "bank.v.01"]
    assert wn.senses("zyx") == [] and wn.parts_of_speech("bank") == ["n", "v"]
    # a lemma.pos target names one part of speech (SemEval's add.v, full.j)
    assert [s.name for s in target_senses(wn, "bank.v")] == ["bank.v.01"]
    assert [s.name for s in target_senses(wn, "ready.j")] == ["ready.a.01"]


def test_synset_uses_are_located_examples_and_glosses(tmp_path: Path) -> None:
    wn = WordNet(make_wordnet(tmp_path / "wn"))
    uses = synset_uses(wn, wn.senses("bank", "n"))
    found = {(r.synset, r.kind): r.text[r.start : r.end] for r in uses.itertuples()}
    assert found[("bank.n.01", "example")] == "bank"  # "no word of it" is not a use: the lemma is not in it
    assert len(uses[(uses["synset"] == "bank.n.01") & (uses["kind"] == "example")]) == 1
    assert found[("bank.n.02", "gloss")] == "bank"


def test_hyponym_pointers_of_the_synsets_own_part_of_speech_are_read() -> None:
    line = "00002724 19 n 01 power 0 004 @ 00001740 n 0000 ~ 00001111 n 0000 ~i 00002222 n 0000 ~ 00003333 v 0000 | x"
    assert parse_line(line, "data.noun:1").hyponyms == (1111, 2222)  # not the verb's, not the hypernym
    assert parse_line("00002724 19 n 01 power 0 000 | x", "data.noun:1").hyponyms == ()


def test_the_related_representation_averages_examples_gloss_and_related_phrases() -> None:
    uses = pd.DataFrame(
        {"synset": ["a.n.01"] * 4 + ["a.n.02"], "kind": ["example", "example", "gloss", "related", "gloss"]}
    )
    vectors = np.array([[1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0]], dtype=np.float32)
    related = prototypes(uses, vectors, ["a.n.01", "a.n.02"], "related")
    np.testing.assert_allclose(related[0], [1 / 3, 1 / 3, 1 / 3], atol=1e-6)
    np.testing.assert_allclose(related[1], [0, 1, 0], atol=1e-6)  # no example, no related phrase: its gloss
    both = prototypes(uses, vectors, ["a.n.01", "a.n.02"], "both")
    np.testing.assert_allclose(both[0], [0.5, 0.5, 0], atol=1e-6)  # the related phrases are the new kind's only


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda root: root, r"not a WordNet database folder \(no index\.noun"),
        (lambda root: root / "missing", "WordNet folder not found"),
    ],
)
def test_a_folder_that_is_not_wordnet_is_refused(tmp_path: Path, make, message: str) -> None:
    (tmp_path / "notes.txt").write_text("hello\n", encoding="utf-8")
    with pytest.raises(InputError, match=message):
        open_inventory(f"wordnet:{make(tmp_path)}")
    with pytest.raises(ConfigError, match="expected wordnet:DIR"):
        open_inventory(str(tmp_path))


def test_an_index_that_is_not_wordnet_is_refused(tmp_path: Path) -> None:
    root = make_wordnet(tmp_path / "wn")
    (root / "index.verb").write_text("this is not an index\n", encoding="utf-8")
    with pytest.raises(InputError, match="not a WordNet index line"):
        WordNet(root)


def test_nearest_names_leave_uncertain_uses_unnamed() -> None:
    X = np.array([[1.0, 0.0], [0.7, 0.69], [0.0, 1.0]])
    P = np.array([[1.0, 0.0], [0.0, 1.0]])
    open_ = NamingParameters(center=False, min_similarity=-1.0, min_margin=0.0)
    loose = nearest_names(X, P, ["a.n.01", "a.n.02"], parameters=open_)
    assert loose["synset"].tolist() == ["a.n.01", "a.n.01", "a.n.02"]  # without thresholds every use is named
    strict = nearest_names(X, P, ["a.n.01", "a.n.02"], parameters=NamingParameters(center=False, min_margin=0.05))
    assert strict["synset"].tolist() == ["a.n.01", "", "a.n.02"] and strict["nearest"].tolist()[1] == "a.n.01"
    high = nearest_names(X, P, ["a.n.01", "a.n.02"], parameters=NamingParameters(center=False, min_similarity=0.99))
    assert high["synset"].tolist() == ["a.n.01", "", "a.n.02"]
    # the prior moves a close call toward the sense WordNet's tagged texts use more
    prior = np.array([0.1, 0.9])
    tilted = nearest_names(X, P, ["a.n.01", "a.n.02"], prior, NamingParameters(center=False, prior_weight=0.1))
    assert tilted["synset"].tolist()[1] == "a.n.02"
    assert nearest_names(X, None, [])["synset"].tolist() == [NO_ENTRY] * 3


def test_name_shares_flag_a_mixture_and_describe_it() -> None:
    synsets = ["bank.n.02"] * 5 + ["bank.n.01"] * 4 + [""] + ["bank.n.02"] * 9 + ["bank.n.01"]
    frame = pd.DataFrame({"target": "bank", "sense": [0] * 10 + [1] * 10, "synset": synsets})
    shares = name_shares(frame).set_index("sense")
    assert bool(shares.loc[0, "mixture"]) and not bool(shares.loc[1, "mixture"])
    assert shares.loc[1, "top"] == "bank.n.02" and float(shares.loc[0, "unnamed"]) == pytest.approx(0.1)
    line = describe_names(
        shares.loc[0, "names"], 0.1, definitions={"bank.n.02": "a financial institution"}, mixture=True
    )
    assert line == "mixture: 50% ≈ bank.n.02 (a financial institution), 40% ≈ bank.n.01, 10% unnamed"


def test_occurrences_are_named_by_their_nearest_synset(tmp_path: Path) -> None:
    wn = WordNet(make_wordnet(tmp_path / "wn"))
    occurrences, X = occurrences_and_vectors()
    naming = name_occurrences(occurrences, X, wn, WordEncoder().embed_occurrences, NamingParameters(center=False))
    assert naming.frame["synset"].tolist() == ["bank.n.01"] * 6 + ["bank.n.02"] * 6 + [NO_ENTRY] * 3
    assert naming.definitions["bank.n.02"] == "a financial institution"
    assert naming.meta["senses_per_target"] == {"bank": 3, "zyx": 0}


def test_cluster_run_writes_names_and_change_tables_carry_them(tmp_path: Path) -> None:
    from wsd.change.stage import change_run
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.stage import cluster_run

    occurrences, X = occurrences_and_vectors()
    run = write_run(tmp_path / "run", occurrences, X, {"config": {}})
    namer = InventoryNamer(
        f"wordnet:{make_wordnet(tmp_path / 'wn')}", NamingParameters(center=False), encoder=WordEncoder()
    )
    senses = cluster_run(run, inducer=SenseInducer(method="one-sense"), namer=namer)
    labels = pd.read_parquet(senses / "labels.parquet")
    assert labels["synset"].tolist()[:12] == ["bank.n.01"] * 6 + ["bank.n.02"] * 6
    table = pd.read_parquet(senses / "senses.parquet").set_index("target")
    # one sense holding both meanings half and half: a mixture, by name
    assert bool(table.loc["bank", "mixture"]) and table.loc["zyx", "names_text"] == NO_ENTRY
    assert table.loc["bank", "names_text"].startswith("mixture: 50% ≈ bank.n.01 (sloping land beside water)")
    markdown = (senses / "senses.md").read_text(encoding="utf-8")
    assert "| sense | size | names | keywords | examples |" in markdown and "≈ bank.n.02" in markdown
    # a lemma WordNet does not list is "no entry" in every output, not an error
    assert set(labels.loc[labels["target"] == "zyx", "synset"]) == {NO_ENTRY}
    assert f"| 0 | 3 | {NO_ENTRY} |" in markdown.split("## zyx")[1]
    meta = json.loads((senses / "meta.json").read_text(encoding="utf-8"))
    assert meta["naming"]["inventory"].startswith("wordnet:") and meta["naming"]["parameters"]["center"] is False
    # each name carries its evidence: the cosine and the lead nearest_names gave it (NaN where there is no entry)
    stored, vectors = load_run(run)
    wn = WordNet(tmp_path / "wn")
    expected = name_occurrences(stored, vectors, wn, WordEncoder().embed_occurrences, NamingParameters(center=False))
    expected = expected.frame
    assert list(labels.columns[-3:]) == ["synset", "synset_cosine", "synset_lead"]
    assert labels["synset_cosine"].dtype == np.float64 and labels["synset_lead"].dtype == np.float64
    np.testing.assert_allclose(labels["synset_cosine"], expected["similarity"].to_numpy(np.float64))
    np.testing.assert_allclose(labels["synset_lead"], expected["margin"].to_numpy(np.float64))
    assert labels.loc[labels["target"] == "zyx", ["synset_cosine", "synset_lead"]].isna().all().all()
    assert labels.loc[labels["target"] == "bank", ["synset_cosine", "synset_lead"]].notna().all().all()
    with pytest.warns(UserWarning, match=r"cannot be measured: zyx \(slice 2000 has 1 uses"):
        change = change_run(run, senses, by="year", min_uses=2)
    counts = pd.read_parquet(change / "counts.parquet")
    assert counts.loc[counts["target"] == "bank", "names"].str.contains("bank.n.02").all()
    assert set(counts.loc[counts["target"] == "zyx", "names"]) == {NO_ENTRY}
    assert "names" in pd.read_parquet(change / "trends.parquet").columns
    # the same inventory and thresholds again: the names are the ones asked for, nothing to say
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*cannot be measured")
        warnings.filterwarnings("error", message=".*already named")
        change_run(run, senses, by="year", min_uses=2, namer=namer, overwrite=True)
    # other thresholds: wsd change keeps the senses' names and says so, and how to rename
    surer = InventoryNamer(
        f"wordnet:{tmp_path / 'wn'}", NamingParameters(center=False, min_margin=0.5), encoder=WordEncoder()
    )
    with pytest.warns(UserWarning) as caught:  # beside zyx's "cannot be measured"
        kept = change_run(run, senses, by="year", min_uses=2, namer=surer, overwrite=True)
    said = [str(w.message) for w in caught if "already named" in str(w.message)]
    assert len(said) == 1 and "keeps those names" in said[0] and "run wsd cluster" in said[0]
    pd.testing.assert_frame_equal(pd.read_parquet(kept / "counts.parquet"), counts)


def test_change_names_unnamed_senses_when_asked(tmp_path: Path) -> None:
    from wsd.change.stage import change_run
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.stage import cluster_run

    occurrences, X = occurrences_and_vectors()
    run = write_run(tmp_path / "run", occurrences, X, {"config": {}})
    senses = cluster_run(run, inducer=SenseInducer(method="kmeans", k=2, random_state=0))
    assert "names_text" not in pd.read_parquet(senses / "senses.parquet").columns
    namer = InventoryNamer(
        f"wordnet:{make_wordnet(tmp_path / 'wn')}", NamingParameters(center=False), encoder=WordEncoder()
    )
    with pytest.warns(UserWarning, match=r"cannot be measured: zyx \(slice 2000 has 1 uses"):
        change = change_run(run, senses, by="year", min_uses=2, namer=namer)
    counts = pd.read_parquet(change / "counts.parquet")
    named = set(counts.loc[counts["target"] == "bank", "names"])
    assert named == {"100% ≈ bank.n.01 (sloping land beside water)", "100% ≈ bank.n.02 (a financial institution)"}


def test_cli_refuses_a_folder_that_is_not_wordnet_in_one_line(tmp_path: Path, capsys) -> None:
    from wsd.cli import main

    occurrences, X = occurrences_and_vectors()
    run = write_run(tmp_path / "run", occurrences, X, {"config": {}})
    inventory = ["--inventory", f"wordnet:{tmp_path}"]
    corpus = Path(__file__).resolve().parents[1] / "data" / "demo" / "corpus.txt"
    for argv in (
        ["cluster", "--run", str(run), *inventory, "--no-progress"],
        ["change", "--run", str(run), "--by", "year", *inventory],
        ["run", "--corpus", str(corpus), "--targets", "bank", *inventory, "--out", str(tmp_path / "out")],
    ):
        code = main(argv)
        err = capsys.readouterr().err.strip()
        assert code == 2 and len(err.splitlines()) == 1 and "not a WordNet database folder" in err
    assert not (run / "senses").exists() and not (tmp_path / "out").exists(), "refused before anything is written"


def _cluster(argv: list[str]) -> pd.DataFrame:
    """``wsd cluster`` of ``argv`` (it must succeed), and the labels it wrote."""
    from wsd.cli import main

    out = Path(argv[argv.index("--out") + 1])
    assert main(["cluster", *argv, "--method", "one-sense", "--no-progress"]) == 0
    return pd.read_parquet(out / "labels.parquet")


def test_cli_thresholds_leave_the_uses_below_them_unnamed(tmp_path: Path, monkeypatch) -> None:
    # the run has no encoder identity: its namer embeds the synsets with the fake encoder its vectors came from
    monkeypatch.setattr("wsd.workflows.naming.encoder_from_meta", lambda embedding, **options: WordEncoder())
    occurrences, X = occurrences_and_vectors()
    run = write_run(tmp_path / "run", occurrences, X, {"config": {}})
    named = ["--run", str(run), "--inventory", f"wordnet:{make_wordnet(tmp_path / 'wn')}"]
    every = _cluster([*named, "--out", str(tmp_path / "every")])
    bank = (every["target"] == "bank").to_numpy()
    assert (every.loc[bank, "synset"] != "").all(), "by default every use of a listed lemma is named"
    river, money = (
        float(every.loc[every["synset"] == name, "synset_lead"].iloc[0]) for name in ("bank.n.01", "bank.n.02")
    )
    assert river != money
    lead = (river + money) / 2  # between the two meanings' leads: the less sure one goes unnamed
    surer = _cluster([*named, "--out", str(tmp_path / "surer"), "--name-min-lead", repr(lead)])
    below = bank & (every["synset_lead"].to_numpy() < lead)
    assert 0 < below.sum() < bank.sum()
    assert (surer.loc[below, "synset"] == "").all()
    assert surer.loc[bank & ~below, "synset"].tolist() == every.loc[bank & ~below, "synset"].tolist()
    assert set(surer.loc[~bank, "synset"]) == {NO_ENTRY}  # no entry stays no entry, whatever the thresholds
    pd.testing.assert_series_equal(surer["synset_lead"], every["synset_lead"])  # the evidence does not change
    meta = json.loads((tmp_path / "surer" / "meta.json").read_text(encoding="utf-8"))
    assert meta["naming"]["parameters"]["min_margin"] == lead
    assert meta["naming"]["parameters"]["min_similarity"] == -1.0
    assert f"name_min_lead = {lead!r}" in (tmp_path / "surer" / "config.toml").read_text(encoding="utf-8")
    cosine = float(every.loc[bank, "synset_cosine"].max())  # only the nearest of all keeps its name
    closest = _cluster([*named, "--out", str(tmp_path / "closest"), "--name-min-cosine", repr(cosine)])
    kept = bank & (every["synset_cosine"].to_numpy() >= cosine)
    assert 0 < kept.sum() < bank.sum()
    assert (closest.loc[kept, "synset"] != "").all() and (closest.loc[bank & ~kept, "synset"] == "").all()
    meta = json.loads((tmp_path / "closest" / "meta.json").read_text(encoding="utf-8"))
    assert meta["naming"]["parameters"]["min_similarity"] == cosine and meta["naming"]["parameters"]["min_margin"] == 0


def _one_line_refusal(argv: list[str], capsys) -> str:
    """The one line ``wsd`` answers ``argv`` with, and exit code 2 (from the parser or from the command)."""
    from wsd.cli import main

    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, (argv, code, err)
    return err


def _naming_commands(tmp_path: Path, inventory: list[str]) -> list[list[str]]:
    """``wsd cluster``, ``change`` and ``run`` of a small run and corpus, with ``inventory`` flags."""
    occurrences, X = occurrences_and_vectors()
    run = tmp_path / "run"
    if not run.exists():
        write_run(run, occurrences, X, {"config": {}})
    corpus = Path(__file__).resolve().parents[1] / "data" / "demo" / "corpus.txt"
    return [
        ["cluster", "--run", str(run), *inventory, "--no-progress"],
        ["change", "--run", str(run), "--by", "year", *inventory],
        ["run", "--corpus", str(corpus), "--targets", "bank", *inventory, "--out", str(tmp_path / "out")],
    ]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--name-min-lead", "-0.1"], "--name-min-lead: expected a number ≥ 0, got -0.1"),
        (["--name-min-lead", "nan"], "--name-min-lead: expected a finite number, got 'nan'"),
        (["--name-min-lead", "inf"], "--name-min-lead: expected a finite number, got 'inf'"),
        (["--name-min-cosine", "1.5"], "--name-min-cosine: expected a number ≤ 1, got 1.5"),
        (["--name-min-cosine", "-2"], "--name-min-cosine: expected a number ≥ -1, got -2"),
        (["--name-min-cosine", "high"], "--name-min-cosine: expected a number, got 'high'"),
        (["--set", "output.name_min_lead=-0.5"], "output.name_min_lead must be at least 0, not -0.5"),
        (["--set", "output.name_min_cosine=nan"], "output.name_min_cosine must be a number, not the number NaN"),
    ],
)
def test_cli_refuses_a_bad_threshold_in_one_line(tmp_path: Path, capsys, flags: list[str], message: str) -> None:
    inventory = ["--inventory", f"wordnet:{make_wordnet(tmp_path / 'wn')}", *flags]
    for argv in _naming_commands(tmp_path, inventory):
        assert message in _one_line_refusal(argv, capsys)
    assert not (tmp_path / "run" / "senses").exists() and not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "flags", [["--name-min-lead", "0.01"], ["--name-min-cosine", "-1"], ["--set", "output.name_min_cosine=0.5"]]
)
def test_cli_refuses_a_threshold_without_an_inventory(tmp_path: Path, capsys, flags: list[str]) -> None:
    for argv in _naming_commands(tmp_path, flags):
        err = _one_line_refusal(argv, capsys)
        assert "sure a name from --inventory must be: give --inventory wordnet:DIR too" in err
        assert err.split(": error: ")[1].startswith(("--name-min-lead", "--name-min-cosine"))
    assert not (tmp_path / "run" / "senses").exists() and not (tmp_path / "out").exists()


def test_a_written_configuration_without_an_inventory_passes_the_threshold_check() -> None:
    import argparse

    from wsd.cli.settings import check_naming_settings
    from wsd.config import resolve_config

    config = resolve_config("cluster", flags={"senses.run": "runs/x"})  # as OUT/config.toml records it: defaults
    assert config["output"]["name_min_lead"] == 0.0 and config["output"]["name_min_cosine"] == -1.0
    check_naming_settings(config, argparse.Namespace())
    with pytest.raises(ConfigError, match="--name-min-cosine"):
        check_naming_settings({"output": {**config["output"], "name_min_cosine": 0.2}}, argparse.Namespace())


@pytest.mark.slow  # wsd run three times with the bundled encoder
def test_wsd_run_keeps_named_senses_only_for_the_same_thresholds(tmp_path: Path) -> None:
    from wsd.cli import main

    corpus = tmp_path / "corpus.txt"
    corpus.write_text(
        "We sat on the river bank all day.\nThe bank approved the loan.\nShe walked along the bank of the river.\n"
        "He took cash from the bank.\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    argv = ["run", "--corpus", str(corpus), "--targets", "bank", "--out", str(out), "--method", "one-sense"]
    argv += ["--inventory", f"wordnet:{make_wordnet(tmp_path / 'wn')}", "--no-progress"]
    assert main(argv) == 0
    every = pd.read_parquet(out / "senses" / "labels.parquet")
    assert (every["synset"] != "").all()
    cosine = float(every["synset_cosine"].max()) + 1e-3  # above every use's: none is named
    assert main([*argv, "--name-min-cosine", repr(cosine)]) == 0, "another threshold: named again, not reused"
    none = pd.read_parquet(out / "senses" / "labels.parquet")
    assert (none["synset"] == "").all()
    meta = out / "senses" / "meta.json"
    assert json.loads(meta.read_text(encoding="utf-8"))["request"]["naming"]["min_similarity"] == cosine
    written = meta.stat().st_mtime_ns
    assert main([*argv, "--name-min-cosine", repr(cosine)]) == 0
    assert meta.stat().st_mtime_ns == written, "the same thresholds: the senses are reused"


def test_shared_wordnet_names_bank(datasets_dir: Path) -> None:
    folder = datasets_dir / "wordnet-3.0"
    if not (folder / "index.noun").is_file():
        pytest.skip(f"WordNet 3.0 not found in {folder}")
    wn = WordNet(folder)
    senses = wn.senses("bank", "n")
    assert senses[1].name == "bank.n.02" and wn.sense_key(senses[1]) == "bank%1:14:00::"
    assert "financial institution" in senses[1].synset.definition
    # a satellite adjective's key names its head (SemEval-2013's full.j)
    assert wn.sense_key(wn.senses("full", "a")[1]) == "full%5:00:01:whole:00"
    assert wn.tag_count(senses[0]) > 0


def test_shared_wordnet_related_phrases_hold_the_lemma(datasets_dir: Path) -> None:
    folder = datasets_dir / "wordnet-3.0"
    if not (folder / "index.noun").is_file():
        pytest.skip(f"WordNet 3.0 not found in {folder}")
    wn = WordNet(folder)
    uses = synset_uses(wn, wn.senses("power", "n"))
    related = uses[uses["kind"] == "related"]
    texts = dict(zip(related["text"], related["synset"], strict=True))
    # power.n.02 (physics) has no example sentence: its hyponym electric power speaks of energy
    assert texts["electric power: the product of voltage and current"] == "power.n.02"
    assert texts["world power: a state powerful enough to influence events throughout the world"] == "power.n.08"
    assert all(text[start:end].lower() == "power" for text, start, end in related[["text", "start", "end"]].values)
    assert "waterpower: the power to do work that is latent in a head of water" not in texts  # one word, no span
