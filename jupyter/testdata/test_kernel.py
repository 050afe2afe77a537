"""jupyter_kernel_test's conformance suite against the arepl kernel.

Every test of KernelTests is enabled: each sample below is arepl code
(a Futhark subset plus the REPL's :commands). Run by jupyter/test.sh with
/usr/bin/python3 and a temporary JUPYTER_PATH holding the kernelspec.
"""
import os
import unittest

import jupyter_kernel_test

KERNEL = os.environ.get("AREPL_KERNEL", "arepl")


class AreplKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = KERNEL
    language_name = "futhark"
    file_extension = ".fut"

    code_hello_world = ":echo hello, world"
    code_stderr = ":echo --stderr careful"

    completion_samples = [
        {"text": "reduce_", "matches": {"reduce_comm", "reduce_by_index", "reduce_by_index_2d", "reduce_by_index_3d"}},
        {"text": ":he", "matches": {":help"}},
        {"text": "f64.sq", "matches": {"f64.sqrt"}},
    ]

    complete_code_samples = ["1 + 2", "def inc (x: i32) = x + 1", ":type iota 3", "map (+1) [1, 2, 3]"]
    incomplete_code_samples = ["[1, 2", "map (\\x ->", "let x = 1 in"]
    invalid_code_samples = ["1 + 2)", "[1, 2)"]

    code_page_something = ":help"

    code_generate_error = "1 + true"

    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": "reduce (+) 0 (iota 10)", "result": "45"},
        {"code": "scan (+) 0 [1, 2, 3, 4]", "result": "[1, 3, 6, 10]"},
        {"code": "iota 4", "mime": "text/html"},
    ]
    code_history_pattern = "reduce*"
    supported_history_operations = ("tail", "range", "search")

    code_display_data = [
        {"code": ":time on\nreduce (+) 0 (iota 1000)\n:time off", "mime": "text/html"},
    ]

    code_inspect_sample = "map"

    code_clear_output = ":echo soon gone\n:clear"


if __name__ == "__main__":
    unittest.main()
