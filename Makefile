# capplan — see README.md. `make run` and `make test` are the set-up contract.
GO       ?= go
FUZZTIME ?= 4s
FUZZ_DATASETS := FuzzParseCluster FuzzParseDemand FuzzParseWorkload FuzzParseKubectl FuzzParseOpenB FuzzParseOpenBPods FuzzParseSweep

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
	$(GO) test ./...
	$(MAKE) fuzz

fuzz:
	@for f in $(FUZZ_DATASETS); do \
		echo "fuzz $$f ($(FUZZTIME))"; \
		$(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=1s ./datasets/ || exit 1; \
	done
	@for f in FuzzDecodeDocument FuzzDecodePlan FuzzMergeParts; do \
		echo "fuzz $$f ($(FUZZTIME))"; \
		$(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=1s ./plan/ || exit 1; \
	done

# Tests of the COIN-OR CLP backend (needs coinor-libclp-dev; .ci/run installs it).
test-clp:
	$(GO) vet -tags clp ./...
	$(GO) test -tags clp ./lp/ ./pipeline/ ./cmd/...

# Sharding on a real one-node Slurm (installs slurm-wlm and munge when
# missing; needs root): sharded sweep and DAG set, merged byte-identical.
test-slurm:
	./scripts/test-slurm.sh

# Quality/speed tables, then the Go benchmarks. BENCHTAGS=clp adds the CLP backend.
bench:
	$(GO) run -tags "$(BENCHTAGS)" ./internal/benchtables
	$(GO) test -tags "$(BENCHTAGS)" -run='^$$' -bench=. -benchmem ./flow/ ./lp/
