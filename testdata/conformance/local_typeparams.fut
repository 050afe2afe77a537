-- A local function may declare type parameters ('t), here with a size
-- parameter too; each is used at one type.
-- ==
-- input { [1, 2, 3] } output { [3, 2, 1] 2.5f32 }
entry main (xs: []i32) =
  let rev [n] 't (ys: [n]t) : [n]t = ys[::-1]
  let second 'a (p: (a, a)) : a = p.1
  in (rev xs, second (1.5f32, 2.5))
