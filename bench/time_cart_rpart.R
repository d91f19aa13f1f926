#!/usr/bin/env Rscript
# Times rpart on the CSVs written by bench/cart.bench.ts and prints one JSON line per shape.
# usage: Rscript bench/time_cart_rpart.R DIR N1,N2,... Q1,Q2,...
# Reads DIR/real_N_Q.csv and DIR/synth_N_Q.csv (label 0 / 1). Timed (elapsed, proc.time, median of
# repeats; fast fits are looped so one repeat lasts >= 50 ms):
#   full: rpart(t ~ ., method = "class", control = rpart.control(cp = -1, minbucket = 5, minsplit = 10,
#         maxdepth = 30, xval = 0, maxcompete = 0, maxsurrogate = 0)) + predict(type = "prob")
#   cp:   same with cp = 0.001, minsplit = 15 (synthpop's tree)
suppressPackageStartupMessages(library(rpart))
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
sizes <- as.integer(strsplit(args[2], ",")[[1]])
qs <- as.integer(strsplit(args[3], ",")[[1]])
time_median <- function(f, reps) {
  t0 <- proc.time()[["elapsed"]]; value <- f(); once <- proc.time()[["elapsed"]] - t0
  inner <- if (once >= 0.05) 1L else as.integer(min(200, ceiling(0.05 / max(once, 0.0005))))
  times <- numeric(reps)
  for (r in seq_len(reps)) {
    t0 <- proc.time()[["elapsed"]]
    for (k in seq_len(inner)) value <- f()
    times[r] <- (proc.time()[["elapsed"]] - t0) / inner
  }
  list(median = median(times), value = value)
}
control <- function(cp, minsplit) rpart.control(cp = cp, minbucket = 5, minsplit = minsplit, maxdepth = 30,
                                                xval = 0, maxcompete = 0, maxsurrogate = 0)
for (N in sizes) for (q in qs) {
  reps <- if (N <= 2000) 15 else if (N <= 10000) 7 else 5
  real <- read.csv(file.path(dir, sprintf("real_%d_%d.csv", N, q)))
  synth <- read.csv(file.path(dir, sprintf("synth_%d_%d.csv", N, q)))
  frame <- rbind(real, synth)
  frame$t <- factor(c(rep(0, nrow(real)), rep(1, nrow(synth))), levels = c(0, 1))
  share <- nrow(synth) / nrow(frame)
  fit_predict <- function(ctl) function() {
    fit <- rpart(t ~ ., data = frame, method = "class", control = ctl)
    p <- predict(fit, type = "prob")[, 2]
    c(sum((p - share)^2) / length(p), sum(fit$frame$var == "<leaf>"))
  }
  full <- time_median(fit_predict(control(-1, 10)), reps)
  cp <- time_median(fit_predict(control(0.001, 15)), reps)
  cat(sprintf('{"N": %d, "q": %d, "full_s": %.6g, "cp_s": %.6g, "full_pmse": %.17g, "full_leaves": %d, "cp_pmse": %.17g, "cp_leaves": %d}\n',
              N, q, full$median, cp$median, full$value[1], as.integer(full$value[2]), cp$value[1], as.integer(cp$value[2])))
}
