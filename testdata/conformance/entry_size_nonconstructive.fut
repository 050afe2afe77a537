-- An entry point's size parameter must be the plain size of an argument,
-- not only a term of a size expression.
-- ==
-- error: Entry point size parameter \[h\] only used non-constructively

entry halves [h] (xs: [h * 2]f32) = h
