-- A 2^28-element i32 sum: `arepl bench --backend gpu --size 268435456`
-- beside BenchmarkGPU/sum_i32 (bench/gpu/latency.sh); with neither --size
-- nor stdin, arepl bench times the datasets below.
-- ==
-- input { [1i32, 2i32, 3i32] } output { 6i32 }
-- random input { [1048576]i32 }
-- random input { [268435456]i32 }
def main (xs: []i32) : i32 = reduce (+) 0 xs
