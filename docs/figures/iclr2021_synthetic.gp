# Figures of the ICLR 2021 synthetic experiments (App. A.2; docs/reproduction.md), from
# results/iclr2021-synthetic/*.csv:
#   iclr2021_estimators.png  mean absolute error, variance and minimum time of the four estimators
#                            against n, for each model and dimension (the paper's Figs. 6-9)
#   iclr2021_tests.png       type-I / type-II error at alpha = 0.05 and minimum time of the tests
#                            against n (Figs. 10, 11); crosses: the published values
# Run from the repository root: gnuplot -e "results='results'" docs/figures/iclr2021_synthetic.gp
if (!exists("results")) results = 'results'
dir = results.'/iclr2021-synthetic/'
set datafile separator ','
set datafile columnheaders
set terminal pngcairo size 1150,1250 font 'Sans,9'
set logscale xy
set xrange [3:1400]
set xtics (4, 16, 64, 256, 1024)
set format y '10^{%L}'
set xlabel 'n'
set grid lc rgb '#dddddd'

estimators = 'biased block2 blocksqrt unbiased'
est_labels = '"biased" "B = 2" "B = √n" "B = n (unbiased)"'
colors = '#1f77b4 #ff7f0e #2ca02c #d62728'
models = 'calibrated calibrated uncalibrated uncalibrated'
dims = '1 10 1 10'
sel(model, d, key, name, value) = (strcol("model") eq model && column("d") == d && strcol(key) eq name) ? value : NaN

set output 'docs/figures/iclr2021_estimators.png'
set multiplot layout 4,3 title "ICLR 2021 App. A.2: SKCE estimators over 500 data sets per n (kernel exp(-W_2) ⊗ exp(-|y-y'|^2/2))" font 'Sans,12'
do for [row=1:4] {
  model = word(models, row); d = int(word(dims, row))
  if (row == 1) { set key bottom left } else { unset key }
  set title model.', d = '.d.': mean absolute error'
  set ylabel 'MAE'
  plot for [e=1:4] dir.'estimators.csv' using 'n':(sel(model, d, "estimator", word(estimators, e), column("mae"))) \
       with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, e) title word(est_labels, e)
  unset key
  set title model.', d = '.d.': variance'
  set ylabel 'variance'
  plot for [e=1:4] dir.'estimators.csv' using 'n':(sel(model, d, "estimator", word(estimators, e), column("variance"))) \
       with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, e) notitle
  set title model.', d = '.d.': minimum time'
  set ylabel 'seconds'
  plot for [e=1:4] dir.'estimators_times.csv' using 'n':(sel(model, d, "estimator", word(estimators, e), column("min_time_s"))) \
       with linespoints lw 2 pt 7 ps 0.8 lc rgb word(colors, e) notitle
}
unset multiplot

tests = 'block2 blocksqrt bootstrap cme cme_f gamma'
test_labels = '"block B = 2" "block B = √n" "bootstrap (B = n)" "CME (χ^2)" "CME (exact F)" "Gamma (calib)"'
test_colors = '#1f77b4 #2ca02c #d62728 #9467bd #c5b0d5 #ff7f0e'
set output 'docs/figures/iclr2021_tests.png'
set terminal pngcairo size 1400,900 font 'Sans,10'
set multiplot layout 2,3 title "ICLR 2021 App. A.2: calibration tests at α = 0.05, 500 data sets per n; crosses: published (authors' CSVs)" font 'Sans,12'
do for [d in "1 10"] {
  dd = int(d)
  unset logscale y
  set format y '%.1f'
  set yrange [-0.02:1.02]
  set title 'calibrated, d = '.d.': type I error'
  set ylabel 'type I error'
  if (dd == 1) { set key top right } else { unset key }
  plot for [t=1:6] dir.'tests.csv' using 'n':(sel("calibrated", dd, "test", word(tests, t), column("error"))) \
         with linespoints lw 2 pt 7 ps 0.8 lc rgb word(test_colors, t) title word(test_labels, t), \
       for [t=1:4] dir.'tests.csv' using 'n':(sel("calibrated", dd, "test", word(tests, t), column("published_error"))) \
         with points pt 2 ps 1.5 lw 2 lc rgb word(test_colors, t) notitle, \
       0.05 with lines dt 2 lc rgb '#000000' title 'α'
  unset key
  set title 'uncalibrated, d = '.d.': type II error'
  set ylabel 'type II error'
  plot for [t=1:6] dir.'tests.csv' using 'n':(sel("uncalibrated", dd, "test", word(tests, t), column("error"))) \
         with linespoints lw 2 pt 7 ps 0.8 lc rgb word(test_colors, t) notitle, \
       for [t=1:4] dir.'tests.csv' using 'n':(sel("uncalibrated", dd, "test", word(tests, t), column("published_error"))) \
         with points pt 2 ps 1.5 lw 2 lc rgb word(test_colors, t) notitle
  set logscale y
  set format y '10^{%L}'
  set yrange [*:*]
  set title 'd = '.d.': minimum time per test (calibrated model)'
  set ylabel 'seconds'
  plot for [t=1:6] dir.'tests_times.csv' using 'n':(sel("calibrated", dd, "test", word(tests, t), column("min_time_s"))) \
         with linespoints lw 2 pt 7 ps 0.8 lc rgb word(test_colors, t) notitle, \
       for [t=1:4] dir.'tests_times.csv' using 'n':(sel("calibrated", dd, "test", word(tests, t), column("published_min_time_s"))) \
         with points pt 2 ps 1.5 lw 2 lc rgb word(test_colors, t) notitle
}
unset multiplot
