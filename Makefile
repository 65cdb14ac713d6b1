# husk: the two set-up entry points of README.md.
#   make demo  - install dependencies, build, run husk on the bundled pages
#                (extract, score, collection statistics, signatures,
#                clusters and their report)
#   make test  - install dependencies, build, run the whole test suite
# Both work on a fresh Debian 12 as root; `make deps` is a no-op once the
# packages are there.

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DATASETS ?= ../shared/datasets

# python3.11-doc and postgresql-doc-15 are real multi-page sites the
# template tests and benchmark run on; git-doc and apache2-doc are sites the
# template rules were never tuned on, checked the same way; wget is the real
# crawler the service test uses as its client; time (/usr/bin/time) measures
# peak memory in the template-alignment test; curl is the client of the
# service examples and their test; python3-venv and python3-build install
# and package the Python module in its test; lmdb-utils (mdb_stat) shows
# the reader table in the stale-reader reproducer the service test runs;
# python3-scrapy runs the crawls that test husk.scrapy; chromium renders
# husk explain's page headless in its test.
APT_PACKAGES = g++ cmake make pkg-config ca-certificates \
  libgumbo-dev libpugixml-dev libicu-dev libre2-dev liblmdb-dev zlib1g-dev liburiparser-dev libcurl4-openssl-dev \
  libssl-dev libxxhash-dev libmicrohttpd-dev libcpp-httplib-dev nlohmann-json3-dev libcli11-dev libtomlplusplus-dev \
  libxgboost-dev libcld2-dev libgtest-dev libgmock-dev libbenchmark-dev \
  pybind11-dev python3-dev python3-pytest libopenmpi-dev openmpi-bin \
  python3-venv python3-build python3-scrapy python3-tqdm \
  python3.11-doc postgresql-doc-15 git-doc apache2-doc wget time curl lmdb-utils chromium

.PHONY: all deps build demo test docs-check bench bench-prev bench-peers bench-scale load fuzz sanitize clean python

all: build

deps:
	@if ! dpkg -s $(APT_PACKAGES) >/dev/null 2>&1; then \
	  echo "installing build dependencies with apt-get"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(APT_PACKAGES); \
	fi

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	@mkdir -p out/demo
	$(BUILD)/husk extract --jobs 2 fixtures/demo -o out/demo/extract.jsonl
	$(BUILD)/husk extract --jobs 2 --format text fixtures/demo -o out/demo/extract.txt
	$(BUILD)/husk extract --jobs 2 --format markdown --links fixtures/demo -o out/demo/extract.md
	$(BUILD)/husk eval extract --gold fixtures/demo/gold.json out/demo/extract.jsonl --per-page out/demo/eval-per-page.jsonl \
	  | tee out/demo/eval.txt
	$(BUILD)/husk idf build out/demo/extract.jsonl -o out/demo/corpus.idf
	$(BUILD)/husk sign --idf out/demo/corpus.idf out/demo/extract.jsonl -o out/demo/signed.jsonl
	$(BUILD)/husk dedup out/demo/signed.jsonl -o out/demo/clusters.jsonl --report out/demo/report
	@echo "clean text: out/demo/extract.txt, out/demo/extract.jsonl (with metadata), out/demo/extract.md;" \
	  "extraction score: out/demo/eval.txt;" \
	  "signatures: out/demo/signed.jsonl; clusters: out/demo/clusters.jsonl; report: out/demo/report/index.html"

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# The documents against the commands: every figure a test can recompute
# (the dedup tables, the collections' floors, the template figures), the
# quick starts run as written, and every shell block of README.md and
# docs/ run by a named test or marked with why not. Part of `make test`.
docs-check: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -R '^(Docs|QualityGate|TemplateDocs)\.'

# The Python module, built and installed for Debian's python3 (`import husk`).
python: build
	cmake --install $(BUILD) --component python

# Whole-corpus throughput (Google Benchmark), against Gumbo parsing alone,
# on the news articles and on WCXB's mixed pages;
# near-duplicate search on a million fingerprints, against brute force.
# With PREV=REV (a commit: the previous build), REV is built beside this one
# (build-prev/, a git worktree) and both are timed in the same run: the CLI
# as users run it (husk extract -j1, whole process, the two in turn,
# tests/bench/compare_cli.py) and the library in-process (husk_bench), on
# AEB and wcxb-dev.
PREV ?=
BENCH_SETS = $(DATASETS)/article-extraction-benchmark/html $(DATASETS)/wcxb-dev/html
bench: build
	$(BUILD)/tests/bench/husk_bench --corpus $(DATASETS)/article-extraction-benchmark/html \
	  --site /usr/share/doc/python3.11/html --benchmark_counters_tabular=true
	$(BUILD)/tests/bench/husk_bench --corpus $(DATASETS)/wcxb-dev/html \
	  --benchmark_filter='GumboParseRaw|Extract/auto/jobs:1/' --benchmark_counters_tabular=true
	$(BUILD)/tests/bench/husk_dedup_bench --benchmark_counters_tabular=true
	PYTHONPATH=$(BUILD)/python /usr/bin/python3 tests/bench/python_bench.py $(BUILD)/husk \
	  $(DATASETS)/article-extraction-benchmark/html
	@if [ -n "$(PREV)" ]; then $(MAKE) --no-print-directory bench-prev; fi

