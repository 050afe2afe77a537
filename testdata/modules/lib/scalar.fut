-- Imported by lib/vec.fut, and again by import.fut: loaded once.

def times (k: f64) (x: f64) = k * x

-- An entry point of an imported file is an ordinary function there.
entry neg (x: f64) = -x
