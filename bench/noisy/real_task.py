"""The real noisy task of `kbo bench noisy`: tuning an RBF support-vector regression on scikit-learn's
diabetes data (442 patients, 10 features; shipped inside scikit-learn, no download).

  x = (log10 C, log10 gamma, log10 epsilon) in [-2, 2] x [-4, 0] x [-2, 0]
  value = 1 - R^2 of SVR(C, gamma, epsilon), mean over a 3-fold cross-validation whose shuffled split is
          drawn anew for every trial (KFold(3, shuffle=True, random_state=split)), minimised

The noise is the split: the same x scores differently on another shuffle (standard deviation about 0.01
near the good region, where good and mediocre settings differ by a few hundredths). The TRUE value of a
point is the mean over 40 further shuffled 3-fold splits (random states 10^6 .. 10^6 + 39, never used by a
trial), whose own standard error is about 0.0015. Features and target are standardised once (a fixed
linear rescaling of the data, the same for every split).
"""
import numpy as np

NAME = "svr-diabetes"
BOUNDS = [(-2.0, 2.0), (-4.0, 0.0), (-2.0, 0.0)]
TRUE_SPLITS = range(10 ** 6, 10 ** 6 + 40)

_data = None


def _xy():
    global _data
    if _data is None:
        from sklearn.datasets import load_diabetes
        X, y = load_diabetes(return_X_y=True)
        _data = ((X - X.mean(0)) / X.std(0), (y - y.mean()) / y.std())
    return _data


def cv_loss(x, split):
    """1 - mean R^2 of one shuffled 3-fold cross-validation (random_state=split) at x."""
    from sklearn.model_selection import KFold, cross_val_score
    from sklearn.svm import SVR
    X, y = _xy()
    model = SVR(C=10.0 ** x[0], gamma=10.0 ** x[1], epsilon=10.0 ** x[2])
    return float(1.0 - cross_val_score(model, X, y, cv=KFold(3, shuffle=True, random_state=split),
                                       scoring="r2").mean())


def true_loss(x):
    """The large-sample value: mean of cv_loss over the 40 reserved splits."""
    return float(np.mean([cv_loss(x, s) for s in TRUE_SPLITS]))
