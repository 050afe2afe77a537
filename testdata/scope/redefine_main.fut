-- A file may not declare main twice, as in Futhark: the second is a
-- duplicate definition (the REPL may redefine it; repl-scope.txt).

-- ==
-- error: Duplicate definition of name main\. Previously defined at

def main (x: i32) (y: i32) = x * y
def double = main 2
def main (x: i32) = double x + 1
