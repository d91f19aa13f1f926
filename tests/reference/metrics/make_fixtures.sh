#!/bin/sh
# Regenerates every committed metric fixture under tests/fixtures/metrics/.
#
# usage (from the repository root):  sh tests/reference/metrics/make_fixtures.sh [TVD_REF_SCRIPT]
#
# TVD_REF_SCRIPT computes the TVDs; by default the repository's own tvd_reference.py beside this
# script (standard library only, written from the normative TVD definition; it reproduces every
# committed TVD exactly).  Needs Debian's /usr/bin/python3 (numpy 1.24, pandas 1.5, scipy 1.10)
# for the other statistics and R >= 4.2 (stats only).  Output is deterministic: rerunning rewrites
# identical numbers (the recorded TVD command names the script used).
set -eu
TVD_REF=${1:-tests/reference/metrics/tvd_reference.py}
HERE=tests/reference/metrics
OUT=tests/fixtures/metrics
PY=/usr/bin/python3

$PY $HERE/make_fixture_data.py $OUT

for pair in "mixed_real mixed_synth.1" "mixed_real mixed_synth.2" "mixed_real mixed_synth.3" \
            "small_ties_real small_ties_synth" "edges_real edges_synth" "wide_real wide_synth"; do
  set -- $pair
  $PY $HERE/make_fixture_stats.py $OUT/$1.csv $OUT/$2.csv "$TVD_REF" > $OUT/$2.expected.json
done

Rscript $HERE/make_regression_fixture.R $OUT/mixed_real.csv $OUT/mixed_synth.1.csv \
  $OUT/mixed_synth.2.csv $OUT/mixed_synth.3.csv > $OUT/mixed_regression.expected.json
