module github.com/antelopego/abigen

go 1.26.0

require (
	github.com/coder/websocket v1.8.15
	github.com/dave/jennifer v1.7.1
	github.com/decred/dcrd/dcrec/secp256k1/v4 v4.4.1
	github.com/jackc/pgx/v5 v5.13.0
	github.com/ncruces/go-sqlite3 v0.37.0
	github.com/spf13/pflag v1.0.10
	github.com/tetratelabs/wazero v1.12.0
	golang.org/x/crypto v0.58.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/ncruces/go-sqlite3-wasm/v6 v6.5.35401 // indirect
	github.com/ncruces/julianday v1.0.0 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
