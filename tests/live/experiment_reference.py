"""The statistics of experiment results computed apart from the server, with scipy and
statsmodels where they have the figure (the z-test, the absolute interval, χ², Holm) and by the
published formulas where they do not (the delta method's relative interval; GrowthBook's
asymptotic confidence sequence, as gbstats computes it)."""
import math

from scipy.stats import chisquare, norm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint, proportions_ztest

ALPHA = 0.05
TUNING = 5000


def comparison(control, control_units, variant, variant_units):
    """The variant's conversions against control's: the figures of a `lift`."""
    z, p_value = proportions_ztest([variant, control], [variant_units, control_units])
    low, high = confint_proportions_2indep(variant, variant_units, control, control_units, method="wald", compare="diff", alpha=ALPHA)
    p0, p1 = control / control_units, variant / variant_units
    v0, v1 = p0 * (1 - p0) / control_units, p1 * (1 - p1) / variant_units
    critical = norm.ppf(1 - ALPHA / 2)
    relative = p1 / p0 - 1
    relative_error = math.sqrt(v1 / p0**2 + p1**2 * v0 / p0**4)
    half_width, sequential_p = sequential(p1 - p0, math.sqrt(v0 + v1), control_units + variant_units)
    return {
        "absolute": p1 - p0,
        "absoluteInterval": [low, high],
        "relative": relative,
        "relativeInterval": [relative - critical * relative_error, relative + critical * relative_error],
        "z": z,
        "pValue": p_value,
        "sequentialInterval": [p1 - p0 - half_width, p1 - p0 + half_width],
        "sequentialPValue": sequential_p,
    }


def rate_interval(conversions, units):
    """A rate's 95% interval: Wilson's score interval."""
    return list(proportion_confint(conversions, units, alpha=ALPHA, method="wilson"))


def sequential(estimate, standard_error, units, alpha=ALPHA, tuning=TUNING):
    """gbstats' asymptotic confidence sequence: its half-width and always-valid p-value, `units`
    both variants together."""
    rho = math.sqrt((-2 * math.log(alpha) + math.log(-2 * math.log(alpha) + 1)) / tuning)
    variance = standard_error**2 * units
    scale = variance * 2 * (units * rho**2 + 1) / (units**2 * rho**2)
    half_width = math.sqrt(scale * math.log(math.sqrt(units * rho**2 + 1) / alpha))
    return half_width, min(1.0, math.sqrt(units * rho**2 + 1) / math.exp(estimate**2 / scale))


def sample_ratio(counts, weights):
    """Pearson's χ² of the counts against the weights, and its p-value."""
    total = sum(counts)
    result = chisquare(counts, [weight / sum(weights) * total for weight in weights])
    return float(result.statistic), float(result.pvalue)


def holm(p_values):
    """Holm's step-down adjustment."""
    return list(multipletests(p_values, method="holm")[1])
