def a = 1
1 + 2
type t = i32
def b = 2
