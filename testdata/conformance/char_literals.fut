-- Character literals are integers holding the code point (Futhark has no
-- character type): i32 by default, the type context asks for otherwise,
-- with Haskell's escapes.
-- ==
-- input { } output { 97 98u8 10i64 65 65 39 233 true }
entry main =
  ('a',
   'a' + 1 : u8,
   '\n' : i64,
   '\x41',
   '\65',
   '\'',
   'é',
   'z' - 'a' == 25)
