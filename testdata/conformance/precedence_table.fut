-- Every row of Futhark's operator table against its neighbours, loosest
-- first: `f` < |> < <| < || < && < comparisons < & ^ | < << >> < + - <
-- * / % // %% < ** < prefix - and ! < application; all left-associative
-- except <|.
def sub (x: i32) (y: i32) = x - y

-- ==
-- input { } output { 7 18 64 8 true 0 true 4 true 5 2 6 5 -21 4 15 true 36 }
entry main =
  (1 + 2 * 3,
   2 * 3 ** 2,
   2 ** 3 ** 2,
   1 << 2 + 1,
   6 & 3 == 2,
   1 | 2 ^ 3,
   true || false && false,
   -2 ** 2,
   !true == false,
   10 - 2 - 3,
   100 / 10 / 5,
   7 % 4 * 2,
   2 |> (+) <| 3,
   1 + 2 `sub` 3 * 8,
   16 >> 1 + 1,
   -16 >>> 28,
   1 < 2 == true,
   i32.abs 3 * 2 ** 2 * 3)
