// Package docsnippets finds the Go snippets of the README and the guides in
// docs/ and wraps each in a file of its own that the Go type checker can
// read: its test type-checks every one against the project's packages, so a
// snippet that stops compiling fails CI.
//
// Snippets are fragments, as documentation shows code: statements that use
// variables the prose introduces (ctx, act, me…), and "…" where code is left
// out. A fragment becomes the body of a function returning error; each name it uses without
// declaring gets a declaration from a fixed table of such names
// (Ambient), and a name it declares itself never does, so a snippet that
// uses a name before declaring it (or declares it twice) still fails. A body
// left out, "{ … }", becomes a panic; fields left out, "{…}", become "{}";
// a line that starts with "…" becomes a comment. A snippet that
// starts with "package" is a whole file, checked as it is.
//
// A name a snippet declares and never uses fails it, as it fails the
// compiler (an err a loop drops passed once), except where the prose uses
// it: in elided code, or in the fragment's last statement, which shows a
// call's results. Check has the rule.
package docsnippets
