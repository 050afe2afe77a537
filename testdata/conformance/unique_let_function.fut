-- A let-bound function may not be computed by an expression that
-- consumes something.
-- ==
-- error: Let-bound expression of higher-order type contains consumption

entry main (xs: *[]i32) : i32 =
  let g = let ys = xs with [0] = 1 in \(i: i32) -> i + ys[0]
  in g 2
