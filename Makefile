# The two commands of the README: `make demo` (the whole pipeline on the bundled demo) and `make test`.
# Both create (or reuse) the virtualenv .venv. torch is installed first, pinned to the CPU wheel 2.13.0,
# so that no dependency pulls a multi-GB CUDA build. OpenVINO (the default runtime on a CPU) comes with wsd
# itself; the docs extra is installed too, so that `make test` builds the documentation site (`make docs`:
# mkdocs build --strict into site/), and the int8 extra (NNCF, for --runtime openvino --precision int8), so that
# its tests run.
PYTHON ?= python3
VENV ?= .venv
TORCH ?= torch==2.13.0
BIN := $(VENV)/bin
STAMP := $(VENV)/.wsd-installed
DEMO_OUT ?= out/demo
# both test lanes run in 2 pytest-xdist workers; a test file stays on one worker (--dist loadfile), so a module's
# fixtures (the SOTU worked example, the README readers) are computed once; the files that hold slow tests are handed
# out first (the order tests/conftest.py gives). Each worker's math libraries use its share of the cores.
# `make test PYTEST_WORKERS=0` runs serially.
PYTEST_WORKERS ?= 2
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder

.PHONY: setup demo test test-fast lint docs wheel clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "$(TORCH)"
	$(BIN)/python -m pip install --quiet -e ".[test,lemma,docs,int8]"
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/wsd demo --out $(DEMO_OUT)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy wsd

# the documentation site (mkdocs.yml, docs/): any warning (a broken link, a missing results file) fails it
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir site

# the full suite (what CI runs), with its 20 slowest tests named at the end, after the docs build
test: lint docs
	$(BIN)/python -m pytest -q $(PYTEST_PARALLEL) --durations=20

# the fast lane for contributors: everything not marked slow (pytestmark = pytest.mark.slow in a module, or @pytest.mark.slow)
test-fast: lint
	$(BIN)/python -m pytest -q $(PYTEST_PARALLEL) -m "not slow"

wheel: setup
	$(BIN)/python -m build --wheel --outdir dist .

clean:
	rm -rf $(VENV) out dist build site .pytest_cache .ruff_cache .mypy_cache
