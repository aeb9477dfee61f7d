package manifest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// ServiceAccount, ConfigMap and Secret (core/v1): decoded field by field,
// validated as pkg/apis/core/validation does (ValidateServiceAccount,
// ValidateConfigMap, ValidateSecret and their Update variants), applied
// like every other kind.

// decodeConfigObject decodes the kind-specific top-level fields of a
// ServiceAccount, ConfigMap or Secret; ok is false for another kind.
func (d *decoder) decodeConfigObject(kind, apiVersion string, top *yaml.Node) (obj any, meta *api.ObjectMeta, ok bool) {
	tm := api.TypeMeta{APIVersion: apiVersion, Kind: kind}
	switch kind {
	case "ServiceAccount":
		sa := &api.ServiceAccount{TypeMeta: tm}
		sa.Extra = d.object(top, &sa.ObjectMeta, map[string]func(*yaml.Node){
			"automountServiceAccountToken": func(v *yaml.Node) {
				d.record("automountServiceAccountToken", v)
				b := d.boolean(v, "automountServiceAccountToken", kind)
				sa.AutomountServiceAccountToken = &b
			},
			"imagePullSecrets": func(v *yaml.Node) {
				d.list(v, "imagePullSecrets", kind, "[]v1.LocalObjectReference", func(i int, n *yaml.Node, p string) {
					var r api.LocalObjectReference
					d.mapping(n, p, "LocalObjectReference", "v1.LocalObjectReference", func(k string, v *yaml.Node, p string) bool {
						if k != "name" {
							return false
						}
						r.Name = d.str(v, p, "LocalObjectReference")
						return true
					})
					sa.ImagePullSecrets = append(sa.ImagePullSecrets, r)
				})
			},
			"secrets": func(v *yaml.Node) {
				d.list(v, "secrets", kind, "[]v1.ObjectReference", func(i int, n *yaml.Node, p string) {
					if m := d.anyMap(n, p, "ObjectReference"); m != nil {
						sa.Secrets = append(sa.Secrets, m)
					}
				})
			},
		})
		return sa, &sa.ObjectMeta, true
	case "ConfigMap":
		cm := &api.ConfigMap{TypeMeta: tm}
		cm.Extra = d.object(top, &cm.ObjectMeta, map[string]func(*yaml.Node){
			"immutable":  func(v *yaml.Node) { cm.Immutable = d.boolp(v, "immutable", kind) },
			"data":       func(v *yaml.Node) { cm.Data = d.stringMap(v, "data", kind) },
			"binaryData": func(v *yaml.Node) { cm.BinaryData = d.bytesMap(v, "binaryData", kind) },
		})
		return cm, &cm.ObjectMeta, true
	case "Secret":
		s := &api.Secret{TypeMeta: tm}
		var stringData map[string]string
		s.Extra = d.object(top, &s.ObjectMeta, map[string]func(*yaml.Node){
			"immutable":  func(v *yaml.Node) { s.Immutable = d.boolp(v, "immutable", kind) },
			"data":       func(v *yaml.Node) { s.Data = d.bytesMap(v, "data", kind) },
			"stringData": func(v *yaml.Node) { stringData = d.stringMap(v, "stringData", kind) },
			"type":       func(v *yaml.Node) { d.record("type", v); s.Type = d.str(v, "type", kind) },
		})
		// Convert_v1_Secret_To_core_Secret: stringData is written over
		// data, key by key, and is not stored.
		for k, v := range stringData {
			if s.Data == nil {
				s.Data = map[string][]byte{}
			}
			s.Data[k] = []byte(v)
		}
		return s, &s.ObjectMeta, true
	}
	return nil, nil, false
}

// boolp decodes an optional boolean.
func (d *decoder) boolp(n *yaml.Node, path, owner string) *bool {
	d.record(path, n)
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil
	}
	b := d.boolean(n, path, owner)
	return &b
}

// bytesMap decodes a map[string][]byte: each value a base64 string, as
// encoding/json decodes []byte; a bad one is the decoder's BadRequest
// (`Secret in version "v1" cannot be handled as a Secret: illegal base64
// data at input byte 4`).
func (d *decoder) bytesMap(n *yaml.Node, path, owner string) map[string][]byte {
	return decodeMap(d, n, path, owner, "map[string][]uint8", func(v *yaml.Node, p string) ([]byte, bool) {
		if v.Kind == yaml.ScalarNode && scalarKind(v) == "null" {
			return nil, true
		}
		if v.Kind != yaml.ScalarNode || scalarKind(v) != "string" {
			d.typeErrAt(v, p, path, owner, "[]uint8")
			return nil, false
		}
		b, err := base64.StdEncoding.DecodeString(v.Value)
		if err != nil {
			d.badRequest(v, p, err.Error(), "values under "+path+" are base64: encode them (`echo -n 'value' | base64`), or write plain text under stringData instead")
			return nil, false
		}
		return b, true
	})
}

