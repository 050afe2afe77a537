-- Functors that each apply the one before twice expand exponentially; the
-- elaborator stops past its bound of applications with an error instead of
-- running out of memory.
-- ==
-- error: more than 10000 functor applications

module type has_x = { val x: i32 }
module twice0 (P: has_x) = { def x = P.x + 1 }
module twice1 (P: has_x) = { module a = twice0 P module b = twice0 P def x = a.x + b.x }
module twice2 (P: has_x) = { module a = twice1 P module b = twice1 P def x = a.x + b.x }
module twice3 (P: has_x) = { module a = twice2 P module b = twice2 P def x = a.x + b.x }
module twice4 (P: has_x) = { module a = twice3 P module b = twice3 P def x = a.x + b.x }
module twice5 (P: has_x) = { module a = twice4 P module b = twice4 P def x = a.x + b.x }
module twice6 (P: has_x) = { module a = twice5 P module b = twice5 P def x = a.x + b.x }
module twice7 (P: has_x) = { module a = twice6 P module b = twice6 P def x = a.x + b.x }
module twice8 (P: has_x) = { module a = twice7 P module b = twice7 P def x = a.x + b.x }
module twice9 (P: has_x) = { module a = twice8 P module b = twice8 P def x = a.x + b.x }
module twice10 (P: has_x) = { module a = twice9 P module b = twice9 P def x = a.x + b.x }
module twice11 (P: has_x) = { module a = twice10 P module b = twice10 P def x = a.x + b.x }
module twice12 (P: has_x) = { module a = twice11 P module b = twice11 P def x = a.x + b.x }
module twice13 (P: has_x) = { module a = twice12 P module b = twice12 P def x = a.x + b.x }
module twice14 (P: has_x) = { module a = twice13 P module b = twice13 P def x = a.x + b.x }
module twice15 (P: has_x) = { module a = twice14 P module b = twice14 P def x = a.x + b.x }
module twice16 (P: has_x) = { module a = twice15 P module b = twice15 P def x = a.x + b.x }
module twice17 (P: has_x) = { module a = twice16 P module b = twice16 P def x = a.x + b.x }
module twice18 (P: has_x) = { module a = twice17 P module b = twice17 P def x = a.x + b.x }
module twice19 (P: has_x) = { module a = twice18 P module b = twice18 P def x = a.x + b.x }
module twice20 (P: has_x) = { module a = twice19 P module b = twice19 P def x = a.x + b.x }
module twice21 (P: has_x) = { module a = twice20 P module b = twice20 P def x = a.x + b.x }
module twice22 (P: has_x) = { module a = twice21 P module b = twice21 P def x = a.x + b.x }
module twice23 (P: has_x) = { module a = twice22 P module b = twice22 P def x = a.x + b.x }
module twice24 (P: has_x) = { module a = twice23 P module b = twice23 P def x = a.x + b.x }
module twice25 (P: has_x) = { module a = twice24 P module b = twice24 P def x = a.x + b.x }
module one = { def x = 1i32 }
module big = twice25 one
def main = big.x
