"""A hostile local client against the built kernel, run by jupyter/test.sh:

    hostile_client.py ARPEL_BINARY

The kernel runs under `ulimit -v 6000000` (about 6 GB of address space), on
loopback TCP. Against every one of its five sockets the script sends raw
ZMTP: greetings followed by frame headers announcing 2^62, 2^40 and just
over the kernel's 64 MiB message bound, malformed READY metadata, garbage,
a connection that stalls mid-greeting (kept open to the end), 100 MB
messages after a proper handshake, and bursts of connections and of bad
messages, and an iopub subscriber that never reads while a cell prints
20 MB. On shell it replays a signed execute_request with its signature's
case changed. After each phase the kernel process must be alive; at the
end a normal client must be answered, the replay must not have run, the
log must be summarised rather than a line per bad message, and shutdown
must be clean. A second run with an empty key checks the warning on
stderr.

Everything is bounded (counts, sizes, timeouts) and stays on 127.0.0.1.
"""
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time

import zmq
from jupyter_client import BlockingKernelClient
from jupyter_client.connect import write_connection_file
from jupyter_client.session import Session

TIMEOUT = 30
MAX_MESSAGE = 64 << 20  # jupyter/kernel.go's maxMessageSize
ULIMIT_KB = 6000000

SOCKETS = {  # name: the ZMTP socket type a peer of it declares
    "shell": b"DEALER",
    "control": b"DEALER",
    "stdin": b"DEALER",
    "iopub": b"SUB",
    "hb": b"REQ",
}


def greeting():
    return b"\xff" + bytes(8) + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\0") + b"\x00" + bytes(31)


def long_header(size, command=False, more=False):
    flags = 0x02 | (0x04 if command else 0) | (0x01 if more else 0)
    return bytes([flags]) + struct.pack(">Q", size)


def ready(props=b""):
    body = b"\x05READY" + props
    return bytes([0x04, len(body)]) + body


def prop(name, value):
    return bytes([len(name)]) + name + struct.pack(">I", len(value)) + value


