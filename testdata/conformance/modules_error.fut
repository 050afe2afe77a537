-- Modules are in the subset now (lang/modules); a module type's value
-- spec outside a module type is still an error that names it.
-- ==
-- error: "val" declarations are not supported

module M = { def x = 1i32 }
val y : i32
entry main : i32 = M.x
