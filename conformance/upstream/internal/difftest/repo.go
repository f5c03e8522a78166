package difftest

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
)

// repoRoot is the directory of the kubesem repository's root module
// (github.com/kubesem/kubesem), found from the working directory: the
// tests of each kind run in their own package directory, at different
// depths below it.
var repoRoot = sync.OnceValue(func() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte("module github.com/kubesem/kubesem\n")) {
			return d
		}
		if filepath.Dir(d) == d {
			panic("difftest: no github.com/kubesem/kubesem go.mod above " + dir)
		}
	}
})

// Repo is the path of elem (slash-separated elements are fine) below the
// repository's root: Repo("testdata", "cronjob") is the cronjob vectors'
// directory.
func Repo(elem ...string) string {
	return filepath.Join(append([]string{repoRoot()}, elem...)...)
}
