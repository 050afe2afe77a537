package cuda

import (
	"sync/atomic"
	"time"
	"unsafe"
)

// A launch is timed by two events around it on the stream. Recorded on an
// idle GPU, the first event completes at once, and the GPU then waits for
// the host to finish cuLaunchKernel (microseconds, more through purego) —
// a wait the events count as kernel time. For a 70 µs histogram that was a
// quarter of the figure, and peers timed over many back-to-back calls do
// not pay it. So, as NVIDIA's nvbench does, Launch first queues a one-thread
// kernel that holds the stream until the host has queued the event, the
// kernel and the second event, then releases it by writing a word of
// mapped host memory: the events then bracket the kernel alone.
//
// The hold kernel is PTX, loaded by the driver (no NVRTC compile), and it
// gives up after a second, so a host that never releases it cannot hang the
// GPU.
const holdPTX = `.version 7.0
.target sm_70
.address_size 64

.visible .entry ar_hold(.param .u64 ar_hold_flag, .param .u32 ar_hold_gen)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [ar_hold_flag];
	ld.param.u32 	%r1, [ar_hold_gen];
	mov.u64 	%rd2, %globaltimer;
$L_wait:
	ld.volatile.global.u32 	%r2, [%rd1];
	setp.eq.u32 	%p1, %r2, %r1;
	@%p1 bra 	$L_done;
	mov.u64 	%rd3, %globaltimer;
	sub.u64 	%rd4, %rd3, %rd2;
	setp.gt.u64 	%p2, %rd4, 1000000000;
	@%p2 bra 	$L_done;
	nanosleep.u32 	100;
	bra.uni 	$L_wait;
$L_done:
	ret;
}
`

// cuMemHostAlloc flag: map the allocation into the device's address space.
const memHostAllocDeviceMap = 0x02

// hold is the stream-holding kernel and the host word that releases it.
type hold struct {
	mod, fn uintptr
	flag    unsafe.Pointer // pinned host word, mapped
	dflag   uint64         // its device address
	gen     uint32         // the value the next hold waits for
}

// initHold loads the hold kernel and its flag word; if the driver refuses
// either (it JITs the PTX, and mapped host memory can be turned off),
// launches are timed without a hold.
func (g *GPU) initHold() *hold {
	d := g.d
	h := &hold{}
	src := append([]byte(holdPTX), 0)
	if d.cuModuleLoadData(&h.mod, unsafe.Pointer(&src[0])) != 0 {
		return nil
	}
	if d.cuModuleGetFunction(&h.fn, h.mod, "ar_hold") != 0 ||
		d.cuMemHostAlloc(&h.flag, 4, memHostAllocDeviceMap) != 0 {
		d.cuModuleUnload(h.mod)
		return nil
	}
	if d.cuMemHostGetDevicePointer(&h.dflag, h.flag, 0) != 0 {
		d.cuModuleUnload(h.mod)
		return nil
	}
	atomic.StoreUint32((*uint32)(h.flag), 0)
	return h
}

// queue launches the hold kernel on the default stream and returns the
// function that releases it (idempotent), or an error from the launch.
func (h *hold) queue(g *GPU) (release func(), err error) {
	h.gen++
	gen := h.gen
	vals := [2]uint64{h.dflag, uint64(gen)}
	ptrs := [2]unsafe.Pointer{unsafe.Pointer(&vals[0]), unsafe.Pointer(&vals[1])}
	r := g.d.cuLaunchKernel(h.fn, 1, 1, 1, 1, 1, 1, 0, 0, unsafe.Pointer(&ptrs[0]), nil)
	if err := g.check("cuLaunchKernel(ar_hold)", r); err != nil {
		return nil, err
	}
	return func() { atomic.StoreUint32((*uint32)(h.flag), gen) }, nil
}

// testLaunchDelay, when set by a test, stalls Launch between its first
// event and the kernel's launch, as a slow host would.
var testLaunchDelay time.Duration
