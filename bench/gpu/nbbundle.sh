#!/usr/bin/env bash
# Builds the Python that executes the example notebooks on the GPU machine
# (bench/gpu/notebooks.sh): latency.pybundle.sh's bundle of Debian
# bookworm's python3.11, jupyter_client and pyzmq, plus nbclient, nbformat
# and what they import (apt-cache depends --no-recommends).
#
#   bash bench/gpu/nbbundle.sh DIR
#
# writes DIR/py.tgz and DIR/py311 (see latency.pybundle.sh). DIR should be
# a gitignored folder that travels in the device call's carry (.carry-nb).
set -euo pipefail
EXTRA_DEBS="python3-nbclient python3-nbformat python3-fastjsonschema python3-jsonschema \
python3-attr python3-pyrsistent" exec bash "$(dirname "$0")/latency.pybundle.sh" "$1"
