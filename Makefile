# The two commands of the README: `make run` and `make test`.
VENV := .venv
# `make run` listens on this computer only; `make run HOST=0.0.0.0` lets phones on the same
# network connect.
HOST ?= 127.0.0.1
PORT ?= 5000
BIN := $(VENV)/bin
# The versions of every package `make run` and `make test` install (the tested ones): made
# from pyproject.toml by `make lock`.
LOCK := requirements.lock
# Debian packages the tests need: the browser for the page tests, a faster WeasyPrint.
DEBS := chromium libharfbuzz-subset0 fonts-dejavu-core
# pytest on every core (pytest-xdist: a worker per core, each test sent to the first free
# one; see pytest_xdist_make_scheduler in tests/conftest.py). `make test PYTEST_ARGS=` runs the
# tests in one process.
PYTEST_ARGS ?= -n auto
# `make lock` moves every package to its newest allowed release; `make lock LOCK_ARGS=` keeps
# the pins that still fit pyproject.toml and only adds or drops what it changed.
LOCK_ARGS ?= --upgrade
UV := uv==0.13.8

.PHONY: run test lint setup setup-test system-packages lock bench translations

# The catalogues of the languages (issue 22): referee/translations/<lang>/LC_MESSAGES/messages.po,
# made with `pybabel init -l <lang>`; compiled (.mo, not in git) by `make run` and `make test`.
TRANSLATIONS := referee/translations
# the words the code marks for translation: the engine's T/N/P/NP (referee/engine/words.py) and
# Flask-Babel's
KEYWORDS := -k T -k N:1,2 -k P:1c,2 -k NP:1c,2,3 -k _ -k gettext -k ngettext:1,2 \
  -k pgettext:1c,2 -k npgettext:1c,2,3 -k lazy_gettext -k lazy_pgettext:1c,2

$(BIN)/python:
	python3 -m venv $(VENV)

# `make run` installs the app (and its PostgreSQL driver) only; `make test` adds the test
# tools. Both take their versions from $(LOCK).
$(BIN)/.installed-run: pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install -q -c $(LOCK) -e '.[postgresql]'
	touch $@

$(BIN)/.installed-test: pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install -q -c $(LOCK) -e '.[test]'
	touch $@

# The catalogues compiled every time (a second): a pull or a translator's work is in at once.
setup: $(BIN)/.installed-run
	$(BIN)/pybabel -q compile -d $(TRANSLATIONS)

setup-test: $(BIN)/.installed-test
	$(BIN)/pybabel -q compile -d $(TRANSLATIONS)

run: setup
	$(BIN)/flask --app referee run --host $(HOST) --port $(PORT)

system-packages:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

lint: setup-test
	$(BIN)/ruff check referee tests
	$(BIN)/mypy --strict --follow-imports=silent -p referee.engine -p referee.stats
	$(BIN)/mypy referee

# The tests' files (SQLite databases, synced on every commit as the app does) in memory where
# the system has /dev/shm: a commit then waits for no disk.
TEST_TMPDIR = $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo $${TMPDIR:-/tmp})

test: system-packages lint
	TMPDIR=$(TEST_TMPDIR) $(BIN)/pytest $(PYTEST_ARGS)

# Pin every package of pyproject.toml (the app, its extras) for Python 3.11 and later on any
# system, with uv (installed into .venv for this).
lock: | $(BIN)/python
	$(BIN)/python -m pip install -q '$(UV)'
	$(BIN)/uv pip compile --quiet pyproject.toml --all-extras --universal --python-version 3.11 \
	  --custom-compile-command 'make lock' $(LOCK_ARGS) -o $(LOCK)

# The figures of issue 12 against baselines of the same run (not part of `make test`).
bench: setup-test
	$(BIN)/python -m tests.bench.run

# Every marked sentence into the template (messages.pot), each language's catalogue brought up
# to date with it (a new language: `$(BIN)/pybabel init -i $(TRANSLATIONS)/messages.pot -d
# $(TRANSLATIONS) -l xx`), and all compiled.
translations: setup
	$(BIN)/pybabel -q extract -F babel.cfg --no-default-keywords $(KEYWORDS) \
	  --sort-by-file --project Referee -o $(TRANSLATIONS)/messages.pot referee templates
	$(BIN)/pybabel -q update --no-fuzzy-matching -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS)
	$(BIN)/pybabel -q compile -d $(TRANSLATIONS)
