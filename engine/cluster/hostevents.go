package cluster

import (
	"strconv"

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
		// FNV-1a (hash/fnv's New64a) of "%s|%s|%s|%s|%d|%d" (name, UID,
		// reason, component, now in ns, event sequence), then continued
		// over the message, built without fmt or a hash.Hash: thousands
		// of node events are recorded when many nodes join at once.
		var buf [128]byte
		b := append(buf[:0], meta.Name...)
		b = append(b, '|')
		b = append(b, meta.UID...)
		b = append(b, '|')
		b = append(b, reason...)
		b = append(b, '|')
		b = append(b, component...)
		b = append(b, '|')
		b = strconv.AppendInt(b, c.now.UnixNano(), 10)
		b = append(b, '|')
		b = strconv.AppendInt(b, c.eventSeq, 10)
		a := fnv64a(fnvOffset64, b)
		return formatUID(a, fnv64a(a, message))
	})
}

const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// fnv64a continues the 64-bit FNV-1a hash h (fnvOffset64 to start) over
// the bytes of data: fnv.New64a's Write, then Sum64.
func fnv64a[T string | []byte](h uint64, data T) uint64 {
	for i := 0; i < len(data); i++ {
		h ^= uint64(data[i])
		h *= fnvPrime64
	}
	return h
}

// formatUID renders two 64-bit hashes as a UID in the 8-4-4-4-12 hex form:
// the first three groups from a, the last two from b.
func formatUID(a, b uint64) string {
	var buf [36]byte
	hexPad(buf[0:8], uint64(uint32(a>>32)))
	buf[8] = '-'
	hexPad(buf[9:13], uint64(uint16(a>>16)))
	buf[13] = '-'
	hexPad(buf[14:18], uint64(uint16(a)))
	buf[18] = '-'
	hexPad(buf[19:23], uint64(uint16(b>>48)))
	buf[23] = '-'
	hexPad(buf[24:36], b&0xffffffffffff)
	return string(buf[:])
}

// hexPad writes v in lower-case hex into dst, zero-padded to len(dst)
// digits (v must fit: the %0Nx of fmt for a value of at most N digits).
func hexPad(dst []byte, v uint64) {
	const digits = "0123456789abcdef"
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = digits[v&0xf]
		v >>= 4
	}
}
