-- Type abbreviations.
-- ==
-- input { [1f32, 2f32] } output { 3f32 }
type vec = []f32
type real = f32
def total (v: vec) : real = f32.sum v
entry main (v: vec) : real = total v
