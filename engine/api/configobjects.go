package api

import (
	"regexp"
	"strings"
)

// ServiceAccount, ConfigMap and Secret: the core/v1 objects a DaemonSet's
// pods name (spec.serviceAccountName, configMap and secret volumes). The
// playground stores them so that admission and the kubelet's volume mounts
// behave as on a real cluster; nothing reads their contents.

// Secret types (core/v1 SecretType constants).
const (
	SecretTypeOpaque              = "Opaque"
	SecretTypeServiceAccountToken = "kubernetes.io/service-account-token"
	SecretTypeDockercfg           = "kubernetes.io/dockercfg"
	SecretTypeDockerConfigJSON    = "kubernetes.io/dockerconfigjson"
	SecretTypeBasicAuth           = "kubernetes.io/basic-auth"
	SecretTypeSSHAuth             = "kubernetes.io/ssh-auth"
	SecretTypeTLS                 = "kubernetes.io/tls"
	SecretTypeBootstrapToken      = "bootstrap.kubernetes.io/token"
)

// RootCAConfigMapName is the ConfigMap the root-ca-cert-publisher
// controller keeps in every namespace (pkg/controller/certificates/
// rootcacertpublisher), holding the cluster CA as ca.crt.
const RootCAConfigMapName = "kube-root-ca.crt"

// LocalObjectReference is core/v1 LocalObjectReference.
type LocalObjectReference struct {
	Name string `json:"name"`
}

// ServiceAccount is core/v1 ServiceAccount (secrets and imagePullSecrets
// are kept as written; the token controller no longer fills secrets).
type ServiceAccount struct {
	TypeMeta                     `json:",inline"`
	ObjectMeta                   `json:"metadata"`
	Secrets                      []map[string]any       `json:"secrets,omitempty"`
	ImagePullSecrets             []LocalObjectReference `json:"imagePullSecrets,omitempty"`
	AutomountServiceAccountToken *bool                  `json:"automountServiceAccountToken,omitempty"`
	// Extra holds fields the playground does not model, as written.
	Extra Unmodeled `json:"-"`
}

// ConfigMap is core/v1 ConfigMap. BinaryData values are the decoded
// bytes (base64 in YAML and JSON, as []byte marshals).
type ConfigMap struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Immutable  *bool             `json:"immutable,omitempty"`
	Data       map[string]string `json:"data,omitempty"`
	BinaryData map[string][]byte `json:"binaryData,omitempty"`
	Extra      Unmodeled         `json:"-"`
}

// Secret is core/v1 Secret: Data holds the decoded bytes (base64 in YAML
// and JSON); stringData is merged into Data on write, as the API server's
// conversion does, and never stored. Type defaults to Opaque.
type Secret struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Immutable  *bool             `json:"immutable,omitempty"`
	Data       map[string][]byte `json:"data,omitempty"`
	Type       string            `json:"type,omitempty"`
	Extra      Unmodeled         `json:"-"`
}

// configMapKeyFmt and configMapKeyErrMsg are apimachinery's
// (pkg/util/validation).
const (
	configMapKeyFmt    = `[-._a-zA-Z0-9]+`
	configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"
)

var configMapKeyRe = regexp.MustCompile("^" + configMapKeyFmt + "$")

// IsConfigMapKey mirrors validation.IsConfigMapKey: a key of a ConfigMap's
// or Secret's data is at most 253 characters of [-._a-zA-Z0-9], and is not
// ".", ".." or a name starting with "..".
func IsConfigMapKey(v string) []string {
	var errs []string
	if len(v) > 253 {
		errs = append(errs, maxLenError(253))
	}
	if !configMapKeyRe.MatchString(v) {
		errs = append(errs, regexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case v == ".":
		errs = append(errs, "must not be '.'")
	case v == "..":
		errs = append(errs, "must not be '..'")
	case strings.HasPrefix(v, ".."):
		errs = append(errs, "must not start with '..'")
	}
	return errs
}
