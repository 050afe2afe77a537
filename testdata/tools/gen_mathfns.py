#!/usr/bin/env python3
"""Generates testdata/mathfns/: the numeric-module members of issue 17
(Futhark's prelude/math.fut), each on f32 and f64 or on every integer
type, with expected values computed here by Python's math module and
exact integer arithmetic. Floats compare with Futhark's tolerance.

Run from anywhere:  python3 testdata/tools/gen_mathfns.py
"""
import math, os, struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mathfns")

def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]

def lit(x, t):
    if math.isnan(x):
        return "%s.nan" % t
    if math.isinf(x):
        return ("-" if x < 0 else "") + "%s.inf" % t
    if t == "f32":
        x = f32(x)
    return repr(float(x)) + t

def nextafter(x, y, t):
    if t == "f64":
        return math.nextafter(x, y)
    # f32: step one unit in the last place of single precision
    if x == y:
        return y
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    if x == 0:
        b = 1
        r = struct.unpack("<f", struct.pack("<I", b))[0]
        return r if y > 0 else -r
    if (y > x) == (x > 0):
        b += 1
    else:
        b -= 1
    return struct.unpack("<f", struct.pack("<I", b))[0]

UNARY = {
    "cbrt": (math.cbrt if hasattr(math, "cbrt") else lambda x: math.copysign(abs(x) ** (1 / 3), x), [27.0, -8.0, 2.0, 0.0]),
    "log1p": (math.log1p, [0.0, 1e-10, 1.0, 9.0]),
    "erf": (math.erf, [0.0, 0.5, -1.0, 2.0]),
    "erfc": (math.erfc, [0.0, 0.5, -1.0, 2.0]),
    "gamma": (math.gamma, [1.0, 5.0, 0.5, 3.5]),
    "lgamma": (math.lgamma, [1.0, 5.0, 0.5, 10.0]),
    "asinh": (math.asinh, [0.0, 1.0, -2.0, 10.0]),
    "acosh": (math.acosh, [1.0, 2.0, 10.0]),
    "atanh": (math.atanh, [0.0, 0.5, -0.25]),
    "recip": (lambda x: 1 / x, [2.0, -4.0, 0.5]),
    "rsqrt": (lambda x: 1 / math.sqrt(x), [4.0, 16.0, 2.0]),
    "sinpi": (lambda x: math.sin(math.pi * x), [0.0, 0.5, 0.25, 1.5]),
    "cospi": (lambda x: math.cos(math.pi * x), [0.0, 1.0, 0.25, 2.0]),
    "tanpi": (lambda x: math.tan(math.pi * x), [0.0, 0.25, -0.25]),
    "asinpi": (lambda x: math.asin(x) / math.pi, [0.0, 1.0, 0.5, -1.0]),
    "acospi": (lambda x: math.acos(x) / math.pi, [1.0, 0.0, -1.0, 0.5]),
    "atanpi": (lambda x: math.atan(x) / math.pi, [0.0, 1.0, -1.0]),
}
BINARY = {
    "hypot": (math.hypot, [(3.0, 4.0), (5.0, 12.0), (-1.0, 0.0)]),
    "copysign": (math.copysign, [(2.0, -1.0), (-3.0, 1.0), (1.5, 0.0)]),
    "atan2pi": (lambda y, x: math.atan2(y, x) / math.pi, [(1.0, 1.0), (1.0, -1.0), (0.0, 1.0)]),
    "from_fraction": (lambda a, b: a / b, [(1, 4), (3, 2), (-7, 8)]),
}
TERNARY = {
    "lerp": (lambda a, b, t: a + (b - a) * t, [(0.0, 10.0, 0.25), (2.0, 4.0, 1.0), (-1.0, 1.0, 0.5)]),
    "mad": (lambda a, b, c: a * b + c, [(2.0, 3.0, 4.0), (0.5, 0.5, -1.0)]),
    "fma": (lambda a, b, c: a * b + c, [(2.0, 3.0, 4.0), (-1.5, 2.0, 0.25)]),
}

def write(name, text):
    with open(os.path.join(ROOT, name), "w") as f:
        f.write(text)

