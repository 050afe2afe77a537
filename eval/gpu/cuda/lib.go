package cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// driver holds the entry points of libcuda.so.1 and libnvrtc.so. Every
// field is filled by load; a missing symbol makes load fail, so callers never
// see a nil function.
type driver struct {
	cuInit                                      func(flags uint32) int32
	cuDriverGetVersion                          func(v *int32) int32
	cuDeviceGetCount                            func(n *int32) int32
	cuDeviceGet                                 func(dev *int32, ordinal int32) int32
	cuDeviceGetName                             func(name *byte, n int32, dev int32) int32
	cuDeviceGetAttribute                        func(v *int32, attr int32, dev int32) int32
	cuDeviceTotalMem                            func(b *uint64, dev int32) int32
	cuDevicePrimaryCtxRetain                    func(ctx *uintptr, dev int32) int32
	cuDevicePrimaryCtxRelease                   func(dev int32) int32
	cuDevicePrimaryCtxSetFlags                  func(dev int32, flags uint32) int32
	cuCtxSetCurrent                             func(ctx uintptr) int32
	cuCtxSynchronize                            func() int32
	cuMemAlloc                                  func(p *uint64, n uint64) int32
	cuMemFree                                   func(p uint64) int32
	cuMemAllocAsync                             func(p *uint64, n uint64, stream uintptr) int32
	cuMemFreeAsync                              func(p uint64, stream uintptr) int32
	cuDeviceGetDefaultMemPool                   func(pool *uintptr, dev int32) int32
	cuMemPoolSetAttribute                       func(pool uintptr, attr int32, v unsafe.Pointer) int32
	cuMemPoolTrimTo                             func(pool uintptr, keep uint64) int32
	cuMemcpyHtoD                                func(dst uint64, src unsafe.Pointer, n uint64) int32
	cuMemcpyDtoH                                func(dst unsafe.Pointer, src uint64, n uint64) int32
	cuMemcpyDtoD                                func(dst, src uint64, n uint64) int32
	cuMemcpyPeer                                func(dst uint64, dstCtx uintptr, src uint64, srcCtx uintptr, n uint64) int32
	cuMemcpyHtoDAsync                           func(dst uint64, src unsafe.Pointer, n uint64, stream uintptr) int32
	cuMemcpyDtoHAsync                           func(dst unsafe.Pointer, src uint64, n uint64, stream uintptr) int32
	cuMemsetD8                                  func(dst uint64, v uint8, n uint64) int32
	cuMemGetInfo                                func(free, total *uint64) int32
	cuMemHostAlloc                              func(p *unsafe.Pointer, n uint64, flags uint32) int32
	cuMemHostGetDevicePointer                   func(d *uint64, p unsafe.Pointer, flags uint32) int32
	cuModuleLoadData                            func(m *uintptr, image unsafe.Pointer) int32
	cuModuleLoadDataEx                          func(m *uintptr, image unsafe.Pointer, n uint32, opts, vals unsafe.Pointer) int32
	cuModuleUnload                              func(m uintptr) int32
	cuModuleGetFunction                         func(f *uintptr, m uintptr, name string) int32
	cuFuncSetAttribute                          func(f uintptr, attr int32, v int32) int32
	cuFuncGetAttribute                          func(v *int32, attr int32, f uintptr) int32
	cuOccupancyMaxActiveBlocksPerMultiprocessor func(n *int32, f uintptr, block int32, smem uint64) int32
	cuLaunchKernel                              func(f uintptr, gx, gy, gz, bx, by, bz uint32, smem uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32
	cuEventCreate                               func(e *uintptr, flags uint32) int32
	cuEventRecord                               func(e uintptr, stream uintptr) int32
	cuEventSynchronize                          func(e uintptr) int32
	cuEventElapsedTime                          func(ms *float32, start, end uintptr) int32
	cuEventDestroy                              func(e uintptr) int32
	cuGetErrorName                              func(res int32, s **byte) int32
	cuGetErrorString                            func(res int32, s **byte) int32

	nvrtcVersion           func(major, minor *int32) int32
	nvrtcCreateProgram     func(p *uintptr, src string, name string, nh int32, headers, names unsafe.Pointer) int32
	nvrtcCompileProgram    func(p uintptr, nopt int32, opts unsafe.Pointer) int32
	nvrtcGetCUBINSize      func(p uintptr, n *uint64) int32
	nvrtcGetCUBIN          func(p uintptr, buf *byte) int32
	nvrtcGetPTXSize        func(p uintptr, n *uint64) int32
	nvrtcGetPTX            func(p uintptr, buf *byte) int32
	nvrtcGetProgramLogSize func(p uintptr, n *uint64) int32
	nvrtcGetProgramLog     func(p uintptr, buf *byte) int32
	nvrtcDestroyProgram    func(p *uintptr) int32
	nvrtcGetErrorString    func(res int32) string

	cudaPath, nvrtcPath string
}

// symbol binds one C function to a Go function variable.
type symbol struct {
	fptr any
	name string
}

func (d *driver) cudaSymbols() []symbol {
	return []symbol{
		{&d.cuInit, "cuInit"},
		{&d.cuDriverGetVersion, "cuDriverGetVersion"},
		{&d.cuDeviceGetCount, "cuDeviceGetCount"},
		{&d.cuDeviceGet, "cuDeviceGet"},
		{&d.cuDeviceGetName, "cuDeviceGetName"},
		{&d.cuDeviceGetAttribute, "cuDeviceGetAttribute"},
		{&d.cuDeviceTotalMem, "cuDeviceTotalMem_v2"},
		{&d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
		{&d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
		{&d.cuDevicePrimaryCtxSetFlags, "cuDevicePrimaryCtxSetFlags_v2"},
		{&d.cuCtxSetCurrent, "cuCtxSetCurrent"},
		{&d.cuCtxSynchronize, "cuCtxSynchronize"},
		{&d.cuMemAlloc, "cuMemAlloc_v2"},
		{&d.cuMemFree, "cuMemFree_v2"},
		{&d.cuMemAllocAsync, "cuMemAllocAsync"},
		{&d.cuMemFreeAsync, "cuMemFreeAsync"},
		{&d.cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool"},
		{&d.cuMemPoolSetAttribute, "cuMemPoolSetAttribute"},
		{&d.cuMemPoolTrimTo, "cuMemPoolTrimTo"},
		{&d.cuMemcpyHtoD, "cuMemcpyHtoD_v2"},
		{&d.cuMemcpyDtoH, "cuMemcpyDtoH_v2"},
		{&d.cuMemcpyDtoD, "cuMemcpyDtoD_v2"},
		{&d.cuMemcpyPeer, "cuMemcpyPeer"},
		{&d.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"},
		{&d.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"},
		{&d.cuMemsetD8, "cuMemsetD8_v2"},
		{&d.cuMemGetInfo, "cuMemGetInfo_v2"},
		{&d.cuMemHostAlloc, "cuMemHostAlloc"},
		{&d.cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"},
		{&d.cuModuleLoadData, "cuModuleLoadData"},
		{&d.cuModuleLoadDataEx, "cuModuleLoadDataEx"},
		{&d.cuModuleUnload, "cuModuleUnload"},
		{&d.cuModuleGetFunction, "cuModuleGetFunction"},
		{&d.cuFuncSetAttribute, "cuFuncSetAttribute"},
		{&d.cuFuncGetAttribute, "cuFuncGetAttribute"},
		{&d.cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor"},
		{&d.cuLaunchKernel, "cuLaunchKernel"},
		{&d.cuEventCreate, "cuEventCreate"},
		{&d.cuEventRecord, "cuEventRecord"},
		{&d.cuEventSynchronize, "cuEventSynchronize"},
		{&d.cuEventElapsedTime, "cuEventElapsedTime"},
		{&d.cuEventDestroy, "cuEventDestroy_v2"},
		{&d.cuGetErrorName, "cuGetErrorName"},
		{&d.cuGetErrorString, "cuGetErrorString"},
	}
}

func (d *driver) nvrtcSymbols() []symbol {
	return []symbol{
		{&d.nvrtcVersion, "nvrtcVersion"},
		{&d.nvrtcCreateProgram, "nvrtcCreateProgram"},
		{&d.nvrtcCompileProgram, "nvrtcCompileProgram"},
		{&d.nvrtcGetCUBINSize, "nvrtcGetCUBINSize"},
		{&d.nvrtcGetCUBIN, "nvrtcGetCUBIN"},
		{&d.nvrtcGetPTXSize, "nvrtcGetPTXSize"},
		{&d.nvrtcGetPTX, "nvrtcGetPTX"},
		{&d.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize"},
		{&d.nvrtcGetProgramLog, "nvrtcGetProgramLog"},
		{&d.nvrtcDestroyProgram, "nvrtcDestroyProgram"},
		{&d.nvrtcGetErrorString, "nvrtcGetErrorString"},
	}
}

// cudaCandidates lists where libcuda.so.1 may be: the loader path first (the
// driver installs it there), then the usual driver folders.
func cudaCandidates() []string {
	return []string{
		"libcuda.so.1",
		"/usr/lib/x86_64-linux-gnu/libcuda.so.1",
		"/usr/lib64/libcuda.so.1",
		"/usr/local/nvidia/lib64/libcuda.so.1",
		"/usr/lib/wsl/lib/libcuda.so.1",
	}
}

// nvrtcCandidates lists NVRTC libraries: $CUDA_HOME, /usr/local/cuda*, then
// the loader path. Within a folder the newest version comes first.
func nvrtcCandidates() []string {
	var dirs []string
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if h := os.Getenv(env); h != "" {
			dirs = append(dirs, filepath.Join(h, "lib64"), filepath.Join(h, "lib"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/lib64")
	if more, err := filepath.Glob("/usr/local/cuda-*/lib64"); err == nil {
		sort.Sort(sort.Reverse(sort.StringSlice(more)))
		dirs = append(dirs, more...)
	}
	var out []string
	for _, d := range dirs {
		libs, _ := filepath.Glob(filepath.Join(d, "libnvrtc.so*"))
		var keep []string
		for _, l := range libs {
			if !strings.Contains(filepath.Base(l), "builtins") && !strings.Contains(filepath.Base(l), "alt") {
				keep = append(keep, l)
			}
		}
		sort.Sort(sort.Reverse(sort.StringSlice(keep)))
		out = append(out, keep...)
	}
	return append(out, "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12")
}

// open returns the first library of paths that dlopen accepts.
func open(paths []string) (uintptr, string, error) {
	var first error
	for _, p := range paths {
		h, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err == nil {
			return h, p, nil
		}
		if first == nil {
			first = err
		}
	}
	return 0, "", first
}

func bind(h uintptr, syms []symbol) error {
	for _, s := range syms {
		p, err := purego.Dlsym(h, s.name)
		if err != nil || p == 0 {
			return fmt.Errorf("symbol %s missing", s.name)
		}
		purego.RegisterFunc(s.fptr, p)
	}
	return nil
}

// load opens the driver and NVRTC. Its error says which one is missing.
func load() (*driver, error) {
	d := &driver{}
	h, path, err := open(cudaCandidates())
	if err != nil {
		return nil, fmt.Errorf("libcuda.so.1 not found (%v)", err)
	}
	d.cudaPath = path
	if err := bind(h, d.cudaSymbols()); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	h, path, err = open(nvrtcCandidates())
	if err != nil {
		return nil, fmt.Errorf("NVRTC (libnvrtc.so) not found in $CUDA_HOME, /usr/local/cuda*/lib64 or the loader path (%v)", err)
	}
	d.nvrtcPath = path
	if err := bind(h, d.nvrtcSymbols()); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return d, nil
}

// cString reads a NUL-terminated string owned by the C library.
func cString(p *byte) string {
	if p == nil {
		return ""
	}
	var b []byte
	for i := 0; ; i++ {
		c := *(*byte)(unsafe.Add(unsafe.Pointer(p), i))
		if c == 0 {
			return string(b)
		}
		b = append(b, c)
	}
}
