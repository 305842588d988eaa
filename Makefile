# Parley: `make run` checks the bundled Fixtures/recorded with the parley tool; `make test` runs the tests.
# Both first install the system -dev packages the C-backed formats need, when they are missing.

SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := pkg-config libxml2-dev libyaml-dev zlib1g-dev libpng-dev libjpeg-dev libgif-dev libwebp-dev libtiff-dev
PKG_CONFIG_MODULES := libxml-2.0 yaml-0.1 zlib libpng libjpeg libwebp libwebpdemux libtiff-4
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

FUZZ_SECONDS ?= 20

.PHONY: setup build run test tsan bench bench-gate linearity-gate fuzz docs examples clean

setup:
	@missing=0; \
	command -v pkg-config >/dev/null 2>&1 || missing=1; \
	for m in $(PKG_CONFIG_MODULES); do pkg-config --exists $$m 2>/dev/null || missing=1; done; \
	[ -f /usr/include/gif_lib.h ] || missing=1; \
	if [ $$missing = 1 ]; then \
	  echo "Installing system packages: $(APT_PACKAGES)"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
	fi

build: setup
	$(SWIFT) build --product parley

# The main job: check every recorded exchange of the clean set (Fixtures/recorded) with the
# formats linked into parley. Fixtures/failing holds recordings that must fail; the tests use it.
run: build
	@bin=$$($(SWIFT) build --show-bin-path); set -e; \
	$$bin/parley formats; echo; \
	$$bin/parley check Fixtures/recorded --stats

test: setup
	$(SWIFT) test

# The Vapor integration (its own package, so Parley alone never fetches Vapor): the real server on
# 127.0.0.1 runs the shared live table (Integrations/ParleyServerTesting) and Vapor's own cases.
.PHONY: test-vapor
test: test-vapor
test-vapor: setup
	$(SWIFT) build --build-tests --package-path Integrations/ParleyVapor
	$(SWIFT) test --skip-build --package-path Integrations/ParleyVapor

# ThreadSanitizer over the tests that share values across tasks and threads: one registry read
# from many tasks (RegistryTests), one parsed XML tree from 8 tasks (XMLParsedTreeTests), one JSON
# tape from many tasks (JSONDeferredObjectTests), FixtureChecker.run's task group
# (RecordedCorpusTests, SnapshotAndReportTests), and every format's conformance check, which
# decodes on 8 threads at once. ParleyTestKitTests' broken formats race on purpose and stay out.
# Its own scratch path, so the normal build is untouched. A race, or a filter that matches no
# test, fails the run (the runner still prints "passed" after a TSan report: the exit code and
# the log decide).
TSAN_FILTER := XMLParsedTreeTests|JSONDeferredObjectTests|RegistryTests|RecordedCorpusTests|SnapshotAndReportTests|conformsTo|passesTheConformanceKit|FormatConformanceTests/theWrappedJSONFormatConforms
tsan: setup
	@mkdir -p .build-tsan; set -o pipefail; \
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_FILTER)' 2>&1 | tee .build-tsan/tsan.log; \
	if grep -q "No matching test cases" .build-tsan/tsan.log; then echo "tsan: the filter matched no test"; exit 1; fi; \
	if grep -q "ThreadSanitizer" .build-tsan/tsan.log; then echo "tsan: ThreadSanitizer reported a race"; exit 1; fi

bench: setup
	cd Benchmarks && $(SWIFT) package benchmark --no-progress

# Gates CI on allocation counts of the engine's hot paths against Benchmarks/Thresholds.
bench-gate: setup
	cd Benchmarks && PARLEY_BENCHMARK_GATE=1 $(SWIFT) package benchmark thresholds check --target NegotiationBenchmarks --no-progress

# Gates CI on linear time: every parser and decoder (Benchmarks/Shared/LinearityWorkloads) runs
# hostile-shaped inputs at N and 4N, and the run fails when 4x the input costs more than 5x the
# instructions. Counts come from the CPU's counter, or from valgrind's callgrind where the
# machine has none (most virtual machines); see Benchmarks/Gate/LinearityGate. Deterministic
# hashing keeps the counts the same from run to run.
linearity-gate: setup
	@command -v valgrind >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind >/dev/null; }
	cd Benchmarks && $(SWIFT) build -c release --product LinearityGate && \
	  SWIFT_DETERMINISTIC_HASHING=1 "$$($(SWIFT) build -c release --show-bin-path)/LinearityGate"

