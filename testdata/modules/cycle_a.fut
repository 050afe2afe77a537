-- Files that import each other are rejected.
-- ==
-- error: import cycle

import "cycle_b"

def main (x: i32) = x
