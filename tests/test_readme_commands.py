"""The shell blocks of the README and of every docs page, run as a reader would run them: in order, on the demo data.

Every ```` ```bash ```` block of README.md and of the pages in ``docs/`` is a test, found anew on each run (a block
added to a page is checked without touching this file). The README is one reader's path; the docs pages are
another, in the order of ``nav`` in ``mkdocs.yml`` (pages not in ``nav`` after them), so a page may use what an
earlier page wrote (``runs/x`` of the embedding page in the senses page). Each path runs in one temporary folder that
looks like a fresh checkout (``data/`` and ``experiments/`` of this repository, and ``../shared`` when the shared
datasets exist), so a later block may use what an earlier one wrote (``runs/x``). A plain ``wsd ...`` command runs
through the console script's entry point (:func:`wsd.cli.main`) in this process, which saves the start-up of one
Python with torch per command; anything else runs in ``bash`` with ``wsd`` and ``python`` on the path (this
test's interpreter and checkout). The Hub is offline and the vector cache is a temporary folder. Each command must
exit 0, or the code its comment names (``# exit code 2``). An absolute ``--out`` is moved into the temporary folder.

A block that cannot run here is marked in its page by an HTML comment on the line before its fence (see the
docs page Contributing):

- ``<!-- readme-test: skip (reason) -->``: never run (needs the network, a cluster, a wheel build, ...);
- ``<!-- readme-test: slow (reason) -->``: run only when ``WSD_README_SLOW=1``;
- ``<!-- readme-test: file NAME -->`` before any other fenced block: its text is written to ``NAME`` (for the
  commands that read it, e.g. ``study.toml``).

A command that names ``../shared/`` is skipped (with the reason) when the shared datasets are absent, one that
names ``../shared/corpora/`` when the shared corpora are absent, and so is any later command that names the
``--out`` of a command skipped so (``wsd change --run runs/sotu`` after the skipped ``wsd run ... --out runs/sotu``).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the slow lane: runs every command of the README and the docs pages

REPO_ROOT = Path(__file__).resolve().parents[1]
README = REPO_ROOT / "README.md"
DOCS = REPO_ROOT / "docs"
NAV_PAGE = re.compile(r"^\s*-\s.*?:\s*\"?([\w/.-]+\.md)\"?\s*$")
MARKER = re.compile(r"^<!--\s*readme-test:\s*(skip|slow|file)\s*(.*?)\s*-->$")
FENCE = re.compile(r"^```(\S*)\s*$")
EXIT_CODE = re.compile(r"#.*\bexit code (\d+)")
SHARED = "../shared/"
SHARED_CORPORA = "../shared/corpora/"
SLOW_VARIABLE = "WSD_README_SLOW"
TIMEOUT_S = 600


def shared_datasets_dir() -> Path:
    """The shared datasets: ``$WSD_DATASETS``, else ``../shared/datasets`` beside the checkout (as conftest)."""
    return Path(os.environ.get("WSD_DATASETS", REPO_ROOT.parent / "shared" / "datasets"))


def shared_corpora_dir() -> Path:
    """The shared corpora (``sotu.jsonl.gz``, ...): ``$WSD_CORPORA``, else ``../shared/corpora`` beside the checkout."""
    return Path(os.environ.get("WSD_CORPORA", REPO_ROOT.parent / "shared" / "corpora"))


def docs_pages() -> list[Path]:
    """The docs pages in the order of ``nav`` in ``mkdocs.yml``, then any page ``nav`` leaves out (sorted)."""
    nav = []
    for line in (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines():
        match = NAV_PAGE.match(line)
        if match and (DOCS / match[1]).is_file() and DOCS / match[1] not in nav:
            nav.append(DOCS / match[1])
    return nav + sorted(set(DOCS.rglob("*.md")) - set(nav))


@dataclass
class Block:
    """One fenced block of a page: its language, first line number, text, the marker before it and the page."""

    language: str
    line: int
    text: str
    marker: str | None = None
    argument: str = ""
    commands: list[tuple[str, int]] = field(default_factory=list)
    source: str = "README.md"

    @property
    def where(self) -> str:
        """``page line N``, for messages."""
        return f"{self.source} line {self.line}"


def parse_blocks(text: str, source: str = "README.md") -> list[Block]:
    """Every fenced block of a Markdown text, with the ``readme-test`` marker on the line before it (if any).

    Parameters
    ----------
    text : str
        The Markdown text.
    source : str
        The page it comes from (for messages).

    Returns
    -------
    list of Block
        In order; ``bash`` blocks carry their commands as ``(command, expected exit code)``.
    """
    lines = text.splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if fence is None:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if end == len(lines):
            raise ValueError(f"{source} line {index + 1}: a fenced block is never closed")
        previous = lines[index - 1].strip() if index else ""
        marker = MARKER.match(previous)
        block = Block(fence.group(1), index + 1, "\n".join(lines[index + 1 : end]) + "\n", source=source)
        if marker is not None:
            block.marker, block.argument = marker.group(1), marker.group(2).strip("() ")
        if block.language == "bash":
            block.commands = split_commands(block.text)
        blocks.append(block)
        index = end + 1
    return blocks


def split_commands(script: str) -> list[tuple[str, int]]:
    """The commands of a shell block, one per logical line, without comments, and the exit code each expects.

    Parameters
    ----------
    script : str
        The text of the block (lines ending in ``\\`` continue on the next line).

    Returns
    -------
    list of (str, int)
        The command as a shell line (quoted again) and its expected exit code (0 unless a comment says
        ``exit code N``).
    """
    commands = []
    for line in script.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        expected = EXIT_CODE.search(line)
        commands.append((shlex.join(words), int(expected.group(1)) if expected else 0))
    return commands


class Reader:
    """Runs one path's blocks (the README's, or the docs pages') in order in one folder, once each."""

    def __init__(self, folder: Path, blocks: list[Block]) -> None:
        self.blocks = blocks
        self.checkout = folder / "checkout"
        self.checkout.mkdir()
        for name in ("data", "experiments"):
            (self.checkout / name).symlink_to(REPO_ROOT / name, target_is_directory=True)
        datasets = shared_datasets_dir()
        self.has_shared = (datasets / "semeval2013-task13").is_dir()
        corpora = shared_corpora_dir()
        self.has_corpora = corpora.is_dir()
        if self.has_shared or self.has_corpora:
            (folder / "shared").mkdir()
        if self.has_shared:
            (folder / "shared" / "datasets").symlink_to(datasets.resolve(), target_is_directory=True)
        if self.has_corpora:
            (folder / "shared" / "corpora").symlink_to(corpora.resolve(), target_is_directory=True)
        self.missing_outputs: dict[str, str] = {}  # --out of a skipped command: why it was skipped
        self.outside = folder / "absolute-outputs"
        bin_dir = folder / "bin"
        bin_dir.mkdir()
        python = shlex.quote(sys.executable)
        for name, program in (("wsd", f"{python} -m wsd.cli"), ("python", python)):
            shim = bin_dir / name
            shim.write_text(f'#!/bin/sh\nexec {program} "$@"\n', encoding="utf-8")
            shim.chmod(0o755)
        self.env = dict(
            os.environ,
            PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            PYTHONPATH=os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p),
            HF_HUB_OFFLINE="1",
            WSD_CACHE_DIR=str(folder / "vector-cache"),
            MPLBACKEND="Agg",
            TOKENIZERS_PARALLELISM="false",
        )
        self.done: dict[int, list[dict]] = {}

    def skip_reason(self, block: Block) -> str | None:
        """Why ``block`` does not run here, or None."""
        if block.marker == "skip":
            return f"{block.where}: {block.argument or 'marked skip'}"
        if block.marker == "slow" and os.environ.get(SLOW_VARIABLE) != "1":
            return f"{block.where}: slow ({block.argument}); set {SLOW_VARIABLE}=1 to run it"
        return None

    def run_through(self, position: int) -> list[dict]:
        """Run every block up to ``position`` that has not run yet; return what the block at ``position`` did."""
        for index, block in enumerate(self.blocks[: position + 1]):
            if index in self.done:
                continue
            if block.marker == "file" and block.argument:
                (self.checkout / block.argument).write_text(block.text, encoding="utf-8")
            if block.language != "bash" or self.skip_reason(block) is not None:
                self.done[index] = []
                continue
            self.done[index] = [self.run_command(command, expected) for command, expected in block.commands]
        return self.done[position]

    def run_command(self, command: str, expected: int) -> dict:
        """Run one command in the checkout folder; its result, or why it was skipped."""
        words = shlex.split(command)
        reason = None
        if SHARED_CORPORA in command:  # checked first: every corpus path also names ../shared/
            if not self.has_corpora:
                reason = f"the shared corpora are absent ({shared_corpora_dir()})"
        elif SHARED in command and not self.has_shared:
            reason = f"the shared datasets are absent ({shared_datasets_dir()})"
        if reason is None:
            reason = next((why for out, why in self.missing_outputs.items() if _names(command, out)), None)
        if reason is not None:
            for at, word in enumerate(words[:-1]):
                if word == "--out":
                    self.missing_outputs[words[at + 1]] = reason
            return {"command": command, "skipped": reason}
        for at, word in enumerate(words[:-1]):
            if word == "--out" and Path(words[at + 1]).is_absolute():
                words[at + 1] = str(self.outside / Path(words[at + 1]).name)
        started = time.perf_counter()
        if words[0] == "wsd" and not set("|;&<>$`") & set(command):
            code, stderr = self.run_wsd(words[1:])
        else:
            result = subprocess.run(
                ["bash", "-c", shlex.join(words)],
                cwd=self.checkout,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=TIMEOUT_S,
                check=False,
            )
            code, stderr = result.returncode, result.stderr
        seconds = time.perf_counter() - started
        return {"command": command, "expected": expected, "code": code, "stderr": stderr, "seconds": seconds}

    def run_wsd(self, arguments: list[str]) -> tuple[int, str]:
        """``wsd ARGUMENTS`` through the console script's entry point, in this process (no start-up per
        command), in the checkout folder; the exit code and what it wrote to stderr."""
        from wsd.cli import main

        stderr, stdout = io.StringIO(), io.StringIO()
        previous = Path.cwd()
        os.chdir(self.checkout)
        try:
            with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
                try:
                    code = main(arguments)
                except SystemExit as exc:  # argparse's usage errors
                    code = exc.code if isinstance(exc.code, int) else 1
        finally:
            os.chdir(previous)
        return code, stderr.getvalue()


