const EXIT_CODES =
  'Exit codes: 0 success, 2 bad input or usage (the message names the file, line and column), 1 internal error.\n';

/** What each command does, its synopsis and its options, printed by `dpsynth <command> --help`. */
export const COMMAND_USAGE = {
  mechanisms: `dpsynth mechanisms — list the mechanisms and their parameters

Usage:
  dpsynth mechanisms [--json]

Options:
  --json        print the list as JSON (id, label, summary, reference, supported column types, parameters)
  -h, --help    print this help
`,
  schema: `dpsynth schema — print the schema of a CSV file, inferred or learned with DP

Usage:
  dpsynth schema data.csv [--missing "",NA,NaN,null] > s.json
  dpsynth schema data.csv --private --epsilon E [--delta D] [--quantiles 0.025,0.975]
                 [--search-range -1e12,1e12] [--split col=share,…] [--schema declared.json]
                 [--ledger ledger.json] [--seed S] [--force] > s.json
  dpsynth schema data.csv --private --plan --epsilon E [--rows N] [--schema declared.json] …

Without --private every field printed is read from the data and marked "inferred": exact values of
the data, not private. Replace bounds and categories with public knowledge and mark them "declared"
before synthesizing, or learn them with --private: each fact that is not declared is learned with
DP and marked "dp" (types by a noisy majority, bounds by the exponential mechanism over readable
values, the whole-number flag by a noisy count of fractional values, category lists by a
thresholded histogram whose rare values become "(other)"). The schema records what that spent in
"domainBudget", and every run on it adds the domain steps to its claim. First it prints the plan,
from n, ε, δ and the search grid only: each fact's share of ε (following what it needs) and its
predicted quality. When a fact would fall below its floor (a type right with probability below
0.99, more than 5 % of the rows expected beyond a bound, a whole-number flag blind to more than
5 % of the rows, a category held by 10 % of the rows not surely listed) it refuses with exit 2
before anything is read, spent or written, and names the ε that would do and cheaper alternatives.

Options:
  --missing LIST        comma-separated tokens read as missing ("" for the empty cell); default "",NA,NaN,null
  --private             learn the facts that are not declared with DP
  --epsilon E           the budget for learning the domain, split over the facts by what each needs
  --delta D             δ for category lists (a list needs δ > 0; with --delta 0 only declared
                        lists are possible); default 1e-6, as in the studio
  --quantiles LO,HI     the quantiles the bounds aim at; default 0.025,0.975
  --search-range LO,HI  the public range searched for bounds; default -1e12,1e12
  --split col=share,…   relative shares per column, times each column's need (whole numbers; others 1)
  --schema s.json       keep the facts this schema declares and learn only the rest
  --ledger ledger.json  append the learning to the privacy ledger of this dataset
  --seed S              reproducible random numbers, for demonstrations only (not for release)
  --plan                print the plan and spend nothing (exit 0 when it would learn, 2 when not)
  --rows N              with --plan: the number of rows, so that only the header line is read
  --force               learn even when the plan finds a fact below its floor (the steps say so)
  -h, --help            print this help
`,
  synth: `dpsynth synth — make differentially private synthetic data and its release report

Usage:
  dpsynth synth data.csv --schema s.json --mechanism ID --epsilon E --out synth.csv [options]

Writes synth.csv (synth.1.csv … synth.M.csv with --releases M) and a release report. Outputs are
written under a temporary name and renamed when complete. dpsynth never writes over an input file
and does not replace an existing file unless --force is given.

Options:
  --schema s.json           the schema: column types, bounds and categories (see dpsynth schema)
  --mechanism ID            the mechanism (see dpsynth mechanisms)
  --epsilon E               the privacy budget ε (a decimal, e.g. 1 or 0.5)
  --delta D                 δ for mechanisms with approximate DP (default 0; a mechanism that
                            needs δ > 0 gets min(1e-9, 1/n²) rounded down, said on stderr)
  --releases M              number of synthetic datasets, composed sequentially (default 1)
  --neighbouring R          which datasets are neighbours: replace-one (default: hides what a person's
                            row says; n is public) or add-remove (hides whether a person is in the
                            table at all; n is private and the row count is a noisy estimate); mst,
                            aim, dp-marginals and laplace-histogram run under both
  --param key=value         a mechanism parameter; repeat for several
  --seed S                  reproducible random numbers, for demonstrations only: the outputs are
                            marked "not for release" in their file names and in the report
  --out synth.csv           the synthetic CSV file (with M > 1: synth.1.csv … synth.M.csv)
  --report report.json      the release report (default: the --out name with .report.json)
  --publish-inferred        write the values of inferred schema facts (the data's own minimum and
                            maximum, its list of categories) into the release report; without it
                            they appear as withheld, since they are read from the data and not private
  --ledger ledger.json      the privacy ledger of this dataset: appends one line per run and reports
                            the ε (δ) spent on the dataset so far, here and in the release report
  --force                   replace output files that already exist
  --drop-incomplete-rows    drop rows with a missing value before synthesis. This publishes an
                            exact count: the number of complete rows becomes the n of the release
                            (replace-one, stated in the claim), so with the file's row count the
                            number dropped is known too; under add-remove no count is published
  --escape-formulas         prefix text cells that start with = + - @ so spreadsheets do not run them
  --holdout-share F         keep back a random share F (0 < F < 1) of the rows as a test set that the
                            mechanism never sees
  --holdout-out test.csv    where the kept-back rows are written (with --holdout-share)
  --train-out train.csv     where the rows the mechanism saw are written (optional)
  -h, --help                print this help

Tables that do not fit in memory (laplace-histogram, mst): the exact counts are computed where the data
lives, the privacy steps, the model and the sampling here; the report says where the counts came from.
  --engine duckdb           count the data file (.parquet or .csv) with embedded DuckDB, out of core
  --source clickhouse://host:port/db.table   count on a ClickHouse server or cluster (HTTP port)
  --counts DIR              counts computed by you from the queries of dpsynth counts --print-sql
  --out synth.parquet       (with a count source) a Parquet file, written through DuckDB
  --out clickhouse://host:port/db.table      (with a count source) INSERT the rows into that table
`,
  metrics: `dpsynth metrics — compare synthetic data with the real data (for the data holder, not for release)

Usage:
  dpsynth metrics real.csv synth.csv [synth.2.csv ...] [options]

The metrics are computed from the real data: they are not differentially private.

Options:
  --schema s.json           read the files with this schema (default: types inferred from the files)
  --json                    print one JSON object (pmse.value, pmse.model, pmse.ratio, tvd["k"] …)
  --pmse-model cart|logit   the propensity model (default cart, as synthpop's utility.gen)
  --cart-cp C               CART complexity parameter (default 0.001)
  --cart-min-bucket B       CART minimum leaf size (default 5)
  --cart-max-depth D        CART maximum depth (default 30)
  --permutations P          label permutations for the CART pMSE null (default 50)
  --tvd-k 1,2,3             the orders of the TVD of k-way marginals (default 1,2,3)
  --bins B                  equal-width bins for numeric columns in the TVD (default 10)
  --seed S                  seed for the permutations and random splits
  --regression "y ~ x1 + x2"  compare a linear or logistic regression fitted on each file
  --holdout test.csv        kept-back real rows for the ML efficacy test (with --ml-target)
  --ml-target COLUMN        the column the ML efficacy test predicts
  --skip game,disclosure    leave out the named metrics
  -h, --help                print this help
`,
  infer: `dpsynth infer — combine an estimand over synthetic releases (Bowen & Liu, eqs. 9–11)

Usage:
  dpsynth infer synth.1.csv synth.2.csv [synth.3.csv ...] --estimand ESTIMAND [options]

ESTIMAND is mean:COL, proportion:COL=LEVEL or coef:Y~X1+X2. Each release is analysed as if it were
real data; the estimates are combined with T = B/m + W and a t interval with ν = (m − 1)(1 + mW/B)².

Options:
  --estimand ESTIMAND       what to estimate (required)
  --schema s.json           read the files with this schema (default: types inferred from the files)
  --json                    print one JSON object (estimate, se, df, ci; coefficients for coef)
  -h, --help                print this help
`,
  counts: `dpsynth counts — print the count queries of a run, for any SQL engine

Usage:
  dpsynth counts --print-sql --schema s.json --mechanism ID [--param key=value]... --rows N
                 --table NAME [--dialect ansi|duckdb|clickhouse] [--out-dir DIR]

The queries follow from the schema, the mechanism, its parameters and n only. Run each where the data
lives and save its result as DIR/<name>.csv (header \`count\` for rows, \`cell,count\` for the others);
then dpsynth synth --counts DIR … makes the release. Numeric columns must have a numeric type (NULL is
missing); categorical columns are compared as text.

Options:
  --print-sql         print the queries (required)
  --schema s.json     the schema (see dpsynth schema)
  --mechanism ID      a mechanism that runs on counts (laplace-histogram, mst)
  --param key=value   a mechanism parameter; repeat for several
  --rows N            the table's row count n (SELECT count(*)), public under replace-one
  --table NAME        the table as the queries name it
  --dialect D         ansi (default), duckdb or clickhouse
  --out-dir DIR       also write DIR/plan.json and DIR/<name>.sql for synth --counts DIR
  -h, --help          print this help
`,
  recommend: `dpsynth recommend — rank the mechanisms for a table and a goal, from public facts only

Usage:
  dpsynth recommend --schema s.json --rows N --epsilon E [--delta D]
                    --goal relationships|train-model|distributions|regression-inference [--label COL] [--json]

Reads no data: only the schema (column kinds, declared categories and bounds), the number of rows, ε,
δ, the goal and the label's name. Each mechanism states where it is good and the figure a bench
measured (bench/RESULTS.md); the ranking puts those that can run first, marks the first two that fit
as recommended, and says why each ranks where it does and why any cannot run.

Options:
  --schema s.json     the schema (see dpsynth schema)
  --rows N            the number of rows n (public under replace-one)
  --epsilon E         the budget you plan to spend
  --delta D           δ (default 0: a mechanism that needs δ > 0 is ranked at the default δ that
                      synth would use, min(1e-9, 1/n²) rounded down)
  --goal GOAL         relationships (keep relationships for analysis), train-model (train a model on a
                      label), distributions (keep each column's distribution), regression-inference
                      (estimate a regression with valid intervals from several releases)
  --label COL         the categorical column a model is to predict (with --goal train-model)
  --json              print the ranking as JSON
  -h, --help          print this help
`,
} as const;

