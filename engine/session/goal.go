package session

import (
	"fmt"
	"strconv"
	"strings"
)

// MergeGoalChecks turns a goal's checks into one check per assertion for
// the exercise panel. scenario.CheckGoal reports a goal's
//
//	kubectl get ... -o jsonpath=...
//	stdout '^nginx:1.25$'
//
// as two checks: the command (✓ when it ran, no detail) and the raw
// assertion. A learner reads one: "kubectl get ...: output matches
// ^nginx:1.25$", failing with what the command printed. A command that
// failed fails each of its assertions with its error; a command without
// assertions stays a check of its own (it must succeed, or fail for
// `! kubectl`); expect lines are unchanged. OK and the entries are kept.
func MergeGoalChecks(g GoalResult) GoalResult {
	out := g
	out.Checks = nil
	for i := 0; i < len(g.Checks); i++ {
		c := g.Checks[i]
		if !isKubectlCheck(c) {
			out.Checks = append(out.Checks, c)
			continue
		}
		j := i + 1
		for j < len(g.Checks) && isOutputCheck(g.Checks[j]) {
			j++
		}
		if j == i+1 {
			out.Checks = append(out.Checks, c)
			continue
		}
		cmd := strings.TrimPrefix(c.Text, "! ")
		var e *Entry
		for k := range g.Entries {
			if g.Entries[k].Line == c.Line && !g.Entries[k].Comment {
				e = &g.Entries[k]
			}
		}
		for _, a := range g.Checks[i+1 : j] {
			m := a
			m.Text = cmd + ": " + assertionLabel(a.Text)
			m.OK = c.OK && a.OK
			switch {
			case !c.OK:
				m.Detail = c.Detail
			case !a.OK && e != nil:
				m.Detail = "the output was " + shortOutput(outputOf(e, a.Text))
			}
			out.Checks = append(out.Checks, m)
		}
		i = j - 1
	}
	return out
}

// isKubectlCheck reports whether c is a goal's kubectl command line.
func isKubectlCheck(c Check) bool { return IsKubectl(c.Text) }

// isOutputCheck reports whether c is a stdout/stderr assertion.
func isOutputCheck(c Check) bool { return IsAssertion(c.Text) }

// assertionLabel reads `[!] stdout|stderr [-count=N] 'RE'` as words:
// "output matches RE", "output does not match RE", "error output matches
// RE", "output matches RE 2 times".
func assertionLabel(text string) string {
	neg := strings.HasPrefix(text, "! ")
	t := strings.TrimPrefix(text, "! ")
	verb, rest, _ := strings.Cut(t, " ")
	what := "output"
	if verb == "stderr" {
		what = "error output"
	}
	rest = strings.TrimSpace(rest)
	count := ""
	if strings.HasPrefix(rest, "-count=") {
		n, r, _ := strings.Cut(rest, " ")
		count, rest = strings.TrimPrefix(n, "-count="), strings.TrimSpace(r)
	}
	re := unquoteArg(rest)
	switch {
	case count != "":
		return fmt.Sprintf("%s matches %s %s times", what, re, count)
	case neg:
		return fmt.Sprintf("%s does not match %s", what, re)
	default:
		return fmt.Sprintf("%s matches %s", what, re)
	}
}

// unquoteArg strips a script argument's quotes ('...' or "...").
func unquoteArg(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// outputOf is the stream of e an assertion reads.
func outputOf(e *Entry, assertion string) string {
	if strings.HasPrefix(strings.TrimPrefix(assertion, "! "), "stderr") {
		return e.Stderr
	}
	return e.Stdout
}

// shortOutput quotes a command's output for a failure detail: empty, or
// its text (newlines as ⏎) cut at 160 characters.
func shortOutput(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "empty"
	}
	s = strings.ReplaceAll(s, "\n", " ⏎ ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return strconv.Quote(s)
}

// Sentence ends s (trimmed) with a full stop unless it ends with
// punctuation already ("Why not the control-plane?", not
// "…control-plane?.").
func Sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".?!:…") || strings.HasSuffix(s, "…") {
		return s
	}
	return s + "."
}
