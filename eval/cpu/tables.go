package cpu

// The operator tables are filled once, here, in one init: the portable
// kernels first, then useSIMD (simd_*.go) replaces some of them with AVX2
// kernels on CPUs that have AVX2 and FMA. One init rather than one per
// file, because the replacement must come last and Go orders the init
// functions of a package's files only by file name.
func init() {
	initKernelTables()
	initVSTables()
	initReduceTables()
	initTailTables()
	initChainTables()
	initLexTables()
	initPartScatterTables()
	initHalfTables()
	useSIMD()
}
