"""Drives `jupyter console` on the arepl kernel through a few inputs, as
a person at a terminal would, and checks what it prints."""
import os
import subprocess
import unittest

KERNEL = os.environ.get("AREPL_KERNEL", "arepl")


class TestConsole(unittest.TestCase):
    def test_inputs(self):
        inputs = "\n".join([
            "1 + 2",
            "def sq (x: i64) = x * x",
            "map sq (iota 5)",
            ":type iota 3",
            "scan (+) 0 [1, 2, 3]",
            "",
        ]) + "\n"
        p = subprocess.run(
            ["/usr/bin/jupyter", "console", "--kernel=" + KERNEL, "--simple-prompt"],
            input=inputs, capture_output=True, text=True, timeout=120)
        out = p.stdout
        self.assertIn("Out[1]: 3", out, out + p.stderr)
        self.assertIn("Out[3]: [0, 1, 4, 9, 16]", out, out + p.stderr)
        self.assertIn("iota 3 : [3]i64", out, out + p.stderr)
        self.assertIn("Out[5]: [1, 3, 6]", out, out + p.stderr)
        self.assertNotIn("did not respond", p.stderr)


if __name__ == "__main__":
    unittest.main()
