-- A redefined recursive function: the old g still calls itself, and the
-- new g calls the old one through h, which was written before it.

def g (x: i32) : i32 = if x <= 0 then 0 else 1 + g (x - 1)
def h (x: i32) = g x
def g (x: i32) : i32 = if x <= 0 then h 5 else 2 + g (x - 1)
def depth = g 0

-- ==
-- input { 3i32 } output { 3i32 11i32 5i32 }
def main (x: i32) = (h x, g x, depth)
