package kubectl

import (
	"errors"
	"fmt"
	"strings"
)

// ParseCommandLine splits one command line into arguments the way a POSIX
// shell would for a simple command: whitespace separates words; single
// quotes keep everything literally; double quotes keep everything except
// that a backslash escapes ", \, $ and `; an unquoted backslash escapes the
// next character (and a backslash-newline is dropped); an unquoted # at the
// start of a word begins a comment. Variables and globs are not
// interpreted. An unterminated quote, a trailing backslash, or an unquoted
// shell operator (| ; & > < ` $( ) is an error: the playground runs one
// command, never a pipeline.
func ParseCommandLine(line string) ([]string, error) {
	var (
		args   []string
		cur    strings.Builder
		inWord bool
		b      = []byte(line)
	)
	for i := 0; i < len(b); i++ {
		r := b[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '#' && !inWord:
			i = len(b)
		case r == '|' || r == ';' || r == '&' || r == '>' || r == '<' || r == '`' || (r == '$' && i+1 < len(b) && b[i+1] == '('):
			op := string(r)
			if r == '$' {
				op = "$("
			} else if i+1 < len(b) && (b[i+1] == r || (r == '>' && b[i+1] == '&')) {
				op += string(b[i+1])
			}
			return nil, fmt.Errorf("shell operator %q is not supported: the playground runs one kubectl command per line (quote the argument if %q is part of it)", op, op)
		case r == '\\':
			if i+1 >= len(b) {
				return nil, errors.New("unexpected end of line after \\")
			}
			i++
			if b[i] == '\n' {
				continue
			}
			cur.WriteByte(b[i])
			inWord = true
		case r == '\'':
			inWord = true
			j := i + 1
			for j < len(b) && b[j] != '\'' {
				cur.WriteByte(b[j])
				j++
			}
			if j >= len(b) {
				return nil, errors.New("unterminated quoted string: missing closing ' (single quote)")
			}
			i = j
		case r == '"':
			inWord = true
			j := i + 1
			for ; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' && j+1 < len(b) {
					switch b[j+1] {
					case '"', '\\', '$', '`':
						j++
						cur.WriteByte(b[j])
						continue
					case '\n':
						j++
						continue
					}
				}
				cur.WriteByte(b[j])
			}
			if j >= len(b) {
				return nil, errors.New("unterminated quoted string: missing closing \" (double quote)")
			}
			i = j
		default:
			cur.WriteByte(r)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}
