package gpu

import (
	"os"
	"strings"
	"sync"
)

// Tier 1's trimmed prelude. The preludes define every scalar operator for
// every primitive type (prelude.cu's AR_SIGNED, AR_UNSIGNED and AR_FLOAT
// instantiations, the shuffles of scan_prelude.cu), a few hundred inline
// functions that NVRTC's front end parses for every module, though a
// module names the operators of one or two types. trimPrelude drops the
// one-line definitions and instantiations whose narrow or floating types
// (i8, i16, u8, u16, f32, f64) the module's body never names. It is for
// tier 1 only: tier 2 compiles the module's own text, which is what the
// cache key and the disk cache see, so the trimmed text never outlives
// its first run. A trimmed text that fails to compile (an overload a
// kept function needed: not seen, but C++ overloading makes it possible)
// is compiled again in full (compileTier1).

// trimmable are the types whose definitions trimPrelude may drop: those
// most modules never use. i32, u32, i64, u64 and bool stay, since
// generated and template code names them as int, unsigned and long long
// too, and overloads on them (ar_shfl_up) must all be there.
var trimmable = map[string]bool{"i8": true, "i16": true, "u8": true, "u16": true, "f32": true, "f64": true}

// typesNamed returns the trimmable types that text names: as an
// identifier (a typedef), as an underscore-separated part of one (an
// operator, add_f32, or a conversion), or through the C type a typedef
// stands for (float, double, short). Not char: generated code and the
// templates name values of 1-byte types u8 and i8, and say unsigned char
// only for raw byte buffers (a scan's ar_rb, a histogram's shared
// memory), which every scan module has and no prelude function takes.
func typesNamed(text string) map[string]bool {
	named := map[string]bool{}
	for _, id := range identifiers(text) {
		switch id {
		case "float":
			named["f32"] = true
		case "double":
			named["f64"] = true
		case "short":
			named["i16"], named["u16"] = true, true
		}
		for _, part := range strings.Split(id, "_") {
			if trimmable[part] {
				named[part] = true
			}
		}
	}
	return named
}

// identifiers splits text into its C identifiers.
func identifiers(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
}

// trimPrelude returns pre without the complete one-line definitions and
// macro instantiations whose trimmable types body never names (a line
// naming several goes only when body names none of them). Multi-line
// definitions and macro definitions stay: they are cheap to parse until
// instantiated, and a line inside one is no definition of its own.
func trimPrelude(pre, body string) string {
	used := typesNamed(body)
	var b strings.Builder
	inMacro := false
	for _, line := range strings.SplitAfter(pre, "\n") {
		t := strings.TrimRight(line, "\n")
		cont := strings.HasSuffix(t, "\\")
		if inMacro || strings.HasPrefix(t, "#") {
			inMacro = cont
			b.WriteString(line)
			continue
		}
		if droppable(t, used) {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// droppable reports whether line is a whole definition (AR_D ... { ... }
// on one line) or a macro instantiation (AR_NAME(...)) that names
// trimmable types, none of which used holds.
func droppable(line string, used map[string]bool) bool {
	whole := strings.HasPrefix(line, "AR_D ") && strings.HasSuffix(line, "}") && strings.Count(line, "{") == strings.Count(line, "}")
	inst := strings.HasPrefix(line, "AR_") && strings.HasSuffix(line, ")") && !strings.ContainsAny(line, "{;")
	if !whole && !inst {
		return false
	}
	named := typesNamed(line)
	if len(named) == 0 {
		return false
	}
	for t := range named {
		if used[t] {
			return false
		}
	}
	return true
}

// tier1Trim turns trimming on; AREPL_TIER1_TRIM=0 compiles tier 1 with the
// full preludes, for measuring beside it.
var tier1Trim = os.Getenv("AREPL_TIER1_TRIM") != "0"

// trimmedText returns src with its preludes (prelude.cu, and scan_prelude.cu
// after it) trimmed for its body, and whether anything was dropped.
func trimmedText(src string) (string, bool) {
	pres, body := splitPreludes(src)
	if len(pres) == 0 {
		return src, false
	}
	var b strings.Builder
	for _, p := range pres {
		b.WriteString(trimmedPrelude(p, typesKey(body)))
		b.WriteString("\n")
	}
	out := b.String()
	if len(out) == len(src)-len(body) {
		return src, false
	}
	return out + body, true
}

// splitPreludes splits a module's text into its preludes (prelude.cu,
// then scan_prelude.cu where it follows) and the rest.
func splitPreludes(src string) (pres []string, body string) {
	body, ok := strings.CutPrefix(src, prelude+"\n")
	if !ok {
		return nil, src
	}
	pres = []string{prelude}
	if rest, ok := strings.CutPrefix(body, scanPrelude+"\n"); ok {
		body = rest
		pres = append(pres, scanPrelude)
	}
	return pres, body
}

// typesKey names the trimmable types body names, in a fixed order: the
// key of trimmedPrelude's memo.
func typesKey(body string) string {
	named := typesNamed(body)
	var b strings.Builder
	for _, t := range []string{"i8", "i16", "u8", "u16", "f32", "f64"} {
		if named[t] {
			b.WriteString(t + " ")
		}
	}
	return b.String()
}

// trimmedPreludes memoises trimPrelude by prelude and typesKey (a handful
// of combinations a session).
var trimmedPreludes sync.Map

func trimmedPrelude(pre, key string) string {
	k := [2]string{pre, key}
	if v, ok := trimmedPreludes.Load(k); ok {
		return v.(string)
	}
	t := trimPrelude(pre, key)
	trimmedPreludes.Store(k, t)
	return t
}
