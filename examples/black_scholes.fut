-- BlackScholes (redomap paper, benchmark 9): a pricing engine for European
-- call options. The prices are summed, so the whole program is one redomap
-- whose mapped arrays are consumed by the reduction: no array is returned.

def r : f32 = 0.02     -- risk-free interest rate
def v : f32 = 0.30     -- volatility

-- The cumulative normal distribution (Abramowitz and Stegun 26.2.17).
def cnd (x: f32) : f32 =
  let (a1, a2, a3, a4, a5) = (0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429)
  let k = 1.0 / (1.0 + 0.2316419 * f32.abs x)
  let w = 1.0 - 1.0 / f32.sqrt (2.0 * f32.pi) * f32.exp (-x * x / 2.0)
              * k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))))
  in if x < 0.0 then 1.0 - w else w

def call_price (s: f32) (k: f32) (t: f32) : f32 =
  let d1 = (f32.log (s / k) + (r + v * v / 2.0) * t) / (v * f32.sqrt t)
  let d2 = d1 - v * f32.sqrt t
  in s * cnd d1 - k * f32.exp (-r * t) * cnd d2

-- ==
-- entry: main
-- input { [100.0f32, 50.0f32, 80.0f32] [100.0f32, 55.0f32, 60.0f32] [1.0f32, 0.5f32, 2.0f32] }
-- output { 41.297847f32 }
-- input { empty([0]f32) empty([0]f32) empty([0]f32) } output { 0.0f32 }
-- plan { redomap 1 map 0 }
entry main (s: []f32) (k: []f32) (t: []f32) : f32 =
  f32.sum (map3 call_price s k t)

-- ==
-- entry: prices
-- input { [100.0f32, 50.0f32, 80.0f32] [100.0f32, 55.0f32, 60.0f32] [1.0f32, 0.5f32, 2.0f32] }
-- output { [12.821585f32, 2.5356216f32, 25.940641f32] }
entry prices (s: []f32) (k: []f32) (t: []f32) : []f32 = map3 call_price s k t
