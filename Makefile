# Thin targets; the work is in scripts/ and the Go code.
GO ?= go
BIN := bin/profgen
# Large test programs and traces are built here, never committed.
TESTDATA ?= $(CURDIR)/build/testdata
# Time per fuzz target for make fuzz.
FUZZTIME ?= 30s
export PROFGEN_TESTDATA := $(TESTDATA)

.PHONY: build test fleet-test testdata demo bench fuzz lint clean pgo-example pgo-eval

# What profgen --version prints: the nearest tag, commits since, revision.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/profgen

test: build testdata
	$(GO) test -timeout 60m ./...
	$(MAKE) fleet-test

# profgen-fleet (fleet/, a module of its own: Apache Beam): its tests run
# the pipeline on prism, embedded and as a job service (a few minutes).
fleet-test: testdata
	cd fleet && $(GO) test -timeout 30m ./...

testdata:
	scripts/testdata.sh "$(TESTDATA)"

demo: build
	scripts/demo.sh $(BIN)

bench: build testdata
	BENCH_BASE=$(BASE) scripts/bench.sh $(BIN) "$(TESTDATA)"

fuzz:
	scripts/fuzz.sh $(FUZZTIME)

# gofmt walks fleet/ too; go vet and go mod tidy run in each module.
lint:
	test -z "$$(gofmt -l .)" || { gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) mod tidy -diff
	cd fleet && $(GO) vet ./... && $(GO) mod tidy -diff
	scripts/check-imports.sh

clean:
	rm -rf bin build

# Go PGO from perf call-stack samples: record testdata/goexample, convert
# with profgen --format=pprof, rebuild with go build -pgo.
pgo-example: build
	scripts/pgo-example.sh $(BIN) build/pgo-example

# What profiles buy when the compiler uses them (a benchmark, ~15 minutes):
# sqlite, a C++ interpreter and a Go program built without PGO, with
# instrumentation, LBR and call-stack profiles; prints instruction and
# time gains (scripts/pgo-eval.sh).
pgo-eval: build
	scripts/pgo-eval.sh $(BIN) build/pgo-eval
