-- Cases tagged compiled run like any other.
-- ==
-- compiled input { 2i32 } output { 4i32 }
entry main (x: i32) : i32 = x * 2
