-- with refines only an abstract type.
-- ==
-- error: Cannot refine a type t

module type s = { type t = i32 val x : t }

module m : s with t = i32 = { type t = i32 def x = 1i32 }

def main (a: i32) = a + m.x
