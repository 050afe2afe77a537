-- A file may declare main twice; the last declaration is the entry point,
-- and it may call the first.

def main (x: i32) (y: i32) = x * y
def double = main 2
def main (x: i32) = double x + 1

-- ==
-- input { 5i32 } output { 11i32 }
-- input { -1i32 } output { -1i32 }
