-- Nested records: r with a.b = v.
-- ==
-- input { } output { true 9u8 3i64 }
entry main : (bool, u8, i64) =
  let r = {p = {q = true, w = 1u8}, z = 3i64}
  let s = r with p.w = 9
  in (s.p.q, s.p.w, s.z)