// setDefaultsConfigObject defaults a ServiceAccount, ConfigMap or Secret
// (namespace "default"; a Secret's type Opaque, SetDefaults_Secret).
func setDefaultsConfigObject(obj any) {
	switch o := obj.(type) {
	case *api.ServiceAccount:
		if o.Namespace == "" {
			o.Namespace = api.DefaultNamespace
		}
	case *api.ConfigMap:
		if o.Namespace == "" {
			o.Namespace = api.DefaultNamespace
		}
	case *api.Secret:
		if o.Namespace == "" {
			o.Namespace = api.DefaultNamespace
		}
		if o.Type == "" {
			o.Type = api.SecretTypeOpaque
		}
	}
}

// validateConfigObject runs the kind's validation; ok is false for another
// kind.
func validateConfigObject(obj any) (l errList, kind, name string, ok bool) {
	switch o := obj.(type) {
	case *api.ServiceAccount:
		// ValidateServiceAccount: the name is a DNS-1123 subdomain.
		l.validateObjectMeta(&o.ObjectMeta, true, "metadata")
		return l, "ServiceAccount", o.Name, true
	case *api.ConfigMap:
		return validateConfigMap(o), "ConfigMap", o.Name, true
	case *api.Secret:
		return validateSecret(o), "Secret", o.Name, true
	}
	return nil, "", "", false
}

// maxSecretSize is core.MaxSecretSize (1 MiB), the bound on a ConfigMap's
// or Secret's data.
const maxSecretSize = 1 * 1024 * 1024

// validateConfigMapKeys checks the keys of a data map with IsConfigMapKey
// (errors at data[key]) and returns the size of the values.
func (l *errList) validateConfigMapKeys(keys []string, size func(string) int, path string) int {
	total := 0
	for _, k := range keys {
		n := len(*l)
		for _, msg := range api.IsConfigMapKey(k) {
			l.invalid(key(path, k), k, msg)
		}
		l.atFrom(n, join(path, k))
		total += size(k)
	}
	return total
}

// validateConfigMap mirrors ValidateConfigMap: the name is a DNS-1123
// subdomain; data and binaryData keys are config keys, not in both maps;
// the values add up to at most 1 MiB.
func validateConfigMap(cm *api.ConfigMap) errList {
	var l errList
	l.validateObjectMeta(&cm.ObjectMeta, true, "metadata")
	total := l.validateConfigMapKeys(slices.Sorted(maps.Keys(cm.Data)), func(k string) int { return len(cm.Data[k]) }, "data")
	for _, k := range slices.Sorted(maps.Keys(cm.Data)) {
		if _, dup := cm.BinaryData[k]; dup {
			l.invalid(key("data", k), k, "duplicate of key present in binaryData")
			l.at(join("data", k))
		}
	}
	total += l.validateConfigMapKeys(slices.Sorted(maps.Keys(cm.BinaryData)), func(k string) int { return len(cm.BinaryData[k]) }, "binaryData")
	if total > maxSecretSize {
		l = append(l, fieldErr{path: "", body: "Too long: may not be more than 1048576 bytes"})
	}
	return l
}

// validateSecret mirrors ValidateSecret: the name is a DNS-1123 subdomain,
// data keys are config keys, at most 1 MiB of data, and the keys each
// built-in type requires.
func validateSecret(s *api.Secret) errList {
	var l errList
	l.validateObjectMeta(&s.ObjectMeta, true, "metadata")
	total := l.validateConfigMapKeys(slices.Sorted(maps.Keys(s.Data)), func(k string) int { return len(s.Data[k]) }, "data")
	if total > maxSecretSize {
		l = append(l, fieldErr{path: "data", body: "Too long: may not be more than 1048576 bytes"})
	}
	requireKey := func(k string) {
		if _, ok := s.Data[k]; !ok {
			l.required(key("data", k), "")
			l.at("data")
		}
	}
	switch s.Type {
	case api.SecretTypeServiceAccountToken:
		if s.Annotations["kubernetes.io/service-account.name"] == "" {
			l.required(key("metadata.annotations", "kubernetes.io/service-account.name"), "")
			l.at("metadata")
		}
	case api.SecretTypeDockercfg, api.SecretTypeDockerConfigJSON:
		k := ".dockercfg"
		if s.Type == api.SecretTypeDockerConfigJSON {
			k = ".dockerconfigjson"
		}
		b, ok := s.Data[k]
		if !ok {
			requireKey(k)
			break
		}
		if err := json.Unmarshal(b, &map[string]any{}); err != nil {
			l.invalid(key("data", k), "<secret contents redacted>", err.Error())
			l.at(join("data", k))
		}
	case api.SecretTypeBasicAuth:
		_, u := s.Data["username"]
		_, p := s.Data["password"]
		if !u && !p {
			requireKey("username")
			requireKey("password")
		}
	case api.SecretTypeSSHAuth:
		if len(s.Data["ssh-privatekey"]) == 0 {
			l.required(key("data", "ssh-privatekey"), "")
			l.at("data")
		}
	case api.SecretTypeTLS:
		requireKey("tls.crt")
		requireKey("tls.key")
	}
	return l
}

