"""calib.Recalibrator: a recalibration map of class predictions behind scikit-learn's estimator
conventions (fit, predict_proba, predict, get_params, set_params; sklearn.base.clone works), so that
it drops into code written for scikit-learn's calibrators. It is calib.recalibrate_fit and
calib.recalibrate_apply underneath, with the same numbers; scikit-learn is not imported."""

import numpy as _np


class Recalibrator:
    """A recalibration map of class predictions (docs/recalibration.md) as a scikit-learn estimator.

    Recalibrator(method="temperature", *, logits=False, one_based_labels=False, **options): method any
    categorical method of calib.recalibrate_fit ("temperature", "temperature-bias", "platt", "beta",
    "vector", "matrix", "dirichlet", "isotonic", "top-label-isotonic", "histogram", "venn-abers",
    "auto"); logits: the inputs of fit and predict_proba are logits, not probabilities; one_based_labels:
    labels 1..m; options: the keyword options of calib.recalibrate_fit (objective,
    lambda_, notion, ridge, probability_floor, max_iterations, gradient_tolerance, ...), given as
    keywords and kept as given (None: the library's default). They are this estimator's parameters.

    fit(probs, labels) fits the map and sets map_ (the calib.FittedMap, the JSON map file's fields),
    classes_ (0..m-1, or 1..m with one_based_labels) and n_features_in_ (m); predict_proba(probs) gives
    the recalibrated (n, m) probabilities, predict(probs) the class of largest probability (from
    classes_), and for a venn-abers map predict_interval(probs) the (n, 2) intervals [p0, p1] of the
    second class's probability."""

    def __init__(self, method="temperature", *, logits=False, one_based_labels=False, **options):
        self.method = method
        self.logits = logits
        self.one_based_labels = one_based_labels
        self._options = dict(options)

    def get_params(self, deep=True):
        """The constructor's arguments by name (deep has no effect: a map has no sub-estimators)."""
        return {"method": self.method, "logits": self.logits, "one_based_labels": self.one_based_labels,
                **self._options}

    def set_params(self, **params):
        """Sets constructor arguments by name and returns self; an unknown name is a calib option, checked
        by the next fit."""
        for name, value in params.items():
            if name in ("method", "logits", "one_based_labels"):
                setattr(self, name, value)
            else:
                self._options[name] = value
        return self

    def __getattr__(self, name):
        # The options read as attributes, as scikit-learn's conventions have every parameter be one.
        options = self.__dict__.get("_options", {})
        if name in options:
            return options[name]
        raise AttributeError(f"{type(self).__name__!s} has no attribute {name!r}")

    def __repr__(self):
        given = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"Recalibrator({given})"

    def _reading(self):
        return {"logits": True} if self.logits else {}

    def fit(self, probs, labels):
        """Fits the map on validation predictions (n, m) and their labels; returns self."""
        from . import recalibrate_fit
        options = {k: v for k, v in self._options.items() if v is not None}
        self.map_ = recalibrate_fit(probs, labels, method=self.method, one_based_labels=self.one_based_labels,
                                    **self._reading(), **options)
        m = self.map_["num_classes"]
        self.classes_ = _np.arange(1, m + 1) if self.one_based_labels else _np.arange(m)
        self.n_features_in_ = m
        return self

    def _fitted_map(self):
        if not hasattr(self, "map_"):
            raise ValueError("this Recalibrator is not fitted yet: call fit(probs, labels) first")
        return self.map_

    def predict_proba(self, probs):
        """The recalibrated probabilities (n, m) of new predictions, read as at fit."""
        from . import recalibrate_apply
        return recalibrate_apply(self._fitted_map(), probs)["probs"]

    def predict_interval(self, probs):
        """venn-abers: the (n, 2) intervals [p0, p1] of the second class's probability of new
        predictions (predict_proba's second column is their merge p1 / (1 - p0 + p1))."""
        from . import recalibrate_apply
        applied = recalibrate_apply(self._fitted_map(), probs)
        if "intervals" not in applied:
            raise ValueError(f"predict_interval: the map is {self.map_['method']}; only a venn-abers map has "
                             "intervals")
        return applied["intervals"]

    def predict(self, probs):
        """The class of largest recalibrated probability of each row (the first on a tie)."""
        return self.classes_[_np.argmax(self.predict_proba(probs), axis=1)]
