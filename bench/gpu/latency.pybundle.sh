#!/usr/bin/env bash
# Builds a Python that can run jupyter_client on the GPU machine, for
# bench/gpu/latency.sh's "notebook" part (PY=...). That machine's Python
# (3.12) has no pyzmq and reaches no package index; Debian's python3-zmq is
# built for Debian's Python 3.11, so Debian bookworm's python3.11 travels
# with it: the .debs below, unpacked with dpkg -x (no install, no root on
# the device), tests and docs dropped.
#
#   bash bench/gpu/latency.pybundle.sh DIR
#
# writes DIR/py.tgz (about 9 MB) and DIR/py311, a wrapper that runs the
# bundle once it is unpacked into /tmp/py on the device:
#
#   mkdir -p /tmp/py && tar xzf DIR/py.tgz -C /tmp/py && DIR/py311 -c 'import jupyter_client'
#
# Run on a Debian bookworm machine with apt (apt-get download needs no root).
# EXTRA_DEBS adds packages (bench/gpu/nbbundle.sh adds nbclient's); the
# wrapper honours PYBUNDLE, the directory the bundle was unpacked into.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
work=$(mktemp -d)
cd "$work"
apt-get download python3.11-minimal libpython3.11-minimal libpython3.11-stdlib python3-zmq \
	python3-jupyter-client python3-jupyter-core python3-traitlets python3-dateutil python3-six \
	python3-tornado python3-nest-asyncio python3-entrypoints python3-platformdirs python3-py \
	python3-cffi-backend libzmq5 libsodium23 libpgm-5.3-0 libnorm1 libffi8 libbsd0 libmd0 \
	libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libkeyutils1 libcom-err2 ${EXTRA_DEBS:-}
mkdir root
for f in *.deb; do dpkg -x "$f" root; done
cd root
rm -rf usr/share/doc usr/share/man usr/share/lintian
p=usr/lib/python3.11
rm -rf $p/test $p/idlelib $p/tkinter $p/ensurepip $p/lib2to3 $p/pydoc_data $p/turtledemo \
	$p/unittest/test $p/distutils/tests $p/ctypes/test $p/sqlite3/test $p/config-3.11-x86_64-linux-gnu
find . -name __pycache__ -type d -prune -exec rm -rf {} +
tar czf "$out/py.tgz" .
cat >"$out/py311" <<'WRAP'
#!/bin/sh
# Debian bookworm's python3.11 with jupyter_client and pyzmq, unpacked from
# their .debs (py.tgz, bench/gpu/latency.pybundle.sh) into /tmp/py, or
# into $PYBUNDLE.
B=${PYBUNDLE:-/tmp/py}
exec env -u PYTHONHOME LD_LIBRARY_PATH=$B/usr/lib/x86_64-linux-gnu:$B/lib/x86_64-linux-gnu PYTHONPATH=$B/usr/lib/python3/dist-packages $B/usr/bin/python3.11 "$@"
WRAP
chmod +x "$out/py311"
rm -rf "$work"
echo "$out/py.tgz $out/py311"
