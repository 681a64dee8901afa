// Package templates holds the text templates for the prose parts of
// generated files: the provenance header every file starts with, and the
// package documentation. They are embedded, so abigen is one binary.
//
// Templates receive only sanitized text (see gen): nothing from an ABI can
// end a comment or inject code through them.
package templates
