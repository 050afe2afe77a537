-- Doc comments: a `-- |` block directly above a declaration is its Doc;
-- test blocks below the doc line belong to it (as in Futhark).

-- | Sums an array.
-- Works for any length.
def sum [n] (xs: [n]i32) : i32 = reduce (+) 0 xs

-- | Not a doc: a blank line separates it.

def no_doc = 1

-- | The entry point.
-- ==
-- input { [1, 2, 3] }
-- output { 6 }
entry main (xs: []i32) = sum xs

-- an ordinary comment
let old_style = 2 -- trailing comment
