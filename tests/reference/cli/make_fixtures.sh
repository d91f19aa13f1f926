#!/usr/bin/env bash
# Regenerates tests/fixtures/cli/: a small real/synthetic CSV pair and the reference metrics for it.
# Needs Debian's python3 with pandas/scikit-learn and R with rpart (see the reference README in the
# shared reference folder, passed as $1). Run from the repository root:
#   bash tests/reference/cli/make_fixtures.sh ../shared/reference
set -euo pipefail
ref=${1:?path to the shared reference scripts}
out=tests/fixtures/cli
mkdir -p "$out"
npx tsx -e "import { mixedCsv } from './tests/cli/mixed-data'; process.stdout.write(mixedCsv(400));" > "$out/real.csv"
/usr/bin/python3 "$ref/make_synth.py" "$out/real.csv" "$out/synth.csv" --method noise --seed 7
{
  echo '{'
  echo '  "command": "bash tests/reference/cli/make_fixtures.sh <shared reference folder>",'
  for k in 1 2 3; do
    echo "  \"tvd$k\": $(/usr/bin/python3 tests/reference/metrics/tvd_reference.py "$out/real.csv" "$out/synth.csv" --k $k --json),"
  done
  echo "  \"pmse_cart\": $(Rscript "$ref/pmse_ref.R" "$out/real.csv" "$out/synth.csv" --json)"
  echo '}'
} > "$out/reference.json"
