//go:build unix

package jupyter

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"time"
)

// watchParent calls stop when the process named by JPY_PARENT_PID (the
// Jupyter client that started the kernel) is gone, so a kernel is never
// left orphaned when its client is killed.
func watchParent(ctx context.Context, stop func()) {
	pid, err := strconv.Atoi(os.Getenv("JPY_PARENT_PID"))
	if err != nil || pid <= 1 {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
				logf("parent process %d is gone; exiting", pid)
				stop()
				return
			}
		}
	}
}
