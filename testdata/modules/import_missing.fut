-- Importing a file that does not exist is an error at the import.
-- ==
-- error: import "lib/nonexistent"

import "lib/nonexistent"

def main (x: i32) = x
