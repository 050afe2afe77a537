-- Function values in records: fields that are functions, field access,
-- record patterns and functional update of a function field.
-- ==
-- input { 5i32 } output { 12i32 11i32 7i32 25i32 }

def ops = {add = \(a: i32) (b: i32) -> a + b, mul = (*), k = 2i32}

entry main (x: i32) =
  let r = {step = \(y: i32) -> y + 1, scale = \(y: i32) -> y * 2}
  let {step, scale} = r
  let r2 = r with scale = \(y: i32) -> y + 5
  in (r.scale (r.step x), scale x + step 0, r2.scale (ops.k), ops.mul x (ops.add x 0))
