package backends

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
)

// FuzzFusion generates random well-typed pipelines of maps, scans,
// reductions (one by a non-commutative tuple operator), filters, iota
// producers, row-wise SOACs and maps whose lambdas run loops (for loops
// with tuple states and in-place updates, while loops: Mandelbrot's in
// f64 and in i32 over a 2-D map, a Collatz-like one with branches) over
// i32 data,
// and checks that the fused and the unfused programs give the same values
// (i32 arithmetic wraps, so equality is exact). Inputs that do not make a
// program are impossible by construction: every byte string decodes to
// one.
func FuzzFusion(f *testing.F) {
	for _, seed := range []string{
		"\x00\x01\x02\x03\x04\x05\x06\x07",
		"\x10\x22\x31\x47\x53\x68\x79\x8a\x9b\xac",
		"\x03\x03\x03\x03\x01\x01\x05\x05\x07\x07\x09",
		"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4",
		"\x06\x00\x06\x01\x06\x02\x08\x03\x08\x04",
		// The loops in lambdas (cases 12 to 16) over 33 elements.
		"\x21\x05\x30\x63\x90\x10\x31\x77\x60\x08\x55\x64\x20\x42\x99\x80\x81\x09\x11\x13\x17\x19\x23\x29\x31\x37\x41\x43\x47\x53\x59\x61\x67\x71" +
			"\x05\x03\x0c\x00\x00\x1e\x00\x00\x03\x0c\x01\x01\x14\x01\x00\x04\x0d\x14\xc8\x00\x05\x0e\x00\x02\x0f\x00\x01\x03\x10\x1e\x00\x01\x0c\x02\x02\x27\x02\x03\x03\x0d\x1d\xff\x02",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		input, prog := genPipeline(data)
		var outs [2]string
		for i, fused := range []bool{false, true} {
			s := NewSession(eval.Options{Backend: "cpu", Fusion: fused})
			if _, err := s.Eval(context.Background(), "<input>", input); err != nil {
				t.Fatalf("input %q: %v", input, err)
			}
			r, err := s.Eval(context.Background(), "<pipeline>", prog)
			if err != nil {
				t.Fatalf("fused=%v: %v\n%s", fused, err, prog)
			}
			out, err := eval.Format(r.Type, r.Values, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			outs[i] = out
		}
		if outs[0] != outs[1] {
			t.Fatalf("fused and unfused differ\nprogram:\n%s\nunfused: %s\nfused:   %s", prog, outs[0], outs[1])
		}
	})
}

// gen reads choices from the fuzzer's bytes, then zeros.
type gen struct {
	data []byte
	pos  int
}

func (g *gen) pick(n int) int {
	if g.pos >= len(g.data) {
		g.pos++
		return 0
	}
	b := g.data[g.pos]
	g.pos++
	return int(b) % n
}

func (g *gen) done() bool { return g.pos >= len(g.data) }

