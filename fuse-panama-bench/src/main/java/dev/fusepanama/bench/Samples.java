package dev.fusepanama.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One value per round for each metric and filesystem, and what the tables print of them: medians,
 * and ratios of two filesystems taken within each round (the two ran in the same round, seconds
 * apart) as the median [lowest-highest] over the rounds, which shows how much of a ratio is noise.
 */
final class Samples {
    private final Map<String, Map<String, List<Double>>> values = new LinkedHashMap<>();

    void add(String metric, String filesystem, double value) {
        values.computeIfAbsent(metric, k -> new LinkedHashMap<>()).computeIfAbsent(filesystem, k -> new ArrayList<>()).add(value);
    }

    double median(String metric, String filesystem) {
        return median(values.get(metric).get(filesystem));
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (v.length == 0) return Double.NaN;
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** One filesystem's values on a row as "median [lowest-highest]" ("median" for one value), or "-" for none. */
    String range(String metric, String filesystem) {
        List<Double> v = values.getOrDefault(metric, Map.of()).getOrDefault(filesystem, List.of());
        if (v.isEmpty()) return "-";
        String median = Report.number(median(v));
        if (v.size() == 1) return median;
        double lo = v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double hi = v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return median + " [" + Report.number(lo) + "-" + Report.number(hi) + "]";
    }

    /** The candidate with the better median on this metric's row. */
    String best(String metric, List<String> candidates, boolean higherIsBetter) {
        String best = candidates.get(0);
        for (String c : candidates) {
            double m = median(metric, c);
            double b = median(metric, best);
            if (higherIsBetter ? m > b : m < b) best = c;
        }
        return best;
    }

    /** {@code numerator / denominator} per round, as "median [lowest-highest]" ("median" for one round). */
    String pairedRatio(String metric, String numerator, String denominator) {
        List<Double> a = values.get(metric).get(numerator);
        List<Double> b = values.get(metric).get(denominator);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) ratios.add(a.get(i) / b.get(i));
        if (ratios.size() == 1) return String.format(Locale.ROOT, "%.2f", ratios.get(0));
        double lo = ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double hi = ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return String.format(Locale.ROOT, "%.2f [%.2f-%.2f]", median(ratios), lo, hi);
    }
}
