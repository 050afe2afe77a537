package gpu

import (
	"strings"
	"testing"
)

// TestTrimPrelude checks tier 1's trimmed prelude (trim.go): a module
// keeps every definition line of the types its body names, loses those of
// the narrow and floating types it never names, and keeps the macro
// definitions and the types every module may use through C's names.
func TestTrimPrelude(t *testing.T) {
	lines := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	var texts []string
	for _, c := range scanProgs() {
		p := c.build()
		for _, s := range p.Funs[0].Body.Stmts {
			if m, err := genScan(p, s, DefaultLimits); err == nil && m.fastBody != "" {
				texts = append(texts, m.prelude()+"\n"+canonical(m.fastBody))
			}
		}
	}
	for _, p := range testProgs() {
		m, err := generate(p.build(), DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		texts = append(texts, m.source())
	}
	trimmedSome := 0
	for _, text := range texts {
		tr, ok := trimmedText(text)
		if ok {
			trimmedSome++
		}
		_, body := splitPreludes(text)
		if !strings.HasSuffix(tr, "\n"+body) {
			t.Fatalf("trimming changed the module's body")
		}
		used := typesNamed(body)
		kept := lines(tr)
		for _, l := range strings.Split(prelude+"\n"+scanPrelude, "\n") {
			named := typesNamed(l)
			need := len(named) == 0 || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "  ") || strings.HasSuffix(l, "\\")
			for ty := range named {
				need = need || used[ty]
			}
			if need && !kept[l] && strings.Contains(text, l) {
				t.Errorf("a line the body needs (types %v named) was dropped: %q", used, l)
			}
		}
	}
	if trimmedSome == 0 {
		t.Fatal("no module's prelude was trimmed")
	}
	// The MSSP scan (i32 values, a byte buffer of unsigned char) loses
	// the 1-byte, 2-byte and floating-point types' definitions.
	for _, c := range scanProgs() {
		if c.name != "mssp_scan" {
			continue
		}
		p := c.build()
		m, err := genScan(p, p.Funs[0].Body.Stmts[len(p.Funs[0].Body.Stmts)-1], DefaultLimits)
		if err != nil || m.fastBody == "" {
			t.Fatalf("mssp_scan: %v", err)
		}
		tr, _ := trimmedText(m.prelude() + "\n" + canonical(m.fastBody))
		for _, gone := range []string{"AR_SIGNED(i8", "AR_UNSIGNED(u8", "AR_SIGNED(i16", "AR_FLOAT(f32", "AR_SHFL_NARROW(u8)", "ar_bits(f64"} {
			if strings.Contains(tr, gone) {
				t.Errorf("mssp_scan's tier-1 text keeps %s", gone)
			}
		}
	}
	// An i32 scan (the MSSP scan's kind) loses the floating-point
	// operators; one over f32 keeps f32's and loses f64's.
	tr := trimPrelude(prelude, "k_i32(i32 x) { return add_i32(x, x); }")
	for _, gone := range []string{"AR_FLOAT(f32", "AR_FLOAT(f64", "AR_SIGNED(i16", "ar_shfl_down(f64"} {
		if strings.Contains(tr, gone) {
			t.Errorf("an i32 module's prelude keeps %s", gone)
		}
	}
	for _, kept := range []string{"#define AR_FLOAT(N, T, S, INF)", "AR_SIGNED(i32, i32, u32)", "AR_UNSIGNED(u64, u64)", "typedef float f32;", "AR_CMP(bool, bool)"} {
		if !strings.Contains(tr, kept) {
			t.Errorf("an i32 module's prelude lost %s", kept)
		}
	}
	tr = trimPrelude(prelude, "k(float x) { return add_f32(x, x); }")
	if !strings.Contains(tr, "AR_FLOAT(f32") || strings.Contains(tr, "AR_FLOAT(f64") {
		t.Errorf("an f32 module's prelude: f32's operators kept %v, f64's dropped %v", strings.Contains(tr, "AR_FLOAT(f32"), !strings.Contains(tr, "AR_FLOAT(f64"))
	}
}
