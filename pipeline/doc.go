// Package pipeline is abigen's run as a library: an ABI fetched from a
// fetch.Source, loaded and resolved (model), turned into Go files (gen),
// and written to a directory or compared with the files there. cmd/abigen
// is this package's flags and exit codes; tests and programs call it
// directly:
//
//	res, err := pipeline.Run(ctx, pipeline.Job{
//		Source:  fetch.FileSource{Path: "token.abi.json"},
//		Package: "token",
//		Out:     "./token",
//	})
//
// A failure is an *Error whose Stage says where it happened (fetching,
// loading, generating, writing), which is what the CLI's exit code
// follows; its message is the CLI's, with the file or service it is about.
// Load is the one way every command reads an ABI, so that errors read the
// same everywhere.
package pipeline