def _names(command: str, path: str) -> bool:
    """Whether a command names ``path`` or something inside it anywhere, quoted code included (``runs/sotu``,
    ``runs/sotu/change``, ``python -c "... 'runs/sotu/trends.csv' ..."``), but not a longer name
    (``runs/sotu-decades``)."""
    bounded = r"(?<![\w./-])" + re.escape(path.rstrip("/")) + r"(?![\w.-])"
    return re.search(bounded, command) is not None


def _path_blocks(pages: list[Path]) -> list[Block]:
    blocks = []
    for page in pages:
        blocks += parse_blocks(page.read_text(encoding="utf-8"), str(page.relative_to(REPO_ROOT)))
    return blocks


#: The readers' paths: the README alone, and the docs pages in order.
PATHS = {"readme": [README], "docs": docs_pages()}
BLOCKS = {name: _path_blocks(pages) for name, pages in PATHS.items()}
SHELL = [
    (name, index) for name, blocks in BLOCKS.items() for index, block in enumerate(blocks) if block.language == "bash"
]


@pytest.fixture(scope="module")
def readers(tmp_path_factory) -> Callable[[str], Reader]:
    """One folder per path (the README, the docs pages), as one reader following it from the top; made on use."""
    made: dict[str, Reader] = {}

    def reader(name: str) -> Reader:
        if name not in made:
            made[name] = Reader(tmp_path_factory.mktemp(name), BLOCKS[name])
        return made[name]

    return reader


