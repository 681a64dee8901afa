package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/antelopego/abigen/ship/mirror"
)

// TestMirrorExitABIChangeBeforeASignal: a Run that stopped on a changed ABI
// as a signal arrived returns an error that is both (mirror wraps the
// context's error into any error it returns once its context has ended);
// the command still exits with the bad-ABI code, not as a clean stop.
func TestMirrorExitABIChangeBeforeASignal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	abi := fmt.Errorf("mirror: block 9: %w: %w", mirror.ErrABIChangedOnChain, context.Canceled)
	if got := mirrorExit(ctx, abi, io.Discard); got != exitBadABI {
		t.Errorf("a changed ABI with the context ended: exit %d, want %d", got, exitBadABI)
	}
	if got := mirrorExit(ctx, fmt.Errorf("mirror: backfill, block 3: driver: bad connection: %w", context.Canceled), io.Discard); got != exitOK {
		t.Errorf("a stop by the context: exit %d, want %d", got, exitOK)
	}
	if got := mirrorExit(context.Background(), errors.New("mirror: disk full"), io.Discard); got != 1 {
		t.Errorf("a failure: exit %d, want 1", got)
	}
}

// Mistakes on abigen mirror's command line exit with the code its help
// gives, before any database is created or node dialled. (An undialable
// --ship exited 1, "the stream failed", after creating the database.)
func TestMirrorUsageMistakes(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "x.db")
	abi := "../../ship/mirror/testdata/eosio.token.abi"
	base := []string{"mirror", "--account", "eosio.token", "--ship", "ws://127.0.0.1:1", "--db", db}
	for _, c := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"--end before --start", []string{"--abi", abi, "--start", "7", "--end", "3"}, exitUsage, "--end 3 is not after --start 7"},
		{"--end at --start", []string{"--abi", abi, "--start", "7", "--end", "7"}, exitUsage, "--end 7 is not after --start 7"},
		{"--db without a scheme", []string{"--abi", abi, "--db", filepath.Join(dir, "x.db")}, exitUsage, "want sqlite:FILE or postgres://"},
		{"missing ABI file", []string{"--abi", filepath.Join(dir, "nosuch.abi")}, exitIO, "nosuch.abi"},
		{"--ship with a misspelt scheme", []string{"--abi", abi, "--ship", "htp://127.0.0.1:8080"}, exitUsage, `--ship "htp://127.0.0.1:8080": not a state-history endpoint address`},
		{"--ship without a scheme", []string{"--abi", abi, "--ship", "127.0.0.1:8080"}, exitUsage, "--ship"},
		{"--ship with a password holding '/'", []string{"--abi", abi, "--ship", "ws://me:s3cr3t/x@127.0.0.1:8080"}, exitUsage, "percent-encoded"},
	} {
		var stderr bytes.Buffer
		code := run(append(append([]string{}, base...), c.args...), strings.NewReader(""), io.Discard, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d containing %q", c.name, code, stderr.String(), c.code, c.msg)
		}
		if !strings.Contains(mirrorUsage, fmt.Sprintf(" %d ", c.code)) {
			t.Errorf("%s: exit %d is not in abigen mirror --help", c.name, c.code)
		}
		if strings.Contains(stderr.String(), "s3cr3t") {
			t.Errorf("%s: stderr shows the password: %s", c.name, stderr.String())
		}
		if _, err := os.Stat(filepath.Join(dir, "x.db")); err == nil {
			t.Fatalf("%s: the database was created", c.name)
		}
	}
}

// --schema prints the DDL for --db's dialect without opening the database:
// no SQLite file is left behind, and no PostgreSQL server is needed.
func TestMirrorSchemaOpensNoDatabase(t *testing.T) {
	dir := t.TempDir()
	abi := "../../ship/mirror/testdata/eosio.token.abi"
	for _, db := range []string{"sqlite:" + filepath.Join(dir, "x.db"), "postgres://nobody@127.0.0.1:1/none"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"mirror", "--abi", abi, "--account", "eosio.token", "--db", db, "--schema"}, strings.NewReader(""), &stdout, &stderr)
		if code != exitOK || !strings.Contains(stdout.String(), `CREATE TABLE IF NOT EXISTS "accounts"`) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", db, code, stdout.String(), stderr.String())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("--schema created %v", entries)
	}
}
