-- Top-level functions are polymorphic when nothing fixes their types
-- (issue 17, bug 10).
-- ==
-- input { 3i32 true } output { 3i32 true [1.5f64] }
def id x = x
entry main (a: i32) (b: bool) : (i32, bool, []f64) = (id a, id b, id [1.5])
