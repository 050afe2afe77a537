-- A local declaration is not visible outside its module.
-- ==
-- error: Unknown name "m.helper"

module m = { local def helper (a: i32) = a + 1  def f (a: i32) = helper a }

def main (a: i32) = m.helper a
