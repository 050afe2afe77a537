#!/usr/bin/env bash
# Executes the per-paper notebooks (and pictures.ipynb) on the GPU machine,
# so that examples/ can be committed with a GPU run's outputs. Run from the
# repository root with the carry folder CARRY (default .carry-nb) holding
#   arepl   CGO_ENABLED=0 GOEXPERIMENT=simd go build -ldflags=-s -o .carry-nb/arepl ./cmd/arepl
#           (or AREPL=/absolute/path/of/arepl)
#   py.tgz, py311   bash bench/gpu/nbbundle.sh .carry-nb
# The device's Python has no pyzmq, so Debian bookworm's python3.11 with
# nbclient travels in py.tgz (bench/gpu/nbbundle.sh). The arepl kernel's
# `:backend` is auto, which picks the GPU where libcuda loads; the
# notebooks' first cell shows which backend ran.
#
#   bash bench/gpu/notebooks.sh [NOTEBOOK...]
#
# Writes under $OUT (default ./nb-out): notebooks/*.ipynb (executed),
# logs/*.log (one per step), summary.txt. A failing step or notebook is
# logged and the others still run (a notebook that fails or times out is
# still written, with the outputs it got); each notebook has its own time
# limit (NB_TIMEOUT seconds, default 40) and all stop by NB_TOTAL (135 s).
set -uo pipefail
here=$(pwd)
scripts=$(cd "$(dirname "$0")" && pwd)
carry=$(cd "${CARRY:-.carry-nb}" && pwd) || { echo "notebooks.sh: no carry folder ${CARRY:-.carry-nb}" >&2; exit 1; }
OUT=${OUT:-$here/nb-out}
mkdir -p "$OUT/notebooks" "$OUT/logs"
summary=$OUT/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
step() { # step NAME COMMAND...: runs it with its output in logs/NAME.log
	local name=$1 t0 rc ms
	shift
	t0=$(date +%s%N)
	"$@" >"$OUT/logs/$name.log" 2>&1
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	note "$(printf '%-28s rc=%-3s %4d.%03d s' "$name" "$rc" $((ms / 1000)) $((ms % 1000)))"
	return $rc
}

note "notebooks.sh $(date -u +%FT%TZ) on $(hostname)"
step device sh -c 'nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true; uname -a'

export PYBUNDLE=${PYBUNDLE:-/tmp/pynb}
step unpack sh -c "rm -rf '$PYBUNDLE' && mkdir -p '$PYBUNDLE' && tar xzf '$carry/py.tgz' -C '$PYBUNDLE'"
# -S: no site, so only the bundle's modules (PYTHONPATH) are found, the
# same on the device and on a Debian machine that has its own python3.11.
py=("$carry/py311" -S)
step python "${py[@]}" -c 'import sys, nbclient, nbformat, zmq; print(sys.version, nbclient.__version__, nbformat.__version__, zmq.zmq_version())'

tmp=$(mktemp -d)
export JUPYTER_PATH=$tmp/share/jupyter JUPYTER_DATA_DIR=$tmp/data JUPYTER_RUNTIME_DIR=$tmp/runtime \
	JUPYTER_CONFIG_DIR=$tmp/config IPYTHONDIR=$tmp/ipython
bin=${AREPL:-$carry/arepl}
step kernelspec "$bin" jupyter install --prefix "$tmp" --name arepl
step backend sh -c "echo ':backend' | '$bin' 2>&1 | head -5"

if [ $# -gt 0 ]; then
	notebooks=("$@")
else
	# The scan paper first: its :trace and bandwidth chart matter most.
	notebooks=(examples/paper-scan.ipynb examples/paper-segmented-scan.ipynb examples/paper-map-scan-fusion.ipynb
		examples/paper-redomap.ipynb examples/paper-multireduce.ipynb examples/pictures.ipynb)
fi
failed=0 skipped=0
for nb in "${notebooks[@]}"; do
	name=$(basename "$nb" .ipynb)
	# Each notebook gets NB_TIMEOUT seconds, cut to what is left of
	# NB_TOTAL (default 135) since the script started.
	left=$((${NB_TOTAL:-135} - SECONDS))
	limit=${NB_TIMEOUT:-40}
	[ "$left" -lt "$limit" ] && limit=$left
	if [ "$limit" -lt 5 ]; then
		note "nb-$name: skipped, ${left}s left of NB_TOTAL"
		skipped=$((skipped + 1))
		continue
	fi
	step "nb-$name" timeout -k 3 "$limit" "${py[@]}" "$scripts/run_notebooks.py" arepl "$OUT/notebooks" "$nb" ||
		failed=$((failed + 1))
done
note "notebooks: ${#notebooks[@]}, $failed failed, $skipped skipped; executed copies in $OUT/notebooks"
rm -rf "$tmp"
exit 0
