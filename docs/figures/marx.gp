# The synthetic demo of Marx, Zalouk & Ermon (NeurIPS 2023; docs/reproduction.md, "Marx, Zalouk & Ermon
# (2023): a synthetic demo"), from results/marx/:
#   marx_regression.png      the conditional sd of the truth, of the constant-σ cubic forecaster and of
#                            some of its recalibrations on replicate 0 (regression_curves.csv); the
#                            held-out NLL, individual MMD² (RBF target) and DCE per method, mean ± s.e.
#                            over the replicates (regression_summary.csv)
#   marx_classification.png  the held-out top-label ECE and canonical MMD² per method, mean ± s.e.
#                            (classification_summary.csv)
# Run from the repository root: gnuplot -e "results='results'" docs/figures/marx.gp
if (!exists("results")) results = 'results'
dir = results.'/marx/'
set datafile separator ','
set datafile columnheaders

# ---- regression ----
set terminal pngcairo noenhanced size 1200,900 font 'Sans,10'
set output 'docs/figures/marx_regression.png'
set multiplot layout 2,2 title "x ~ U[−2, 2], y | x ~ N(sin x, (0.2 + 0.3|x|)²); forecaster N(cubic LS fit, constant σ), recalibrated on a second split, judged on a third"
curves = dir.'regression_curves.csv'
set title 'conditional sd, replicate 0'
set xlabel 'x'
set ylabel 'sd of y | x'
set key top center
set xrange [-2:2]
set yrange [0:*]
plot curves using 'x':'true_sd' with lines lw 3 lc rgb 'black' title 'truth 0.2 + 0.3|x|', \
     curves using 'x':'base_sd' with lines lw 1.5 title 'base (constant σ)', \
     curves using 'x':'features_sd' with lines lw 1.5 title 'affine-features, NLL', \
     curves using 'x':'features-rbf-large_sd' with lines lw 1.5 title 'NLL + 1000 MMD², rbf', \
     curves using 'x':'features-sign-q70-large_sd' with lines lw 1.5 title 'NLL + 1000 MMD², sign at q70'
unset xrange
summary = dir.'regression_summary.csv'
set style fill solid 0.5 border -1
set boxwidth 0.6
set offsets 0.6, 0.6, 0, 0
set xtics rotate by -35 left
set key off
set xlabel ''
set title 'held-out NLL (mean ± s.e.)'
set ylabel 'NLL'
set yrange [*:*]
plot summary using 0:(column('nll_mean')):(column('nll_se')):xtic(1) with yerrorbars pt 7 lc rgb '#1f77b4'
set title 'held-out individual MMD², RBF target (mean ± s.e.)'
set ylabel 'MMD²'
set yrange [*<0:*]
plot summary using 0:(column('mmd2_rbf_mean')):(column('mmd2_rbf_se')):xtic(1) with boxerrorbars lc rgb '#ff7f0e'
set title 'held-out DCE at the median (blue) and at the 70% quantile (red) of y (mean ± s.e.)'
set ylabel 'DCE'
plot summary using ($0 - 0.15):(column('dce_mean')):(column('dce_se')) with yerrorbars pt 7 lc rgb '#1f77b4', \
     summary using ($0 + 0.15):(column('dce_q70_mean')):(column('dce_q70_se')):xtic(1) with yerrorbars pt 7 lc rgb '#d62728'
unset multiplot
unset offsets
unset xtics
set xtics

# ---- classification ----
set terminal pngcairo noenhanced size 1200,600 font 'Sans,10'
set output 'docs/figures/marx_classification.png'
set bmargin 14
set offsets 0.6, 0.6, 0, 0
set xtics rotate by -35 left
set multiplot layout 1,2 title "10 classes, model softmax(z), labels ~ softmax(z/2 + β): recalibrated on one split, judged on another (mean ± s.e.)"
summary = dir.'classification_summary.csv'
set title 'held-out top-label ECE (20 bins)'
set ylabel 'ECE'
set yrange [*<0:*]
plot summary using 0:(column('ece_mean')):(column('ece_se')):xtic(1) with boxerrorbars lc rgb '#1f77b4'
set title 'held-out canonical MMD² (unbiased)'
set ylabel 'MMD²'
set yrange [*<0:*]
plot summary using 0:(column('mmd2_canonical_mean')):(column('mmd2_canonical_se')):xtic(1) with boxerrorbars lc rgb '#ff7f0e'
unset multiplot
