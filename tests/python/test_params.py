"""Named, typed parameters, outcome constraints and warm starts from Python, as a user runs them."""
import math

import numpy as np
import pytest

import kbo

SPACE = {"lr": kbo.Float(1e-4, 1.0, log=True), "layers": kbo.Int(1, 6), "opt": kbo.Categorical(["adam", "sgd"]),
         "seed": kbo.Fixed(3)}


def mixed(p):
    assert isinstance(p, dict) and set(p) == {"lr", "layers", "opt", "seed"}, p
    assert isinstance(p["lr"], float) and 1e-4 <= p["lr"] <= 1.0
    assert isinstance(p["layers"], int) and 1 <= p["layers"] <= 6
    assert p["opt"] in ("adam", "sgd") and p["seed"] == 3
    return (math.log10(p["lr"]) + 2) ** 2 + (p["layers"] - 4) ** 2 + (0.0 if p["opt"] == "adam" else 1.0)


def test_minimize_over_named_params_gives_dicts_and_typed_best():
    res = kbo.minimize(mixed, SPACE, iters=10, seed=0)
    assert res.states.count("complete") == 15  # the objective's type asserts held for every trial
    assert set(res.best_params) == {"lr", "layers", "opt", "seed"}
    assert res.best_value == pytest.approx(mixed(res.best_params))
    assert all(isinstance(p["layers"], int) for p in res.params)
    assert res.best_value < 1.5  # optimum 0; a random point is ~5 on average
    # The same space from the CLI's compact text and from spec dicts.
    res2 = kbo.minimize(mixed, {"lr": "float:1e-4:1:log", "layers": "int:1:6", "opt": ["adam", "sgd"], "seed": 3},
                        iters=0, seed=0)
    assert res2.study.space == res.study.space
    assert res2.params[:5] == res.params[:5]


def test_box_spaces_still_get_arrays():
    seen = []
    kbo.minimize(lambda x: seen.append(type(x)) or float(np.sum(x ** 2)), [(-1, 1)], iters=1, seed=0)
    assert all(t is np.ndarray for t in seen)


@pytest.mark.parametrize("space, message", [
    ({"lr": kbo.Float(0.0, 1.0, log=True)}, "param 'lr': log scale needs low > 0"),
    ({"a": kbo.Float(1.0, 1.0)}, "param 'a': needs low < high"),
    ({"n": kbo.Int(5, 2)}, "param 'n': needs low < high"),
    ({"c": kbo.Categorical([])}, "param 'c': a categorical parameter needs at least one choice"),
    ({"t": {"type": "floot", "low": 0, "high": 1}}, "param 't': unknown type 'floot'"),
])
def test_bad_params_raise_input_error_naming_the_parameter(space, message):
    with pytest.raises(kbo.InputError, match=message.replace("(", r"\(")):
        kbo.minimize(mixed, space, iters=1)


def test_points_with_missing_or_extra_names_are_input_errors_and_store_nothing():
    s = kbo.Study(None, "p", SPACE)
    with pytest.raises(kbo.InputError, match="param 'layers': missing"):
        s.enqueue({"lr": 0.01, "opt": "adam"})
    with pytest.raises(kbo.InputError, match="param 'depth': not a parameter"):
        s.tell({"lr": 0.01, "layers": 2, "opt": "adam", "depth": 3}, 1.0)
    assert s.trials == []


def test_warm_starts_enqueue_and_tell_before_and_during_a_study():
    s = kbo.Study(None, "w", SPACE, seed=1)
    told = s.tell({"lr": 0.01, "layers": 4, "opt": "adam"}, 0.0)  # the optimum, evaluated elsewhere
    assert told.state == "complete" and s.params(told)["layers"] == 4
    q = s.enqueue({"lr": 0.1, "layers": 2, "opt": "sgd"})
    assert q.state == "pending"
    calls = []
    res = s.optimize(lambda p: calls.append(dict(p)) or mixed(p), n_trials=3)
    assert calls[0] == {"lr": pytest.approx(0.1), "layers": 2, "opt": "sgd", "seed": 3}  # queued point first
    assert res.best_params["layers"] == 4 and res.best_value == 0.0
    s.enqueue({"lr": 0.5, "layers": 1, "opt": "adam"})  # during the study
    s.optimize(lambda p: calls.append(dict(p)) or mixed(p), n_trials=1)
    assert calls[-1]["layers"] == 1 and calls[-1]["lr"] == pytest.approx(0.5)


