#!/usr/bin/env Rscript
# Expected regression comparison for the "mixed" fixture, as JSON on stdout.
#
# usage: Rscript make_regression_fixture.R REAL.csv SYNTH1.csv [SYNTH2.csv ...]
#
# Models (complete cases: rows with a missing target or predictor are dropped, R's na.omit):
#   linear:   lm(income ~ age + hours + sex + education + region)
#   logistic: glm(high_income == "yes" ~ age + hours + income + sex + education, binomial,
#                 glm.control(epsilon = 1e-14, maxit = 100))
# Factor levels = distinct tokens of the pooled real + all synthetic columns, sorted by code
# point (sort(method = "radix")); treatment coding, first level is the reference.  A level absent
# from one data set gives an aliased coefficient (NA -> null).  Coefficients are named
# "(Intercept)", "<numeric column>", "<factor>=<level>".
#
# Comparison per synthetic release j and coefficient (real fit "obs"):
#   std_diff    = (beta_syn - beta_obs) / se_obs
#   95% CI      = beta +- q * se, q = qt(0.975, df.residual) for lm, qnorm(0.975) for glm (Wald)
#   ci_overlap  = Karr et al. (2006): with L = max(lower), U = min(upper),
#                 0.5 * ((U - L) / (upper_obs - lower_obs) + (U - L) / (upper_syn - lower_syn))
#                 (negative when the intervals are disjoint)
# Combining rules over the M releases (Liu / DIPS comparative study eqs. 9-11), per coefficient,
# only when it is identified in every release:
#   beta_bar = mean(beta_j); B = var(beta_j) (divisor M - 1); W = mean(se_j^2); T = B / M + W
#   nu = (M - 1) * (1 + M * W / B)^2 (Inf when B = 0); CI = beta_bar +- qt(0.975, nu) * sqrt(T)
#   std_diff = (beta_bar - beta_obs) / se_obs; ci_overlap of the combined CI with the real one.
suppressWarnings(suppressMessages(library(stats)))
args <- commandArgs(trailingOnly = TRUE)
read_tokens <- function(path) {
  read.csv(path, colClasses = "character", na.strings = c("", "NA"), check.names = FALSE)
}
paths <- args
tables <- lapply(paths, read_tokens)
factors <- c("sex", "education", "region")
levels_of <- lapply(factors, function(f) sort(unique(na.omit(unlist(lapply(tables, `[[`, f)))), method = "radix"))
names(levels_of) <- factors

prepare <- function(d) {
  for (v in c("age", "hours", "income")) d[[v]] <- as.numeric(d[[v]])
  for (f in factors) d[[f]] <- factor(d[[f]], levels = levels_of[[f]])
  d$y <- ifelse(is.na(d$high_income), NA, as.numeric(d$high_income == "yes"))
  d
}

term_names <- function(vars) {
  out <- "(Intercept)"
  for (v in vars) {
    if (v %in% factors) out <- c(out, paste0(v, "=", levels_of[[v]][-1])) else out <- c(out, v)
  }
  out
}

fit_one <- function(d, kind) {
  if (kind == "linear") {
    vars <- c("age", "hours", "sex", "education", "region")
    form <- income ~ age + hours + sex + education + region
  } else {
    vars <- c("age", "hours", "income", "sex", "education")
    form <- y ~ age + hours + income + sex + education
  }
  # Unused levels are kept (lm/glm would drop them) so that every data set has the same columns
  # and a level absent from one data set shows up as an aliased (NA) coefficient.
  mf <- model.frame(form, d, na.action = na.omit, drop.unused.levels = FALSE)
  X <- model.matrix(form, mf)
  yv <- model.response(mf)
  if (kind == "linear") {
    f <- lm(yv ~ 0 + X)
  } else {
    f <- glm(yv ~ 0 + X, family = binomial, control = glm.control(epsilon = 1e-14, maxit = 100))
  }
  est <- coef(f)
  se <- rep(NA_real_, length(est)); names(se) <- names(est)
  s <- summary(f)$coefficients
  se[rownames(s)] <- s[, 2]
  df <- f$df.residual
  q <- if (kind == "linear") qt(0.975, df) else qnorm(0.975)
  list(terms = term_names(vars), coefficients = unname(est), standard_errors = unname(se),
       df_residual = df, rank = f$rank, n_used = nobs(f), quantile = q)
}

