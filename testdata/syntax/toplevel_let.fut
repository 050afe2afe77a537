-- The deprecated top-level `let` declares a function like `def`.
let triple (x: i32) : i32 = x * 3

let seven : i32 = 7

-- ==
-- input { 2i32 } output { 13i32 }
entry main (x: i32) : i32 = triple x + seven
