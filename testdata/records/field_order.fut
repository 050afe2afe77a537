-- Fields are ordered by name whatever order they are written in, so
-- records with the same fields have the same type.
-- ==
-- input { } output { 2i32 1i32 }
entry main : (i32, i32) = let rs = [{b = 1i32, a = 2i32}, {a = 3, b = 4}] in (rs[0].a, rs[0].b)
