#!/usr/bin/env Rscript
# pMSE oracle for the dpsynth fixtures: rpart (CART) and glm (logit), synthpop::utility.gen semantics.
#
# usage: Rscript pmse_fixture.R real.csv synth.csv --out FILE.json [--model cart|logit]
#          [--cp C] [--minbucket B] [--minsplit S] [--maxdepth D] [--maxorder 0|1]
#          [--perms P] [--seed S] [--glm-epsilon E] [--glm-maxit M] [--name NAME]
#
# Preprocessing (normative, shared/reference/README.md "Common preprocessing"): every cell is a
# string token, "" and "NA" are missing; a column is numeric iff every non-missing token in both
# files matches the numeric pattern; categorical levels are the pooled tokens sorted by code point
# with a missing value as the level "<NA>"; pooled-constant columns (missing counts as a value) are
# dropped; a numeric column with a missing value gets 0 there and an indicator "<name>_NA" appended
# after all original columns.  Rows: real (label 0) then synthetic (label 1).
#
# CART: rpart(t ~ ., method = "class", control = rpart.control(cp, minbucket, minsplit, maxdepth,
# xval = 0, maxcompete = 0, maxsurrogate = 0)) with categorical columns as factors;
# p_i = predict(fit, type = "prob")[, 2].  Logit: glm(t ~ . (maxorder 0) or t ~ .^2 (maxorder 1),
# binomial, glm.control(epsilon, maxit)); k = number of non-aliased coefficients.
# pMSE = sum((p - c)^2) / N with c = n_synth / N.  With --perms P the labels are permuted P times
# (set.seed(S); sample(t)) and each permuted pMSE is reported (synthpop's permutation null).
# Needs r-base-core and r-cran-rpart only; writes JSON with %.17g numbers.
suppressPackageStartupMessages(library(rpart))

args <- commandArgs(trailingOnly = TRUE)
opt <- list(model = "cart", cp = 0.001, minbucket = 5L, minsplit = NA, maxdepth = 30L, maxorder = 0L,
            perms = 0L, seed = 1L, glm.eps = 1e-8, glm.maxit = 200L, out = NA, name = "")
files <- character(0)
i <- 1
while (i <= length(args)) {
  key <- args[i]
  nextval <- function() { i <<- i + 1; args[i] }
  if (key == "--model") opt$model <- nextval()
  else if (key == "--cp") opt$cp <- as.numeric(nextval())
  else if (key == "--minbucket") opt$minbucket <- as.integer(nextval())
  else if (key == "--minsplit") opt$minsplit <- as.integer(nextval())
  else if (key == "--maxdepth") opt$maxdepth <- as.integer(nextval())
  else if (key == "--maxorder") opt$maxorder <- as.integer(nextval())
  else if (key == "--perms") opt$perms <- as.integer(nextval())
  else if (key == "--seed") opt$seed <- as.integer(nextval())
  else if (key == "--glm-epsilon") opt$glm.eps <- as.numeric(nextval())
  else if (key == "--glm-maxit") opt$glm.maxit <- as.integer(nextval())
  else if (key == "--out") opt$out <- nextval()
  else if (key == "--name") opt$name <- nextval()
  else if (startsWith(key, "--")) stop("unknown option ", key)
  else files <- c(files, key)
  i <- i + 1
}
if (length(files) != 2 || is.na(opt$out)) stop("usage: pmse_fixture.R real.csv synth.csv --out FILE.json [options]")
if (is.na(opt$minsplit)) opt$minsplit <- 3L * opt$minbucket

read_tokens <- function(path) read.csv(path, colClasses = "character", na.strings = c("", "NA"),
                                       check.names = FALSE, strip.white = FALSE)
real <- read_tokens(files[1])
synth <- read_tokens(files[2])[, names(real), drop = FALSE]
n_real <- nrow(real); n_synth <- nrow(synth); N <- n_real + n_synth; share <- n_synth / N
pooled <- rbind(real, synth)
number_pattern <- "^[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?$"

predictors <- list(); indicators <- list(); kinds <- character(0); dropped <- character(0)
for (column in names(pooled)) {
  tokens <- pooled[[column]]
  present <- tokens[!is.na(tokens)]
  if (length(present) > 0 && all(grepl(number_pattern, present, perl = TRUE))) {
    x <- as.numeric(tokens)
    if (length(unique(x[!is.na(x)])) + anyNA(x) <= 1) { dropped <- c(dropped, column); next }
    if (anyNA(x)) { indicators[[paste0(column, "_NA")]] <- as.numeric(is.na(x)); x[is.na(x)] <- 0 }
    predictors[[column]] <- x; kinds[column] <- "numeric"
  } else {
    tokens[is.na(tokens)] <- "<NA>"
    levels <- sort(unique(tokens), method = "radix")
    if (length(levels) <= 1) { dropped <- c(dropped, column); next }
    predictors[[column]] <- factor(tokens, levels = levels); kinds[column] <- "categorical"
  }
}
for (column in names(indicators)) { predictors[[column]] <- indicators[[column]]; kinds[column] <- "numeric" }
X <- as.data.frame(predictors, check.names = FALSE)
model_names <- names(X)
names(X) <- sprintf("v%03d", seq_along(X))
labels <- c(rep(0, n_real), rep(1, n_synth))

