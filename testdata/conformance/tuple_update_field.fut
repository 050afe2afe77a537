-- A tuple's elements are updated by number, as a record's fields by name:
-- `t with 1 = v`, a nested path `0.1`, and a number followed by an index.
-- ==
-- input { 5i64 } output { 5i64 7i32 [0i32, 9i32, 0i32] 1.5f32 }
entry main (n: i64) =
  let t = ((n, 0i32), replicate 3 0i32, 0f32)
  let t = t with 0.1 = 7
  let t = t with 1[1] = 9
  let t = t with 2 = 1.5
  in (t.0.0, t.0.1, t.1, t.2)
