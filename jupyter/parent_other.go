//go:build !unix

package jupyter

import "context"

// watchParent does nothing where there is no kill(pid, 0) to probe the
// parent with; the client's shutdown_request still stops the kernel.
func watchParent(ctx context.Context, stop func()) {}
