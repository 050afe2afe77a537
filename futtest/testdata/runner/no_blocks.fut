-- A program without test blocks is not a test.
def main (x: i32) : i32 = x
