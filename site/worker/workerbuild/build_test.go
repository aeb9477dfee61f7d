package workerbuild

import (
	"strings"
	"testing"
)

func TestSummaryComparesWithCloudflareLimits(t *testing.T) {
	for _, tc := range []struct {
		gzip int64
		want string
	}{
		{FreePlanLimit, "fits the free plan"},
		{FreePlanLimit + 1, "needs the paid plan"},
		{PaidPlanLimit, "needs the paid plan"},
		{PaidPlanLimit + 1, "OVER the paid plan's 10 MiB limit"},
	} {
		r := &Result{Dir: "/x", WasmBytes: 4 * tc.gzip, WasmGzipBytes: tc.gzip, AssetFiles: 3, AssetBytes: 100, LargestAsset: "main.wasm", LargestAssetBytes: 90}
		if got := r.Summary(); !strings.Contains(got, tc.want) {
			t.Errorf("gzip %d bytes: summary\n%s\nwant it to say %q", tc.gzip, got, tc.want)
		}
	}
}
