#!/usr/bin/env bash
# Runs the shared conformance samples through `npm run conformance` when ../shared is beside the
# project (it is on CI and developer machines of this workplace; elsewhere our own cases still
# run inside the unit tests).
set -euo pipefail
cd "$(dirname "$0")/.."
samples=../shared/conformance/sample.jsonl
if [ -f "$samples" ] && [ -f ../shared/conformance/check.mjs ]; then
  node ../shared/conformance/check.mjs "$samples"
else
  echo "check-conformance: $samples not found; skipped (our own cases run in the unit tests)"
fi
