package kubectl

import "testing"

// TestConfigObjectsGolden: get tables (NAME AGE; NAME DATA AGE;
// NAME TYPE DATA AGE), -o yaml, describe, create serviceaccount, apply and
// delete of ServiceAccounts, ConfigMaps and Secrets, and the default
// objects every namespace has.
func TestConfigObjectsGolden(t *testing.T) {
	files := map[string]string{"objs.yaml": `apiVersion: v1
kind: ServiceAccount
metadata:
  name: fluentd
imagePullSecrets:
- name: regcred
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: fluentd-config
data:
  fluent.conf: |
    <match **>
      @type stdout
    </match>
  level: info
binaryData:
  blob: AAEC
---
apiVersion: v1
kind: Secret
metadata:
  name: es-creds
type: kubernetes.io/basic-auth
stringData:
  username: elastic
  password: changeme
`}
	files["fluent.conf"] = "<match **>\n  @type stdout\n</match>\n"
	runGoldenCases(t, []goldenCase{{name: "configobjects", files: files, lines: []string{
		"kubectl get sa",
		"kubectl get serviceaccounts -A",
		"kubectl get cm -n kube-system",
		"kubectl get secrets",
		"kubectl apply -f objs.yaml",
		"kubectl apply -f objs.yaml",
		"kubectl get sa,cm,secret",
		"kubectl get configmaps fluentd-config -o yaml",
		"kubectl get secret es-creds -o yaml",
		"kubectl get sa fluentd -o yaml",
		"kubectl describe sa fluentd",
		"kubectl describe configmap fluentd-config",
		"kubectl describe secret es-creds",
		"kubectl create serviceaccount builder",
		"kubectl create sa builder",
		"kubectl create sa x -n nope",
		"kubectl get sa builder -o name",
		"kubectl delete -f objs.yaml",
		"kubectl delete sa default",
		"kubectl get sa",
		"kubectl get cm nope",
		"kubectl api-resources --api-group=",
		// the configmap and secret generic generators
		"kubectl create configmap agent-config --from-file=fluent.conf --from-literal=level=info",
		"kubectl create cm c2 --from-file=custom.conf=fluent.conf --dry-run=client -o name",
		"kubectl create cm c3 --from-literal=a",
		"kubectl create cm c3 --from-literal=a=1 --from-literal=a=2",
		"kubectl create cm c3 --from-literal=..a=1",
		"kubectl create cm c3 --from-file=nope.conf",
		"kubectl create cm agent-config",
		"kubectl create cm a b",
		"kubectl create secret generic es --from-literal=password=changeme --type=kubernetes.io/basic-auth",
		"kubectl create secret generic bad --type=kubernetes.io/tls",
		"kubectl create secret tls x --cert=a --key=b",
		"kubectl get cm,secret",
	}}})
}
