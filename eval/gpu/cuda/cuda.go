// Package cuda is arepl's only door to the GPU: the CUDA driver API and NVRTC,
// loaded at run time with purego so that the binary builds with
// CGO_ENABLED=0 everywhere and the GPU appears wherever a driver does.
//
// A CUDA context is current per OS thread, so every driver call runs on one
// goroutine locked to its thread: exported methods send a closure to that
// goroutine and wait for its result (a small command loop). The context is
// the device's primary context, retained when Open is first called, never at
// program start, so a REPL starts as fast without a GPU as with one.
//
// Every result code is checked and becomes an *Error naming the call;
// sticky errors (an illegal address, a failed launch) poison the context,
// and Sticky reports them so the backend can stop using the GPU.
package cuda

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Error is a failed driver or NVRTC call.
type Error struct {
	Call string // e.g. "cuMemAlloc_v2"
	Code int32
	Name string // e.g. "CUDA_ERROR_OUT_OF_MEMORY"
	Msg  string
}

func (e *Error) Error() string {
	if e.Msg != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Call, e.Name, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Call, e.Name)
}

// stickyCodes are the driver errors after which the context is unusable
// (CUDA_ERROR_ILLEGAL_ADDRESS, _HARDWARE_STACK_ERROR, _ILLEGAL_INSTRUCTION,
// _MISALIGNED_ADDRESS, _INVALID_ADDRESS_SPACE, _INVALID_PC, _LAUNCH_FAILED).
var stickyCodes = map[int32]bool{700: true, 714: true, 715: true, 716: true, 717: true, 718: true, 719: true}

// Sticky reports whether err leaves the CUDA context unusable.
func Sticky(err error) bool {
	var e *Error
	return errors.As(err, &e) && stickyCodes[e.Code]
}

// NoGPUError says why there is no usable GPU; its text starts "no GPU: ".
type NoGPUError struct{ Reason string }

func (e *NoGPUError) Error() string { return "no GPU: " + e.Reason }

// Props are the device limits the kernels are sized from.
type Props struct {
	Name                string
	CC                  [2]int // compute capability
	SMs                 int
	WarpSize            int
	MaxThreadsPerBlock  int
	MaxThreadsPerSM     int
	SharedPerBlock      int // default limit, bytes
	SharedPerBlockOptin int
	SharedPerSM         int
	RegsPerBlock        int
	RegsPerSM           int
	L2Bytes             int
	TotalMem            int64
	DriverVersion       int
	NVRTCVersion        [2]int
	DriverPath          string
	NVRTCPath           string
}

// Arch is the NVRTC architecture flag value for the device, e.g. "sm_90".
func (p Props) Arch() string { return fmt.Sprintf("sm_%d%d", p.CC[0], p.CC[1]) }

// VirtualArch is the device's virtual architecture, e.g. "compute_90":
// NVRTC emits PTX for it (CompilePTX).
func (p Props) VirtualArch() string { return fmt.Sprintf("compute_%d%d", p.CC[0], p.CC[1]) }

// CUdevice_attribute values (cuda.h).
const (
	attrMaxThreadsPerBlock   = 1
	attrSharedPerBlock       = 8
	attrWarpSize             = 10
	attrRegsPerBlock         = 12
	attrSMs                  = 16
	attrL2                   = 38
	attrMaxThreadsPerSM      = 39
	attrCCMajor              = 75
	attrCCMinor              = 76
	attrSharedPerSM          = 81
	attrRegsPerSM            = 82
	attrSharedPerBlockOptin  = 97
	funcAttrMaxDynamicShared = 8
	funcAttrNumRegs          = 4
	funcAttrLocalSizeBytes   = 3
)

