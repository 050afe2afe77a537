-- A string is an ordinary []u8: map over it, compare it, pass it.
def upper (s: []u8) : []u8 =
  map (\c -> if c >= 'a' && c <= 'z' then c - 'a' + 'A' else c) s

def count (c: u8) (s: []u8) : i64 = i64.sum (map (\x -> i64.bool (x == c)) s)

-- ==
-- input { [104u8, 105u8, 33u8] } output { [72u8, 73u8, 33u8] true 1i64 }
entry main (s: []u8) = (upper s, upper "hi!" == [72, 73, 33], count '!' s)
