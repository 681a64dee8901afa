package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib"       // registers "pgx"
	_ "github.com/ncruces/go-sqlite3/driver" // registers "sqlite3"
)

// OpenDB opens the database a mirror writes, named the way the command line
// names it:
//
//	sqlite:mirror.db             SQLite (no server, no cgo), created if missing
//	postgres://user:pass@host/db PostgreSQL (also postgresql://)
//
// A SQLite database is opened with one connection (SQLite serializes
// writers anyway) in WAL mode with synchronous=NORMAL: a committed block
// survives a kill; a power cut may take back the last few commits, cursor
// and all, which leaves the database at an earlier block's state, and the
// mirror reads those blocks again. Add _pragma=synchronous(full) to the
// file URI for commits that survive a power cut too.
func OpenDB(ctx context.Context, dsn string) (*sql.DB, Dialect, error) {
	dialect, err := DialectOf(dsn)
	if err != nil {
		return nil, 0, err
	}
	var db *sql.DB
	switch dialect {
	case Postgres:
		db, err = sql.Open("pgx", dsn)
	default:
		path := strings.TrimPrefix(dsn, "sqlite:")
		if !strings.HasPrefix(path, "file:") {
			path = "file:" + path
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		pragmas := "_pragma=journal_mode(wal)&_pragma=busy_timeout(10000)"
		if !strings.Contains(path, "synchronous") {
			pragmas += "&_pragma=synchronous(normal)"
		}
		db, err = sql.Open("sqlite3", path+sep+pragmas)
		if err == nil {
			db.SetMaxOpenConns(1)
		}
	}
	if err != nil {
		return nil, 0, fmt.Errorf("mirror: %w", err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, 0, fmt.Errorf("mirror: %s database: %w", dialect, err)
	}
	return db, dialect, nil
}

// redact leaves a password out of a DSN for a message.
func redact(dsn string) string {
	if i := strings.Index(dsn, "://"); i >= 0 {
		if at := strings.LastIndex(dsn, "@"); at > i {
			return dsn[:i+3] + "…" + dsn[at:]
		}
	}
	return dsn
}

// DialectOf is the SQL dialect of a database named as OpenDB takes it,
// without opening it (what printing a schema needs).
func DialectOf(dsn string) (Dialect, error) {
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return Postgres, nil
	case dsn == "sqlite:":
		return 0, fmt.Errorf("mirror: %q names no file: want sqlite:FILE", dsn)
	case strings.HasPrefix(dsn, "sqlite:"):
		return SQLite, nil
	}
	return 0, fmt.Errorf("mirror: database %q: want sqlite:FILE or postgres://…", redact(dsn))
}
