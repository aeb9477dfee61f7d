package cluster

import (
	"errors"
	"fmt"
)

// StatusError mirrors apimachinery's api/errors.StatusError: Reason is the
// HTTP-level reason kubectl prints in `Error from server (<Reason>): <Message>`.
type StatusError struct {
	Reason  string // NotFound, AlreadyExists, Forbidden, Invalid, BadRequest, Conflict
	Message string
}

func (e *StatusError) Error() string { return e.Message }

// NotFound returns `<resource> "<name>" not found`, resource as in
// "daemonsets.apps" or "pods".
func NotFound(resource, name string) error {
	return &StatusError{Reason: "NotFound", Message: fmt.Sprintf("%s %q not found", resource, name)}
}

// AlreadyExists returns `<resource> "<name>" already exists`.
func AlreadyExists(resource, name string) error {
	return &StatusError{Reason: "AlreadyExists", Message: fmt.Sprintf("%s %q already exists", resource, name)}
}

// IsNotFound reports whether err is a NotFound StatusError.
func IsNotFound(err error) bool {
	var s *StatusError
	return errors.As(err, &s) && s.Reason == "NotFound"
}

// IsAlreadyExists reports whether err is an AlreadyExists StatusError.
func IsAlreadyExists(err error) bool {
	var s *StatusError
	return errors.As(err, &s) && s.Reason == "AlreadyExists"
}
