package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/manifest"
)

// usageError is an error kubectl reports with a pointer to the command's
// help (cmdutil.UsageErrorf): "<msg>\nSee 'kubectl <cmd> -h' for help and examples".
type usageError struct {
	msg     string
	cmdPath string
}

func (e *usageError) Error() string {
	return e.msg + "\nSee '" + e.cmdPath + " -h' for help and examples"
}

// flagError is a flag-parsing error, which cobra reports (through kubectl's
// flag error function) as "error: <msg>\nSee '<cmd> --help' for usage.".
type flagError struct {
	msg     string
	cmdPath string
}

func (e *flagError) Error() string { return e.msg }

// errExit mirrors cmdutil.ErrExit: the command already printed what it
// had to say; checkErr prints nothing and the exit status is 1.
var errExit = errors.New("exit directly")

// rawError is printed exactly as its text (already in kubectl's words, with
// its own "error: " prefixes), e.g. a manifest error.
type rawError struct{ text string }

func (e *rawError) Error() string { return e.text }

// invalidError mirrors an API server Invalid (422) StatusError with its
// causes, which checkErr prints as `The <Kind> "<name>" is invalid: <cause>`
// or, for several causes, a first line and one `* <cause>` line each.
type invalidError struct {
	kind, name string
	causes     []string // "<field>: <message>"
}

// An invalidError without kind and name is a 422 that names no object
// (the PATCH handler's errors.NewInvalid(schema.GroupKind{}, "", ...) or
// NewGenericServerResponse(422, ...)): checkErr prints "The request is
// invalid", followed by its causes when it has some.
func (e *invalidError) Error() string {
	if e.kind == "" && e.name == "" && len(e.causes) == 0 {
		return "the server rejected our request due to an error in our request"
	}
	return fmt.Sprintf("%s %q is invalid: %s", e.kind, e.name, strings.Join(e.causes, ", "))
}

func (e *invalidError) render() string {
	head := fmt.Sprintf("The %s %q is invalid: ", e.kind, e.name)
	if e.kind == "" && e.name == "" {
		if len(e.causes) == 0 {
			return "The request is invalid\n"
		}
		head = "The request is invalid: "
	}
	var uniq []string
	seen := map[string]bool{}
	for _, c := range e.causes {
		if !seen[c] {
			seen[c] = true
			uniq = append(uniq, c)
		}
	}
	if len(uniq) == 1 {
		return head + uniq[0] + "\n"
	}
	var b strings.Builder
	b.WriteString(head + "\n")
	for _, c := range uniq {
		b.WriteString("* " + c + "\n")
	}
	return b.String()
}

// aggregate mirrors utilerrors.Aggregate: several errors reported together.
type aggregate []error

func (a aggregate) Error() string {
	var msgs []string
	seen := map[string]bool{}
	for _, e := range a {
		// utilerrors aggregate.Error: a message repeated is given once
		if m := e.Error(); !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// newAggregate mirrors utilerrors.NewAggregate: nil for no errors.
func newAggregate(errs []error) error {
	var out aggregate
	for _, e := range errs {
		if e != nil {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// visitErr mirrors resource.ContinueOnErrorVisitor's result: nil, the one
// error itself, or an aggregate of several.
func visitErr(errs []error) error {
	if agg, ok := newAggregate(errs).(aggregate); ok {
		if len(agg) == 1 {
			return agg[0]
		}
		return agg
	}
	return nil
}

// docError is the error of one document of a manifest file (a
// *manifest.Error): alone it prints as the manifest package renders it;
// in an aggregate as each of its errors would (manifest.Error.Messages).
type docError struct{ e *manifest.Error }

// Error is the error's own text, as utilerrors' aggregate.Error joins it:
// a status error's message, a plain error without "error: ".
func (d *docError) Error() string {
	raw, _ := d.e.Messages()
	return strings.Join(raw, ", ")
}

// standardErrorMessage mirrors cmdutil.StandardErrorMessage: API errors as
// "Error from server (<Reason>): <message>"; ok is false for other errors.
func standardErrorMessage(err error) (string, bool) {
	var de *docError
	if errors.As(err, &de) {
		_, member := de.e.Messages()
		return strings.Join(member, "\n"), true
	}
	var ie *invalidError
	if errors.As(err, &ie) {
		return "Error from server (Invalid): " + ie.Error(), true
	}
	var se *cluster.StatusError
	if errors.As(err, &se) {
		if se.Reason != "" {
			return "Error from server (" + se.Reason + "): " + se.Message, true
		}
		return "Error from server: " + se.Message, true
	}
	return "", false
}

// messageForError mirrors cmdutil.messageForError.
func messageForError(err error) string {
	if msg, ok := standardErrorMessage(err); ok {
		return msg
	}
	return err.Error()
}

// checkErr renders an error as kubectl's cmdutil.checkErr prints it on
// stderr (always ending in a newline); "" for nil.
func checkErr(err error) string {
	if agg, ok := err.(aggregate); ok && len(agg) == 1 {
		err = agg[0]
	}
	if err == nil || err == errExit {
		return ""
	}
	var msg string
	switch e := err.(type) {
	case aggregate:
		var b strings.Builder
		for _, x := range e {
			b.WriteString(messageForError(x))
			b.WriteByte('\n')
		}
		msg = b.String()
	case *rawError:
		msg = e.text
	case *docError:
		msg = e.e.Error()
	case *invalidError:
		msg = e.render()
	case *flagError:
		msg = "error: " + e.msg + "\nSee '" + e.cmdPath + " --help' for usage."
	default:
		var ok bool
		msg, ok = standardErrorMessage(err)
		if !ok {
			msg = err.Error()
			if !strings.HasPrefix(msg, "error: ") {
				msg = "error: " + msg
			}
		}
	}
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	return msg
}
