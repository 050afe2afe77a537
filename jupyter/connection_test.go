package jupyter

import (
	"path/filepath"
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