def test_ask_hands_out_an_enqueued_point_once_before_new_suggestions():
    s = kbo.Study(None, "q", SPACE, seed=2)
    s.enqueue({"lr": 0.01, "layers": 4, "opt": "adam"})
    first = s.ask()
    assert first.id == 0 and s.params(first) == {"lr": pytest.approx(0.01), "layers": 4, "opt": "adam", "seed": 3}
    second = s.ask()  # the queued point was handed out: a new suggestion
    assert second.id == 1 and len(s.trials) == 2
    s.tell(first, 0.0)
    s.tell(second, mixed(s.params(second)))
    s.enqueue({"lr": 0.5, "layers": 1, "opt": "sgd"})  # during the study
    assert s.params(s.ask())["layers"] == 1
    assert s.ask().id == 3 and len(s.trials) == 4


def test_optimize_with_an_executor_evaluates_enqueued_points_once():
    import concurrent.futures as cf
    s = kbo.Study(None, "qe", SPACE, seed=3)
    s.enqueue({"lr": 0.01, "layers": 4, "opt": "adam"})
    s.enqueue({"lr": 0.1, "layers": 2, "opt": "sgd"})
    with cf.ThreadPoolExecutor(2) as ex:
        res = s.optimize(mixed, n_trials=4, executor=ex)
    pts = [(s.params(t)["layers"], s.params(t)["opt"]) for t in res.trials]
    assert pts[:2] == [(4, "adam"), (2, "sgd")] and len(pts) == 4
    assert all(t.state == "complete" for t in res.trials) and res.best_value < 1e-12


def constrained(x):
    # Minimise x0 + x1 on [0, 1]^2 subject to x0^2 + x1^2 >= 1 (c = 1 - |x|^2 <= 0): optimum 1 at (1, 0), (0, 1).
    return float(x[0] + x[1]), [1.0 - float(x[0] ** 2 + x[1] ** 2)]


def test_constraints_best_is_the_best_feasible_and_a_tuple_or_dict_works():
    res = kbo.minimize(constrained, [(0, 1), (0, 1)], iters=20, seed=0)
    feasible = [t for t in res.trials if t.state == "complete" and t.feasible]
    assert feasible and all(len(t.constraints) == 1 for t in res.trials if t.state == "complete")
    assert res.best_value == min(t.value for t in feasible)
    assert res.best_value < min(t.value for t in res.trials if t.state == "complete" and not t.feasible) + 1.0
    assert res.best_value < 1.1  # feasible optimum 1.0
    r2 = kbo.minimize(lambda x: {"value": constrained(x)[0], "constraints": constrained(x)[1]}, [(0, 1), (0, 1)],
                      iters=0, seed=0)
    assert [t.constraints for t in r2.trials] == [t.constraints for t in res.trials[:5]]


def test_infeasible_only_study_says_so_and_has_no_best():
    res = kbo.minimize(lambda x: (float(x[0]), [1.0]), [(0, 1)], iters=1, seed=0)
    assert res.best_value is None and res.best_trial is None
    assert "no feasible trial" in res.to_dict()["note"]


def test_a_constraint_list_whose_length_changes_is_an_input_error():
    calls = [0]

    def f(x):
        calls[0] += 1
        return float(x[0]), [0.0] * (1 if calls[0] < 3 else 2)

    s = kbo.Study(None, "c", [(0, 1)])
    with pytest.raises(kbo.InputError, match="constraints: the objective returned 2 constraint value"):
        s.optimize(f, n_trials=5)
    assert sum(t.state == "complete" for t in s.trials) == 2
