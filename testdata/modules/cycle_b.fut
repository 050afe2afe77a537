-- The other half of cycle_a.fut's cycle.
-- ==
-- error: import cycle

import "cycle_a"

def f (x: i32) = x
