# The clinical calibration measures computed by R (and its rms package) on two real data sets of MASS,
# for tests/r/run.py, which compares calib's numbers with them (docs/tests.md, "Beside R").
#   Rscript tests/r/clinical.R OUT_DIR
# writes OUT_DIR/<data>.csv (p,y: the model's predictions and the outcomes), OUT_DIR/<data>_x.csv (the
# model's covariates, development data only) and OUT_DIR/<data>_r.csv (name,value: R's numbers).
suppressPackageStartupMessages({ library(MASS); library(rms) })
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]
options(digits = 17)

# Hosmer-Lemeshow over groups cut at the predictions' sample quantiles k/g (the grouping of
# ResourceSelection::hoslem.test), written out here: that package is not in Debian.
hosmer_lemeshow <- function(p, y, g) {
  group <- cut(p, breaks = quantile(p, probs = seq(0, 1, 1 / g)), include.lowest = TRUE)
  observed <- tapply(y, group, sum)
  expected <- tapply(p, group, sum)
  size <- tapply(p, group, length)
  sum((observed - expected)^2 / expected + ((size - observed) - (size - expected))^2 / (size - expected))
}

measures <- function(name, p, y, fit = NULL) {
  lp <- qlogis(p)
  v <- val.prob(p, y, pl = FALSE)
  tight <- glm.control(epsilon = 1e-14, maxit = 100)     # glm's default 1e-8 leaves ~1e-8 in the coefficients
  cox <- glm(y ~ lp, family = binomial, control = tight)
  citl <- glm(y ~ 1 + offset(lp), family = binomial, control = tight)
  wald <- confint.default(cox)
  # The likelihood-ratio (profile) intervals' ends: where the profile deviance, the other coefficient
  # refitted, exceeds the fit's by qchisq(0.95, 1), found by uniroot (MASS's confint interpolates the
  # profile on a grid instead, which moves the ends by up to about 4e-5 here).
  cut <- qchisq(0.95, 1)
  ends <- function(deviance_at, fitted, estimate, se) {
    side <- function(s) uniroot(function(t) deviance_at(t) - deviance(fitted) - cut,
                                sort(c(estimate, estimate + s * 20 * se)), tol = 1e-14)$root
    c(side(-1), side(1))
  }
  deviance_with <- function(offset) -2 * sum(y * plogis(offset, log.p = TRUE) + (1 - y) * plogis(-offset, log.p = TRUE))
  # (At the far end of a bracket glm may not meet the tight tolerance in rounding and says so; the roots
  # lie where it does.)
  refit <- function(formula) suppressWarnings(deviance(glm(formula, family = binomial, control = tight)))
  slope_ends <- ends(function(t) refit(y ~ 1 + offset(t * lp)), cox, coef(cox)[2], sqrt(vcov(cox)[2, 2]))
  intercept_ends <- ends(function(t) refit(y ~ 0 + lp + offset(rep(t, length(y)))), cox, coef(cox)[1],
                         sqrt(vcov(cox)[1, 1]))
  citl_ends <- ends(function(t) deviance_with(t + lp), citl, coef(citl)[1], sqrt(vcov(citl)[1, 1]))
  deviance_null <- -2 * sum(y * log(p) + (1 - y) * log(1 - p))   # a = 0, b = 1
  curve <- loess(y ~ p)                                  # Austin & Steyerberg's code: the defaults
  distance <- abs(predict(curve, newdata = data.frame(p = p)) - p)
  r <- c(spiegelhalter_z = unname(v["S:z"]), spiegelhalter_p = unname(v["S:p"]), brier = unname(v["Brier"]),
         cox_intercept = unname(coef(cox)[1]), cox_slope = unname(coef(cox)[2]),
         cox_intercept_se = unname(sqrt(diag(vcov(cox)))[1]), cox_slope_se = unname(sqrt(diag(vcov(cox)))[2]),
         cox_intercept_lower = wald[1, 1], cox_intercept_upper = wald[1, 2],
         cox_slope_lower = wald[2, 1], cox_slope_upper = wald[2, 2],
         cox_intercept_lr_lower = intercept_ends[1], cox_intercept_lr_upper = intercept_ends[2],
         cox_slope_lr_lower = slope_ends[1], cox_slope_lr_upper = slope_ends[2],
         cox_lr = deviance_null - deviance(cox), cox_lr_p = pchisq(deviance_null - deviance(cox), 2, lower.tail = FALSE),
         citl_intercept = unname(coef(citl)[1]), citl_se = sqrt(vcov(citl)[1, 1]),
         citl_lr_lower = citl_ends[1], citl_lr_upper = citl_ends[2],
         citl_lr = deviance_null - deviance(citl),
         # calibration-in-the-large's z is the score (Rao) test of a = 0 with the slope at 1: z^2
         citl_score = anova(glm(y ~ 0 + offset(lp), family = binomial), citl, test = "Rao")$Rao[2],
         slope_lr = deviance(citl) - deviance(cox),
         ici = mean(distance), e50 = unname(median(distance)), e90 = unname(quantile(distance, 0.9)),
         emax = max(distance),
         hl10 = hosmer_lemeshow(p, y, 10))
  if (!is.null(fit)) {
    gof <- residuals(fit, type = "gof")                   # le Cessie-van Houwelingen-Copas-Hosmer
    r <- c(r, gof_sse = unname(gof["Sum of squared errors"]), gof_expected = unname(gof["Expected value|H0"]),
           gof_sd = unname(gof["SD"]), gof_z = unname(gof["Z"]), gof_p = unname(gof["P"]))
    write.csv(fit$x, file.path(out, paste0(name, "_x.csv")), row.names = FALSE)
  }
  write.csv(data.frame(p = p, y = y), file.path(out, paste0(name, ".csv")), row.names = FALSE)
  write.csv(data.frame(name = names(r), value = sprintf("%.17g", r)), file.path(out, paste0(name, "_r.csv")),
            row.names = FALSE, quote = FALSE)
}

# Development data: Hosmer & Lemeshow's low birth weight study (MASS::birthwt, n = 189) and the
# logistic model of their book's chapter 2 fitted to it.
b <- birthwt
b$race <- factor(b$race)
fit <- lrm(low ~ age + lwt + race + smoke + ptl + ht + ui, data = b, x = TRUE, y = TRUE)
measures("birthwt", unname(plogis(predict(fit))), b$low, fit)

# Validation data: the Pima diabetes model fitted to MASS::Pima.tr (n = 200), predicting Pima.te (n = 332).
pima <- glm(type ~ npreg + glu + bp + skin + bmi + ped + age, family = binomial, data = Pima.tr)
measures("pima", unname(predict(pima, newdata = Pima.te, type = "response")), as.integer(Pima.te$type == "Yes"))

cat(sprintf("R %s, rms %s, MASS %s\n", getRversion(), packageVersion("rms"), packageVersion("MASS")),
    file = file.path(out, "versions.txt"))
