# mpbridge: build, test, install and demo.
#
#   make            build everything (release)
#   make demo       install missing Debian packages, build, run the showcase
#   make test       install missing Debian packages, build, run every test
#                   (the message-passing ones again with MPBRIDGE_SHM=0),
#                   clippy and rustfmt (what CI runs)
#   make install PREFIX=/opt/mpbridge
#   make bench      benchmarks against raw MPI
#   make doctor     report missing tools and how to install them
#
# Every cargo invocation uses --release so nothing is built twice.

SHELL := /bin/bash
CARGO ?= cargo
PREFIX ?= /usr/local
STAGE := $(CURDIR)/target/stage

# Open MPI refuses to run as root, or with more ranks than cores, unless told.
MPI_ENV := OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
           OMPI_MCA_rmaps_base_oversubscribe=1

.DEFAULT_GOAL := build
.PHONY: deps build stage install test demo bench doctor clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(CARGO) build --release --workspace --all-targets

stage: build
	rm -rf "$(STAGE)"
	bash scripts/install.sh "$(STAGE)"

install: build
	bash scripts/install.sh "$(PREFIX)"

# The message-passing programs run a second time with the same-node
# channels off, so the path between nodes (MPI only) is tested on one box.
MP_TESTS := core_multirank pvm_programs pvm_examples pvm_fortran pvm_groups \
            pvm_extra pvm_faults tcgmsg_programs express_programs one_backend ensemble_pvm \
            ensemble_mpi mpc_programs pvm_trace

test: deps stage
	@echo "== make test [1/3]: every test of the workspace (2 steps left after it)"
	env MPBRIDGE_STAGE="$(STAGE)" $(MPI_ENV) $(CARGO) test --release --workspace
	@echo "== make test [2/3]: the message-passing tests again with MPBRIDGE_SHM=0 (1 step left)"
	# --workspace, as in step 1, so the features match and nothing is rebuilt
	env MPBRIDGE_STAGE="$(STAGE)" $(MPI_ENV) MPBRIDGE_SHM=0 $(CARGO) test --release \
	    --workspace $(addprefix --test ,$(MP_TESTS))
	@echo "== make test [3/3]: clippy and rustfmt (last step)"
	@bash scripts/rust-tools.sh
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	$(CARGO) fmt --all --check

demo: deps stage
	env MPBRIDGE_STAGE="$(STAGE)" bash scripts/demo.sh

bench: deps stage
	@test -f scripts/bench.sh || { echo "make bench: scripts/bench.sh is not there yet" >&2; exit 1; }
	env MPB_STAGE="$(STAGE)" MPBRIDGE_STAGE="$(STAGE)" bash scripts/bench.sh

doctor:
	$(CARGO) build --release -p mpbridge-cli
	"$(CURDIR)/target/release/mpbridge" doctor

clean:
	$(CARGO) clean
