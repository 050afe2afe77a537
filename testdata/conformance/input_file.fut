-- input @ file and output @ file read values from files beside the
-- program: Futhark's text format, its binary format, and gzipped files.
-- ==
-- input @ data/file_text.in output @ data/file_text.expected
-- input @ data/file_binary.in output { 4.5f32 [true, false] }
-- input @ data/file_gz.in.gz output @ data/file_text.expected
-- input @ data/file_short.in error: .

entry main (xs: []f32) (ks: [][]i32) : (f32, []bool) =
  (reduce (+) 0 xs, map (\r -> reduce (+) 0 r > 0) ks)
