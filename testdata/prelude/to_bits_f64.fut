-- f64.to_bits and from_bits, with a round trip over awkward values
-- (subnormals, powers of two where log2 rounds, the largest finite).
-- ==
-- input { [1f64, 0.1f64, 5e-324f64, -2f64, 1.7976931348623157e308f64] }
-- output { [4607182418800017408u64, 4591870180066957722u64, 1u64, 13835058055282163712u64, 9218868437227405311u64] true }
entry main (xs: []f64) : ([]u64, bool) =
  let ys = [0.5f64, 2f64 ** 1000f64, 2f64 ** (-1022f64), 2.2250738585072009e-308f64, 0.3f64, -7.75e-310f64, 1f64 - f64.epsilon]
  in (map f64.to_bits xs, and (map (\y -> f64.from_bits (f64.to_bits y) == y) ys))
