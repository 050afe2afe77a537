-- String literals are arrays of their UTF-8 bytes, of type []u8.
-- ==
-- input { } output { [104u8, 105u8] 0i64 [195u8, 169u8] [9u8, 34u8, 92u8] 3i64 }
entry main =
  ("hi",
   length "",
   "é",
   "\t\"\\",
   length (filter (== 'l') "hello world"))
