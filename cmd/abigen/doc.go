// Command abigen generates Go bindings for an Antelope contract ABI.
//
// See abigen --help, and docs/generate.md, for flags, examples and exit codes.
// The work is package pipeline's (fetch, load, resolve, generate, write or
// check); this command is flags, subcommands and exit codes:
//
//   - main.go: the table of subcommands (abigen diff, abigen mirror);
//     without one, abigen generates.
//   - run.go: generating: its flags, pipeline.Run, the exit code of each
//     stage.
//   - fetchflags.go: the fetch flags every command shares, the API key,
//     the source they choose.
//   - flags.go: checking --account, --rename and --pkg.
//   - abidiff.go: abigen diff, and --check's report of a changed ABI.
//   - mirror.go: abigen mirror: its flags, backfill and progress lines;
//     the mirror itself is package ship/mirror's.
//   - version.go: --version.
package main
