package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// DefaultCompileOptions are the NVRTC options Compile gives before the
// caller's. -minimal leaves out what arepl's kernels never use (texture and
// surface functions, device-side launches and cudadevrt, the runtime's
// types): NVRTC then reads far less of its built-in headers. Measured on an
// H100 with NVRTC 13.0 (bench/RESULTS.md, "Interactive latency", run 1): an
// empty kernel compiled in 16 ms without it and 9 ms with it, the ordered
// redomap module in 36 ms and 20 ms.
var DefaultCompileOptions = []string{"-default-device", "-std=c++17", "-minimal"}

// extraCompileOptions are AREPL_NVRTC_OPTIONS's space-separated options,
// which Compile appends to DefaultCompileOptions: for measuring an option
// set's compile time and kernel speed in the REPL and the benchmarks
// without a rebuild (bench/gpu/latency.sh).
var extraCompileOptions = strings.Fields(os.Getenv("AREPL_NVRTC_OPTIONS"))

// minimalRefused is set once NVRTC has refused -minimal (releases before
// 12.4 do not know it); Compile then leaves it out.
var minimalRefused atomic.Bool

// Compile compiles CUDA C source with NVRTC for the device's architecture,
// with DefaultCompileOptions, opts and AREPL_NVRTC_OPTIONS's, and returns
// the cubin. A compile error carries NVRTC's log.
func (g *GPU) Compile(src, name string, opts ...string) ([]byte, error) {
	return g.CompileHeaders(src, name, nil, opts...)
}

// ExtraCompileOptions are AREPL_NVRTC_OPTIONS's options, which Compile adds
// to every compile (callers key their caches on them too).
func ExtraCompileOptions() []string { return extraCompileOptions }

// nvrtcErrorInvalidOption is NVRTC_ERROR_INVALID_OPTION.
const nvrtcErrorInvalidOption = 5

// Header is a file that a compiled source can #include by Name. With
// -pch, NVRTC keeps a precompiled form of the headers a source includes
// first, in the process, for later compiles that include the same ones.
type Header struct{ Name, Text string }

// CompileHeaders is Compile with headers the source may include.
func (g *GPU) CompileHeaders(src, name string, headers []Header, opts ...string) ([]byte, error) {
	return g.compileDefaults(src, name, headers, false, opts)
}

// CompilePTX is CompileHeaders for the device's virtual architecture
// (compute_XY): it returns NVRTC's PTX, NUL-terminated, and never runs
// ptxas. LoadModule JIT-compiles it at JITOptLevel: tier 1 of a tiered
// compile (bench/RESULTS.md, "Interactive latency", run 14), since ptxas
// inside NVRTC always optimises fully (NVRTC refuses -Xptxas=-O0) and was
// half of the slowest module's compile.
func (g *GPU) CompilePTX(src, name string, headers []Header, opts ...string) ([]byte, error) {
	return g.compileDefaults(src, name, headers, true, opts)
}

func (g *GPU) compileDefaults(src, name string, headers []Header, ptx bool, opts []string) ([]byte, error) {
	var all []string
	for _, o := range DefaultCompileOptions {
		if o != "-minimal" || !minimalRefused.Load() {
			all = append(all, o)
		}
	}
	all = append(append(all, opts...), extraCompileOptions...)
	cubin, err := g.compile(src, name, headers, ptx, all)
	var e *Error
	if err != nil && errors.As(err, &e) && e.Code == nvrtcErrorInvalidOption && strings.Contains(e.Msg, "-minimal") && !minimalRefused.Load() {
		minimalRefused.Store(true)
		return g.compileDefaults(src, name, headers, ptx, opts)
	}
	return cubin, err
}

// CompileWith compiles with exactly the given options (and -arch): for
// measuring options (TestCompileTimes).
func (g *GPU) CompileWith(src, name string, opts []string) ([]byte, error) {
	return g.compile(src, name, nil, false, opts)
}

// cStrings returns NUL-terminated copies of ss and an array of pointers to
// them (NVRTC's char**), which the caller keeps alive across the call.
func cStrings(ss []string) ([][]byte, []*byte) {
	bufs := make([][]byte, len(ss))
	ptrs := make([]*byte, len(ss)+1) // never empty: &ptrs[0] is always valid
	for i, o := range ss {
		bufs[i] = append([]byte(o), 0)
		ptrs[i] = &bufs[i][0]
	}
	return bufs, ptrs
}

