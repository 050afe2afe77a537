-- A constructor that the type lacks is a type error.
-- ==
-- error: main returns #bar \| #foo i32 but its body has type sum type #baz i32 \| \.\.\. \(Unshared constructors: #baz\.\)

type t = #foo i32 | #bar

def main (x: i32) : t = #baz x
