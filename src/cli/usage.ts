export const USAGE = `dpsynth — differentially private synthetic data

Usage:
  dpsynth mechanisms [--json]
  dpsynth schema data.csv [--missing "",NA,NaN,null]
  dpsynth synth data.csv --schema s.json --mechanism ID --epsilon E [--delta D] [--releases M]
                [--param key=value]... [--seed S] --out synth.csv [--report report.json]
                [--drop-incomplete-rows] [--escape-formulas]
                [--holdout-share F --holdout-out test.csv [--train-out train.csv]]
  dpsynth metrics real.csv synth.csv [synth.2.csv ...] [--schema s.json] [--json] [--pmse-model cart|logit]
                [--cart-cp C] [--cart-min-bucket B] [--cart-max-depth D] [--permutations P] [--tvd-k 1,2,3]
                [--bins B] [--seed S] [--regression "y ~ x1 + x2"] [--holdout test.csv --ml-target COLUMN]
                [--skip game,disclosure]

Exit codes: 0 success, 2 bad input or usage (the message names the file, line and column), 1 internal error.
`;
