-- Exponentiation by squaring, recursive, on f64.
def pow (x: f64) (n: i32) : f64 =
  if n == 0 then 1.0
  else if n % 2 == 0 then let h = pow x (n / 2) in h * h
  else x * pow x (n - 1)

-- ==
-- input { 2.0f64 10i32 } output { 1024.0f64 }
-- input { 1.5f64 3i32 } output { 3.375f64 }
-- input { 7.0f64 0i32 } output { 1.0f64 }
entry main (x: f64) (n: i32) : f64 = pow x n
