-- Records as values inside a program: built from entry arguments, passed
-- to functions, updated and projected.
type particle = {pos: f32, vel: f32}

def step (dt: f32) (p: particle) : particle = p with pos = p.pos + dt * p.vel

-- ==
-- input { [0f32, 1f32] [1f32, -1f32] } output { [0.5f32, 0.5f32] }
entry main (ps: []f32) (vs: []f32) =
  map2 (\pos vel -> (step 0.5 {pos, vel}).pos) ps vs
