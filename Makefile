# capplan — see README.md. `make run` and `make test` are the set-up contract.
GO       ?= go
# Fuzzing is count-based: every target runs FUZZN inputs (and minimizes a
# crasher within FUZZMIN runs), never a wall-clock -fuzztime. A timed run
# on a loaded machine can end in the fuzzing coordinator's own deadline
# race (a bare "context deadline exceeded" and no crasher written;
# golang/go#75804, fixed in Go 1.27, present in our go1.26), which made
# `make test` flaky; a count-based run has no deadline, so it fails only
# on a real crasher, which it writes under testdata/fuzz/. No retries.
# Raise FUZZN to fuzz longer.
FUZZN    ?= 2000
FUZZMIN  ?= 200
# Every input format's fuzz target, as package:target.
FUZZ_TARGETS := \
	./datasets:FuzzParseCluster ./datasets:FuzzParseDemand ./datasets:FuzzParseWorkload \
	./datasets:FuzzParseKubectl ./datasets:FuzzParseOpenB ./datasets:FuzzParseOpenBPods ./datasets:FuzzParseSweep \
	./datasets/dags:FuzzReadAlibabaRows ./datasets/dags:FuzzParsePSPLIB ./datasets/dags:FuzzParsePSPLIBTable \
	./datasets/vbpfile:FuzzParseVBP ./datasets/vbpfile:FuzzParseSummary ./datasets/workloads:FuzzReadAlibaba \
	./plan:FuzzDecodeDocument ./plan:FuzzDecodePlan ./plan:FuzzMergeParts \
	./pipeline:FuzzReadDAGObserved

.PHONY: run test fuzz test-clp test-slurm bench build

# -buildvcs=true stamps the commit into the binary (capplan version).
build:
	$(GO) build -buildvcs=true -o bin/capplan ./cmd/capplan

# The main job on the embedded example data: the whole pipeline into a
# plan bundle in out/ (exit code 3 would mean a bundle with warnings).
run:
	$(GO) build -buildvcs=true -o bin/capplan ./cmd/capplan
	./bin/capplan plan --example -o out/
	@echo "report: out/report.html (and out/report.xlsx, out/export/); verify with: ./bin/capplan plan --check out/"

# Vet, unit tests, and a short fuzzing run of every input parser.
test:
	$(GO) vet ./...
	$(GO) test -timeout 30m ./...
	$(MAKE) fuzz

fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; f=$${t##*:}; \
		echo "fuzz $$f ($$pkg, $(FUZZN) inputs)"; \
		$(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZN)x -fuzzminimizetime=$(FUZZMIN)x $$pkg || exit 1; \
	done

# Tests of the COIN-OR CLP backend (needs coinor-libclp-dev; .ci/run installs it).
test-clp:
	$(GO) vet -tags clp ./...
	$(GO) test -timeout 30m -tags clp ./lp/ ./pipeline/ ./cmd/...
	$(GO) test -tags clp -run 'LP|AllBounds' ./dag/

# Sharding on a real one-node Slurm (installs slurm-wlm and munge when
# missing; needs root): sharded sweep and DAG set, merged byte-identical.
test-slurm:
	./scripts/test-slurm.sh

# Quality/speed tables, then the Go benchmarks. BENCHTAGS=clp adds the CLP backend.
bench:
	$(GO) run -tags "$(BENCHTAGS)" ./cmd/benchtables
	$(GO) test -tags "$(BENCHTAGS)" -run='^$$' -bench=. -benchmem ./flow/ ./lp/