class Kernel:
    """The kernel process under test, with its connection info and log."""

    def __init__(self, binary, workdir, key):
        self.conn_file = os.path.join(workdir, "kernel-hostile.json")
        write_connection_file(self.conn_file, ip="127.0.0.1", key=key, transport="tcp",
                              signature_scheme="hmac-sha256")
        with open(self.conn_file) as f:
            self.info = json.load(f)
        self.log_path = os.path.join(workdir, "kernel.log")
        self.log = open(self.log_path, "wb")
        cmd = 'ulimit -v %d && exec "$0" jupyter kernel -f "$1"' % ULIMIT_KB
        self.proc = subprocess.Popen(["sh", "-c", cmd, binary, self.conn_file],
                                     stdout=self.log, stderr=subprocess.STDOUT)

    def port(self, name):
        return self.info[name + "_port"]

    def alive(self, phase):
        time.sleep(0.2)
        code = self.proc.poll()
        if code is not None:
            fail("the kernel died during %s (exit %s); log:\n%s" % (phase, code, self.log_text()[-4000:]))

    def log_text(self):
        self.log.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def client(self):
        kc = BlockingKernelClient(connection_file=self.conn_file)
        kc.load_connection_file()
        kc.start_channels()
        kc.wait_for_ready(timeout=TIMEOUT)
        return kc

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def fail(msg):
    print("hostile_client: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def raw(port, timeout=5):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.settimeout(timeout)
    return s


def send_quietly(s, data):
    """Sends data, stopping when the kernel hangs up (as it should)."""
    try:
        s.sendall(data)
        return True
    except OSError:
        return False


def drain_close(s):
    try:
        s.settimeout(2)
        while s.recv(1 << 16):
            pass
    except OSError:
        pass
    s.close()


def oversized_handshakes(k):
    for name in SOCKETS:
        for size in (1 << 62, 1 << 40, 1 << 31, MAX_MESSAGE + 1):
            s = raw(k.port(name))
            send_quietly(s, greeting() + long_header(size, command=True) + b"x" * 4096)
            drain_close(s)
        for meta in (b"\x02ab", b"\x0bSo", b"\x01k\x00\x00\x00\xc8", b"\xff"):
            s = raw(k.port(name))
            send_quietly(s, greeting() + ready(meta))
            drain_close(s)
        s = raw(k.port(name))
        send_quietly(s, b"GET / HTTP/1.0\r\n\r\n" + os.urandom(1024))
        drain_close(s)


def big_messages(k):
    """A proper handshake, then 100 MB in 1 MB frames, then one frame
    announcing 2^62 bytes."""
    chunk = long_header(1 << 20, more=True) + bytes(1 << 20)
    for name, typ in SOCKETS.items():
        s = raw(k.port(name), timeout=20)
        send_quietly(s, greeting() + ready(prop(b"Socket-Type", typ)))
        for _ in range(100):
            if not send_quietly(s, chunk):
                break  # refused past the bound: the kernel hung up
        drain_close(s)
        s = raw(k.port(name))
        send_quietly(s, greeting() + ready(prop(b"Socket-Type", typ)) + long_header(1 << 62))
        drain_close(s)
    # The same through pyzmq: a 100 MB multipart message on shell.
    ctx = zmq.Context.instance()
    d = ctx.socket(zmq.DEALER)
    d.linger = 0
    d.connect("tcp://127.0.0.1:%d" % k.port("shell"))
    d.send_multipart([b"<IDS|MSG>", b"0" * 64, b"{}", b"{}", b"{}", bytes(100 << 20)])
    time.sleep(2)
    d.close()


def bursts(k):
    """500 connections opened and dropped, 2,000 bad messages on shell and
    control, 200 bad heartbeats."""
    for i in range(500):
        name = list(SOCKETS)[i % len(SOCKETS)]
        try:
            s = raw(k.port(name), timeout=2)
            if i % 2:
                s.sendall(greeting()[:i % 64])
            s.close()
        except OSError:
            pass
    ctx = zmq.Context.instance()
    bad = Session(key=b"not-the-key", signature_scheme="hmac-sha256")
    for name in ("shell", "control"):
        d = ctx.socket(zmq.DEALER)
        d.linger = 0
        d.connect("tcp://127.0.0.1:%d" % k.port(name))
        for i in range(1000):
            if i % 2:
                d.send_multipart([b"garbage %d" % i])
            else:
                bad.send(d, "execute_request", {"code": "1", "silent": False})
        time.sleep(1)
        d.close()


def deaf_subscriber(k, kc):
    """An iopub subscriber that never reads, while a cell prints about
    20 MB: the kernel must drop it (after its 10 s write timeout) rather
    than stall every client's output."""
    s = raw(k.port("iopub"))
    s.sendall(greeting() + ready(prop(b"Socket-Type", b"SUB")) + b"\x00\x01\x01")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    time.sleep(0.5)
    start = time.time()
    msg_id = kc.execute(":print iota 2000000")
    got = 0
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "stream":
            got += len(m["content"]["text"])
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    s.close()
    shell_reply(kc, msg_id)
    if got < 2000000 * 7:
        fail("only %d bytes of output arrived" % got)
    print("hostile_client: a subscriber that never reads: output arrived whole in %.1f s" % (time.time() - start))


def replays(k, kc):
    """A signed execute_request replayed with its signature upper-cased and
    in mixed case must not run again."""
    ctx = zmq.Context.instance()
    d = ctx.socket(zmq.DEALER)
    d.linger = 0
    d.connect("tcp://127.0.0.1:%d" % k.port("shell"))
    session = Session(key=k.info["key"].encode(), signature_scheme="hmac-sha256")
    msg = session.msg("execute_request", {"code": "1", "silent": False, "store_history": True,
                                          "user_expressions": {}, "allow_stdin": False,
                                          "stop_on_error": True})
    frames = session.serialize(msg)
    d.send_multipart(frames)
    if not d.poll(TIMEOUT * 1000):
        fail("no reply to a signed execute_request")
    _, first = session.recv(d, mode=0)
    count = first["content"]["execution_count"]
    sig = frames[1].decode()
    for changed in (sig.upper(), sig[:8].upper() + sig[8:], sig[:-8] + sig[-8:].upper()):
        if changed == sig:
            continue
        d.send_multipart([frames[0], changed.encode()] + frames[2:])
    if d.poll(2000):
        _, again = session.recv(d, mode=0)
        fail("a case-changed replay was answered: %s" % again["msg_type"])
    d.close()
    reply = shell_reply(kc, kc.execute("2"))
    if reply["content"]["execution_count"] != count + 1:
        fail("execution count %d after one cell at %d: a replay ran"
             % (reply["content"]["execution_count"], count))


def shell_reply(kc, msg_id):
    while True:
        reply = kc.get_shell_msg(timeout=TIMEOUT)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply


def answers(kc):
    msg_id = kc.execute("1 + 2")
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    if reply["parent_header"]["msg_id"] != msg_id or reply["content"]["status"] != "ok":
        fail("the kernel does not answer: %s" % reply["content"])
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "execute_result":
            if m["content"]["data"]["text/plain"] != "3":
                fail("1 + 2 = %s" % m["content"]["data"]["text/plain"])
            return
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            fail("no execute_result for 1 + 2")


def hostile_run(binary, workdir):
    k = Kernel(binary, workdir, key=os.urandom(16).hex().encode())
    try:
        kc = k.client()
        stalled = []

        def stall(k):
            # Connections that stop mid-greeting, kept open to the end:
            # the others must still be served.
            for name in SOCKETS:
                s = raw(k.port(name))
                s.sendall(greeting()[:10])
                stalled.append(s)

        for phase, run in (("oversized frames in the handshake", oversized_handshakes),
                           ("stalled handshakes", stall),
                           ("100 MB messages", big_messages), ("bursts", bursts)):
            start = time.time()
            try:
                run(k)
            except OSError as e:
                k.alive(phase)  # a refused connection: is the kernel gone?
                fail("%s: %s" % (phase, e))
            k.alive(phase)
            print("hostile_client: %s: kernel alive (%.1f s)" % (phase, time.time() - start))
        deaf_subscriber(k, kc)
        k.alive("a subscriber that never reads")
        replays(k, kc)
        k.alive("replays")
        print("hostile_client: case-changed replays dropped")
        # A fresh client connects and is answered, with the stalled
        # connections still open.
        kc.stop_channels()
        kc = k.client()
        answers(kc)
        hb = kc.hb_channel
        if not hb.is_beating():
            fail("no heartbeat")
        for s in stalled:
            s.close()
        log = k.log_text()
        lines = log.count("\n")
        if "overflow" not in log:
            fail("oversized frames were not logged:\n" + log[-3000:])
        if "more such lines not shown" not in log:
            fail("bad messages were not summarised")
        if lines > 600:
            fail("%d log lines for the hostile run: not rate-limited" % lines)
        kc.shutdown()
        try:
            code = k.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            fail("no exit after shutdown_request")
        if code != 0:
            fail("exit status %d after shutdown" % code)
        kc.stop_channels()
        print("hostile_client: kernel answered afterwards and shut down cleanly (%d log lines)" % lines)
    finally:
        k.stop()


def empty_key_run(binary, workdir):
    k = Kernel(binary, workdir, key=b"")
    try:
        kc = k.client()
        answers(kc)
        kc.shutdown()
        k.proc.wait(timeout=TIMEOUT)
        kc.stop_channels()
        if "empty key: messages are not signed" not in k.log_text():
            fail("no warning for an empty key on stderr:\n" + k.log_text())
        print("hostile_client: an empty key is warned about")
    finally:
        k.stop()


def main():
    if len(sys.argv) != 2:
        fail("usage: hostile_client.py AREPL_BINARY")
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as d:
        hostile_run(binary, d)
    with tempfile.TemporaryDirectory() as d:
        empty_key_run(binary, d)
    print("hostile_client: passed")


if __name__ == "__main__":
    main()
