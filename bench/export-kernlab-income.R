# Writes kernlab's `income` data (8,993 rows, 14 categorical columns, 9 with missing values) as CSV,
# with a dpsynth schema declaring every column's categories (the factor levels, i.e. the codebook,
# not values read from the rows). Usage: Rscript bench/export-kernlab-income.R OUT.csv OUT.schema.json
# Needs the Debian package r-cran-kernlab. Used by the graphical-model benches; nothing is committed.
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) == 2)
data(income, package = "kernlab")
income <- as.data.frame(lapply(income, function(x) factor(as.character(x), levels = levels(x))))
write.csv(income, args[1], row.names = FALSE, na = "")
quote <- function(s) paste0('"', gsub('"', '\\\\"', s), '"')
columns <- vapply(names(income), function(name) {
  levels <- paste(vapply(levels(income[[name]]), quote, ""), collapse = ", ")
  sprintf('    { "name": %s, "type": "categorical", "categories": [%s], "source": "declared" }', quote(name), levels)
}, "")
writeLines(c('{', '  "version": 1,', '  "missing": [""],', '  "columns": [', paste(columns, collapse = ",\n"), '  ]', '}'), args[2])
