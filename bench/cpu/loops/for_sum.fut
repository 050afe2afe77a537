def main (n: i64) : i64 = loop s = 0i64 for i < n do s + i
