"""The typed configuration (wsd.config): schema checks, precedence, --set values, TOML out and in."""

from __future__ import annotations

import sys

import pytest

from wsd.config import (
    SCHEMA,
    SECTIONS,
    absolute_paths,
    check_settings,
    embedding_options,
    evaluation_config,
    parse_override,
    read_config_file,
    resolve_config,
    to_toml,
)
from wsd.errors import ConfigError, InputError
from wsd.schema import RECIPE_NAMES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"evaluation": {"graded": "false"}}, 'evaluation.graded must be true or false, not the string "false"'),
        ({"evaluation": {"seeds": "3"}}, 'evaluation.seeds must be a whole number, not the string "3"'),
        ({"senses": {"k": 2.5}}, "senses.k must be a whole number or"),
        ({"senses": {"k_range": [5, 2]}}, "senses.k_range must be two whole numbers"),
        ({"senses": {"normalize": 1}}, "senses.normalize must be true or false"),
        ({"scan": {"context": "paragraph"}}, "scan.context must be one of sentence, window"),
        ({"output": {"chunk_size": 0}}, "output.chunk_size must be at least 1"),
        ({"embedding": {"batch_size": True}}, "embedding.batch_size must be a whole number, not the boolean true"),
    ],
)
def test_wrong_types_are_errors_that_name_the_key(settings, named) -> None:
    with pytest.raises(ConfigError, match=r"^f\.toml: ") as info:
        check_settings(settings, "f.toml")
    assert named in str(info.value)


def test_unknown_sections_and_keys_list_the_valid_ones() -> None:
    with pytest.raises(ConfigError) as info:
        check_settings({"sens": {"method": "ward"}}, "f.toml")
    assert "[sens]" in str(info.value) and ", ".join(SECTIONS) in str(info.value)
    with pytest.raises(ConfigError) as info:
        check_settings({"senses": {"methd": "ward"}}, "f.toml")
    message = str(info.value)
    assert "'methd'" in message and "[senses]" in message and all(key in message for key in SCHEMA["senses"])
    with pytest.raises(ConfigError, match=r"top-level setting 'dataset'.*'dataset' in \[evaluation\]"):
        check_settings({"dataset": "semeval2013"}, "f.toml")


def test_precedence_defaults_file_flags_set() -> None:
    assert resolve_config("cluster")["senses"]["method"] == "ward"  # the default recipe
    file = {"senses": {"method": "kmeans", "k": 3}}
    assert resolve_config("cluster", file)["senses"]["method"] == "kmeans"
    flagged = resolve_config("cluster", file, {"senses.method": "agglomerative"})
    assert flagged["senses"]["method"] == "agglomerative" and flagged["senses"]["k"] == 3
    final = resolve_config("cluster", file, {"senses.method": "agglomerative"}, ["senses.method=gmm"])
    assert final["senses"]["method"] == "gmm"


def test_the_recipe_fills_what_nothing_sets() -> None:
    textbook = resolve_config("evaluate", {"senses": {"recipe": "textbook"}})
    assert textbook["senses"]["method"] == "kmeans" and textbook["senses"]["normalize"] is False
    assert textbook["embedding"]["context_vector"] == "none" and textbook["evaluation"]["graded"] is False
    default = resolve_config("evaluate")
    assert default["embedding"]["context_vector"] == "20:last:0.5" and default["evaluation"]["top"] == 2
    # wsd embed stores wsd run's vectors (issue 25): staged and one-shot runs find the same senses
    assert resolve_config("embed")["embedding"]["context_vector"] == "20:last:0.5"
    assert (
        embedding_options(resolve_config("embed", flags={"embedding.context_vector": "none"})).context_vector == "none"
    )
    config = evaluation_config(textbook)
    assert config.embedding.context_vector is None and config.senses["k_range"] == (2, 7)


def test_set_values_are_toml_and_typed() -> None:
    assert parse_override("senses.k=4") == ("senses.k", 4)
    assert parse_override("senses.k=auto") == ("senses.k", "auto")
    assert parse_override("senses.normalize=false") == ("senses.normalize", False)
    assert parse_override("evaluation.targets=add.v,bank.n") == ("evaluation.targets", ["add.v", "bank.n"])
    assert parse_override('embedding.layers="-4,-3"') == ("embedding.layers", "-4,-3")
    with pytest.raises(ConfigError, match=r"evaluation\.seeds must be a whole number, not the string \"3\""):
        parse_override('evaluation.seeds="3"')
    with pytest.raises(ConfigError, match="valid keys"):
        parse_override("senses.methd=ward")
    with pytest.raises(ConfigError, match=r"SECTION\.KEY=VALUE"):
        parse_override("senses.method")
    with pytest.raises(ConfigError, match="does not use"):
        resolve_config("embed", overrides=["senses.method=kmeans"])


def test_toml_written_reads_back_to_the_same_configuration(tmp_path) -> None:
    config = resolve_config(
        "run",
        {"scan": {"corpus": 'corpus dir/ä "quoted"', "targets": "mouse:mice,bank"}},
        overrides=["senses.k_range=[2, 5]", "senses.temperature=0.5", "output.out=runs/x"],
    )
    text = to_toml(config, "a header\nsecond line")
    assert text.startswith("# a header\n# second line\n")
    back = resolve_config("run", tomllib.loads(text))
    assert back == config
    resolved = absolute_paths(config)
    assert resolved["scan"]["corpus"] == str((tmp_path.cwd() / 'corpus dir/ä "quoted"').resolve())


def test_config_files_are_utf8_with_a_clear_error(tmp_path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('[senses]\nmethod = "ward"  # ё\n', encoding="utf-8")
    assert read_config_file(good) == {"senses": {"method": "ward"}}
    bad = tmp_path / "bad.toml"
    bad.write_bytes('[senses]\nmethod = "ward"\n# \u0451\n'.encode("cp1251"))
    with pytest.raises(InputError, match=r"bad.toml: line 3: not UTF-8 text .*save the file as UTF-8"):
        read_config_file(bad)
    with pytest.raises(InputError, match="not found"):
        read_config_file(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[senses\n", encoding="utf-8")
    with pytest.raises(InputError, match="not valid TOML"):
        read_config_file(broken)


def test_evaluate_records_the_same_config_as_before() -> None:
    from wsd.config import build_evaluation_config

    for name in RECIPE_NAMES:
        resolved = resolve_config("evaluate", overrides=[f"senses.recipe={name}"])
        assert evaluation_config(resolved).to_dict() == build_evaluation_config(recipe=name).to_dict()


def test_the_cli_knows_the_same_commands() -> None:
    from wsd.options import OPTIONS
    from wsd.schema import CONFIG_COMMANDS

    assert OPTIONS["cli.config"].commands == CONFIG_COMMANDS
