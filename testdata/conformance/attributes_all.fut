-- Attributes on expressions, declarations and patterns are accepted and
-- ignored, as Futhark ignores those that do not concern it.
#[inline]
def sq (x: i32) = x * x

#[noinline]
entry main (xs: []i32) =
  let #[unused] (ys: []i32) = #[unsafe] map sq xs
  in #[sequential_outer] #[incremental_flattening(only_inner)] reduce (+) 0 ys

-- ==
-- entry: main
-- input { [1, 2, 3] } output { 14 }
