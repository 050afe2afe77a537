-- A polymorphic function over tuples, used at two types.
-- ==
-- input { } output { 1i32 true }
def first 'a 'b (p: (a, b)) : a = p.0
entry main : (i32, bool) = (first (1i32, 2.0f32), first (true, 3u8))