// immutableChanges mirrors ValidateConfigMapUpdate / ValidateSecretUpdate
// for an object stored with immutable: true: data may not change and
// immutable may not be unset.
func immutableChanges(l *errList, wasImmutable *bool, isImmutable *bool, dataEqual bool) {
	if wasImmutable == nil || !*wasImmutable {
		return
	}
	if isImmutable == nil || !*isImmutable {
		l.forbidden("immutable", "field is immutable when `immutable` is set")
	}
	if !dataEqual {
		l.forbidden("data", "field is immutable when `immutable` is set")
	}
}

// planConfigObject plans the write of a ServiceAccount, ConfigMap or
// Secret; ok is false for another kind.
func (a *applier) planConfigObject(doc *Document) (line string, write func() error, diags []Diagnostic, ok bool) {
	switch o := doc.Object.(type) {
	case *api.ServiceAccount:
		sa := deepCopy(o)
		if diags := a.generateName(doc, &sa.ObjectMeta); diags != nil {
			return "", nil, diags, true
		}
		line, write, diags = planObject(a, doc, objectPlan[*api.ServiceAccount]{
			key: "ServiceAccount/" + cluster.Key(sa.Namespace, sa.Name), res: "serviceaccount/" + sa.Name, resource: "serviceaccounts", name: sa.Name,
			stored: func() *api.ServiceAccount { return a.c.ServiceAccount(sa.Namespace, sa.Name) },
			build: func() (*api.ServiceAccount, []Diagnostic) {
				if diags := a.admit(doc, sa.Namespace, "serviceaccounts", sa.Name); diags != nil {
					return nil, diags
				}
				a.setLastApplied(doc, &sa.ObjectMeta)
				return sa, nil
			},
			update: func(live *api.ServiceAccount) (*api.ServiceAccount, bool, []Diagnostic) {
				upd := deepCopy(live)
				upd.Labels, upd.Annotations, _ = a.metadata(doc, &live.ObjectMeta, &sa.ObjectMeta, true)
				upd.Secrets, upd.ImagePullSecrets, upd.AutomountServiceAccountToken, upd.Extra = sa.Secrets, sa.ImagePullSecrets, sa.AutomountServiceAccountToken, sa.Extra
				return upd, a.mode == ModeApply && semanticEqual(live, upd), nil
			},
			create: a.c.CreateServiceAccount,
			put:    a.c.UpdateServiceAccount,
		})
		return line, write, diags, true
	case *api.ConfigMap:
		cm := deepCopy(o)
		if diags := a.generateName(doc, &cm.ObjectMeta); diags != nil {
			return "", nil, diags, true
		}
		line, write, diags = planObject(a, doc, objectPlan[*api.ConfigMap]{
			key: "ConfigMap/" + cluster.Key(cm.Namespace, cm.Name), res: "configmap/" + cm.Name, resource: "configmaps", name: cm.Name,
			stored: func() *api.ConfigMap { return a.c.ConfigMap(cm.Namespace, cm.Name) },
			build: func() (*api.ConfigMap, []Diagnostic) {
				if diags := a.admit(doc, cm.Namespace, "configmaps", cm.Name); diags != nil {
					return nil, diags
				}
				a.setLastApplied(doc, &cm.ObjectMeta)
				return cm, nil
			},
			update: func(live *api.ConfigMap) (*api.ConfigMap, bool, []Diagnostic) {
				upd := deepCopy(live)
				upd.Labels, upd.Annotations, _ = a.metadata(doc, &live.ObjectMeta, &cm.ObjectMeta, true)
				upd.Data, upd.BinaryData, upd.Immutable, upd.Extra = cm.Data, cm.BinaryData, cm.Immutable, cm.Extra
				var l errList
				immutableChanges(&l, live.Immutable, upd.Immutable, semanticEqual(live.Data, upd.Data) && semanticEqual(live.BinaryData, upd.BinaryData))
				if len(l) > 0 {
					return nil, false, doc.diagnostics(l, "ConfigMap", cm.Name)
				}
				return upd, a.mode == ModeApply && semanticEqual(live, upd), nil
			},
			create: a.c.CreateConfigMap,
			put:    a.c.UpdateConfigMap,
		})
		return line, write, diags, true
	case *api.Secret:
		s := deepCopy(o)
		if diags := a.generateName(doc, &s.ObjectMeta); diags != nil {
			return "", nil, diags, true
		}
		line, write, diags = planObject(a, doc, objectPlan[*api.Secret]{
			key: "Secret/" + cluster.Key(s.Namespace, s.Name), res: "secret/" + s.Name, resource: "secrets", name: s.Name,
			stored: func() *api.Secret { return a.c.Secret(s.Namespace, s.Name) },
			build: func() (*api.Secret, []Diagnostic) {
				if diags := a.admit(doc, s.Namespace, "secrets", s.Name); diags != nil {
					return nil, diags
				}
				a.setLastApplied(doc, &s.ObjectMeta)
				return s, nil
			},
			update: func(live *api.Secret) (*api.Secret, bool, []Diagnostic) {
				upd := deepCopy(live)
				upd.Labels, upd.Annotations, _ = a.metadata(doc, &live.ObjectMeta, &s.ObjectMeta, true)
				upd.Data, upd.Type, upd.Immutable, upd.Extra = s.Data, s.Type, s.Immutable, s.Extra
				var l errList
				// ValidateSecretUpdate: the type is immutable
				if live.Type != s.Type {
					l.invalid("type", s.Type, "field is immutable")
				}
				immutableChanges(&l, live.Immutable, upd.Immutable, semanticEqual(live.Data, upd.Data))
				if len(l) > 0 {
					return nil, false, doc.diagnostics(l, "Secret", s.Name)
				}
				return upd, a.mode == ModeApply && semanticEqual(live, upd), nil
			},
			create: a.c.CreateSecret,
			put:    a.c.UpdateSecret,
		})
		return line, write, diags, true
	}
	return "", nil, nil, false
}

