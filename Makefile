# macau-tables — `make run`, `make test`, `make bench` work on a fresh machine with only python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# `make check`: the development loop's fast tests (engines, tiles, CLI, the API on SQLite),
# properties with fewer examples and the tests marked slow left to `make test`
.PHONY: run test check lint typecheck unit postgres compiler bench soak coverage conformance docs-analysis docs-reference clean chromium screenshots vendor-js rng-test rng-tools

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/macau-tables serve

test: lint typecheck chromium compiler unit

# The browser tests drive Debian's Chromium (and its CJK font for the Chinese pages);
# install them with apt when they are missing.
CHROMIUM ?= /usr/bin/chromium
CJK_FONT ?= /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
chromium:
	@test -x $(CHROMIUM) -a -f $(CJK_FONT) || { \
	  echo "installing Debian's chromium and fonts-noto-cjk (the browser tests need them)"; \
	  { apt-get install -y -q chromium fonts-noto-cjk >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && \
	      apt-get install -y -q chromium fonts-noto-cjk >/dev/null 2>&1; }; } ; \
	  test -x $(CHROMIUM) || { echo "error: $(CHROMIUM) is missing and 'apt-get install chromium' failed (run as root with Debian's package lists, or install it yourself)"; exit 1; }; \
	  test -f $(CJK_FONT) || { echo "error: $(CJK_FONT) is missing and 'apt-get install fonts-noto-cjk' failed"; exit 1; }; }

# simulate baccarat links its kernel once into a shared library (analysis/kernels/native.py);
# without a C compiler it falls back to numba's dispatcher, and its tests need one: install
# Debian's gcc with apt when there is no cc
compiler:
	@command -v $${CC:-cc} >/dev/null 2>&1 || { \
	  echo "installing Debian's gcc (the native baccarat kernel is linked with it)"; \
	  { apt-get install -y -q gcc >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q gcc >/dev/null 2>&1; }; } ; \
	  command -v $${CC:-cc} >/dev/null 2>&1 || { echo "error: no C compiler and 'apt-get install gcc' failed (run as root with Debian's package lists, or install one yourself)"; exit 1; }; }

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

typecheck: $(STAMP)
	$(BIN)/mypy

# the server suite starts a throwaway PostgreSQL 15 cluster: install Debian's if missing
postgres:
	@test -x /usr/lib/postgresql/15/bin/initdb || { \
	  echo "installing PostgreSQL (Debian's postgresql package) for the server tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }

# the suite on TEST_WORKERS processes (pytest-xdist; each starts its own throwaway
# PostgreSQL): 2 for these 2-core machines; TEST_WORKERS=0 runs it in one process
TEST_WORKERS ?= 2
unit: $(STAMP) postgres
	$(BIN)/pytest -n $(TEST_WORKERS)

CHECK_TESTS := tests/core tests/games tests/tiles tests/cli tests/server/test_api.py \
  tests/test_import_graph.py tests/test_randomness_ban.py
check: $(STAMP)
	MACAU_TABLES_TESTS=check $(BIN)/pytest -n $(TEST_WORKERS) -m "not slow" $(CHECK_TESTS)

# every benchmark but the soak (bench_soak.py runs for half an hour: `make soak`); each
# writes benchmarks/results/<name>.json, and docs/benchmarks.md is rendered from them
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	@for f in benchmarks/bench_*.py; do \
	  case $$f in */bench_soak.py) echo "== $$f: skipped (make soak)"; continue;; esac; \
	  echo "== $$f"; $(BIN)/python $$f || exit 1; done
	$(BIN)/python benchmarks/render.py

# the soak: bots on the demo floor for MINUTES, a sample every EVERY seconds; fails if the
# server's memory or descriptors grow (docs/benchmarks.md, "Soak")
MINUTES ?= 30
EVERY ?= 60
soak: $(STAMP)
	$(BIN)/python benchmarks/bench_soak.py --minutes $(MINUTES) --every $(EVERY)
	$(BIN)/python benchmarks/render.py

# the production generator's raw bytes (macau-tables rng raw) through dieharder and ent, not
# in make test: the whole battery (-a) reads many GB. RNG_BYTES bounds the stream (0: as
# much as dieharder reads; e.g. 64M); RNG_SEED=HEX repeats a run of the seeded HMAC_DRBG
# (default: a fresh seed, recorded), RNG_SEED=os tests the OS CSPRNG. The summary is
# printed and written to benchmarks/results/rng.json (docs/reliability.md).
RNG_BYTES ?= 0
RNG_SEED ?=
RNG_ENT_BYTES ?= 64M
DIEHARDER_ARGS ?= -a
rng-tools:
	@command -v dieharder >/dev/null 2>&1 && command -v ent >/dev/null 2>&1 || { \
	  echo "installing Debian's dieharder and ent (make rng-test runs them)"; \
	  { apt-get install -y -q dieharder ent >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q dieharder ent >/dev/null 2>&1; }; } ; \
	  command -v dieharder >/dev/null 2>&1 && command -v ent >/dev/null 2>&1 || { echo "error: dieharder or ent is missing and 'apt-get install dieharder ent' failed (run as root with Debian's package lists, or install them yourself)"; exit 1; }; }

rng-test: $(STAMP) rng-tools
	$(BIN)/python benchmarks/rng_battery.py --bytes '$(RNG_BYTES)' --dieharder='$(DIEHARDER_ARGS)' \
	  --ent-bytes '$(RNG_ENT_BYTES)' $(if $(filter os,$(RNG_SEED)),--os,$(if $(RNG_SEED),--seed '$(RNG_SEED)')); \
	  status=$$?; $(BIN)/python benchmarks/render.py; exit $$status

coverage:
	$(PYTHON) ../shared/tools/rule_coverage.py

docs-analysis: $(STAMP)
	$(BIN)/python scripts/analysis_doc.py > docs/analysis.md.tmp && mv docs/analysis.md.tmp docs/analysis.md

conformance:
	$(PYTHON) scripts/conformance.py

# the generated reference pages: every command's --help (docs/reference/cli.md), the HTTP
# API from the server's OpenAPI document and the socket's messages (docs/reference/api.md)
docs-reference: $(STAMP)
	$(BIN)/python scripts/gen_cli_reference.py
	$(BIN)/python scripts/gen_api_reference.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# the vendored JavaScript (htmx, axe-core), fetched again from the npm registry, hash-checked
vendor-js:
	sh scripts/vendor_js.sh

# every page of the browser UI at desktop and phone width, into docs/screenshots/
screenshots: $(STAMP) chromium
	PYTHONPATH=src:. $(BIN)/python scripts/screenshots.py docs/screenshots