# husk beside boilerpipe 1.2, the fastest peer (Debian's libboilerpipe-java,
# installed here with a JDK: run by its users in a JVM that stays up, so
# its best of five passes counts, by CPU time), on the same pages in the
# same run: husk extract -j1 as users run it (whole process, user and
# system CPU time) and husk in-process (husk_bench).
BOILERPIPE_CP = /usr/share/java/boilerpipe.jar:/usr/share/java/nekohtml.jar:/usr/share/java/xercesImpl.jar
bench-peers: build
	@dpkg -s default-jdk-headless libboilerpipe-java >/dev/null 2>&1 || { apt-get update && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends default-jdk-headless libboilerpipe-java; }
	for set in $(BENCH_SETS); do \
	  java -cp $(BOILERPIPE_CP) tests/bench/BoilerpipeBench.java $$set 5 || exit 1; \
	  /usr/bin/time -f "husk extract -j1: %U s user + %S s system CPU" $(BUILD)/husk extract -j1 $$set -o /dev/null || exit 1; \
	  $(BUILD)/tests/bench/husk_bench --corpus $$set --benchmark_filter='Extract/auto/jobs:1/' || exit 1; \
	done

bench-prev: build
	@test -n "$(PREV)" || { echo "bench-prev: name the previous build: PREV=REV"; exit 2; }
	git worktree remove --force build-prev/src 2>/dev/null || true
	git worktree add --force --detach build-prev/src $(PREV)
	cmake -S build-prev/src -B build-prev/build -DCMAKE_BUILD_TYPE=Release -DHUSK_BUILD_PYTHON=OFF
	cmake --build build-prev/build -j$(JOBS) --target husk husk_bench
	for set in $(BENCH_SETS); do \
	  python3 tests/bench/compare_cli.py -n 7 --vs "build-prev/build/husk extract -j1 $$set -o /dev/null" -- \
	    $(BUILD)/husk extract -j1 $$set -o /dev/null || exit 1; \
	  for b in build-prev/build $(BUILD); do echo "$$b, in-process:"; \
	    $$b/tests/bench/husk_bench --corpus $$set --benchmark_filter='Extract/auto/jobs:1/' \
	      --benchmark_counters_tabular=true || exit 1; done; \
	done
	git worktree remove --force build-prev/src
# Corpus-scale dedup: a generated corpus of SCALE_DOCS documents (10%
# planted near-copies), text -> clusters with husk dedup, timed from
# outside, scored against the planted truth and brute force on a sample;
# then the same on 1 and 2 MPI ranks (one core each).
SCALE_DOCS ?= 1000000
SCALE_MEMORY ?= 1G
SCALE_DIR ?= out/scale
bench-scale: build
	@mkdir -p $(SCALE_DIR)
	@test -s $(SCALE_DIR)/docs-$(SCALE_DOCS).jsonl || $(BUILD)/tests/bench/husk_corpus_gen --docs $(SCALE_DOCS) \
	  -o $(SCALE_DIR)/docs-$(SCALE_DOCS).jsonl --truth $(SCALE_DIR)/truth-$(SCALE_DOCS).jsonl
	$(BUILD)/tests/bench/husk_dedup_scale --corpus $(SCALE_DIR)/docs-$(SCALE_DOCS).jsonl \
	  --truth $(SCALE_DIR)/truth-$(SCALE_DOCS).jsonl --out $(SCALE_DIR) -- \
	  $(BUILD)/husk dedup -j$(JOBS) --memory $(SCALE_MEMORY) --work-dir $(SCALE_DIR) $(SCALE_DIR)/docs-$(SCALE_DOCS).jsonl \
	  -o $(SCALE_DIR)/clusters.jsonl --pairs $(SCALE_DIR)/pairs.jsonl
	for np in 1 2; do $(BUILD)/tests/bench/husk_dedup_scale --corpus $(SCALE_DIR)/docs-$(SCALE_DOCS).jsonl \
	  --truth $(SCALE_DIR)/truth-$(SCALE_DOCS).jsonl --out $(SCALE_DIR) -- \
	  mpirun --allow-run-as-root --oversubscribe -np $$np $(BUILD)/husk dedup -j1 --memory $(SCALE_MEMORY) \
	  --work-dir $(SCALE_DIR) $(SCALE_DIR)/docs-$(SCALE_DOCS).jsonl -o $(SCALE_DIR)/clusters.jsonl --pairs $(SCALE_DIR)/pairs.jsonl; done

