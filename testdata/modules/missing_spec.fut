-- A module must define what its module type specifies.
-- ==
-- error: Module does not define a value named y

module type s = { val x : i32 val y : i32 }

module m : s = { def x = 1i32 }

def main (a: i32) = a + m.x
