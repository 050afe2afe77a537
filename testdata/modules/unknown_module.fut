-- Applying or naming an unknown module is an error at its use.
-- ==
-- error: unknown_module.fut:7:.*Unknown module "nope"

module type s = { val x : i32 }

module m = nope

def main (a: i32) = a
