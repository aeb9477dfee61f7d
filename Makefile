# DaemonSet Playground. The two commands a newcomer needs:
#   make serve   build the wasm app and serve it on http://127.0.0.1:8080 (PORT overrides)
#   make test    every test: engine, scenarios, golden transcripts, headless-Chromium browser tests
GO ?= go
export PATH := /usr/local/go/bin:$(PATH)

.PHONY: serve build test test-go test-wasm chromium examples bench wasm-size fmt vet generate

serve:
	$(GO) run ./site/cmd/serve

build:
	$(GO) run ./site/cmd/serve -build-only

test: chromium vet
	$(GO) test ./...
	$(MAKE) --no-print-directory test-wasm
	$(MAKE) --no-print-directory examples

# The browser app's own unit tests, compiled for GOOS=js and run under Node
# (go_js_wasm_exec ships with Go).
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -exec="$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm

# The browser tests need Debian's chromium: install it when we can (root),
# otherwise say exactly what to run.
chromium:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing Debian's chromium for the browser tests"; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "chromium is missing: run 'sudo apt-get install -y chromium' (or DSPLAY_SKIP_BROWSER=1 make test-go)"; exit 1; \
	fi

# Engine and scenario tests only, no browser.
test-go: vet
	DSPLAY_SKIP_BROWSER=1 $(GO) test ./...

# Every example scenario, headless, through the CLI (contract 3).
examples:
	$(GO) run ./cmd/dsplay run examples/*.txtar > /dev/null && echo "examples: all scenarios passed"

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/...

# What a learner downloads.
wasm-size:
	@GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o /tmp/dsplay-size.wasm ./wasm && \
	  echo "raw $$(stat -c %s /tmp/dsplay-size.wasm) bytes, gzip -9 $$(gzip -9 -c /tmp/dsplay-size.wasm | wc -c) bytes"

vet:
	$(GO) vet ./...

fmt:
	gofmt -l -w $$(git ls-files '*.go')

# Regenerate engine/schema/schema.bin from the pinned k8s.io/api types.
generate:
	$(GO) generate ./engine/schema
