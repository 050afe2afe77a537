-- Type parameters scope over the whole definition, annotations included.
-- ==
-- input { [1u8, 2u8] } output { [1u8, 2u8, 1u8, 2u8] }
def twice_arr 't (xs: []t) : []t = let ys : []t = xs in ys ++ xs
entry main (xs: []u8) : []u8 = twice_arr xs
