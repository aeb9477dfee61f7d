package cluster

import (
	"hash/fnv"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// configObjects holds the ServiceAccounts, ConfigMaps and Secrets (keyed
// "namespace/name"), and which namespaces have had their default objects
// made.
type configObjects struct {
	serviceAccounts map[string]*api.ServiceAccount
	configMaps      map[string]*api.ConfigMap
	secrets         map[string]*api.Secret
	// seeded maps a namespace name to the UID of the namespace whose
	// default ServiceAccount and kube-root-ca.crt ConfigMap were made (a
	// namespace deleted and created again gets them anew).
	seeded map[string]string
}

// RootCACertificate is the ca.crt of the kube-root-ca.crt ConfigMap: a
// placeholder PEM block (the playground has no real CA).
const RootCACertificate = "-----BEGIN CERTIFICATE-----\nMIIDBTCCAe2gAwIBAgIIZHNwbGF5Z3JvdW5kLWNhMA0GCSqGSIb3DQEBCwUAMBUx\nEzARBgNVBAMTCmt1YmVybmV0ZXMwHhcNMjYwMTAxMDAwMDAwWhcNMzYwMTAxMDAw\nMDAwWjAVMRMwEQYDVQQDEwprdWJlcm5ldGVzMIIBIjANBgkqhkiG9w0BAQEFAAOC\n-----END CERTIFICATE-----\n"

// rootCADescription is the annotation the root-ca-cert-publisher puts on
// kube-root-ca.crt (pkg/controller/certificates/rootcacertpublisher
// publisher.go, DescriptionAnnotation).
const rootCADescription = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters."

// configStore returns the store of ServiceAccounts, ConfigMaps and Secrets
// after making the objects the controllers keep in every Active namespace:
// the ServiceAccount "default" (the serviceaccounts controller,
// pkg/controller/serviceaccount serviceaccounts_controller.go syncNamespace)
// and the ConfigMap kube-root-ca.crt (the root-ca-cert-publisher,
// pkg/controller/certificates/rootcacertpublisher publisher.go syncNamespace).
// Both controllers act as soon as a namespace appears, so the objects take
// the namespace's creation time; they are made without the seeded
// generator and without a resourceVersion bump (UIDs hashed from the
// names), so that having them changed no generated name or version
// elsewhere. A default object deleted later is recreated at once (both
// controllers watch their objects), then at the current time.
func (c *Cluster) configStore() *configObjects {
	if c.config == nil {
		c.config = &configObjects{
			serviceAccounts: map[string]*api.ServiceAccount{},
			configMaps:      map[string]*api.ConfigMap{},
			secrets:         map[string]*api.Secret{},
			seeded:          map[string]string{},
		}
	}
	s := c.config
	for name, ns := range c.namespaceStore() {
		if ns.Status.Phase != api.NamespaceActive || s.seeded[name] == ns.UID {
			continue
		}
		s.seeded[name] = ns.UID
		rv := ns.ResourceVersion
		key := Key(name, DefaultServiceAccountName)
		if s.serviceAccounts[key] == nil {
			s.serviceAccounts[key] = &api.ServiceAccount{
				TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
				ObjectMeta: api.ObjectMeta{Name: DefaultServiceAccountName, Namespace: name, UID: hashedUID("ServiceAccount/" + key + "/" + ns.UID), CreationTimestamp: ns.CreationTimestamp, ResourceVersion: rv},
			}
		}
		key = Key(name, api.RootCAConfigMapName)
		if s.configMaps[key] == nil {
			s.configMaps[key] = rootCAConfigMap(name, hashedUID("ConfigMap/"+key+"/"+ns.UID), ns.CreationTimestamp, rv)
		}
		key = Key(name, LegacyTokenTrackingConfigMapName)
		if name == api.NamespaceSystem && s.configMaps[key] == nil {
			s.configMaps[key] = &api.ConfigMap{
				TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: api.ObjectMeta{Name: LegacyTokenTrackingConfigMapName, Namespace: name,
					UID: hashedUID("ConfigMap/" + key + "/" + ns.UID), CreationTimestamp: ns.CreationTimestamp, ResourceVersion: rv},
				Data: map[string]string{"since": ns.CreationTimestamp.UTC().Format("2006-01-02")},
			}
		}
	}
	return s
}

// LegacyTokenTrackingConfigMapName is the ConfigMap in kube-system the API
// server's legacy-token-tracking controller writes when it starts
// (pkg/controlplane/controller/legacytokentracking: ConfigMapName, its
// "since" key the date, 2006-01-02, tracking began).
const LegacyTokenTrackingConfigMapName = "kube-apiserver-legacy-service-account-token-tracking"

// rootCAConfigMap is the kube-root-ca.crt ConfigMap of namespace ns.
func rootCAConfigMap(ns, uid string, created time.Time, rv string) *api.ConfigMap {
	return &api.ConfigMap{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Name: api.RootCAConfigMapName, Namespace: ns, UID: uid, CreationTimestamp: created, ResourceVersion: rv,
			Annotations: map[string]string{"kubernetes.io/description": rootCADescription}},
		Data: map[string]string{"ca.crt": RootCACertificate},
	}
}

// hashedUID is a UID in the 8-4-4-4-12 form derived from s, for objects
// made outside the seeded generator.
func hashedUID(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	a := h.Sum64()
	h.Write([]byte{0})
	return formatUID(a, h.Sum64())
}