// GPU is an open device with its primary context current on the command
// goroutine.
type GPU struct {
	d     *driver
	cmds  chan func()
	dev   int32
	ctx   uintptr
	props Props
	start uintptr // events for Launch timing, created once
	stop  uintptr
	hold  *hold     // holds the stream while Launch queues (hold.go); nil: none
	evs   []uintptr // timing events free for LaunchAsync (command goroutine only)
	stage *stage    // pinned staging buffers for large copies (staging.go)
	pool  uintptr   // the memory pool Alloc takes from (pool.go); 0: none

	ordinal int  // the device's ordinal (OpenDevice)
	parked  bool // the command goroutine parked before its current command

	mu     sync.Mutex
	broken error // set after a sticky error
}

var (
	openOnce sync.Once
	openGPU  *GPU
	openErr  error
)

// Open loads the driver and NVRTC, retains device 0's primary context and
// reads its properties; later calls return the same GPU (or error). The
// error is a *NoGPUError when there is no driver, no NVRTC or no device.
func Open() (*GPU, error) {
	openOnce.Do(func() { openGPU, openErr = open0(0) })
	return openGPU, openErr
}

func open0(ordinal int) (*GPU, error) {
	d, err := load()
	if err != nil {
		return nil, &NoGPUError{err.Error()}
	}
	g := &GPU{d: d, cmds: make(chan func(), 1), ordinal: ordinal}
	ready := make(chan error)
	go g.loop(ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return g, nil
}

// loop is the command goroutine: it owns the OS thread the context is
// current on and runs every driver call.
func (g *GPU) loop(ready chan<- error) {
	runtime.LockOSThread()
	if err := g.init(); err != nil {
		ready <- err
		return
	}
	close(ready)
	g.serve()
}

// serve runs the commands sent to g, for ever.
func (g *GPU) serve() {
	for {
		f, parked := spinRecv(g.cmds, false)
		g.parked = parked
		f()
	}
}

// spinFor is how long the command goroutine, after a command, and a caller
// waiting for one poll their channel before they park. A parked goroutine
// locked to its thread is woken through the kernel (a futex), and on the
// GPU machine's sandbox each wake cost tens of microseconds: a loop of
// kernels makes three driver calls a iteration (allocate, launch, free),
// and the stencil's host time was about 100 µs a iteration against a
// 60 µs kernel (bench/RESULTS.md, h-stencil 2026-11-26). Polling, the
// command and its answer pass through the channels' buffers and neither
// side sleeps. Only with more than one P: on one, a poller would hold the
// processor the other side needs.
//
// The poll lasts 2 ms where there are processors to spare (8 Ps or more),
// long enough to outlast a millisecond kernel: on two H200s (bench/RESULTS.md,
// "Several GPUs, 2026-11-26: the histogram's stall") the caller of a 1 ms
// kernel's launch, polling 50 µs, parked, and woke 55-75 µs after the
// kernel's end (the command log's "back"); its next commands then found the
// command goroutine parked too (a "queue" of 20-200 µs), and the partial's
// read after the kernels, 40 µs when no one parked, took up to 140 µs. The
// two-GPU histogram ran 1.02-1.16 ms with 50 µs (23 to 27 of 30 runs at 1.8x
// one GPU), 1.02-1.07 ms with 2 ms (29 or 30 of 30). Each device then keeps
// up to two threads busy for 2 ms after its last command: on a machine of 8
// cores or more, a price worth the wakes it saves. With fewer, 50 µs.
var spinFor atomic.Int64 // nanoseconds

// AREPL_CUDA_SPIN (a duration) sets it for a process, for measuring.
func init() {
	spinFor.Store(int64(defaultSpin(runtime.GOMAXPROCS(0))))
	if d, err := time.ParseDuration(os.Getenv("AREPL_CUDA_SPIN")); err == nil && d >= 0 {
		spinFor.Store(int64(d))
	}
}

// defaultSpin is the poll for a process of procs Ps.
func defaultSpin(procs int) time.Duration {
	if procs >= 8 {
		return 2 * time.Millisecond
	}
	return 50 * time.Microsecond
}

// SetSpin sets how long the driver's callers and its command goroutine
// poll before they park (0: never poll), for benchmarks to compare.
func SetSpin(d time.Duration) { spinFor.Store(int64(d)) }

// spinRecv receives from c, polling for up to spinFor first; yield lets
// other goroutines run between polls (not on the command goroutine: a
// goroutine locked to its thread that yields parks the thread, the very
// wake this avoids).
// parked reports whether it gave up polling and parked.
func spinRecv[T any](c chan T, yield bool) (v T, parked bool) {
	if d := time.Duration(spinFor.Load()); d > 0 && runtime.GOMAXPROCS(0) > 1 {
		deadline := time.Now().Add(d)
		for i := 0; ; i++ {
			select {
			case v := <-c:
				return v, false
			default:
			}
			if i%64 == 63 {
				if time.Now().After(deadline) {
					break
				}
				if yield {
					runtime.Gosched()
				}
			}
		}
	}
	return <-c, true
}

func (g *GPU) init() error {
	d := g.d
	if r := d.cuInit(0); r != 0 {
		return &NoGPUError{g.err("cuInit", r).Error()}
	}
	var n int32
	if err := g.check("cuDeviceGetCount", d.cuDeviceGetCount(&n)); err != nil {
		return &NoGPUError{err.Error()}
	}
	if n == 0 {
		return &NoGPUError{"the driver reports no CUDA device"}
	}
	if g.ordinal >= int(n) {
		return &NoGPUError{fmt.Sprintf("no CUDA device %d: the driver reports %d", g.ordinal, n)}
	}
	if err := g.check("cuDeviceGet", d.cuDeviceGet(&g.dev, int32(g.ordinal))); err != nil {
		return err
	}
	if ctxFlags != 0 {
		// For measuring (AREPL_CUDA_CTX_FLAGS, e.g. 0x10, keep local memory
		// at its largest size): only before the primary context is active.
		if err := g.check("cuDevicePrimaryCtxSetFlags", d.cuDevicePrimaryCtxSetFlags(g.dev, uint32(ctxFlags))); err != nil {
			return err
		}
	}
	if err := g.check("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain(&g.ctx, g.dev)); err != nil {
		return err
	}
	if err := g.check("cuCtxSetCurrent", d.cuCtxSetCurrent(g.ctx)); err != nil {
		return err
	}
	if err := g.readProps(); err != nil {
		return err
	}
	if err := g.check("cuEventCreate", d.cuEventCreate(&g.start, 0)); err != nil {
		return err
	}
	if err := g.check("cuEventCreate", d.cuEventCreate(&g.stop, 0)); err != nil {
		return err
	}
	if err := g.initPool(); err != nil {
		return err
	}
	g.hold = g.initHold()
	g.staging() // pinned buffers now, not on the first large copy
	return nil
}

func (g *GPU) readProps() error {
	d := g.d
	p := &g.props
	name := make([]byte, 256)
	if err := g.check("cuDeviceGetName", d.cuDeviceGetName(&name[0], int32(len(name)), g.dev)); err != nil {
		return err
	}
	p.Name = cString(&name[0])
	attrs := []struct {
		attr int32
		dst  *int
	}{
		{attrMaxThreadsPerBlock, &p.MaxThreadsPerBlock},
		{attrSharedPerBlock, &p.SharedPerBlock},
		{attrWarpSize, &p.WarpSize},
		{attrRegsPerBlock, &p.RegsPerBlock},
		{attrSMs, &p.SMs},
		{attrL2, &p.L2Bytes},
		{attrMaxThreadsPerSM, &p.MaxThreadsPerSM},
		{attrCCMajor, &p.CC[0]},
		{attrCCMinor, &p.CC[1]},
		{attrSharedPerSM, &p.SharedPerSM},
		{attrRegsPerSM, &p.RegsPerSM},
		{attrSharedPerBlockOptin, &p.SharedPerBlockOptin},
	}
	for _, a := range attrs {
		var v int32
		if err := g.check("cuDeviceGetAttribute", d.cuDeviceGetAttribute(&v, a.attr, g.dev)); err != nil {
			return err
		}
		*a.dst = int(v)
	}
	var total uint64
	if err := g.check("cuDeviceTotalMem_v2", d.cuDeviceTotalMem(&total, g.dev)); err != nil {
		return err
	}
	p.TotalMem = int64(total)
	var v, maj, min int32
	if err := g.check("cuDriverGetVersion", d.cuDriverGetVersion(&v)); err != nil {
		return err
	}
	p.DriverVersion = int(v)
	if r := d.nvrtcVersion(&maj, &min); r != 0 {
		return g.nvrtcErr("nvrtcVersion", r, "")
	}
	p.NVRTCVersion = [2]int{int(maj), int(min)}
	p.DriverPath, p.NVRTCPath = d.cudaPath, d.nvrtcPath
	return nil
}

// err turns a driver result code into an *Error with the driver's own name
// and description of it.
func (g *GPU) err(call string, r int32) error {
	e := &Error{Call: call, Code: r, Name: fmt.Sprintf("CUresult %d", r)}
	var s *byte
	if g.d.cuGetErrorName(r, &s) == 0 {
		e.Name = cString(s)
	}
	if g.d.cuGetErrorString(r, &s) == 0 {
		e.Msg = cString(s)
	}
	return e
}

func (g *GPU) check(call string, r int32) error {
	if r == 0 {
		return nil
	}
	err := g.err(call, r)
	if stickyCodes[r] {
		g.mu.Lock()
		if g.broken == nil {
			g.broken = err
		}
		g.mu.Unlock()
	}
	return err
}

func (g *GPU) nvrtcErr(call string, r int32, log string) error {
	e := &Error{Call: call, Code: r, Name: g.d.nvrtcGetErrorString(r)}
	if log != "" {
		e.Msg = log
	}
	return e
}

// Broken returns the sticky error that made the context unusable, or nil.
func (g *GPU) Broken() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.broken
}

