-- An ordered f32 reduction, the kernel that -Ofc=mid slows most (8 -> 18 µs
-- at 10^6 elements, bench/RESULTS.md "Interactive latency", run 8): `arepl
-- bench --warmup 0` on it must time the optimised module, never the fast one
-- (bench/gpu/latency.sh's "tiered" part).
-- ==
-- input { [1f32, 2f32, 3f32] } output { 13f32 }
def main (xs: []f32) : f32 = reduce (+) 0f32 (map (\x -> x*x*0.5f32 + x) xs)
