-- A program without test blocks must still load (issue 17, bug 11); this
-- one does.
def f (x: i32) : i32 = x + 1
