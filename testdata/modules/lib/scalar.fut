-- Imported by lib/vec.fut, and again by import.fut: loaded once.

def times (k: f64) (x: f64) = k * x
