package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/gen"
	"github.com/spf13/pflag"
)

// parseAccount checks an account name as the chain would, with the reason
// (not the repeated input) as the error.
func parseAccount(s string) (antelope.Name, error) {
	n, err := antelope.ParseName(s)
	var ve *antelope.ValueError
	if errors.As(err, &ve) {
		return 0, errors.New(ve.Msg)
	}
	return n, err
}

func parseRenames(list []string) (map[string]string, error) {
	m := map[string]string{}
	for _, r := range list {
		k, v, ok := strings.Cut(r, "=")
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("--rename %q: expected abi_name=GoName", r)
		}
		if prev, dup := m[k]; dup && prev != v {
			return nil, fmt.Errorf("--rename %s given twice (%s and %s)", k, prev, v)
		}
		m[k] = v
	}
	return m, nil
}

// packageFromDir derives a package name from the output directory's name.
func packageFromDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	base := strings.ToLower(filepath.Base(abs))
	var b strings.Builder
	for _, r := range base {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return "", fmt.Errorf("--pkg is required: no package name can be derived from the directory %q", dir)
	}
	if err := gen.CheckPackageName(name); err != nil {
		return "", fmt.Errorf("--pkg is required: the directory's name gives %q, %v", name, err)
	}
	return name, nil
}

// flagError is the message for a command line fl could not parse: pflag's,
// with the flag meant when a long flag was given one dash (-abi, as Go's
// flag package takes it), which pflag reads as a cluster of shorthands.
func flagError(fl *pflag.FlagSet, args []string, err error) string {
	msg := err.Error()
	if !strings.HasPrefix(msg, "unknown shorthand flag") {
		return msg
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		if fl.Lookup(name) != nil {
			return fmt.Sprintf("%s (flags take two dashes: --%s)", msg, name)
		}
	}
	return msg
}