// compile runs NVRTC with -arch and the given options and returns the
// cubin, or with ptx the PTX for the virtual architecture.
func (g *GPU) compile(src, name string, headers []Header, ptx bool, given []string) ([]byte, error) {
	arch := g.props.Arch()
	if ptx {
		arch = g.props.VirtualArch()
	}
	opts := append([]string{"-arch=" + arch}, given...)
	if timeTraceDir != "" {
		opts = append(opts, fmt.Sprintf("-fdevice-time-trace=%s", filepath.Join(timeTraceDir, fmt.Sprintf("%03d-%s.json", timeTraceN.Add(1), name))))
	}
	bufs, ptrs := cStrings(opts)
	hnames := make([]string, len(headers))
	htexts := make([]string, len(headers))
	for i, h := range headers {
		hnames[i], htexts[i] = h.Name, h.Text
	}
	hbufs, hptrs := cStrings(htexts)
	nbufs, nptrs := cStrings(hnames)
	if err := g.Broken(); err != nil {
		return nil, fmt.Errorf("GPU unusable after an earlier error: %w", err)
	}
	// NVRTC needs no context: it runs on the caller's goroutine, so that a
	// compile (tens to hundreds of milliseconds) never holds up the command
	// goroutine's copies and launches, and a background warm-up compile
	// (New) can overlap them.
	var cubin []byte
	var log string // NVRTC's log of a successful compile, when tracing (-pch-verbose's messages)
	tr := startTrace()
	err := func() error {
		d := g.d
		var prog uintptr
		if r := d.nvrtcCreateProgram(&prog, src, name, int32(len(headers)), unsafe.Pointer(&hptrs[0]), unsafe.Pointer(&nptrs[0])); r != 0 {
			return g.nvrtcErr("nvrtcCreateProgram", r, "")
		}
		defer d.nvrtcDestroyProgram(&prog)
		if r := d.nvrtcCompileProgram(prog, int32(len(opts)), unsafe.Pointer(&ptrs[0])); r != 0 {
			return g.nvrtcErr("nvrtcCompileProgram", r, programLog(d, prog))
		}
		getSize, get, what := d.nvrtcGetCUBINSize, d.nvrtcGetCUBIN, "CUBIN"
		if ptx {
			getSize, get, what = d.nvrtcGetPTXSize, d.nvrtcGetPTX, "PTX"
		}
		var n uint64
		if r := getSize(prog, &n); r != 0 {
			return g.nvrtcErr("nvrtcGet"+what+"Size", r, "")
		}
		cubin = make([]byte, n)
		if n > 0 {
			if r := get(prog, &cubin[0]); r != 0 {
				return g.nvrtcErr("nvrtcGet"+what, r, "")
			}
		}
		if tr.on {
			log = programLog(d, prog)
		}
		return nil
	}()
	runtime.KeepAlive(bufs)
	runtime.KeepAlive(ptrs)
	runtime.KeepAlive(hbufs)
	runtime.KeepAlive(hptrs)
	runtime.KeepAlive(nbufs)
	runtime.KeepAlive(nptrs)
	tr.end(name, len(src), len(cubin), opts, log)
	if err == nil && tr.on && compileDump != "" {
		dumpSource(name, src)
	}
	if err == nil && tr.on && compileRepeat > 0 && !repeating.Load() {
		// The same text again, made unique so that no cache answers it,
		// back to back in this process: whether a compile in the REPL is
		// slow for its text or for the state it starts in.
		repeating.Store(true)
		for i := range compileRepeat {
			_, _ = g.compile(fmt.Sprintf("__device__ int ar_repeat_%d_%d = %d;\n%s", os.Getpid(), repeatN.Add(1), i, src), name+"-repeat", headers, ptx, given)
		}
		repeating.Store(false)
	}
	return cubin, err
}

// With AREPL_COMPILE_TRACE set, AREPL_COMPILE_DUMP names a folder that
// receives every compiled source (NNN-NAME), and AREPL_COMPILE_REPEAT=N
// compiles each source N more times at once, each made unique (traced as
// NAME-repeat): for telling a slow text from a slow process state
// (bench/RESULTS.md, "Interactive latency").
// AREPL_COMPILE_TIMETRACE names a folder that receives NVRTC's own
// profile of every compile (-fdevice-time-trace, NNN-NAME.json: the front
// end, NVVM's optimizer and code generator, ptxas), for telling which
// phase a slow compile spends its time in.
var (
	compileDump      = os.Getenv("AREPL_COMPILE_DUMP")
	compileRepeat, _ = strconv.Atoi(os.Getenv("AREPL_COMPILE_REPEAT"))
	timeTraceDir     = os.Getenv("AREPL_COMPILE_TIMETRACE")
	repeating        atomic.Bool
	repeatN, dumpN   atomic.Int64
	timeTraceN       atomic.Int64
)

func dumpSource(name, src string) {
	_ = os.WriteFile(filepath.Join(compileDump, fmt.Sprintf("%03d-%s", dumpN.Add(1), name)), []byte(src), 0o600)
}

// compileTrace, when AREPL_COMPILE_TRACE names a file, appends a line per
// NVRTC compile to it: wall time, the compiling thread's CPU time and its
// page faults. It is for finding where a cold compile's time goes when
// the same source compiles at different speeds in different processes
// (bench/RESULTS.md, "Interactive latency", run 5).
var compileTrace = os.Getenv("AREPL_COMPILE_TRACE")

