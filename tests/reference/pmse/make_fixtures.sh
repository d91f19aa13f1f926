#!/usr/bin/env bash
# Regenerates tests/fixtures/pmse/: the CSV pairs (make_pmse_data.py) and one JSON per setting
# computed by R's rpart / glm (pmse_fixture.R).  Needs /usr/bin/python3 with numpy and Rscript
# with rpart (Debian: python3-numpy r-base-core r-cran-rpart).  Run from anywhere:
#   bash tests/reference/pmse/make_fixtures.sh
# Logit fixtures whose fitted probabilities reach within 1e-8 of 0 or 1 (separation: the MLE
# does not exist and the numbers depend on the optimiser) are not kept.
# When the shared reference script ../shared/reference/pmse_ref.R is present, every CART
# fixture with synthpop defaults is cross-checked against it (same pMSE to 1e-12 relative).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
script=tests/reference/pmse/pmse_fixture.R
out=tests/fixtures/pmse
data=$out/data
rm -f "$out"/*.json
/usr/bin/python3 tests/reference/pmse/make_pmse_data.py "$data"

datasets="mixed ties unbalanced continuous manylevels nullsplit"
cart() { # name dataset options...
  local name=$1 set=$2
  shift 2
  Rscript "$script" "$data/${set}_real.csv" "$data/${set}_synth.csv" --model cart --name "$name" --out "$out/$name.json" "$@"
}
logit() { # name dataset maxorder
  local name=$1 set=$2 order=$3
  Rscript "$script" "$data/${set}_real.csv" "$data/${set}_synth.csv" --model logit --maxorder "$order" \
    --glm-epsilon 1e-14 --glm-maxit 100 --name "$name" --out "$out/$name.json"
  if grep -qE '"n_extreme_p": [1-9]' "$out/$name.json"; then
    echo "dropping $name: fitted probabilities at 0 or 1 (separation)"
    rm "$out/$name.json"
  fi
}
for set in $datasets; do
  cart "cart-$set-synthpop" "$set" --cp 0.001 --minbucket 5 --minsplit 15 --maxdepth 30
  cart "cart-$set-cp0.01" "$set" --cp 0.01 --minbucket 5 --minsplit 15 --maxdepth 30
  cart "cart-$set-full" "$set" --cp -1 --minbucket 5 --minsplit 10 --maxdepth 30
  cart "cart-$set-depth3" "$set" --cp 0 --minbucket 5 --minsplit 15 --maxdepth 3
  cart "cart-$set-bucket20" "$set" --cp 0.0001 --minbucket 20 --minsplit 60 --maxdepth 30
  cart "cart-$set-bucket1" "$set" --cp 0 --minbucket 1 --minsplit 2 --maxdepth 12
  logit "logit-$set-main" "$set" 0
  logit "logit-$set-pairs" "$set" 1
done
cart "cart-mixed-perm" mixed --cp 0.001 --minbucket 5 --minsplit 15 --maxdepth 30 --perms 50 --seed 1
cart "cart-nullsplit-perm" nullsplit --cp 0.001 --minbucket 5 --minsplit 15 --maxdepth 30 --perms 50 --seed 1

reference=../shared/reference/pmse_ref.R
if [ -f "$reference" ]; then
  for set in $datasets; do
    theirs=$(Rscript "$reference" "$data/${set}_real.csv" "$data/${set}_synth.csv" --json | sed -n 's/.*"pMSE": \([^,]*\),*/\1/p')
    ours=$(sed -n 's/.*"pMSE": \([^,]*\),*/\1/p' "$out/cart-$set-synthpop.json")
    Rscript -e "a <- $ours; b <- $theirs; if (abs(a - b) > 1e-12 * abs(b)) stop('cross-check failed for $set: ', a, ' vs ', b) else cat('cross-check $set ok:', format(a, digits = 17), '\n')"
  done
fi
ls "$out" | wc -l
/usr/bin/python3 tests/reference/pmse/logit_sklearn_check.py  # needs python3-sklearn; writes logit-sklearn-check.json
