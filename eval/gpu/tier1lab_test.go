package gpu

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arepl/arepl/eval/gpu/cuda"
)

var (
	tier1Lab     = flag.String("gpu.tier1lab", "", "semicolon-separated variants of tier 1's compile for TestTier1Lab to time, NAME=OPTIONS (NVRTC options space-separated; +trim: the trimmed prelude; +pch: the prelude as a precompiled header; +noinline: the map and operator not inlined; +roll: every loop rolled; +style=unrolled|rolled|serial|lookback|shared: the scans' tier-1 texts in that tier1ScanStyle; jit:OPT=VAL: a further JIT option)")
	tier1LabReps = flag.Int("gpu.tier1reps", 5, "compiles of each text under each TestTier1Lab variant")
	tier1LabPTX  = flag.String("gpu.tier1ptx", "", "folder where TestTier1Lab writes each text's PTX under each variant (the last repetition's)")
	tier1LabSrc  = flag.String("gpu.tier1src", "", "folder where TestTier1Lab writes each text in each tier1ScanStyle, trimmed as tier 1 compiles it (NAME.STYLE.cu; no GPU needed)")
	tier1LabPar  = flag.String("gpu.tier1par", "", "comma-separated numbers of concurrent compiles of the MSSP scan's tier-1 text for TestTier1Lab to time (NVRTC's lock)")
)