// do runs f on the command goroutine and returns its error; a panic in f
// (a bad argument reaching purego) becomes an error instead of killing the
// loop.
func (g *GPU) do(f func() error) error {
	if err := g.Broken(); err != nil {
		return fmt.Errorf("GPU unusable after an earlier error: %w", err)
	}
	done := make(chan error, 1)
	dt := doLog.begin()
	g.cmds <- func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("cuda: internal error: %v", r)
			}
		}()
		if dt != nil {
			dt.start, dt.cmdParked = time.Now(), g.parked
		}
		err := f()
		if dt != nil {
			dt.end = time.Now()
		}
		done <- err
	}
	err, parked := spinRecv(done, true)
	if dt != nil {
		dt.callerParked = parked
		doLog.finish(g.ordinal, dt)
	}
	return err
}

// Props returns the device's properties.
func (g *GPU) Props() Props { return g.props }

// Ptr is a device address.
type Ptr uint64

// Alloc allocates n bytes of device memory from the pool of pool.go (at
// least one byte, so that empty arrays have a valid address).
func (g *GPU) Alloc(n int64) (Ptr, error) {
	if n < 1 {
		n = 1
	}
	var p uint64
	err := g.do(func() error { return g.alloc0(&p, uint64(n)) })
	return Ptr(p), err
}