type trace struct {
	on    bool
	start time.Time
	ru    syscall.Rusage
}

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

func startTrace() *trace {
	t := &trace{on: compileTrace != ""}
	if t.on {
		// The thread's usage is only the compile's while the goroutine
		// stays on it.
		runtime.LockOSThread()
		_ = syscall.Getrusage(rusageThread, &t.ru)
		t.start = time.Now()
	}
	return t
}

// traceStart is when the process began tracing: trace lines give their
// compile's start and end from it, so that overlapping compiles show.
var traceStart = time.Now()

func (t *trace) end(name string, srcBytes, cubinBytes int, opts []string, log string) {
	if !t.on {
		return
	}
	wall := time.Since(t.start)
	var ru syscall.Rusage
	_ = syscall.Getrusage(rusageThread, &ru)
	runtime.UnlockOSThread()
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano() - t.ru.Utime.Nano() - t.ru.Stime.Nano())
	appendTrace(fmt.Sprintf("nvrtc %s src=%d cubin=%d at=%.1fms wall=%.1fms cpu=%.1fms minflt=%d majflt=%d nvcsw=%d nivcsw=%d pid=%d opts=%q\n",
		name, srcBytes, cubinBytes, float64(t.start.Sub(traceStart))/1e6, float64(wall)/1e6, float64(cpu)/1e6, ru.Minflt-t.ru.Minflt, ru.Majflt-t.ru.Majflt,
		ru.Nvcsw-t.ru.Nvcsw, ru.Nivcsw-t.ru.Nivcsw, os.Getpid(), strings.Join(opts[1:], " ")))
	if log = strings.TrimSpace(log); log != "" {
		appendTrace("nvrtc-log " + strings.ReplaceAll(log, "\n", " | ") + "\n")
	}
}

// Trace appends line to AREPL_COMPILE_TRACE's file, when it is set: for
// the callers' own events beside NVRTC's (the tiers' scheduling).
func Trace(line string) {
	if compileTrace != "" {
		appendTrace(line)
	}
}

// Tracing reports whether AREPL_COMPILE_TRACE is set.
func Tracing() bool { return compileTrace != "" }

func appendTrace(line string) {
	f, err := os.OpenFile(compileTrace, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(line)
}

// ctxFlags, from AREPL_CUDA_CTX_FLAGS (a number, 0x.. for hex), are the
// primary context's flags (cuDevicePrimaryCtxSetFlags), for measuring:
// 0x10 (CU_CTX_LMEM_RESIZE_TO_MAX) keeps the local-memory reservation at
// the largest size a launch needed instead of shrinking it after each.
var ctxFlags, _ = strconv.ParseUint(os.Getenv("AREPL_CUDA_CTX_FLAGS"), 0, 32)

func programLog(d *driver, prog uintptr) string {
	var n uint64
	if d.nvrtcGetProgramLogSize(prog, &n) != 0 || n <= 1 {
		return ""
	}
	buf := make([]byte, n)
	if d.nvrtcGetProgramLog(prog, &buf[0]) != 0 {
		return ""
	}
	return cString(&buf[0])
}

// JITOption is one CUjit_option (cuda.h) and its value, for
// cuModuleLoadDataEx.
type JITOption struct {
	Opt int32
	Val uintptr
}

// JITExtra are further options LoadModule gives the driver's JIT compiler
// when it loads PTX, after the optimisation level: AREPL_JIT_OPTIONS's
// comma-separated OPT=VALUE pairs (CUjit_option numbers), for measuring
// them in the REPL (bench/gpu/latency_cold.sh) without a rebuild.
var JITExtra = ParseJITOptions(os.Getenv("AREPL_JIT_OPTIONS"))

// ParseJITOptions parses comma-separated OPT=VALUE pairs; it skips the
// malformed ones.
func ParseJITOptions(s string) []JITOption {
	var out []JITOption
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		o, err1 := strconv.Atoi(k)
		n, err2 := strconv.ParseUint(v, 0, 64)
		if ok && err1 == nil && err2 == nil {
			out = append(out, JITOption{int32(o), uintptr(n)})
		}
	}
	return out
}

func jitExtraTrace() string {
	var b strings.Builder
	for _, o := range JITExtra {
		fmt.Fprintf(&b, " %d=%d", o.Opt, o.Val)
	}
	return b.String()
}

// CompilePTXWith compiles to PTX for the device's virtual architecture
// with exactly the given options (and -arch): for measuring tier 1's
// options (TestTier1Lab).
func (g *GPU) CompilePTXWith(src, name string, headers []Header, opts []string) ([]byte, error) {
	return g.compile(src, name, headers, true, opts)
}
