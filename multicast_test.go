package arepl_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoMulticast: NVLink multicast objects can put a host's shared GPUs
// out of service, so nothing in the tree may call the driver's multicast
// constructor (NCCL's own use of it is off: package nccl sets
// NCCL_NVLS_ENABLE=0). The name is assembled here so that this file does
// not match itself.
func TestNoMulticast(t *testing.T) {
	banned := "cuMulticast" + "Create"
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == ".git" || strings.HasPrefix(name, ".carry")) {
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 8<<20 {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), banned) {
			t.Errorf("%s mentions %s: multicast stays off (eval/gpu/nccl)", path, banned)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNVLSOffInNCCL: the NCCL binding turns NVLS off before NCCL starts.
func TestNVLSOffInNCCL(t *testing.T) {
	b, err := os.ReadFile("eval/gpu/nccl/nccl.go")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	load := src[strings.Index(src, "func load() (*Lib, error) {"):]
	if i, j := strings.Index(load, "DisableNVLS()"), strings.Index(load, "purego.Dlopen"); i < 0 || j < 0 || i > j {
		t.Error("nccl.load must call DisableNVLS before opening the library")
	}
	if !strings.Contains(src, `os.Setenv("NCCL_NVLS_ENABLE", "0")`) {
		t.Error("DisableNVLS must set NCCL_NVLS_ENABLE=0")
	}
}
