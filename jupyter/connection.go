package jupyter

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/arepl/arepl/eval"
)

// ConnectionInfo is the connection file a Jupyter client writes for the
// kernel: where to bind the five sockets and how to sign messages.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
}

// readConnectionFile reads and checks a connection file. Its name is not
// interpreted: clients name it kernel-<id>.json, tmp1a2b3c.json or
// kernel-v2-….json.
func readConnectionFile(path string) (*ConnectionInfo, error) {
	// Bounded: a connection file of /dev/zero would be read forever.
	b, err := eval.ReadFileLimited(context.Background(), path, 1<<20)
	if err != nil {
		return nil, err
	}
	var ci ConnectionInfo
	if err := json.Unmarshal(b, &ci); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport != "tcp" && ci.Transport != "ipc" {
		return nil, fmt.Errorf("%s: unsupported transport %q (want tcp or ipc)", path, ci.Transport)
	}
	if ci.IP == "" {
		return nil, fmt.Errorf("%s: no ip", path)
	}
	for _, p := range []struct {
		name string
		port int
	}{{"shell_port", ci.ShellPort}, {"control_port", ci.ControlPort}, {"stdin_port", ci.StdinPort},
		{"iopub_port", ci.IOPubPort}, {"hb_port", ci.HBPort}} {
		if p.port <= 0 || p.port > 65535 && ci.Transport == "tcp" {
			return nil, fmt.Errorf("%s: bad %s %d", path, p.name, p.port)
		}
	}
	return &ci, nil
}

// endpoint is the ZeroMQ address of one socket. For ipc the address is a
// path, {ip}-{port}, as jupyter_client builds it.
func (ci *ConnectionInfo) endpoint(port int) string {
	if ci.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", ci.IP, port)
	}
	return fmt.Sprintf("tcp://%s:%d", ci.IP, port)
}
