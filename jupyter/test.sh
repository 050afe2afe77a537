#!/usr/bin/env bash
# End-to-end tests of the Jupyter kernel against Debian's Jupyter clients:
# jupyter_kernel_test's suite, a jupyter_client script for what that suite
# misses, every example notebook executed by nbconvert with its outputs
# checked, jupyter console, and a hostile client (raw ZMTP, oversized
# frames, replays, floods) against a kernel under a 6 GB address-space
# limit, and screenshots of the notebooks in headless Chromium checked for
# content (testdata/screenshots.sh). Run by `make test-jupyter` (so CI):
#
#   bash jupyter/test.sh [ABSOLUTE_PATH_OF_AREPL]
#
# Without an argument it builds ./cmd/arepl. The kernelspecs go into a
# temporary JUPYTER_PATH; nothing outside it is touched except the Debian
# packages, installed with apt-get when missing (as root). Nothing is
# skipped: a missing dependency is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)

pkgs=(python3-jupyter-client jupyter-client jupyter-nbconvert python3-nbclient python3-jupyter-kernel-test jupyter-console chromium)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "jupyter/test.sh: missing Debian packages ${missing[*]}; run as root or install them" >&2
		exit 1
	fi
	echo "jupyter/test.sh: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
		{ apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${1:-}
if [ -z "$bin" ]; then
	bin=$tmp/arepl
	CGO_ENABLED=0 go build -o "$bin" ./cmd/arepl
fi
case "$bin" in /*) ;; *) bin=$here/$bin ;; esac

export JUPYTER_PATH=$tmp/share/jupyter JUPYTER_DATA_DIR=$tmp/data JUPYTER_RUNTIME_DIR=$tmp/runtime \
	JUPYTER_CONFIG_DIR=$tmp/config IPYTHONDIR=$tmp/ipython
export AREPL_KERNEL=arepl-test AREPL_KERNEL_SIGNAL=arepl-test-signal
"$bin" jupyter install --prefix "$tmp" --name "$AREPL_KERNEL"
"$bin" jupyter install --prefix "$tmp" --name "$AREPL_KERNEL_SIGNAL" --interrupt-mode signal
# Not `list | grep -q`: grep's early exit can break the pipe under
# jupyter, which pipefail turns into a failure.
/usr/bin/jupyter kernelspec list >"$tmp/kernelspecs"
grep -q "$AREPL_KERNEL_SIGNAL" "$tmp/kernelspecs" ||
	{ echo "jupyter/test.sh: kernelspec not found in $JUPYTER_PATH" >&2; exit 1; }

# The Debian modules only work with Debian's interpreter (python3 on PATH
# may be another one).
py=/usr/bin/python3
cd "$here/jupyter/testdata"
echo "== jupyter_kernel_test"
$py -m unittest -v test_kernel
echo "== jupyter_client"
$py -m unittest -v test_client
echo "== jupyter console"
$py -m unittest -v test_console
echo "== hostile client (kernel under ulimit -v 6000000)"
$py hostile_client.py "$bin"
echo "== notebooks"
$py -m unittest -v test_check_notebooks
cd "$here"
shopt -s nullglob
notebooks=(examples/*.ipynb)
if [ ${#notebooks[@]} -eq 0 ]; then
	echo "jupyter/test.sh: no examples/*.ipynb" >&2
	exit 1
fi
$py jupyter/testdata/check_notebooks.py "${notebooks[@]}"
echo "== screenshots in headless chromium"
SHOTS=${SHOTS:-$tmp/shots} bash jupyter/testdata/screenshots.sh "$bin"
echo "jupyter/test.sh: all passed"
