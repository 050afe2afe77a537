-- Entry points are declared at the top level of a file, not in modules.
-- ==
-- error: entry_in_module.fut:5:.*entry points may only be declared at the top level

module m = { entry f (x: i32) = x }
