package kubelet

import "time"

// PullProgress reports how far the kubelet has got pulling the app
// containers' images of the pod with this UID, at virtual time now: the
// fraction of the planned pull time gone by, in [0, 1), and the virtual
// time the last pull ends. ok is false when
// the pod has no pull in progress (not accepted yet, nothing to pull, the
// pulls done, failed or never to happen under imagePullPolicy Never). The
// pull time is the simulation's own plan (pullDelay); a real kubelet
// reports no progress, only the Pulling and Pulled events.
func (k *Kubelets) PullProgress(uid string, now time.Time) (frac float64, end time.Time, ok bool) {
	t := k.timelines[uid]
	if t == nil || t.pulled || t.blocked || len(t.pulls) == 0 {
		return 0, time.Time{}, false
	}
	var total, gone time.Duration
	for _, pl := range t.pulls {
		if pl.failed || pl.blocked {
			return 0, time.Time{}, false
		}
		total += pl.took
		end = maxTime(end, pl.done)
		start := pl.done.Add(-pl.took)
		switch {
		case !now.After(start):
		case now.Before(pl.done):
			gone += now.Sub(start)
		default:
			gone += pl.took
		}
	}
	if total <= 0 || gone >= total {
		return 0, time.Time{}, false
	}
	return float64(gone) / float64(total), end, true
}