export type CommandName = keyof typeof COMMAND_USAGE;

/** The help of one command, with the exit codes. */
export function commandUsage(name: CommandName): string {
  return `${COMMAND_USAGE[name]}\n${EXIT_CODES}`;
}

export const USAGE = `dpsynth — differentially private synthetic data

Usage:
  dpsynth mechanisms [--json]
  dpsynth schema data.csv [--missing "",NA,NaN,null]
  dpsynth schema data.csv --private --epsilon E [--delta D] [--quantiles LO,HI] [--search-range LO,HI]
                [--split col=share,...] [--schema declared.json] [--ledger ledger.json] [--seed S]
                [--plan [--rows N]] [--force]
  dpsynth synth data.csv --schema s.json --mechanism ID --epsilon E [--delta D] [--releases M]
                [--param key=value]... [--seed S] --out synth.csv [--report report.json]
                [--publish-inferred] [--ledger ledger.json] [--force]
                [--drop-incomplete-rows] [--escape-formulas]
                [--holdout-share F --holdout-out test.csv [--train-out train.csv]]
  dpsynth metrics real.csv synth.csv [synth.2.csv ...] [--schema s.json] [--json] [--pmse-model cart|logit]
                [--cart-cp C] [--cart-min-bucket B] [--cart-max-depth D] [--permutations P] [--tvd-k 1,2,3]
                [--bins B] [--seed S] [--regression "y ~ x1 + x2"] [--holdout test.csv --ml-target COLUMN]
                [--skip game,disclosure]
  dpsynth infer synth.1.csv synth.2.csv [synth.3.csv ...] --estimand mean:COL | proportion:COL=LEVEL | coef:Y~X1+X2
                [--schema s.json] [--json]
  dpsynth recommend --schema s.json --rows N --epsilon E [--delta D]
                --goal relationships|train-model|distributions|regression-inference [--label COL] [--json]
  dpsynth help COMMAND        (or dpsynth COMMAND --help) for a command's options

Any command takes --progress (or --no-progress): progress of reading, running and writing on stderr;
on by default when stderr is a terminal.
Any command that reads CSV files takes --encoding auto|utf-8|windows-1252 (default auto: UTF-8, and a
file that is not UTF-8 is read as Windows-1252 with a warning; invalid UTF-8 is never replaced).

${EXIT_CODES}`;
