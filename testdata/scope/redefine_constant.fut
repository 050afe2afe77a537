-- Top-level names are lexical, as in Futhark: a declaration sees the
-- bindings in scope where it is written, and a later declaration of the
-- same name shadows it for the code after it only.

def k = 1i32
def add_k (x: i32) = x + k
def k = k + 10
def both (x: i32) = (add_k x, x + k)

-- ==
-- input { 3i32 } output { 4i32 14i32 11i32 }
def main (x: i32) = let (a, b) = both x in (a, b, k)
