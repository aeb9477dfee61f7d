# DaemonSet Playground. The two commands a newcomer needs:
#   make serve   build the wasm app and serve it on http://127.0.0.1:8080 (PORT overrides)
#   make test    every test: engine, scenarios, golden transcripts, headless-Chromium browser tests
GO ?= go
export PATH := /usr/local/go/bin:$(PATH)

.PHONY: serve build bundle test test-go test-wasm test-wasm-merged chromium worker worker-deps examples bench bench-stage wasm-size fmt vet generate

# The web root (site/dist: hashed wasm, scripts and styles with .br and .gz
# siblings, embed.html) served by site/web, the handler the Worker runs too.
serve:
	$(GO) run ./site/cmd/serve

build:
	$(GO) run ./site/cmd/serve -build-only -brotli 11

# One self-contained HTML file for offline classrooms (open it from file://).
bundle:
	$(GO) run ./site/cmd/bundle

test: chromium worker-deps vet
	$(GO) test -timeout 20m ./...
	$(MAKE) --no-print-directory test-wasm
	$(MAKE) --no-print-directory test-wasm-merged
	$(MAKE) --no-print-directory examples

# The browser app's own unit tests, compiled for GOOS=js and run under Node
# (go_js_wasm_exec ships with Go).
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -exec="$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm

# The same tests from the test binary with its data segments merged, as
# site.Build merges the served wasm (site/cmd/wasmmerge -exec merges, then
# runs go_js_wasm_exec).
test-wasm-merged:
	$(GO) build -o bin/wasmmerge ./site/cmd/wasmmerge
	GOOS=js GOARCH=wasm $(GO) test -exec="$(CURDIR)/bin/wasmmerge -exec" ./wasm

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

# The Cloudflare Worker (site/worker, see its README): the web root into
# site/worker/build/assets, the Worker wasm and syumai/workers' glue into
# site/worker/build/worker; prints the sizes against Cloudflare's limits.
worker:
	$(GO) run ./site/worker/cmd/build

# workerd and wrangler for the Worker test, pinned by site/worker/package-lock.json:
# `npm ci` when they are missing (Debian's npm is installed first when we are root).
worker-deps:
	@if [ -e site/worker/node_modules/.bin/workerd ]; then :; \
	elif command -v npm >/dev/null 2>&1; then \
	  echo "installing site/worker's npm packages (npm ci)"; cd site/worker && npm ci --no-audit --no-fund --loglevel=error; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing Debian's npm for the Worker test"; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null && \
	  cd site/worker && npm ci --no-audit --no-fund --loglevel=error; \
	else \
	  echo "npm is missing: run 'sudo apt-get install -y nodejs npm' (or DSPLAY_SKIP_WORKER=1 make test-go)"; exit 1; \
	fi

# Engine and scenario tests only, no browser.
test-go: vet
	DSPLAY_SKIP_BROWSER=1 $(GO) test ./...

# Every example scenario, headless, through the CLI (contract 3).
examples:
	$(GO) run ./cmd/dsplay run examples/*.txtar examples/lessons/*.txtar examples/exercises/*.txtar > /dev/null && echo "examples: all scenarios passed"

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/...

# The stage's frame gaps in headless Chromium during a rollout at 100 and
# 1,000 nodes (p50/p95/max ms per frame; site/browsertest BenchmarkStageFrames).
bench-stage: chromium
	$(GO) test -run '^$$' -bench StageFrames -benchtime 2x ./site/browsertest

# What a learner downloads: the wasm as linked and as served (its data
# segments merged, site/internal/wasmdata), raw, gzip -9 and brotli (quality
# BROTLI, 11 as served by make build and the Worker: a minute or two the
# first time, cached by content; BROTLI=0 skips it).
BROTLI ?= 11
wasm-size:
	@GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o /tmp/dsplay-size.wasm ./wasm && \
	  $(GO) run ./site/cmd/wasmmerge -sizes -brotli $(BROTLI) /tmp/dsplay-size.wasm

vet:
	$(GO) vet ./...

fmt:
	gofmt -l -w $$(git ls-files '*.go')

# Regenerate engine/schema/schema.bin from the pinned k8s.io/api types.
generate:
	$(GO) generate ./engine/schema
