-- Recursive functions taking functions are specialised to them; what the
-- functions capture (locals, session values) becomes extra Fun parameters.
def iter (f: i32 -> i32) (n: i32) (x: i32) : i32 = if n == 0 then x else iter f (n - 1) (f x)
def inc (x: i32) = x + 1

-- lower: iter (+1) 3 0
-- lower: iter inc 3 0 + iter (\x -> x * 2) 2 1
-- value: xs = [1i32, 2, 3]
-- lower: map (\k -> iter (\x -> x + 1) k 0) xs
-- lower: map (\k -> iter (\x -> x + k) 3 0) xs
-- lower: map (\k -> iter (\x -> x + k) 3 0 + iter (+k) 2 k) xs
-- lower: let g (y: i32) = y * 2 in map (\k -> iter (\x -> g x + k + xs[0]) k 1) xs
