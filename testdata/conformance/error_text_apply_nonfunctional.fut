-- A value stored in an array may not be a function, so it cannot later be
-- applied.
-- ==
-- error: Cannot apply expression as function.*non-functional
def pairup v = ([v, v], v true)
entry main (b: bool) = (pairup b).1
