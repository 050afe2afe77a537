package jupyter

import (
	"bytes"
	"encoding/json"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestInstallPrefix(t *testing.T) {
	dir := t.TempDir()
	if err := install([]string{"--prefix", dir, "--name", "arepl-x", "--interrupt-mode", "signal"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "share", "jupyter", "kernels", "arepl-x")
	b, err := os.ReadFile(filepath.Join(spec, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ks kernelSpec
	if err := json.Unmarshal(b, &ks); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	if len(ks.Argv) != 5 || ks.Argv[0] != exe || !filepath.IsAbs(ks.Argv[0]) ||
		ks.Argv[1] != "jupyter" || ks.Argv[2] != "kernel" || ks.Argv[3] != "-f" || ks.Argv[4] != "{connection_file}" {
		t.Errorf("argv %q", ks.Argv)
	}
	if ks.Language != "futhark" || ks.InterruptMode != "signal" || ks.DisplayName == "" {
		t.Errorf("spec %+v", ks)
	}
	for _, name := range []string{"logo-32x32.png", "logo-64x64.png"} {
		b, err := os.ReadFile(filepath.Join(spec, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w := img.Bounds().Dx(); name == "logo-32x32.png" && w != 32 || name == "logo-64x64.png" && w != 64 {
			t.Errorf("%s is %d wide", name, w)
		}
	}
}

func TestInstallUserDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", dir)
	if err := install(nil, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "kernels", "arepl", "kernel.json")); err != nil {
		t.Error(err)
	}
}

func TestInstallRejects(t *testing.T) {
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("CONDA_PREFIX", "")
	for _, args := range [][]string{
		{"--name", "bad name"},
		{"--interrupt-mode", "sometimes"},
		{"--user", "--prefix", t.TempDir()},
		{"--sys-prefix"},
		{"extra"},
	} {
		if err := install(args, io.Discard); err == nil {
			t.Errorf("install %q succeeded", args)
		}
	}
}
