package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/antelopego/abigen/internal/atomicfile"
)

func sortedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Write writes each file into dir (created if missing) atomically — a
// temporary file renamed over the old one — so an interrupted run never
// leaves a half-written file. A file whose content is unchanged is not
// touched, and keeps its time stamp.
func Write(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	for _, name := range sortedNames(files) {
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, files[name]) {
			continue // unchanged: keep the file's time stamp
		}
		if err := atomicfile.Write(path, files[name], 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return nil
}

// Drift is a file whose content on disk is not what was generated.
type Drift struct {
	Name string // the file's name in the directory
	// Diff is a unified diff from the file on disk (empty when missing) to
	// the generated one.
	Diff string
}

// Check compares files with those in dir, writing nothing, and returns
// the ones that differ (a missing file differs), in name order. On an
// error reading the directory it returns the differences found so far.
func Check(dir string, files map[string][]byte) ([]Drift, error) {
	var drift []Drift
	for _, name := range sortedNames(files) {
		path := filepath.Join(dir, name)
		old, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return drift, err
		}
		if d := unifiedDiff(filepath.ToSlash(path), filepath.ToSlash(path)+" (generated)", string(old), string(files[name])); d != "" {
			drift = append(drift, Drift{Name: name, Diff: d})
		}
	}
	return drift, nil
}
