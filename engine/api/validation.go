package api

import (
	"fmt"
	"regexp"
	"strings"
)

// Name validation mirroring k8s.io/apimachinery/pkg/util/validation, with
// its exact messages. Each Is* function returns nil or upstream's messages.

const (
	qualifiedNameFmt    = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt       = "(" + qualifiedNameFmt + ")?"
	labelValueErrMsg    = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelErrMsg  = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
)

var (
	qualifiedNameRe    = regexp.MustCompile("^" + qualifiedNameFmt + "$")
	labelValueRe       = regexp.MustCompile("^" + labelValueFmt + "$")
	dns1123LabelRe     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRe = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
)

// regexError mirrors validation.RegexError.
func regexError(msg, format string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + format + "')"
	}
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + format + "')"
}

func maxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// IsDNS1123Subdomain mirrors validation.IsDNS1123Subdomain.
func IsDNS1123Subdomain(v string) []string {
	var errs []string
	if len(v) > 253 {
		errs = append(errs, maxLenError(253))
	}
	if !dns1123SubdomainRe.MatchString(v) {
		errs = append(errs, regexError(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsDNS1123Label mirrors validation.IsDNS1123Label (namespace names).
func IsDNS1123Label(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, maxLenError(63))
	}
	if !dns1123LabelRe.MatchString(v) {
		if len(IsDNS1123Subdomain(v)) == 0 {
			// A valid subdomain but not a label: with the length checked
			// already, it must be the dots (as upstream reasons).
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// IsQualifiedName mirrors validation.IsQualifiedName (label, annotation
// and taint keys).
func IsQualifiedName(v string) []string {
	var errs []string
	parts := strings.Split(v, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range IsDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return append(errs, "a qualified name "+regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part "+maxLenError(63))
	}
	if !qualifiedNameRe.MatchString(name) {
		errs = append(errs, "name part "+regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue mirrors validation.IsValidLabelValue.
func IsValidLabelValue(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, maxLenError(63))
	}
	if !labelValueRe.MatchString(v) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}
