package engine

import "github.com/dsplayground/dsplay/engine/kubectl"

// KubernetesVersion is the Kubernetes release the engine reproduces
// ("v1.37.2"): `kubectl version` reports it for client and server, every
// node's kubeletVersion is it, and the page names it in its top bar.
const KubernetesVersion = kubectl.Version
