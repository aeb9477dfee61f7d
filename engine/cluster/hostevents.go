package cluster

import (
	"fmt"
	"hash/fnv"

	"github.com/dsplayground/dsplay/engine/api"
)

// RecordNodeEvent records an event about a node exactly as Record does, except
// that the new event's own UID is derived from a hash of the event instead
// of being drawn from the store's seeded generator. Node events (a kubelet's
// Starting, NodeHasSufficientMemory ..., the node controller's
// RegisteredNode) happen at every node's registration, including the default
// cluster's nodes; drawing their UIDs from the generator would shift the
// generated name of every pod created afterwards.
func (c *Cluster) RecordNodeEvent(meta *api.ObjectMeta, eventType, reason, message, component, host string) {
	c.record("Node", meta, "", eventType, reason, message, component, host, func() string {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s|%s|%s|%s|%d|%d", meta.Name, meta.UID, reason, component, c.now.UnixNano(), c.eventSeq)
		a := h.Sum64()
		h.Write([]byte(message))
		return formatUID(a, h.Sum64())
	})
}

// formatUID renders two 64-bit hashes as a UID in the 8-4-4-4-12 hex form:
// the first three groups from a, the last two from b.
func formatUID(a, b uint64) string {
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", uint32(a>>32), uint16(a>>16), uint16(a), uint16(b>>48), b&0xffffffffffff)
}
