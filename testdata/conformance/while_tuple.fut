-- while loops over a tuple: Collatz steps and Euclid's algorithm.
def collatz (n: i64) : i64 =
  let (_, steps) = loop (x, k) = (n, 0) while x != 1 do
                     (if x % 2 == 0 then x / 2 else 3 * x + 1, k + 1)
  in steps

def gcd (a: i32) (b: i32) : i32 = (loop (a, b) while b != 0 do (b, a % b)).0

-- ==
-- input { [1i64, 6i64, 27i64] } output { [0i64, 8i64, 111i64] 6 }
entry main (ns: []i64) = (map collatz ns, gcd 48 18)
