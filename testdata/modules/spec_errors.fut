-- A module's type must have the parameters and the liftedness that its
-- module type specifies.
-- ==
-- error: type box with 1 parameters, but the module's type box has 0

module type boxed = { type box 'a }

module b : boxed = { type box = i32 }
