"""What jupyter_kernel_test does not cover, driven with jupyter_client:
stdin, interrupts in both modes with the kernel alive afterwards, a
20,000-line output flood arriving whole, shutdown time, bad and missing
signatures dropped, the ipc transport, error positions, and exiting when
the parent process dies.

jupyter/test.sh installs two kernelspecs in a temporary JUPYTER_PATH:
AREPL_KERNEL (interrupt_mode "message") and AREPL_KERNEL_SIGNAL
(interrupt_mode "signal").
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import time
import unittest

import zmq
from jupyter_client.manager import KernelManager, start_new_kernel
from jupyter_client.session import Session

KERNEL = os.environ.get("AREPL_KERNEL", "arepl")
KERNEL_SIGNAL = os.environ.get("AREPL_KERNEL_SIGNAL", "arepl-signal")
TIMEOUT = 30

# A computation long enough to be interrupted: a sequential loop of 10^12
# steps (hours), which the evaluator must abandon when cancelled.
LONG = "loop s = 0i64 for i < 1000000000000i64 do s + i % 7"


def run_cell(kc, code, **kw):
    """Executes code; returns (reply content, [iopub messages up to idle])."""
    msg_id = kc.execute(code, **kw)
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=TIMEOUT)
    return reply["content"], iopub_until_idle(kc, msg_id)


def iopub_until_idle(kc, msg_id):
    out = []
    while True:
        msg = kc.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        out.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return out


def result_text(msgs):
    for m in msgs:
        if m["msg_type"] == "execute_result":
            return m["content"]["data"]["text/plain"]
    return None


class KernelCase(unittest.TestCase):
    kernel = KERNEL

    def setUp(self):
        self.km, self.kc = start_new_kernel(kernel_name=self.kernel, startup_timeout=TIMEOUT)

    def tearDown(self):
        self.kc.stop_channels()
        if self.km.is_alive():
            self.km.shutdown_kernel(now=True)

    def assert_alive(self):
        content, msgs = run_cell(self.kc, "1 + 2")
        self.assertEqual(content["status"], "ok", content)
        self.assertEqual(result_text(msgs), "3")


class TestStdin(KernelCase):
    def test_input_when_allowed(self):
        prompts = []

        def hook(msg):
            prompts.append(msg["content"]["prompt"])
            self.kc.input("21")

        reply = self.kc.execute_interactive(":input n : i64\nn * 2", allow_stdin=True, stdin_hook=hook,
                                            output_hook=lambda m: None, timeout=TIMEOUT)
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        self.assertEqual(prompts, ["n : i64 = "])
        content, msgs = run_cell(self.kc, "n")
        self.assertEqual(result_text(msgs), "21")

    def test_no_input_request_when_not_allowed(self):
        content, msgs = run_cell(self.kc, ":input m : i64", allow_stdin=False)
        self.assertEqual(content["status"], "error")
        with self.assertRaises(queue.Empty):
            self.kc.get_stdin_msg(timeout=0.5)
        self.assert_alive()


class TestInterruptMessage(KernelCase):
    def test_interrupt(self):
        msg_id = self.kc.execute(LONG)
        time.sleep(1.0)
        start = time.time()
        self.km.interrupt_kernel()
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "Interrupted")
        self.assertLess(time.time() - start, 5.0)
        iopub_until_idle(self.kc, msg_id)
        self.assertTrue(self.km.is_alive())
        self.assert_alive()


class TestInterruptSignal(TestInterruptMessage):
    kernel = KERNEL_SIGNAL

    def test_spec_says_signal(self):
        self.assertEqual(self.km.kernel_spec.interrupt_mode, "signal")


class TestFlood(KernelCase):
    def test_twenty_thousand_lines(self):
        n = 20000
        content, msgs = run_cell(self.kc, ":print map (\\i -> [i, i * 2]) (iota %d)" % n)
        self.assertEqual(content["status"], "ok", content)
        text = "".join(m["content"]["text"] for m in msgs if m["msg_type"] == "stream")
        lines = text.rstrip("\n").split("\n")
        self.assertEqual(len(lines), n)
        self.assertEqual(lines[0], "[[0, 0],")
        self.assertEqual(lines[-1], " [%d, %d]]" % (n - 1, 2 * (n - 1)))
        streams = sum(1 for m in msgs if m["msg_type"] == "stream")
        self.assertLess(streams, 200, "stream output is not coalesced")
        self.assertEqual(msgs[-1]["content"]["execution_state"], "idle")


class TestErrors(KernelCase):
    def test_traceback_points_into_cell(self):
        content, msgs = run_cell(self.kc, "def inc (x: i32) = x + 1\n\ninc true")
        self.assertEqual(content["status"], "error")
        tb = "\n".join(content["traceback"])
        self.assertRegex(tb, r"In\[1\]:3:\d+")
        errors = [m for m in msgs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        self.assertEqual(errors[0]["content"]["traceback"], content["traceback"])

    def test_stop_on_error_aborts_queue(self):
        first = self.kc.execute(LONG + "\n1 + true")
        second = self.kc.execute("1 + 2")
        time.sleep(0.5)
        self.km.interrupt_kernel()
        replies = {}
        for _ in range(2):
            r = self.kc.get_shell_msg(timeout=TIMEOUT)
            replies[r["parent_header"]["msg_id"]] = r["content"]["status"]
        self.assertEqual(replies, {first: "error", second: "aborted"})
        self.assert_alive()


class TestCommands(KernelCase):
    """The kernel serves the REPL's command table (issue 19, defect 3)."""

    def streams(self, msgs, name="stdout"):
        return "".join(m["content"]["text"] for m in msgs
                       if m["msg_type"] == "stream" and m["content"]["name"] == name)

    def test_kernel_command(self):
        content, msgs = run_cell(self.kc, ":kernel reduce (+) 0 (iota 10)")
        self.assertEqual(content["status"], "ok", content)
        pages = [p for p in content.get("payload", []) if p.get("source") == "page"]
        self.assertTrue(pages and "__global__" in pages[0]["data"]["text/plain"], content)

    def test_plan_does_not_run(self):
        # :plan compiles without running: a loop of hours answers at once.
        start = time.time()
        content, msgs = run_cell(self.kc, ":plan " + LONG)
        self.assertEqual(content["status"], "ok", content)
        self.assertLess(time.time() - start, 20)

    def test_confirmations(self):
        content, msgs = run_cell(self.kc, ":time on\n:set print-limit 2\n:fusion off\n:time off")
        self.assertEqual(content["status"], "ok", content)
        self.assertEqual(self.streams(msgs), "time on\nprint-limit 2\nfusion off\ntime off\n")

    def test_doc_and_question_mark(self):
        for code in (":doc iota", "?iota"):
            content, msgs = run_cell(self.kc, code)
            self.assertEqual(content["status"], "ok", content)
            self.assertIn("iota : ", self.streams(msgs))