@pytest.mark.parametrize(("path", "position"), SHELL, ids=[BLOCKS[n][i].where for n, i in SHELL])
def test_readme_block_runs(readers: Callable[[str], Reader], path: str, position: int) -> None:
    block = BLOCKS[path][position]
    reader = readers(path)
    reason = reader.skip_reason(block)
    if reason is not None:
        pytest.skip(reason)
    results = reader.run_through(position)
    ran = [r for r in results if "skipped" not in r]
    if not ran:
        pytest.skip("; ".join(sorted({r["skipped"] for r in results})))
    failed = [r for r in ran if r["code"] != r["expected"]]
    assert not failed, "\n\n".join(
        f"{block.where}: `{r['command']}` exited {r['code']} (expected {r['expected']}):\n" + r["stderr"][-3000:]
        for r in failed
    )


@pytest.mark.parametrize("page", [README, *PATHS["docs"]], ids=lambda page: str(page.relative_to(REPO_ROOT)))
def test_every_marker_is_understood(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    markers = [line for line in text.splitlines() if line.strip().startswith("<!--") and "readme-test" in line]
    understood = [b for b in parse_blocks(text, page.name) if b.marker is not None]
    assert len(markers) == len(understood), "a readme-test marker not directly before a fence, or misspelled"
    assert all(b.argument for b in understood), "every skip, slow and file marker gives its reason or file name"


def test_the_readme_and_the_docs_have_shell_blocks_that_run() -> None:
    for name in PATHS:
        shell = [BLOCKS[name][i] for n, i in SHELL if n == name]
        assert sum(1 for block in shell if block.marker is None) >= 3, f"most shell blocks of {name} run"
    assert len(PATHS["docs"]) >= 10 and PATHS["docs"][0].name == "index.md", PATHS["docs"]


def test_parser_reads_markers_continuations_and_exit_codes() -> None:
    text = (
        "x\n<!-- readme-test: skip (needs a cluster) -->\n```bash\ndask worker a\n```\n"
        "<!-- readme-test: file a.toml -->\n```toml\nk = 1\n```\n"
        "```bash\nwsd embed --corpus 'my corpus' \\\n  --out runs/x   # a comment\n\n"
        "wsd score --gold nope   # exit code 2\n```\n"
    )
    skipped, written, shell = parse_blocks(text)
    assert (skipped.marker, skipped.argument, skipped.line) == ("skip", "needs a cluster", 3)
    assert (written.marker, written.argument, written.text) == ("file", "a.toml", "k = 1\n")
    assert shell.marker is None
    assert shell.commands == [("wsd embed --corpus 'my corpus' --out runs/x", 0), ("wsd score --gold nope", 2)]
    with pytest.raises(ValueError, match="never closed"):
        parse_blocks("```bash\nwsd demo\n")


@pytest.mark.parametrize("datasets_present", [True, False], ids=["datasets-present", "nothing-shared"])
def test_commands_on_absent_corpora_and_their_outputs_are_skipped(
    tmp_path: Path, monkeypatch, datasets_present: bool
) -> None:
    # a fresh clone has neither the corpora nor the datasets: the corpus command is still skipped for the corpora
    datasets = tmp_path / "datasets"
    (datasets / "semeval2013-task13").mkdir(parents=True)
    monkeypatch.setenv("WSD_DATASETS", str(datasets if datasets_present else tmp_path / "no-datasets"))
    monkeypatch.setenv("WSD_CORPORA", str(tmp_path / "no-corpora"))
    (tmp_path / "reader").mkdir()
    reader = Reader(tmp_path / "reader", [])
    assert not reader.has_corpora and reader.has_shared == datasets_present
    first = reader.run_command("wsd run --corpus ../shared/corpora/sotu.jsonl.gz --targets power --out runs/sotu", 0)
    later = reader.run_command("wsd change --run runs/sotu --by year --out runs/sotu-decades", 0)
    inside = reader.run_command("python -c 'print(1)' runs/sotu-decades/trends.csv", 0)
    # the path inside quoted code (docs/change.md's check of trends.csv) is a use of the skipped output too
    quoted = reader.run_command("python -c \"import pandas as pd; pd.read_csv('runs/sotu-decades/trends.csv')\"", 0)
    assert "shared corpora are absent" in first["skipped"] and "no-corpora" in first["skipped"]
    assert later["skipped"] == first["skipped"] == inside["skipped"] == quoted["skipped"]
    other = reader.run_command("ls runs/sotu-other-name", 2)  # not an output of a skipped command: it runs
    assert "skipped" not in other and other["code"] == 2
    data = reader.run_command("ls ../shared/datasets/semeval2013-task13", 0)
    assert ("skipped" in data) != datasets_present


def test_names_matches_a_path_not_a_longer_name() -> None:
    assert _names("wsd change --run runs/sotu --out x", "runs/sotu")
    assert _names("wsd report --run runs/sotu/change", "runs/sotu")
    assert _names("python -c \"open('runs/sotu/trends.csv')\"", "runs/sotu")
    assert not _names("wsd change --run runs/sotu-decades", "runs/sotu")
    assert not _names("ls old-runs/sotu", "runs/sotu")
