-- import: a file as a module (module v = import), a plain import (its
-- names in scope, not re-exported), open import, and a file imported
-- twice along different paths.
-- ==
-- input { 2f64 } output { 6f64 6f64 4f64 }

module v = import "lib/vec"

import "lib/scalar"

open import "lib/vec"

def main (k: f64) =
  let (a, b) = v.scale k (add (1, 2) (0.5, 0.5))
  in (a + 3, b + 1, times k 2 + neg 0)
