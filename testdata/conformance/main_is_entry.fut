-- A file's main is an entry point even when declared with def, as in
-- Futhark, so an entry point's rules apply to it.
-- ==
-- error: Entry point functions may not be higher-order

def main (scale: f64 -> f64) (x: f64) = scale x
