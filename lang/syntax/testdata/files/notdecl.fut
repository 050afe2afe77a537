def a = 1
1 + 2
module m = x
def b = 2
