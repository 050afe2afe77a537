-- A polymorphic function calling another.
-- ==
-- input { } output { 2i32 }
def fst 'a 'b (p: (a, b)) : a = p.0
def snd_of_fst 'a 'b 'c (p: ((a, b), c)) : b = (fst p).1
entry main : i32 = snd_of_fst ((true, 2i32), 3.0f32)
