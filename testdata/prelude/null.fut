-- null tells whether an array is empty.
-- ==
-- input { empty([0]bool) } output { true }
-- input { [false] } output { false }
entry main (xs: []bool) : bool = null xs
