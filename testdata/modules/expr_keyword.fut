-- A declaration keyword where an expression belongs says so.
-- ==
-- error: expr_keyword.fut:5:.*"open" starts a declaration, not an expression

def main (x: i32) = open x
