-- Map-scan fusion (scanomap paper, section 7: the SimpleScanomap benchmark):
-- a map producing the input of a scan fuses into one scanomap, so the mapped
-- array is never written to memory.

-- ==
-- input { [1i32, 2i32, 3i32, 4i32] } output { [3i32, 8i32, 15i32, 24i32] }
-- input { empty([0]i32) } output { empty([0]i32) }
-- plan { scanomap 1 map 0 }
entry main (xs: []i32) : []i32 = scan (+) 0 (map (\x -> x * 2 + 1) xs)
