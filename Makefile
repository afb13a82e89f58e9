# The two commands of the README, and the setup they share.
# A local virtual environment with the system's site packages, so that on a Raspberry Pi the apt
# packages python3-picamera2 and python3-lgpio are seen. It is rebuilt only when pyproject.toml changes.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup demo test models clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv --system-site-packages $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/dicetable demo $(ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest $(ARGS)

# Rebuild the reader's models from ../shared's photos and rendered scenes (torch: the [train] extra).
models: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,train]'
	$(BIN)/python -m vision.train $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info