// restoreDefaults recreates namespace ns's default ServiceAccount or
// kube-root-ca.crt ConfigMap after a delete, as their controllers do.
func (c *Cluster) restoreDefaults(ns string) {
	n := c.namespaceStore()[ns]
	if n == nil || n.Status.Phase != api.NamespaceActive {
		return
	}
	s := c.config
	if key := Key(ns, DefaultServiceAccountName); s.serviceAccounts[key] == nil {
		sa := &api.ServiceAccount{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
			ObjectMeta: api.ObjectMeta{Name: DefaultServiceAccountName, Namespace: ns}}
		_ = createIn(c, s.serviceAccounts, sa, "serviceaccounts")
	}
	if key := Key(ns, api.RootCAConfigMapName); s.configMaps[key] == nil {
		cm := rootCAConfigMap(ns, "", time.Time{}, "")
		_ = createIn(c, s.configMaps, cm, "configmaps")
	}
}

// removeConfigObjects deletes every ServiceAccount, ConfigMap and Secret
// of namespace ns (the namespace controller's content deletion).
func (c *Cluster) removeConfigObjects(ns string) {
	if c.config == nil {
		return
	}
	s := c.config
	for k, o := range s.serviceAccounts {
		if o.Namespace == ns {
			delete(s.serviceAccounts, k)
		}
	}
	for k, o := range s.configMaps {
		if o.Namespace == ns {
			delete(s.configMaps, k)
		}
	}
	for k, o := range s.secrets {
		if o.Namespace == ns {
			delete(s.secrets, k)
		}
	}
	delete(s.seeded, ns)
	c.rv++
}

// ---- serviceaccounts ----

// ServiceAccount returns the ServiceAccount or nil.
func (c *Cluster) ServiceAccount(namespace, name string) *api.ServiceAccount {
	return c.configStore().serviceAccounts[Key(namespace, name)]
}

// ServiceAccounts returns every ServiceAccount sorted by namespace, name.
func (c *Cluster) ServiceAccounts() []*api.ServiceAccount {
	return sortedObjects(c.configStore().serviceAccounts)
}

// CreateServiceAccount stores a new ServiceAccount. Errors: AlreadyExists.
func (c *Cluster) CreateServiceAccount(sa *api.ServiceAccount) error {
	sa.APIVersion, sa.Kind = "v1", "ServiceAccount"
	return createIn(c, c.configStore().serviceAccounts, sa, "serviceaccounts")
}

// UpdateServiceAccount records a change to a stored ServiceAccount.
// Errors: NotFound.
func (c *Cluster) UpdateServiceAccount(sa *api.ServiceAccount) error {
	return updateIn(c, c.configStore().serviceAccounts, sa, "serviceaccounts")
}

// DeleteServiceAccount deletes a ServiceAccount at once ("default" is made
// again by the serviceaccounts controller). Errors: NotFound.
func (c *Cluster) DeleteServiceAccount(namespace, name string) error {
	if err := removeFrom(c, c.configStore().serviceAccounts, namespace, name, "serviceaccounts"); err != nil {
		return err
	}
	c.restoreDefaults(namespace)
	return nil
}

// ---- configmaps ----

// ConfigMap returns the ConfigMap or nil.
func (c *Cluster) ConfigMap(namespace, name string) *api.ConfigMap {
	return c.configStore().configMaps[Key(namespace, name)]
}

// ConfigMaps returns every ConfigMap sorted by namespace, name.
func (c *Cluster) ConfigMaps() []*api.ConfigMap { return sortedObjects(c.configStore().configMaps) }

// CreateConfigMap stores a new ConfigMap. Errors: AlreadyExists.
func (c *Cluster) CreateConfigMap(cm *api.ConfigMap) error {
	cm.APIVersion, cm.Kind = "v1", "ConfigMap"
	return createIn(c, c.configStore().configMaps, cm, "configmaps")
}

// UpdateConfigMap records a change to a stored ConfigMap. Errors: NotFound.
func (c *Cluster) UpdateConfigMap(cm *api.ConfigMap) error {
	return updateIn(c, c.configStore().configMaps, cm, "configmaps")
}

// DeleteConfigMap deletes a ConfigMap at once (kube-root-ca.crt is made
// again by the root-ca-cert-publisher). Errors: NotFound.
func (c *Cluster) DeleteConfigMap(namespace, name string) error {
	if err := removeFrom(c, c.configStore().configMaps, namespace, name, "configmaps"); err != nil {
		return err
	}
	c.restoreDefaults(namespace)
	return nil
}

// ---- secrets ----

// Secret returns the Secret or nil.
func (c *Cluster) Secret(namespace, name string) *api.Secret {
	return c.configStore().secrets[Key(namespace, name)]
}

// Secrets returns every Secret sorted by namespace, name.
func (c *Cluster) Secrets() []*api.Secret { return sortedObjects(c.configStore().secrets) }

// CreateSecret stores a new Secret. Errors: AlreadyExists.
func (c *Cluster) CreateSecret(s *api.Secret) error {
	s.APIVersion, s.Kind = "v1", "Secret"
	return createIn(c, c.configStore().secrets, s, "secrets")
}

// UpdateSecret records a change to a stored Secret. Errors: NotFound.
func (c *Cluster) UpdateSecret(s *api.Secret) error {
	return updateIn(c, c.configStore().secrets, s, "secrets")
}

// DeleteSecret deletes a Secret at once. Errors: NotFound.
func (c *Cluster) DeleteSecret(namespace, name string) error {
	return removeFrom(c, c.configStore().secrets, namespace, name, "secrets")
}
