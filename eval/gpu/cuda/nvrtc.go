package cuda

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Compile compiles CUDA C source with NVRTC for the device's architecture
// and returns the cubin. A compile error carries NVRTC's log.
func (g *GPU) Compile(src, name string, opts ...string) ([]byte, error) {
	opts = append([]string{"-arch=" + g.props.Arch(), "-default-device", "-std=c++17"}, opts...)
	// NVRTC wants char**: NUL-terminated copies and an array of pointers to
	// them, kept alive across the call.
	bufs := make([][]byte, len(opts))
	ptrs := make([]*byte, len(opts))
	for i, o := range opts {
		bufs[i] = append([]byte(o), 0)
		ptrs[i] = &bufs[i][0]
	}
	if err := g.Broken(); err != nil {
		return nil, fmt.Errorf("GPU unusable after an earlier error: %w", err)
	}
	// NVRTC needs no context: it runs on the caller's goroutine, so that a
	// compile (tens to hundreds of milliseconds) never holds up the command
	// goroutine's copies and launches, and a background warm-up compile
	// (New) can overlap them.
	var cubin []byte
	err := func() error {
		d := g.d
		var prog uintptr
		if r := d.nvrtcCreateProgram(&prog, src, name, 0, nil, nil); r != 0 {
			return g.nvrtcErr("nvrtcCreateProgram", r, "")
		}
		defer d.nvrtcDestroyProgram(&prog)
		if r := d.nvrtcCompileProgram(prog, int32(len(ptrs)), unsafe.Pointer(&ptrs[0])); r != 0 {
			return g.nvrtcErr("nvrtcCompileProgram", r, programLog(d, prog))
		}
		var n uint64
		if r := d.nvrtcGetCUBINSize(prog, &n); r != 0 {
			return g.nvrtcErr("nvrtcGetCUBINSize", r, "")
		}
		cubin = make([]byte, n)
		if n > 0 {
			if r := d.nvrtcGetCUBIN(prog, &cubin[0]); r != 0 {
				return g.nvrtcErr("nvrtcGetCUBIN", r, "")
			}
		}
		return nil
	}()
	runtime.KeepAlive(bufs)
	runtime.KeepAlive(ptrs)
	return cubin, err
}

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
