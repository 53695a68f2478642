# Two commands set up everything on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.stamp-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: serve test bench lint messages clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[web,test,openspiel,pettingzoo]'
	rm -f $(VENV)/.stamp-*
	touch $@

serve: $(STAMP)
	$(VENV)/bin/tarocchi serve

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests
	$(VENV)/bin/mypy

# Browser tests drive Debian's Chromium (never `playwright install`: no browser downloads here),
# with a system Devanagari font for the Hindi card faces (an SVG shown as an image cannot use
# the site's web font; readers' systems have their own).
CHROMIUM := /usr/bin/chromium
DEVANAGARI := /usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf
$(CHROMIUM) $(DEVANAGARI) &:
	apt-get update && apt-get install -y --no-install-recommends chromium fonts-lohit-deva

# The store's and the API's tests also run on PostgreSQL: the suite starts a server of its own in
# a temporary folder (tests/conftest.py), so only Debian's programs are needed here.
POSTGRESQL := /usr/lib/postgresql
$(POSTGRESQL):
	apt-get update && apt-get install -y --no-install-recommends postgresql

test: lint | $(CHROMIUM) $(DEVANAGARI) $(POSTGRESQL)
	$(VENV)/bin/pytest -n 2

# After changing user-facing strings: extract them, merge them into every language's
# catalog and compile (translators then fill in src/tarocchi/locale/*/LC_MESSAGES/*.po).
messages: $(STAMP)
	$(PY) -m tarocchi.catalogs

bench: $(STAMP)
	$(VENV)/bin/tarocchi bench piedicavallo

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
