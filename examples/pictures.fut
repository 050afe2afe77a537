-- Pictures: programs whose results are best looked at. Used by
-- examples/pictures.ipynb (:img, :video, :plot); in the REPL, :load this file
-- and try ':img mandelbrot 200 300 64; palette=magma'.

-- Escape-time Mandelbrot: the number of iterations before |z| > 2.
def escape (limit: i32) (cx: f32) (cy: f32) : i32 =
  let (_, _, i) =
    loop (x, y, i) = (0f32, 0f32, 0i32) while i < limit && x * x + y * y <= 4 do
      (x * x - y * y + cx, 2 * x * y + cy, i + 1)
  in i

def mandelbrot (h: i64) (w: i64) (limit: i32) : [h][w]i32 =
  map (\r -> map (\c -> escape limit (-2.2 + 3.0 * f32.i64 c / f32.i64 w)
                                     (-1.2 + 2.4 * f32.i64 r / f32.i64 h)) (iota w)) (iota h)

-- One step of Conway's Game of Life on a torus.
def life [h][w] (board: [h][w]bool) : [h][w]bool =
  map (\r -> map (\c ->
    let n = reduce (+) 0 (map (\d -> let dr = d / 3 - 1
                                     let dc = d % 3 - 1
                                     in if (dr == 0 && dc == 0) then 0i32
                                        else if board[(r + dr + h) % h, (c + dc + w) % w] then 1 else 0) (iota 9))
    in if board[r, c] then n == 2 || n == 3 else n == 3) (iota w)) (iota h)

def glider : [16][16]bool =
  map (\r -> map (\c -> (r == 0 && c == 1) || (r == 1 && c == 2) || (r == 2 && c <= 2)) (iota 16)) (iota 16)

def step (b: [16][16]bool) : ([16][16]bool, [16][16]bool) = (b, life b)

-- A glider moves one cell diagonally every four steps.
-- ==
-- entry: glider_moves
-- input { 4i64 } output { true }
entry glider_moves (k: i64) : bool =
  let b = loop b = glider for _i < k do life b
  in b[1, 2] && b[2, 3] && b[3, 1] && b[3, 2] && b[3, 3] && reduce (+) 0 (map (\r -> reduce (+) 0 (map i32.bool r)) b) == 5

-- The escape counts of three points: inside, on the edge, far outside.
-- ==
-- entry: escapes
-- input { } output { [64, 2, 1] }
entry escapes : []i32 = [escape 64 0 0, escape 64 (-1.9) 0.5, escape 64 3 3]
