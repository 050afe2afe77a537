package cuda

import (
	"fmt"
	"sync"
)

// Several devices. Each GPU has its own command goroutine locked to its own
// OS thread, on which that device's primary context is current, so a
// session that drives several devices drives each from its own thread, as
// NCCL's one-thread-per-device model expects.

var (
	devMu   sync.Mutex
	devGPUs = map[int]*GPU{}
)

// OpenDevice opens the device with the given ordinal (0 is Open's device);
// later calls return the same GPU.
func OpenDevice(ordinal int) (*GPU, error) {
	if ordinal == 0 {
		return Open()
	}
	if ordinal < 0 {
		return nil, &NoGPUError{fmt.Sprintf("no CUDA device %d", ordinal)}
	}
	devMu.Lock()
	defer devMu.Unlock()
	if g := devGPUs[ordinal]; g != nil {
		return g, nil
	}
	g, err := open0(ordinal)
	if err != nil {
		return nil, err
	}
	devGPUs[ordinal] = g
	return g, nil
}

// DeviceCount is the number of CUDA devices the driver reports.
func DeviceCount() (int, error) {
	g, err := Open()
	if err != nil {
		return 0, err
	}
	var n int32
	err = g.do(func() error { return g.check("cuDeviceGetCount", g.d.cuDeviceGetCount(&n)) })
	return int(n), err
}

// Ordinal is the device's ordinal.
func (g *GPU) Ordinal() int { return g.ordinal }

// Do runs f on the device's command thread, where its context is current:
// libraries that work on the current device (NCCL) are called through it.
func (g *GPU) Do(f func() error) error { return g.do(f) }

// SyncInThread waits for the device's work; call it inside Do.
func (g *GPU) SyncInThread() error {
	return g.check("cuCtxSynchronize", g.d.cuCtxSynchronize())
}
