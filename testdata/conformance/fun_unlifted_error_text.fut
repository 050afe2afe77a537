-- A map whose function returns a function would build an array of
-- functions: the error says "functional", as Futhark's does.
-- ==
-- error: functional type

entry main (xs: []f32) = let _fs = map (\(a: f32) -> \(b: f32) -> a * b) xs in xs
