"""Tests of check_notebooks.compare: the notebooks are committed with the
outputs of a run on the GPU machine (bench/gpu/notebooks.sh) and CI
executes them on the CPU, so a GPU run's saved outputs must compare equal
to a CPU run's, and real differences must still be reported.

    python3 -m unittest -v test_check_notebooks
"""
import unittest

from check_notebooks import compare


def notebook(*outputs):
    return {"cells": [{"cell_type": "code", "source": ["x"], "metadata": {}, "outputs": list(outputs)}]}


def stream(s):
    return {"output_type": "stream", "name": "stdout", "text": [s]}


def display(plain):
    return {"output_type": "display_data", "data": {"text/plain": plain, "image/svg+xml": "<svg/>"}, "metadata": {}}


class CompareTest(unittest.TestCase):
    def test_gpu_run_against_cpu_run(self):
        gpu = notebook(
            stream("loaded pictures.fut: escape, mandelbrot\nbackend auto: gpu (NVIDIA H100 80GB HBM3)\n"),
            display("<chart: gbs against n for scan_i32, copy_i32, 4 sizes, on gpu>"),
            display("<Gantt chart: scan (+) 0 (input 2_000_000) on gpu>"),
            stream("time: 41 µs (min 39 µs, 20 runs)\n"),
            stream("time: 1.2ms on gpu (parse 80µs, run 1ms), 1 kernel\n  screma(scanomap): 40 µs, 7.6 MiB, 380 GB/s"))
        cpu = notebook(
            stream("loaded pictures.fut: escape, mandelbrot\nbackend auto: cpu (no GPU: libcuda.so.1 not found)\n"),
            display("<chart: gbs against n for scan_i32, copy_i32, 4 sizes, on cpu>"),
            display("<Gantt chart: scan (+) 0 (input 2_000_000) on cpu>"),
            stream("time: 3.1 ms (min 2.9 ms, 20 runs)\n"),
            stream("time: 135ms on cpu (parse 169µs, run 134ms), 1 kernel\n  screma(scanomap): 134 ms, 7.6 MiB, 0.06 GB/s"))
        self.assertEqual(compare("nb", gpu, cpu), [])
        self.assertEqual(compare("nb", cpu, gpu), [])

    def test_differences_still_reported(self):
        saved = notebook(
            stream("loaded pictures.fut: escape, mandelbrot\nbackend auto: gpu (NVIDIA H100 80GB HBM3)\n"),
            display("<chart: gbs against n for scan_i32, 4 sizes, on gpu>"),
            stream("time: 41 µs\n"))
        for got in (
            notebook(stream("loaded pictures.fut: escape\nbackend auto: cpu (no GPU)\n"),
                     display("<chart: gbs against n for scan_i32, 4 sizes, on cpu>"), stream("time: 3 ms\n")),
            notebook(stream("loaded pictures.fut: escape, mandelbrot\n"),
                     display("<chart: gbs against n for scan_i32, 4 sizes, on cpu>"), stream("time: 3 ms\n")),
            notebook(stream("loaded pictures.fut: escape, mandelbrot\nbackend auto: cpu (no GPU)\n"),
                     display("<chart: gbs against n for scan_i32, 5 sizes, on cpu>"), stream("time: 3 ms\n")),
            notebook(stream("loaded pictures.fut: escape, mandelbrot\nbackend auto: cpu (no GPU)\n"),
                     display("<chart: gbs against n for scan_i32, 4 sizes, on cpu>"), stream("3 ms\n")),
        ):
            self.assertEqual(len(compare("nb", saved, got)), 1, got)


if __name__ == "__main__":
    unittest.main()
