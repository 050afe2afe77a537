-- input @ file in Futhark's binary data format ("b", version 2, rank, a
-- four-character type tag, the dimensions, the little-endian elements;
-- what futhark dataset -b writes), with every primitive type, scalars and
-- arrays of rank 1 and 2.
-- ==
-- input @ data/binary_all_types.in
-- output { -5i8 0i16 2 -1099511627776i64 555i64 65535u16 4000000001u32 9223372036854775813u64 1.25f32 2.75 1i64 }
entry main (a: i8) (b: []i16) (c: [][]i32) (d: []i64) (e: []u8) (f: u16) (g: []u32) (h: []u64)
           (i: []f32) (j: f64) (k: []bool) =
  (a, i16.sum b, i32.sum (flatten c), d[0], i64.sum (map i64.u8 e), f, u32.sum g, h[0],
   f32.sum i, j, i64.sum (map i64.bool k))
