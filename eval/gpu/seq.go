package gpu

import "github.com/arepl/arepl/lang/core"

// Limits are the device constants the generated code is sized from. The
// backend reads them from the device; Kernel, which must work without a
// GPU, uses DefaultLimits (an H100/H200).
type Limits struct {
	SMs                int
	MaxThreadsPerBlock int
	SharedPerBlock     int // static shared memory a kernel may use
	SharedOptin        int // opt-in dynamic shared memory per block
	RegsPerBlock       int
	SharedPerSM        int // shared memory of a multiprocessor
	ThreadsPerSM       int // resident threads of a multiprocessor
	// Seq, when positive, replaces the formula's sequentiality degree (for
	// measuring; the tile is still capped to fit in shared memory).
	Seq int
	// ScanBlock, when positive, replaces the scan kernels' block size (for
	// measuring).
	ScanBlock int
	// ScanMinBlocks, when positive, is the minimum blocks per
	// multiprocessor of the scan kernels' launch bounds.
	ScanMinBlocks int
	// Deterministic fixes the combination order of float scans
	// (scanKernel.Det). Not a device constant, but like the measuring
	// knobs it selects the generated code, so it is part of the key every
	// generated scan is cached under.
	Deterministic bool
	// ScanDelay and ScanSpin, when positive, replace the look-back's first
	// wait and its wait per retry in ns (lookBackWaits).
	ScanDelay, ScanSpin int
	// ScanStateSpread, when positive, spaces the look-back states of the
	// scans' tiles that many times their size apart instead of stateSpread's
	// choice (1: packed; for measuring).
	ScanStateSpread int
	// ScanRecompute chooses scans that recompute their store
	// (scanKernel.recomputes): 0 where that saves shared memory, positive
	// wherever the scan's shape allows it, negative never (for measuring).
	ScanRecompute int
	// ScanUnroll, when positive, is the unroll factor of the scans'
	// secondary loops over a thread's elements (scanKernel.unrollSecondary);
	// negative unrolls them fully; 0 takes secondaryUnroll's choice (for
	// measuring their NVRTC time against their speed).
	ScanUnroll int
	// OrderedMinBlocks, when positive, is the minimum blocks per
	// multiprocessor of the ordered redomap's launch bounds (for
	// measuring).
	OrderedMinBlocks int
	// OrderedFoldUnroll, when positive, is the unroll factor of the
	// ordered redomap's fold over a full warp tile; negative unrolls it
	// fully; 0 takes foldUnroll's choice (for measuring its NVRTC time
	// against its speed).
	OrderedFoldUnroll int
	// HistSort and MultiscanSort choose the sort-based paths of hist and
	// multiscan (kernels/sort.cu): 0 where they measured faster, positive
	// always where the statement has one, negative never.
	HistSort, MultiscanSort int
}

// DefaultLimits are the sm_90 values (H100 and H200 agree on all but SMs).
var DefaultLimits = Limits{SMs: 132, MaxThreadsPerBlock: 1024, SharedPerBlock: 48 << 10, SharedOptin: 232448, RegsPerBlock: 65536,
	SharedPerSM: 233472, ThreadsPerSM: 2048}

// seqDegree is the number of elements a thread folds sequentially in an
// ordered reduction, from the types of the accumulator, by Futhark's
// getScanChunkSize (the segmented-scan thesis §5.3 with 2·Σw in the
// denominator, which the team's Hopper measurements found to match the measured
// optimum):
//
//	k_mem = opt-in shared memory / max threads, k_reg = registers / max threads
//	mem = max(k_mem, Σ bytes) / max bytes
//	reg = (k_reg - 1 - Σw) / (2·Σw), w = max(4, bytes)/4 words per component
//	m = max(1, min(mem, reg))
//
// The result is then capped so that the block's warp tiles of 32×m
// elements of tileBytes (the accumulator's or, when the kernel transposes
// its inputs, the inputs' bytes) fit in the static shared memory of one
// block, with ar_pad's padding.
func seqDegree(ts []core.PrimType, tileBytes, block int, lim Limits) int {
	if len(ts) == 0 {
		return 1
	}
	kmem := lim.SharedOptin / lim.MaxThreadsPerBlock
	kreg := lim.RegsPerBlock / lim.MaxThreadsPerBlock
	sum, words, largest := 0, 0, 0
	for _, t := range ts {
		sum += t.Size()
		words += max(4, t.Size()) / 4
		largest = max(largest, t.Size())
	}
	mem := max(kmem, sum) / largest
	reg := (kreg - 1 - words) / (2 * words)
	m := max(1, min(mem, reg))
	if lim.Seq > 0 {
		m = lim.Seq
	}
	return capSeq(m, tileBytes, sum, block, lim)
}

// capSeq lowers m until the block's warp tiles of 32×m elements of
// tileBytes each fit in static shared memory beside the two block
// reductions' (the block's and the last block's) 32 slots of accBytes.
func capSeq(m, tileBytes, accBytes, block int, lim Limits) int {
	budget := lim.SharedPerBlock - 2*32*accBytes - 64
	for m > 1 && (block/32)*(32*m+m+1)*tileBytes > budget {
		m--
	}
	return m
}
