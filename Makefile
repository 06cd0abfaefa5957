# The two entry points of the README: `make serve` and `make test`. Both set everything up
# in .venv first (Python 3.11 and a C compiler are all a fresh machine needs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: serve test test-long setup lint bench

# The random samples' sizes. `make test` uses samples that keep the whole run within a few
# minutes on 2 cores; `make test-long` the full ones (the cross-check alone is then about 12
# minutes). A size set in the environment wins: `MJ_CROSSCHECK_N=50000 make test`.
MJ_CROSSCHECK_N ?= 12000
MJ_FUZZ_N ?= 20000
MJ_SELFPLAY_HANDS ?= 500
export MJ_CROSSCHECK_N MJ_FUZZ_N MJ_SELFPLAY_HANDS
# The suite spread over every core (pytest-xdist), one line per test as it ends, and the
# slowest tests at the end: never minutes of silent dots.
PYTEST_ARGS ?= -n auto -v --durations=15

$(BIN)/.installed: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	MJ_INSTALL_WITHOUT_EXTENSIONS=1 $(BIN)/pip install -q -e '.[test]'
	touch $@

setup: $(BIN)/.installed
	$(BIN)/python setup.py -q build_ext --inplace
	$(BIN)/python -m service._codegen

serve: setup
	$(BIN)/python -m service

lint: setup
	$(BIN)/ruff check mjcore service tests bench
	$(BIN)/mypy mjcore service tests/typecheck_api.py

# The scoring tests once more on the Python path (the compiled one's twin; docs/rules.md)
PURE_TESTS := tests/rules/sichuan/test_sichuan_cases.py tests/rules/sichuan/test_sichuan_scoring.py \
	tests/rules/sichuan/test_sichuan_reference.py tests/rules/sichuan/test_sichuan_waits.py \
	tests/rules/sichuan/test_sichuan_points.py tests/rules/guangdong/test_guangdong_cases.py \
	tests/rules/guangdong/test_guangdong_scoring.py tests/rules/guangdong/test_guangdong_waits.py \
	tests/rules/guangdong/test_guangdong_settle.py tests/rules/guangdong/test_guangdong_reference.py \
	tests/rules/taiwan/test_taiwan_cases.py tests/rules/taiwan/test_taiwan_scoring.py \
	tests/rules/taiwan/test_taiwan_reference.py \
	tests/rules/hangzhou/test_hangzhou_cases.py tests/rules/hangzhou/test_hangzhou_scoring.py \
	tests/rules/hangzhou/test_hangzhou_waits.py tests/rules/wuhan/test_wuhan_cases.py \
	tests/rules/wuhan/test_wuhan_scoring.py tests/rules/wuhan/test_wuhan_waits.py

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)
	MJ_PURE_SCORING=1 $(BIN)/python -m pytest -n auto -q $(PURE_TESTS)

test-long: MJ_CROSSCHECK_N = 200000
test-long: MJ_FUZZ_N = 100000
test-long: MJ_SELFPLAY_HANDS = 2000
test-long: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)
	MJ_PURE_SCORING=1 $(BIN)/python -m pytest -n auto -q $(PURE_TESTS)

# the scripts run from the checkout, as the README's bench commands do (the service's
# modules are the folder service/, installed as mjservice)
bench: setup
	MJ_INSTALL_WITHOUT_EXTENSIONS=1 $(BIN)/pip install -q -e '.[test,bench]'
	PYTHONPATH=. $(BIN)/python bench/bench_core.py
	PYTHONPATH=. $(BIN)/python bench/bench_sichuan.py
	PYTHONPATH=. $(BIN)/python bench/bench_guangdong.py
	PYTHONPATH=. $(BIN)/python bench/bench_hangzhou.py
	PYTHONPATH=. $(BIN)/python bench/bench_taiwan.py
	PYTHONPATH=. $(BIN)/python bench/bench_wuhan.py
	PYTHONPATH=. $(BIN)/python bench/bench_wilds.py
	PYTHONPATH=. $(BIN)/python bench/bench_service_bulk.py