// setLastApplied records kubectl apply's last-applied-configuration
// annotation on an object about to be created.
func (a *applier) setLastApplied(doc *Document, m *api.ObjectMeta) {
	if a.mode != ModeApply {
		return
	}
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[api.LastAppliedConfigAnnotation] = lastApplied(doc, true)
}

// admitServiceAccount is the ServiceAccount admission plugin's lookup for
// a pod created by this call: the service account must exist in the store
// or be created by an earlier document (cluster.CheckServiceAccount).
func (a *applier) admitServiceAccount(doc *Document, pod *api.Pod) []Diagnostic {
	sa := pod.Spec.ServiceAccountName
	if sa == "" {
		sa = cluster.DefaultServiceAccountName
	}
	if _, ok := a.pending["ServiceAccount/"+cluster.Key(pod.Namespace, sa)].(*api.ServiceAccount); ok {
		return nil
	}
	// A namespace created earlier in this call gets its "default" account
	// from the serviceaccounts controller at once, and the plugin waits for
	// it (getServiceAccount retries the default account's lookup).
	if _, ok := a.pending["Namespace/"+pod.Namespace].(*api.Namespace); ok && sa == cluster.DefaultServiceAccountName {
		return nil
	}
	name := pod.Name
	if name == "" {
		name = pod.GenerateName
	}
	err := a.c.CheckServiceAccount(pod.Namespace, name, pod.Spec.ServiceAccountName)
	if err == nil {
		return nil
	}
	return a.serverError(doc, "spec.serviceAccountName", "Forbidden", err.Error(),
		"create the ServiceAccount first (`kubectl create serviceaccount "+sa+" -n "+pod.Namespace+"`), or put a ServiceAccount document (apiVersion: v1, kind: ServiceAccount) before this one in the file")
}

// ValidateObject runs the API server's validation of a ServiceAccount,
// ConfigMap or Secret built outside a manifest (kubectl create's
// generators): nil, or the Invalid error as kubectl prints it, `ConfigMap
// "x" is invalid: data[a b]: Invalid value: ...` (causes joined by ", ").
// Other types are not checked.
func ValidateObject(obj any) error {
	l, kind, name, ok := validateConfigObject(obj)
	if !ok || len(l) == 0 {
		return nil
	}
	causes := make([]string, len(l))
	for i, e := range l {
		causes[i] = e.path + ": " + e.body
	}
	return fmt.Errorf("%s %q is invalid: %s", kind, name, strings.Join(causes, ", "))
}