overlap <- function(lo1, hi1, lo2, hi2) {
  L <- pmax(lo1, lo2); U <- pmin(hi1, hi2)
  0.5 * ((U - L) / (hi1 - lo1) + (U - L) / (hi2 - lo2))
}

compare <- function(obs, syn) {
  lo_o <- obs$coefficients - obs$quantile * obs$standard_errors
  hi_o <- obs$coefficients + obs$quantile * obs$standard_errors
  lo_s <- syn$coefficients - syn$quantile * syn$standard_errors
  hi_s <- syn$coefficients + syn$quantile * syn$standard_errors
  list(std_diff = (syn$coefficients - obs$coefficients) / obs$standard_errors,
       ci_overlap = overlap(lo_o, hi_o, lo_s, hi_s))
}

combine <- function(obs, syns) {
  est <- sapply(syns, `[[`, "coefficients")
  se <- sapply(syns, `[[`, "standard_errors")
  M <- length(syns)
  beta_bar <- rowMeans(est)
  B <- apply(est, 1, var)
  W <- rowMeans(se^2)
  T <- B / M + W
  nu <- ifelse(B == 0, Inf, (M - 1) * (1 + M * W / B)^2)
  q <- qt(0.975, nu)
  lo <- beta_bar - q * sqrt(T); hi <- beta_bar + q * sqrt(T)
  lo_o <- obs$coefficients - obs$quantile * obs$standard_errors
  hi_o <- obs$coefficients + obs$quantile * obs$standard_errors
  list(beta_bar = beta_bar, between = B, within = W, total = T, df = nu, ci_lower = lo, ci_upper = hi,
       std_diff = (beta_bar - obs$coefficients) / obs$standard_errors,
       ci_overlap = overlap(lo_o, hi_o, lo, hi))
}

num_json <- function(x) {
  vapply(x, function(v) {
    if (is.na(v)) "null" else if (is.infinite(v)) "null" else formatC(v, digits = 17, format = "g")
  }, character(1))
}
arr <- function(x) paste0("[", paste(num_json(x), collapse = ","), "]")
str_arr <- function(x) paste0("[", paste0('"', x, '"', collapse = ","), "]")
obj <- function(lst) {
  parts <- mapply(function(k, v) {
    val <- if (is.list(v)) obj(v) else if (is.character(v)) (if (length(v) == 1 && !grepl("^\\[", v)) paste0('"', v, '"') else v) else if (length(v) == 1) num_json(v) else arr(v)
    paste0('"', k, '":', val)
  }, names(lst), lst)
  paste0("{", paste(parts, collapse = ","), "}")
}

data <- lapply(tables, prepare)
result <- list()
for (kind in c("linear", "logistic")) {
  fits <- lapply(data, fit_one, kind = kind)
  obs <- fits[[1]]
  syns <- fits[-1]
  per_release <- lapply(syns, function(s) {
    cmp <- compare(obs, s)
    list(coefficients = s$coefficients, standard_errors = s$standard_errors,
         df_residual = s$df_residual, rank = s$rank, n_used = s$n_used,
         std_diff = cmp$std_diff, ci_overlap = cmp$ci_overlap)
  })
  names(per_release) <- paste0("release_", seq_along(per_release))
  comb <- combine(obs, syns)
  result[[kind]] <- list(terms = str_arr(obs$terms),
                         real = list(coefficients = obs$coefficients, standard_errors = obs$standard_errors,
                                     df_residual = obs$df_residual, rank = obs$rank, n_used = obs$n_used),
                         releases = per_release, combined = comb)
}
cat(obj(c(list(generated_by = paste("Rscript tests/reference/metrics/make_regression_fixture.R", paste(paths, collapse = " ")),
               r_version = R.version.string), result)), "\n")
