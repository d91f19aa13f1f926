# Exports the four data sets of bench/clustmix-tstr.bench.ts as CSV into the directory given as the
# first argument. Needs the Debian packages r-cran-mlbench, r-cran-kernlab and r-cran-mclust.
#   Rscript bench/clustmix-data.R /tmp/clustmix-data
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[[1]] else "."
dir.create(out, showWarnings = FALSE, recursive = TRUE)
suppressPackageStartupMessages({
  library(mlbench)
  library(kernlab)
  library(mclust)
})

# Pima Indians diabetes (768 x 8 + diabetes = neg/pos).
data(PimaIndiansDiabetes)
write.csv(PimaIndiansDiabetes, file.path(out, "pima.csv"), row.names = FALSE)

# Spambase (4,601 x 57 + type = nonspam/spam).
data(spam)
write.csv(spam, file.path(out, "spam.csv"), row.names = FALSE)

# Letter recognition (20,000 x 16 integer features on 0..15); target: letter A-M vs N-Z.
data(LetterRecognition)
letter <- LetterRecognition
target <- ifelse(as.character(letter$lettr) <= "M", "AtoM", "NtoZ")
letter$lettr <- NULL
letter$target <- target
write.csv(letter, file.path(out, "letter.csv"), row.names = FALSE)

# Wisconsin diagnostic breast cancer (569 x 30 numeric features + Diagnosis = B/M), the medical table.
data(wdbc)
medical <- wdbc
medical$ID <- NULL
write.csv(medical, file.path(out, "medical.csv"), row.names = FALSE)
