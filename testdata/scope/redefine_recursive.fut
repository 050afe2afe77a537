-- A file may not redefine a function, as in Futhark: the second g is a
-- duplicate definition naming the first. In the REPL a redefined g whose
-- body calls g calls the earlier g (repl-scope.txt checks that).

-- ==
-- error: Duplicate definition of name g\. Previously defined at

def g (x: i32) : i32 = if x <= 0 then 0 else 1 + g (x - 1)
def h (x: i32) = g x
def g (x: i32) : i32 = if x <= 0 then h 5 else 2 + g (x - 1)
def depth = g 0
def g (x: i32) : i32 = g x * 10

def main (x: i32) = (h x, g x, depth)
