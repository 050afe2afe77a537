-- Literals take the type their context demands; i32 and f64 by default.
-- expr 1 => i32
-- expr 1.5 => f64
-- expr 1i8 => i8
-- expr 2.5f32 => f32
-- expr 0xFFu32 => u32
-- expr true => bool
-- expr 1 : f32 => f32
-- expr 1 + 2i64 => i64
-- expr 1.0 + 2 => f64
-- expr 300i8 => ERROR "literal 300 is out of bounds for type i8"
-- expr 300 : i8 => ERROR "literal 300 is out of bounds for type i8"
-- expr -128i8 => i8
-- expr -129i8 => ERROR "literal -129 is out of bounds for type i8"
-- expr 255u8 => u8
-- expr 256u8 => ERROR "literal 256 is out of bounds for type u8"
-- expr -4 : u8 => ERROR "literal -4 is out of bounds for type u8"
-- expr -0 : u32 => u32
-- expr 1e400 : f64 => ERROR "literal 1e400 is out of bounds for type f64"
-- expr 1e39 : f32 => ERROR "literal 1e39 is out of bounds for type f32"
-- expr 1.5 : i32 => ERROR "cannot unify i32 with f64 in type ascription"
---
-- Arithmetic and comparison operators are overloaded on numbers.
def a = 1i32 + 2
def b = 1.5f32 * 2
def c = 3 < 4
def g = 5u8 & 3
def h = true && false || !true
def i = !5i16
def j = -2.5
def k = 7 // 2
def l = 2 %% 3
def m = (1, 2.0) == (1, 2.0)
def n = [1, 2] != [3, 4]
-- expr a => i32
-- expr b => f32
-- expr c => bool
-- expr g => u8
-- expr h => bool
-- expr i => i16
-- expr j => f64
-- expr m => bool
-- expr -true => ERROR "unary - is not defined on bool"
-- expr !1.0 => ERROR "operator ! is not defined on f64"
-- expr 1 && true => ERROR "operator && is not defined"
-- expr 1.0 // 2.0 => ERROR "operator // is not defined on f64"
-- expr 1 << 2u64 => u64
-- expr (+) == (+) => ERROR "does not support equality"
---
-- Every error of a file is reported, not just the first.
def d = 1i32 + 2.0   -- ERROR "cannot unify i32 with f64 in operands of \+"
def e = true + 1     -- ERROR "operator \+ is not defined on bool"
def f = 1.0 & 2.0    -- ERROR "operator & is not defined on f64"
def g = d + e + f
def h = 1 2          -- ERROR "Cannot apply expression as function: its type i32 is not a function type"
---
-- Unknown names.
def x = foo + 1   -- ERROR "unknown name \"foo\""
-- expr i32.foo => ERROR "unknown name \"i32.foo\""
-- expr bar => ERROR "unknown name"
