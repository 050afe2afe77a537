-- A file may not define a name twice, as in Futhark (checkForDuplicateDecs):
-- the second `k` is an error that names the first. Shadowing a top-level
-- name is for the REPL, where each input declares anew (testdata/repl/
-- repl-scope.txt checks the lexical meaning there).

-- ==
-- error: Duplicate definition of name k\. Previously defined at

def k = 1i32
def add_k (x: i32) = x + k
def k = k + 10
def both (x: i32) = (add_k x, x + k)

def main (x: i32) = let (a, b) = both x in (a, b, k)
