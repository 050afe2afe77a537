-- A program tagged disable is not run (nor loaded), as with futhark test.
-- ==
-- tags { slow disable }
-- input { 1 } output { 2 }
entry main (x: i32) : i32 = x + nope
