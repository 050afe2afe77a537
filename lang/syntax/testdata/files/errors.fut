-- Every broken declaration is reported; parsing resumes at the next one.
def ok = 1

def broken1 = if x then 1

def also_ok (x: i32) = x + 1

def broken2 (x: [n]i32 = x

def broken3 = (1 +) 2 )
