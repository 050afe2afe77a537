package futtest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/arepl/arepl/lang/core"
)

// randomInput turns the body of a `random input { [100]i32 [10][2]f32 }`
// case into value text, as `futhark dataset` would generate it (constants
// such as `10i64` or `0.5f32` among the types stand for themselves): integers
// uniform over their type, floats uniform in [0, 1), bools fair. The seed
// is fixed per case so that a failure can be reproduced.
func randomInput(spec string, seed uint64) (string, error) {
	r := rand.New(rand.NewPCG(seed, 17))
	var b strings.Builder
	for _, word := range strings.Fields(spec) {
		if c := word[0]; c >= '0' && c <= '9' || c == '-' {
			// A constant, which futhark test allows among the types
			// (integers with or without a suffix, floats with one); it
			// is passed as written.
			b.WriteString(word)
			b.WriteByte(' ')
			continue
		}
		var dims []int
		rest := word
		for strings.HasPrefix(rest, "[") {
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return "", fmt.Errorf("random input: malformed type %q", word)
			}
			n, err := strconv.Atoi(rest[1:end])
			if err != nil || n < 0 {
				return "", fmt.Errorf("random input: size %q of %q is not a number", rest[1:end], word)
			}
			dims = append(dims, n)
			rest = rest[end+1:]
		}
		total := 1
		for _, d := range dims {
			total *= d
			if total > 1<<26 {
				return "", fmt.Errorf("random input: %q is too large", word)
			}
		}
		gen, ok := randomScalars[rest]
		if !ok {
			return "", fmt.Errorf("random input: unknown element type %q in %q", rest, word)
		}
		if total == 0 {
			fmt.Fprintf(&b, "empty(%s) ", word)
			continue
		}
		var emit func(level int)
		emit = func(level int) {
			if level == len(dims) {
				b.WriteString(gen(r))
				if rest != "bool" {
					b.WriteString(rest)
				}
				return
			}
			b.WriteByte('[')
			for i := 0; i < dims[level]; i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				emit(level + 1)
			}
			b.WriteByte(']')
		}
		emit(0)
		b.WriteByte(' ')
	}
	return b.String(), nil
}

// randomScalars print one random value of each primitive type (the caller
// appends the type suffix, except to bools).
var randomScalars = map[string]func(*rand.Rand) string{
	"i8":  func(r *rand.Rand) string { return strconv.Itoa(int(int8(r.Uint32()))) },
	"i16": func(r *rand.Rand) string { return strconv.Itoa(int(int16(r.Uint32()))) },
	"i32": func(r *rand.Rand) string { return strconv.Itoa(int(int32(r.Uint32()))) },
	"i64": func(r *rand.Rand) string { return strconv.FormatInt(int64(r.Uint64()), 10) },
	"u8":  func(r *rand.Rand) string { return strconv.Itoa(int(uint8(r.Uint32()))) },
	"u16": func(r *rand.Rand) string { return strconv.Itoa(int(uint16(r.Uint32()))) },
	"u32": func(r *rand.Rand) string { return strconv.FormatUint(uint64(r.Uint32()), 10) },
	"u64": func(r *rand.Rand) string { return strconv.FormatUint(r.Uint64(), 10) },
	"f32": func(r *rand.Rand) string { return strconv.FormatFloat(float64(r.Float32()), 'g', -1, 32) },
	"f64": func(r *rand.Rand) string { return strconv.FormatFloat(r.Float64(), 'g', -1, 64) },
	"f16": func(r *rand.Rand) string { return core.FormatHalf(r.Float64()) },
	"bool": func(r *rand.Rand) string {
		if r.IntN(2) == 0 {
			return "false"
		}
		return "true"
	},
}
