# The two commands of the README: `make run` and `make test`.
VENV := .venv
# `make run` listens on this computer only; `make run HOST=0.0.0.0` lets phones on the same
# network connect.
HOST ?= 127.0.0.1
PORT ?= 5000
BIN := $(VENV)/bin
# Debian packages the tests need: the browser for the page tests, a faster WeasyPrint.
DEBS := chromium libharfbuzz-subset0 fonts-dejavu-core

.PHONY: run test lint setup system-packages bench

$(BIN)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

setup: $(BIN)/.installed

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

lint: setup
	$(BIN)/ruff check referee tests
	$(BIN)/mypy --strict --follow-imports=silent -p referee.engine -p referee.stats
	$(BIN)/mypy referee

test: system-packages lint
	$(BIN)/pytest

# The figures of issue 12 against baselines of the same run (not part of `make test`).
bench: setup
	$(BIN)/python -m tests.bench.run