// TestTier1Lab times tier 1's compile of the scans' tier-1 texts (NVRTC
// to PTX, then the driver's JIT at cuda.JITOptLevel) under the variants
// of -gpu.tier1lab, interleaved (every variant of a text, then the next
// repetition), every compile of a text of its own: where the MSSP scan's
// 100-150 ms go and what cuts them (issue 16; bench/RESULTS.md,
// "Interactive latency", run 17). Without the flag it only checks that
// the texts generate; without a GPU it skips.
func TestTier1Lab(t *testing.T) {
	// textsIn generates the four scans' tier-1 texts in a tier1ScanStyle.
	textsIn := func(style tier1Style) (map[string]string, []string) {
		saved := tier1ScanStyle
		tier1ScanStyle = style
		defer func() { tier1ScanStyle = saved }()
		texts := map[string]string{}
		var names []string
		for _, c := range scanProgs() {
			switch c.name {
			case "scan_i32", "mssp_scan", "mssp_i64_post", "segscan_i32":
			default:
				continue
			}
			p := c.build()
			for _, s := range p.Funs[0].Body.Stmts {
				if m, err := genScan(p, s, DefaultLimits); err == nil && m.fastBody != "" {
					texts[c.name] = m.prelude() + "\n" + canonical(m.fastBody)
					names = append(names, c.name)
				}
			}
		}
		if len(texts) != 4 {
			t.Fatalf("want 4 texts, got %v", names)
		}
		return texts, names
	}
	texts, names := textsIn(tier1ScanStyle)
	styled := map[tier1Style]map[string]string{}
	for sn, st := range tier1Styles {
		styled[st], _ = textsIn(st)
		if *tier1LabSrc == "" {
			continue
		}
		for n, text := range styled[st] {
			tr, _ := trimmedText(text)
			if err := os.WriteFile(fmt.Sprintf("%s/%s.%s.cu", *tier1LabSrc, n, sn), []byte(tr), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if *tier1Lab == "" && *tier1LabPar == "" {
		return
	}
	g, err := cuda.Open()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	pchDir, err := os.MkdirTemp("", "arepl-pch")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(pchDir)
	type variant struct {
		name                   string
		opts                   []string
		trim, pch, noinl, roll bool
		jit                    []cuda.JITOption
		style                  *tier1Style // the texts in this tier1ScanStyle
	}
	var vs []variant
	for _, set := range strings.Split(*tier1Lab, ";") {
		name, rest, ok := strings.Cut(set, "=")
		if !ok {
			continue
		}
		v := variant{name: name, opts: append([]string(nil), cuda.DefaultCompileOptions...)}
		for _, f := range strings.Fields(rest) {
			switch {
			case f == "+trim":
				v.trim = true
			case f == "+noinline":
				v.noinl = true
			case f == "+roll":
				v.roll = true
			case strings.HasPrefix(f, "+style="):
				st, ok := tier1Styles[f[7:]]
				if !ok {
					t.Fatalf("unknown style %q", f)
				}
				v.style = &st
			case f == "+pch":
				v.pch = true
				v.opts = append(v.opts, "-pch", "-pch-dir="+pchDir)
			case strings.HasPrefix(f, "jit:"):
				v.jit = append(v.jit, cuda.ParseJITOptions(f[4:])...)
			default:
				v.opts = append(v.opts, f)
			}
		}
		vs = append(vs, v)
	}
	uniq := 0
	// compile compiles text (a module's tier-1 text with its preludes)
	// under v, made unique, and JIT-loads it.
	compile := func(name, text string, v variant) (nvrtc, jit time.Duration, ptxBytes int, err error) {
		uniq++
		tag := fmt.Sprintf("__device__ int ar_lab_%d_%d = %d;\n", os.Getpid(), uniq, uniq)
		var headers []cuda.Header
		if v.noinl {
			// The map and the operator called, not inlined: one copy each.
			text = strings.ReplaceAll(text, "static __device__ __forceinline__ void k_", "static __device__ __noinline__ void k_")
		}
		if v.roll {
			text = strings.ReplaceAll(text, "#pragma unroll\n", "#pragma unroll 1\n")
		}
		switch {
		case v.pch:
			body, ok := strings.CutPrefix(text, prelude+"\n")
			if !ok {
				return 0, 0, 0, fmt.Errorf("no prelude")
			}
			text = "#include \"" + preludeHeader + "\"\n" + tag + body
			headers = []cuda.Header{{Name: preludeHeader, Text: prelude}}
		case v.trim:
			tr, _ := trimmedText(text)
			text = tag + tr
		default:
			text = tag + text
		}
		start := time.Now()
		ptx, err := g.CompilePTXWith(text, name+".cu", headers, v.opts)
		nvrtc = time.Since(start)
		if err != nil {
			return nvrtc, 0, 0, err
		}
		if *tier1LabPTX != "" && v.name != "" {
			if err := os.WriteFile(fmt.Sprintf("%s/%s.%s.ptx", *tier1LabPTX, name, v.name), ptx, 0o644); err != nil {
				return nvrtc, 0, 0, err
			}
		}
		saved := cuda.JITExtra
		cuda.JITExtra = append(append([]cuda.JITOption(nil), saved...), v.jit...)
		start = time.Now()
		m, err := g.LoadModule(ptx)
		jit = time.Since(start)
		cuda.JITExtra = saved
		if err != nil {
			return nvrtc, jit, len(ptx), err
		}
		_ = m.Unload()
		return nvrtc, jit, len(ptx), nil
	}
	// The warm-up a session does (warmCompiler): NVRTC and the JIT loaded.
	if _, _, _, err := compile("warm", prelude+"\nextern \"C\" __global__ void ar_warm() {}\n", variant{opts: cuda.DefaultCompileOptions}); err != nil {
		t.Fatal(err)
	}
	type key struct{ text, variant string }
	nv, jt := map[key][]float64{}, map[key][]float64{}
	sizes := map[key]int{}
	sort.Strings(names)
	for range *tier1LabReps {
		for _, n := range names {
			for _, v := range vs {
				text := texts[n]
				if v.style != nil {
					text = styled[*v.style][n]
				}
				a, b, size, err := compile(n, text, v)
				if err != nil {
					t.Errorf("%s under %s: %v", n, v.name, err)
					continue
				}
				k := key{n, v.name}
				nv[k] = append(nv[k], ms(a))
				jt[k] = append(jt[k], ms(b))
				sizes[k] = size
			}
		}
	}
	stat := func(xs []float64) string {
		if len(xs) == 0 {
			return "-"
		}
		lo, hi, sum := xs[0], xs[0], 0.0
		for _, x := range xs {
			lo, hi, sum = min(lo, x), max(hi, x), sum+x
		}
		return fmt.Sprintf("mean %.1f [%.1f-%.1f]", sum/float64(len(xs)), lo, hi)
	}
	for _, n := range names {
		for _, v := range vs {
			k := key{n, v.name}
			tot := make([]float64, len(nv[k]))
			for i := range tot {
				tot[i] = nv[k][i] + jt[k][i]
			}
			each := make([]string, len(tot))
			for i, x := range tot {
				each[i] = fmt.Sprintf("%.0f", x)
			}
			t.Logf("tier1lab text=%s variant=%s ptx=%d nvrtc=%s jit=%s total=%s each=%s", n, v.name, sizes[k], stat(nv[k]), stat(jt[k]), stat(tot), strings.Join(each, "/"))
		}
	}
	// NVRTC's process-wide lock: k compiles of the MSSP scan's text at once.
	for _, f := range strings.Split(*tier1LabPar, ",") {
		var k int
		if _, err := fmt.Sscan(f, &k); err != nil || k < 1 {
			continue
		}
		for rep := range 2 {
			var wg sync.WaitGroup
			took := make([]float64, k)
			srcs := make([]string, k)
			for i := range k {
				uniq++
				srcs[i] = fmt.Sprintf("__device__ int ar_par_%d_%d = %d;\n%s", os.Getpid(), uniq, uniq, texts["mssp_scan"])
			}
			start := time.Now()
			for i := range k {
				wg.Go(func() {
					s := time.Now()
					_, err := g.CompilePTXWith(srcs[i], "par.cu", nil, append(append([]string(nil), cuda.DefaultCompileOptions...), fastTierOptions...))
					took[i] = ms(time.Since(s))
					if err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			t.Logf("tier1lab par=%d rep=%d batch=%.1fms each=%v", k, rep, ms(time.Since(start)), took)
		}
	}
}
