# Two commands do all the set-up on a fresh machine with Python 3.11+:
#   make demo   creates .venv, installs handlog, imports sample_logs/ into ./handlog.duckdb
#               (parse, replay, store) and writes the report to reports/report.html
#   make test   creates .venv, installs handlog with its test tools and runs the tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

# The modules setup.py compiles with mypyc (handlog/_native.py COMPILED): an edit to one of them
# reinstalls, which compiles it again.
NATIVE_SOURCES := handlog/_native.py handlog/model.py handlog/holdings.py handlog/store.py \
	handlog/rules/structures.py handlog/rules/tables.py handlog/rules/engine.py handlog/rules/awards.py handlog/rules/fast.py handlog/rules/replay.py \
	handlog/rules/trace.py \
	handlog/rules/evaluate.py handlog/parse/text.py handlog/parse/sites/pokerstars.py \
	handlog/parse/sites/fulltilt.py handlog/parse/sites/winning.py \
	handlog/parse/sites/winning2016.py handlog/parse/sites/winamax.py \
	handlog/parse/sites/bovada.py handlog/parse/sites/everleaf.py \
	handlog/parse/sites/partypoker.py handlog/parse/sites/kingsclub.py \
	handlog/parse/sites/ongame.py handlog/parse/sites/absolute.py \
	handlog/parse/xmlsafe.py handlog/parse/sites/ipoker.py handlog/parse/sites/merge.py

$(STAMP): pyproject.toml setup.py $(NATIVE_SOURCES)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "installing handlog and its tools; with a C compiler this also compiles the hot"
	@echo "modules with mypyc (a minute or two)"
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@$(BIN)/python -c "from handlog import _native; s = _native.status(); \
		print('compiled modules:', sum(v == 'compiled' for v in s.values()), 'of', len(s))"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/handlog import sample_logs/
	$(BIN)/handlog report

test: $(STAMP)
	$(BIN)/python -m pytest -n 2

lint: $(STAMP)
	$(BIN)/ruff check handlog tests
	$(BIN)/ruff format --check handlog tests
	$(BIN)/mypy handlog

bench: $(STAMP)
	$(BIN)/handlog bench

clean:
	rm -rf $(VENV) build *.egg-info *__mypyc*.so
	find handlog -name "*.so" -delete
