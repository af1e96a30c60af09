#!/usr/bin/env bash
# Benchmark of `dmltensor plan` (tests/bench/bench_plan.sh): a million
# tensors from JSON Lines (time against batch over as many records, in the
# same run; peak RSS a tensor) and the planner's arena against the lower
# bound and greedy by size on structured and random instances. Fails when
# plan's peak RSS passes 256 bytes a tensor or its summary is wrong; time on
# a shared machine is a report.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want time # /usr/bin/time for the peak RSS
install_wanted 96-bench-plan

tests/bench/bench_plan.sh build/dmltensor
# Issue 27 item 14's adversarial models (an If branch of 80,000 nodes,
# 20,000 weights listed as graph inputs): plan against scan, in one run.
tests/bench/bench_plan_lifetimes.sh build/dmltensor 80000
