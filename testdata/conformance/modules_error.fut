-- Modules are outside the subset: the error names them.
-- ==
-- error: "module" declarations are not supported
module M = { def x = 1 }
entry main : i32 = 1
