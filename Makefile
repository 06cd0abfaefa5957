# The two entry points of the README: `make serve` and `make test`. Both set everything up
# in .venv first (Python 3.11 and a C compiler are all a fresh machine needs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: serve test setup lint bench

$(BIN)/.installed: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

setup: $(BIN)/.installed
	$(BIN)/python setup.py -q build_ext --inplace
	$(BIN)/python -m service._codegen

serve: setup
	$(BIN)/python -m service

lint: setup
	$(BIN)/ruff check mjcore service tests bench
	$(BIN)/mypy mjcore service tests/typecheck_api.py

test: lint
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python bench/bench_core.py
	$(BIN)/python bench/bench_sichuan.py
	$(BIN)/python bench/bench_guangdong.py
	$(BIN)/python bench/bench_taiwan.py
	$(BIN)/python bench/bench_wuhan.py
