-- An entry point's size parameter that only its result names is a size no
-- caller can give.
-- ==
-- error: Entry point functions must not be size-polymorphic in their return type

entry zeros [k] (fill: f32) : [k]f32 = replicate k fill
