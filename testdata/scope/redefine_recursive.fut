-- Redefining a function: as in Futhark, a def's own name in its body means
-- the binding before it, if there is one (arepl's recursion extension only
-- applies where Futhark would reject the name). So the second g calls the
-- first (recursive) g, the third wraps the second instead of recursing
-- forever, and h, written before them, keeps calling the first.

def g (x: i32) : i32 = if x <= 0 then 0 else 1 + g (x - 1)
def h (x: i32) = g x
def g (x: i32) : i32 = if x <= 0 then h 5 else 2 + g (x - 1)
def depth = g 0
def g (x: i32) : i32 = g x * 10

-- ==
-- input { 3i32 } output { 3i32 40i32 5i32 }
-- input { 0i32 } output { 0i32 50i32 5i32 }
def main (x: i32) = (h x, g x, depth)