# Builds every libFuzzer target in Fuzz/ and runs each for FUZZ_SECONDS. A crash, an input slower
# than FUZZ_TIMEOUT seconds, a resident size over 512 MB or one allocation over 256 MB fails the
# run: tight bounds, so quadratic time and memory blow-ups show up as findings. Each target
# starts from its conformance corpus in ../shared/corpora and from Fuzz/Seeds/<target> when
# they exist (both read only; new inputs go to Fuzz/.build-fuzz/corpus/<target>).
# AddressSanitizer keeps freed memory in a quarantine (256 MB by default), which libFuzzer counts
# as resident: 32 MB keeps the 512 MB bound about the parsers' memory, not ASan's bookkeeping.
# SwiftPM also compiles the registration plugin's generator (a host tool) with libFuzzer's flags and
# reports that it cannot link (libFuzzer brings its own main); no fuzz target uses it, the build goes on.
FUZZ_TIMEOUT ?= 2
FUZZ_LIMITS ?= -rss_limit_mb=512 -malloc_limit_mb=256 -timeout=$(FUZZ_TIMEOUT)
fuzz: setup
	cd Fuzz && $(SWIFT) build --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
	@mkdir -p Fuzz/.build-fuzz/artifacts
	@for target in $$(ls Fuzz/Sources | grep -vx FuzzSupport); do \
	  case $$target in \
	    FuzzImage*) seeds=image;; FuzzJSON) seeds=json;; FuzzPropertyList) seeds=plist;; \
	    FuzzRecording|FuzzRawHTTP) seeds=recorded;; FuzzXML) seeds=xml;; FuzzYAML) seeds=yaml;; *) seeds=;; \
	  esac; \
	  seeds=$${seeds:+../shared/corpora/$$seeds}; [ -d "$$seeds" ] || seeds=; \
	  own=Fuzz/Seeds/$$target; [ -d "$$own" ] || own=; \
	  corpus=Fuzz/.build-fuzz/corpus/$$target; mkdir -p $$corpus; \
	  from=$$(echo $$seeds $$own); echo "fuzzing $$target for $(FUZZ_SECONDS)s$${from:+ from $$from}"; \
	  ASAN_OPTIONS=quarantine_size_mb=32 SWIFT_BACKTRACE=enable=no Fuzz/.build-fuzz/debug/$$target -max_total_time=$(FUZZ_SECONDS) \
	    $(FUZZ_LIMITS) -max_len=65536 -artifact_prefix=Fuzz/.build-fuzz/artifacts/ -print_final_stats=1 \
	    $$corpus $$seeds $$own 2>&1 | grep -E "^Done|ERROR|SUMMARY|INITED" || exit 1; \
	  test $${PIPESTATUS[0]:-0} -eq 0 || exit 1; \
	done

# Builds the DocC archives of every module with a Docs.docc catalog; any warning fails the run.
DOC_TARGETS := $(sort $(notdir $(patsubst %/Docs.docc,%,$(wildcard Sources/*/Docs.docc))))

docs:
	$(SWIFT) package generate-documentation $(addprefix --target ,$(DOC_TARGETS)) --warnings-as-errors

# Builds and tests the consumer example: a package that depends on Parley by path and adds its own
# format (Examples/KeyValueFormat), registered by the plugin, negotiated, decoded and transcoded.
examples: setup
	cd Examples/KeyValueFormat && $(SWIFT) build --build-tests && $(SWIFT) test --skip-build

# VaporService builds in the scratch folder of Integrations/ParleyVapor, so CI compiles Vapor once.
.PHONY: examples-vapor
examples: examples-vapor
examples-vapor: setup
	$(SWIFT) build --build-tests --package-path Examples/VaporService --scratch-path Integrations/ParleyVapor/.build
	$(SWIFT) test --skip-build --package-path Examples/VaporService --scratch-path Integrations/ParleyVapor/.build

clean:
	rm -rf .build Benchmarks/.build Fuzz/.build-fuzz Examples/*/.build
