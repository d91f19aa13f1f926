# Writes tests/fixtures/birthwt.csv: the 189 births of MASS::birthwt (Hosmer & Lemeshow, Applied
# Logistic Regression, 1989; Baystate Medical Center, 1986), with the coded columns written as labels
# so that schema inference reads them as categories: low (normal, low), race (white, black, other),
# smoke, ht and ui (no, yes). age, lwt, ptl, ftv and bwt stay whole numbers. No value is missing.
# Run: Rscript tests/reference/birthwt/export-birthwt.R tests/fixtures/birthwt.csv  (needs r-cran-mass)
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[[1]] else "tests/fixtures/birthwt.csv"
library(MASS)
d <- birthwt
yes_no <- function(x) ifelse(x == 1, "yes", "no")
table <- data.frame(
  low = ifelse(d$low == 1, "low", "normal"),
  age = d$age,
  lwt = d$lwt,
  race = c("white", "black", "other")[d$race],
  smoke = yes_no(d$smoke),
  ptl = d$ptl,
  ht = yes_no(d$ht),
  ui = yes_no(d$ui),
  ftv = d$ftv,
  bwt = d$bwt
)
write.csv(table, out, row.names = FALSE, quote = FALSE)
