// Package nccl binds NVIDIA's collective library, libnccl.so.2, at run time
// with purego, as package cuda binds the driver: the binary builds with
// CGO_ENABLED=0 and runs where NCCL is absent (Load then returns an error
// value that says so, and only multi-device sessions need it).
//
// The package knows nothing of arepl's values: buffers are device addresses
// (uint64) and streams are CUDA stream handles, so that the caller (package
// gpu) decides on which device thread each call runs. NCCL's collectives
// are asynchronous: they enqueue work on the stream and return.
//
// NVLink SHARP (NVLS) multicast is always off: Load sets NCCL_NVLS_ENABLE=0
// in the process environment before the library is opened, since NCCL reads
// it when it initialises. Multicast objects can put a host's shared GPUs out
// of service; nothing in arepl creates them (a test greps the tree for the
// driver's multicast call).
//
// ncclCommInitRank takes the 128-byte ncclUniqueId by value, which on
// amd64 is 16 stack slots, more than purego passes; InitRank therefore
// calls ncclCommInitRankScalable (NCCL 2.23 and later) with one id, which
// takes the ids by pointer and means the same.
package nccl

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// UniqueID is NCCL's bootstrap handle (ncclUniqueId): rank 0 makes it with
// GetUniqueID and every rank of the communicator needs the same bytes.
type UniqueID [128]byte

// Comm is a communicator (ncclComm_t).
type Comm uintptr

// DataType is ncclDataType_t.
type DataType int32

// NCCL's element types.
const (
	Int8    DataType = 0
	Uint8   DataType = 1
	Int32   DataType = 2
	Uint32  DataType = 3
	Int64   DataType = 4
	Uint64  DataType = 5
	Float16 DataType = 6
	Float32 DataType = 7
	Float64 DataType = 8
)

// RedOp is ncclRedOp_t.
type RedOp int32

// NCCL's built-in reduction operators.
const (
	Sum  RedOp = 0
	Prod RedOp = 1
	Max  RedOp = 2
	Min  RedOp = 3
)