class TestShutdown(unittest.TestCase):
    def test_shutdown_is_prompt(self):
        km, kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)
        kc.stop_channels()
        start = time.time()
        km.shutdown_kernel(now=False)
        took = time.time() - start
        print("shutdown took %.3f s" % took, file=sys.stderr)
        # jupyter_client sends SIGTERM after about 2.5 s: a kernel that
        # needs that long did not shut down on its own.
        self.assertLess(took, 1.0)
        self.assertFalse(km.is_alive())


class TestSignatures(KernelCase):
    def raw_shell(self, key):
        ctx = zmq.Context.instance()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        info = self.km.get_connection_info()
        sock.connect("%s://%s:%d" % (info["transport"], info["ip"], info["shell_port"]))
        return sock, Session(key=key, signature_scheme="hmac-sha256")

    def test_bad_and_missing_signatures_dropped(self):
        sock, wrong = self.raw_shell(b"not-the-key")
        try:
            wrong.send(sock, "kernel_info_request", {})
            unsigned = Session(key=b"")
            unsigned.send(sock, "kernel_info_request", {})
            # Malformed: no delimiter, and a truncated message.
            sock.send_multipart([b"garbage"])
            sock.send_multipart([b"<IDS|MSG>", b"00"])
            self.assertEqual(sock.poll(1000), 0, "the kernel answered a badly signed message")
        finally:
            sock.close()
        self.assert_alive()
        self.kc.kernel_info()
        self.assertEqual(self.kc.get_shell_msg(timeout=TIMEOUT)["msg_type"], "kernel_info_reply")


class TestIPC(unittest.TestCase):
    def test_ipc_transport(self):
        with tempfile.TemporaryDirectory() as d:
            km = KernelManager(kernel_name=KERNEL, transport="ipc", ip=os.path.join(d, "kernel-ipc"))
            km.start_kernel()
            kc = km.client()
            kc.start_channels()
            try:
                kc.wait_for_ready(timeout=TIMEOUT)
                content, msgs = run_cell(kc, "reduce (+) 0 (iota 10)")
                self.assertEqual(result_text(msgs), "45")
            finally:
                kc.stop_channels()
                km.shutdown_kernel(now=False)
            self.assertFalse(km.is_alive())


