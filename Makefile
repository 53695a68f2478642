# Two commands set up everything on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
SUM    := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# serving needs the engine and the `web` extra only; the tests, the research adapters and
# the browser tools come with `make test` (and `make check`, `make lint`)
WEB    := $(VENV)/.stamp-web-$(SUM)
STAMP  := $(VENV)/.stamp-all-$(SUM)

.PHONY: serve test check measure bench lint messages clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(WEB): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[web]'
	rm -f $(VENV)/.stamp-web-*
	touch $@

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[web,test,openspiel,pettingzoo,ray]'
	rm -f $(VENV)/.stamp-*
	touch $@ $(WEB)

# the AI's search, compiled here once (numba caches it beside the code, and again after the
# code changes): the first `tarocchi serve` then answers in seconds, instead of compiling
# for a minute or more before it answers the address it printed
COMPILED := $(VENV)/.stamp-compiled
$(COMPILED): $(WEB) $(shell find src/tarocchi -name '*.py')
	@echo "Compiling the AI's search (once after installing or updating: about a minute)..."
	$(PY) -m tarocchi.bots.search
	touch $@

serve: $(COMPILED)
	$(VENV)/bin/tarocchi serve

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests tools
	$(VENV)/bin/ruff format --check src tests tools
	$(VENV)/bin/mypy

# Python's bytecode and pytest's rewritten test modules are cached in __pycache__ (ignored
# by git): where PYTHONDONTWRITEBYTECODE is set, every test worker compiles them all again
# (collecting the tests takes twice the CPU in each worker), so make unsets it for its recipes
unexport PYTHONDONTWRITEBYTECODE

# The fast tier: lint, types and every test that starts no server, drives no browser and is
# not slow (the rules, the views, the golden deals, the compiled path's differential tests);
# tests/conftest.py marks `server` by the fixtures and backends a test uses
check: lint
	$(VENV)/bin/pytest -n 2 -m 'not server and not browser and not slow and not measure'

# Debian packages the tests need, installed with apt-get when missing; apt-get needs root, so
# without it make test stops at once and says what to run
define apt
if [ "$$(id -u)" != 0 ]; then \
  echo "make test needs Debian's $(1), which is missing; it installs it with apt-get," >&2; \
  echo "which needs root: run make test as root once, or" >&2; \
  echo "  sudo apt-get install --no-install-recommends $(1)" >&2; \
  exit 1; \
fi; \
apt-get update && apt-get install -y --no-install-recommends $(1)
endef

# Browser tests drive Debian's Chromium (never `playwright install`: no browser downloads here),
# with a system Devanagari font for the Hindi card faces (an SVG shown as an image cannot use
# the site's web font; readers' systems have their own).
CHROMIUM := /usr/bin/chromium
DEVANAGARI := /usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf
$(CHROMIUM) $(DEVANAGARI) &:
	$(call apt,chromium fonts-lohit-deva)

# The store's and the API's tests also run on PostgreSQL: the suite starts a server of its own in
# a temporary folder (tests/conftest.py), so only Debian's programs are needed here.
POSTGRESQL := /usr/lib/postgresql
$(POSTGRESQL):
	$(call apt,postgresql)

# axe-core (the accessibility rules the browser tests run inside Chromium), from npm
AXE := tests/browser/.axe/node_modules/axe-core/axe.min.js
$(AXE):
	command -v npm >/dev/null || { $(call apt,npm); }
	npm install --prefix tests/browser/.axe --no-save --no-audit --no-fund axe-core@4

# the system packages come first: a machine that cannot install them says so at once
test: | $(CHROMIUM) $(DEVANAGARI) $(POSTGRESQL) $(AXE)
	$(MAKE) lint
	$(VENV)/bin/pytest -n 2 -m 'not measure'

# The measurements kept as tests (marker `measure`): a strength margin on fixed duplicate
# deals, the review's marks' stability, the load generator (tools/load.py) against real
# servers on PostgreSQL; they say how good or fast, not whether a rule holds
measure: | $(POSTGRESQL)
	$(MAKE) lint
	$(VENV)/bin/pytest -n 2 -m measure

# After changing user-facing strings: extract them, merge them into every language's
# catalog and compile (translators then fill in src/tarocchi/locale/*/LC_MESSAGES/*.po).
messages: $(STAMP)
	$(PY) -m tarocchi.catalogs

bench: $(STAMP)
	$(VENV)/bin/tarocchi bench piedicavallo

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
