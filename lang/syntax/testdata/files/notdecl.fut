def a = 1
1 + 2
val m = x
def b = 2
