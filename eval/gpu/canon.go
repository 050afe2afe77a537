package gpu

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/lang/core"
)

// Canonical module text: what the module caches (in memory and on disk)
// are keyed on, and what NVRTC compiles.
//
// The generated CUDA names variables after the core program's names (cname:
// "v_" + the name, which carries the lowering's fresh-name counter and the
// user's spelling), names device functions after the user's functions
// ("f_" + the name) and marks each kernel with the source position of its
// SOAC in a comment — which, in the REPL, names the input line ("[12]:1:1").
// Keyed on that text, the same expression typed again, or with a lambda
// parameter renamed, or in a new session, missed both caches and compiled
// anew (41-46 ms per repeat on an H100, issue 16). canonical drops the
// comments and renumbers every generated name by first occurrence, so that
// modules that differ only in spelling share one text, one key and one
// compiled cubin. Kernel entry names (k1_map, k_scanomap, ...) come from the
// statement's place in the program, not from names, and are kept: the
// loader looks kernels up by them.

// canonical returns src with comments removed and the names generated from
// core names (v_*, f_*) renumbered by first occurrence.
func canonical(src string) string {
	var b strings.Builder
	b.Grow(len(src))
	names := map[string]string{}
	counts := map[byte]int{}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			// A line comment: generated code has no string literals, so
			// "//" always starts one.
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				i = len(src)
			} else {
				i += 2 + end + 2
			}
			b.WriteByte(' ')
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			id := src[i:j]
			if len(id) > 2 && id[1] == '_' && (id[0] == 'v' || id[0] == 'f') {
				n, ok := names[id]
				if !ok {
					n = id[:2] + strconv.Itoa(counts[id[0]])
					counts[id[0]]++
					names[id] = n
				}
				id = n
			}
			b.WriteString(id)
			i = j
		case c >= '0' && c <= '9':
			// A number (with its suffix) is copied whole, so that "1e_"
			// style tails never read as identifiers.
			j := i + 1
			for j < len(src) && (isIdentPart(src[j]) || src[j] == '.') {
				j++
			}
			b.WriteString(src[i:j])
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return trimBlankLines(b.String())
}

// trimBlankLines drops trailing spaces and the lines left empty by the
// comments canonical removed, so that comment-only edits to the templates
// do not change keys either.
func trimBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// moduleText returns the text NVRTC compiles for a module made of fixed
// preludes (kernels/*.cu, the same for every module of a family) and a
// generated body, and its cache key. Only the body is canonicalised and
// hashed on every load; a prelude enters the key by a digest computed once
// (a cache hit is the REPL's common path: it should cost microseconds).
// AREPL_NVRTC_OPTIONS's options (cuda.ExtraCompileOptions) change the
// cubin, so they are part of the key.
//
// The answers are remembered by their inputs (moduleTexts): a scan or
// histogram module is looked up at each of its launches, every iteration
// of a loop, and a map lookup of the body costs a hash of its bytes where
// canonical and SHA-256 cost tens of times that.
func moduleText(pre, body, arch string, nvrtc [2]int) (src, key string) {
	k := textKey{pre, body, arch, nvrtc, strings.Join(cuda.ExtraCompileOptions(), " ")}
	moduleTexts.Lock()
	v, ok := moduleTexts.m[k]
	moduleTexts.Unlock()
	if ok {
		return v.src, v.key
	}
	c := canonical(body)
	v = textVal{pre + "\n" + c, cacheKey(preludeDigest(pre), c, arch, fmt.Sprint(nvrtc), k.opts)}
	moduleTexts.Lock()
	if len(moduleTexts.m) >= textLimit {
		moduleTexts.m = map[textKey]textVal{}
	}
	moduleTexts.m[k] = v
	moduleTexts.Unlock()
	return v.src, v.key
}

// moduleTexts is moduleText's memory; a long session's bodies are
// dropped when it reaches textLimit entries.
var moduleTexts = struct {
	sync.Mutex
	m map[textKey]textVal
}{m: map[textKey]textVal{}}

const textLimit = 256

type textKey struct {
	pre, body, arch string
	nvrtc           [2]int
	opts            string
}

type textVal struct{ src, key string }

var preludeDigests sync.Map // prelude text -> its cacheKey

func preludeDigest(pre string) string {
	if d, ok := preludeDigests.Load(pre); ok {
		return d.(string)
	}
	d := cacheKey(pre)
	preludeDigests.Store(pre, d)
	return d
}

// ModuleKeys returns the keys (for DefaultLimits and an sm_90 device; the
// architecture only adds to the hash) of the modules the GPU backend would
// load for prog: the map/redomap module, then one per scan and histogram
// module, in statement order. It needs no GPU; tests use it to show that a
// key does not depend on REPL line numbers, sessions or names.
func ModuleKeys(prog *core.Program) ([]string, error) {
	m, err := generate(prog, DefaultLimits)
	if err != nil {
		return nil, err
	}
	arch, nvrtc := "sm_90", [2]int{0, 0}
	var keys []string
	if len(m.kernels) > 0 {
		_, k := moduleText(prelude, m.body, arch, nvrtc)
		keys = append(keys, k)
	}
	var walk func(b *core.Body) error
	walk = func(b *core.Body) error {
		for _, s := range b.Stmts {
			switch e := s.Exp.(type) {
			case *core.IfExp:
				if err := walk(e.Then); err != nil {
					return err
				}
				if err := walk(e.Else); err != nil {
					return err
				}
				continue
			case *core.LoopExp:
				if err := walk(e.Body); err != nil {
					return err
				}
				continue
			}
			if _, ok := m.fallback[s]; !ok {
				continue
			}
			if sm, err := genScan(prog, s, DefaultLimits); err == nil {
				_, k := moduleText(sm.prelude(), sm.body, arch, nvrtc)
				keys = append(keys, k)
				continue
			} else if !isUnsupported(err) {
				return err
			}
			if hm, err := genHist(prog, s, DefaultLimits); err == nil {
				_, k := moduleText(hm.prelude(), hm.body, arch, nvrtc)
				keys = append(keys, k)
			} else if !isUnsupported(err) {
				return err
			}
		}
		return nil
	}
	for _, f := range prog.Funs {
		if err := walk(f.Body); err != nil {
			return nil, err
		}
	}
	return keys, nil
}