def float_files():
    for fn, (f, xs) in UNARY.items():
        for t in ["f32", "f64"]:
            ins = []
            for x in xs:
                xx = f32(x) if t == "f32" else x
                ins.append("-- input { %s } output { %s }" % (lit(xx, t), lit(f(xx), t)))
            write("%s_%s.fut" % (fn, t), "-- %s.%s (issue 17: the numeric modules' members).\n-- ==\n%s\nentry main (x: %s) : %s = %s.%s x\n"
                  % (t, fn, "\n".join(ins), t, t, t, fn))
    for fn, (f, xs) in BINARY.items():
        for t in ["f32", "f64"]:
            ins = []
            for a, b in xs:
                if fn == "from_fraction":
                    ins.append("-- input { %di64 %di64 } output { %s }" % (a, b, lit(f(a, b), t)))
                else:
                    ins.append("-- input { %s %s } output { %s }" % (lit(a, t), lit(b, t), lit(f(a, b), t)))
            params = "(a: i64) (b: i64)" if fn == "from_fraction" else "(a: %s) (b: %s)" % (t, t)
            write("%s_%s.fut" % (fn, t), "-- %s.%s (issue 17: the numeric modules' members).\n-- ==\n%s\nentry main %s : %s = %s.%s a b\n"
                  % (t, fn, "\n".join(ins), params, t, t, fn))
    for fn, (f, xs) in TERNARY.items():
        for t in ["f32", "f64"]:
            ins = ["-- input { %s %s %s } output { %s }" % (lit(a, t), lit(b, t), lit(c, t), lit(f(a, b, c), t)) for a, b, c in xs]
            write("%s_%s.fut" % (fn, t), "-- %s.%s (issue 17: the numeric modules' members).\n-- ==\n%s\nentry main (a: %s) (b: %s) (c: %s) : %s = %s.%s a b c\n"
                  % (t, fn, "\n".join(ins), t, t, t, t, t, fn))
    for t in ["f32", "f64"]:
        cases = [(1.0, 2.0), (1.0, 0.0), (0.0, 1.0), (-2.0, -3.0)]
        ins = ["-- input { %s %s } output { %s }" % (lit(a, t), lit(b, t), lit(nextafter(a, b, t), t)) for a, b in cases]
        write("nextafter_%s.fut" % t, "-- %s.nextafter: the next representable value towards y (issue 17).\n-- ==\n%s\nentry main (a: %s) (b: %s) : %s = %s.nextafter a b\n"
              % (t, "\n".join(ins), t, t, t, t))
        ins = ["-- input { %s %di32 } output { %s }" % (lit(x, t), n, lit(x * 2.0 ** n, t)) for x, n in [(3.0, 4), (1.0, -2), (-0.5, 10)]]
        write("ldexp_%s.fut" % t, "-- %s.ldexp x n is x * 2**n (issue 17).\n-- ==\n%s\nentry main (x: %s) (n: i32) : %s = %s.ldexp x n\n"
              % (t, "\n".join(ins), t, t, t))

INTS = {"i8": (8, True), "i16": (16, True), "i32": (32, True), "i64": (64, True),
        "u8": (8, False), "u16": (16, False), "u32": (32, False), "u64": (64, False)}

def wrap(v, t):
    bits, signed = INTS[t]
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v

def ilit(v, t):
    return "%d%s" % (v, t)

def int_files():
    for t, (bits, signed) in INTS.items():
        lo = -(1 << (bits - 1)) if signed else 0
        hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        vals = [0, 1, 12, hi, lo, 96] + ([-1, -12] if signed else [hi - 1])
        def ctz(v):
            u = v & ((1 << bits) - 1)
            if u == 0:
                return bits
            return (u & -u).bit_length() - 1
        def mulhi(a, b):
            return wrap((a * b) >> bits, t)
        def lshr(a, s):
            return wrap((a & ((1 << bits) - 1)) >> s, t)
        def getbit(i, v):
            return ((v & ((1 << bits) - 1)) >> i) & 1
        def setbit(i, v, b):
            u = v & ((1 << bits) - 1)
            u = (u & ~(1 << i)) | (b << i)
            return wrap(u, t)
        ins = ["-- input { %s } output { %di32 }" % (ilit(v, t), ctz(v)) for v in vals]
        write("ctz_%s.fut" % t, "-- %s.ctz counts trailing zero bits; zero has all of them (issue 17).\n-- ==\n%s\nentry main (x: %s) : i32 = %s.ctz x\n"
              % (t, "\n".join(ins), t, t))
        pairs = [(a, b) for a in vals[:6] for b in [1, 3, hi, lo] if b != 0] + [(hi, hi), (lo, lo)]
        ins = ["-- input { %s %s } output { %s %s }" % (ilit(a, t), ilit(b, t), ilit(mulhi(a, b), t), ilit(wrap(mulhi(a, b) + 5, t), t)) for a, b in pairs]
        write("mul_hi_%s.fut" % t, "-- %s.mul_hi, the high half of the double-width product, and mad_hi (issue 17).\n-- ==\n%s\nentry main (a: %s) (b: %s) : (%s, %s) = (%s.mul_hi a b, %s.mad_hi a b 5)\n"
              % (t, "\n".join(ins), t, t, t, t, t, t))
        ins = ["-- input { %s %s } output { %s }" % (ilit(a, t), ilit(s, t), ilit(lshr(a, s), t)) for a in vals for s in [0, 1, bits - 1]]
        write("lshr_%s.fut" % t, "-- >>> shifts in zeros whatever the sign (issue 17).\n-- ==\n%s\nentry main (a: %s) (s: %s) : %s = a >>> s\n"
              % ("\n".join(ins), t, t, t))
        ins = ["-- input { %di32 %s } output { %di32 %s %s }" % (i, ilit(v, t), getbit(i, v), ilit(setbit(i, v, 1), t), ilit(setbit(i, v, 0), t))
               for v in vals[:6] for i in [0, 2, bits - 1]]
        write("bits_%s.fut" % t, "-- %s.get_bit and %s.set_bit (issue 17).\n-- ==\n%s\nentry main (i: i32) (x: %s) : (i32, %s, %s) = (%s.get_bit i x, %s.set_bit i x 1, %s.set_bit i x 0)\n"
              % (t, t, "\n".join(ins), t, t, t, t, t, t))

os.makedirs(ROOT, exist_ok=True)
float_files()
int_files()
print("wrote", len(os.listdir(ROOT)), "files")
