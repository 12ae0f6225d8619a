# asn1c-hybrid: every target makes its own .venv first (Python 3.10+ and a C compiler are
# all the machine needs; Java 17 only for `make grammar`).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: demo study-rrc test test-types grammar bench fuzz fuzz-specs coverage clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,grammar,study]'
	touch $@

# The main job: the personnel record of the paper's figure 2, then the X.400 trace study
# (out/study/report.md; docs/study.md says how it is made).
demo: $(STAMP)
	$(PY) examples/personnel/demo.py
	$(VENV)/bin/asn1c-hybrid study -o out/study

# The same study on PER: LTE RRC downlink traffic in UPER (examples/lte-rrc;
# out/study-rrc/report.md; docs/study.md, "A PER trace: LTE RRC").
study-rrc: $(STAMP)
	$(VENV)/bin/asn1c-hybrid study --spec ../shared/specs/3GPP_LTE_RRC_36331_r14 \
	    --pdu EUTRA-RRC-Definitions.DL-DCCH-Message --encoding uper \
	    --trace examples/lte-rrc/traces/dl-dcch-1000.uper --budgets 10,20,40 -o out/study-rrc

test: $(STAMP)
	$(PY) -m pytest -q

# The benchmark suite against asn1c, Heimdal and OpenSSL: bench/sizes.csv (code size of every
# build, -O2 and -Os; bench/executed.csv, the certificate program's code that its benchmark
# runs), bench/results.csv (instructions), bench/stream.csv (streams, walks,
# fused passes; an SNMP corpus when net-snmp is installed), docs/benchmarks.md.
bench: $(STAMP)
	$(PY) bench/sizes.py
	$(PY) bench/ber_vs_per.py
	$(PY) bench/stream.py
	$(PY) bench/layouts.py
	$(PY) bench/fastpaths.py
	$(PY) bench/layout_budget.py
	$(PY) bench/run.py

# The libFuzzer targets (clang), FUZZ_SECONDS each: the round-trip one of every example PDU,
# and the differential one (compiled, interpreted and mixed builds against each other) of
# every example and shared-spec PDU.  Corpora and any finding stay in build/fuzz/.  See
# docs/runtime.md, "Testing and fuzzing".
FUZZ_SECONDS ?= 600
fuzz: $(STAMP)
	$(PY) fuzz/run.py --seconds $(FUZZ_SECONDS)

# The compiler itself, fuzzed: FUZZ_RUNS random mutations of each specification below, each
# refused with errors or compiled to C that builds warning-free (fuzz/mutate_specs.py).
# The first six also round-trip FUZZ_VALUES values of each PDU-like type through their
# converters, compiled and interpreted, when they compile (RFC 5912's 40 such types would
# take a minute a mutation).  Another FUZZ_SEED gives other mutations.  Every
# specification runs, whatever the others found; findings stay in build/fuzz/specs/.
FUZZ_RUNS ?= 300
FUZZ_SEED ?= 1
FUZZ_VALUES ?= 4
SHARED_SPECS = ../shared/specs
MUTATE = $(PY) fuzz/mutate_specs.py --runs $(FUZZ_RUNS) --seed $(FUZZ_SEED)
ROUND_TRIP = --round-trip $(FUZZ_VALUES)
fuzz-specs: $(STAMP)
	status=0; \
	$(MUTATE) $(ROUND_TRIP) tests/specs/AllKinds.asn || status=1; \
	$(MUTATE) $(ROUND_TRIP) --mode interpreted tests/specs/Extras.asn || status=1; \
	$(MUTATE) $(ROUND_TRIP) --encoding uper,aper tests/specs/per || status=1; \
	$(MUTATE) $(ROUND_TRIP) --mode hybrid tests/specs/constraints || status=1; \
	$(MUTATE) $(ROUND_TRIP) --encoding ber $(SHARED_SPECS)/IETF_LDAP_RFC4511 || status=1; \
	$(MUTATE) $(ROUND_TRIP) $(SHARED_SPECS)/IETF_Kerberos_RFC4120 || status=1; \
	$(MUTATE) --mode hybrid --encoding der $(SHARED_SPECS)/IETF_PKI_RFC5912 || status=1; \
	$(MUTATE) --mode interpreted --encoding uper $(SHARED_SPECS)/ETSI_ITS_CAM || status=1; \
	exit $$status

# Every named type of ITS CAM and LTE RRC (1,971) against asn1tools and pycrate, and every
# IE type of S1AP and NGAP that random values can fill (1,134) against pycrate, in UPER
# and APER on every build, 40 at a time: `make test` takes 40 of each spec.
test-types: $(STAMP)
	ASN1H_PER_TYPES=all $(PY) -m pytest -q tests/test_per.py -k types_against

# Real-world specifications (not in CI: it fetches Wireshark's and Heimdal's source packages
# with `apt-get source`, which needs deb-src entries; or give WIRESHARK=dir HEIMDAL=dir):
# every module set through check (strict and --lenient), compile in both modes, a -Werror
# build, a smoke round trip, and Debian's asn1c beside it.  Writes docs/coverage.md.
WIRESHARK ?=
HEIMDAL ?=
coverage: $(STAMP)
	$(PY) coverage/run.py $(if $(WIRESHARK),--wireshark $(WIRESHARK)) $(if $(HEIMDAL),--heimdal $(HEIMDAL))

# Regenerates the committed Python parser from grammars/ with the ANTLR 4.13.2 tool.
grammar: $(STAMP)
	$(PY) -m asn1c_hybrid.frontend.regenerate

clean:
	rm -rf $(VENV) build dist *.egg-info
