package cuda

import (
	"strings"
	"testing"
	"time"
	"unsafe"
)

// TestOpen checks both outcomes: on a machine without a driver Open fails
// with a *NoGPUError whose text starts "no GPU: "; with one, the properties
// read from the device are plausible.
func TestOpen(t *testing.T) {
	g, err := Open()
	if err != nil {
		if _, ok := err.(*NoGPUError); !ok || !strings.HasPrefix(err.Error(), "no GPU: ") {
			t.Fatalf("Open without a GPU: got %T %q, want *NoGPUError starting \"no GPU: \"", err, err)
		}
		return
	}
	p := g.Props()
	if p.SMs <= 0 || p.WarpSize != 32 || p.MaxThreadsPerBlock < 256 || p.SharedPerBlock <= 0 || p.RegsPerBlock <= 0 {
		t.Fatalf("implausible device properties: %+v", p)
	}
	t.Logf("device: %+v", p)
}

// openOrCheck opens the GPU; on a machine without one it checks that Open
// says so with a *NoGPUError, which is then all a device test can check,
// and returns nil.
func openOrCheck(t *testing.T) *GPU {
	t.Helper()
	g, err := Open()
	if err != nil {
		if _, ok := err.(*NoGPUError); !ok {
			t.Fatalf("Open without a GPU: got %T %q, want *NoGPUError", err, err)
		}
		return nil
	}
	return g
}

func TestPackArg(t *testing.T) {
	cases := []struct {
		arg  any
		want uint64
	}{
		{int32(-1), 0xffffffff},
		{int64(-1), 0xffffffffffffffff},
		{Ptr(0x1234), 0x1234},
		{uint8(200), 200},
		{true, 1},
		{float32(1), 0x3f800000},
		{float64(1), 0x3ff0000000000000},
	}
	for _, c := range cases {
		var got uint64
		if err := packArg(&got, c.arg); err != nil || got != c.want {
			t.Errorf("packArg(%T %v) = %#x, %v; want %#x", c.arg, c.arg, got, err, c.want)
		}
	}
	var v uint64
	if err := packArg(&v, "x"); err == nil {
		t.Error("packArg(string): want an error")
	}
}

// TestLaunchTimeIsKernelTime checks that a launch's time leaves out the
// host: with the host stalled 20 ms between the first event and the
// launch, an empty kernel still times at well under a millisecond (without
// the stream hold of hold.go it times at 20 ms).
func TestLaunchTimeIsKernelTime(t *testing.T) {
	g := openOrCheck(t)
	if g == nil {
		return
	}
	if g.hold == nil {
		t.Fatal("the stream hold did not load")
	}
	src := `extern "C" __global__ void empty() {}`
	image, err := g.Compile(src, "empty.cu")
	if err != nil {
		t.Fatal(err)
	}
	m, err := g.LoadModule(image)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Unload()
	f, err := m.Function("empty")
	if err != nil {
		t.Fatal(err)
	}
	testLaunchDelay = 20 * time.Millisecond
	defer func() { testLaunchDelay = 0 }()
	for i := 0; i < 3; i++ {
		d, err := f.Launch(Dim3{X: 1}, Dim3{X: 32}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if d > time.Millisecond {
			t.Fatalf("launch %d: an empty kernel timed at %v with the host stalled 20 ms: the events count the host", i, d)
		}
		t.Logf("launch %d: %v", i, d)
	}
}

// TestTimeDtoD checks that copies timed by events take a time between the
// bandwidth bounds of any GPU this runs on: a 256 MiB copy moves 512 MiB,
// which takes more than 50 µs below 10 TB/s and less than 100 ms above
// 5 GB/s.
func TestTimeDtoD(t *testing.T) {
	g := openOrCheck(t)
	if g == nil {
		return
	}
	const n = 256 << 20
	src, err := g.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Free(src)
	dst, err := g.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Free(dst)
	d, err := g.TimeDtoD(dst, src, n, 5)
	if err != nil {
		t.Fatal(err)
	}
	if d < 50*time.Microsecond || d > 100*time.Millisecond {
		t.Fatalf("a 256 MiB copy timed at %v", d)
	}
	t.Logf("256 MiB copy: %v (%.0f GB/s)", d, 2*float64(n)/d.Seconds()/1e9)
}

// TestPool checks the memory pool of pool.go: freed memory comes back to
// the next allocation of its size (the pool kept it mapped), and an
// allocation that only fits once the pool has returned its unused memory to
// the driver still succeeds (0.6 then 0.7 of the device's memory) and is
// usable.
func TestPool(t *testing.T) {
	g := openOrCheck(t)
	if g == nil {
		return
	}
	if g.pool == 0 {
		t.Fatalf("device %s has no memory pool", g.Props().Name)
	}
	const n = 256 << 20
	a, err := g.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Free(a); err != nil {
		t.Fatal(err)
	}
	b, err := g.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Free(b); err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("freed %d bytes at %#x, the next allocation of that size got %#x: the pool did not keep them", n, a, b)
	}

	total := g.Props().TotalMem
	big, err := g.Alloc(total / 10 * 6)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Free(big); err != nil {
		t.Fatal(err)
	}
	bigger, err := g.Alloc(total / 10 * 7)
	if err != nil {
		t.Fatalf("0.7 of the device's memory after freeing 0.6: %v", err)
	}
	defer g.Free(bigger)
	if err := g.Memset(bigger+Ptr(total/10*7-16), 7, 16); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 16)
	if err := g.DtoH(unsafe.Pointer(&got[0]), bigger+Ptr(total/10*7-16), 16); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != 7 {
			t.Fatalf("byte %d of the last 16 of the 0.7 allocation: %d, want 7", i, v)
		}
	}
}

// TestStagedCopies round-trips sizes around the staging thresholds (below
// stageMin, one chunk, several chunks with a ragged tail, more chunks than
// buffers) and checks every byte, and that a parallel host copy is exact.
func TestStagedCopies(t *testing.T) {
	src := make([]byte, 3*stageChunk/2)
	for i := range src {
		src[i] = byte(i*7 + i>>13)
	}
	dst := make([]byte, len(src))
	parallelCopy(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), int64(len(src)))
	if string(dst) != string(src) {
		t.Fatal("parallelCopy changed the bytes")
	}
	g := openOrCheck(t)
	if g == nil {
		return
	}
	for _, n := range []int64{stageMin - 1, stageMin, stageChunk, stageChunk*2 + 12345, stageChunk*(stageBufs+2) + 7} {
		in := make([]byte, n)
		for i := range in {
			in[i] = byte(i*13 + i>>17)
		}
		p, err := g.Alloc(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.HtoD(p, unsafe.Pointer(&in[0]), n); err != nil {
			t.Fatal(err)
		}
		out := make([]byte, n)
		if err := g.DtoH(unsafe.Pointer(&out[0]), p, n); err != nil {
			t.Fatal(err)
		}
		if err := g.Free(p); err != nil {
			t.Fatal(err)
		}
		for i := range in {
			if in[i] != out[i] {
				t.Fatalf("%d bytes: byte %d came back %d, want %d", n, i, out[i], in[i])
			}
		}
	}
}