// genPipeline returns a declaration of the input array and an expression
// over it.
func genPipeline(data []byte) (input, prog string) {
	g := &gen{data: data}
	n := g.pick(40)
	var xs []string
	for i := 0; i < n; i++ {
		xs = append(xs, fmt.Sprint(g.pick(200)-100))
	}
	input = "let xs: []i32 = [" + strings.Join(xs, ", ") + "]"
	if n == 0 {
		input = "let xs: []i32 = []"
	}

	arrs := []string{"xs"} // [n]i32 arrays
	scalars := []string{}  // i32 values
	mats := []string{}     // [3][n]i32 matrices
	others := []string{}   // arrays of other lengths
	var b strings.Builder
	b.WriteString("let n = length xs\n")
	arithOps := []string{"+", "-", "*", "^", "&", "|"}
	scans := []string{"(+) 0", "i32.max i32.lowest", "i32.min i32.highest", "(*) 1", "(^) 0"}
	arr := func() string { return arrs[g.pick(len(arrs))] }
	steps := 3 + g.pick(8)
	for k := 0; k < steps && !g.done(); k++ {
		v := fmt.Sprintf("v%d", k)
		c := g.pick(7) - 3
		switch g.pick(17) {
		case 0:
			fmt.Fprintf(&b, "let %s = map (\\x -> x %s %d) %s\n", v, arithOps[g.pick(len(arithOps))], c, arr())
			arrs = append(arrs, v)
		case 1:
			fmt.Fprintf(&b, "let %s = map2 (\\x y -> x %s y) %s %s\n", v, arithOps[g.pick(len(arithOps))], arr(), arr())
			arrs = append(arrs, v)
		case 2:
			fmt.Fprintf(&b, "let %s = scan %s %s\n", v, scans[g.pick(len(scans))], arr())
			arrs = append(arrs, v)
		case 3:
			fmt.Fprintf(&b, "let %s = reduce %s %s\n", v, scans[g.pick(len(scans))], arr())
			scalars = append(scalars, v)
		case 4:
			fmt.Fprintf(&b, "let %s = map (\\i -> i32.i64 i * %d) (iota n)\n", v, c)
			arrs = append(arrs, v)
		case 5:
			if len(scalars) == 0 {
				continue
			}
			fmt.Fprintf(&b, "let %s = map (\\x -> x + %s) %s\n", v, scalars[g.pick(len(scalars))], arr())
			arrs = append(arrs, v)
		case 6:
			fmt.Fprintf(&b, "let %s = filter (\\x -> x > %d) %s\n", v, c, arr())
			others = append(others, v)
		case 7:
			fmt.Fprintf(&b, "let %s = reverse %s\n", v, arr())
			arrs = append(arrs, v)
		case 8:
			fmt.Fprintf(&b, "let %s = map (\\i -> map (\\x -> x + i32.i64 i) %s) (iota 3)\n", v, arr())
			mats = append(mats, v)
		case 9:
			if len(mats) == 0 {
				continue
			}
			fmt.Fprintf(&b, "let %s = map (\\r -> reduce (+) 0 r) %s\n", v, mats[g.pick(len(mats))])
			others = append(others, v)
		case 10:
			if len(mats) == 0 {
				continue
			}
			fmt.Fprintf(&b, "let %s = map (\\r -> scan (+) 0 r) %s\n", v, mats[g.pick(len(mats))])
			mats = append(mats, v)
		case 11:
			// A loop in a lambda whose trip count depends on the element.
			fmt.Fprintf(&b, "let %s = map (\\x -> loop a = x for i < (x & 7) do a * 3 + i32.i32 i) %s\n", v, arr())
			arrs = append(arrs, v)
		case 12:
			// Mandelbrot's escape loop in f64 from each element: a while
			// loop with a tuple state in a map (the masked loop and its
			// fused f64 kernels), its count the result.
			k := []string{"2", "-1", "0.5"}[g.pick(3)]
			zr := []string{"zr * zr - zi * zi + cr", "zr * zr + zi * zi + cr", "zr * zi - zi * zr + cr"}[g.pick(3)]
			fmt.Fprintf(&b, "let %s = map2 (\\x y -> let cr = f64.i32 x / 40 let ci = f64.i32 y / 60 let (_, _, i) = loop (zr, zi, i) = (0f64, 0f64, 0i32) while i < %d && zr * zr + zi * zi < 4 do (%s, %s * zr * zi + ci, i + 1) in i) %s %s\n",
				v, 5+g.pick(40), zr, k, arr(), arr())
			arrs = append(arrs, v)
		case 13:
			// The same loop in i32 over a 2-D map (rows flattened into
			// the masked loop's blocks), wrapping arithmetic.
			fmt.Fprintf(&b, "let %s = map (\\r -> map (\\x -> let (_, _, n) = loop (a, c, n) = (x, r, 0i32) while n < %d && a * a + c * c < %d do (a * a - c * c + x, 2 * a * c + r, n + 1) in n) %s) (map i32.i64 (iota 3))\n",
				v, 3+g.pick(30), 50+g.pick(5000), arr())
			mats = append(mats, v)
		case 14:
			// A for loop with a tuple state and an in-place update of
			// a small array in a lambda.
			fmt.Fprintf(&b, "let %s = map (\\x -> let (s, a) = loop (s, a) = (x, [x, 1, 2, 3]) for i < (x & 7) do (s * %d + a[i & 3], a with [(i + 1) & 3] = s - i) in s + a[0] + a[3]) %s\n",
				v, c, arr())
			arrs = append(arrs, v)
		case 15:
			// A reduction by a non-commutative tuple operator: affine
			// maps composed (associative in wrapping arithmetic).
			x, y := arr(), arr()
			fmt.Fprintf(&b, "let (%s, %s_b) = reduce (\\(a, b) (c, d) -> (a * c, a * d + b)) (1, 0) (zip (map (\\x -> x | 1) %s) %s)\n", v, v, x, y)
			scalars = append(scalars, v, v+"_b")
		case 16:
			// A while loop whose condition is a bool in its state, with
			// branches in the body (speculated selects).
			fmt.Fprintf(&b, "let %s = map (\\x -> let (_, m, s) = loop (go, m, s) = (x != 0, x, 0i32) while go do (let m2 = if m & 1 == 0 then m >> 1 else (m * 3 + 1) & 1023 in (m2 != 1 && s < %d, m2, s + 1)) in m + s) %s\n",
				v, 10+g.pick(60), arr())
			arrs = append(arrs, v)
		}
	}
	results := []string{arrs[len(arrs)-1]}
	if len(arrs) > 2 {
		results = append(results, arrs[len(arrs)-2])
	}
	results = append(results, scalars...)
	results = append(results, others...)
	results = append(results, mats...)
	fmt.Fprintf(&b, "in (%s, 0i32)", strings.Join(results, ", "))
	return input, b.String()
}