fit_scores <- function(y) {
  frame <- X; frame$t <- y
  if (opt$model == "cart") {
    frame$t <- factor(frame$t, levels = c(0, 1))
    fit <- rpart(t ~ ., data = frame, method = "class",
                 control = rpart.control(cp = opt$cp, minbucket = opt$minbucket, minsplit = opt$minsplit,
                                         maxdepth = opt$maxdepth, xval = 0, maxcompete = 0,
                                         maxsurrogate = 0))
    list(p = as.numeric(predict(fit, type = "prob")[, 2]), fit = fit)
  } else {
    formula <- if (opt$maxorder >= 1) t ~ .^2 else t ~ .
    fit <- suppressWarnings(glm(formula, data = frame, family = binomial(),
                                control = glm.control(epsilon = opt$glm.eps, maxit = opt$glm.maxit)))
    list(p = as.numeric(fitted(fit)), fit = fit)
  }
}
pmse_of <- function(p) sum((p - share)^2) / N

main <- fit_scores(labels)
out <- list(name = opt$name, command = paste(c("Rscript tests/reference/pmse/pmse_fixture.R", args), collapse = " "),
            model = opt$model, n_real = n_real, n_synth = n_synth, N = N, c = share,
            pMSE = pmse_of(main$p), columns = model_names, kinds = unname(kinds[model_names]),
            dropped_constant = dropped)
if (opt$model == "cart") {
  frame <- main$fit$frame
  out$cp <- opt$cp; out$minbucket <- opt$minbucket; out$minsplit <- opt$minsplit; out$maxdepth <- opt$maxdepth
  out$n_leaves <- sum(frame$var == "<leaf>")
  out$n_nodes <- nrow(frame)
} else {
  coefs <- coef(main$fit)
  k <- sum(!is.na(coefs))
  expected <- (k - 1) * (1 - share)^2 * share / N
  out$maxorder <- opt$maxorder; out$glm_epsilon <- opt$glm.eps; out$glm_maxit <- opt$glm.maxit
  out$k <- k; out$E_pMSE <- expected; out$S_pMSE <- out$pMSE / expected
  out$converged <- main$fit$converged; out$iterations <- main$fit$iter; out$deviance <- main$fit$deviance
  out$n_extreme_p <- sum(main$p < 1e-8 | main$p > 1 - 1e-8)
  out$n_coefficients <- length(coefs)
  out$coefficients <- unname(coefs)
  # Coefficient names with the formula-safe names v001, v002, ... (position in "columns").
  out$coefficient_names <- names(coefs)
}
if (opt$perms > 0) {
  set.seed(opt$seed)
  null <- numeric(opt$perms)
  for (r in seq_len(opt$perms)) null[r] <- pmse_of(fit_scores(sample(labels))$p)
  out$perms <- opt$perms; out$seed <- opt$seed; out$null_pMSE <- null
  out$null_pMSE_mean <- mean(null)
  out$S_pMSE_perm_synthpop <- out$pMSE / (mean(null) / 2)
  out$S_pMSE_perm_raw <- out$pMSE / mean(null)
}
out$scores <- main$p

json_value <- function(v, force_array) {
  if (is.null(v)) return("null")
  if (is.character(v)) {
    s <- paste0('"', gsub('"', '\\\\"', gsub("\\\\", "\\\\\\\\", v)), '"')
  } else if (is.logical(v)) {
    s <- ifelse(is.na(v), "null", ifelse(v, "true", "false"))
  } else {
    s <- ifelse(is.na(v), "null", sprintf("%.17g", v))
  }
  if (length(v) == 1 && !force_array) s else paste0("[", paste(s, collapse = ","), "]")
}
array_fields <- c("columns", "kinds", "dropped_constant", "coefficients", "coefficient_names", "null_pMSE", "scores")
body <- vapply(names(out), function(key) sprintf('  "%s": %s', key, json_value(out[[key]], key %in% array_fields)), "")
writeLines(paste0("{\n", paste(body, collapse = ",\n"), "\n}"), opt$out)