# The service under load on loopback: husk serve with a fresh index, the
# benchmark pages posted (3 times, new URLs each time) over 2 and 16
# connections; then the single-process CLI on the same pages.
LOAD_PORT ?= 18731
load: build
	@rm -rf out/load-db && mkdir -p out
	@$(BUILD)/husk serve --listen 127.0.0.1:$(LOAD_PORT) --db out/load-db 2>out/load-serve.log & echo $$! > out/load.pid; sleep 1
	$(BUILD)/tests/bench/husk_load --port $(LOAD_PORT) --corpus $(DATASETS)/article-extraction-benchmark/html --connections 2 --repeat 3
	$(BUILD)/tests/bench/husk_load --port $(LOAD_PORT) --corpus $(DATASETS)/article-extraction-benchmark/html --connections 16 --repeat 3
	@kill -TERM $$(cat out/load.pid); rm -f out/load.pid
	@bash -c 'time $(BUILD)/husk extract -j1 $(DATASETS)/article-extraction-benchmark/html -o /dev/null'

# The suite under AddressSanitizer and UndefinedBehaviorSanitizer (every
# test, the binaries they start included), then the tests that run threads
# (the service, the hook, the corpus engine, --jobs and its pipeline) under
# ThreadSanitizer.
# Each in its own build tree; not part of `make test`, whose 15 minutes on
# two cores the sanitized builds alone would exceed. ThreadSanitizer runs
# with one OpenMP thread: XGBoost parses a model on libgomp's threads, whose
# barriers it cannot see (libgomp is not instrumented), so every model load
# would read as a race; husk's own threads are all checked. The MPI runs
# stay out of it ("Corpus" names one): Open MPI's TCP transport takes its
# own locks in both orders as ranks connect and part (mca_btl_tcp, not
# instrumented either), which ThreadSanitizer reports as a potential
# deadlock in a library husk only calls.
SANITIZE_THREAD_TESTS ?= Service|Hook|Corpus|Jobs|Index|OrderedBatches
SANITIZE_MPI_TESTS = ^(DedupMpi\.|Docs\.TheDataTeamQuickStartRunsAsWritten)
sanitize: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHUSK_SANITIZE=address,undefined \
	  -DHUSK_BUILD_PYTHON=OFF -DHUSK_TEST_TIMEOUT=3000
	cmake --build build-asan -j$(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp ctest --output-on-failure -j$(JOBS) -E '$(SANITIZE_MPI_TESTS)'
	# Open MPI's components, loaded and unloaded at run time, leave blocks
	# whose module LeakSanitizer can no longer name: leaks unchecked there.
	cd build-asan && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -R '$(SANITIZE_MPI_TESTS)' 
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHUSK_SANITIZE=thread \
	  -DHUSK_BUILD_PYTHON=OFF -DHUSK_TEST_TIMEOUT=3000
	cmake --build build-tsan -j$(JOBS)
	cd build-tsan && OMP_NUM_THREADS=1 ctest --output-on-failure -j$(JOBS) -R '$(SANITIZE_THREAD_TESTS)' -E '$(SANITIZE_MPI_TESTS)'

# libFuzzer target for decode + parse + extract (clang).
fuzz: deps
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends clang libclang-rt-14-dev >/dev/null
	CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHUSK_BUILD_FUZZ=ON \
	  -DHUSK_BUILD_TESTS=OFF -DHUSK_BUILD_BENCH=OFF -DHUSK_BUILD_PYTHON=OFF
	cmake --build build-fuzz -j$(JOBS) --target fuzz_extract fuzz_warc fuzz_records fuzz_config fuzz_metadata
	@echo "run, e.g.: mkdir -p /tmp/husk-corpus && build-fuzz/tests/fuzz/fuzz_extract -max_total_time=600 /tmp/husk-corpus fixtures/fuzz-corpus fixtures/demo fixtures/fuzz"
	@echo "targets: fuzz_extract fuzz_warc fuzz_records fuzz_config fuzz_metadata (tests/fuzz/CMakeLists.txt names their seeds)"

clean:
	rm -rf $(BUILD) build-fuzz build-asan build-tsan build-prev out
