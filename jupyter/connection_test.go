package jupyter

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestReadConnectionFile(t *testing.T) {
	for _, tc := range []struct {
		file  string
		shell string // endpoint of the shell socket; "" when the file is rejected
	}{
		{"tcp.json", "tcp://127.0.0.1:5001"},
		{"ipc.json", "ipc:///tmp/kernel-ipc-1"},
		{"bad-transport.json", ""},
		{"bad-port.json", ""},
		{"no-ip.json", ""},
		{"truncated.json", ""},
		{"missing.json", ""},
	} {
		ci, err := readConnectionFile(filepath.Join("testdata", "conn", tc.file))
		switch {
		case tc.shell == "" && err == nil:
			t.Errorf("%s: accepted", tc.file)
		case tc.shell != "" && err != nil:
			t.Errorf("%s: %v", tc.file, err)
		case tc.shell != "" && ci.endpoint(ci.ShellPort) != tc.shell:
			t.Errorf("%s: shell endpoint %s, want %s", tc.file, ci.endpoint(ci.ShellPort), tc.shell)
		}
	}
}

// TestKernelArgs checks the argument handling of Kernel on files it must
// reject, so no sockets are bound: -f in its spellings, and extra
// arguments (which jupyter_client's apps append) ignored.
func TestKernelArgs(t *testing.T) {
	if err := Kernel(nil); err == nil {
		t.Error("Kernel without -f succeeded")
	}
	bad := filepath.Join("testdata", "conn", "bad-port.json")
	for _, args := range [][]string{
		{"-f", bad},
		{"--f=" + bad, "--existing", "x"},
		{"-f=" + bad},
		{"--debug", "-f", bad, "--", "more"},
	} {
		err := Kernel(args)
		if err == nil || !strings.Contains(err.Error(), "bad-port.json: bad shell_port 0") {
			t.Errorf("Kernel(%q) = %v, want the connection file's error", args, err)
		}
	}
}