class TestParentDeath(unittest.TestCase):
    def test_exits_when_parent_dies(self):
        km = KernelManager(kernel_name=KERNEL)
        argv = [a.replace("{connection_file}", "CONN") for a in km.kernel_spec.argv]
        with tempfile.TemporaryDirectory() as d:
            conn = os.path.join(d, "kernel-x.json")
            km.connection_file = conn
            km.write_connection_file()
            argv = [a if a != "CONN" else conn for a in argv]
            parent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1)"])
            env = dict(os.environ, JPY_PARENT_PID=str(parent.pid))
            kernel = subprocess.Popen(argv, env=env, stderr=subprocess.DEVNULL)
            try:
                parent.wait()
                kernel.wait(timeout=10)
            finally:
                if kernel.poll() is None:
                    kernel.kill()
            self.assertEqual(kernel.returncode, 0)



def decode_png(data):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG, read
    with zlib alone (Debian's Python here has no PIL)."""
    import struct
    import zlib
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def gif_frames(data):
    """(width, height, number of frames) of a GIF, walking its blocks."""
    import struct
    assert data[:6] == b"GIF89a", data[:6]
    w, h, flags = struct.unpack("<HHB", data[6:11])
    pos = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    frames = 0
    while data[pos] != 0x3B:
        if data[pos] == 0x21:  # extension: label, then sub-blocks
            pos += 2
        else:  # image descriptor, optional local table, LZW size, sub-blocks
            assert data[pos] == 0x2C, data[pos]
            frames += 1
            lflags = data[pos + 9]
            pos += 10 + (3 << ((lflags & 7) + 1) if lflags & 0x80 else 0) + 1
        while data[pos] != 0:
            pos += data[pos] + 1
        pos += 1
    return w, h, frames


class TestPictures(KernelCase):
    """:img, :plot and :video send display_data whose images decode to the
    size and pixels the expression says."""

    def display(self, code):
        import base64
        content, msgs = run_cell(self.kc, code)
        self.assertEqual(content["status"], "ok", content)
        data = [m["content"]["data"] for m in msgs if m["msg_type"] == "display_data"]
        self.assertEqual(len(data), 1, msgs)
        return data[0], base64

    def test_img_png(self):
        data, base64 = self.display(
            ":img map (\\i -> map (\\j -> u32.i64 (i * 0x100000 + j * 0x2000)) (iota 3)) (iota 2); scale=1")
        self.assertIn('src="data:image/png;base64,', data["text/html"])
        w, h, rows = decode_png(base64.b64decode(data["image/png"]))
        self.assertEqual((w, h), (3, 2))
        self.assertEqual(rows, [[(0x10 * i, 0x20 * j, 0) for j in range(3)] for i in range(2)])

    def test_img_palette_scaled(self):
        data, base64 = self.display(":img [[0i32, 1], [2, 3]]; palette=viridis")
        w, h, rows = decode_png(base64.b64decode(data["image/png"]))
        self.assertEqual((w, h), (256, 256))
        self.assertEqual(rows[0][0], (0x44, 0x01, 0x54))
        self.assertEqual(rows[255][255], (0xfd, 0xe7, 0x25))

    def test_video_gif(self):
        data, base64 = self.display(":video map (\\k -> [map (\\j -> j == k) (iota 3)]) (iota 4); scale=2")
        self.assertIn('src="data:image/gif;base64,', data["text/html"])
        self.assertEqual(gif_frames(base64.b64decode(data["image/gif"])), (6, 2, 4))

    def test_plot_svg(self):
        import xml.etree.ElementTree as ET
        data, _ = self.display(":plot (map f64.i64 (iota 5), map (\\i -> f64.i64 (i * i)) (iota 5)); title=squares")
        root = ET.fromstring(data["image/svg+xml"])
        self.assertEqual(root.get("width"), "432pt")
        texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
        self.assertIn("squares", texts)
        self.assertIn("<svg", data["text/html"])

    def test_bad_type_is_an_error(self):
        content, _ = run_cell(self.kc, ":img iota 3")
        self.assertEqual(content["status"], "error")
        self.assertIn("2-D array", content["evalue"])
        self.assert_alive()


if __name__ == "__main__":
    unittest.main()