// Free releases device memory.
func (g *GPU) Free(p Ptr) error {
	return g.do(func() error { return g.free0(uint64(p)) })
}

// FreeAsync releases device memory without waiting; garbage-collection
// cleanups use it so they never block.
func (g *GPU) FreeAsync(p Ptr) {
	go func() { _ = g.Free(p) }()
}

// HtoD copies n bytes from host memory at src to dst.
func (g *GPU) HtoD(dst Ptr, src unsafe.Pointer, n int64) error {
	if n == 0 {
		return nil
	}
	if n >= stageMin {
		return g.do(func() error { return g.stagedHtoD(uint64(dst), src, n) })
	}
	return g.do(func() error { return g.check("cuMemcpyHtoD_v2", g.d.cuMemcpyHtoD(uint64(dst), src, uint64(n))) })
}

// DtoH copies n bytes from src to host memory at dst.
func (g *GPU) DtoH(dst unsafe.Pointer, src Ptr, n int64) error {
	if n == 0 {
		return nil
	}
	if n >= stageMin {
		return g.do(func() error { return g.stagedDtoH(dst, uint64(src), n) })
	}
	return g.do(func() error { return g.check("cuMemcpyDtoH_v2", g.d.cuMemcpyDtoH(dst, uint64(src), uint64(n))) })
}

