#!/usr/bin/env bash
# Conformance: kubelet v1.37's own code and podconfig side by side on the scenario corpus and on
# random pods, and the API server's own admission and validation beside packages admission and
# validation (TestValidation: 5,000 mutated pods among others); a new seed each run, printed;
# PODCONFIG_CONFORMANCE_SEED=<seed> replays one.
# The module reaches kubelet's unexported functions by name, hence -checklinkname=0. It runs
# without -race: the race build of k8s.io/kubernetes's kubelet packages costs a second cold
# compile of ~7 minutes on a 2-core machine, and the harness is serial by design (kubelet reads
# feature gates and host facts from process-wide state).
set -euo pipefail
cd "$(dirname "$0")/../../conformance"
go test -count=1 -ldflags=-checklinkname=0 ./...
