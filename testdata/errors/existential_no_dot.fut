-- An existential size list ?[n] is followed by a dot and the type.
-- ==
-- error: 4:28: unexpected .*expected "\."
def f (xs: []i32) : ?[k][k]i32 = xs
entry main (xs: []i32) = f xs