// DtoD copies n bytes between device buffers.
func (g *GPU) DtoD(dst, src Ptr, n int64) error {
	if n == 0 {
		return nil
	}
	return g.do(func() error { return g.check("cuMemcpyDtoD_v2", g.d.cuMemcpyDtoD(uint64(dst), uint64(src), uint64(n))) })
}

// FromPeer copies n bytes from src on the GPU from (another device of
// this process) to dst on g, device to device: over NVLink between linked
// GPUs, by the copy engines, never through this host's memory. It is
// issued on g's command goroutine and ordered after the work already
// queued on both devices and before what g queues next (cuMemcpyPeer), so
// a kernel launched after it reads the copy.
func (g *GPU) FromPeer(dst Ptr, from *GPU, src Ptr, n int64) error {
	if n == 0 {
		return nil
	}
	return g.do(func() error {
		return g.check("cuMemcpyPeer", g.d.cuMemcpyPeer(uint64(dst), g.ctx, uint64(src), from.ctx, uint64(n)))
	})
}

// TimeDtoD times reps back-to-back device-to-device copies of n bytes by
// CUDA events, as Launch times a kernel, and returns the time of one: the
// copy that benchmarks compare kernels with, measured the same way they
// are (the host's clock around the copies counted the host's own time).
func (g *GPU) TimeDtoD(dst, src Ptr, n int64, reps int) (time.Duration, error) {
	var d time.Duration
	err := g.do(func() error {
		var err error
		d, err = g.timeQueued("cuMemcpyDtoD", func() error {
			for range reps {
				if err := g.check("cuMemcpyDtoD_v2", g.d.cuMemcpyDtoD(uint64(dst), uint64(src), uint64(n))); err != nil {
					return err
				}
			}
			return nil
		})
		return err
	})
	return d / time.Duration(max(reps, 1)), err
}

// timeQueued, on the command goroutine, times the work enqueue puts on the
// stream by CUDA events and waits for it. The stream is held (hold.go)
// until both events and the work are queued, so that the events bracket
// the GPU's work alone, not the host's time queueing it.
func (g *GPU) timeQueued(what string, enqueue func() error) (time.Duration, error) {
	d := g.d
	release := func() {}
	if g.hold != nil {
		r, err := g.hold.queue(g)
		if err != nil {
			return 0, err
		}
		release = r
		defer release()
	}
	if err := g.check("cuEventRecord", d.cuEventRecord(g.start, 0)); err != nil {
		return 0, err
	}
	if err := enqueue(); err != nil {
		return 0, err
	}
	if err := g.check("cuEventRecord", d.cuEventRecord(g.stop, 0)); err != nil {
		return 0, err
	}
	release()
	if err := g.check("cuEventSynchronize("+what+")", d.cuEventSynchronize(g.stop)); err != nil {
		return 0, err
	}
	var ms float32
	if err := g.check("cuEventElapsedTime", d.cuEventElapsedTime(&ms, g.start, g.stop)); err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * 1e6), nil
}

// Memset sets n bytes at dst to v.
func (g *GPU) Memset(dst Ptr, v byte, n int64) error {
	if n == 0 {
		return nil
	}
	return g.do(func() error { return g.check("cuMemsetD8_v2", g.d.cuMemsetD8(uint64(dst), v, uint64(n))) })
}

// MemInfo returns free and total device memory in bytes.
func (g *GPU) MemInfo() (free, total int64, err error) {
	var f, t uint64
	err = g.do(func() error { return g.check("cuMemGetInfo_v2", g.d.cuMemGetInfo(&f, &t)) })
	return int64(f), int64(t), err
}

