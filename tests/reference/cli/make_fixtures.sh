#!/usr/bin/env bash
# Regenerates tests/fixtures/cli/: a small real/synthetic CSV pair and the reference metrics for it,
# with this repository's scripts only. Needs Debian's python3 with numpy and R with rpart
# (r-cran-rpart). Run from the repository root:
#   bash tests/reference/cli/make_fixtures.sh
set -euo pipefail
out=tests/fixtures/cli
mkdir -p "$out"
npx tsx -e "import { mixedCsv } from './tests/cli/mixed-data'; process.stdout.write(mixedCsv(400));" > "$out/real.csv"
python3 tests/reference/cli/make_noisy_counterpart.py "$out/real.csv" "$out/synth.csv" --seed 7
pmse=$(mktemp)
trap 'rm -f "$pmse"' EXIT
# synthpop's utility.gen CART defaults: cp 0.001, minbucket 5, no permutations.
Rscript tests/reference/pmse/pmse_fixture.R "$out/real.csv" "$out/synth.csv" --out "$pmse" --model cart --cp 0.001 --minbucket 5
{
  echo '{'
  echo '  "command": "bash tests/reference/cli/make_fixtures.sh",'
  for k in 1 2 3; do
    echo "  \"tvd$k\": $(python3 tests/reference/metrics/tvd_reference.py "$out/real.csv" "$out/synth.csv" --k $k --json),"
  done
  echo "  \"pmse_cart\": $(cat "$pmse")"
  echo '}'
} > "$out/reference.json"
