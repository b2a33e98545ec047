"""What the commands share: a command's resolved configuration, its executor, and the summary of a run.

A command's settings come from the defaults, ``--config``, its flags and ``--set``, in that order
(:func:`command_config`); ``[output] inventory`` names the sense inventory that names the senses, and
``name_min_lead`` and ``name_min_cosine`` how sure a name must be (:func:`inventory_namer`; without an inventory
they are refused, :func:`check_naming_settings`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wsd.errors import ConfigError, WsdError
from wsd.io.layout import CONFIG_FILE
from wsd.io.outputs import check_disjoint
from wsd.options import OPTION_LIST, OPTIONS
from wsd.schema import data_location, options_of

if TYPE_CHECKING:
    from wsd.workflows.naming import InventoryNamer

#: The settings of how ``[output] inventory`` names uses: nothing without an inventory.
NAMING_SETTINGS = ("output.name_min_lead", "output.name_min_cosine")


def inventory_namer(config: dict[str, dict[str, Any]]) -> InventoryNamer | None:
    """The namer of ``[output] inventory``, its folder checked now (before any work), or None when none is named.

    Parameters
    ----------
    config : dict
        The command's resolved configuration, whose ``[output] inventory`` names the sense inventory and
        ``name_min_lead``, ``name_min_cosine`` the thresholds of a name
        (:func:`wsd.config.naming_parameters`).

    Returns
    -------
    InventoryNamer or None
    """
    inventory = config["output"].get("inventory")
    if not inventory:
        return None
    from wsd.config import naming_parameters
    from wsd.workflows.naming import InventoryNamer

    return InventoryNamer(inventory, naming_parameters(config))


def check_naming_settings(config: dict[str, dict[str, Any]], args: argparse.Namespace) -> None:
    """Refuse a naming threshold without an inventory: its flag given, or its setting other than the default.

    A configuration ``wsd`` wrote (``OUT/config.toml``) records every setting, the thresholds at their defaults
    too: that passes.

    Parameters
    ----------
    config : dict
        The command's resolved configuration.
    args : argparse.Namespace
        The parsed command line.

    Raises
    ------
    ConfigError
        Naming the flag.
    """
    output = config.get("output", {})
    if "inventory" not in output or output["inventory"]:
        return
    for name in NAMING_SETTINGS:
        option = OPTIONS[name]
        value = output.get(option.key)
        if getattr(args, option.attribute, None) is not None or (value is not None and value != option.default):
            raise ConfigError(
                f"{option.option_strings[0]} sets how sure a name from --inventory must be: give --inventory "
                "wordnet:DIR too (or inventory in [output] of --config)"
            )


def command_config(command: str, args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The resolved configuration of a command: defaults < ``--config`` < its options < ``--set``.

    Parameters
    ----------
    command : str
        ``embed``, ``cluster``, ``run`` or ``evaluate``.
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    dict
        ``section -> key -> value`` (:func:`wsd.config.resolve_config`).
    """
    from wsd.config import read_config_file, resolve_config

    flags: dict[str, Any] = {}
    for option in options_of(command, OPTION_LIST):
        value = getattr(args, option.attribute, None)
        if not option.config or value is None:
            continue
        if option.kind == "temperature" and value != "auto":
            try:
                value = float(value)
            except ValueError:
                raise WsdError(f"--temperature must be a number or auto, not {value!r}") from None
        flags[option.name] = value
    if command == "evaluate":  # --data, else the data folder (--data-dir, $WSD_DATA_DIR), as evaluate_dataset
        flags["evaluation.data"] = data_location(args.data, args.data_dir)
    file = read_config_file(args.config) if args.config else None
    config = resolve_config(command, file, flags, args.overrides, where=str(args.config or ""))
    out = config.get("output", {}).get("out")
    if args.config and out:  # OUT/config.toml is wsd's record of the command that wrote OUT: run again from it
        check_disjoint(out, {"--config": args.config}, allowed=[Path(out) / CONFIG_FILE])
    required = {
        "embed": ("scan.corpus", "scan.targets", "output.out"),
        "cluster": ("senses.run",),
        "change": ("change.run", "change.by"),
        "tune": ("tune.train", "output.out"),
    }
    required["run"] = required["embed"]
    if command == "tune" and config["tune"].get("recipe"):  # the recipe finds its source and its folder
        required["tune"] = ()
    if command == "tune" and config["tune"].get("average"):  # no training: no source
        required["tune"] = ("output.out",)
    for name in required.get(command, ()):
        section, key = name.split(".")
        if config[section][key] is None:
            flag = OPTIONS[name].option_strings[0]
            raise WsdError(f"{flag} is required (or set {key} in [{section}] of --config)")
    check_naming_settings(config, args)
    return config