// Synchronize waits for all work on the context.
func (g *GPU) Synchronize() error {
	return g.do(func() error { return g.check("cuCtxSynchronize", g.d.cuCtxSynchronize()) })
}

// Module is a loaded cubin.
type Module struct {
	g *GPU
	h uintptr
}

// Function is a kernel of a loaded module.
type Function struct {
	g    *GPU
	h    uintptr
	Name string
}

// LoadModule loads a cubin, or PTX (CompilePTX's), which the driver
// JIT-compiles at JITOptLevel.
func (g *GPU) LoadModule(image []byte) (*Module, error) {
	if len(image) == 0 {
		return nil, errors.New("cuda: empty module image")
	}
	if isPTX(image) {
		return g.loadPTX(image)
	}
	m := &Module{g: g}
	err := g.do(func() error {
		return g.check("cuModuleLoadData", g.d.cuModuleLoadData(&m.h, unsafe.Pointer(&image[0])))
	})
	runtime.KeepAlive(image)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// isPTX tells PTX text from a cubin (an ELF image).
func isPTX(image []byte) bool { return !bytes.HasPrefix(image, []byte("\x7fELF")) }

// JITOptLevel is the ptxas optimisation level (0-4; the driver's default
// is 4) at which LoadModule JIT-compiles PTX; AREPL_JIT_O overrides it.
// Tier 1 wants the kernel soon, not fast: at level 1 the driver's ptxas
// took a fraction of NVRTC's own full-optimisation ptxas run
// (bench/RESULTS.md, "Interactive latency", run 14).
var JITOptLevel = func() int {
	if n, err := strconv.Atoi(os.Getenv("AREPL_JIT_O")); err == nil && n >= 0 && n <= 4 {
		return n
	}
	return 1
}()

// CUjit_option values (cuda.h).
const (
	jitWallTime        = 2 // out: float milliseconds in the value slot
	jitErrorLogBuffer  = 5
	jitErrorLogSize    = 6
	jitOptimizationLvl = 7
)

func (g *GPU) loadPTX(image []byte) (*Module, error) {
	if image[len(image)-1] != 0 {
		image = append(image[:len(image):len(image)], 0) // the driver reads PTX up to a NUL
	}
	m := &Module{g: g}
	errLog := make([]byte, 4096)
	opts := []int32{jitOptimizationLvl, jitWallTime, jitErrorLogBuffer, jitErrorLogSize}
	vals := []uintptr{uintptr(JITOptLevel), 0, uintptr(unsafe.Pointer(&errLog[0])), uintptr(len(errLog))}
	for _, o := range JITExtra {
		opts, vals = append(opts, o.Opt), append(vals, o.Val)
	}
	start := time.Now()
	err := g.do(func() error {
		r := g.d.cuModuleLoadDataEx(&m.h, unsafe.Pointer(&image[0]), uint32(len(opts)), unsafe.Pointer(&opts[0]), unsafe.Pointer(&vals[0]))
		if r == 0 {
			return nil
		}
		err := g.check("cuModuleLoadDataEx", r)
		if msg := strings.TrimSpace(cString(&errLog[0])); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return err
	})
	runtime.KeepAlive(image)
	runtime.KeepAlive(opts)
	runtime.KeepAlive(errLog)
	if compileTrace != "" {
		appendTrace(fmt.Sprintf("jit ptx=%d O%d%s wall=%.1fms jit_wall=%.1fms err=%v\n", len(image), JITOptLevel, jitExtraTrace(),
			float64(time.Since(start))/1e6, math.Float32frombits(uint32(vals[1])), err != nil))
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Unload releases the module.
func (m *Module) Unload() error {
	return m.g.do(func() error { return m.g.check("cuModuleUnload", m.g.d.cuModuleUnload(m.h)) })
}

// Function looks up a kernel by its (extern "C") name.
func (m *Module) Function(name string) (*Function, error) {
	f := &Function{g: m.g, Name: name}
	err := m.g.do(func() error {
		return m.g.check("cuModuleGetFunction("+name+")", m.g.d.cuModuleGetFunction(&f.h, m.h, name))
	})
	if err != nil {
		return nil, err
	}
	if compileTrace != "" {
		traceFunction(f)
	}
	return f, nil
}

// traceFunction appends a kernel's registers and local memory (spills and
// stack) per thread to AREPL_COMPILE_TRACE's file: a kernel with local
// memory makes the driver size a local-memory reservation at its launch.
func traceFunction(f *Function) {
	var regs, local int32
	_ = f.g.do(func() error {
		f.g.d.cuFuncGetAttribute(&regs, funcAttrNumRegs, f.h)
		f.g.d.cuFuncGetAttribute(&local, funcAttrLocalSizeBytes, f.h)
		return nil
	})
	appendTrace(fmt.Sprintf("function %s regs=%d local=%dB\n", f.Name, regs, local))
}

// Occupancy is how many blocks of the given size fit on one SM.
func (f *Function) Occupancy(block int, dynShared int) (int, error) {
	var n int32
	err := f.g.do(func() error {
		return f.g.check("cuOccupancyMaxActiveBlocksPerMultiprocessor",
			f.g.d.cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f.h, int32(block), uint64(dynShared)))
	})
	return int(n), err
}

// Registers is the number of registers per thread the kernel was compiled to.
func (f *Function) Registers() (int, error) {
	var n int32
	err := f.g.do(func() error {
		return f.g.check("cuFuncGetAttribute", f.g.d.cuFuncGetAttribute(&n, funcAttrNumRegs, f.h))
	})
	return int(n), err
}

// SetMaxDynamicShared opts the kernel into more than the default dynamic
// shared memory per block.
func (f *Function) SetMaxDynamicShared(bytes int) error {
	return f.g.do(func() error {
		return f.g.check("cuFuncSetAttribute", f.g.d.cuFuncSetAttribute(f.h, funcAttrMaxDynamicShared, int32(bytes)))
	})
}

// Dim3 is a grid or block shape.
type Dim3 struct{ X, Y, Z uint32 }

// Launch runs the kernel with args (each a Ptr, int64, int32, uint32,
// uint64, float32, float64, or any fixed-size value of up to 8 bytes) and
// returns the kernel time measured by CUDA events, after waiting for it.
// The events bracket the kernel alone, not the host's time launching it
// (hold.go).
func (f *Function) Launch(grid, block Dim3, shared int, args ...any) (time.Duration, error) {
	vals := make([]uint64, len(args))
	ptrs := make([]unsafe.Pointer, len(args))
	for i, a := range args {
		if err := packArg(&vals[i], a); err != nil {
			return 0, fmt.Errorf("cuLaunchKernel(%s): argument %d: %v", f.Name, i, err)
		}
		ptrs[i] = unsafe.Pointer(&vals[i])
	}
	var params unsafe.Pointer
	if len(ptrs) > 0 {
		params = unsafe.Pointer(&ptrs[0])
	}
	g := f.g
	var t time.Duration
	err := g.do(func() error {
		var err error
		t, err = g.timeQueued(f.Name, func() error {
			if testLaunchDelay > 0 {
				time.Sleep(testLaunchDelay)
			}
			return g.check("cuLaunchKernel("+f.Name+")", g.d.cuLaunchKernel(f.h, grid.X, max(grid.Y, 1), max(grid.Z, 1),
				block.X, max(block.Y, 1), max(block.Z, 1), uint32(shared), 0, params, nil))
		})
		return err
	})
	runtime.KeepAlive(vals)
	runtime.KeepAlive(ptrs)
	return t, err
}

// Timer is the pair of CUDA events around a kernel queued by LaunchAsync.
// Its time is read once, when the caller needs the figure (at the end of a
// loop of launches, say), so that the host never waits on each kernel.
type Timer struct {
	g           *GPU
	start, stop uintptr
}

// event takes a timing event from the free list or makes one; on the
// command goroutine.
func (g *GPU) event() (uintptr, error) {
	if n := len(g.evs); n > 0 {
		e := g.evs[n-1]
		g.evs = g.evs[:n-1]
		return e, nil
	}
	var e uintptr
	return e, g.check("cuEventCreate", g.d.cuEventCreate(&e, 0))
}

// LaunchAsync queues the kernel between two events and returns at once,
// without the hold of Launch: in a loop of launches the stream is seldom
// idle, so the events bracket the kernel; on an idle stream they also count
// the host's few microseconds of cuLaunchKernel. Errors of the launch
// itself come back here; errors of the kernel, from whatever waits next.
func (f *Function) LaunchAsync(grid, block Dim3, shared int, args ...any) (*Timer, error) {
	vals := make([]uint64, len(args))
	ptrs := make([]unsafe.Pointer, len(args))
	for i, a := range args {
		if err := packArg(&vals[i], a); err != nil {
			return nil, fmt.Errorf("cuLaunchKernel(%s): argument %d: %v", f.Name, i, err)
		}
		ptrs[i] = unsafe.Pointer(&vals[i])
	}
	var params unsafe.Pointer
	if len(ptrs) > 0 {
		params = unsafe.Pointer(&ptrs[0])
	}
	g := f.g
	t := &Timer{g: g}
	err := g.do(func() error {
		var err error
		if t.start, err = g.event(); err != nil {
			return err
		}
		if t.stop, err = g.event(); err != nil {
			return err
		}
		if err := g.check("cuEventRecord", g.d.cuEventRecord(t.start, 0)); err != nil {
			return err
		}
		if err := g.check("cuLaunchKernel("+f.Name+")", g.d.cuLaunchKernel(f.h, grid.X, max(grid.Y, 1), max(grid.Z, 1),
			block.X, max(block.Y, 1), max(block.Z, 1), uint32(shared), 0, params, nil)); err != nil {
			return err
		}
		return g.check("cuEventRecord", g.d.cuEventRecord(t.stop, 0))
	})
	runtime.KeepAlive(vals) // the driver copies the arguments at the launch
	runtime.KeepAlive(ptrs)
	if err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// Elapsed waits for the timed kernel and returns its time; the events go
// back to the free list.
func (t *Timer) Elapsed() (time.Duration, error) {
	var ms float32
	g := t.g
	err := g.do(func() error {
		defer t.release0()
		if err := g.check("cuEventSynchronize", g.d.cuEventSynchronize(t.stop)); err != nil {
			return err
		}
		return g.check("cuEventElapsedTime", g.d.cuEventElapsedTime(&ms, t.start, t.stop))
	})
	return time.Duration(float64(ms) * 1e6), err
}

// Release gives the events back without reading them (a Run cut short).
func (t *Timer) Release() {
	_ = t.g.do(func() error { t.release0(); return nil })
}

func (t *Timer) release0() {
	for _, e := range []uintptr{t.start, t.stop} {
		if e != 0 {
			t.g.evs = append(t.g.evs, e)
		}
	}
	t.start, t.stop = 0, 0
}

// packArg stores a kernel argument in the low bytes of one 8-byte slot
// (little-endian, as on every CUDA host).
func packArg(dst *uint64, a any) error {
	switch v := a.(type) {
	case Ptr:
		*dst = uint64(v)
	case int64:
		*dst = uint64(v)
	case uint64:
		*dst = v
	case int32:
		*dst = uint64(uint32(v))
	case uint32:
		*dst = uint64(v)
	case int16:
		*dst = uint64(uint16(v))
	case uint16:
		*dst = uint64(v)
	case int8:
		*dst = uint64(uint8(v))
	case uint8:
		*dst = uint64(v)
	case bool:
		if v {
			*dst = 1
		}
	case float32:
		*(*float32)(unsafe.Pointer(dst)) = v
	case float64:
		*(*float64)(unsafe.Pointer(dst)) = v
	default:
		return fmt.Errorf("unsupported kernel argument type %T", a)
	}
	return nil
}
