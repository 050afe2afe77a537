-- reduce with && and with ||.
-- ==
-- input { [true, true] } output { true true }
-- input { [true, false] } output { false true }
-- input { empty([0]bool) } output { true false }
entry main (bs: []bool) : (bool, bool) = (reduce (&&) true bs, reduce (||) false bs)
