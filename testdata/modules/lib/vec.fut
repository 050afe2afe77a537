-- A small library that import.fut imports (no tests of its own).

import "scalar"

type vec = (f64, f64)

def add ((a, b): vec) ((c, d): vec) : vec = (a + c, b + d)

def scale (k: f64) ((a, b): vec) : vec = (times k a, times k b)

local def hidden = 1f64
