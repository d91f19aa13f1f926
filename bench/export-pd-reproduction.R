# Writes the two tables of the plausible-deniability reproduction as CSV, each with a dpsynth schema:
# - kernlab's `income` (8,993 rows, 14 categorical columns, missing values) with INCOME recoded to two
#   levels, "<50000" and ">=50000" (the bands [50.000-75.000) and [75.000- are the positive class);
# - AER's `CPS1988` (28,155 rows: wage, education, experience numeric; ethnicity, smsa, region,
#   parttime categorical). Numeric bounds are declared, not read from the rows: weekly wage [0, 3000]
#   dollars (top-coded there, as public CPS earnings files top-code; the few higher wages are clamped
#   when the table is built), education [0, 18] years, experience [-5, 65] years (potential
#   experience, age − education − 6, can be negative).
# Categories are the factor levels (the codebooks). Usage: Rscript bench/export-pd-reproduction.R DIR
# (writes DIR/income.csv, DIR/income.schema.json, DIR/cps1988.csv, DIR/cps1988.schema.json; the CPS
# files only when AER is installed). Needs r-cran-kernlab and r-cran-aer. Nothing is committed.
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) == 1)
dir <- args[1]
quote <- function(s) paste0('"', gsub('"', '\\\\"', s), '"')
write_schema <- function(frame, numeric_bounds, path) {
  columns <- vapply(names(frame), function(name) {
    if (name %in% names(numeric_bounds)) {
      b <- numeric_bounds[[name]]
      sprintf('    { "name": %s, "type": "numeric", "bounds": [%s, %s], "integer": %s, "source": "declared" }',
              quote(name), b[1], b[2], if (b[3] == 1) "true" else "false")
    } else {
      levels <- paste(vapply(levels(frame[[name]]), quote, ""), collapse = ", ")
      sprintf('    { "name": %s, "type": "categorical", "categories": [%s], "source": "declared" }', quote(name), levels)
    }
  }, "")
  writeLines(c('{', '  "version": 1,', '  "missing": [""],', '  "columns": [', paste(columns, collapse = ",\n"), '  ]', '}'), path)
}

data(income, package = "kernlab")
income <- as.data.frame(lapply(income, function(x) factor(as.character(x), levels = levels(x))))
high <- levels(income$INCOME)[8:9]
stopifnot(identical(high, c("[50.000-75.000)", "[75.000-")))
income$INCOME <- factor(ifelse(is.na(income$INCOME), NA, ifelse(income$INCOME %in% high, ">=50000", "<50000")),
                        levels = c("<50000", ">=50000"))
write.csv(income, file.path(dir, "income.csv"), row.names = FALSE, na = "")
write_schema(income, list(), file.path(dir, "income.schema.json"))

if (requireNamespace("AER", quietly = TRUE)) {
  data(CPS1988, package = "AER")
  cps <- CPS1988
  write.csv(cps, file.path(dir, "cps1988.csv"), row.names = FALSE, na = "")
  write_schema(cps, list(wage = c(0, 3000, 0), education = c(0, 18, 1), experience = c(-5, 65, 1)),
               file.path(dir, "cps1988.schema.json"))
}