// Error is a failed NCCL call.
type Error struct {
	Call string
	Code int32
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s (ncclResult %d)", e.Call, e.Msg, e.Code) }

// ErrNoNCCL wraps every Load failure.
var ErrNoNCCL = errors.New("NCCL (libnccl.so.2) not available")

// Lib is the loaded library.
type Lib struct {
	Path string

	getVersion       func(v *int32) int32
	getUniqueID      func(id *UniqueID) int32
	commInitAll      func(comms *Comm, n int32, devs *int32) int32
	commInitScalable func(comm *Comm, nranks, rank, nID int32, ids *UniqueID, config unsafe.Pointer) int32
	commDestroy      func(c Comm) int32
	allReduce        func(send, recv uint64, count uint64, t DataType, op RedOp, c Comm, stream uintptr) int32
	allGather        func(send, recv uint64, count uint64, t DataType, c Comm, stream uintptr) int32
	reduce           func(send, recv uint64, count uint64, t DataType, op RedOp, root int32, c Comm, stream uintptr) int32
	broadcast        func(send, recv uint64, count uint64, t DataType, root int32, c Comm, stream uintptr) int32
	groupStart       func() int32
	groupEnd         func() int32
	getErrorString   func(r int32) string
}

var (
	loadOnce sync.Once
	loaded   *Lib
	loadErr  error
)

// candidates are where NCCL is looked for: $NCCL_LIBRARY first, then the
// loader path (Debian and NVIDIA's packages put it in
// /usr/lib/x86_64-linux-gnu).
func candidates() []string {
	var out []string
	if p := os.Getenv("NCCL_LIBRARY"); p != "" {
		out = append(out, p)
	}
	return append(out, "libnccl.so.2", "libnccl.so", "/usr/lib/x86_64-linux-gnu/libnccl.so.2")
}

// DisableNVLS sets NCCL_NVLS_ENABLE=0 in the environment. Load calls it
// before opening the library; callers that start NCCL some other way (a
// peer framework in the same process) call it first themselves.
func DisableNVLS() { os.Setenv("NCCL_NVLS_ENABLE", "0") }

// Load opens NCCL once per process; later calls return the same result.
func Load() (*Lib, error) {
	loadOnce.Do(func() { loaded, loadErr = load() })
	return loaded, loadErr
}

func load() (*Lib, error) {
	DisableNVLS()
	var h uintptr
	var path string
	var first error
	for _, p := range candidates() {
		hh, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err == nil {
			h, path = hh, p
			break
		}
		if first == nil {
			first = err
		}
	}
	if h == 0 {
		return nil, fmt.Errorf("%w: %v", ErrNoNCCL, first)
	}
	l := &Lib{Path: path}
	syms := []struct {
		fptr any
		name string
	}{
		{&l.getVersion, "ncclGetVersion"},
		{&l.getUniqueID, "ncclGetUniqueId"},
		{&l.commInitAll, "ncclCommInitAll"},
		{&l.commInitScalable, "ncclCommInitRankScalable"},
		{&l.commDestroy, "ncclCommDestroy"},
		{&l.allReduce, "ncclAllReduce"},
		{&l.allGather, "ncclAllGather"},
		{&l.reduce, "ncclReduce"},
		{&l.broadcast, "ncclBroadcast"},
		{&l.groupStart, "ncclGroupStart"},
		{&l.groupEnd, "ncclGroupEnd"},
		{&l.getErrorString, "ncclGetErrorString"},
	}
	for _, s := range syms {
		p, err := purego.Dlsym(h, s.name)
		if err != nil || p == 0 {
			return nil, fmt.Errorf("%w: %s has no %s (NCCL 2.23 or later is needed)", ErrNoNCCL, path, s.name)
		}
		purego.RegisterFunc(s.fptr, p)
	}
	return l, nil
}

func (l *Lib) check(call string, r int32) error {
	if r == 0 {
		return nil
	}
	return &Error{Call: call, Code: r, Msg: l.getErrorString(r)}
}

// Version is NCCL's version code (e.g. 22805 for 2.28.5).
func (l *Lib) Version() (int, error) {
	var v int32
	err := l.check("ncclGetVersion", l.getVersion(&v))
	return int(v), err
}

// GetUniqueID makes a bootstrap id (rank 0 calls it, once per communicator).
func (l *Lib) GetUniqueID() (UniqueID, error) {
	var id UniqueID
	err := l.check("ncclGetUniqueId", l.getUniqueID(&id))
	return id, err
}

// InitAll creates one communicator per device ordinal of this process
// (ncclCommInitAll). Call it on a goroutine locked to its OS thread: NCCL
// switches the thread's current device while it works.
func (l *Lib) InitAll(devs []int) ([]Comm, error) {
	if len(devs) == 0 {
		return nil, errors.New("ncclCommInitAll: no devices")
	}
	comms := make([]Comm, len(devs))
	ds := make([]int32, len(devs))
	for i, d := range devs {
		ds[i] = int32(d)
	}
	err := l.check("ncclCommInitAll", l.commInitAll(&comms[0], int32(len(devs)), &ds[0]))
	return comms, err
}

// InitRank joins rank of an nranks-rank communicator bootstrapped by id, on
// the device current on the calling thread (ncclCommInitRank's meaning,
// through ncclCommInitRankScalable: see the package comment). It blocks
// until every rank has joined.
func (l *Lib) InitRank(nranks, rank int, id UniqueID) (Comm, error) {
	var c Comm
	err := l.check("ncclCommInitRank", l.commInitScalable(&c, int32(nranks), int32(rank), 1, &id, nil))
	return c, err
}

// Destroy frees a communicator.
func (l *Lib) Destroy(c Comm) error { return l.check("ncclCommDestroy", l.commDestroy(c)) }

// AllReduce enqueues recv = op over every rank's send (count elements).
func (l *Lib) AllReduce(send, recv, count uint64, t DataType, op RedOp, c Comm, stream uintptr) error {
	return l.check("ncclAllReduce", l.allReduce(send, recv, count, t, op, c, stream))
}

// AllGather enqueues recv = every rank's send (count elements each), in
// rank order.
func (l *Lib) AllGather(send, recv, count uint64, t DataType, c Comm, stream uintptr) error {
	return l.check("ncclAllGather", l.allGather(send, recv, count, t, c, stream))
}

// Reduce enqueues recv = op over every rank's send, on root only.
func (l *Lib) Reduce(send, recv, count uint64, t DataType, op RedOp, root int, c Comm, stream uintptr) error {
	return l.check("ncclReduce", l.reduce(send, recv, count, t, op, int32(root), c, stream))
}

// Broadcast enqueues a copy of root's send into every rank's recv.
func (l *Lib) Broadcast(send, recv, count uint64, t DataType, root int, c Comm, stream uintptr) error {
	return l.check("ncclBroadcast", l.broadcast(send, recv, count, t, int32(root), c, stream))
}

// GroupStart opens a group: the collectives up to GroupEnd are launched
// together (needed when one thread drives several ranks).
func (l *Lib) GroupStart() error { return l.check("ncclGroupStart", l.groupStart()) }

// GroupEnd closes a group and launches it.
func (l *Lib) GroupEnd() error { return l.check("ncclGroupEnd", l.groupEnd()) }

// ErrorString is ncclGetErrorString.
func (l *Lib) ErrorString(r int32) string { return l.getErrorString(r) }
