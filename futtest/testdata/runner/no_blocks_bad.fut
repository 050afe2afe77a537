-- A program without test blocks that does not load is a failure (issue 17,
-- bug 11): it used to be skipped, with 0 passed and 0 failed.
def f (x: i32) : i32 = x +
